"""Typed objects for programs: a Rig read once from a file, its clips as numpy arrays, forward
kinematics and solves on numpy arrays.

A transform is 7 numbers: translation x, y, z, then rotation quaternion x, y, z, w. Solves go
through the command-line tool's request handling with this rig, so a Solution holds the numbers
`reach solve --rig FILE` prints."""

import json
import os

import numpy as np

from . import _reach
from .requests import _folder, encode

TRANSFORM = 7


def plain(value):
    """numpy arrays and scalars inside a request as the lists and numbers JSON carries."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


class Clip:
    """Frames of local transforms: ``frames`` has shape (frame_count, bone_count, 7)."""

    def __init__(self, name, frame_rate, frames, bone_names):
        self.name = name
        self.frame_rate = frame_rate
        self.frames = frames
        self.bone_names = bone_names

    def __len__(self):
        return self.frames.shape[0]

    def __repr__(self):
        return f"Clip({self.name!r}, {len(self)} frames at {self.frame_rate:g} fps)"


class Pose:
    """A pose's local and world transforms, each of shape (bone_count, 7)."""

    def __init__(self, world, local):
        self.world = world
        self.local = local

    @property
    def positions(self):
        """World positions, (bone_count, 3)."""
        return self.world[:, :3]

    @property
    def rotations(self):
        """World rotations as quaternions [x, y, z, w], (bone_count, 4)."""
        return self.world[:, 3:]


class Solution(Pose):
    """A solve's outcome: reached, iterations, residual, joint values, and the solved pose.
    ``result`` is the result dict as `reach solve` prints it."""

    def __init__(self, result):
        bones = result["bones"]
        world = np.array([b["world_position"] + b["world_rotation"] for b in bones], dtype=np.float64)
        local = np.array([b["position"] + b["rotation"] for b in bones], dtype=np.float64)
        super().__init__(world.reshape(len(bones), TRANSFORM), local.reshape(len(bones), TRANSFORM))
        self.result = result
        self.reached = result["reached"]
        self.iterations = result["iterations"]
        self.residual = result["residual"]
        self.joints = np.array(result["joints"], dtype=np.float64)
        self.joint_names = tuple(result.get("joint_names", ()))

    def __repr__(self):
        return f"Solution(reached={self.reached}, iterations={self.iterations}, residual={self.residual:g})"


class Rig:
    """A skeleton with names, read once: ``bone_names``, ``parents`` (-1 for a root),
    ``joint_names`` (one per joint value, in the order ``joints`` arrays use), ``rest`` (local
    rest transforms) and ``clips`` (``clip`` is the first, or None)."""

    def __init__(self, core, path=None):
        self._core = core
        self.path = path  # the file it was read from, if any
        self.bone_names, self.parents, self.joint_names, self.value_count = core.names()
        self.rest = np.empty((len(self.bone_names), TRANSFORM))
        core.rest(self.rest)
        self.clips = []
        for i in range(core.clip_count()):
            name, rate, frame_count = core.clip(i)
            frames = np.empty((frame_count, len(self.bone_names), TRANSFORM))
            core.clip(i, frames)
            self.clips.append(Clip(name, rate, frames, self.bone_names))

    @classmethod
    def from_dict(cls, rig, folder=None):
        """A rig from the CLI's JSON rig (bones, dh, urdf, file, ...)."""
        return cls(_reach.load(None, encode(plain(rig)), _folder(folder)))

    @property
    def clip(self):
        return self.clips[0] if self.clips else None

    def bone(self, name):
        """The index of the bone with this name (ValueError when there is none)."""
        return self.bone_names.index(name)

    def __repr__(self):
        return f"Rig({len(self.bone_names)} bones, {self.value_count} joint values, {len(self.clips)} clips)"

    def fk(self, joints=None, frame=None):
        """Forward kinematics: ``joints`` is an array of joint values (in ``joint_names``
        order) or a dict of values by joint name (others keep their rest value); ``frame`` poses
        the rig as its first clip's frame first. Returns a Pose."""
        request = {}
        if frame is not None:
            request["frame"] = plain(frame)
        if joints is not None:
            request["joints"] = plain(joints)
        world = np.empty((len(self.bone_names), TRANSFORM))
        local = np.empty_like(world)
        self._core.fk(encode(request), world, local)
        return Pose(world, local)

    def fk_clip(self, clip=None):
        """World transforms of every frame of a clip (default the rig's own): (frames, bones, 7)."""
        clip = self.clip if clip is None else clip
        if clip is None:
            raise _reach.Error("fk_clip: the rig has no clip")
        frames = np.ascontiguousarray(clip.frames, dtype=np.float64)
        world = np.empty_like(frames)
        self._core.fk_frames(frames.shape[0], frames, world)
        return world

    def request(self, targets, solver="fabrik", chain_root=None, joints=None, frame=None, **settings):
        """The request dict rig.solve sends (without the rig, which is this one). ``targets`` is
        a dict {bone: position} or a list of target dicts as the CLI reads them."""
        if isinstance(targets, dict):
            targets = [{"bone": bone, "position": position} for bone, position in targets.items()]
        request = {"solver": {"type": solver, **settings}, "targets": list(targets)}
        if chain_root is not None:
            request["chain_root"] = chain_root
        if joints is not None:
            request["joints"] = joints
        if frame is not None:
            request["frame"] = frame
        return plain(request)

    def solve_request(self, request):
        """Solves a request dict as `reach solve --rig FILE` does with this rig (a "rig" in the
        request wins over it) and returns the result dict."""
        return json.loads(self._core.solve(encode(plain(request))))

    def solve(self, targets, solver="fabrik", chain_root=None, joints=None, frame=None, **settings):
        """Solves for the targets; ``settings`` are the solver's options (max_iterations,
        tolerance, method, ...). Returns a Solution."""
        text = encode(self.request(targets, solver, chain_root, joints, frame, **settings))
        return Solution(json.loads(self._core.solve(text)))

    def solve_many(self, positions, bones, solver="fabrik", chain_root=None, joints=None, **settings):
        """One solve per row of ``positions`` (shape (rows, len(bones), 3), or (rows, 3) for one
        bone), each from the same starting pose, in one call that releases the GIL. Returns
        (joints (rows, value_count), residual (rows,), reached (rows,) bool, iterations (rows,))."""
        bones = [bones] if isinstance(bones, str) else list(bones)
        positions = np.ascontiguousarray(positions, dtype=np.float64).reshape(-1, len(bones), 3)
        rows = positions.shape[0]
        template = self.request({b: [0.0, 0.0, 0.0] for b in bones}, solver, chain_root, joints, None, **settings)
        out_joints = np.empty((rows, self.value_count))
        residual = np.empty(rows)
        reached = np.empty(rows, dtype=np.uint8)
        iterations = np.empty(rows, dtype=np.intc)
        self._core.solve_many(encode(template), len(bones), rows, positions, out_joints, residual, reached, iterations)
        return out_joints, residual, reached.astype(bool), iterations


def load(path):
    """A Rig from a file: URDF (.urdf), glTF (.gltf, .glb), BVH (.bvh; its motion is
    ``rig.clip``), or JSON (a rig, or a request with a "rig"). Raises reach.Error with the
    reader's message (its line or element) when the file is unreadable or invalid."""
    return Rig(_reach.load(os.fspath(path)), os.fspath(path))
