/* Scenes whose state carries from one frame to the next (a solver warm-started from the last
 * pose, a walker) run a simulation at a fixed step from t = 0, and a frame at time t shows the
 * state after step round(t / step). So a frame stays a function of its time alone, whatever
 * order frames are drawn in, while frames drawn in order (the render loop) cost one pass: the
 * scene keeps its last state and only steps on from it, and starts over when asked for an
 * earlier time. A looping scene can run a lap first (warm-up steps, at negative times), so
 * that its first frame carries on from its last one as every other frame does from the one
 * before: the GIF then loops without a jump. */
#ifndef DEMO_REPLAY_H
#define DEMO_REPLAY_H

typedef struct demo_replay {
    double step_seconds; /* the simulation's fixed step */
    int warmup_steps;    /* steps run before step 0, at times -warmup_steps × step_seconds on */
    int step;            /* the last step the kept state has run */
    int started;         /* 0: there is no kept state yet */
} demo_replay;

/* A replay that has not started, stepping every step_seconds after warmup_steps. */
demo_replay demo_replay_make(double step_seconds, int warmup_steps);

/* The step shown at `time`. */
int demo_replay_step_at(const demo_replay *replay, double time);

/* The steps to run, *first to *last inclusive, to bring the kept state to `time`, and marks
 * it as kept at *last. When the state must start over (there is none yet, or it is past that
 * time) *first is the first warm-up step, -warmup_steps: the caller resets its state when it
 * runs that step (demo_replay_is_start). Nothing to run when *last < *first. Step k is the
 * state at time k × step_seconds. */
void demo_replay_range(demo_replay *replay, double time, int *first, int *last);

/* Whether step k is the one that starts from a reset state. */
int demo_replay_is_start(const demo_replay *replay, int k);

/* The loop every replayed scene runs, for scenes whose state is one object: brings it to
 * `time`, calling reset() before the step that starts over and step(k) for each step k (at
 * time k × step_seconds). Stops at the first status that is not REACH_OK and returns it. */
int demo_replay_run(demo_replay *replay, double time, int (*reset)(void), int (*step)(int k));

#endif
