"""reach.solve and reach.fk give what the `reach` tool gives, number for number, for every
request the CLI's own tests send (recorded as they run) and every command and request that
docs/cli.md and README.md show."""

import json
import re
import subprocess

import pytest
from replay import Tally, replay, strict_json


def report(tally):
    assert not tally.failures, f"{len(tally.failures)} mismatches:\n" + "\n".join(tally.failures[:10])


def test_every_request_of_the_cli_tests(cli_record):
    tally = Tally()
    with open(cli_record, "rb") as f:
        for number, raw in enumerate(f, 1):
            try:
                run = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                tally.not_a_dict += 1  # a hostile-bytes test: no str, so no dict, holds its input
                continue
            replay(run, tally, f"recorded run {number} {run['args']}")
    report(tally)
    # The CLI tests send hundreds of requests; fewer means the recording went wrong.
    assert tally.replayed >= 700, vars(tally)


def shown_runs(root):
    """The `$ reach solve|fk ...` commands of the docs, and their JSON requests."""
    for doc in ("docs/cli.md", "README.md"):
        text = (root / doc).read_text()
        for args in re.findall(r"^\$ reach ((?:solve|fk) [^>|\n]*)", text, re.M):
            yield doc, args.split(), ""
        for block in re.findall(r"```json\n(.*?)```", text, re.S):
            request = strict_json(block)
            if isinstance(request, dict) and "rig" in request:
                yield doc, ["solve" if "targets" in request else "fk", "-"], block


def test_every_request_the_docs_show(root, cli):
    tally = Tally()
    shown = 0
    for doc, args, block in shown_runs(root):
        done = subprocess.run([cli, *args], input=block, capture_output=True, text=True, cwd=root)
        run = {"args": args, "cwd": str(root), "input": block, "status": done.returncode, "out": done.stdout}
        replay(run, tally, f"{doc}: reach {' '.join(args)}")
        shown += 1
    report(tally)
    assert shown >= 10 and tally.replayed >= shown, vars(tally)


@pytest.mark.parametrize("name", ["leg.json", "arm2d.json", "chain_fabrik.json", "arm_ccd.json", "ur5_solve.json",
                                  "ur5_urdf_solve.json"])
def test_examples_solve_as_the_tool_does(root, cli, name):
    path = root / "cli" / "examples" / name
    done = subprocess.run([cli, "solve", str(path)], capture_output=True, text=True, check=True)
    import reach

    assert reach.solve(json.loads(path.read_text()), folder=path.parent) == json.loads(done.stdout)
