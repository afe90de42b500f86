/* The batch rig two-bone solve (reach_two_bone_solve_rig_batch) against the per-call
 * reach_two_bone_solve_rig, limb by limb: over seeded random limbs under rigid, scaled, stretched
 * and mirrored parents, targets within reach, beyond it and inside the fold, with and without
 * poles, mixed with limbs that need care (NaN and infinity, zero bones, singular and nearly
 * singular parents, an end orientation, a pole on the target line, rotations far from unit
 * length, a bone that turns half way round, a folded limb with no pole, a bone just under the
 * vector path's range, a target or a pole on the root, a limb small next to its coordinates),
 * every lane's status, positions and forward kinematics of its rotations within 64 units in the
 * last place of the limb's size, rotations of unit length, `reached` against a tolerance reckoned
 * here, limbs that need care to the per-call answer's bits, refused limbs with their pose kept.
 * The vector kernels take every ordinary limb and decline every one that needs care
 * (reach_two_bone_solve_rig_batch_lanes). Every kernel this machine runs, batches of every small
 * size and batches sliced anyhow give the same answers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/testing.h"
#include "test_support.h"
#include "test_two_bone_rig_pose.h"

static const char *const isa_names[] = {"avx512", "avx2", "sse2", "neon", "wasm-simd", "scalar"};
#define ISA_COUNT ((int)(sizeof isa_names / sizeof isa_names[0]))

typedef enum care {
    ORDINARY,
    NAN_TARGET,
    INFINITE_PARENT,
    ZERO_BONE,
    SINGULAR_PARENT,
    END_ORIENTATION,
    POLE_ON_LINE,
    TINY_ROTATION,
    HUGE_ROTATION,
    HALF_TURN,
    MID_HALF_TURN,
    FOLDED_NO_POLE,
    NEAR_SINGULAR_PARENT,
    TINY_BONE,
    TARGET_ON_ROOT,
    POLE_ON_ROOT,
    REPEATED_COLUMNS,
    FAR_ROOT,
    CARE_KINDS
} care;

/* Which limbs need care: one in seven, of every kind in turn. */
static care care_of(int n) { return n % 7 == 3 ? (care)(1 + (n / 7) % (CARE_KINDS - 1)) : ORDINARY; }

static reach_affine random_parent(test_rng *rng, int kind) {
    reach_affine a;
    a.linear = reach_mat3_from_quat(test_unit_quat(rng));
    a.translation = test_in_ball(rng, 10);
    reach_real s[3] = {1, 1, 1};
    if (kind == 1) s[0] = s[1] = s[2] = test_uniform(rng, REACH_R(0.2), 5);
    if (kind >= 2)
        for (int i = 0; i < 3; ++i)
            s[i] = test_uniform(rng, REACH_R(0.3), 3);
    if (kind == 3) s[test_rng_next(rng) % 3] *= -1;
    for (int i = 0; i < 3; ++i)
        a.linear.col[i] = reach_vec3_scale(a.linear.col[i], s[i]);
    return a;
}

static reach_vec3 world_at(const reach_two_bone_rig_input *in, reach_vec3 direction, reach_real distance) {
    return reach_affine_point(in->parent_world, reach_vec3_mad(in->root_local.translation, direction, distance));
}

/* Whether u (unit or shorter) is clear of the line of unit direction: its part off the line a fifth
 * of a unit or more (the vector path asks a tenth; a margin keeps ordinary limbs off its edge). */
static int clear_of_line(reach_vec3 u, reach_vec3 direction) {
    return reach_vec3_length_sq(reach_vec3_cross(u, direction)) >= REACH_R(0.04);
}

/* The knee's side of a limb with no pole, in the parent's space: the upper bone's part off the
 * line from the root to the end. */
static reach_vec3 knee_side(const reach_two_bone_rig_input *in) {
    const reach_quat root = reach_quat_normalize_safe(in->root_local.rotation);
    const reach_vec3 upper = reach_quat_rotate(root, in->mid_local.translation);
    const reach_vec3 lower = reach_quat_rotate(reach_quat_mul(root, reach_quat_normalize_safe(in->mid_local.rotation)),
                                               in->end_local.translation);
    const reach_vec3 aim = reach_vec3_add(upper, lower);
    return reach_vec3_mad(upper, aim, -reach_vec3_dot(upper, aim) / reach_vec3_length_sq(aim));
}

/* Whether the root-to-end line is a fifth of the chain or longer (the vector path asks a tenth). */
static int bent_clear_of_folded(const reach_two_bone_rig_input *in) {
    const reach_vec3 upper = in->mid_local.translation;
    const reach_vec3 lower =
        reach_quat_rotate(reach_quat_normalize_safe(in->mid_local.rotation), in->end_local.translation);
    const reach_real chain = reach_vec3_length(upper) + reach_vec3_length(lower);
    return reach_vec3_length_sq(reach_vec3_add(upper, lower)) >= REACH_R(0.04) * chain * chain;
}

/* Whether the per-call answer turns the root or the mid joint nearly half way round (the turn's
 * |w| below 2^-4, where the vector path declines below about 2^-6): such limbs need care. */
static int turns_nearly_half_way(const reach_two_bone_rig_input *in) {
    reach_two_bone_rig_output out;
    if (reach_two_bone_solve_rig(in, NULL, &out) != REACH_OK) return 0;
    const reach_quat root_turn =
        reach_quat_mul(reach_quat_conjugate(reach_quat_normalize_safe(in->root_local.rotation)), out.root_rotation);
    const reach_quat mid_turn =
        reach_quat_mul(out.mid_rotation, reach_quat_conjugate(reach_quat_normalize_safe(in->mid_local.rotation)));
    return reach_fabs(root_turn.w) < REACH_R(0x1p-4) || reach_fabs(mid_turn.w) < REACH_R(0x1p-4);
}

/* The limbs the half-turn checks guard: a straight limb along x, its target behind the root, so
 * that the upper bone turns exactly half way round (the short path's arc would be 0/0), or with
 * `mid` the lower bone; with `nearly` the target 2^-8 off the line, so that the turn falls short
 * of half way by about 2^-10 radians, well inside the checks' 2^-5. */
static reach_two_bone_rig_input half_turn_limb(int mid, int nearly) {
    reach_two_bone_rig_input in;
    memset(&in, 0, sizeof in);
    in.parent_world = reach_affine_identity();
    in.root_local = reach_transform_identity();
    in.mid_local = reach_transform_make(reach_quat_identity(), reach_vec3_make(1, 0, 0));
    in.end_local = reach_transform_make(reach_quat_identity(), reach_vec3_make(1, 0, 0));
    in.use_pole = 1;
    in.pole = reach_vec3_make(0, 1, 0);
    in.target = reach_vec3_make(-3, nearly ? REACH_R(0x1p-8) : 0, 0);
    if (mid) {
        /* The lower bone shorter, the target at the difference of the lengths ahead: the limb
         * folds, the root keeps its rotation and the mid joint turns half way round. */
        in.end_local.translation = reach_vec3_make(REACH_R(0.75), 0, 0);
        in.target = reach_vec3_make(REACH_R(0.25), nearly ? REACH_R(0x1p-8) : 0, 0);
    }
    return in;
}

/* Limb n: parents rigid, uniform, stretched, mirrored in turn; targets within, beyond, inside
 * the fold in turn; a pole on four limbs in five; and one limb in seven needing care. An ordinary
 * limb's bend side (pole or knee) is kept clear of the target line, so that the vector path
 * takes every one of them. */
static reach_two_bone_rig_input random_limb(test_rng *rng, int n) {
    const care kind = care_of(n);
    reach_two_bone_rig_input in;
    memset(&in, 0, sizeof in);
    in.parent_world = random_parent(rng, n % 4);
    /* A parent whose determinant (2^-45) the vector path declines, and the per-call solve
     * inverts on its robust route. */
    if (kind == NEAR_SINGULAR_PARENT)
        for (int i = 0; i < 3; ++i)
            in.parent_world.linear.col[i] =
                reach_vec3_scale(reach_mat3_from_quat(test_unit_quat(rng)).col[i], REACH_R(0x1p-15));
    reach_real upper = test_uniform(rng, REACH_R(0.3), 2), lower = test_uniform(rng, REACH_R(0.3), 2);
    /* Just below 2^-40 squared for the upper bone, inside for the lower: near the origin, so that
     * the limb spans its coordinates' units in the last place. */
    const reach_real tiny = kind == TINY_BONE ? REACH_R(0x1p-20) : 1;
    if (kind == TINY_BONE) {
        upper = REACH_R(0.99) * tiny;
        lower = REACH_R(1.5) * tiny;
        in.parent_world.translation = reach_vec3_zero();
    }
    /* With no pole, a lower bone long enough that the knee can stand clear of the target line. */
    if (n % 5 == 0 && kind == ORDINARY) lower = reach_max(lower, REACH_R(0.5) * upper);
    reach_quat root = test_unit_quat(rng);
    if (n % 3 == 1) root = reach_quat_make(root.x * REACH_R(1.001), root.y * REACH_R(1.001), root.z, root.w);
    in.root_local = reach_transform_make(root, reach_vec3_scale(test_in_ball(rng, 1), tiny));
    /* A limb small next to its root's coordinates: their units in the last place a sixteenth of
     * the chain, where the resolution test (65 of them) sends it to the per-call solve's careful
     * route. */
    if (kind == FAR_ROOT)
        in.root_local.translation = reach_vec3_scale(test_unit_vec3(rng), (upper + lower) / (16 * REACH_REAL_EPSILON));
    in.mid_local = reach_transform_make(test_unit_quat(rng), reach_vec3_scale(test_unit_vec3(rng), upper));
    in.end_local = reach_transform_make(test_unit_quat(rng), reach_vec3_scale(test_unit_vec3(rng), lower));
    if (kind == FOLDED_NO_POLE) {
        /* The lower bone nearly back along the upper one: the end within a fifth of the upper bone
         * of the root, where the knee's side no longer says which way the limb bends. */
        const reach_vec3 u = in.mid_local.translation;
        in.mid_local.rotation = reach_quat_identity();
        in.end_local.translation = reach_vec3_add(
            reach_vec3_scale(u, REACH_R(-0.95)),
            reach_vec3_scale(reach_vec3_any_perpendicular(reach_vec3_scale(u, 1 / upper)), REACH_R(0.15) * upper));
    }
    const reach_real longest = upper + lower, shortest = reach_fabs(upper - lower);
    const int target = (n / 4) % 3;
    const reach_real distance = target == 0
                                    ? test_uniform(rng, shortest + REACH_R(0.01) * tiny, longest - REACH_R(0.01) * tiny)
                                : target == 1 ? longest * test_uniform(rng, REACH_R(1.01), 3)
                                              : shortest * test_uniform(rng, REACH_R(0.05), REACH_R(0.99));
    in.use_pole = n % 5 != 0 && kind != FOLDED_NO_POLE;
    /* With no pole the knee's side is the bend's: a limb clear of folded and of straight, and
     * (below) a target line clear of the knee. */
    if (!in.use_pole && kind == ORDINARY)
        for (int tries = 0; tries < 100 && (!bent_clear_of_folded(&in) ||
                                            reach_vec3_length_sq(knee_side(&in)) < REACH_R(0.09) * upper * upper);
             ++tries)
            in.end_local.translation = reach_vec3_scale(test_unit_vec3(rng), lower);
    reach_vec3 direction = test_unit_vec3(rng);
    if (!in.use_pole && kind == ORDINARY)
        for (int tries = 0; tries < 100 && !clear_of_line(reach_vec3_scale(knee_side(&in), 1 / upper), direction);
             ++tries)
            direction = test_unit_vec3(rng);
    in.target = world_at(&in, direction, distance);
    reach_vec3 pole_direction = test_unit_vec3(rng);
    if (kind == ORDINARY)
        for (int tries = 0; tries < 100 && !clear_of_line(pole_direction, direction); ++tries)
            pole_direction = test_unit_vec3(rng);
    in.pole = world_at(&in, pole_direction, test_uniform(rng, REACH_R(0.5), 5) * tiny);
    switch (kind) {
    case NAN_TARGET: in.target.y = (reach_real)NAN; break;
    case INFINITE_PARENT: in.parent_world.translation.x = (reach_real)INFINITY; break;
    case ZERO_BONE: in.end_local.translation = reach_vec3_zero(); break;
    case SINGULAR_PARENT: in.parent_world.linear.col[1] = reach_vec3_zero(); break;
    /* Singular with no zero in it: its determinant is 0 only where no product is fused with a
     * sum (a fused one leaves a few roundings, far above the vector path's 2^-40). */
    case REPEATED_COLUMNS: in.parent_world.linear.col[2] = in.parent_world.linear.col[1]; break;
    case END_ORIENTATION:
        in.use_end_orientation = 1;
        in.end_orientation = test_unit_quat(rng);
        break;
    case POLE_ON_LINE:
        in.use_pole = 1;
        in.pole = world_at(&in, direction, 2 * distance);
        break;
    case TINY_ROTATION: in.mid_local.rotation = reach_quat_make(0, 0, REACH_R(1e-30), REACH_R(1e-30)); break;
    case HUGE_ROTATION: in.root_local.rotation = reach_quat_make(0, REACH_R(3e30), 0, REACH_R(1e30)); break;
    case HALF_TURN: in = half_turn_limb(0, (n / 7 / (CARE_KINDS - 1)) % 2); break;
    case MID_HALF_TURN: in = half_turn_limb(1, (n / 7 / (CARE_KINDS - 1)) % 2); break;
    /* The root at the world's origin, so that the target or the pole lies exactly on it, or every
     * other time 2^-23 off it (under 2^-20 in the parent's units, below the vector path's range). */
    case TARGET_ON_ROOT:
    case POLE_ON_ROOT: {
        in.root_local.translation = in.parent_world.translation = reach_vec3_zero();
        const reach_vec3 at = reach_vec3_scale(direction, (n / 7 / (CARE_KINDS - 1)) % 2 ? REACH_R(0x1p-23) : 0);
        if (kind == TARGET_ON_ROOT) {
            in.target = at;
        } else {
            in.use_pole = 1;
            in.pole = at;
        }
        break;
    }
    default: break;
    }
    /* An ordinary limb is one the vector path takes: one that happens to turn a joint nearly half
     * way round (a few in ten thousand) is drawn again. */
    if (kind == ORDINARY && turns_nearly_half_way(&in)) return random_limb(rng, n);
    return in;
}

static reach_two_bone_rig_input *random_limbs(int count, uint64_t seed) {
    reach_two_bone_rig_input *in = calloc((size_t)count, sizeof *in);
    assert_non_null(in);
    test_rng rng = test_rng_make(seed);
    for (int n = 0; n < count; ++n)
        in[n] = random_limb(&rng, n);
    return in;
}

static rig_pose placed_by(const reach_two_bone_rig_input *in, const reach_two_bone_rig_output *out) {
    return rig_forward(in, reach_quat_normalize_safe(out->root_rotation), reach_quat_normalize_safe(out->mid_rotation),
                       reach_quat_normalize_safe(out->end_rotation), out->mid_translation, out->end_translation);
}

/* Two outputs the same to the bit, field by field (the struct's padding is no one's). */
static int same_output(const reach_two_bone_rig_output *a, const reach_two_bone_rig_output *b) {
    return test_bytes_equal(&a->root_rotation, &b->root_rotation, sizeof(reach_quat)) &&
           test_bytes_equal(&a->mid_rotation, &b->mid_rotation, sizeof(reach_quat)) &&
           test_bytes_equal(&a->end_rotation, &b->end_rotation, sizeof(reach_quat)) &&
           test_bytes_equal(&a->mid_translation, &b->mid_translation, sizeof(reach_vec3)) &&
           test_bytes_equal(&a->end_translation, &b->end_translation, sizeof(reach_vec3)) &&
           test_bytes_equal(&a->mid, &b->mid, sizeof(reach_vec3)) &&
           test_bytes_equal(&a->end, &b->end, sizeof(reach_vec3)) &&
           test_bytes_equal(&a->residual, &b->residual, sizeof(reach_real)) && a->reached == b->reached;
}

/* Outputs [0, count) the same to the bit. */
static int same_outputs(const reach_two_bone_rig_output *a, const reach_two_bone_rig_output *b, int count) {
    for (int i = 0; i < count; ++i)
        if (!same_output(&a[i], &b[i])) return 0;
    return 1;
}

/* The input pose placed in the world. */
static rig_pose input_pose(const reach_two_bone_rig_input *in) {
    return rig_forward(
        in, reach_quat_normalize_safe(in->root_local.rotation), reach_quat_normalize_safe(in->mid_local.rotation),
        reach_quat_normalize_safe(in->end_local.rotation), in->mid_local.translation, in->end_local.translation);
}

/* Within tol, or the same where the expected value is not a number or infinite (a refused
 * limb's pose under a parent with infinity in it). */
static void expect_near_or_same(reach_real actual, reach_real expected, reach_real tol, const char *what) {
    if (!reach_is_finite(expected)) {
        if (!(actual == expected || (actual != actual && expected != expected)))
            fail_msg("%s: %g, expected %g", what, (double)actual, (double)expected);
        return;
    }
    ASSERT_NEAR(actual, expected, tol, what);
}

static void expect_vec3_near_or_same(reach_vec3 actual, reach_vec3 expected, reach_real tol, const char *what) {
    expect_near_or_same(actual.x, expected.x, tol, what);
    expect_near_or_same(actual.y, expected.y, tol, what);
    expect_near_or_same(actual.z, expected.z, tol, what);
}

/* A refused limb keeps its pose: the input's rotations and translations byte for byte, its
 * joints where the input pose puts them, a residual that is a number, not reached. */
static void expect_pose_kept(const reach_two_bone_rig_input *in, const reach_two_bone_rig_output *out) {
    assert_true(test_bytes_equal(&out->root_rotation, &in->root_local.rotation, sizeof(reach_quat)));
    assert_true(test_bytes_equal(&out->mid_rotation, &in->mid_local.rotation, sizeof(reach_quat)));
    assert_true(test_bytes_equal(&out->end_rotation, &in->end_local.rotation, sizeof(reach_quat)));
    assert_true(test_bytes_equal(&out->mid_translation, &in->mid_local.translation, sizeof(reach_vec3)));
    assert_true(test_bytes_equal(&out->end_translation, &in->end_local.translation, sizeof(reach_vec3)));
    const rig_pose kept = input_pose(in);
    const reach_real size = reach_is_finite(reach_vec3_length(kept.end))
                                ? reach_vec3_length(kept.end) + reach_vec3_length(kept.root) + 1
                                : 1;
    expect_vec3_near_or_same(out->mid, kept.mid, 64 * REACH_REAL_EPSILON * size, "kept mid");
    expect_vec3_near_or_same(out->end, kept.end, 64 * REACH_REAL_EPSILON * size, "kept end");
    assert_true(reach_is_finite(out->residual) && out->residual >= 0);
    assert_int_equal(out->reached, 0);
}

/* A rotation of unit length: |q|² within 8 units in the last place of 1. */
static void expect_unit(reach_quat q, const char *what) {
    const reach_real sq = reach_quat_dot(q, q);
    if (!(reach_fabs(sq - 1) <= 8 * REACH_REAL_EPSILON)) fail_msg("%s: |q|^2 = %.17g", what, (double)sq);
}

/* Lane i of a batch against reach_two_bone_solve_rig on that limb alone. */
static void expect_the_call(const reach_two_bone_rig_input *in, int n, const reach_two_bone_settings *options,
                            const reach_two_bone_rig_output *out, unsigned char status, const char *isa) {
    reach_two_bone_rig_output alone;
    const reach_status st = reach_two_bone_solve_rig(in, options, &alone);
    if (status != st) fail_msg("%s, limb %d: status %d, alone %d", isa, n, status, st);
    if (st != REACH_OK) {
        expect_pose_kept(in, out);
        return;
    }
    char what[64];
    snprintf(what, sizeof what, "%s, limb %d", isa, n);
    expect_unit(out->root_rotation, what);
    expect_unit(out->mid_rotation, what);
    expect_unit(out->end_rotation, what);
    /* reached against 1e-4 of the chain as the input pose puts it in the world, or the options'
     * tolerance, reckoned here. */
    const rig_pose before = input_pose(in);
    const reach_real tolerance = options && options->tolerance > 0
                                     ? options->tolerance
                                     : REACH_R(1e-4) * (reach_vec3_distance(before.root, before.mid) +
                                                        reach_vec3_distance(before.mid, before.end));
    if (out->reached != (out->residual <= tolerance))
        fail_msg("%s: reached %d, residual %g, tolerance %g", what, out->reached, (double)out->residual,
                 (double)tolerance);
    assert_int_equal(out->reached, alone.reached);
    /* Limbs that need care go to the per-call solve: its bits. */
    if (care_of(n) != ORDINARY) {
        assert_true(same_output(out, &alone));
        return;
    }
    const rig_pose a = placed_by(in, out), b = placed_by(in, &alone);
    const reach_real size = reach_vec3_distance(a.root, b.end) + reach_vec3_length(a.root) + 1;
    /* The two paths round differently in a few dozen operations: up to about 13 units in the last
     * place of the limb's size apart where measured (the end placed by the rotations' forward
     * kinematics; 3 for the solvers' own positions), so 64 leaves a margin of about five. */
    const reach_real tol = 64 * REACH_REAL_EPSILON * size;
    /* A target close to the root has a direction only to the rounding of its coordinates
     * relative to its distance, and the mid joint turns with it (as in the rig tests). */
    const reach_real mid_tol = tol * (1 + size / reach_vec3_distance(a.root, in->target));
    ASSERT_VEC3_NEAR(a.mid, b.mid, mid_tol, what);
    ASSERT_VEC3_NEAR(a.end, b.end, tol, what);
    ASSERT_QUAT_NEAR(a.end_frame, b.end_frame, 64 * REACH_REAL_EPSILON, what);
    ASSERT_VEC3_NEAR(out->mid, alone.mid, mid_tol, what);
    ASSERT_VEC3_NEAR(out->end, alone.end, tol, what);
    ASSERT_NEAR(out->residual, alone.residual, tol, what);
    assert_true(test_bytes_equal(&out->mid_translation, &alone.mid_translation, sizeof(reach_vec3)));
    assert_true(test_bytes_equal(&out->end_translation, &alone.end_translation, sizeof(reach_vec3)));
}

/* Which limbs the vector path took: every ordinary one on a vector kernel, none that needs care,
 * none on the scalar kernel. */
static void expect_vector_lanes(const unsigned char *vector, int count, const char *isa) {
    const int vector_kernel = strcmp(isa, "scalar") != 0;
    for (int i = 0; i < count; ++i) {
        const int expected = vector_kernel && care_of(i) == ORDINARY;
        if (vector[i] != expected)
            fail_msg("%s, limb %d (care %d): vector path %d, expected %d", isa, i, (int)care_of(i), vector[i],
                     expected);
    }
}

static reach_status solve_on(const char *isa, const reach_two_bone_rig_input *in, int count,
                             const reach_two_bone_settings *options, reach_two_bone_rig_output *out,
                             unsigned char *status) {
    return reach_two_bone_solve_rig_batch_isa(in, count, options, out, status, isa);
}

/* Whether this build and machine have the kernel: an empty batch is refused only where not. */
static int kernel_runs(const char *isa) { return solve_on(isa, NULL, 0, NULL, NULL, NULL) == REACH_OK; }

/* The first error of limbs [0, count), as the batch must return it. */
static reach_status first_error_of(const unsigned char *status, int count) {
    for (int i = 0; i < count; ++i)
        if (status[i] != REACH_OK) return (reach_status)status[i];
    return REACH_OK;
}

static void every_kernel_gives_each_limb_the_per_call_answer(void **state) {
    (void)state;
    const int count = 2 * TEST_CASES + 5;
    reach_two_bone_rig_input *in = random_limbs(count, 3131);
    reach_two_bone_rig_output *out = calloc((size_t)count, sizeof *out);
    unsigned char *status = calloc((size_t)count, 1), *vector = calloc((size_t)count, 1);
    int kernels = 0;
    for (int k = 0; k < ISA_COUNT; ++k)
        for (int with_tolerance = 0; with_tolerance < 2; ++with_tolerance) {
            reach_two_bone_settings options = reach_two_bone_default_settings();
            if (with_tolerance) options.tolerance = REACH_R(1e-3);
            const reach_two_bone_settings *opt = with_tolerance ? &options : NULL;
            if (!kernel_runs(isa_names[k])) continue;
            const reach_status st =
                reach_two_bone_solve_rig_batch_lanes(in, count, opt, out, status, isa_names[k], vector);
            kernels += !with_tolerance;
            expect_vector_lanes(vector, count, isa_names[k]);
            assert_int_equal(st, first_error_of(status, count));
            assert_int_not_equal(st, REACH_OK); /* the batch has limbs with errors */
            for (int i = 0; i < count; ++i)
                expect_the_call(&in[i], i, opt, &out[i], status[i], isa_names[k]);
        }
    /* The scalar kernel and the one the machine picks, where that is another. */
    assert_true(kernels >= (strcmp(reach_batch_isa(), "scalar") == 0 ? 1 : 2));
    free(in);
    free(out);
    free(status);
    free(vector);
}

/* The kernel the entry point picks, batches of every small size around the vector widths, and
 * batches cut in slices of every length: each limb's bits are the same wherever it sits. */
static void slices_and_sizes_give_the_same_bits(void **state) {
    (void)state;
    const int count = 701;
    reach_two_bone_rig_input *in = random_limbs(count, 3132);
    reach_two_bone_rig_output *whole = calloc((size_t)count, sizeof *whole),
                              *part = calloc((size_t)count, sizeof *part);
    unsigned char *status = calloc((size_t)count, 1), *part_status = calloc((size_t)count, 1);
    for (int k = 0; k < ISA_COUNT; ++k) {
        if (!kernel_runs(isa_names[k])) continue;
        const reach_status whole_st = solve_on(isa_names[k], in, count, NULL, whole, status);
        assert_int_equal(whole_st, first_error_of(status, count));
        /* Sizes 0 to 34 (every width's ± 1) from every start. */
        for (int size = 0; size <= 34; ++size)
            for (int first = 0; first + size <= count; first += 97) {
                memset(part, 0, (size_t)size * sizeof *part);
                const reach_status st = solve_on(isa_names[k], in + first, size, NULL, part, part_status);
                assert_int_equal(st, first_error_of(part_status, size));
                assert_true(same_outputs(part, whole + first, size));
                assert_true(size == 0 || test_bytes_equal(part_status, status + first, (size_t)size));
            }
        /* Slices of 1 to 40 limbs in turn. */
        test_rng rng = test_rng_make(3133);
        memset(part, 0, (size_t)count * sizeof *part);
        for (int first = 0; first < count;) {
            int size = 1 + (int)(test_rng_next(&rng) % 40);
            if (size > count - first) size = count - first;
            solve_on(isa_names[k], in + first, size, NULL, part + first, part_status + first);
            first += size;
        }
        assert_true(same_outputs(part, whole, count));
        assert_true(test_bytes_equal(part_status, status, (size_t)count));
    }
    /* The entry point is one of these kernels. */
    const reach_status st = reach_two_bone_solve_rig_batch(in, count, NULL, part, part_status);
    assert_int_equal(st, first_error_of(status, count));
    for (int i = 0; i < count; ++i)
        expect_the_call(&in[i], i, NULL, &part[i], part_status[i], reach_batch_isa());
    free(in);
    free(whole);
    free(part);
    free(status);
    free(part_status);
}

/* Options the vector path does not take (soft IK, stretch) go limb by limb to the per-call solve:
 * its bits, its errors. */
static void other_options_are_the_per_call_solve(void **state) {
    (void)state;
    const int count = 203;
    reach_two_bone_rig_input *in = random_limbs(count, 3134);
    reach_two_bone_rig_output *out = calloc((size_t)count, sizeof *out);
    unsigned char *status = calloc((size_t)count, 1);
    reach_two_bone_settings options[2] = {reach_two_bone_default_settings(), reach_two_bone_default_settings()};
    options[0].soft_distance = REACH_R(0.1);
    options[1].max_stretch = REACH_R(1.2);
    for (int o = 0; o < 2; ++o) {
        reach_two_bone_rig_output alone;
        const reach_status st = reach_two_bone_solve_rig_batch(in, count, &options[o], out, status);
        assert_int_equal(st, first_error_of(status, count));
        for (int i = 0; i < count; ++i) {
            const reach_status limb_st = reach_two_bone_solve_rig(&in[i], &options[o], &alone);
            assert_int_equal(status[i], limb_st);
            if (limb_st == REACH_OK)
                assert_true(same_output(&out[i], &alone));
            else
                expect_pose_kept(&in[i], &out[i]);
        }
    }
    free(in);
    free(out);
    free(status);
}

/* Options reach_two_bone_solve_rig rejects are refused once, as reach_two_bone_solve_batch
 * refuses them: the error every limb would give, nothing written. */
static void bad_options_write_nothing(void **state) {
    (void)state;
    const int count = 23;
    reach_two_bone_rig_input *in = random_limbs(count, 3137);
    reach_two_bone_rig_output *out = malloc((size_t)count * sizeof *out),
                              *untouched = malloc((size_t)count * sizeof *out);
    unsigned char status[23], vector[23];
    assert_non_null(out);
    assert_non_null(untouched);
    reach_two_bone_settings bad[4] = {reach_two_bone_default_settings(), reach_two_bone_default_settings(),
                                      reach_two_bone_default_settings(), reach_two_bone_default_settings()};
    bad[0].weight = -1;
    bad[1].tolerance = (reach_real)NAN;
    bad[2].tolerance = -1;
    bad[3].max_stretch = REACH_R(0.5);
    const reach_status expected[4] = {REACH_ERROR_INVALID_ARGUMENT, REACH_ERROR_NOT_FINITE,
                                      REACH_ERROR_INVALID_ARGUMENT, REACH_ERROR_INVALID_ARGUMENT};
    for (int o = 0; o < 4; ++o)
        for (int k = 0; k < ISA_COUNT; ++k) {
            if (strcmp(isa_names[k], "scalar") != 0 &&
                reach_two_bone_solve_rig_batch_isa(NULL, 0, NULL, NULL, NULL, isa_names[k]) != REACH_OK)
                continue;
            memset(out, 0x5a, (size_t)count * sizeof *out);
            memcpy(untouched, out, (size_t)count * sizeof *out);
            memset(status, 9, sizeof status);
            memset(vector, 9, sizeof vector);
            assert_int_equal(
                reach_two_bone_solve_rig_batch_lanes(in, count, &bad[o], out, status, isa_names[k], vector),
                expected[o]);
            assert_true(test_bytes_equal(out, untouched, (size_t)count * sizeof *out));
            for (int i = 0; i < count; ++i) {
                assert_int_equal(status[i], 9);
                assert_int_equal(vector[i], 9);
            }
            /* The error each limb gives alone. */
            reach_two_bone_rig_output alone;
            assert_int_equal(reach_two_bone_solve_rig(&in[0], &bad[o], &alone), expected[o]);
        }
    assert_int_equal(reach_two_bone_solve_rig_batch(in, count, &bad[0], out, NULL), REACH_ERROR_INVALID_ARGUMENT);
    assert_true(test_bytes_equal(out, untouched, (size_t)count * sizeof *out));
    free(in);
    free(out);
    free(untouched);
}

static void bad_calls_write_nothing(void **state) {
    (void)state;
    reach_two_bone_rig_input *in = random_limbs(4, 3135); /* the fourth has a NaN target */
    reach_two_bone_rig_output out[4], untouched[4];
    memset(out, 0x5a, sizeof out);
    memcpy(untouched, out, sizeof out);
    unsigned char status[4] = {9, 9, 9, 9};
    assert_int_equal(reach_two_bone_solve_rig_batch(in, -1, NULL, out, status), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_two_bone_solve_rig_batch(NULL, 4, NULL, out, status), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_two_bone_solve_rig_batch(in, 4, NULL, NULL, status), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_two_bone_solve_rig_batch(NULL, 0, NULL, NULL, NULL), REACH_OK);
    assert_int_equal(reach_two_bone_solve_rig_batch_isa(in, 4, NULL, out, status, "mmx"), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_two_bone_solve_rig_batch_isa(in, 4, NULL, out, status, NULL), REACH_ERROR_INVALID_ARGUMENT);
    assert_true(test_bytes_equal(out, untouched, sizeof out));
    assert_int_equal(status[0], 9);
    /* No status array: the same answers. */
    assert_int_equal(reach_two_bone_solve_rig_batch(in, 4, NULL, out, NULL), REACH_ERROR_NOT_FINITE);
    for (int i = 0; i < 4; ++i)
        expect_the_call(&in[i], i, NULL, &out[i], i == 3 ? REACH_ERROR_NOT_FINITE : REACH_OK, "no status");
    free(in);
}

/* An engine fills only what a limb uses: with no pole the pole, with no end orientation its
 * quaternion (and, in double, the flags' padding) may be left as malloc gave them. The answers are the same, and
 * under Valgrind (make test-valgrind) no decision reads those bytes. */
static void unused_fields_may_be_left_unset(void **state) {
    (void)state;
    const int count = 37;
    reach_two_bone_rig_input *filled = random_limbs(count, 3136);
    reach_two_bone_rig_input *in = malloc((size_t)count * sizeof *in);
    reach_two_bone_rig_output *out = calloc((size_t)count, sizeof *out);
    unsigned char *status = calloc((size_t)count, 1);
    assert_non_null(in);
    for (int i = 0; i < count; ++i) {
        in[i].parent_world = filled[i].parent_world;
        in[i].root_local = filled[i].root_local;
        in[i].mid_local = filled[i].mid_local;
        in[i].end_local = filled[i].end_local;
        in[i].target = filled[i].target;
        in[i].use_pole = filled[i].use_pole;
        if (in[i].use_pole) in[i].pole = filled[i].pole;
        in[i].use_end_orientation = filled[i].use_end_orientation;
        if (in[i].use_end_orientation) in[i].end_orientation = filled[i].end_orientation;
    }
    for (int k = 0; k < ISA_COUNT; ++k) {
        if (!kernel_runs(isa_names[k])) continue;
        const reach_status st = solve_on(isa_names[k], in, count, NULL, out, status);
        assert_int_equal(st, first_error_of(status, count));
        for (int i = 0; i < count; ++i)
            expect_the_call(&in[i], i, NULL, &out[i], status[i], isa_names[k]);
    }
    free(filled);
    free(in);
    free(out);
    free(status);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_kernel_gives_each_limb_the_per_call_answer),
        cmocka_unit_test(slices_and_sizes_give_the_same_bits),
        cmocka_unit_test(other_options_are_the_per_call_solve),
        cmocka_unit_test(bad_options_write_nothing),
        cmocka_unit_test(bad_calls_write_nothing),
        cmocka_unit_test(unused_fields_may_be_left_unset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
