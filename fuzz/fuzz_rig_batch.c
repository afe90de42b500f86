/* Fuzzes the batch rig two-bone solve: batches of limbs, each an ordinary one built from a few
 * bytes (so that most lanes take the vector path) or one of raw values (NaN, infinities, zero
 * and singular parents, 1e±30, subnormals, an end orientation), with default or fuzzed options.
 * Invariants:
 *   - options reach_two_bone_solve_rig rejects are refused once, the call writing nothing;
 *   - each limb's status is what reach_two_bone_solve_rig says for it alone, and the call
 *     returns the first limb's error;
 *   - a limb with an error keeps its pose: the input's rotations and translations byte for byte,
 *     its joints where forward kinematics of the input pose puts them, a residual that is a
 *     number, not reached;
 *   - a solved limb's outputs are finite;
 *   - a limb the vector path declined, and every limb on the scalar kernel, equals
 *     reach_two_bone_solve_rig bit for bit; a limb the vector path solved has its joints within
 *     a few dozen units in the last place of the chain and coordinates (more for a mid joint
 *     that is ill-conditioned), and every kernel gives each limb the same bits alone as within
 *     the batch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "reach/testing.h"

#define MAX_LIMBS 40

static const char *const isa_names[] = {"avx512", "avx2", "sse2", "neon", "wasm-simd", "scalar"};

/* An ordinary limb under a rotated, scaled parent, from a few bytes, each read its own statement
 * (the order in which arguments are evaluated is unspecified). */
static reach_two_bone_rig_input ordinary_limb(fuzz_input *in) {
    reach_two_bone_rig_input limb;
    memset(&limb, 0, sizeof limb);
    reach_real b[10];
    for (int k = 0; k < 10; ++k)
        b[k] = (reach_real)fuzz_byte(in);
    const reach_quat parent = reach_quat_normalize_safe(fuzz_quat(in));
    const reach_quat root = fuzz_quat(in), mid = fuzz_quat(in), end = fuzz_quat(in);
    limb.parent_world.linear = reach_mat3_from_quat(parent);
    for (int c = 0; c < 3; ++c)
        limb.parent_world.linear.col[c] = reach_vec3_scale(limb.parent_world.linear.col[c], (1 + b[0]) / 64);
    limb.parent_world.translation = reach_vec3_make(b[1] / 32, 0, 1);
    limb.root_local = reach_transform_make(root, reach_vec3_make(0, b[2] / 128, 0));
    limb.mid_local = reach_transform_make(mid, reach_vec3_make(0, (1 + b[3]) / 64, 0));
    limb.end_local = reach_transform_make(end, reach_vec3_make((1 + b[4]) / 64, 0, 0));
    limb.target = reach_vec3_make(b[5] / 32, b[6] / 32, 1);
    limb.pole = reach_vec3_make(b[7] / 16, 0, b[8] / 16);
    limb.use_pole = (int)b[9] & 1;
    return limb;
}

static double magnitude(reach_vec3 v) { return fmax(fabs((double)v.x), fmax(fabs((double)v.y), fabs((double)v.z))); }

static double distance(reach_vec3 a, reach_vec3 b) {
    return fuzz_norm3((double)a.x - (double)b.x, (double)a.y - (double)b.y, (double)a.z - (double)b.z);
}

/* The input pose's joints in the world (through transforms, not rig_refuse's steps). */
typedef struct placed {
    reach_vec3 root, mid, end;
} placed;

static placed input_pose(const reach_two_bone_rig_input *l) {
    const reach_transform root =
        reach_transform_make(reach_quat_normalize_safe(l->root_local.rotation), l->root_local.translation);
    const reach_transform mid = reach_transform_mul(
        root, reach_transform_make(reach_quat_normalize_safe(l->mid_local.rotation), l->mid_local.translation));
    const reach_transform end = reach_transform_mul(
        mid, reach_transform_make(reach_quat_normalize_safe(l->end_local.rotation), l->end_local.translation));
    placed p = {reach_affine_point(l->parent_world, root.translation),
                reach_affine_point(l->parent_world, mid.translation),
                reach_affine_point(l->parent_world, end.translation)};
    return p;
}

/* The rounding of placing a joint: the parent's columns times the local translations' sum, and
 * its translation, in units in the last place. */
static double placing_scale(const reach_two_bone_rig_input *l) {
    const double linear = magnitude(l->parent_world.linear.col[0]) + magnitude(l->parent_world.linear.col[1]) +
                          magnitude(l->parent_world.linear.col[2]);
    const double local = magnitude(l->root_local.translation) + magnitude(l->mid_local.translation) +
                         magnitude(l->end_local.translation);
    return linear * local + magnitude(l->parent_world.translation);
}

/* A refused limb keeps its pose. */
static void require_pose_kept(const reach_two_bone_rig_input *l, const reach_two_bone_rig_output *out) {
    FUZZ_REQUIRE(memcmp(&out->root_rotation, &l->root_local.rotation, sizeof(reach_quat)) == 0);
    FUZZ_REQUIRE(memcmp(&out->mid_rotation, &l->mid_local.rotation, sizeof(reach_quat)) == 0);
    FUZZ_REQUIRE(memcmp(&out->end_rotation, &l->end_local.rotation, sizeof(reach_quat)) == 0);
    FUZZ_REQUIRE(memcmp(&out->mid_translation, &l->mid_local.translation, sizeof(reach_vec3)) == 0);
    FUZZ_REQUIRE(memcmp(&out->end_translation, &l->end_local.translation, sizeof(reach_vec3)) == 0);
    FUZZ_REQUIRE(reach_is_finite(out->residual) && out->residual >= 0 && out->reached == 0);
    const placed p = input_pose(l);
    const double tol = 64 * (double)REACH_REAL_EPSILON * placing_scale(l);
    /* Where the pose or the measure overflows there is nothing to measure. */
    if (!isfinite(tol) || !reach_vec3_is_finite(p.mid) || !reach_vec3_is_finite(p.end)) return;
    FUZZ_REQUIRE(distance(out->mid, p.mid) <= tol && distance(out->end, p.end) <= tol);
}

/* A limb the vector path solved against the per-call answer: within 64 units in the last place of
 * its chain and coordinates, and for the mid joint the ill-conditioning of its height (eps·L²/h)
 * and of its foot (eps·L²/d for a target distance d) as well, as fuzz_batch allows. */
static void require_near(const reach_two_bone_rig_input *l, const reach_two_bone_rig_output *out,
                         const reach_two_bone_rig_output *alone) {
    const placed p = input_pose(l);
    const double chain = distance(p.mid, p.root) + distance(p.end, p.mid);
    if (!isfinite(chain) || !(chain > 0)) return;
    const double eps = (double)REACH_REAL_EPSILON;
    const double coordinates = fmax(fmax(magnitude(p.root), magnitude(l->target)), placing_scale(l));
    const double tol = 64 * eps * (chain + coordinates);
    const reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(alone->end, p.root), reach_vec3_make(1, 0, 0));
    const double h = (double)reach_vec3_length_robust(reach_vec3_reject(reach_vec3_sub(alone->mid, p.root), axis));
    const double d = distance(l->target, p.root);
    const double mid_tol = tol + 16 * eps * chain * (chain / fmax(h, sqrt(eps) * chain)) +
                           16 * eps * chain * (chain / fmax(d, eps * chain));
    if (!(distance(out->mid, alone->mid) <= mid_tol && distance(out->end, alone->end) <= tol))
        fprintf(stderr, "vector lane: mid off by %g (tolerance %g), end by %g (tolerance %g)\n",
                distance(out->mid, alone->mid), mid_tol, distance(out->end, alone->end), tol);
    FUZZ_REQUIRE(distance(out->mid, alone->mid) <= mid_tol && distance(out->end, alone->end) <= tol);
}

/* Two outputs the same to the bit, field by field (the struct's padding is no one's). */
static int same_output(const reach_two_bone_rig_output *a, const reach_two_bone_rig_output *b) {
    return memcmp(&a->root_rotation, &b->root_rotation, 3 * sizeof(reach_quat)) == 0 &&
           memcmp(&a->mid_translation, &b->mid_translation, 4 * sizeof(reach_vec3)) == 0 &&
           memcmp(&a->residual, &b->residual, sizeof(reach_real)) == 0 && a->reached == b->reached;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    static reach_two_bone_rig_input limbs[MAX_LIMBS];
    static reach_two_bone_rig_output out[MAX_LIMBS], untouched[MAX_LIMBS], alone;
    unsigned char status[MAX_LIMBS], vector[MAX_LIMBS], alone_status;
    const uint8_t flags = fuzz_byte(&in);
    const int count = fuzz_byte(&in) % (MAX_LIMBS + 1);
    for (int i = 0; i < count; ++i)
        limbs[i] = fuzz_byte(&in) % 4 ? ordinary_limb(&in) : fuzz_rig_limb(&in);
    reach_two_bone_settings options = reach_two_bone_default_settings();
    if (flags & 1) options.tolerance = fuzz_real(&in);
    if (flags & 2) options.soft_distance = fuzz_real(&in);
    const reach_two_bone_settings *opt = flags & 4 ? &options : NULL;
    /* The fuzzed options out of their ranges: every limb's error, refused once. */
    reach_status bad_options = REACH_OK;
    if (opt && !(reach_is_finite(options.tolerance) && reach_is_finite(options.soft_distance)))
        bad_options = REACH_ERROR_NOT_FINITE;
    else if (opt && (options.tolerance < 0 || options.soft_distance < 0))
        bad_options = REACH_ERROR_INVALID_ARGUMENT;

    for (size_t k = 0; k < sizeof isa_names / sizeof isa_names[0]; ++k) {
        /* An empty batch is refused only on a kernel this build or machine lacks. */
        if (reach_two_bone_solve_rig_batch_isa(limbs, 0, opt, out, status, isa_names[k]) != REACH_OK) continue;
        if (bad_options != REACH_OK) {
            memset(out, 0x5a, sizeof out);
            memcpy(untouched, out, sizeof out);
            memset(status, 9, sizeof status);
            FUZZ_REQUIRE(reach_two_bone_solve_rig_batch_isa(limbs, count, opt, out, status, isa_names[k]) ==
                         bad_options);
            FUZZ_REQUIRE(memcmp(out, untouched, sizeof out) == 0);
            for (int i = 0; i < count; ++i)
                FUZZ_REQUIRE(status[i] == 9);
            if (count > 0) FUZZ_REQUIRE(reach_two_bone_solve_rig(&limbs[0], opt, &alone) == bad_options);
            continue;
        }
        const reach_status st =
            reach_two_bone_solve_rig_batch_lanes(limbs, count, opt, out, status, isa_names[k], vector);
        reach_status first = REACH_OK;
        for (int i = 0; i < count; ++i) {
            const reach_status limb_st = reach_two_bone_solve_rig(&limbs[i], opt, &alone);
            if (first == REACH_OK) first = limb_st;
            FUZZ_REQUIRE(status[i] == limb_st);
            if (limb_st != REACH_OK) {
                FUZZ_REQUIRE(vector[i] == 0);
                require_pose_kept(&limbs[i], &out[i]);
                continue;
            }
            FUZZ_REQUIRE(reach_quat_is_finite(out[i].root_rotation) && reach_quat_is_finite(out[i].mid_rotation) &&
                         reach_quat_is_finite(out[i].end_rotation));
            FUZZ_REQUIRE(reach_vec3_is_finite(out[i].mid) && reach_vec3_is_finite(out[i].end) &&
                         reach_is_finite(out[i].residual));
            if (strcmp(isa_names[k], "scalar") == 0) FUZZ_REQUIRE(vector[i] == 0);
            if (vector[i])
                require_near(&limbs[i], &out[i], &alone);
            else
                FUZZ_REQUIRE(same_output(&out[i], &alone));
            /* The limb alone on the same kernel: the same bits. */
            reach_two_bone_solve_rig_batch_isa(&limbs[i], 1, opt, &alone, &alone_status, isa_names[k]);
            FUZZ_REQUIRE(alone_status == status[i] && same_output(&out[i], &alone));
        }
        FUZZ_REQUIRE(st == first);
    }
    return 0;
}
