"""The numpy batch entry points give the C batch's results bit for bit (the C batch run as a
program on the same inputs), solve in place without copies, and report bad limbs by index."""

import subprocess

import numpy as np
import pytest

import reach


def run_oracle(oracle, kind, values, tmp_path):
    (tmp_path / "in").write_bytes(np.asarray(values, dtype=np.float64).tobytes())
    subprocess.run([oracle, kind, str(tmp_path / "in"), str(tmp_path / "out")], check=True)
    return np.frombuffer((tmp_path / "out").read_bytes(), dtype=np.float64)


def limbs(rng, count):
    root = rng.uniform(-2, 2, (3, count))
    mid = root + rng.normal(size=(3, count)) * rng.uniform(0.2, 1.5, count)
    end = mid + rng.normal(size=(3, count)) * rng.uniform(0.2, 1.5, count)
    target = root + rng.normal(size=(3, count)) * rng.uniform(0, 3, count)
    pole = root + rng.normal(size=(3, count))
    # Cases the vector path hands to the scalar solver: a target on the root, a pole on the line.
    target[:, :3] = root[:, :3]
    pole[:, 3] = target[:, 3]
    return root, mid, end, target, pole


@pytest.mark.parametrize("with_pole", [True, False])
@pytest.mark.parametrize("settings", [{}, {"soft_distance": 0.1, "max_stretch": 1.2, "tolerance": 1e-6}])
def test_two_bone_batch_equals_the_c_batch(oracle, tmp_path, with_pole, settings):
    rng = np.random.default_rng(7)
    count = 2003  # not a multiple of any vector width: the tail goes through the scalar path
    root, mid, end, target, pole = limbs(rng, count)
    result = reach.two_bone_batch(root, mid, end, target, pole if with_pole else None, **settings)
    full = {"weight": 1.0, "soft_distance": 0.0, "max_stretch": 1.0, "tolerance": 0.0, **settings}
    header = [count, full["weight"], full["soft_distance"], full["max_stretch"], full["tolerance"], with_pole]
    placed = [root, mid, end, target, pole, result.mid, result.end, result.residual, result.reached, result.status]
    header += [a.ctypes.data % 64 for a in placed]
    arrays = [root, mid, end, target] + ([pole] if with_pole else [])
    out = run_oracle(oracle, "two_bone", np.concatenate([header] + [a.ravel() for a in arrays]), tmp_path)
    n = count
    assert result.mid.tobytes() == out[: 3 * n].tobytes()
    assert result.end.tobytes() == out[3 * n : 6 * n].tobytes()
    assert result.residual.tobytes() == out[6 * n : 7 * n].tobytes()
    assert np.array_equal(result.reached, out[7 * n : 8 * n])
    assert np.array_equal(result.status, out[8 * n : 9 * n])
    assert out[9 * n] == 0


def chains(rng, count, bones):
    lengths = rng.uniform(0.1, 1.0, (bones, count))
    root = rng.uniform(-1, 1, (3, count))
    target = root + rng.normal(size=(3, count)) * lengths.sum(axis=0) * rng.uniform(0, 1.2, count)
    joints = np.empty((3, bones + 1, count))
    joints[:, 0] = root
    for b in range(bones):
        step = rng.normal(size=(3, count))
        joints[:, b + 1] = joints[:, b] + step / np.linalg.norm(step, axis=0) * lengths[b]
    return lengths, root, target, joints


@pytest.mark.parametrize("cold", [False, True])
def test_fabrik_batch_equals_the_c_batch(oracle, tmp_path, cold):
    rng = np.random.default_rng(11)
    count, bones = 1001, 5
    lengths, root, target, joints = chains(rng, count, bones)
    before = joints.copy()
    result = reach.fabrik_batch(lengths, root, target, joints, max_iterations=40, tolerance=1e-7, cold_start=cold,
                                cold_direction=(0, 0, 1))
    assert result.joints is joints  # solved in place
    header = [count, bones, 40, 1e-7, cold, 0, 0, 1]
    values = np.concatenate([header, lengths.ravel(), root.ravel(), target.ravel(), before.ravel()])
    out = run_oracle(oracle, "fabrik", values, tmp_path)
    j = 3 * (bones + 1) * count
    assert joints.tobytes() == out[:j].tobytes()
    assert result.residual.tobytes() == out[j : j + count].tobytes()
    assert np.array_equal(result.iterations, out[j + count : j + 2 * count])
    assert np.array_equal(result.reached, out[j + 2 * count : j + 3 * count])
    assert np.array_equal(result.status, out[j + 3 * count : j + 4 * count])


def test_two_bone_batch_in_place_writes_the_callers_arrays():
    rng = np.random.default_rng(3)
    root, mid, end, target, pole = limbs(rng, 64)
    expected = reach.two_bone_batch(root, mid.copy(), end.copy(), target, pole)
    result = reach.two_bone_batch(root, mid, end, target, pole, out_mid=mid, out_end=end)
    assert result.mid is mid and result.end is end
    assert mid.tobytes() == expected.mid.tobytes() and end.tobytes() == expected.end.tobytes()


def test_a_bad_limb_is_reported_by_index_and_the_others_solved():
    rng = np.random.default_rng(5)
    root, mid, end, target, pole = limbs(rng, 16)
    target[1, 9] = np.nan
    with pytest.raises(reach.BatchError, match=r"^limb 9: ") as caught:
        reach.two_bone_batch(root, mid, end, target, pole)
    status = caught.value.result.status
    assert status[9] != 0 and np.count_nonzero(status) == 1
    assert np.all(np.isfinite(caught.value.result.end))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda a: a.astype(np.float32), "expected a C-contiguous float64"),
        (lambda a: np.asfortranarray(a), "expected a C-contiguous float64"),
        (lambda a: a[:, :-1], "expected"),
        (lambda a: a.tolist(), "expected a C-contiguous float64"),
    ],
)
def test_arrays_of_the_wrong_kind_raise(change, message):
    rng = np.random.default_rng(1)
    root, mid, end, target, pole = limbs(rng, 8)
    with pytest.raises(reach.Error, match=message):
        reach.two_bone_batch(root, change(mid), end, target)


def test_fabrik_batch_refuses_a_bad_whole_batch():
    lengths = np.ones((2, 4))
    root = np.zeros((3, 4))
    with pytest.raises(reach.Error, match="max_iterations|invalid"):
        reach.fabrik_batch(lengths, root, root.copy(), max_iterations=-1)
    with pytest.raises(reach.Error, match=r"joints: expected .* shape \(3, 3, 4\)"):
        reach.fabrik_batch(lengths, root, root.copy(), np.zeros((3, 2, 4)))


def test_outputs_given_are_written_in_place_and_equal_fresh_ones():
    rng = np.random.default_rng(4)
    root, mid, end, target, pole = limbs(rng, 33)
    fresh = reach.two_bone_batch(root, mid, end, target, pole)
    outputs = {"out_mid": np.empty((3, 33)), "out_end": np.empty((3, 33)), "out_residual": np.empty(33),
               "out_reached": np.empty(33, np.uint8), "out_status": np.empty(33, np.uint8)}
    given = reach.two_bone_batch(root, mid, end, target, pole, **outputs)
    for field, name in zip(("mid", "end", "residual", "reached", "status"), outputs):
        assert getattr(given, field) is outputs[name] and outputs[name].tobytes() == getattr(fresh, field).tobytes()
    lengths, root, target, joints = chains(rng, 21, 3)
    fresh = reach.fabrik_batch(lengths, root, target, joints.copy())
    outputs = {"out_residual": np.empty(21), "out_iterations": np.empty(21, np.intc),
               "out_reached": np.empty(21, np.uint8), "out_status": np.empty(21, np.uint8)}
    given = reach.fabrik_batch(lengths, root, target, joints, **outputs)
    assert joints.tobytes() == fresh.joints.tobytes()
    for field, name in zip(("residual", "iterations", "reached", "status"), outputs):
        assert getattr(given, field) is outputs[name] and outputs[name].tobytes() == getattr(fresh, field).tobytes()


def test_outputs_of_the_wrong_kind_raise():
    rng = np.random.default_rng(2)
    root, mid, end, target, pole = limbs(rng, 8)
    read_only = np.empty((3, 8))
    read_only.flags.writeable = False
    with pytest.raises(reach.Error, match=r"^out_mid: expected a C-contiguous writable .* read-only"):
        reach.two_bone_batch(root, mid, end, target, out_mid=read_only)
    with pytest.raises(reach.Error, match=r"^out_reached: expected .* uint8 .* got dtype bool"):
        reach.two_bone_batch(root, mid, end, target, out_reached=np.empty(8, bool))
    with pytest.raises(reach.Error, match=r"^out_iterations: expected .* int32 .* shape \(8,\), got dtype int32, "
                                          r"shape \(9,\)"):
        reach.fabrik_batch(np.ones((2, 8)), root, target, out_iterations=np.empty(9, np.intc))


def test_arguments_are_matched_as_a_python_function_matches_them():
    rng = np.random.default_rng(6)
    root, mid, end, target, pole = limbs(rng, 8)
    by_position = reach.two_bone_batch(root, mid, end, target, pole, None, None, 1.0, 0.1)
    by_name = reach.two_bone_batch(target=target, end=end, mid=mid, root=root, pole=pole, soft_distance=0.1)
    assert by_position.end.tobytes() == by_name.end.tobytes()
    with pytest.raises(TypeError, match="unexpected keyword argument 'poles'"):
        reach.two_bone_batch(root, mid, end, target, poles=pole)
    with pytest.raises(TypeError, match="multiple values for argument 'pole'"):
        reach.two_bone_batch(root, mid, end, target, pole, pole=pole)
    with pytest.raises(TypeError, match="missing required argument 'target'"):
        reach.two_bone_batch(root, mid, end)
    with pytest.raises(TypeError, match="weight: expected a number"):
        reach.two_bone_batch(root, mid, end, target, weight="heavy")


def test_a_refused_batch_raises_error_and_leaves_the_statuses_given_as_they_were():
    lengths, root = np.ones((2, 4)), np.zeros((3, 4))
    status = np.full(4, 7, np.uint8)
    with pytest.raises(reach.Error, match="^chain: invalid argument") as caught:
        reach.fabrik_batch(lengths, root, root.copy(), max_iterations=-1, out_status=status)
    assert not isinstance(caught.value, reach.BatchError) and list(status) == [7, 7, 7, 7]
