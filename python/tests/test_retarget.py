"""reach.retarget and the dataset's retarget task: the poses `reach retarget` prints, number for
number; a clip carried onto its own skeleton keeps the head and hands where the source has them
relative to its hips, with unit rotations and the same bytes every time; the serial and the
cluster runs of the dataset command write the same files."""

import json

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import reach
from reach import _reach

SHARED_DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
WALK = SHARED_DATA / "bvh" / "cmu_12_01_walk.bvh"

pytestmark = pytest.mark.skipif(not WALK.exists(), reason="../shared/data is absent: the CMU walk is not here")


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    """The CMU walk's first 100 frames: its other frames cost time only."""
    path = tmp_path_factory.mktemp("walk") / "walk.bvh"
    path.write_text(first_frames(WALK, 100))
    return path


def test_a_walk_onto_its_own_skeleton_keeps_head_and_hands(walk):
    source = reach.load(walk)
    clip = reach.retarget(source, source)
    assert clip.frames.shape == source.clip.frames.shape and clip.frame_rate == source.clip.frame_rate
    assert np.all(np.isfinite(clip.frames))
    assert np.allclose(np.linalg.norm(clip.frames[..., 3:], axis=-1), 1, atol=1e-12)
    before, after = source.fk_clip(), source.fk_clip(clip)
    names = source.bone_names
    hips = names.index("Hips")
    height = np.ptp(before[0, :, 1])
    for bone in ("Head", "LeftHand", "RightHand"):
        i = names.index(bone)
        moved = (after[:, i, :3] - after[:, hips, :3]) - (before[:, i, :3] - before[:, hips, :3])
        assert np.linalg.norm(moved, axis=1).max() < 0.01 * height, bone
    assert reach.retarget(source, source).frames.tobytes() == clip.frames.tobytes()


def test_onto_another_skeleton(walk):
    target = reach.load(SHARED_DATA / "bvh" / "pybvh_standard_skeleton.bvh")
    clip = reach.retarget(walk, target)
    assert clip.frames.shape == (100, len(target.bone_names), 7)
    assert np.all(np.isfinite(clip.frames))


def test_the_poses_are_the_tools(cli, tmp_path):
    source = tmp_path / "walk.bvh"
    source.write_text(first_frames(WALK, 30))
    target = SHARED_DATA / "bvh" / "pybvh_standard_skeleton.bvh"
    done = subprocess.run([cli, "retarget", str(source), str(target)], capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    clip = reach.retarget(source, target)
    assert len(lines) == len(clip) == 30
    for frame, line in zip(clip.frames, lines):
        assert [b["name"] for b in line["bones"]] == list(clip.bone_names)
        assert frame.tolist() == [b["position"] + b["rotation"] for b in line["bones"]]


def test_a_source_without_motion_or_roles_is_refused(root, walk):
    robot = root / "cli" / "examples" / "ur5.urdf"
    with pytest.raises(reach.Error, match="expected a clip"):
        reach.retarget(robot, walk)
    with pytest.raises(reach.Error, match="target|TARGET"):
        reach.retarget(walk, robot)
    with pytest.raises(reach.Error, match="give a path"):
        reach.retarget(reach.Rig.from_dict({"bones": [{"name": "a"}]}), walk)


def first_frames(path, count):
    """The BVH at path cut to its first count frames (the clips' other frames cost time only)."""
    head, motion = path.read_text().split("MOTION\n", 1)
    lines = motion.splitlines()
    frames = [line for line in lines[2:] if line.strip()][:count]
    return head + f"MOTION\nFrames: {len(frames)}\n{lines[1]}\n" + "\n".join(frames) + "\n"


def test_the_dataset_command_retargets_serially_and_on_a_cluster(tmp_path):
    clips = []
    for i in range(3):
        clip = tmp_path / f"walk_{i}.bvh"
        clip.write_text(first_frames(WALK, 40 + 10 * i))
        clips.append(str(clip))
    corrupt = tmp_path / "walk_broken.bvh"
    corrupt.write_text("HIERARCHY\nROOT Hips\n{\n")
    clips.insert(1, str(corrupt))
    target = SHARED_DATA / "bvh" / "pybvh_standard_skeleton.bvh"
    runs = {}
    for scheduler in ("serial", "local:2"):
        out = tmp_path / scheduler.replace(":", "_")
        done = subprocess.run([sys.executable, "-m", "reach.dataset", "retarget", "--target", str(target), "--out",
                               str(out), "--scheduler", scheduler, *clips], capture_output=True, text=True)
        assert done.returncode == 1 and f"reach.dataset: {corrupt}: " in done.stderr, done.stderr
        assert "3 of 4 clips written" in done.stderr
        runs[scheduler] = out
    for i in range(3):
        serial = (runs["serial"] / f"walk_{i}.npy").read_bytes()
        assert serial == (runs["local:2"] / f"walk_{i}.npy").read_bytes()
    expected = reach.retarget(clips[0], target).frames
    assert np.array_equal(np.load(runs["serial"] / "walk_0.npy"), expected)
