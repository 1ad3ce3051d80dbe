#!/usr/bin/env python3
"""Whole builds of the benchmark's module in two or more scratch packages, alternating.

    alternate.py ROOT [ROOT ...]

Each ROOT is a package bench.py made (COMPILE_BENCH_ROOT), for instance one on the tree before a
change and one after. Every round touches each ROOT's generated files, removes its object files
(so that code generation runs too) and runs `swift build --target BenchClient` there, one ROOT
after the other, so that a neighbour slowing the VM slows every side alike. ROUNDS (default 3).
Prints each build's wall and CPU seconds and the medians.
"""
import os, resource, statistics, subprocess, sys, time

from full_build import prepare_full_build

def build(root):
    prepare_full_build(root, "BenchClient", "Generated")
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    result = subprocess.run(["swift", "build", "--target", "BenchClient"], cwd=root, capture_output=True, text=True)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"{root}: the build failed\n{result.stdout[-3000:]}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

def main():
    roots = sys.argv[1:]
    if not roots:
        sys.exit(__doc__)
    runs = {root: [] for root in roots}
    for _ in range(int(os.environ.get("ROUNDS", "3"))):
        for root in roots:
            runs[root].append(build(root))
            print(f"{root}: {runs[root][-1][0]:.1f} s wall, {runs[root][-1][1]:.1f} s CPU", flush=True)
    for root, times in runs.items():
        print(f"{root}: median {statistics.median(t[0] for t in times):.1f} s wall, {statistics.median(t[1] for t in times):.1f} s CPU")

if __name__ == "__main__":
    main()
