"""Whole datasets of clips, each clip a task on a dask.distributed cluster.

    python -m reach.dataset fk --out DIR [--scheduler serial|local:N|ADDRESS] CLIPS...
    python -m reach.dataset retarget --target T --out DIR [--scheduler ...] CLIPS...

Each clip (a BVH, glTF or GLB with motion) is one task: `serial` runs them one after another in
this process, `local:N` starts a local cluster of N worker processes, and an address
(`tcp://host:8786`) joins an existing cluster whose workers have the package installed. A
progress bar counts the clips on standard error; a clip that fails is reported by name with the
library's message and the others go on; the exit status is 1 if any failed. Every task writes
its own file, named after its clip, and the same inputs give the same bytes whichever scheduler
ran them.

The tasks (TASKS): `fk` writes DIR/<clip>.npy, every frame's world transforms (frames, bones, 7:
translation x, y, z, rotation x, y, z, w) as float64. `retarget` carries the clip onto the
target character or robot T (the library's retargeting, as `reach retarget` does it) and
writes DIR/<clip>.npy, every frame's local transforms on the target (frames, bones, 7)."""

import argparse
import os
import sys
from pathlib import Path

import numpy as np

from . import _reach
from .retargeting import retarget
from .rig import load


def output_path(clip, out_dir, suffix):
    return Path(out_dir) / (Path(clip).stem + suffix)


def write_array(path, array):
    """Written beside and moved into place, so a failed or repeated task never leaves half a file."""
    partial = path.with_name(path.name + ".partial")
    with open(partial, "wb") as f:
        np.save(f, np.ascontiguousarray(array), allow_pickle=False)
    os.replace(partial, path)


def fk_clip(clip, out_dir):
    """Task `fk`: the clip's world transforms, frame by frame."""
    rig = load(clip)
    if rig.clip is None:
        raise _reach.Error(f"{clip}: the file holds no motion")
    path = output_path(clip, out_dir, ".npy")
    write_array(path, rig.fk_clip())
    return str(path)


def retarget_clip(clip, out_dir, target):
    """Task `retarget`: the clip carried onto `target` (reach.retarget), written as
    DIR/<clip>.npy of the target's local transforms per frame (frames, target bones, 7)."""
    path = output_path(clip, out_dir, ".npy")
    write_array(path, retarget(clip, target).frames)
    return str(path)


TASKS = {"fk": fk_clip, "retarget": retarget_clip}


class Progress:
    """A bar on a stream: `[#####.....] 5/10 clips, 1 failed`."""

    def __init__(self, total, stream, width=30):
        self.total, self.stream, self.width = total, stream, width
        self.done = self.failed = 0
        self.draw()

    def step(self, failed):
        self.done += 1
        self.failed += failed
        self.draw()

    def draw(self):
        filled = self.width * self.done // self.total if self.total else self.width
        failed = f", {self.failed} failed" if self.failed else ""
        end = "\n" if self.done == self.total else ""
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} clips{failed}{end}")
        self.stream.flush()


def run_serial(task, clips, args, report):
    for clip in clips:
        try:
            report(clip, task(clip, *args), None)
        except Exception as error:  # a clip's failure is reported by name; the others go on
            report(clip, None, error)


def run_dask(task, clips, args, report, scheduler):
    from distributed import Client, LocalCluster, as_completed

    if scheduler.startswith("local:"):
        workers = int(scheduler[len("local:"):])
        if workers < 1:
            raise ValueError("local:N needs N >= 1")
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(scheduler)
    try:
        futures = {client.submit(task, clip, *args, key=f"reach-clip-{i}-{Path(clip).name}", pure=False): clip
                   for i, clip in enumerate(clips)}
        for future in as_completed(futures):
            clip = futures[future]
            if future.status == "error":
                report(clip, None, future.exception())
            else:
                report(clip, future.result(), None)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run(task_name, clips, out_dir, scheduler="serial", target=None, stream=sys.stderr):
    """Runs a task over every clip; returns {clip: (output path or None, error or None)}."""
    task = TASKS[task_name]
    args = (os.fspath(out_dir),) + ((os.fspath(target),) if task_name == "retarget" else ())
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    clips = [os.fspath(c) for c in clips]
    outcomes = {}
    progress = Progress(len(clips), stream)

    def report(clip, path, error):
        outcomes[clip] = (path, error)
        progress.step(error is not None)

    if scheduler == "serial":
        run_serial(task, clips, args, report)
    else:
        run_dask(task, clips, args, report, scheduler)
    for clip in clips:
        error = outcomes[clip][1]
        if error is not None:
            stream.write(f"reach.dataset: {clip}: {error}\n")
    return outcomes


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m reach.dataset", description=__doc__.splitlines()[0])
    parser.add_argument("task", choices=sorted(TASKS))
    parser.add_argument("clips", nargs="+", metavar="CLIP")
    parser.add_argument("--out", required=True, metavar="DIR")
    parser.add_argument("--target", metavar="T", help="the character or robot to retarget onto (retarget)")
    parser.add_argument("--scheduler", default="serial", metavar="serial|local:N|ADDRESS")
    args = parser.parse_args(argv)
    if args.task == "retarget" and not args.target:
        parser.error("retarget needs --target")
    outcomes = run(args.task, args.clips, args.out, args.scheduler, args.target)
    failed = sum(error is not None for _, error in outcomes.values())
    print(f"{len(outcomes) - failed} of {len(outcomes)} clips written to {args.out}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
