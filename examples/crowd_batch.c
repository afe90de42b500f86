/* A crowd: 10 000 legs, one batch call per thread. The batch API takes one array per coordinate
 * so the library solves several legs per SIMD instruction; it keeps no state, so two threads can
 * each take half of the crowd. Every target is reachable: every leg must reach it, keeping its bones. */
#define _POSIX_C_SOURCE 200809L /* pthreads under -std=c11 */
#include <pthread.h>
#include <stdio.h>

#include "reach/reach.h"

#define LEGS    10000
#define THREADS 2

typedef struct points { /* one array per coordinate */
    reach_real x[LEGS], y[LEGS], z[LEGS];
} points;
static points root, mid, end, target, pole, new_mid, new_end; /* static: too large for the stack */
static reach_real residual[LEGS];
static unsigned char reached[LEGS];

static reach_const_vec3_soa in(const points *p, int first) {
    reach_const_vec3_soa s = {p->x + first, p->y + first, p->z + first};
    return s;
}
static reach_vec3 at(const points *p, int i) { return reach_vec3_make(p->x[i], p->y[i], p->z[i]); }
static void set(points *p, int i, reach_vec3 v) { p->x[i] = v.x, p->y[i] = v.y, p->z[i] = v.z; }

typedef struct part {
    reach_two_bone_batch batch;
    reach_status status;
} part;

static void *solve_part(void *arg) {
    part *p = arg;
    reach_two_bone_settings options = reach_two_bone_default_settings(); /* batches give positions only */
    p->status = reach_two_bone_solve_batch(&p->batch, &options);
    return NULL;
}

int main(void) {
    /* Every leg has the same bones: hip to knee, knee to ankle. */
    const reach_vec3 thigh = reach_vec3_make(0, REACH_R(-0.45), REACH_R(0.05)),
                     shin = reach_vec3_make(0, REACH_R(-0.42), REACH_R(-0.05));
    for (int i = 0; i < LEGS; i++) { /* a 100 × 100 grid of legs, each reaching for its own spot */
        reach_vec3 hip = reach_vec3_make((reach_real)(i % 100), 1, (reach_real)(i / 100));
        reach_real s = (reach_real)i;
        set(&root, i, hip);
        set(&mid, i, reach_vec3_add(hip, thigh));
        set(&end, i, reach_vec3_add(hip, reach_vec3_add(thigh, shin)));
        set(&pole, i, reach_vec3_add(hip, reach_vec3_make(0, REACH_R(-0.4), 1))); /* knees forward */
        reach_vec3 reach = reach_vec3_make(REACH_R(0.2) * reach_sin(s), REACH_R(0.1) * reach_cos(s) - REACH_R(0.7),
                                           REACH_R(0.2) * reach_cos(REACH_R(1.3) * s));
        set(&target, i, reach_vec3_add(hip, reach));
    }
    part parts[THREADS] = {0};
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) { /* thread t solves legs [first, first + count) */
        int first = t * LEGS / THREADS;
        reach_two_bone_batch *b = &parts[t].batch;
        b->count = (t + 1) * LEGS / THREADS - first;
        b->root = in(&root, first), b->mid = in(&mid, first), b->end = in(&end, first);
        b->target = in(&target, first), b->pole = in(&pole, first);
        b->out_mid = (reach_vec3_soa){new_mid.x + first, new_mid.y + first, new_mid.z + first};
        b->out_end = (reach_vec3_soa){new_end.x + first, new_end.y + first, new_end.z + first};
        b->out_residual = residual + first, b->out_reached = reached + first;
        if (pthread_create(&threads[t], NULL, solve_part, &parts[t]) != 0) return 1;
    }
    int failures = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        failures += parts[t].status != REACH_OK;
    }

    /* Check every leg: target reached, both bones as long as before. */
    reach_real worst_residual = 0, worst_length = 0;
    for (int i = 0; i < LEGS; i++) {
        reach_vec3 knee = at(&new_mid, i);
        reach_real upper = reach_vec3_distance(knee, at(&root, i)) - reach_vec3_length(thigh);
        reach_real lower = reach_vec3_distance(at(&new_end, i), knee) - reach_vec3_length(shin);
        worst_length = reach_max(worst_length, reach_max(reach_fabs(upper), reach_fabs(lower)));
        worst_residual = reach_max(residual[i], worst_residual);
        failures += !reached[i];
    }
    printf("%d legs on %d threads (%s): %d failed, worst residual %.1e, worst length change %.1e\n", LEGS, THREADS,
           reach_batch_isa(), failures, (double)worst_residual, (double)worst_length);
    return failures == 0 && worst_length < REACH_R(1e-4) ? 0 : 1;
}
