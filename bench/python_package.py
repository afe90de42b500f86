"""The Python package's figures for `make bench`: what a call through Python costs against the
same C call, measured in one run, appended to the bench's JSON and printed as a table.

    python bench/python_package.py [--quick] [--json PATH]

- reach.solve on a request dict against the C request handling it calls (parse, solve, write)
  run back to back in C: the per-call time of each and Python's overhead per call;
- reach.two_bone_batch and reach.fabrik_batch on numpy arrays against the same C batch call run
  back to back in C on the same arrays, for batches of 100 to 100 000 limbs or chains:
  throughput of each and the share Python keeps.

Each pair (the Python call and its C call) is timed in turns within one round, the C one first
in even rounds and the Python one first in odd ones, and the rounds visit the pairs starting
at a different one each time, so load from other processes hits both alike. A figure is the
median, minimum and maximum over the rounds; a ratio is the median of the rounds' ratios, each
from two turns timed back to back. Times are the thread's CPU time (time.thread_time here,
CLOCK_THREAD_CPUTIME_ID in the extension's loops), so waiting for a core on a loaded machine
counts on neither side. bench/README.md names every figure."""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import reach
from reach import _reach
from reach.requests import encode

ROOT = Path(__file__).resolve().parent.parent


def calibrate(call, seconds):
    """How many calls take about `seconds` (doubling, which also warms caches)."""
    n = 1
    while True:
        start = time.thread_time()
        call(n)
        if time.thread_time() - start >= seconds or n >= 1 << 24:
            return n
        n *= 2


def python_loop(function):
    def run(n):
        for _ in range(n):
            function()

    return run


BATCH_SIZES = (100, 1000, 10000, 100000)
FABRIK_BONES = 8


def add_two_bone(pairs, rng, count):
    root = rng.uniform(-1, 1, (3, count))
    mid = root + rng.normal(size=(3, count)) * 0.5
    end = mid + rng.normal(size=(3, count)) * 0.5
    target = root + rng.normal(size=(3, count)) * 0.7
    pole = root + rng.normal(size=(3, count))
    # Every output given, as the C call is given them: the two calls do the same work.
    outputs = {"out_mid": np.empty((3, count)), "out_end": np.empty((3, count)), "out_residual": np.empty(count),
               "out_reached": np.empty(count, np.uint8), "out_status": np.empty(count, np.uint8)}

    out_mid, out_end, residual, reached, status = outputs.values()

    def c(n):
        return n * _reach.time_two_bone_batch(n, root, mid, end, target, pole, **outputs)

    # Keywords written out, as a program writes them (a ** dict would add its unpacking per call).
    def numpy():
        reach.two_bone_batch(root, mid, end, target, pole, out_mid=out_mid, out_end=out_end, out_residual=residual,
                             out_reached=reached, out_status=status)

    pairs[f"python/two_bone_batch/{count}"] = ("solves/s", c, python_loop(numpy), -count)


def add_fabrik(pairs, rng, count):
    bones = FABRIK_BONES
    lengths = rng.uniform(0.2, 1, (bones, count))
    root = np.zeros((3, count))
    direction = rng.normal(size=(3, count))
    # Targets within reach (up to 90 % of each chain's length), so chains iterate.
    target = direction / np.linalg.norm(direction, axis=0) * lengths.sum(axis=0) * rng.uniform(0.1, 0.9, count)
    joints = np.zeros((3, bones + 1, count))
    outputs = {"out_residual": np.empty(count), "out_iterations": np.empty(count, np.intc),
               "out_reached": np.empty(count, np.uint8), "out_status": np.empty(count, np.uint8)}

    residual, iterations, reached, status = outputs.values()

    def c(n):
        return n * _reach.time_fabrik_batch(n, lengths, root, target, joints, cold_start=True, **outputs)

    def numpy():
        reach.fabrik_batch(lengths, root, target, joints, cold_start=True, out_residual=residual,
                           out_iterations=iterations, out_reached=reached, out_status=status)

    pairs[f"python/fabrik_batch/{count}"] = ("solves/s", c, python_loop(numpy), -count)


def figures_for(rounds, seconds):
    """({name: (unit, [per-round values])}, {pair: [per-round Python / C ratios]}): every pair
    timed in turns, round after round."""
    leg = json.loads((ROOT / "cli" / "examples" / "leg.json").read_text())
    chain = json.loads((ROOT / "cli" / "examples" / "chain_fabrik.json").read_text())
    rng = np.random.default_rng(1)
    # pair name: (unit, C run(n) -> its own seconds, Python run(n), scale): scale > 0 turns
    # seconds per call into the unit, scale -count turns them into solves per second.
    pairs = {}
    for name, request in (("solve/leg", leg), ("solve/chain", chain)):
        text = encode(request)
        pairs[f"python/{name}"] = ("us/call", lambda n, t=text: _reach.solve(t, None, n) * n,
                                   python_loop(lambda r=request: reach.solve(r)), 1e6)
    for count in BATCH_SIZES:
        add_two_bone(pairs, rng, count)
    for count in BATCH_SIZES:
        add_fabrik(pairs, rng, count)
    names = list(pairs)
    calls = {name: (calibrate(pairs[name][1], seconds), calibrate(pairs[name][2], seconds)) for name in names}
    python_name = {name: name + ("/python" if pairs[name][0] == "us/call" else "/numpy") for name in names}
    values = {key: [] for name in names for key in (name + "/c", python_name[name])}
    ratios = {name: [] for name in names}
    for r in range(rounds):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            unit, c_run, python_run, scale = pairs[name]
            per_call = {}
            for side in (("c", "python") if r % 2 == 0 else ("python", "c")):
                n = calls[name][0 if side == "c" else 1]
                start = time.thread_time()
                measured = (c_run if side == "c" else python_run)(n)
                elapsed = time.thread_time() - start
                # The C loops report their own time (no Python between calls); the Python loops are timed here.
                per_call[side] = (measured if side == "c" else elapsed) / n
            for side, key in (("c", name + "/c"), ("python", python_name[name])):
                values[key].append(per_call[side] * scale if scale > 0 else -scale / per_call[side])
            # Time over time for a call, throughput over throughput for a batch.
            ratios[name].append(per_call["python"] / per_call["c"] if scale > 0 else per_call["c"] / per_call["python"])
    units = {key: pairs[key.rsplit("/", 1)[0]][0] for key in values}
    return {key: (units[key], values[key]) for key in values}, ratios


def summarise(figures, ratios_by_pair):
    rows = [{"name": name, "unit": unit, "median": statistics.median(v), "min": min(v), "max": max(v),
             "repeats": len(v)} for name, (unit, v) in figures.items()]
    medians = {row["name"]: row["median"] for row in rows}
    for name in ("leg", "chain"):
        py, c = f"python/solve/{name}/python", f"python/solve/{name}/c"
        overhead = [p - q for p, q in zip(figures[py][1], figures[c][1])]
        rows.append({"name": f"python/solve/{name}/overhead", "unit": "us/call", "median": statistics.median(overhead),
                     "min": min(overhead), "max": max(overhead), "repeats": len(overhead)})
    ratios = []
    for pair, values in ratios_by_pair.items():
        numerator = next(n for n in medians if n.startswith(pair + "/") and not n.endswith("/c"))
        ratios.append({"name": "python/ratio/" + "_".join(pair.split("/")[1:]), "numerator": numerator,
                       "denominator": pair + "/c", "value": statistics.median(values), "min": min(values),
                       "max": max(values)})
    return rows, ratios


def print_table(rows, ratios):
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"\nreach Python package ({sys.version.split()[0]}, numpy {np.__version__}, batch {_reach.batch_isa}, double;"
          f" load average {load})")
    print(f"{'figure':<46} {'unit':<10} {'median':>12} {'min':>12} {'max':>12}  repeats")
    for row in rows:
        print(f"{row['name']:<46} {row['unit']:<10} {row['median']:>12.4g} {row['min']:>12.4g} {row['max']:>12.4g}"
              f"  {row['repeats']:>7}")
    print(f"\n{'ratio (median of the rounds)':<34} {'numerator / denominator':<66} {'value':>6} {'min':>6} {'max':>6}")
    for ratio in ratios:
        print(f"{ratio['name']:<34} {ratio['numerator'] + ' / ' + ratio['denominator']:<66} {ratio['value']:>6.3f}"
              f" {ratio['min']:>6.3f} {ratio['max']:>6.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds of about 2 ms: a smoke run")
    parser.add_argument("--json", help="append the figures and ratios to this bench JSON (made if absent)")
    args = parser.parse_args()
    rows, ratios = summarise(*figures_for(3 if args.quick else 15, 0.002 if args.quick else 0.1))
    print_table(rows, ratios)
    if args.json:
        path = Path(args.json)
        data = json.loads(path.read_text()) if path.exists() else {"figures": [], "ratios": []}
        data["figures"] = [f for f in data.get("figures", []) if not f["name"].startswith("python/")] + rows
        data["ratios"] = [r for r in data.get("ratios", []) if not r["name"].startswith("python/")] + ratios
        path.write_text(json.dumps(data, indent=2) + "\n")
        print(f"\nappended to {path}")


if __name__ == "__main__":
    main()
