/* The Jacobian solvers on small rigs: the Jacobian against finite differences on random trees of
 * every joint type; validation that leaves the pose untouched; determinism; bounded steps and no
 * NaN at singular poses; joint limits; null-space relaxation; prismatic joints, trees of
 * effectors and closed loops. The robot arms have their own file (test_robots.c). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "test_support.h"
#include "robots/rigs.h"
#include "robots/robots.h"

#define FD_CASES    300
#define SOLVE_CASES 400

typedef struct scratch_space {
    max_align_t memory[8192];
} scratch_space;

static const reach_jacobian_method all_methods[4] = {REACH_JACOBIAN_TRANSPOSE, REACH_JACOBIAN_PSEUDOINVERSE,
                                                     REACH_JACOBIAN_DLS, REACH_JACOBIAN_SDLS};

static reach_status solve(const reach_skeleton *skeleton, const reach_target *targets, int count,
                          const reach_solver_settings *settings, reach_transform *pose, reach_solve_result *result) {
    scratch_space scratch;
    size_t need = reach_jacobian_scratch_size(skeleton, count);
    assert_true(need > 0 && need <= sizeof scratch);
    return reach_jacobian_solve(skeleton, targets, count, settings, pose, &scratch, need, result);
}

static reach_solver_settings method_settings(reach_jacobian_method method) {
    reach_solver_settings s = reach_solver_default_settings();
    s.jacobian_method = method;
    return s;
}

static int pose_is_finite(const reach_transform *pose, int count) {
    for (int i = 0; i < count; ++i)
        if (!reach_quat_is_finite(pose[i].rotation) || !reach_vec3_is_finite(pose[i].translation)) return 0;
    return 1;
}

/* ---- the Jacobian against finite differences ------------------------------------------------ */

#ifdef REACH_DOUBLE
#define FD_STEP 1e-6
#define FD_TOL  1e-6
#else
#define FD_STEP 3e-3f
#define FD_TOL  4e-3
#endif

/* Moves one degree of freedom of a pose by h, the way the Jacobian's column describes it. */
static void move_column(const test_rig *r, const reach_transform *world, reach_transform *pose, int bone, int axis,
                        reach_real h) {
    reach_joint j = r->joints[bone];
    if (j.type == REACH_JOINT_HINGE) {
        pose[bone].rotation = reach_quat_mul(pose[bone].rotation, reach_quat_from_axis_angle(j.axis, h));
    } else if (j.type == REACH_JOINT_PRISMATIC) {
        pose[bone].translation =
            reach_vec3_mad(pose[bone].translation, reach_quat_rotate(r->rest[bone].rotation, j.axis), h);
    } else {
        /* A turn about world axis `axis`: local' = rotation(R_parentᵀ e, h) · local. */
        int parent = r->parents[bone];
        reach_quat parent_rotation = parent < 0 ? reach_quat_identity() : world[parent].rotation;
        reach_vec3 e = reach_vec3_make(axis == 0, axis == 1, axis == 2);
        reach_vec3 local_axis = reach_quat_rotate(reach_quat_conjugate(parent_rotation), e);
        pose[bone].rotation = reach_quat_mul(reach_quat_from_axis_angle(local_axis, h), pose[bone].rotation);
    }
}

/* The rows of one target at a pose: position (effector minus meet bone) and the world rotation. */
static void target_state(const test_rig *r, const reach_target *t, const reach_transform *pose, reach_vec3 *position,
                         reach_quat *rotation) {
    reach_transform world[RIG_MAX_BONES];
    rig_world(r, pose, world);
    *position = world[t->bone].translation;
    *rotation = world[t->bone].rotation;
    if (t->kind == REACH_TARGET_MEET) {
        *position = reach_vec3_sub(*position, world[t->meet_bone].translation);
        *rotation = reach_quat_mul(reach_quat_conjugate(world[t->meet_bone].rotation), *rotation);
    }
}

static reach_vec3 rotation_vector(reach_quat q) {
    if (q.w < 0) q = reach_quat_neg(q);
    reach_vec3 v = reach_vec3_make(q.x, q.y, q.z);
    reach_real s = reach_vec3_length(v);
    return s > 0 ? reach_vec3_scale(v, 2 * reach_atan2(s, q.w) / s) : reach_vec3_zero();
}

static void test_jacobian_matches_finite_differences(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xfd);
    scratch_space scratch;
    for (int k = 0; k < FD_CASES; ++k) {
        test_rig r;
        int bones = 3 + (int)(test_rng_next(&rng) % 10);
        rig_random_tree(&r, &rng, bones);
        reach_transform pose[RIG_MAX_BONES], world[RIG_MAX_BONES];
        rig_random_pose(&r, &rng, pose);
        rig_world(&r, pose, world);
        reach_target targets[3];
        int count = 1 + (int)(test_rng_next(&rng) % 3);
        for (int t = 0; t < count; ++t) {
            targets[t] =
                reach_target_position(1 + (int)(test_rng_next(&rng) % (uint64_t)(bones - 1)), test_in_ball(&rng, 1));
            targets[t].use_orientation = test_rng_next(&rng) % 2 == 0;
            targets[t].orientation = test_unit_quat(&rng);
            if (test_rng_next(&rng) % 4 == 0 && targets[t].bone > 1) {
                targets[t].kind = REACH_TARGET_MEET;
                targets[t].meet_bone = (int)(test_rng_next(&rng) % (uint64_t)targets[t].bone);
            }
        }
        size_t need = reach_jacobian_scratch_size(&r.skeleton, count);
        int rows = -1, columns = -1;
        assert_int_equal(reach_jacobian_dimensions(&r.skeleton, targets, count, 0, &rows, &columns, &scratch, need),
                         REACH_OK);
        reach_real matrix[18 * 3 * RIG_MAX_BONES];
        int column_bones[3 * RIG_MAX_BONES];
        assert_int_equal(
            reach_jacobian_matrix(&r.skeleton, targets, count, 0, pose, matrix, column_bones, &scratch, need),
            REACH_OK);
        int expected_rows = 0;
        for (int t = 0; t < count; ++t)
            expected_rows += targets[t].use_orientation ? 6 : 3;
        assert_int_equal(rows, expected_rows);

        for (int c = 0; c < columns; ++c) {
            int bone = column_bones[c];
            int axis = (c > 0 && column_bones[c - 1] == bone) ? (c >= 2 && column_bones[c - 2] == bone ? 2 : 1) : 0;
            reach_transform plus[RIG_MAX_BONES], minus[RIG_MAX_BONES];
            memcpy(plus, pose, sizeof(reach_transform) * (size_t)bones);
            memcpy(minus, pose, sizeof(reach_transform) * (size_t)bones);
            move_column(&r, world, plus, bone, axis, FD_STEP);
            move_column(&r, world, minus, bone, axis, -FD_STEP);
            int row = 0;
            for (int t = 0; t < count; ++t) {
                reach_vec3 p_plus, p_minus;
                reach_quat q_plus, q_minus;
                target_state(&r, &targets[t], plus, &p_plus, &q_plus);
                target_state(&r, &targets[t], minus, &p_minus, &q_minus);
                reach_vec3 linear = reach_vec3_scale(reach_vec3_sub(p_plus, p_minus), 1 / (2 * FD_STEP));
                reach_vec3 column = reach_vec3_make(matrix[row * columns + c], matrix[(row + 1) * columns + c],
                                                    matrix[(row + 2) * columns + c]);
                ASSERT_VEC3_NEAR(column, linear, FD_TOL * (1 + reach_vec3_length(linear)), "position column");
                row += 3;
                if (!targets[t].use_orientation) continue;
                reach_quat turn;
                if (targets[t].kind == REACH_TARGET_MEET) {
                    /* The meet rows are ω_effector − ω_meet, in world axes. */
                    reach_transform wp[RIG_MAX_BONES], wm[RIG_MAX_BONES];
                    rig_world(&r, plus, wp);
                    rig_world(&r, minus, wm);
                    reach_quat de = reach_quat_mul(wp[targets[t].bone].rotation,
                                                   reach_quat_conjugate(wm[targets[t].bone].rotation));
                    reach_quat dm = reach_quat_mul(wp[targets[t].meet_bone].rotation,
                                                   reach_quat_conjugate(wm[targets[t].meet_bone].rotation));
                    reach_vec3 angular = reach_vec3_sub(rotation_vector(de), rotation_vector(dm));
                    (void)turn;
                    column = reach_vec3_make(matrix[row * columns + c], matrix[(row + 1) * columns + c],
                                             matrix[(row + 2) * columns + c]);
                    ASSERT_VEC3_NEAR(column, reach_vec3_scale(angular, 1 / (2 * FD_STEP)), FD_TOL * 2, "meet angular");
                } else {
                    turn = reach_quat_mul(q_plus, reach_quat_conjugate(q_minus));
                    column = reach_vec3_make(matrix[row * columns + c], matrix[(row + 1) * columns + c],
                                             matrix[(row + 2) * columns + c]);
                    ASSERT_VEC3_NEAR(column, reach_vec3_scale(rotation_vector(turn), 1 / (2 * FD_STEP)), FD_TOL * 2,
                                     "angular column");
                }
                row += 3;
            }
        }
    }
}

static void test_columns_follow_joint_types(void **state) {
    (void)state;
    /* root ball (3) → hinge (1) → fixed (0) → prismatic (1) → cone (3) → end; a position target
     * on the end bone moves every joint above it. */
    test_rig r;
    reach_joint joints[6] = {reach_joint_ball(),
                             reach_joint_hinge(reach_vec3_make(0, 0, 1), -1, 1),
                             reach_joint_fixed(),
                             reach_joint_prismatic(reach_vec3_make(1, 0, 0), 0, 1),
                             reach_joint_cone(reach_vec3_make(1, 0, 0), 1),
                             reach_joint_ball()};
    for (int i = 0; i < 6; ++i) {
        r.parents[i] = i - 1;
        r.rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(i ? 1 : 0, 0, 0));
        r.joints[i] = joints[i];
    }
    rig_finish(&r, 6);
    scratch_space scratch;
    reach_target target = reach_target_position(5, reach_vec3_make(3, 1, 0));
    int rows, columns;
    size_t need = reach_jacobian_scratch_size(&r.skeleton, 1);
    assert_int_equal(reach_jacobian_dimensions(&r.skeleton, &target, 1, -1, &rows, &columns, &scratch, need), REACH_OK);
    assert_int_equal(rows, 3);
    assert_int_equal(columns, 3 + 1 + 1 + 3);
    /* With an orientation the end bone's own ball joint counts too. */
    target.use_orientation = 1;
    assert_int_equal(reach_jacobian_dimensions(&r.skeleton, &target, 1, -1, &rows, &columns, &scratch, need), REACH_OK);
    assert_int_equal(rows, 6);
    assert_int_equal(columns, 3 + 1 + 1 + 3 + 3);
    /* From bone 3 down only the prismatic, the cone and the end bone move. */
    assert_int_equal(reach_jacobian_dimensions(&r.skeleton, &target, 1, 3, &rows, &columns, &scratch, need), REACH_OK);
    assert_int_equal(columns, 1 + 3 + 3);
    /* Rest pose: the prismatic column slides the end along x; the hinge column turns it about z. */
    reach_real matrix[6 * 11];
    int bones_of[11];
    assert_int_equal(reach_jacobian_matrix(&r.skeleton, &target, 1, -1, r.rest, matrix, bones_of, &scratch, need),
                     REACH_OK);
    assert_int_equal(bones_of[3], 1);
    assert_int_equal(bones_of[4], 3);
    ASSERT_NEAR(matrix[0 * 11 + 4], 1, 0, "prismatic dx");
    ASSERT_NEAR(matrix[1 * 11 + 3], 4, TEST_LENGTH_TOL, "hinge dy = lever 4");
    ASSERT_NEAR(matrix[5 * 11 + 3], 1, 0, "hinge turns about z");
    ASSERT_NEAR(matrix[5 * 11 + 4], 0, 0, "prismatic does not turn");
}

/* ---- validation --------------------------------------------------------------------------- */

static void expect_error(const reach_skeleton *skeleton, const reach_target *targets, int count,
                         const reach_solver_settings *settings, const reach_transform *pose, reach_status expected,
                         const char *what) {
    reach_transform copy[RIG_MAX_BONES];
    memcpy(copy, pose, sizeof(reach_transform) * (size_t)skeleton->bone_count);
    reach_solve_result result, before;
    memset(&result, 0x77, sizeof result);
    before = result;
    reach_status st = solve(skeleton, targets, count, settings, copy, &result);
    if (st != expected)
        fail_msg("%s: got %s, expected %s", what, reach_status_string(st), reach_status_string(expected));
    if (!test_bytes_equal(copy, pose, sizeof(reach_transform) * (size_t)skeleton->bone_count))
        fail_msg("%s: pose changed on error", what);
    if (!test_bytes_equal(&result, &before, sizeof result)) fail_msg("%s: result changed on error", what);
}

static void test_validation_leaves_everything_untouched(void **state) {
    (void)state;
    test_rig r;
    rig_planar_arm(&r, 4, 1, 2);
    reach_transform pose[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    pose[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(0.3));
    reach_target good = reach_target_position(4, reach_vec3_make(2, 2, 0));
    reach_solver_settings s = reach_solver_default_settings();
    const reach_real nan = (reach_real)NAN, inf = (reach_real)INFINITY;

    reach_target t = good;
    t.position.y = nan;
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_NOT_FINITE, "NaN target");
    t = good;
    t.position.x = inf;
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_NOT_FINITE, "infinite target");
    t = good;
    t.use_orientation = 1;
    t.orientation = reach_quat_make(0, 0, 0, 0);
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_BAD_QUATERNION, "zero orientation");
    t.orientation.w = nan;
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_NOT_FINITE, "NaN orientation");
    t = good;
    t.weight = 0;
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_INVALID_ARGUMENT, "zero weight");
    t.weight = nan;
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_NOT_FINITE, "NaN weight");
    t = good;
    t.bone = 9;
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_INVALID_ARGUMENT, "bone out of range");
    t = good;
    t.kind = REACH_TARGET_MEET;
    t.meet_bone = 4;
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_INVALID_ARGUMENT, "meeting itself");
    t.kind = (reach_target_kind)7;
    expect_error(&r.skeleton, &t, 1, &s, pose, REACH_ERROR_INVALID_ARGUMENT, "unknown kind");

    reach_transform bad[RIG_MAX_BONES];
    memcpy(bad, pose, sizeof(reach_transform) * (size_t)r.skeleton.bone_count);
    bad[2].translation.x = nan;
    expect_error(&r.skeleton, &good, 1, &s, bad, REACH_ERROR_NOT_FINITE, "NaN in pose");
    memcpy(bad, pose, sizeof(reach_transform) * (size_t)r.skeleton.bone_count);
    bad[2].rotation = reach_quat_make(0, 0, 0, 0);
    expect_error(&r.skeleton, &good, 1, &s, bad, REACH_ERROR_BAD_QUATERNION, "zero rotation in pose");

    reach_solver_settings bad_settings = s;
    bad_settings.max_iterations = -1;
    expect_error(&r.skeleton, &good, 1, &bad_settings, pose, REACH_ERROR_INVALID_ARGUMENT, "negative iterations");
    bad_settings = s;
    bad_settings.tolerance = nan;
    expect_error(&r.skeleton, &good, 1, &bad_settings, pose, REACH_ERROR_NOT_FINITE, "NaN tolerance");
    bad_settings = s;
    bad_settings.damping = -1;
    expect_error(&r.skeleton, &good, 1, &bad_settings, pose, REACH_ERROR_INVALID_ARGUMENT, "negative damping");
    bad_settings = s;
    bad_settings.jacobian_method = (reach_jacobian_method)42;
    expect_error(&r.skeleton, &good, 1, &bad_settings, pose, REACH_ERROR_INVALID_ARGUMENT, "unknown method");
    bad_settings = s;
    bad_settings.restarts = -2;
    expect_error(&r.skeleton, &good, 1, &bad_settings, pose, REACH_ERROR_INVALID_ARGUMENT, "negative restarts");
    bad_settings = s;
    bad_settings.root_bone = 3; /* bone 4's parent is 3: fine; bone 2 is not below 3 */
    reach_target above = reach_target_position(2, reach_vec3_make(1, 1, 0));
    expect_error(&r.skeleton, &above, 1, &bad_settings, pose, REACH_ERROR_BAD_CHAIN, "effector above the root");
    bad_settings.root_bone = 12;
    expect_error(&r.skeleton, &good, 1, &bad_settings, pose, REACH_ERROR_INVALID_ARGUMENT, "root out of range");

    /* Effectors in two separate hierarchies. */
    test_rig two;
    rig_planar_arm(&two, 2, 1, 2);
    two.parents[2] = -1;
    rig_finish(&two, 3);
    reach_target pair[2] = {reach_target_position(1, reach_vec3_make(1, 0, 0)),
                            reach_target_position(2, reach_vec3_make(0, 1, 0))};
    reach_transform two_pose[3];
    reach_pose_rest(&two.skeleton, two_pose);
    expect_error(&two.skeleton, pair, 2, &s, two_pose, REACH_ERROR_BAD_CHAIN, "separate hierarchies");

    /* A broken skeleton. */
    test_rig broken = r;
    broken.skeleton.joints = broken.joints;
    broken.skeleton.parents = broken.parents;
    broken.skeleton.rest = broken.rest;
    broken.joints[1].min = 3;
    expect_error(&broken.skeleton, &good, 1, &s, pose, REACH_ERROR_BAD_JOINT, "inverted limits");

    /* Too little scratch, and a scratch pointer that is not aligned. */
    scratch_space scratch;
    size_t need = reach_jacobian_scratch_size(&r.skeleton, 1);
    size_t pose_bytes = sizeof(reach_transform) * (size_t)r.skeleton.bone_count; /* the rig's bones only */
    reach_transform copy[RIG_MAX_BONES];
    memcpy(copy, pose, pose_bytes);
    assert_int_equal(reach_jacobian_solve(&r.skeleton, &good, 1, &s, copy, &scratch, need - 1, NULL),
                     REACH_ERROR_BUFFER_TOO_SMALL);
    assert_true(test_bytes_equal(copy, pose, pose_bytes));
    assert_int_equal(reach_jacobian_solve(&r.skeleton, &good, 1, &s, copy, (unsigned char *)&scratch + 1, need, NULL),
                     REACH_OK);
    assert_int_equal(reach_jacobian_scratch_size(NULL, 1), 0);
    assert_int_equal(reach_jacobian_scratch_size(&r.skeleton, -1), 0);
}

/* A random tree, a random pose to start from, and the world transforms of another random pose
 * to aim its bones at. */
static void random_tree_problem(test_rig *r, test_rng *rng, int bones, reach_transform *start,
                                reach_transform *goal_world) {
    reach_transform goal[RIG_MAX_BONES];
    rig_random_tree(r, rng, bones);
    rig_random_pose(r, rng, start);
    rig_random_pose(r, rng, goal);
    rig_world(r, goal, goal_world);
}

/* NULL settings are the defaults, as for FABRIK and CCD: the same bits as passing
 * reach_solver_default_settings(). */
static void test_null_settings_mean_defaults(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5e7);
    reach_solver_settings defaults = reach_solver_default_settings();
    for (int k = 0; k < 40; ++k) {
        test_rig r;
        reach_transform start[RIG_MAX_BONES], world[RIG_MAX_BONES];
        random_tree_problem(&r, &rng, 8, start, world);
        reach_target target = reach_target_position(7, world[7].translation);
        size_t pose_bytes = sizeof(reach_transform) * 8;
        reach_transform a[RIG_MAX_BONES], b[RIG_MAX_BONES];
        memcpy(a, start, pose_bytes);
        memcpy(b, start, pose_bytes);
        reach_solve_result ra, rb;
        assert_int_equal(solve(&r.skeleton, &target, 1, NULL, a, &ra), REACH_OK);
        assert_int_equal(solve(&r.skeleton, &target, 1, &defaults, b, &rb), REACH_OK);
        assert_true(test_bytes_equal(a, b, pose_bytes));
        assert_int_equal(ra.iterations, rb.iterations);
        assert_true(ra.residual == rb.residual && ra.reached == rb.reached);
        assert_true(ra.iterations > 0);
    }
}

typedef reach_status (*solver_fn)(const reach_skeleton *, const reach_target *, int, const reach_solver_settings *,
                                  reach_transform *, void *, size_t, reach_solve_result *);

/* No targets, in all three iterative solvers alike: nothing to reach, REACH_OK, reached with 0
 * iterations, the pose as it was (even one outside its limits: nothing moves), targets may be
 * NULL; the input is still checked (a NaN in the pose, a root_bone out of range, a negative
 * count are errors). */
static void test_no_targets_move_nothing_in_every_solver(void **state) {
    (void)state;
    const solver_fn solvers[] = {reach_jacobian_solve, reach_fabrik_solve, reach_ccd_solve};
    test_rng rng = test_rng_make(0x7a6);
    test_rig r;
    reach_transform start[RIG_MAX_BONES], world[RIG_MAX_BONES], pose[RIG_MAX_BONES];
    random_tree_problem(&r, &rng, 8, start, world);
    size_t pose_bytes = sizeof(reach_transform) * 8;
    scratch_space scratch;
    for (size_t k = 0; k < sizeof solvers / sizeof solvers[0]; ++k) {
        reach_solve_result result, untouched;
        memset(&result, 0x5a, sizeof result);
        memcpy(pose, start, pose_bytes);
        assert_int_equal(solvers[k](&r.skeleton, NULL, 0, NULL, pose, &scratch, sizeof scratch, &result), REACH_OK);
        assert_true(test_bytes_equal(pose, start, pose_bytes));
        assert_int_equal(result.iterations, 0);
        assert_true(result.reached);
        assert_true(result.residual == 0 && result.angle_residual == 0);
        assert_int_equal(solvers[k](&r.skeleton, NULL, 0, NULL, pose, &scratch, sizeof scratch, NULL), REACH_OK);

        memset(&result, 0x5a, sizeof result);
        untouched = result;
        pose[3].translation.y = (reach_real)NAN;
        assert_int_equal(solvers[k](&r.skeleton, NULL, 0, NULL, pose, &scratch, sizeof scratch, &result),
                         REACH_ERROR_NOT_FINITE);
        pose[3] = start[3];
        reach_solver_settings settings = reach_solver_default_settings();
        settings.root_bone = 8;
        assert_int_equal(solvers[k](&r.skeleton, NULL, 0, &settings, pose, &scratch, sizeof scratch, &result),
                         REACH_ERROR_INVALID_ARGUMENT);
        assert_int_equal(solvers[k](&r.skeleton, NULL, -1, NULL, pose, &scratch, sizeof scratch, &result),
                         REACH_ERROR_INVALID_ARGUMENT);
        assert_int_equal(solvers[k](&r.skeleton, NULL, 0, NULL, pose, NULL, 0, &result), REACH_ERROR_BUFFER_TOO_SMALL);
        assert_int_equal(solvers[k](&r.skeleton, NULL, 0, NULL, pose, &scratch, 1, &result),
                         REACH_ERROR_BUFFER_TOO_SMALL);
        reach_skeleton empty = r.skeleton;
        empty.bone_count = 0;
        assert_int_equal(solvers[k](&empty, NULL, 0, NULL, pose, &scratch, sizeof scratch, &result),
                         REACH_ERROR_INVALID_ARGUMENT);
        assert_true(test_bytes_equal(&result, &untouched, sizeof result));
        assert_true(test_bytes_equal(pose, start, pose_bytes));
    }
}

/* ---- determinism ---------------------------------------------------------------------------- */

static void test_same_inputs_same_bits(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xde7);
    for (int k = 0; k < 60; ++k) {
        test_rig r;
        reach_transform start[RIG_MAX_BONES], world[RIG_MAX_BONES];
        random_tree_problem(&r, &rng, 10, start, world);
        reach_target targets[2] = {reach_target_position(9, world[9].translation),
                                   reach_target_position(6, world[6].translation)};
        reach_solver_settings s = method_settings(all_methods[k % 4]);
        s.restarts = 3;
        s.seed = (uint64_t)k * 7919;
        reach_transform a[RIG_MAX_BONES], b[RIG_MAX_BONES];
        reach_solve_result ra, rb;
        memset(&ra, 0, sizeof ra);
        memset(&rb, 0, sizeof rb);
        /* Different garbage in the scratch memory must not matter either. */
        scratch_space scratch;
        size_t need = reach_jacobian_scratch_size(&r.skeleton, 2);
        memcpy(a, start, sizeof a);
        memset(&scratch, 0xab, sizeof scratch);
        assert_int_equal(reach_jacobian_solve(&r.skeleton, targets, 2, &s, a, &scratch, need, &ra), REACH_OK);
        memcpy(b, start, sizeof b);
        memset(&scratch, 0x00, sizeof scratch);
        assert_int_equal(reach_jacobian_solve(&r.skeleton, targets, 2, &s, b, &scratch, need, &rb), REACH_OK);
        assert_true(test_bytes_equal(a, b, sizeof(reach_transform) * 10));
        assert_true(test_bytes_equal(&ra, &rb, sizeof ra));
    }
}

/* ---- singular poses ------------------------------------------------------------------------- */

/* The largest joint change between two poses of a hinge arm, in radians. */
static reach_real largest_hinge_change(const reach_skeleton *skeleton, const reach_transform *a,
                                       const reach_transform *b) {
    reach_real va[RIG_MAX_BONES], vb[RIG_MAX_BONES];
    reach_pose_get_values(skeleton, a, va);
    reach_pose_get_values(skeleton, b, vb);
    reach_real largest = 0;
    for (int i = 0; i < reach_skeleton_value_count(skeleton); ++i)
        largest = reach_max(largest, reach_fabs((reach_real)remainder((double)(va[i] - vb[i]), 2 * ROBOT_PI)));
    return largest;
}

static void test_straight_arm_singularities(void **state) {
    (void)state;
    test_rig r;
    rig_planar_arm(&r, 5, 1, 3);
    const reach_vec3 goals[4] = {
        reach_vec3_make(9, 0, 0),             /* straight ahead, out of reach: already optimal */
        reach_vec3_make(REACH_R(2.5), 0, 0),  /* on the line, inside: J has no row along x */
        reach_vec3_make(0, 0, 0),             /* at the root */
        reach_vec3_make(5, REACH_R(1e-7), 0), /* a hair off the straight line at full reach */
    };
    for (int g = 0; g < 4; ++g) {
        for (int m = 0; m < 4; ++m) {
            reach_target target = reach_target_position(5, goals[g]);
            reach_solver_settings s = method_settings(all_methods[m]);
            reach_transform pose[RIG_MAX_BONES];
            /* One iteration from the straight pose: bounded and finite. */
            s.max_iterations = 1;
            reach_pose_rest(&r.skeleton, pose);
            reach_solve_result result;
            assert_int_equal(solve(&r.skeleton, &target, 1, &s, pose, &result), REACH_OK);
            assert_true(pose_is_finite(pose, 6));
            assert_true(largest_hinge_change(&r.skeleton, pose, r.rest) <= REACH_JACOBIAN_MAX_STEP + TEST_LENGTH_TOL);
            /* A whole solve: finite, and never worse than where it started. */
            s.max_iterations = 64;
            reach_pose_rest(&r.skeleton, pose);
            assert_int_equal(solve(&r.skeleton, &target, 1, &s, pose, &result), REACH_OK);
            assert_true(pose_is_finite(pose, 6));
            reach_real start = reach_vec3_distance(reach_vec3_make(5, 0, 0), goals[g]);
            assert_true(result.residual <= start + TEST_LENGTH_TOL);
            if (g == 0) ASSERT_NEAR(result.residual, 4, TEST_LENGTH_TOL * 10, "stays straight at the best pose");
        }
        /* Restarts get the inside target off the singular line. */
        reach_target target = reach_target_position(5, goals[g]);
        reach_solver_settings s = method_settings(REACH_JACOBIAN_DLS);
        s.restarts = 8;
        s.max_iterations = 400;
        reach_transform pose[RIG_MAX_BONES];
        reach_pose_rest(&r.skeleton, pose);
        reach_solve_result result;
        assert_int_equal(solve(&r.skeleton, &target, 1, &s, pose, &result), REACH_OK);
        if (g != 0) assert_true(result.reached);
    }
}

/* The UR5's wrist is singular at q5 = 0 (joints 4 and 6 align): steps stay bounded, and the
 * damped methods still reach poses next to it. */
static void test_wrist_singularity(void **state) {
    (void)state;
    test_robot robot;
    robot_ur5(&robot);
    test_rng rng = test_rng_make(0x515);
    int reached = 0;
    const int cases = 200;
    for (int k = 0; k < cases; ++k) {
        reach_real start_values[6], goal_values[6];
        robot_random_values(&robot, &rng, start_values);
        start_values[4] = 0;
        for (int i = 0; i < 6; ++i)
            goal_values[i] = reach_clamp(start_values[i] + test_uniform(&rng, REACH_R(-0.2), REACH_R(0.2)),
                                         robot.joints[i].min, robot.joints[i].max);
        goal_values[4] = test_uniform(&rng, REACH_R(-0.05), REACH_R(0.05));
        reach_transform goal = robot_tool_pose(&robot, goal_values);
        reach_target target = reach_target_position(robot.tool, goal.translation);
        target.use_orientation = 1;
        target.orientation = goal.rotation;
        for (int m = 0; m < 4; ++m) {
            reach_solver_settings s = method_settings(all_methods[m]);
            reach_transform start[7], pose[7];
            reach_pose_rest(&robot.skeleton, start);
            assert_int_equal(reach_pose_set_values(&robot.skeleton, start_values, 6, 0, start), REACH_OK);
            memcpy(pose, start, sizeof pose);
            s.max_iterations = 1;
            reach_solve_result result;
            assert_int_equal(solve(&robot.skeleton, &target, 1, &s, pose, &result), REACH_OK);
            assert_true(pose_is_finite(pose, 7));
            assert_true(largest_hinge_change(&robot.skeleton, pose, start) <=
                        REACH_JACOBIAN_MAX_STEP + TEST_LENGTH_TOL);
            memcpy(pose, start, sizeof pose);
            s.max_iterations = 100;
            assert_int_equal(solve(&robot.skeleton, &target, 1, &s, pose, &result), REACH_OK);
            assert_true(pose_is_finite(pose, 7));
            if (all_methods[m] == REACH_JACOBIAN_DLS) reached += result.reached;
        }
    }
    print_message("UR5 near the wrist singularity: DLS reached %d of %d\n", reached, cases);
    assert_true(reached >= cases * 95 / 100);
}

/* ---- limits, null space, prismatic joints, trees and loops --------------------------------- */

static void test_limits_always_hold(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x1137);
    for (int k = 0; k < SOLVE_CASES; ++k) {
        test_rig r;
        rig_planar_arm(&r, 6, 1, 1);
        for (int i = 0; i < 6; ++i) {
            reach_real lo = test_uniform(&rng, -3, 0), hi = test_uniform(&rng, 0, 3);
            r.joints[i] = reach_joint_hinge(reach_vec3_make(0, 0, 1), lo, hi);
        }
        reach_target target =
            reach_target_position(6, reach_vec3_make(test_uniform(&rng, -7, 7), test_uniform(&rng, -7, 7), 0));
        reach_solver_settings s = method_settings(all_methods[k % 4]);
        s.null_space = k % 8 < 4;
        reach_transform pose[RIG_MAX_BONES];
        rig_random_pose(&r, &rng, pose);
        reach_solve_result result;
        assert_int_equal(solve(&r.skeleton, &target, 1, &s, pose, &result), REACH_OK);
        reach_real values[RIG_MAX_BONES];
        reach_pose_get_values(&r.skeleton, pose, values);
        int at_limit = 0;
        for (int i = 0; i < 6; ++i) {
            assert_true(values[i] >= r.joints[i].min - TEST_LENGTH_TOL &&
                        values[i] <= r.joints[i].max + TEST_LENGTH_TOL);
            at_limit |=
                values[i] <= r.joints[i].min + TEST_LENGTH_TOL || values[i] >= r.joints[i].max - TEST_LENGTH_TOL;
        }
        if (result.limited) assert_true(at_limit);
    }
}

/* A pose that starts outside the limits comes back inside them, even with no iterations. */
static void test_start_outside_limits_is_projected(void **state) {
    (void)state;
    test_rig r;
    rig_planar_arm(&r, 3, 1, REACH_R(0.5));
    reach_transform pose[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    pose[0].rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), 2);
    pose[1].rotation =
        reach_quat_from_axis_angle(reach_vec3_make(REACH_R(0.6), 0, REACH_R(0.8)), REACH_R(0.3)); /* off its axis */
    reach_target target = reach_target_position(3, reach_vec3_make(1, 1, 0));
    reach_solver_settings s = reach_solver_default_settings();
    s.max_iterations = 0;
    reach_solve_result result;
    assert_int_equal(solve(&r.skeleton, &target, 1, &s, pose, &result), REACH_OK);
    assert_int_equal(result.iterations, 0);
    assert_true(result.limited);
    reach_real values[3];
    reach_pose_get_values(&r.skeleton, pose, values);
    ASSERT_NEAR(values[0], 0.5, TEST_LENGTH_TOL, "clamped to max");
    ASSERT_QUAT_NEAR(pose[1].rotation, reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), values[1]), TEST_LENGTH_TOL,
                     "hinge back on its axis");
}

/* On a redundant arm the null-space motion leaves the joints nearer rest than without it. */
static void test_null_space_relaxes_toward_rest(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x4e55);
    double with_sum = 0, without_sum = 0;
    int both = 0;
    for (int k = 0; k < SOLVE_CASES; ++k) {
        test_rig r;
        rig_planar_arm(&r, 6, 1, 3);
        reach_transform start[RIG_MAX_BONES], goal[RIG_MAX_BONES], world[RIG_MAX_BONES];
        rig_random_pose(&r, &rng, start);
        rig_random_pose(&r, &rng, goal);
        rig_world(&r, goal, world);
        reach_target target = reach_target_position(6, world[6].translation);
        double spread[2];
        int reached = 1;
        for (int ns = 0; ns < 2; ++ns) {
            reach_solver_settings s = method_settings(REACH_JACOBIAN_DLS);
            s.null_space = ns;
            s.max_iterations = 200;
            reach_transform pose[RIG_MAX_BONES];
            memcpy(pose, start, sizeof pose);
            reach_solve_result result;
            assert_int_equal(solve(&r.skeleton, &target, 1, &s, pose, &result), REACH_OK);
            reached &= result.reached;
            reach_real values[6];
            reach_pose_get_values(&r.skeleton, pose, values);
            spread[ns] = 0;
            for (int i = 0; i < 6; ++i)
                spread[ns] += (double)(values[i] * values[i]);
        }
        if (!reached) continue;
        ++both;
        with_sum += spread[1];
        without_sum += spread[0];
    }
    print_message("null space: mean |q|² %.3f with, %.3f without (%d cases)\n", with_sum / both, without_sum / both,
                  both);
    assert_true(both > SOLVE_CASES * 9 / 10);
    assert_true(with_sum < 0.7 * without_sum);
}

/* With a fixed damping λ the null-space motion is projected with its own tiny damping, not with
 * λ (which never falls, so part of every relaxed step would pull the targets): on a redundant
 * arm of seven hinges about alternating axes it costs no reach, position only or 6-D. */
static void test_null_space_with_fixed_damping_costs_no_reach(void **state) {
    (void)state;
    enum { BONES = 8 };
    int parents[BONES];
    reach_transform rest[BONES];
    reach_joint joints[BONES];
    test_rng rng = test_rng_make(0x7777u);
    reach_real length = 0;
    for (int k = 0; k < BONES; ++k) {
        parents[k] = k - 1;
        reach_real l = k == 0 ? 0 : test_uniform(&rng, REACH_R(0.3), REACH_R(0.6));
        length += l;
        rest[k] = reach_transform_identity();
        rest[k].translation = reach_vec3_make(0, 0, l);
        joints[k] = k < BONES - 1 ? reach_joint_hinge(k % 2 ? reach_vec3_make(0, 1, 0) : reach_vec3_make(0, 0, 1),
                                                      REACH_R(-2.8), REACH_R(2.8))
                                  : reach_joint_fixed();
    }
    reach_skeleton sk = {BONES, parents, rest, joints};
    const int cases = test_scaled(300) + 1;
    for (int orientation = 0; orientation < 2; ++orientation) {
        int reached[2] = {0, 0};
        for (int c = 0; c < cases; ++c) {
            reach_real start[BONES - 1], goal_values[BONES - 1];
            for (int k = 0; k < BONES - 1; ++k) {
                start[k] = test_uniform(&rng, -2, 2);
                goal_values[k] = test_uniform(&rng, -2, 2);
            }
            reach_transform goal[BONES], world[BONES];
            reach_pose_rest(&sk, goal);
            assert_int_equal(reach_pose_set_values(&sk, goal_values, BONES - 1, 1, goal), REACH_OK);
            reach_forward_kinematics(&sk, goal, world);
            reach_target target = reach_target_position(BONES - 1, world[BONES - 1].translation);
            target.use_orientation = orientation;
            target.orientation = world[BONES - 1].rotation;
            for (int ns = 0; ns < 2; ++ns) {
                reach_solver_settings s = method_settings(REACH_JACOBIAN_DLS);
                s.damping = REACH_R(0.2) * length;
                s.null_space = ns;
                reach_transform pose[BONES];
                reach_pose_rest(&sk, pose);
                assert_int_equal(reach_pose_set_values(&sk, start, BONES - 1, 1, pose), REACH_OK);
                reach_solve_result result;
                assert_int_equal(solve(&sk, &target, 1, &s, pose, &result), REACH_OK);
                reached[ns] += result.reached;
            }
        }
        print_message("fixed damping 0.2 L, %s: reached %d with the null space, %d without (%d cases)\n",
                      orientation ? "6-D" : "position", reached[1], reached[0], cases);
        assert_true(reached[1] >= reached[0]);
    }
}

static void test_prismatic_joint_slides(void **state) {
    (void)state;
    /* A turret (hinge about z) carrying a slide along x in [0, 2] and a 1-long end. */
    test_rig r;
    r.parents[0] = -1;
    r.parents[1] = 0;
    r.parents[2] = 1;
    r.rest[0] = reach_transform_identity();
    r.rest[1] = reach_transform_make(reach_quat_identity(), reach_vec3_make(1, 0, 0));
    r.rest[2] = reach_transform_make(reach_quat_identity(), reach_vec3_make(1, 0, 0));
    r.joints[0] = reach_joint_hinge(reach_vec3_make(0, 0, 1), -REACH_PI, REACH_PI);
    r.joints[1] = reach_joint_prismatic(reach_vec3_make(1, 0, 0), 0, 2);
    r.joints[2] = reach_joint_fixed();
    rig_finish(&r, 3);
    test_rng rng = test_rng_make(0x511de);
    for (int k = 0; k < SOLVE_CASES; ++k) {
        reach_real radius = test_uniform(&rng, REACH_R(2.05), REACH_R(3.95)), angle = test_uniform(&rng, -3, 3);
        reach_vec3 goal = reach_vec3_make(radius * reach_cos(angle), radius * reach_sin(angle), 0);
        reach_target target = reach_target_position(2, goal);
        for (int m = 1; m < 4; ++m) {
            reach_solver_settings s = method_settings(all_methods[m]);
            reach_transform pose[3];
            reach_pose_rest(&r.skeleton, pose);
            reach_solve_result result;
            assert_int_equal(solve(&r.skeleton, &target, 1, &s, pose, &result), REACH_OK);
            assert_true(result.reached);
            reach_real values[2];
            reach_pose_get_values(&r.skeleton, pose, values);
            ASSERT_NEAR(values[1], radius - 2, 1e-3, "slide offset");
        }
    }
}

/* An arm on a rail far longer than itself: a slide along x over [0, rail] carrying two hinges
 * about z with links of 0.5. The rows are scaled by the moving chain's length, rail included, so
 * the arm's own columns are about its reach over the rail's length and the adaptive damping's
 * floor, in scaled units, swamps them on a rail 10⁴ times the arm's reach.
 * docs/jacobian.md names the remedies, proved here: a fixed damping in rig units, or SDLS, whose
 * per-column step bounds do not depend on the scale. The adaptive DLS's share is only reported. */
static void test_arm_on_a_long_rail(void **state) {
    (void)state;
    const reach_real rails[] = {10, REACH_R(1e3), REACH_R(1e4)};
    test_rng rng = test_rng_make(0x4a11);
    for (size_t i = 0; i < sizeof rails / sizeof rails[0]; ++i) {
        test_rig r;
        for (int b = 0; b < 5; ++b) {
            r.parents[b] = b - 1;
            r.rest[b] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, b >= 2 ? REACH_R(0.5) : 0, 0));
        }
        r.joints[0] = reach_joint_fixed();
        r.joints[1] = reach_joint_prismatic(reach_vec3_make(1, 0, 0), 0, rails[i]);
        r.joints[2] = reach_joint_hinge(reach_vec3_make(0, 0, 1), -3, 3);
        r.joints[3] = reach_joint_hinge(reach_vec3_make(0, 0, 1), -3, 3);
        r.joints[4] = reach_joint_fixed();
        rig_finish(&r, 5);
        int reached_fixed = 0, reached_sdls = 0, reached_adaptive = 0;
        const int cases = 100;
        for (int k = 0; k < cases; ++k) {
            reach_real along = test_uniform(&rng, 1, rails[i] - 1),
                       radius = test_uniform(&rng, REACH_R(0.3), REACH_R(0.9));
            reach_real angle = test_uniform(&rng, REACH_R(0.2), REACH_R(2.9));
            reach_target target = reach_target_position(
                4, reach_vec3_make(along + radius * reach_cos(angle), radius * reach_sin(angle), 0));
            reach_solver_settings fixed = method_settings(REACH_JACOBIAN_DLS), adaptive = fixed;
            reach_solver_settings sdls = method_settings(REACH_JACOBIAN_SDLS);
            fixed.damping = REACH_R(0.01);
            fixed.tolerance = sdls.tolerance = adaptive.tolerance = REACH_R(1e-4);
            int *counts[] = {&reached_fixed, &reached_sdls, &reached_adaptive};
            const reach_solver_settings *settings[] = {&fixed, &sdls, &adaptive};
            for (int m = 0; m < 3; ++m) {
                reach_transform pose[5];
                reach_pose_rest(&r.skeleton, pose);
                reach_solve_result result;
                assert_int_equal(solve(&r.skeleton, &target, 1, settings[m], pose, &result), REACH_OK);
                *counts[m] += result.reached;
            }
        }
        print_message("rail %g: reached to 1e-4 of %d, fixed damping 0.01 %d, SDLS %d, adaptive DLS %d\n",
                      (double)rails[i], cases, reached_fixed, reached_sdls, reached_adaptive);
        assert_int_equal(reached_fixed, cases);
        assert_int_equal(reached_sdls, cases);
    }
}

/* Two arms from one root, two targets from a random pose of the tree: both reached. */
static void test_tree_of_effectors(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x72ee);
    int reached = 0, total = 0;
    for (int k = 0; k < SOLVE_CASES / 2; ++k) {
        test_rig r;
        /* 0 root; 1-2-3 one branch; 4-5-6 the other. */
        for (int i = 0; i < 7; ++i) {
            r.parents[i] = i == 0 ? -1 : (i == 4 ? 0 : i - 1);
            r.rest[i] =
                reach_transform_make(test_unit_quat(&rng),
                                     i == 0 ? reach_vec3_zero() : reach_vec3_scale(test_unit_vec3(&rng), REACH_R(0.7)));
            r.joints[i] = reach_joint_ball();
        }
        rig_finish(&r, 7);
        reach_transform start[7], goal[7], world[7];
        rig_random_pose(&r, &rng, start);
        rig_random_pose(&r, &rng, goal);
        rig_world(&r, goal, world);
        reach_target targets[2] = {reach_target_position(3, world[3].translation),
                                   reach_target_position(6, world[6].translation)};
        for (int m = 2; m < 4; ++m) {
            reach_solver_settings s = method_settings(all_methods[m]);
            s.max_iterations = 200;
            reach_transform pose[7];
            memcpy(pose, start, sizeof pose);
            reach_solve_result result;
            assert_int_equal(solve(&r.skeleton, targets, 2, &s, pose, &result), REACH_OK);
            reach_transform solved[7];
            rig_world(&r, pose, solved);
            int both =
                reach_vec3_distance(solved[3].translation, targets[0].position) <= result.residual + TEST_LENGTH_TOL &&
                reach_vec3_distance(solved[6].translation, targets[1].position) <= result.residual + TEST_LENGTH_TOL;
            assert_true(both);
            reached += result.reached;
            ++total;
        }
    }
    print_message("tree of two effectors: reached %d of %d\n", reached, total);
    assert_true(reached >= total * 97 / 100);
}

/* A closed loop: two planar arms from one root whose tips must meet. */
static void test_meeting_tips_close_the_loop(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x100b);
    int reached = 0;
    for (int k = 0; k < SOLVE_CASES; ++k) {
        test_rig r;
        /* 0 root hinge; 1-2 one arm; 3-4 the other, leaving the root 1 apart. */
        for (int i = 0; i < 5; ++i) {
            r.parents[i] = i == 0 ? -1 : (i == 3 ? 0 : i - 1);
            reach_vec3 offset =
                i == 0 ? reach_vec3_zero() : (i == 3 ? reach_vec3_make(0, 1, 0) : reach_vec3_make(1, 0, 0));
            r.rest[i] = reach_transform_make(reach_quat_identity(), offset);
            r.joints[i] = reach_joint_hinge(reach_vec3_make(0, 0, 1), -3, 3);
        }
        rig_finish(&r, 5);
        reach_transform pose[5];
        rig_random_pose(&r, &rng, pose);
        reach_target meet = reach_target_position(2, reach_vec3_zero());
        meet.kind = REACH_TARGET_MEET;
        meet.meet_bone = 4;
        /* One of the two ways to close the loop needs joint 1 at π, past its limit of 3 rad: a
         * solve that heads there stalls at the limit, and a restart finds the other way. */
        reach_solver_settings s = method_settings(k % 2 ? REACH_JACOBIAN_SDLS : REACH_JACOBIAN_DLS);
        s.max_iterations = 400;
        s.restarts = 8;
        reach_solve_result result;
        assert_int_equal(solve(&r.skeleton, &meet, 1, &s, pose, &result), REACH_OK);
        reach_transform world[5];
        rig_world(&r, pose, world);
        ASSERT_NEAR(reach_vec3_distance(world[2].translation, world[4].translation), result.residual, TEST_LENGTH_TOL,
                    "meet residual");
        reached += result.reached;
    }
    print_message("closed loops: reached %d of %d\n", reached, SOLVE_CASES);
    assert_true(reached >= SOLVE_CASES * 99 / 100);
}

static void test_method_names(void **state) {
    (void)state;
    assert_string_equal(reach_jacobian_method_name(REACH_JACOBIAN_TRANSPOSE), "transpose");
    assert_string_equal(reach_jacobian_method_name(REACH_JACOBIAN_PSEUDOINVERSE), "pseudoinverse");
    assert_string_equal(reach_jacobian_method_name(REACH_JACOBIAN_DLS), "dls");
    assert_string_equal(reach_jacobian_method_name(REACH_JACOBIAN_SDLS), "sdls");
    assert_string_equal(reach_jacobian_method_name((reach_jacobian_method)99), "unknown");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jacobian_matches_finite_differences),
        cmocka_unit_test(test_columns_follow_joint_types),
        cmocka_unit_test(test_validation_leaves_everything_untouched),
        cmocka_unit_test(test_null_settings_mean_defaults),
        cmocka_unit_test(test_no_targets_move_nothing_in_every_solver),
        cmocka_unit_test(test_same_inputs_same_bits),
        cmocka_unit_test(test_straight_arm_singularities),
        cmocka_unit_test(test_wrist_singularity),
        cmocka_unit_test(test_limits_always_hold),
        cmocka_unit_test(test_start_outside_limits_is_projected),
        cmocka_unit_test(test_null_space_relaxes_toward_rest),
        cmocka_unit_test(test_null_space_with_fixed_damping_costs_no_reach),
        cmocka_unit_test(test_prismatic_joint_slides),
        cmocka_unit_test(test_arm_on_a_long_rail),
        cmocka_unit_test(test_tree_of_effectors),
        cmocka_unit_test(test_meeting_tips_close_the_loop),
        cmocka_unit_test(test_method_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
