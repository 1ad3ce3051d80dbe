#!/usr/bin/env python3
"""Generation benchmark: apigen against swift-openapi-generator on the same API surface.

For each N it writes a workspace and the equivalent OpenAPI document (make_workspace.py), then
times, RUNS times each, median reported:
  - apigen cold (empty output folder), a no-op re-run, and a re-run after editing one API;
  - the peer, swift-openapi-generator (release build), generating types and client;
and the peak resident memory of a cold apigen run. Prints a Markdown table.

    bench.py APIGEN PEER [N ...]     (make bench-generation runs it)
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

RUNS = int(os.environ.get("RUNS", "5"))
HERE = os.path.dirname(os.path.abspath(__file__))
# Where the workspaces and both tools' output go: tmpfs by default, so that the figures are the
# tools' own work. On these machines' ext4 (no journal) creating files is slow for minutes after
# thousands were deleted anywhere on the disk (see docs/ARCHITECTURE.md); BENCH_DIR=/tmp measures
# on disk.
BENCH_DIR = os.environ.get("BENCH_DIR") or ("/dev/shm" if os.path.isdir("/dev/shm") else None)

def timed(command, prepare=None):
    """Median wall seconds and median peak RSS (MiB) of RUNS runs; `prepare` runs untimed before each."""
    walls, peaks = [], []
    for _ in range(RUNS):
        if prepare: prepare()
        with tempfile.NamedTemporaryFile("r") as measured:
            start = time.perf_counter()
            result = subprocess.run(["/usr/bin/time", "-o", measured.name, "-f", "%M"] + command, capture_output=True, text=True)
            walls.append(time.perf_counter() - start)
            if result.returncode != 0:
                sys.exit(f"failed: {' '.join(command)}\n{result.stdout}\n{result.stderr}")
            peaks.append(int(measured.read().strip().splitlines()[-1]) / 1024)
    return statistics.median(walls), statistics.median(peaks)

def main():
    apigen, peer = sys.argv[1], sys.argv[2]
    sizes = [int(n) for n in sys.argv[3:]] or [100, 1000, 10000]
    rows, roots = [], []
    for n in sizes:
        root = tempfile.mkdtemp(prefix=f"apigen-bench-{n}-", dir=BENCH_DIR)
        subprocess.run([sys.executable, os.path.join(HERE, "make_workspace.py"), str(n), root], check=True)
        workspace = os.path.join(root, "apis", "workspace.yaml")
        generated = os.path.join(root, "Generated")
        apigen_run = [apigen, "-q", "-w", workspace]

        # Each cold run starts without an output folder: the last run's is moved aside, not
        # deleted. On ext4 without a journal (these machines) a file created soon after thousands
        # were deleted waits while the kernel skips their inodes (`recently_deleted`), which made
        # the benchmark time its own clean-up; everything is deleted at the end.
        aside = iter(range(RUNS))
        def move_aside():
            if os.path.exists(generated):
                os.rename(generated, os.path.join(root, f"cold-run-{next(aside)}"))
        cold, cold_mib = timed(apigen_run, prepare=move_aside)
        files = sum(len(f) for _, _, f in os.walk(generated))
        noop, noop_mib = timed(apigen_run)
        first = os.path.join(root, "apis", "items0000.yaml")
        def edit_one():
            text = open(first).read()
            marker = "    method: GET\n"
            # Alternate the first API's description so every run has exactly one change to write.
            if "description: edited" in text:
                text = text.replace("    description: edited\n", "", 1)
            else:
                text = text.replace(marker, "    description: edited\n" + marker, 1)
            open(first, "w").write(text)
        edit, _ = timed(apigen_run, prepare=edit_one)

        peer_out = os.path.join(root, "peer-out")
        def fresh_peer():
            shutil.rmtree(peer_out, ignore_errors=True)
            os.makedirs(peer_out)
        peer_cold, peer_mib = timed([peer, "generate", os.path.join(root, "openapi", "openapi.yaml"),
                                     "--config", os.path.join(root, "openapi", "openapi-generator-config.yaml"),
                                     "--output-directory", peer_out], prepare=fresh_peer)
        rows.append((n, files, cold, noop, edit, cold_mib, peer_cold, peer_mib))
        roots.append(root)
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)

    print(f"Median of {RUNS} runs each; wall seconds; peak RSS in MiB.\n")
    print("| N | files | apigen cold | no-op | edit one | apigen MiB | peer cold | peer MiB | peer / apigen |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, files, cold, noop, edit, mib, peer_cold, peer_mib in rows:
        print(f"| {n:,} | {files:,} | {cold:.3f} | {noop:.3f} | {edit:.3f} | {mib:.0f} | {peer_cold:.3f} | {peer_mib:.0f} | {peer_cold / cold:.1f}× |")

if __name__ == "__main__":
    main()
