#!/usr/bin/env python3
"""Compile-time benchmark: a debug build of the client module apigen generates for N APIs
against a debug build of swift-openapi-generator's output for the equivalent OpenAPI document.

A scratch package holds both generated modules (BenchClient on our APIRuntime, PeerClient on
swift-openapi-runtime). Dependencies are built first; then each target alone is rebuilt from
scratch (every source touched, its object files removed) once untimed, then RUNS times, the two
sides alternating, medians reported. Finally one manifest is edited, apigen re-run, and the
incremental rebuild of BenchClient is checked for which object files it wrote again (the swift
driver's own remarks do not reach SwiftPM's output).

    bench.py REPO APIGEN PEER [N]     (make bench-compile runs it; N defaults to 1000)
    COMPILE_SKIP_PEER=1               our module only (the peer's takes minutes a build)
    COMPILE_LET_FIELDS=1              models with let fields (mutableModels: false)
"""
import os, resource, shutil, statistics, subprocess, sys, tempfile, time

from full_build import prepare_full_build

RUNS = int(os.environ.get("RUNS", "3"))
SKIP_PEER = bool(os.environ.get("COMPILE_SKIP_PEER"))
HERE = os.path.dirname(os.path.abspath(__file__))

def run(command, cwd):
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return result.stdout

def main():
    repo, apigen, peer = (os.path.abspath(p) for p in sys.argv[1:4])
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    # COMPILE_BENCH_ROOT reuses a scratch package (and its built dependencies) between runs.
    root = os.environ.get("COMPILE_BENCH_ROOT") or tempfile.mkdtemp(prefix=f"apigen-compile-{n}-")
    subprocess.run([sys.executable, os.path.join(HERE, "..", "Generation", "make_workspace.py"), str(n), root], check=True)
    workspace_file = os.path.join(root, "apis", "workspace.yaml")
    if os.environ.get("COMPILE_LET_FIELDS") and "mutableModels:" not in open(workspace_file).read():
        with open(workspace_file, "a") as f:
            f.write("mutableModels: false\n")
    run([apigen, "-q", "-w", "apis/workspace.yaml"], root)
    shutil.rmtree(os.path.join(root, "PeerGenerated"), ignore_errors=True)
    os.makedirs(os.path.join(root, "PeerGenerated"))
    if SKIP_PEER:
        open(os.path.join(root, "PeerGenerated", "Empty.swift"), "w").write("")
    else:
        run([peer, "generate", "openapi/openapi.yaml", "--config", "openapi/openapi-generator-config.yaml",
             "--output-directory", "PeerGenerated"], root)
    with open(os.path.join(root, "Package.swift"), "w") as f:
        f.write(f'''// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "CompileBench",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "{repo}"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
    ],
    targets: [
        .target(name: "BenchClient", dependencies: [.product(name: "APIRuntime", package: "{os.path.basename(repo)}")], path: "Generated",
                swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "PeerClient", dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")], path: "PeerGenerated",
                swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
''')
    # Dependencies first, untimed.
    run(["swift", "build", "--target", "APIRuntime"], root)
    if not SKIP_PEER:
        run(["swift", "build", "--target", "OpenAPIRuntime"], root)

    def clean_build(target, folder, label=""):
        # The whole module compiles again, code generation included; its dependencies do not.
        prepare_full_build(root, target, folder)
        start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        run(["swift", "build", "--target", target], root)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter() - start
        # CPU time beside wall time: when a neighbour on the VM slows the CPUs, both grow.
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        print(f"{target}{label}: {wall:.1f} s wall, {cpu:.1f} s CPU", file=sys.stderr, flush=True)
        return wall

    targets = [("BenchClient", "Generated")] + ([] if SKIP_PEER else [("PeerClient", "PeerGenerated")])
    # One untimed build of each first, so that every timed build finds the same warm caches.
    # (Sessions 12 and 13 saw first builds take 1.5-2x the later ones: only the first generated
    # code, the later, touch-only builds skipped it; `prepare_full_build` now prevents that.)
    for target, folder in targets:
        clean_build(target, folder, " (warm-up, not counted)")
    # Then the sides alternate, so that the VM's speed drifting over the minutes falls on both.
    times = {target: [] for target, _ in targets}
    for _ in range(RUNS):
        for target, folder in targets:
            times[target].append(clean_build(target, folder))
    ours = statistics.median(times["BenchClient"])
    theirs = None if SKIP_PEER else statistics.median(times["PeerClient"])
    ours_lines = sum(open(os.path.join(d, f)).read().count("\n") for d, _, fs in os.walk(os.path.join(root, "Generated")) for f in fs)
    peer_lines = sum(open(os.path.join(d, f)).read().count("\n") for d, _, fs in os.walk(os.path.join(root, "PeerGenerated")) for f in fs)

    # One manifest edited: which generated files change, and which object files does the
    # incremental build write again?
    objects = os.path.join(root, ".build", "debug", "BenchClient.build")
    def stamps(folder, suffix):
        found = {}
        for directory, _, names in os.walk(folder):
            for name in names:
                if name.endswith(suffix):
                    path = os.path.join(directory, name)
                    found[os.path.relpath(path, folder)] = os.stat(path).st_mtime_ns
        return found
    sources_before = {p: open(os.path.join(root, "Generated", p)).read() for p in stamps(os.path.join(root, "Generated"), ".swift")}
    objects_before = stamps(objects, ".o")
    first = os.path.join(root, "apis", "items0000.yaml")
    text = open(first).read().replace("    method: GET\n", "    description: edited\n    method: GET\n", 1)
    open(first, "w").write(text)
    run([apigen, "-q", "-w", "apis/workspace.yaml"], root)
    changed = sorted(p for p in stamps(os.path.join(root, "Generated"), ".swift")
                     if open(os.path.join(root, "Generated", p)).read() != sources_before.get(p))
    start = time.perf_counter()
    run(["swift", "build", "--target", "BenchClient"], root)
    incremental = time.perf_counter() - start
    compiled = sorted(p for p, stamp in stamps(objects, ".o").items() if objects_before.get(p) != stamp)

    print(f"Debug build of the generated module alone (dependencies built), N = {n:,}, median of {RUNS}:\n")
    print("| module | lines | build s |")
    print("|---|---:|---:|")
    print(f"| apigen (BenchClient) | {ours_lines:,} | {ours:.1f} |")
    if theirs is not None:
        print(f"| swift-openapi-generator (PeerClient) | {peer_lines:,} | {theirs:.1f} |")
        ratios = sorted(p / o for o, p in zip(times["BenchClient"], times["PeerClient"]))
        print(f"\nRatio peer / apigen: {theirs / ours:.1f}× (of the medians; round by round {ratios[0]:.1f}–{ratios[-1]:.1f}×)")
    print(f"\nAfter editing one API in one manifest: generated files changed: {', '.join(changed) or 'none'}")
    print(f"The incremental build ({incremental:.1f} s) wrote {len(compiled)} of {len(objects_before)} object files again: {', '.join(compiled) or 'none'}")
    if not os.environ.get("COMPILE_BENCH_ROOT"):
        shutil.rmtree(root, ignore_errors=True)

if __name__ == "__main__":
    main()
