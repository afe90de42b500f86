"""The Python bench (bench/python_package.py) runs, writes well-formed figures and ratios into a
bench JSON beside the C bench's, and bench/README.md names every one of them. Nothing here is
timed against a bound: speed is the bench's to report."""

import json
import math
import re
import subprocess
import sys


def test_the_python_bench_writes_named_figures(root, tmp_path):
    out = tmp_path / "results.json"
    out.write_text(json.dumps({"machine": {"cpu": "x"}, "figures": [{"name": "two_bone/reference"}], "ratios": []}))
    subprocess.run([sys.executable, str(root / "bench" / "python_package.py"), "--quick", "--json", str(out)],
                   check=True, capture_output=True)
    data = json.loads(out.read_text())
    assert data["machine"] == {"cpu": "x"} and data["figures"][0] == {"name": "two_bone/reference"}
    readme = (root / "bench" / "README.md").read_text()
    figures = [f for f in data["figures"] if f["name"].startswith("python/")]
    ratios = [r for r in data["ratios"] if r["name"].startswith("python/")]
    # reach.solve on two requests (C, Python, overhead); two batch kinds at four sizes (C, numpy).
    assert len(figures) == 2 * 3 + 2 * 4 * 2 and len(ratios) == 2 + 2 * 4
    for figure in figures:
        assert re.fullmatch(r"[a-z0-9_]+(/[a-z0-9_]+)+", figure["name"])
        assert f"`{figure['name']}`" in readme or f"`{re.sub(r'/[0-9]+/', '/N/', figure['name'])}`" in readme
        assert figure["repeats"] == 3 and all(math.isfinite(figure[k]) for k in ("median", "min", "max"))
    for ratio in ratios:
        assert f"`{ratio['name']}`" in readme or f"`{re.sub(r'_[0-9]+$', '_N', ratio['name'])}`" in readme
        assert 0 < ratio["min"] <= ratio["value"] <= ratio["max"]
        assert {ratio["numerator"], ratio["denominator"]} <= {f["name"] for f in figures}
