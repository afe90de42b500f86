"""reach: inverse kinematics from Python, on the reach C library.

- ``reach.solve(request)`` and ``reach.fk(request)``: the command-line tool's JSON contract as
  dictionaries, with its results number for number (docs/cli.md).
- ``reach.load(path)``: a :class:`Rig` from a URDF, glTF/GLB, BVH or JSON rig, with its clips;
  ``rig.fk(joints)``, ``rig.solve(targets, solver=..., **settings)`` and
  ``rig.solve_many(positions, ...)`` on numpy arrays.
- ``reach.two_bone_batch`` and ``reach.fabrik_batch``: the SIMD batch solvers on numpy arrays,
  read and written in place.

Every failure raises :class:`reach.Error` carrying the library's message. See docs/python.md.
"""

from ._reach import Error
from .batch import BatchError, FabrikBatchResult, TwoBoneBatchResult, fabrik_batch, two_bone_batch
from .requests import fk, solve
from .retargeting import retarget
from .rig import Clip, Pose, Rig, Solution, load

__all__ = [
    "BatchError",
    "Clip",
    "Error",
    "FabrikBatchResult",
    "Pose",
    "Rig",
    "Solution",
    "TwoBoneBatchResult",
    "fabrik_batch",
    "fk",
    "load",
    "retarget",
    "solve",
    "two_bone_batch",
]
