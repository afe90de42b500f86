/* The two-bone suite: reach's 3-D solver (positions only, and with rotation output), the rig
 * helper and the 2-D solver, next to the plain law-of-cosines solver on the same limbs.
 *
 * The limbs are generated once from a fixed seed: 3 in 4 targets reachable, 1 in 8 beyond
 * full extension, 1 in 8 closer to the root than the limb can fold. Before anything is timed,
 * every solver runs once and the results are checked: reach and the plain solver must put the
 * end in the same place, so the speed comparison is between solvers that do the same job. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "limbs.h"
#include "reach/reach.h"
#include "reference_two_bone.h"
#include "suites.h"

#define LIMB_COUNT 4096
#define SEED       0x7e0b0e5eedu

/* How far apart reach's and the plain solver's ends may be, in chain lengths. Both put the end
 * on a reachable target up to rounding (measured: 2e-6 in float, 3e-15 in double, the plain
 * solver's acos being the less exact); the limits leave room for other compilers and libms.
 * For unreachable targets the plain solver meets acos at a straight or folded joint, where
 * acos(1 − δ) ≈ √(2δ) turns rounding into an angle error of about √ε. */
#ifdef REACH_DOUBLE
#define AGREEMENT_LIMIT 1e-12
#else
#define AGREEMENT_LIMIT 1e-5
#endif
#define UNREACHABLE_AGREEMENT_LIMIT (8 * sqrt((double)REACH_REAL_EPSILON))

/* How far the rig's end may be from where the plain rig solver's local rotations put it, in
 * chain lengths: the plain one's acos and its rotations read off matrices add their rounding
 * (measured: 1.1e-5 in float, 2e-14 in double). */
#ifdef REACH_DOUBLE
#define RIG_AGREEMENT_LIMIT 1e-11
#else
#define RIG_AGREEMENT_LIMIT 1e-4
#endif

/* reach's default tolerance: a reachable target is reached within 1e-4 chain lengths. */
#define REACHED_LIMIT 1e-4

typedef struct two_bone_set {
    int count;
    limb_shape *shapes;
    reach_two_bone_input *inputs;
    reach_two_bone_output *outputs;
    reference_two_bone_result *reference_outputs;
    reach_two_bone_rig_input *rig_inputs;
    reach_two_bone_rig_output *rig_outputs;
    reach_two_bone_rig_output *rig_batch_outputs;       /* the same limbs through the batch entry */
    reference_two_bone_rig_input *reference_rig_inputs; /* the same limbs as world matrices */
    reference_two_bone_rig_result *reference_rig_outputs;
    reach_two_bone_2d_input *inputs_2d;
    reach_two_bone_2d_output *outputs_2d;
} two_bone_set;

/* ---- inputs ---------------------------------------------------------------------------- */

static reach_vec2 polar(double length, double angle) {
    return reach_vec2_make((reach_real)(length * cos(angle)), (reach_real)(length * sin(angle)));
}

static reach_two_bone_2d_input random_limb_2d(bench_random *r, limb_shape s) {
    reach_two_bone_2d_input in;
    double aim = bench_random_uniform(r, -180, 180) * LIMB_DEGREE;
    double bend = bench_random_uniform(r, 20, 160) * LIMB_DEGREE * (bench_random_uniform(r, 0, 1) < 0.5 ? 1 : -1);
    in.root = reach_vec2_make(bench_random_real(r, -1, 1), bench_random_real(r, -1, 1));
    in.mid = reach_vec2_add(in.root, polar(s.upper, aim));
    in.end = reach_vec2_add(in.mid, polar(s.lower, aim + bend));
    in.target = reach_vec2_add(in.root, polar(s.distance, bench_random_uniform(r, -180, 180) * LIMB_DEGREE));
    in.bend = bench_random_uniform(r, 0, 1) < 0.5 ? REACH_BEND_CCW : REACH_BEND_CW;
    return in;
}

/* A limb in a hierarchy under a rotated, uniformly scaled and translated parent. */
static reach_two_bone_rig_input random_rig(bench_random *r, limb_shape s) {
    reach_two_bone_rig_input in;
    double scale = bench_random_uniform(r, 0.5, 2);
    in.parent_world.linear = reach_mat3_from_quat(bench_random_rotation(r));
    for (int c = 0; c < 3; c++)
        in.parent_world.linear.col[c] = reach_vec3_scale(in.parent_world.linear.col[c], (reach_real)scale);
    in.parent_world.translation = bench_random_point(r, 1);
    in.root_local = reach_transform_make(bench_random_rotation(r), bench_random_point(r, 1));
    in.mid_local = reach_transform_make(bench_random_rotation(r),
                                        reach_vec3_scale(bench_random_direction(r), (reach_real)s.upper));
    in.end_local = reach_transform_make(bench_random_rotation(r),
                                        reach_vec3_scale(bench_random_direction(r), (reach_real)s.lower));
    reach_vec3 world_root = reach_affine_point(in.parent_world, in.root_local.translation);
    in.target = reach_vec3_mad(world_root, bench_random_direction(r), (reach_real)(s.distance * scale));
    in.pole = reach_vec3_mad(world_root, bench_random_direction(r), (reach_real)((s.upper + s.lower) * scale));
    in.use_pole = 1;
    in.end_orientation = reach_quat_identity();
    in.use_end_orientation = 0;
    return in;
}

static reach_affine times(reach_affine parent, reach_transform local) {
    reach_affine a;
    a.linear = reach_mat3_mul(parent.linear, reach_mat3_from_quat(local.rotation));
    a.translation = reach_affine_point(parent, local.translation);
    return a;
}

/* The world matrices a renderer or an animation job holds for the same limb. */
static reference_two_bone_rig_input world_matrices(const reach_two_bone_rig_input *rig) {
    reference_two_bone_rig_input in;
    in.parent_world = rig->parent_world;
    in.root_world = times(rig->parent_world, rig->root_local);
    in.mid_world = times(in.root_world, rig->mid_local);
    in.end_world = times(in.mid_world, rig->end_local);
    in.target = rig->target;
    return in;
}

static void make_set(two_bone_set *set, int count, uint64_t seed) {
    size_t n = (size_t)count;
    set->count = count;
    set->shapes = bench_calloc(n, sizeof *set->shapes);
    set->inputs = bench_calloc(n, sizeof *set->inputs);
    set->outputs = bench_calloc(n, sizeof *set->outputs);
    set->reference_outputs = bench_calloc(n, sizeof *set->reference_outputs);
    set->rig_inputs = bench_calloc(n, sizeof *set->rig_inputs);
    set->rig_outputs = bench_calloc(n, sizeof *set->rig_outputs);
    set->rig_batch_outputs = bench_calloc(n, sizeof *set->rig_batch_outputs);
    set->reference_rig_inputs = bench_calloc(n, sizeof *set->reference_rig_inputs);
    set->reference_rig_outputs = bench_calloc(n, sizeof *set->reference_rig_outputs);
    set->inputs_2d = bench_calloc(n, sizeof *set->inputs_2d);
    set->outputs_2d = bench_calloc(n, sizeof *set->outputs_2d);
    bench_random r = {seed};
    for (int i = 0; i < count; i++) {
        set->shapes[i] = limb_random_shape(&r);
        set->inputs[i] = limb_random_input(&r, set->shapes[i]);
        set->rig_inputs[i] = random_rig(&r, set->shapes[i]);
        set->reference_rig_inputs[i] = world_matrices(&set->rig_inputs[i]);
        set->inputs_2d[i] = random_limb_2d(&r, set->shapes[i]);
    }
}

static void free_set(two_bone_set *set) {
    free(set->shapes);
    free(set->inputs);
    free(set->outputs);
    free(set->reference_outputs);
    free(set->rig_inputs);
    free(set->rig_outputs);
    free(set->rig_batch_outputs);
    free(set->reference_rig_inputs);
    free(set->reference_rig_outputs);
    free(set->inputs_2d);
    free(set->outputs_2d);
}

/* ---- passes: one solve per limb, results stored for the checks ------------------------- */

typedef enum entry_point { ENTRY_3D, ENTRY_RIG, ENTRY_RIG_BATCH, ENTRY_2D } entry_point;

typedef struct solve_pass {
    const two_bone_set *set;
    entry_point entry; /* which of reach's solvers; the plain one has its own pass */
    reach_two_bone_settings options;
    long failures; /* solves that did not return REACH_OK */
} solve_pass;

static void pass_reference(void *data) {
    const two_bone_set *set = ((solve_pass *)data)->set;
    const reach_two_bone_input *in = set->inputs;
    reference_two_bone_result *out = set->reference_outputs;
    for (int i = 0, n = set->count; i < n; i++)
        reference_two_bone_solve(&in[i], &out[i]);
}

static void pass_reference_rig(void *data) {
    const two_bone_set *set = ((solve_pass *)data)->set;
    const reference_two_bone_rig_input *in = set->reference_rig_inputs;
    reference_two_bone_rig_result *out = set->reference_rig_outputs;
    for (int i = 0, n = set->count; i < n; i++)
        reference_two_bone_solve_rig(&in[i], &out[i]);
}

static void pass_reach(void *data) {
    solve_pass *pass = data;
    const two_bone_set *set = pass->set;
    const reach_two_bone_settings options = pass->options;
    long failures = 0;
    int n = set->count;
    switch (pass->entry) {
    case ENTRY_3D:
        for (int i = 0; i < n; i++)
            failures += reach_two_bone_solve(&set->inputs[i], &options, &set->outputs[i]) != REACH_OK;
        break;
    case ENTRY_RIG:
        for (int i = 0; i < n; i++)
            failures += reach_two_bone_solve_rig(&set->rig_inputs[i], &options, &set->rig_outputs[i]) != REACH_OK;
        break;
    case ENTRY_RIG_BATCH:
        failures +=
            reach_two_bone_solve_rig_batch(set->rig_inputs, n, &options, set->rig_batch_outputs, NULL) != REACH_OK;
        break;
    case ENTRY_2D:
        for (int i = 0; i < n; i++)
            failures += reach_two_bone_solve_2d(&set->inputs_2d[i], &options, &set->outputs_2d[i]) != REACH_OK;
        break;
    }
    pass->failures += failures;
}

/* ---- checks ---------------------------------------------------------------------------- */

typedef struct accuracy {
    bench_stats agreement;             /* |reach end − plain end|, reachable targets */
    bench_stats residual;              /* |reach end − target|, reachable targets */
    bench_stats reference_residual;    /* |plain end − target|, reachable targets */
    bench_stats unreachable_agreement; /* |reach end − plain end|, the other targets */
    bench_stats rig_agreement;         /* |reach rig end − where the plain rig's rotations put it| */
    bench_stats rig_batch_agreement;   /* |batch rig end − per-call rig end| */
} accuracy;

/* Where the plain rig solver's new local rotations put the end, by forward kinematics. */
static reach_vec3 reference_rig_end(const reach_two_bone_rig_input *rig, const reference_two_bone_rig_result *r) {
    reach_affine root = times(rig->parent_world, reach_transform_make(r->root_rotation, rig->root_local.translation));
    reach_affine mid = times(root, reach_transform_make(r->mid_rotation, rig->mid_local.translation));
    return reach_affine_point(mid, rig->end_local.translation);
}

/* The rig's end against the plain rig solver's, in the world chain's lengths, reachable
 * targets. */
static bench_stats measure_rig_agreement(const two_bone_set *set) {
    double *gaps = bench_calloc((size_t)set->count, sizeof(double));
    int count = 0;
    for (int i = 0; i < set->count; i++) {
        if (!set->shapes[i].reachable) continue;
        const reference_two_bone_rig_input *w = &set->reference_rig_inputs[i];
        double chain = bench_distance(w->root_world.translation, w->mid_world.translation) +
                       bench_distance(w->mid_world.translation, w->end_world.translation);
        reach_vec3 plain_end = reference_rig_end(&set->rig_inputs[i], &set->reference_rig_outputs[i]);
        gaps[count++] = bench_distance(set->rig_outputs[i].end, plain_end) / chain;
    }
    bench_stats stats = bench_stats_of(gaps, count);
    free(gaps);
    return stats;
}

/* The batch rig solve's end against the per-call one's, in the world chain's lengths, every
 * limb. */
static bench_stats measure_rig_batch_agreement(const two_bone_set *set) {
    double *gaps = bench_calloc((size_t)set->count, sizeof(double));
    for (int i = 0; i < set->count; i++) {
        const reference_two_bone_rig_input *w = &set->reference_rig_inputs[i];
        double chain = bench_distance(w->root_world.translation, w->mid_world.translation) +
                       bench_distance(w->mid_world.translation, w->end_world.translation);
        gaps[i] = bench_distance(set->rig_batch_outputs[i].end, set->rig_outputs[i].end) / chain;
    }
    bench_stats stats = bench_stats_of(gaps, set->count);
    free(gaps);
    return stats;
}

/* Compares reach's and the plain solver's ends, in chain lengths. */
static accuracy measure_accuracy(const two_bone_set *set) {
    size_t n = (size_t)set->count;
    double *agreement = bench_calloc(n, sizeof(double)), *residual = bench_calloc(n, sizeof(double));
    double *reference_residual = bench_calloc(n, sizeof(double)), *unreachable = bench_calloc(n, sizeof(double));
    int reachable_count = 0, unreachable_count = 0;
    for (int i = 0; i < set->count; i++) {
        double chain = set->shapes[i].upper + set->shapes[i].lower;
        reach_vec3 end = set->outputs[i].end, plain_end = set->reference_outputs[i].end;
        double gap = bench_distance(end, plain_end) / chain;
        if (!set->shapes[i].reachable) {
            unreachable[unreachable_count++] = gap;
            continue;
        }
        agreement[reachable_count] = gap;
        residual[reachable_count] = bench_distance(end, set->inputs[i].target) / chain;
        reference_residual[reachable_count] = bench_distance(plain_end, set->inputs[i].target) / chain;
        reachable_count++;
    }
    accuracy a;
    a.agreement = bench_stats_of(agreement, reachable_count);
    a.residual = bench_stats_of(residual, reachable_count);
    a.reference_residual = bench_stats_of(reference_residual, reachable_count);
    a.unreachable_agreement = bench_stats_of(unreachable, unreachable_count);
    a.rig_agreement = measure_rig_agreement(set);
    a.rig_batch_agreement = measure_rig_batch_agreement(set);
    free(agreement);
    free(residual);
    free(reference_residual);
    free(unreachable);
    return a;
}

/* Every reachable target reached, by each of reach's entry points. */
static int all_reached(const two_bone_set *set) {
    for (int i = 0; i < set->count; i++) {
        if (!set->shapes[i].reachable) continue;
        if (!set->outputs[i].reached || !set->rig_outputs[i].reached || !set->rig_batch_outputs[i].reached ||
            !set->outputs_2d[i].reached)
            return 0;
    }
    return 1;
}

/* Reads every result, so no pass's stores are dead. */
static double checksum(const two_bone_set *set) {
    double sum = 0;
    for (int i = 0; i < set->count; i++) {
        sum += (double)set->outputs[i].end.x + (double)set->outputs[i].root_rotation.w;
        sum += (double)set->reference_outputs[i].end.y + (double)set->rig_outputs[i].end_rotation.w;
        sum += (double)set->outputs_2d[i].mid.x + (double)set->reference_rig_outputs[i].mid_rotation.w;
        sum += (double)set->rig_batch_outputs[i].end_rotation.w;
    }
    return sum;
}

/* A NaN sorts as the worst value, and fails the comparison. */
static void check_within(bench_run *run, double worst, double limit, const char *what) {
    char message[200];
    snprintf(message, sizeof message, "%s within %.3g chain lengths (worst %.3g)", what, limit, worst);
    bench_check(run, worst <= limit, message);
}

static void record_accuracy(bench_run *run, const accuracy *a) {
    bench_record(run, "two_bone/accuracy/agreement", "chain lengths", a->agreement);
    bench_record(run, "two_bone/accuracy/unreachable_agreement", "chain lengths", a->unreachable_agreement);
    bench_record(run, "two_bone/accuracy/rig_agreement", "chain lengths", a->rig_agreement);
    bench_record(run, "two_bone/accuracy/rig_batch_agreement", "chain lengths", a->rig_batch_agreement);
    bench_record(run, "two_bone/accuracy/residual", "chain lengths", a->residual);
    bench_record(run, "two_bone/accuracy/reference_residual", "chain lengths", a->reference_residual);
    check_within(run, a->agreement.max, AGREEMENT_LIMIT, "reach and the plain solver agree on the end");
    check_within(run, a->unreachable_agreement.max, UNREACHABLE_AGREEMENT_LIMIT,
                 "they agree on the closest pose for unreachable targets");
    check_within(run, a->residual.max, REACHED_LIMIT, "reach's end is on reachable targets");
    check_within(run, a->rig_agreement.max, RIG_AGREEMENT_LIMIT, "the rig and the plain rig solver agree on the end");
    check_within(run, a->rig_batch_agreement.max, RIG_AGREEMENT_LIMIT,
                 "the batch and the per-call rig solve agree on the end");
}

static void record_sizes(bench_run *run) {
    bench_record_value(run, "two_bone/bytes/single", "bytes/limb",
                       (double)(sizeof(reach_two_bone_input) + sizeof(reach_two_bone_output)));
    bench_record_value(run, "two_bone/bytes/rig", "bytes/limb",
                       (double)(sizeof(reach_two_bone_rig_input) + sizeof(reach_two_bone_rig_output)));
    bench_record_value(run, "two_bone/bytes/2d", "bytes/limb",
                       (double)(sizeof(reach_two_bone_2d_input) + sizeof(reach_two_bone_2d_output)));
}

/* ---- the suite ------------------------------------------------------------------------- */

void bench_suite_two_bone(bench_run *run) {
    two_bone_set set;
    make_set(&set, LIMB_COUNT, SEED);
    reach_two_bone_settings with_rotations = reach_two_bone_default_settings();
    reach_two_bone_settings positions_only = with_rotations;
    positions_only.rotations = 0;
    solve_pass reference = {&set, ENTRY_3D, with_rotations, 0};
    solve_pass positions = {&set, ENTRY_3D, positions_only, 0}, rotations = {&set, ENTRY_3D, with_rotations, 0};
    solve_pass rig = {&set, ENTRY_RIG, with_rotations, 0}, rig_batch = {&set, ENTRY_RIG_BATCH, with_rotations, 0};
    solve_pass positions_2d = {&set, ENTRY_2D, positions_only, 0}, rotations_2d = {&set, ENTRY_2D, with_rotations, 0};
    double items = (double)set.count;
    const bench_timed timed[] = {
        {"two_bone/reference", "solves/s", pass_reference, &reference, items},
        {"two_bone/single/positions", "solves/s", pass_reach, &positions, items},
        {"two_bone/single/rotations", "solves/s", pass_reach, &rotations, items},
        {"two_bone/rig/reference", "solves/s", pass_reference_rig, &reference, items},
        {"two_bone/rig/single", "solves/s", pass_reach, &rig, items},
        {"two_bone/rig/batch", "solves/s", pass_reach, &rig_batch, items},
        {"two_bone/2d/single/positions", "solves/s", pass_reach, &positions_2d, items},
        {"two_bone/2d/single/rotations", "solves/s", pass_reach, &rotations_2d, items},
    };
    int timed_count = (int)(sizeof timed / sizeof timed[0]);

    /* One untimed pass of each, then the checks on what they produced. */
    for (int i = 0; i < timed_count; i++)
        timed[i].pass(timed[i].data);
    accuracy a = measure_accuracy(&set);
    bench_check(run, all_reached(&set), "every entry point reaches every reachable target");

    bench_time(run, timed, timed_count);
    long failures = 0;
    for (int i = 0; i < timed_count; i++)
        failures += ((const solve_pass *)timed[i].data)->failures;
    bench_check(run, failures == 0, "every solve returns REACH_OK");
    bench_consume(checksum(&set));

    record_accuracy(run, &a);
    record_sizes(run);
    bench_ratio(run, "two_bone/speedup/positions", "two_bone/single/positions", "two_bone/reference");
    bench_ratio(run, "two_bone/speedup/rotations", "two_bone/single/rotations", "two_bone/reference");
    bench_ratio(run, "two_bone/speedup/rig", "two_bone/rig/single", "two_bone/rig/reference");
    bench_ratio(run, "two_bone/speedup/rig_batch", "two_bone/rig/batch", "two_bone/rig/reference");
    free_set(&set);
}
