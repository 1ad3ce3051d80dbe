#!/usr/bin/env python3
"""A/B of apigen builds on cold runs: each build in turn generates the same N = 1,000 workspace
into a fresh folder (nothing deleted while it runs, see docs/ARCHITECTURE.md), ROUNDS times; prints
median wall and CPU seconds per build, and every run's stage timings (APIGEN_TIMINGS).

    compare_builds.py APIGEN_A [APIGEN_B ...]      (ROUNDS=7 by default)

Copy a build aside (cp .build/release/apigen /tmp/apigen-before) before changing it.
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))

def main():
    builds = [os.path.abspath(b) for b in sys.argv[1:]]
    rounds = int(os.environ.get("ROUNDS", "7"))
    base = tempfile.mkdtemp(prefix="apigen-ab-")
    subprocess.run([sys.executable, os.path.join(HERE, "make_workspace.py"), "1000", os.path.join(base, "source")], check=True, capture_output=True)
    runs = {build: [] for build in builds}
    for round in range(rounds):
        for index, build in enumerate(builds):
            folder = os.path.join(base, f"{index}-{round}")
            shutil.copytree(os.path.join(base, "source", "apis"), os.path.join(folder, "apis"))
            start = time.perf_counter()
            result = subprocess.run(["/usr/bin/time", "-f", "%U %S", build, "-q", "-w", os.path.join(folder, "apis", "workspace.yaml")],
                                    capture_output=True, text=True, env=dict(os.environ, APIGEN_TIMINGS="1"))
            wall = time.perf_counter() - start
            lines = result.stderr.strip().splitlines()
            if result.returncode != 0:
                sys.exit(result.stderr)
            user, system = map(float, lines[-1].split())
            runs[build].append((wall, user + system, lines[0]))
    for build in builds:
        print(f"{build}: wall median {statistics.median(r[0] for r in runs[build]):.3f} s, CPU median {statistics.median(r[1] for r in runs[build]):.3f} s")
        for wall, cpu, stages in runs[build]:
            print(f"    {wall:.3f} {cpu:.3f}  {stages}")
    shutil.rmtree(base, ignore_errors=True)

if __name__ == "__main__":
    main()
