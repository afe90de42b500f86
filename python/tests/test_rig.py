"""Typed objects: a Rig read once from a file gives what the CLI gives for the same file, number
for number: its names, forward kinematics, its clip's frames, and solves."""

from pathlib import Path

import numpy as np
import pytest

import reach

SHARED_DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"

BVH = """HIERARCHY
ROOT hips
{
  OFFSET 1 2 3
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT arm
    {
      OFFSET 0 5 2
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 4 0 0
      }
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.04
1 2 3 0 0 0 0 0 0 0 0 0
1.5 2 3 10 20 30 -40 5 60 90 0 0
2 2.5 3 -30 45 0 15 -25 35 0 90 10
"""


@pytest.fixture
def bvh(tmp_path):
    path = tmp_path / "walk.bvh"
    path.write_text(BVH)
    return path


def test_a_urdf_rig_fk_equals_the_cli(root):
    path = root / "cli" / "examples" / "ur5.urdf"
    rig = reach.load(path)
    rng = np.random.default_rng(2)
    for _ in range(50):
        joints = rng.uniform(-3, 3, rig.value_count)
        pose = rig.fk(joints)
        cli = reach.fk({"rig": {"urdf": str(path)}, "joints": joints.tolist()})
        assert list(rig.bone_names) == [b["name"] for b in cli["bones"]]
        assert pose.world.tolist() == [b["world_position"] + b["world_rotation"] for b in cli["bones"]]
        assert pose.local.tolist() == [b["position"] + b["rotation"] for b in cli["bones"]]
    assert tuple(cli["joint_names"]) == rig.joint_names


def test_joints_by_name_keep_the_others_at_rest(root):
    rig = reach.load(root / "cli" / "examples" / "ur5.urdf")
    named = rig.fk({rig.joint_names[1]: 0.5})
    values = np.zeros(rig.value_count)
    values[1] = 0.5
    assert np.array_equal(named.world, rig.fk(values).world)


def test_a_bvh_gives_its_rig_and_clip(bvh):
    rig = reach.load(bvh)
    assert rig.bone_names == ("hips", "spine", "arm", "arm_end")
    assert rig.parents == (-1, 0, 1, 2)
    clip = rig.clip
    assert clip.frames.shape == (3, 4, 7) and clip.frame_rate == pytest.approx(25)
    world = rig.fk_clip()
    for frame in range(3):
        cli = reach.fk({"rig": {"bvh": str(bvh)}, "frame": frame})
        assert world[frame].tolist() == [b["world_position"] + b["world_rotation"] for b in cli["bones"]]
        assert clip.frames[frame].tolist() == [b["position"] + b["rotation"] for b in cli["bones"]]
        assert np.array_equal(rig.fk(frame=frame).world, world[frame])


# A hand-written ASCII FBX (read through assimp): a hip with a pre-rotation of a quarter turn
# about z, baked into its transform, so the knee's (0, -45, 0) lies along +x.
LEG_FBX = """; FBX 7.4.0 project file
FBXHeaderExtension:  {
 FBXVersion: 7400
}
Objects:  {
 Model: 1001, "Model::hips", "LimbNode" {
  Properties70:  {
   P: "Lcl Translation", "Lcl Translation", "", "A",1,90,2
   P: "PreRotation", "Vector3D", "Vector", "",0,0,90
   P: "RotationActive", "bool", "", "",1
  }
 }
 Model: 1002, "Model::knee", "LimbNode" {
  Properties70:  {
   P: "Lcl Translation", "Lcl Translation", "", "A",0,-45,0
  }
 }
}
Connections:  {
 C: "OO",1001,0
 C: "OO",1002,1001
}
"""


def test_an_fbx_rig_fk_equals_the_cli(tmp_path):
    path = tmp_path / "leg.fbx"
    path.write_text(LEG_FBX)
    rig = reach.load(path)
    assert rig.bone_names == ("hips", "knee")
    cli = reach.fk({"rig": {"fbx": str(path)}})
    assert rig.fk().world.tolist() == [b["world_position"] + b["world_rotation"] for b in cli["bones"]]
    assert np.allclose(rig.fk().world[1, :3], [46, 90, 2], atol=1e-9)
    (tmp_path / "broken.fbx").write_text("not FBX")
    with pytest.raises(reach.Error, match="not an FBX file"):
        reach.load(tmp_path / "broken.fbx")


def test_rig_solve_equals_the_cli_request(root):
    path = root / "cli" / "examples" / "ur5.urdf"
    rig = reach.load(path)
    target = np.array([0.3, 0.2, 0.4])
    solution = rig.solve({rig.bone_names[-1]: target}, solver="jacobian", max_iterations=200)
    cli = reach.solve({"rig": {"urdf": str(path)}, "solver": {"type": "jacobian", "max_iterations": 200},
                       "targets": [{"bone": rig.bone_names[-1], "position": target.tolist()}]})
    assert solution.result == cli
    assert solution.reached and solution.residual < 1e-4
    assert np.allclose(solution.positions[-1], target, atol=1e-4)


def test_solve_many_equals_one_solve_per_row(root):
    rig = reach.Rig.from_dict({"bones": [
        {"name": "hip", "parent": None, "position": [0, 1, 0]},
        {"name": "knee", "parent": "hip", "position": [0, -0.45, 0]},
        {"name": "ankle", "parent": "knee", "position": [0, -0.42, 0]}]})
    rng = np.random.default_rng(4)
    targets = rng.uniform(-0.5, 0.5, (40, 3)) + [0, 1, 0]
    joints, residual, reached, iterations = rig.solve_many(targets, "ankle", solver="fabrik", tolerance=1e-9)
    for row in range(len(targets)):
        one = rig.solve({"ankle": targets[row]}, solver="fabrik", tolerance=1e-9)
        assert residual[row] == one.residual and reached[row] == one.reached
        assert iterations[row] == one.iterations and np.array_equal(joints[row], one.joints)


@pytest.mark.skipif(not SHARED_DATA.exists(), reason="../shared/data is absent: the real files made by others are not here")
def test_real_files_load_as_the_cli_reads_them():
    data = SHARED_DATA
    walk = reach.load(data / "bvh" / "cmu_12_01_walk.bvh")
    assert len(walk.clip) > 100 and walk.fk_clip().shape == walk.clip.frames.shape
    frame = len(walk.clip) // 2
    cli = reach.fk({"rig": {"bvh": str(data / "bvh" / "cmu_12_01_walk.bvh")}, "frame": frame})
    assert walk.fk_clip()[frame].tolist() == [b["world_position"] + b["world_rotation"] for b in cli["bones"]]
    panda = reach.load(data / "urdf" / "panda.urdf")
    assert "panda_joint1" in panda.joint_names
