"""Bad input raises reach.Error with the library's message, and never crashes the interpreter."""

import json

import numpy as np
import pytest

import reach

LEG = {"bones": [
    {"name": "hip", "parent": None, "position": [0, 1, 0]},
    {"name": "knee", "parent": "hip", "position": [0, -0.45, 0]},
    {"name": "ankle", "parent": "knee", "position": [0, -0.42, 0]}]}


def request(**changes):
    base = {"rig": LEG, "solver": {"type": "two_bone"}, "targets": [{"bone": "ankle", "position": [0.1, 0.5, 0.2]}]}
    base.update(changes)
    return base


@pytest.mark.parametrize("bad, message", [
    (request(solver={"type": "magic"}), "solver.type: unknown solver 'magic'"),
    (request(targets=[{"bone": "kne", "position": [0, 0, 0]}]), "no bone named 'kne'"),
    (request(rig={"bones": [{"name": "a", "parent": "b"}]}), "bones[0].parent: no bone named 'b'"),
    ({"targets": []}, "rig: required field is missing"),
    ([1, 2, 3], "request"),
    (request(targets=[{"bone": "ankle", "position": [float("nan"), 0, 0]}]), "not JSON compliant"),
    (request(targets=[{"bone": "ankle", "position": [1e400, 0, 0]}]), "not JSON compliant"),
    (request(targets=[{"bone": "ankle", "position": object()}]), "not JSON serializable"),
    (request(rig={"urdf": "no/such/robot.urdf"}), "no/such/robot.urdf"),
])
def test_bad_requests_raise_with_the_message(bad, message):
    with pytest.raises(reach.Error) as caught:
        reach.solve(bad)
    assert message in str(caught.value)


def test_the_message_is_the_tools():
    with pytest.raises(reach.Error, match=r"^bones\[1\]\.parent: no bone named 'kne'$"):
        reach.fk({"rig": {"bones": [{"name": "hip"}, {"name": "ankle", "parent": "kne"}]}})


@pytest.mark.parametrize("name, text, message", [
    ("bad.urdf", "<robot name='r'><link name='a'/><joint name='j' type='revolute'><parent link='a'/>"
                 "<child link='zz'/></joint></robot>", "line"),
    ("bad.urdf", "<robot", "line 1"),
    ("short.bvh", "HIERARCHY\nROOT hips\n{\n OFFSET 0 0\n", "line"),
    ("empty.glb", "", ""),
    ("garbage.gltf", "{\"asset\": 5}", ""),
    ("rig.json", "{\"bones\": [{\"name\": 1}]}", "bones[0].name"),
])
def test_hostile_files_raise(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(reach.Error) as caught:
        reach.load(path)
    assert message in str(caught.value)


def test_a_missing_file_raises_naming_it(tmp_path):
    with pytest.raises(reach.Error, match="nothing.bvh"):
        reach.load(tmp_path / "nothing.bvh")


def test_rig_calls_with_bad_values_raise(root):
    rig = reach.load(root / "cli" / "examples" / "ur5.urdf")
    with pytest.raises(reach.Error, match="joints"):
        rig.fk(np.zeros(rig.value_count + 1))
    with pytest.raises(reach.Error, match="joints"):
        rig.fk({"no_such_joint": 1.0})
    with pytest.raises(reach.Error):
        rig.fk([float("nan")] * rig.value_count)
    with pytest.raises(reach.Error, match="no bone named"):
        rig.solve({"no_such_bone": [0, 0, 0]})
    with pytest.raises(reach.Error, match=r"^row 0: solver\.max_iterations: "):
        rig.solve_many([[0.3, 0.2, 0.4], [0.3, 0.2, 0.4]], rig.bone_names[-1], solver="jacobian", max_iterations=-5)
    with pytest.raises(reach.Error, match="no clip"):
        rig.fk_clip()


def test_mutated_requests_never_crash():
    """Thousands of requests with fields dropped, swapped for other types or values: each
    either solves or raises reach.Error."""
    rng = np.random.default_rng(9)
    base = json.loads(json.dumps(request(targets=[{"bone": "ankle", "position": [0.1, 0.5, 0.2], "pole": [0, 0, 1]}])))
    odd = [None, True, -1, 0, 1e308, -1e-320, "", "ankle", [], {}, [1, 2], [[0, 0, 0]], {"type": "fabrik"}]
    outcomes = {"ok": 0, "error": 0}

    def paths(value, prefix=()):
        yield prefix
        if isinstance(value, dict):
            for k, v in value.items():
                yield from paths(v, prefix + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from paths(v, prefix + (i,))

    all_paths = [p for p in paths(base) if p]
    for _ in range(3000):
        mutated = json.loads(json.dumps(base))
        for _ in range(rng.integers(1, 4)):
            path = all_paths[rng.integers(len(all_paths))]
            parent = mutated
            try:
                for key in path[:-1]:
                    parent = parent[key]
                if rng.random() < 0.2 and isinstance(parent, dict):
                    parent.pop(path[-1], None)
                else:
                    parent[path[-1]] = odd[rng.integers(len(odd))]
            except (KeyError, IndexError, TypeError):
                continue
        solver = mutated.get("solver") if isinstance(mutated.get("solver"), dict) else None
        if solver is not None and rng.random() < 0.5:
            solver["type"] = ["two_bone", "fabrik", "ccd", "jacobian"][rng.integers(4)]
        try:
            result = reach.solve(mutated)
            assert result["status"] == "ok"
            outcomes["ok"] += 1
        except reach.Error:
            outcomes["error"] += 1
    assert outcomes["ok"] > 0 and outcomes["error"] > 0
