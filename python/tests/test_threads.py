"""Solving from several Python threads at once: every thread gets the results a lone solve
gets, with requests reading their own folders' files and batches sliced between threads."""

import json
import shutil
import threading

import numpy as np

import reach


def run_threads(work, count=8):
    errors = []

    def guarded(i):
        try:
            work(i)
        except BaseException as error:  # reported to the main thread below
            errors.append(error)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_requests_from_many_threads_match_serial_solves(root, tmp_path):
    # Each thread's request reads a robot relative to its own folder: the folder is per thread.
    examples = root / "cli" / "examples"
    folders = []
    for i in range(8):
        folder = tmp_path / f"robot{i}"
        folder.mkdir()
        shutil.copy(examples / ("ur5.urdf" if i % 2 else "gripper.urdf"), folder / "robot.urdf")
        folders.append(folder)
    requests = [json.loads((examples / name).read_text()) for name in ("leg.json", "chain_fabrik.json", "arm_ccd.json")]
    fk_request = {"rig": {"urdf": "robot.urdf"}}
    expected = [reach.solve(r) for r in requests]
    expected_fk = [reach.fk(fk_request, folder=f) for f in folders]

    def work(i):
        for round in range(60):
            k = (i + round) % len(requests)
            assert reach.solve(requests[k]) == expected[k]
            assert reach.fk(fk_request, folder=folders[i]) == expected_fk[i]

    run_threads(work)


def test_one_rig_solved_from_many_threads(root):
    rig = reach.load(root / "cli" / "examples" / "ur5.urdf")
    rng = np.random.default_rng(6)
    targets = rng.uniform(-0.4, 0.4, (16, 3)) + [0, 0, 0.3]
    serial = [rig.solve_many(targets, rig.bone_names[-1], solver="jacobian")[0]]

    def work(i):
        joints = rig.solve_many(targets, rig.bone_names[-1], solver="jacobian")[0]
        assert np.array_equal(joints, serial[0])

    run_threads(work, 4)


def test_a_batch_sliced_across_threads_equals_one_call():
    rng = np.random.default_rng(8)
    count, bones = 4000, 4
    lengths = rng.uniform(0.2, 1, (bones, count))
    root = np.zeros((3, count))
    target = rng.normal(size=(3, count))
    whole = reach.fabrik_batch(lengths, root, target).joints
    parts = 4
    size = count // parts
    pieces = [None] * parts

    def work(i):
        s = slice(i * size, (i + 1) * size)
        piece = reach.fabrik_batch(np.ascontiguousarray(lengths[:, s]), np.ascontiguousarray(root[:, s]),
                                   np.ascontiguousarray(target[:, s]))
        pieces[i] = piece.joints

    run_threads(work, parts)
    assert np.concatenate(pieces, axis=2).tobytes() == whole.tobytes()
