"""reach.retarget: a clip's motion carried onto another character or a robot, through the
library's retargeting (include/reach/retarget.h)."""

import numpy as np

from . import _reach
from .rig import Clip, Rig, load

# Axis conventions (up, forward): BVH and glTF characters are +y up, +z forward; URDF robots
# are +z up, +x forward (REP 103).
CHARACTER_AXES = ((0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
ROBOT_AXES = ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0))


def _axes_of(rig):
    return ROBOT_AXES if (rig.path or "").endswith(".urdf") else CHARACTER_AXES


def retarget(source, target, source_axes=None, target_axes=None):
    """The source's clip (a Rig with a clip, or a path) carried onto the target (a Rig or a path:
    a character or a URDF robot). Both need humanoid roles found from their bone names. Returns a
    Clip of the target's local transforms, frame for frame at the source's rate. ``*_axes`` are
    (up, forward) pairs; by default taken from the file's kind."""
    source = source if isinstance(source, Rig) else load(source)
    target = target if isinstance(target, Rig) else load(target)
    if not hasattr(_reach, "retarget"):
        raise _reach.Error("retargeting is not in this build of the library (include/reach/retarget.h)")
    if source.clip is None:
        raise _reach.Error("source: the file holds no motion")
    axes = [float(v) for pair in (source_axes or _axes_of(source), target_axes or _axes_of(target))
            for axis in pair for v in axis]
    frames = np.empty((len(source.clip), len(target.bone_names), 7))
    _reach.retarget(source._core, target._core, frames, tuple(axes))
    return Clip(source.clip.name, source.clip.frame_rate, frames, target.bone_names)
