/* A field of tentacles: 4096 chains of 10 bones reaching for targets that sway from frame to
 * frame, one batch FABRIK call per thread per frame. The batch takes one array per coordinate,
 * joint j of every chain in one row, so the library solves several chains per SIMD instruction;
 * it keeps no state, so each thread takes a slice of the crowd. The first frame starts straight
 * up (cold); later frames start from the last pose (warm), which is what makes them cheap.
 * Every target is reachable: every chain must reach it, keeping its bones. */
#define _POSIX_C_SOURCE 200809L /* pthreads under -std=c11 */
#include <pthread.h>
#include <stdio.h>

#include "reach/reach.h"

#define CHAINS  4096
#define BONES   10
#define FRAMES  8
#define THREADS 2

/* Row r of an array holds joint (or bone) r of every chain: element [r * CHAINS + i]. */
static reach_real length[BONES * CHAINS];
static reach_real root_x[CHAINS], root_y[CHAINS], root_z[CHAINS];
static reach_real target_x[CHAINS], target_y[CHAINS], target_z[CHAINS];
static reach_real joint_x[(BONES + 1) * CHAINS], joint_y[(BONES + 1) * CHAINS], joint_z[(BONES + 1) * CHAINS];
static reach_real residual[CHAINS];
static unsigned char reached[CHAINS], status[CHAINS];

typedef struct part {
    reach_fabrik_batch batch;
    const reach_fabrik_batch_settings *options;
    reach_status status;
} part;

static void *solve_part(void *arg) {
    part *p = arg;
    p->status = reach_fabrik_solve_batch(&p->batch, p->options);
    return NULL;
}

/* Where chain i reaches at time t: a point circling above its root, well inside its reach. */
static void place_target(int i, reach_real t, reach_real chain) {
    reach_real phase = REACH_R(0.37) * (reach_real)i, r = REACH_R(0.35) * chain;
    target_x[i] = root_x[i] + r * reach_cos(t + phase);
    target_y[i] = root_y[i] + REACH_R(0.5) * chain + REACH_R(0.1) * chain * reach_sin(REACH_R(2.3) * t + phase);
    target_z[i] = root_z[i] + r * reach_sin(t + phase);
}

int main(void) {
    reach_real chain[CHAINS];
    for (int i = 0; i < CHAINS; i++) { /* a 64 × 64 grid of tentacles, each tapering to its tip */
        root_x[i] = (reach_real)(i % 64), root_y[i] = 0, root_z[i] = (reach_real)(i / 64);
        chain[i] = 0;
        for (int b = 0; b < BONES; b++) {
            length[b * CHAINS + i] = REACH_R(0.3) - REACH_R(0.02) * (reach_real)b;
            chain[i] += length[b * CHAINS + i];
        }
    }
    reach_fabrik_batch batch = {0};
    batch.count = CHAINS;
    batch.bone_count = BONES;
    batch.stride = CHAINS;
    batch.lengths = length;
    batch.root = (reach_const_vec3_soa){root_x, root_y, root_z};
    batch.target = (reach_const_vec3_soa){target_x, target_y, target_z};
    batch.joints = (reach_vec3_soa){joint_x, joint_y, joint_z};
    batch.out_residual = residual;
    batch.out_reached = reached;
    batch.out_status = status;

    reach_fabrik_batch_settings cold = reach_fabrik_batch_default_settings(), warm = cold;
    cold.cold_start = 1; /* straight along cold_direction, +y by default: the joints are not read */
    int failures = 0;
    reach_real worst_residual = 0, worst_length = 0;
    for (int frame = 0; frame < FRAMES; frame++) {
        for (int i = 0; i < CHAINS; i++)
            place_target(i, REACH_R(0.25) * (reach_real)frame, chain[i]);
        part parts[THREADS];
        pthread_t threads[THREADS];
        for (int t = 0; t < THREADS; t++) { /* thread t solves chains [first, first + count) */
            int first = t * CHAINS / THREADS;
            parts[t].batch = reach_fabrik_batch_slice(&batch, first, (t + 1) * CHAINS / THREADS - first);
            parts[t].options = frame == 0 ? &cold : &warm;
            if (pthread_create(&threads[t], NULL, solve_part, &parts[t]) != 0) return 1;
        }
        for (int t = 0; t < THREADS; t++) {
            pthread_join(threads[t], NULL);
            failures += parts[t].status != REACH_OK;
        }

        /* Check every tentacle: target reached, every bone as long as before, rooted. */
        for (int i = 0; i < CHAINS; i++) {
            failures += status[i] != REACH_OK || !reached[i];
            failures += joint_x[i] != root_x[i] || joint_y[i] != root_y[i] || joint_z[i] != root_z[i];
            for (int b = 0; b < BONES; b++) {
                int j = b * CHAINS + i, k = j + CHAINS; /* the bone's two joints */
                reach_vec3 p = reach_vec3_make(joint_x[j], joint_y[j], joint_z[j]);
                reach_vec3 q = reach_vec3_make(joint_x[k], joint_y[k], joint_z[k]);
                reach_real change = reach_fabs(reach_vec3_distance(p, q) - length[j]);
                worst_length = reach_max(worst_length, change);
            }
            worst_residual = reach_max(worst_residual, residual[i]);
        }
    }
    printf("%d tentacles of %d bones, %d frames on %d threads: %d failed, worst residual %.1e, worst length change "
           "%.1e\n",
           CHAINS, BONES, FRAMES, THREADS, failures, (double)worst_residual, (double)worst_length);
    return failures == 0 && worst_length < REACH_R(1e-4) ? 0 : 1;
}
