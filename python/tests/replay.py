"""Replaying a run of the `reach` tool through the Python package: the same request, as a dict,
through reach.solve, reach.fk or Rig.solve_request, must give the result the tool printed, number
for number, or raise reach.Error with the message the tool printed.

A run is {"args": [...], "cwd": ..., "input": standard input, "status": exit status, "out":
standard output}. Only requests are replayed: `solve` and `fk` of one request or of --jsonl
lines, with or without --rig. Text that no dict can carry (not JSON, a key given twice, NaN or
a number beyond double) is counted as such and not replayed: reach.solve takes dicts."""

import json
import math
import os

import reach


class NotADict(Exception):
    pass


def strict_json(text):
    """The dict (or other value) a JSON text is, or None when Python's values cannot carry it."""

    def pairs(items):
        if len({k for k, _ in items}) != len(items):
            raise NotADict
        return dict(items)

    def constant(name):
        raise NotADict

    def number(text):
        value = float(text)
        if not math.isfinite(value):
            raise NotADict
        return value

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant, parse_float=number)
    except (ValueError, NotADict, RecursionError):
        return None


def parse_args(args):
    """(command, file, rig, jsonl), or None when the run is no request (usage, walk, info...)."""
    if not args or args[0] not in ("solve", "fk"):
        return None
    command, file, rig, jsonl = args[0], None, None, False
    rest = list(args[1:])
    while rest:
        arg = rest.pop(0)
        if arg == "--jsonl" and command == "solve":
            jsonl = True
        elif arg == "--rig" and command == "solve" and rest:
            rig = rest.pop(0)
        elif arg.startswith("-") and arg != "-":
            return None
        elif file is None:
            file = arg
        else:
            return None
    return (command, file, rig, jsonl) if file is not None else None


class Tally:
    def __init__(self):
        self.replayed = 0
        self.not_a_dict = 0
        self.not_a_request = 0
        self.files_gone = 0
        self.failures = []

    def fail(self, what, detail):
        self.failures.append(f"{what}: {detail}")


def names_a_vanished_file(request):
    """Whether a request's rig names an absolute path that is gone (a test's temporary file)."""
    rig = request.get("rig") if isinstance(request, dict) else None
    if not isinstance(rig, dict):
        return False
    paths = [v for k, v in rig.items() if k in ("urdf", "bvh", "gltf", "fbx", "file") and isinstance(v, str)]
    return any(os.path.isabs(p) and not os.path.exists(p) for p in paths)


def _one(tally, what, command, request, folder, rig, expected):
    if request is None:
        tally.not_a_dict += 1
        return
    if names_a_vanished_file(request):
        tally.files_gone += 1
        return
    tally.replayed += 1
    try:
        if rig is not None:
            got = rig.solve_request(request)
        else:
            got = (reach.fk if command == "fk" else reach.solve)(request, folder=folder)
    except reach.Error as error:
        if expected.get("status") != "error" or str(error) != expected.get("message"):
            tally.fail(what, f"raised {error!r}, the tool printed {json.dumps(expected)[:300]}")
        return
    if got != expected:
        tally.fail(what, f"got {json.dumps(got)[:300]}, the tool printed {json.dumps(expected)[:300]}")


def replay(run, tally, what):
    parsed = parse_args(run["args"])
    if parsed is None or run["status"] == 2:
        tally.not_a_request += 1
        return
    command, file, rig_file, jsonl = parsed
    cwd = run["cwd"]
    if file == "-":
        text, folder = run["input"], cwd
    else:
        path = os.path.join(cwd, file)
        if not os.path.isfile(path):
            tally.not_a_request += 1  # the tool's own "cannot read" error: no request to replay
            return
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        folder = os.path.dirname(path)
    rig = None
    if rig_file is not None and not os.path.exists(os.path.join(cwd, rig_file)):
        tally.files_gone += 1
        return
    if rig_file is not None:
        try:
            rig = reach.load(os.path.join(cwd, rig_file))
        except reach.Error:
            # The tool stopped at the rig as well: every output line is an error.
            lines = [json.loads(line) for line in run["out"].splitlines() if line.strip()]
            if not lines or any(line.get("status") != "error" for line in lines):
                tally.fail(what, "reach.load refused a rig the tool read")
            tally.replayed += 1
            return
    outputs = [line for line in run["out"].splitlines() if line.strip()]
    if not jsonl:
        if outputs:
            _one(tally, what, command, strict_json(text), folder, rig, json.loads(outputs[0]))
        return
    # One result per non-blank line, in order; an error result names its line.
    lines = [(n + 1, line) for n, line in enumerate(text.splitlines()) if line.strip()]
    for (number, line), output in zip(lines, outputs):
        expected = json.loads(output)
        expected.pop("line", None)
        _one(tally, f"{what} line {number}", command, strict_json(line), folder, rig, expected)
