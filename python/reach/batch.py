"""The batch solvers on numpy arrays, read and written in place.

Points are arrays of shape (3, count), float64, C-contiguous: row 0 holds every x, row 1 every
y, row 2 every z, which is the structure of arrays the C batch takes, so nothing is copied.
The GIL is released while C solves, so threads solving slices of a batch run in parallel.

two_bone_batch and fabrik_batch are the extension's functions themselves (their docstrings
give their arguments): a small batch solves in microseconds, and a Python wrapper around them
would cost as much as the solve."""

from ._reach import Error, FabrikBatchResult, TwoBoneBatchResult, fabrik_batch, two_bone_batch

__all__ = ["BatchError", "FabrikBatchResult", "TwoBoneBatchResult", "fabrik_batch", "two_bone_batch"]


class BatchError(Error):
    """Some limbs or chains had bad input: ``result`` holds the whole batch's outputs (the
    others solved), ``result.status`` the error code per item (0 where fine)."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result
