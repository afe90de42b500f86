/* The batch FABRIK suite: reach_fabrik_solve_batch on 1 024 chains per call, cold (every chain
 * straight along +y from its root at the start), reach's default tolerance (1e-4 × each chain's
 * length) and iteration cap (64).
 *
 *   fabrik/10/batch          10 bones, the kernel reach picks on this machine
 *   fabrik/10/batch_scalar   the same batch on the scalar kernel
 *   fabrik/N/batch           N = 4 … 256 bones: how the time grows with the bones
 *
 * Chains and targets are made as the FABRIK suite makes them (chain.h): bone lengths 0.5 to 1.5,
 * seeded, per chain; each target the end of a random pose of its chain with every joint bent by
 * up to 60°, so all are reachable. Before anything is timed every chain is checked: REACH_OK,
 * lengths kept, the residual the true one, and the kernel's bits equal to the scalar kernel's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "random.h"
#include "reach/reach.h"
#include "reach/testing.h"
#include "suites.h"

#define SEED        0xfab7c4ba7c4u
#define CHAINS      1024
#define TARGET_BEND 60.0 /* degrees per joint */
#define DEGREE      (3.14159265358979323846 / 180)

#ifdef REACH_DOUBLE
#define LENGTH_LIMIT 1e-12
#else
#define LENGTH_LIMIT 1e-5
#endif

static const int growth_bones[] = {4, 16, 64, 256};
#define GROWTH_COUNT ((int)(sizeof growth_bones / sizeof growth_bones[0]))

typedef struct chain_batch {
    int bones;
    reach_real *lengths, *root[3], *target[3], *joints[3], *residual;
    int *iterations;
    unsigned char *reached, *status;
    double *length; /* per chain, for the checks */
} chain_batch;

static reach_fabrik_batch batch_view(chain_batch *c) {
    reach_fabrik_batch b;
    memset(&b, 0, sizeof b);
    b.count = CHAINS;
    b.bone_count = c->bones;
    b.lengths = c->lengths;
    reach_const_vec3_soa root = {c->root[0], c->root[1], c->root[2]},
                         target = {c->target[0], c->target[1], c->target[2]};
    reach_vec3_soa joints = {c->joints[0], c->joints[1], c->joints[2]};
    b.root = root;
    b.target = target;
    b.joints = joints;
    b.out_residual = c->residual;
    b.out_iterations = c->iterations;
    b.out_reached = c->reached;
    b.out_status = c->status;
    return b;
}

static void make_batch(chain_batch *c, int bones, bench_random *r) {
    size_t n = CHAINS, rows = (size_t)bones + 1;
    c->bones = bones;
    c->lengths = bench_calloc((size_t)bones * n, sizeof(reach_real));
    for (int k = 0; k < 3; k++) {
        c->root[k] = bench_calloc(n, sizeof(reach_real));
        c->target[k] = bench_calloc(n, sizeof(reach_real));
        c->joints[k] = bench_calloc(rows * n, sizeof(reach_real));
    }
    c->residual = bench_calloc(n, sizeof(reach_real));
    c->iterations = bench_calloc(n, sizeof(int));
    c->reached = bench_calloc(n, 1);
    c->status = bench_calloc(n, 1);
    c->length = bench_calloc(n, sizeof(double));
    for (size_t i = 0; i < n; i++) {
        /* The end of a random pose: each bone's world rotation is its parent's turned by up to
         * TARGET_BEND about a random axis (forward kinematics of chain.h's random pose). */
        reach_quat world = reach_quat_identity();
        reach_vec3 end = reach_vec3_zero();
        for (int b = 0; b < bones; b++) {
            reach_real length = bench_random_real(r, 0.5, 1.5);
            c->lengths[(size_t)b * n + i] = length;
            c->length[i] += (double)length;
            double angle = bench_random_uniform(r, 0, TARGET_BEND) * DEGREE;
            world = reach_quat_normalize_safe(
                reach_quat_mul(world, reach_quat_from_axis_angle(bench_random_direction(r), (reach_real)angle)));
            end = reach_vec3_mad(end, reach_quat_rotate(world, reach_vec3_make(0, 1, 0)), length);
        }
        c->target[0][i] = end.x;
        c->target[1][i] = end.y;
        c->target[2][i] = end.z;
    }
}

static void free_batch(chain_batch *c) {
    free(c->lengths);
    for (int k = 0; k < 3; k++) {
        free(c->root[k]);
        free(c->target[k]);
        free(c->joints[k]);
    }
    free(c->residual);
    free(c->iterations);
    free(c->reached);
    free(c->status);
    free(c->length);
}

/* ---- passes ------------------------------------------------------------------------------- */

typedef struct batch_pass {
    chain_batch *chains;
    const char *isa; /* NULL: reach's choice */
    long failures;
} batch_pass;

static void pass_batch(void *data) {
    batch_pass *pass = data;
    reach_fabrik_batch b = batch_view(pass->chains);
    reach_fabrik_batch_settings o = reach_fabrik_batch_default_settings();
    o.cold_start = 1;
    reach_status st = pass->isa ? reach_fabrik_solve_batch_isa(&b, &o, pass->isa) : reach_fabrik_solve_batch(&b, &o);
    pass->failures += st != REACH_OK;
}

/* ---- checks ------------------------------------------------------------------------------- */

static reach_vec3 joint_of(const chain_batch *c, int j, size_t i) {
    size_t k = (size_t)j * CHAINS + i;
    return reach_vec3_make(c->joints[0][k], c->joints[1][k], c->joints[2][k]);
}

/* Solves once on the scalar kernel and once on reach's choice; checks the answers and compares
 * the bits. Records the mean iterations and the share reached for the 10-bone batch. */
static void check_batch(bench_run *run, chain_batch *c, int record) {
    batch_pass scalar = {c, "scalar", 0}, simd = {c, NULL, 0};
    size_t rows = (size_t)c->bones + 1, bytes = rows * CHAINS * sizeof(reach_real);
    pass_batch(&scalar);
    reach_real *scalar_joints = bench_calloc(rows * CHAINS * 3, sizeof(reach_real));
    for (int k = 0; k < 3; k++)
        memcpy(scalar_joints + (size_t)k * rows * CHAINS, c->joints[k], bytes);
    pass_batch(&simd);
    int same = scalar.failures == 0 && simd.failures == 0;
    for (int k = 0; k < 3; k++)
        same = same && memcmp(scalar_joints + (size_t)k * rows * CHAINS, c->joints[k], bytes) == 0;
    free(scalar_joints);

    double length_error = 0, residual_error = 0, iterations = 0;
    int reached = 0;
    for (size_t i = 0; i < CHAINS; i++) {
        for (int b = 0; b < c->bones; b++) {
            double bone = bench_distance(joint_of(c, b + 1, i), joint_of(c, b, i));
            double error = fabs(bone - (double)c->lengths[(size_t)b * CHAINS + i]) / c->length[i];
            length_error = isnan(error) ? NAN : fmax(length_error, error);
        }
        reach_vec3 target = reach_vec3_make(c->target[0][i], c->target[1][i], c->target[2][i]);
        double error = fabs(bench_distance(joint_of(c, c->bones, i), target) - (double)c->residual[i]) / c->length[i];
        residual_error = isnan(error) ? NAN : fmax(residual_error, error);
        reached += c->reached[i];
        iterations += c->iterations[i];
    }
    char message[200];
    snprintf(message, sizeof message, "fabrik/%d/batch: every chain REACH_OK, the kernel's bits the scalar kernel's",
             c->bones);
    bench_check(run, same, message);
    snprintf(message, sizeof message, "fabrik/%d/batch: bone lengths hold within %.3g chain lengths (worst %.3g)",
             c->bones, LENGTH_LIMIT, length_error);
    bench_check(run, length_error <= LENGTH_LIMIT, message);
    snprintf(message, sizeof message, "fabrik/%d/batch: the residual is the true one (worst error %.3g chain lengths)",
             c->bones, residual_error);
    bench_check(run, residual_error <= 1e-7 + 4 * LENGTH_LIMIT, message);
    snprintf(message, sizeof message, "fabrik/%d/batch: at least 99.9 %% of the targets reached (%d of %d)", c->bones,
             reached, CHAINS);
    bench_check(run, reached * 1000 >= 999 * CHAINS, message);
    if (record) {
        bench_record_value(run, "fabrik/10/batch_iterations", "iterations", iterations / CHAINS);
        bench_record_value(run, "fabrik/10/batch_reached", "%", 100.0 * reached / CHAINS);
    }
}

/* ---- the suite ---------------------------------------------------------------------------- */

void bench_suite_fabrik_batch(bench_run *run) {
    bench_random r = {SEED};
    chain_batch ten, growth[GROWTH_COUNT];
    char names[GROWTH_COUNT][32];
    batch_pass passes[GROWTH_COUNT + 2];
    bench_timed timed[GROWTH_COUNT + 2];
    int count = 0;

    /* Building the batches is most of the suite's untimed work: skip it when no figure is wanted. */
    int wanted = bench_wants(run, "fabrik/10/batch") || bench_wants(run, "fabrik/10/batch_scalar") ||
                 bench_wants(run, "fabrik/speedup/batch_simd");
    for (int g = 0; g < GROWTH_COUNT; g++) {
        snprintf(names[g], sizeof names[g], "fabrik/%d/batch", growth_bones[g]);
        wanted |= bench_wants(run, names[g]);
    }
    if (!wanted) return;

    make_batch(&ten, 10, &r);
    if (bench_wants(run, "fabrik/10/batch")) check_batch(run, &ten, 1);
    passes[0] = (batch_pass){&ten, NULL, 0};
    passes[1] = (batch_pass){&ten, "scalar", 0};
    timed[count++] = (bench_timed){"fabrik/10/batch", "solves/s", pass_batch, &passes[0], CHAINS};
    timed[count++] = (bench_timed){"fabrik/10/batch_scalar", "solves/s", pass_batch, &passes[1], CHAINS};
    for (int g = 0; g < GROWTH_COUNT; g++) {
        make_batch(&growth[g], growth_bones[g], &r);
        if (bench_wants(run, names[g])) check_batch(run, &growth[g], 0);
        passes[count] = (batch_pass){&growth[g], NULL, 0};
        timed[count] = (bench_timed){names[g], "solves/s", pass_batch, &passes[count], CHAINS};
        count++;
    }
    bench_time(run, timed, count);
    long failures = 0;
    for (int k = 0; k < count; k++)
        failures += passes[k].failures;
    bench_check(run, failures == 0, "every fabrik batch returns REACH_OK");
    bench_consume((double)ten.joints[0][10 * CHAINS]);
    bench_ratio(run, "fabrik/speedup/batch_simd", "fabrik/10/batch", "fabrik/10/batch_scalar");

    free_batch(&ten);
    for (int g = 0; g < GROWTH_COUNT; g++)
        free_batch(&growth[g]);
}
