#!/usr/bin/env python3
"""Times `reach solve --jsonl` on 10-bone FABRIK requests, the CLI's figure in
docs/performance.md (reach-bench times the library in-process; the CLI is a separate program).

    python3 cli/tools/jsonl_speed.py build/float/cli/reach [--lines N] [--runs R]

Writes N request lines (default 10 000; seeded, the same on every machine) of a 10-bone chain
of 0.1 links and a target within reach, once with the rig on every line and once without it
(given by --rig), runs the tool on each R times (default 3), checks that every line was
solved, and prints the fastest run's CPU time (user + system) and wall time per request. On a
shared machine read the CPU time: the wall time counts other processes' turns too."""
import json
import os
import random
import subprocess
import sys
import tempfile
import time


def requests(count, with_rig):
    rng = random.Random(1)
    bones = [{"name": "b0"}] + [
        {"name": f"b{i}", "parent": f"b{i - 1}", "position": [0, 0.1, 0]} for i in range(1, 10)
    ]
    for _ in range(count):
        while True:
            target = [rng.uniform(-0.9, 0.9) for _ in range(3)]
            if sum(c * c for c in target) < 0.8:
                break
        request = {"solver": {"type": "fabrik"}, "targets": [{"bone": "b9", "position": target}]}
        if with_rig:
            request = {"rig": {"bones": bones}, **request}
        yield json.dumps(request)
    if not with_rig:
        yield json.dumps({"rig": {"bones": bones}})


def timed(command, lines, output_path):
    """(CPU seconds, wall seconds) of one run, its output to a file; every output line must be a
    solved result."""
    with open(output_path, "w") as output_file:
        before = os.times()
        start = time.perf_counter()
        subprocess.run(command, stdout=output_file, check=True)
        wall = time.perf_counter() - start
        after = os.times()
    with open(output_path) as output_file:
        output = output_file.read().splitlines()
    if len(output) != lines or not all(line.startswith('{"status":"ok"') for line in output):
        sys.exit(f"{' '.join(command)}: not every line was solved")
    return (after.children_user - before.children_user) + (after.children_system - before.children_system), wall


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    reach, count, runs = args[0], 10000, 3
    if "--lines" in args:
        count = int(args[args.index("--lines") + 1])
    if "--runs" in args:
        runs = int(args[args.index("--runs") + 1])
    with tempfile.TemporaryDirectory() as folder:
        with_rig = os.path.join(folder, "with_rig.jsonl")
        with open(with_rig, "w") as f:
            f.write("\n".join(requests(count, True)) + "\n")
        *lines, rig = list(requests(count, False))
        without_rig, rig_file = os.path.join(folder, "lines.jsonl"), os.path.join(folder, "rig.json")
        with open(without_rig, "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(rig_file, "w") as f:
            f.write(rig)
        cases = [("rig on every line", [reach, "solve", "--jsonl", with_rig]),
                 ("rig given by --rig", [reach, "solve", "--jsonl", without_rig, "--rig", rig_file])]
        for name, command in cases:
            best = min((timed(command, count, os.path.join(folder, "out.jsonl")) for _ in range(runs)), key=lambda t: t[0])
            print(f"{name}: {best[0] / count * 1e6:.1f} us CPU, {best[1] / count * 1e6:.1f} us wall a request "
                  f"({count / best[0]:.0f} requests/s of CPU)")


main()
