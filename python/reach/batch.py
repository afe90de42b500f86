"""The batch solvers on numpy arrays, read and written in place.

Points are arrays of shape (3, count), float64, C-contiguous: row 0 holds every x, row 1 every
y, row 2 every z, which is the structure of arrays the C batch takes, so nothing is copied.
The GIL is released while C solves, so threads solving slices of a batch run in parallel."""

from dataclasses import dataclass

import numpy as np

from . import _reach
from ._reach import Error

OK = 0


class BatchError(Error):
    """Some limbs or chains had bad input: ``result`` holds the whole batch's outputs (the
    others solved), ``result.status`` the error code per item (0 where fine)."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


def _points(array, name, count):
    if not isinstance(array, np.ndarray) or array.dtype != np.float64 or not array.flags.c_contiguous:
        raise Error(f"{name}: expected a C-contiguous float64 numpy array of shape (3, {count})")
    if array.shape != (3, count):
        raise Error(f"{name}: expected shape (3, {count}), got {array.shape}")
    return array


def _check(status, statuses, result, what):
    if status == OK:
        return result
    bad = np.flatnonzero(statuses)
    if bad.size == 0:
        raise Error(f"{what}: {_reach.status_string(status)}")
    raise BatchError(f"{what} {bad[0]}: {_reach.status_string(int(statuses[bad[0]]))}", result)


@dataclass
class TwoBoneBatchResult:
    mid: np.ndarray  # (3, count)
    end: np.ndarray  # (3, count)
    residual: np.ndarray  # (count,)
    reached: np.ndarray  # (count,) uint8
    status: np.ndarray  # (count,) uint8


def two_bone_batch(
    root, mid, end, target, pole=None, out_mid=None, out_end=None, weight=1.0, soft_distance=0.0, max_stretch=1.0,
    tolerance=0.0,
):
    """reach_two_bone_solve_batch: each limb's root, mid and end joints bent so the end reaches
    its target (bending toward its pole where given). Pass ``out_mid=mid, out_end=end`` to solve
    in place. Returns a TwoBoneBatchResult; raises BatchError when some limbs had bad input."""
    count = root.shape[1] if isinstance(root, np.ndarray) and root.ndim == 2 else 0
    for name, array in (("root", root), ("mid", mid), ("end", end), ("target", target)):
        _points(array, name, count)
    if pole is not None:
        _points(pole, "pole", count)
    out_mid = np.empty((3, count)) if out_mid is None else _points(out_mid, "out_mid", count)
    out_end = np.empty((3, count)) if out_end is None else _points(out_end, "out_end", count)
    result = TwoBoneBatchResult(out_mid, out_end, np.empty(count), np.empty(count, np.uint8), np.empty(count, np.uint8))
    status = _reach.two_bone_batch(
        count, root, mid, end, target, out_mid, out_end, result.residual, result.reached, result.status, pole,
        float(weight), float(soft_distance), float(max_stretch), float(tolerance),
    )
    return _check(status, result.status, result, "limb")


@dataclass
class FabrikBatchResult:
    joints: np.ndarray  # (3, bone_count + 1, count), the array passed in, solved
    residual: np.ndarray  # (count,)
    iterations: np.ndarray  # (count,) int32
    reached: np.ndarray  # (count,) uint8
    status: np.ndarray  # (count,) uint8


def fabrik_batch(lengths, root, target, joints=None, max_iterations=64, tolerance=0.0, cold_start=None,
                 cold_direction=(0.0, 1.0, 0.0)):
    """reach_fabrik_solve_batch on ``count`` chains of ``bone_count`` bones: ``lengths`` of
    shape (bone_count, count), ``root`` and ``target`` (3, count), ``joints`` (3, bone_count + 1,
    count), solved in place (a warm start from its contents). Without ``joints`` every chain
    starts cold, straight along ``cold_direction``. Returns a FabrikBatchResult; raises
    BatchError when some chains had bad input."""
    if not isinstance(lengths, np.ndarray) or lengths.ndim != 2:
        raise Error("lengths: expected a float64 numpy array of shape (bone_count, count)")
    bone_count, count = lengths.shape
    _points(root, "root", count)
    _points(target, "target", count)
    if joints is None:
        joints = np.zeros((3, bone_count + 1, count))
        cold_start = True if cold_start is None else cold_start
    elif (not isinstance(joints, np.ndarray) or joints.dtype != np.float64 or not joints.flags.c_contiguous
          or joints.shape != (3, bone_count + 1, count)):
        raise Error(f"joints: expected a C-contiguous float64 numpy array of shape (3, {bone_count + 1}, {count})")
    result = FabrikBatchResult(joints, np.empty(count), np.empty(count, np.intc), np.empty(count, np.uint8),
                               np.empty(count, np.uint8))
    x, y, z = (float(v) for v in cold_direction)
    status = _reach.fabrik_batch(
        count, bone_count, lengths, root, target, joints, result.residual, result.iterations, result.reached,
        result.status, int(max_iterations), float(tolerance), int(bool(cold_start)), x, y, z,
    )
    return _check(status, result.status, result, "chain")
