"""reach.retarget: a clip's motion carried onto another character or a robot, as `reach
retarget` carries it (the tool's own set-up of files, roles, axes and settings, then the
library's retargeting, include/reach/retarget.h)."""

import os

import numpy as np

from . import _reach
from .rig import Clip, Rig


def _path(value, side):
    path = value.path if isinstance(value, Rig) else value
    if path is None:
        raise _reach.Error(f"{side}: retargeting reads files: give a path or a Rig loaded from one")
    return os.fspath(path)


def retarget(source, target, map=None):
    """The source clip (a BVH, glTF or GLB path, or a Rig loaded from one) carried onto the
    target (a character file or a URDF robot, or a Rig loaded from one). ``map`` is the path of
    a `--map` file (docs/cli.md) naming roles and axes where the bone names do not. Returns a
    Clip of the target's local transforms, frame for frame at the source's rate: the poses
    `reach retarget SOURCE TARGET` prints."""
    names, rate, count, frames = _reach.retarget(
        _path(source, "source"), _path(target, "target"), None if map is None else os.fspath(map))
    array = np.frombuffer(frames, dtype=np.float64).reshape(count, len(names), 7).copy()
    return Clip("retarget", rate, array, names)
