"""The Python package's figures for `make bench`: what a call through Python costs against the
same C call, measured in one run, appended to the bench's JSON and printed as a table.

    python bench/python_package.py [--quick] [--json PATH]

- reach.solve on a request dict against the C request handling it calls (parse, solve, write)
  run back to back in C: the per-call time of each and Python's overhead per call;
- reach.two_bone_batch and reach.fabrik_batch on numpy arrays against the same C batch call run
  back to back in C on the same arrays: throughput of each and the share Python keeps.

Each figure is timed in interleaved rounds (round r runs every figure once, starting at a
different one), so load from other processes hits the Python and the C figure alike; a figure
is the median, minimum and maximum over the rounds. bench/README.md names every figure."""

import argparse
import json
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
        start = time.perf_counter()
        call(n)
        if time.perf_counter() - start >= seconds or n >= 1 << 24:
            return n
        n *= 2


def python_loop(function):
    def run(n):
        for _ in range(n):
            function()

    return run


def add_two_bone(cases, rng, count):
    root = rng.uniform(-1, 1, (3, count))
    mid = root + rng.normal(size=(3, count)) * 0.5
    end = mid + rng.normal(size=(3, count)) * 0.5
    target = root + rng.normal(size=(3, count)) * 0.7
    pole = root + rng.normal(size=(3, count))
    out_mid, out_end = np.empty((3, count)), np.empty((3, count))
    residual, reached, status = np.empty(count), np.empty(count, np.uint8), np.empty(count, np.uint8)

    def c(n):
        return n * _reach.two_bone_batch(count, root, mid, end, target, out_mid, out_end, residual, reached, status,
                                         pole, 1.0, 0.0, 1.0, 0.0, n)

    def numpy():
        reach.two_bone_batch(root, mid, end, target, pole, out_mid=out_mid, out_end=out_end)

    cases[f"python/two_bone_batch/{count}/c"] = ("solves/s", c, -count)
    cases[f"python/two_bone_batch/{count}/numpy"] = ("solves/s", python_loop(numpy), -count)


def add_fabrik(cases, rng, count, bones):
    lengths = rng.uniform(0.2, 1, (bones, count))
    root = np.zeros((3, count))
    direction = rng.normal(size=(3, count))
    # Targets within reach (up to 90 % of each chain's length), so chains iterate.
    target = direction / np.linalg.norm(direction, axis=0) * lengths.sum(axis=0) * rng.uniform(0.1, 0.9, count)
    joints = np.zeros((3, bones + 1, count))
    outputs = np.empty(count), np.empty(count, np.intc), np.empty(count, np.uint8), np.empty(count, np.uint8)

    def c(n):
        return n * _reach.fabrik_batch(count, bones, lengths, root, target, joints, *outputs, 64, 0.0, 1, 0.0, 1.0,
                                       0.0, n)

    def numpy():
        reach.fabrik_batch(lengths, root, target, joints, cold_start=True)

    cases[f"python/fabrik_batch/{count}x{bones}/c"] = ("solves/s", c, -count)
    cases[f"python/fabrik_batch/{count}x{bones}/numpy"] = ("solves/s", python_loop(numpy), -count)


def figures_for(rounds, seconds):
    """{name: (unit, [per-round values])} for every figure, timed in interleaved rounds."""
    leg = json.loads((ROOT / "cli" / "examples" / "leg.json").read_text())
    chain = json.loads((ROOT / "cli" / "examples" / "chain_fabrik.json").read_text())
    rng = np.random.default_rng(1)
    cases = {}
    for name, request in (("leg", leg), ("chain", chain)):
        text = encode(request)
        cases[f"python/solve/{name}/c"] = ("us/call", lambda n, t=text: _reach.solve(t, None, n) * n, 1e6)
        cases[f"python/solve/{name}/python"] = ("us/call", python_loop(lambda r=request: reach.solve(r)), 1e6)
    for count in (1000, 100000):
        add_two_bone(cases, rng, count)
    add_fabrik(cases, rng, 1000, 8)
    names = list(cases)
    calls = {name: calibrate(cases[name][1], seconds) for name in names}
    values = {name: [] for name in names}
    for r in range(rounds):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            unit, run, scale = cases[name]
            start = time.perf_counter()
            measured = run(calls[name])
            elapsed = time.perf_counter() - start
            # The C loops report their own time (no Python between calls); the Python loops are timed here.
            per_call = (measured if name.endswith("/c") else elapsed) / calls[name]
            values[name].append(per_call * scale if scale > 0 else -scale / per_call)
    return {name: (cases[name][0], values[name]) for name in names}


def summarise(figures):
    rows = [{"name": name, "unit": unit, "median": statistics.median(v), "min": min(v), "max": max(v),
             "repeats": len(v)} for name, (unit, v) in figures.items()]
    medians = {row["name"]: row["median"] for row in rows}
    ratios = []
    for name in ("leg", "chain"):
        py, c = f"python/solve/{name}/python", f"python/solve/{name}/c"
        rows.append({"name": f"python/solve/{name}/overhead", "unit": "us/call", "median": medians[py] - medians[c],
                     "min": min(figures[py][1]) - max(figures[c][1]), "max": max(figures[py][1]) - min(figures[c][1]),
                     "repeats": len(figures[py][1])})
        ratios.append({"name": f"python/ratio/solve_{name}", "numerator": py, "denominator": c,
                       "value": medians[py] / medians[c]})
    for batch in [n for n in medians if n.endswith("/numpy")]:
        c = batch[: -len("numpy")] + "c"
        kind = "_".join(batch.split("/")[1:3])
        ratios.append({"name": f"python/ratio/{kind}", "numerator": batch, "denominator": c,
                       "value": medians[batch] / medians[c]})
    return rows, ratios


def print_table(rows, ratios):
    print(f"\nreach Python package ({sys.version.split()[0]}, numpy {np.__version__}, batch {_reach.batch_isa}, double)")
    print(f"{'figure':<46} {'unit':<10} {'median':>12} {'min':>12} {'max':>12}  repeats")
    for row in rows:
        print(f"{row['name']:<46} {row['unit']:<10} {row['median']:>12.4g} {row['min']:>12.4g} {row['max']:>12.4g}"
              f"  {row['repeats']:>7}")
    print(f"\n{'ratio':<34} {'numerator / denominator (medians)':<78} value")
    for ratio in ratios:
        print(f"{ratio['name']:<34} {ratio['numerator'] + ' / ' + ratio['denominator']:<78} {ratio['value']:.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds of about 2 ms: a smoke run")
    parser.add_argument("--json", help="append the figures and ratios to this bench JSON (made if absent)")
    args = parser.parse_args()
    rows, ratios = summarise(figures_for(3 if args.quick else 15, 0.002 if args.quick else 0.1))
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
