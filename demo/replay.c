/* The fixed-step replay clock. */
#include <math.h>

#include "replay.h"

demo_replay demo_replay_make(double step_seconds, int warmup_steps) {
    demo_replay replay = {step_seconds, warmup_steps, 0, 0};
    return replay;
}

int demo_replay_is_start(const demo_replay *replay, int k) { return k == -replay->warmup_steps; }

int demo_replay_step_at(const demo_replay *replay, double time) {
    double steps = floor(time / replay->step_seconds + 0.5);
    return steps > 0 ? (int)steps : 0;
}

void demo_replay_range(demo_replay *replay, double time, int *first, int *last) {
    int wanted = demo_replay_step_at(replay, time);
    *first = !replay->started || wanted < replay->step ? -replay->warmup_steps : replay->step + 1;
    *last = wanted;
    replay->started = 1;
    replay->step = wanted;
}

int demo_replay_run(demo_replay *replay, double time, int (*reset)(void), int (*step)(int k)) {
    int first, last;
    demo_replay_range(replay, time, &first, &last);
    for (int k = first; k <= last; k++) {
        int status = demo_replay_is_start(replay, k) ? reset() : 0;
        if (status == 0) status = step(k);
        if (status != 0) return status;
    }
    return 0;
}
