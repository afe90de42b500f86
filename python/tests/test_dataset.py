"""python -m reach.dataset on generated clips: the serial run and a two-worker local cluster
write the same bytes, a corrupt clip among good ones is reported by name and the others are
written, and each file holds the clip's forward kinematics."""

import subprocess
import sys

import numpy as np
import pytest

import reach
from reach import dataset


def write_clip(path, rng, frames):
    motion = "\n".join(" ".join(f"{v:.6f}" for v in np.concatenate([rng.uniform(-1, 1, 3), rng.uniform(-90, 90, 9)]))
                       for _ in range(frames))
    path.write_text(f"""HIERARCHY
ROOT hips
{{
  OFFSET 0 1 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT leg
  {{
    OFFSET 0.1 -0.1 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT shin
    {{
      OFFSET 0 -0.45 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {{
        OFFSET 0 -0.42 0
      }}
    }}
  }}
}}
MOTION
Frames: {frames}
Frame Time: 0.033333
{motion}
""")


@pytest.fixture
def clips(tmp_path):
    rng = np.random.default_rng(12)
    folder = tmp_path / "clips"
    folder.mkdir()
    paths = []
    for i in range(6):
        path = folder / f"take_{i}.bvh"
        write_clip(path, rng, 20 + 7 * i)
        paths.append(path)
    corrupt = folder / "take_corrupt.bvh"
    corrupt.write_text(paths[0].read_text().replace("Frames: 20", "Frames: 9000"))
    paths.insert(3, corrupt)
    return paths


def run_command(args, cwd):
    return subprocess.run([sys.executable, "-m", "reach.dataset", *args], capture_output=True, text=True, cwd=cwd)


def test_serial_and_a_local_cluster_write_the_same_files(clips, tmp_path):
    serial = run_command(["fk", "--out", str(tmp_path / "serial"), *map(str, clips)], tmp_path)
    cluster = run_command(["fk", "--out", str(tmp_path / "cluster"), "--scheduler", "local:2", *map(str, clips)],
                          tmp_path)
    for done in (serial, cluster):
        assert done.returncode == 1, done.stderr
        assert "7/7 clips, 1 failed" in done.stderr
        assert f"reach.dataset: {clips[3]}: rig: " in done.stderr  # the corrupt clip, by name
        assert "6 of 7 clips written" in done.stderr
    written = sorted(p.name for p in (tmp_path / "serial").iterdir())
    assert written == sorted(f"take_{i}.npy" for i in range(6))
    for name in written:
        assert (tmp_path / "serial" / name).read_bytes() == (tmp_path / "cluster" / name).read_bytes()
    # Each file is the clip's forward kinematics, frame by frame.
    world = np.load(tmp_path / "serial" / "take_2.npy")
    rig = reach.load(clips[2])
    assert world.shape == (34, 4, 7) and np.array_equal(world, rig.fk_clip())


def test_run_reports_every_clip(clips, tmp_path):
    import io

    stream = io.StringIO()
    outcomes = dataset.run("fk", clips, tmp_path / "out", "serial", stream=stream)
    assert set(outcomes) == {str(c) for c in clips}
    failed = [clip for clip, (_, error) in outcomes.items() if error is not None]
    assert failed == [str(clips[3])] and isinstance(outcomes[str(clips[3])][1], reach.Error)
    assert stream.getvalue().count("\r[") == len(clips) + 1  # the bar drawn at the start and per clip


def test_usage_errors(tmp_path):
    done = run_command(["retarget", "--out", str(tmp_path), "a.bvh"], tmp_path)
    assert done.returncode == 2 and "retarget needs --target" in done.stderr
    done = run_command(["fk", "a.bvh"], tmp_path)
    assert done.returncode == 2 and "--out" in done.stderr
