#!/usr/bin/env python3
"""One frontend job of the benchmark's module, timed per variant of some of its files.

A whole build of the module takes a minute and varies by a third from one run to the next on a
shared machine; one job takes a second, so small changes to the generated code can be compared
in alternating runs. Each job is the command SwiftPM runs (taken from `swift build -v`) with the
variant's files as primaries and every other file of the module given too, as in the build.

    one_job.py ROOT VARIANT [VARIANT ...]

ROOT is a scratch package that bench.py made (COMPILE_BENCH_ROOT). A VARIANT is a folder of
files named as files of ROOT/Generated (same relative paths) that stand in for them; they are the
primaries. ROUNDS (default 5) alternating runs each; prints min and median CPU seconds.

COUNT=instructions runs each job once under valgrind's callgrind instead and prints the
instructions it executed: about 20 s a job, but the same count every run, where CPU time on these
shared machines moves by a fifth between runs (apt-get install valgrind).

Every job writes its objects into a folder of its own: the frontend skips LLVM for an object
whose existing file holds the same IR (it compares a hash), which would time a re-run at half.
"""
import glob, os, re, resource, shlex, shutil, statistics, subprocess, sys, tempfile

ROUNDS = int(os.environ.get("ROUNDS", "5"))
COUNT_INSTRUCTIONS = os.environ.get("COUNT") == "instructions"
# Outputs of the captured command that one standalone job must not write (or cannot, for
# a file list it no longer uses).
DROPPED_WITH_VALUE = {
    "-filelist", "-primary-file", "-o", "-emit-dependencies-path", "-emit-reference-dependencies-path",
    "-serialize-diagnostics-path", "-index-store-path", "-output-file-map", "-supplementary-output-file-map",
    "-index-unit-output-path", "-emit-module-doc-path", "-emit-module-path", "-emit-module-source-info-path",
    "-emit-abi-descriptor-path", "-const-gather-protocols-file",
}
DROPPED = {"-c", "-index-system-modules"}

def frontend_flags(root):
    """The compile command of one BenchClient job, without its files and outputs."""
    generated = os.path.join(root, "Generated")
    first = sorted(glob.glob(os.path.join(generated, "**", "*API.swift"), recursive=True))[0]
    os.utime(first)
    log = subprocess.run(["swift", "build", "--target", "BenchClient", "-v"], cwd=root, capture_output=True, text=True).stdout
    line = next(l for l in log.splitlines() if "swift-frontend -frontend -c" in l and "BenchClient" in l)
    words, flags, skip = shlex.split(line), [], False
    for word in words:
        if skip:
            skip = False
        elif word in DROPPED_WITH_VALUE:
            skip = True
        elif word not in DROPPED and not word.endswith(".swift"):
            flags.append(word)
    return flags

def main():
    root, variants = os.path.abspath(sys.argv[1]), [os.path.abspath(v) for v in sys.argv[2:]]
    if not variants:
        sys.exit(__doc__)
    generated = os.path.join(root, "Generated")
    files = sorted(glob.glob(os.path.join(generated, "**", "*.swift"), recursive=True))
    flags = frontend_flags(root)

    def job(variant):
        replaced = {}
        for path in glob.glob(os.path.join(variant, "**", "*.swift"), recursive=True):
            original = os.path.join(generated, os.path.relpath(path, variant))
            if original not in files:
                sys.exit(f"{path}: no file {os.path.relpath(original, root)} in the module")
            replaced[original] = path
        arguments = []
        for path in files:
            arguments += ["-primary-file", replaced[path]] if path in replaced else [path]
        out = tempfile.mkdtemp(prefix="one-job-")
        for index, _ in enumerate(replaced):
            arguments += ["-o", os.path.join(out, f"{index}.o")]
        command = flags + arguments + ["-c"]
        profile = os.path.join(out, "callgrind.out")
        if COUNT_INSTRUCTIONS:
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}"] + command
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = subprocess.run(command, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if result.returncode != 0:
            sys.exit(f"{variant}: the job failed\n{result.stderr[-3000:]}")
        if COUNT_INSTRUCTIONS:
            count = int(re.search(r"^summary: (\d+)", open(profile).read(), re.M).group(1))
            shutil.rmtree(out)
            return count
        shutil.rmtree(out)
        return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

    width = max(len(os.path.basename(v)) for v in variants)
    if COUNT_INSTRUCTIONS:
        first = None
        for variant in variants:
            count = job(variant)
            first = first or count
            print(f"{os.path.basename(variant):{width}}  {count / 1e9:.3f} G instructions  {count / first:.2f}x", flush=True)
        return
    seconds = {variant: [] for variant in variants}
    for _ in range(ROUNDS):
        for variant in variants:
            seconds[variant].append(job(variant))
    for variant, times in seconds.items():
        print(f"{os.path.basename(variant):{width}}  CPU s min {min(times):.2f}  median {statistics.median(times):.2f}")

if __name__ == "__main__":
    main()
