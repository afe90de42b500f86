/* Mimic joints (value = multiplier × leader's value + offset): validation, the joint-value
 * functions, reach_pose_apply_mimic, the Jacobian's leader column against finite differences of
 * forward kinematics, and Jacobian solves that keep every follower coupled and inside its range. */
#include <string.h>

#include "test_support.h"

#define MAX_BONES 16

typedef struct mimic_rig {
    int parents[MAX_BONES];
    reach_transform rest[MAX_BONES];
    reach_joint joints[MAX_BONES];
    reach_skeleton skeleton;
} mimic_rig;

static void finish(mimic_rig *r, int bones) {
    r->skeleton.bone_count = bones;
    r->skeleton.parents = r->parents;
    r->skeleton.rest = r->rest;
    r->skeleton.joints = r->joints;
}

/* A fixed root, then hinges and slides on random axes in a random tree; some of them follow an
 * independent hinge or slide anywhere in the tree, with ranges wide enough for every value their
 * leader's range gives them. */
static void random_mimic_rig(mimic_rig *r, test_rng *rng, int bones) {
    r->parents[0] = -1;
    r->rest[0] = reach_transform_identity();
    r->joints[0] = reach_joint_fixed();
    for (int i = 1; i < bones; ++i) {
        r->parents[i] = (int)(test_rng_next(rng) % (uint64_t)i);
        r->rest[i] = reach_transform_make(test_unit_quat(rng), test_in_ball(rng, 1));
        reach_vec3 axis = test_unit_vec3(rng);
        r->joints[i] = test_rng_next(rng) % 4 == 0 ? reach_joint_prismatic(axis, REACH_R(-0.5), REACH_R(0.5))
                                                   : reach_joint_hinge(axis, -1, 1);
    }
    for (int i = 1; i < bones; ++i) {
        if (test_rng_next(rng) % 3 != 0) continue;
        int leader = 1 + (int)(test_rng_next(rng) % (uint64_t)(bones - 1));
        if (leader == i || r->joints[leader].mimic) continue;
        int leads = 0;
        for (int k = 1; k < bones; ++k)
            leads |= r->joints[k].mimic && r->joints[k].mimic_leader == i;
        if (leads) continue;
        r->joints[i].min = -3;
        r->joints[i].max = 3;
        r->joints[i] = reach_joint_mimic(r->joints[i], leader, test_uniform(rng, REACH_R(-1.5), REACH_R(1.5)),
                                         test_uniform(rng, REACH_R(-0.3), REACH_R(0.3)));
    }
    finish(r, bones);
    assert_int_equal(reach_skeleton_validate(&r->skeleton, NULL), REACH_OK);
}

/* A value per independent joint inside its range (followers' entries are left at 0: not read). */
static void random_values(const mimic_rig *r, test_rng *rng, reach_real *values) {
    int n = 0;
    for (int i = 0; i < r->skeleton.bone_count; ++i) {
        if (!reach_joint_has_value(r->joints[i].type)) continue;
        values[n++] = r->joints[i].mimic ? 0 : test_uniform(rng, r->joints[i].min, r->joints[i].max);
    }
}

static int value_index(const mimic_rig *r, int bone) {
    int n = 0;
    for (int i = 0; i < bone; ++i)
        n += reach_joint_has_value(r->joints[i].type);
    return n;
}

/* Every follower's value is its leader's coupled, within tolerance. */
static void assert_coupled(const mimic_rig *r, const reach_transform *pose, double tolerance) {
    reach_real values[MAX_BONES];
    reach_pose_get_values(&r->skeleton, pose, values);
    for (int i = 0; i < r->skeleton.bone_count; ++i) {
        const reach_joint *j = &r->joints[i];
        if (!j->mimic) continue;
        /* Read the follower's own transform, as a rig without the coupling would. */
        mimic_rig plain = *r;
        plain.joints[i].mimic = 0;
        finish(&plain, r->skeleton.bone_count);
        reach_real own[MAX_BONES];
        reach_pose_get_values(&plain.skeleton, pose, own);
        reach_real expected = j->mimic_multiplier * values[value_index(r, j->mimic_leader)] + j->mimic_offset;
        ASSERT_NEAR(own[value_index(r, i)], reach_clamp(expected, j->min, j->max), tolerance, "follower coupled");
        ASSERT_NEAR(values[value_index(r, i)], own[value_index(r, i)], tolerance, "get_values reports it");
    }
}

static void test_validation(void **state) {
    (void)state;
    mimic_rig r;
    r.parents[0] = -1;
    r.parents[1] = 0;
    r.parents[2] = 1;
    for (int i = 0; i < 3; ++i)
        r.rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, 1, 0));
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    r.joints[0] = reach_joint_hinge(z, -1, 1);
    r.joints[1] = reach_joint_mimic(reach_joint_hinge(z, -1, 1), 0, 2, 0);
    r.joints[2] = reach_joint_prismatic(z, 0, 1);
    finish(&r, 3);
    assert_int_equal(reach_skeleton_validate(&r.skeleton, NULL), REACH_OK);
    struct {
        reach_joint joint;
        reach_status status;
    } bad[] = {
        {reach_joint_mimic(reach_joint_hinge(z, -1, 1), 1, 1, 0), REACH_ERROR_BAD_JOINT},  /* itself */
        {reach_joint_mimic(reach_joint_hinge(z, -1, 1), 3, 1, 0), REACH_ERROR_BAD_JOINT},  /* no such bone */
        {reach_joint_mimic(reach_joint_hinge(z, -1, 1), -1, 1, 0), REACH_ERROR_BAD_JOINT}, /* no such bone */
        {reach_joint_mimic(reach_joint_ball(), 0, 1, 0), REACH_ERROR_BAD_JOINT},           /* a ball has no value */
        {reach_joint_mimic(reach_joint_hinge(z, -1, 1), 0, (reach_real)NAN, 0), REACH_ERROR_NOT_FINITE},
        {reach_joint_mimic(reach_joint_hinge(z, -1, 1), 0, 1, (reach_real)INFINITY), REACH_ERROR_NOT_FINITE},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        mimic_rig copy = r;
        copy.joints[1] = bad[k].joint;
        finish(&copy, 3);
        int bad_bone = -1;
        assert_int_equal(reach_skeleton_validate(&copy.skeleton, &bad_bone), bad[k].status);
        assert_int_equal(bad_bone, 1);
    }
    /* A follower of a follower, and a follower of a fixed joint. */
    mimic_rig chain = r;
    chain.joints[2] = reach_joint_mimic(reach_joint_prismatic(z, 0, 1), 1, 1, 0);
    finish(&chain, 3);
    assert_int_equal(reach_skeleton_validate(&chain.skeleton, NULL), REACH_ERROR_BAD_JOINT);
    chain.joints[0] = reach_joint_fixed();
    chain.joints[2] = reach_joint_mimic(reach_joint_prismatic(z, 0, 1), 0, 1, 0);
    assert_int_equal(reach_skeleton_validate(&chain.skeleton, NULL), REACH_ERROR_BAD_JOINT);
}

static void test_set_values_derives_followers(void **state) {
    (void)state;
    mimic_rig r;
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    for (int i = 0; i < 3; ++i) {
        r.parents[i] = i - 1;
        r.rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(i ? 1 : 0, 0, 0));
    }
    r.joints[0] = reach_joint_mimic(reach_joint_hinge(z, -1, 1), 2, -2, REACH_R(0.1)); /* leader after it */
    r.joints[1] = reach_joint_fixed();
    r.joints[2] = reach_joint_prismatic(z, -1, 1);
    finish(&r, 3);
    assert_int_equal(reach_skeleton_validate(&r.skeleton, NULL), REACH_OK);
    assert_int_equal(reach_skeleton_value_count(&r.skeleton), 2);
    reach_transform pose[3], before[3];
    reach_pose_rest(&r.skeleton, pose);
    reach_real values[2] = {REACH_R(0.9), REACH_R(0.25)}; /* the follower's 0.9 is not read */
    assert_int_equal(reach_pose_set_values(&r.skeleton, values, 2, 0, pose), REACH_OK);
    reach_real back[2];
    reach_pose_get_values(&r.skeleton, pose, back);
    ASSERT_NEAR(back[0], -0.4, TEST_REACH_TOL, "follower derived");
    ASSERT_NEAR(back[1], 0.25, TEST_REACH_TOL, "leader");
    ASSERT_QUAT_NEAR(pose[0].rotation, reach_quat_from_axis_angle(z, REACH_R(-0.4)), TEST_REACH_TOL, "rotation");
    /* A leader value that takes the follower past its range: refused unclamped, pose untouched. */
    memcpy(before, pose, sizeof pose);
    values[1] = REACH_R(0.8);
    assert_int_equal(reach_pose_set_values(&r.skeleton, values, 2, 0, pose), REACH_ERROR_INVALID_ARGUMENT);
    assert_true(test_bytes_equal(before, pose, sizeof pose));
    /* Clamped: the leader keeps its value, the follower stops at its end. */
    assert_int_equal(reach_pose_set_values(&r.skeleton, values, 2, 1, pose), REACH_OK);
    reach_pose_get_values(&r.skeleton, pose, back);
    ASSERT_NEAR(back[0], -1, TEST_REACH_TOL, "follower clamped");
    ASSERT_NEAR(back[1], 0.8, TEST_REACH_TOL, "leader kept");
    /* A leader past its own range, clamped first: the follower follows the clamped value. */
    values[1] = 5;
    assert_int_equal(reach_pose_set_values(&r.skeleton, values, 2, 1, pose), REACH_OK);
    reach_pose_get_values(&r.skeleton, pose, back);
    ASSERT_NEAR(back[1], 1, TEST_REACH_TOL, "leader clamped");
    ASSERT_NEAR(back[0], -1, TEST_REACH_TOL, "follower of the clamped leader");
    /* A non-finite leader value is refused even though the follower's entry is fine. */
    values[1] = (reach_real)NAN;
    memcpy(before, pose, sizeof pose);
    assert_int_equal(reach_pose_set_values(&r.skeleton, values, 2, 1, pose), REACH_ERROR_NOT_FINITE);
    assert_true(test_bytes_equal(before, pose, sizeof pose));
}

static void test_random_rigs_set_get_apply(void **state) {
    (void)state;
    test_rng rng = test_rng_make(77);
    for (int n = 0; n < test_scaled(20000); ++n) {
        mimic_rig r;
        random_mimic_rig(&r, &rng, 2 + (int)(test_rng_next(&rng) % (MAX_BONES - 1)));
        reach_real values[MAX_BONES];
        random_values(&r, &rng, values);
        reach_transform pose[MAX_BONES];
        reach_pose_rest(&r.skeleton, pose);
        assert_int_equal(reach_pose_set_values(&r.skeleton, values, reach_skeleton_value_count(&r.skeleton), 0, pose),
                         REACH_OK);
        assert_coupled(&r, pose, 4 * TEST_REACH_TOL);
        /* Leaders moved by other means (as FABRIK or CCD would): apply_mimic brings followers back. */
        for (int i = 1; i < r.skeleton.bone_count; ++i)
            if (r.joints[i].type == REACH_JOINT_HINGE && !r.joints[i].mimic)
                pose[i].rotation = reach_quat_mul(
                    r.rest[i].rotation, reach_quat_from_axis_angle(r.joints[i].axis, test_uniform(&rng, -1, 1)));
        reach_pose_apply_mimic(&r.skeleton, pose);
        assert_coupled(&r, pose, 4 * TEST_REACH_TOL);
    }
}

/* The rotation vector of a small turn: 2 sin(θ/2) n, θ n to within θ³. */
static reach_vec3 small_turn(reach_quat q) {
    reach_real sign = q.w < 0 ? -1 : 1;
    return reach_vec3_make(2 * sign * q.x, 2 * sign * q.y, 2 * sign * q.z);
}

/* Central differences: a step that keeps truncation (h², links up to a few long) and rounding
 * (ε / h) both small in the precision at hand. */
#ifdef REACH_DOUBLE
#define DIFFERENCE_STEP 1e-6
#define DIFFERENCE_TOL  1e-6
#else
#define DIFFERENCE_STEP 1e-2
#define DIFFERENCE_TOL  2e-3
#endif

/* The Jacobian's column of each leader is the derivative of every target's position and rotation
 * with its followers moving along (central differences of forward kinematics, in double). */
static void test_leader_column_carries_followers(void **state) {
    (void)state;
    test_rng rng = test_rng_make(4242);
    unsigned char scratch[65536];
    for (int n = 0; n < test_scaled(3000); ++n) {
        mimic_rig r;
        int bones = 3 + (int)(test_rng_next(&rng) % (MAX_BONES - 2));
        random_mimic_rig(&r, &rng, bones);
        reach_real values[MAX_BONES];
        random_values(&r, &rng, values);
        int count = reach_skeleton_value_count(&r.skeleton);
        reach_transform pose[MAX_BONES];
        reach_pose_rest(&r.skeleton, pose);
        assert_int_equal(reach_pose_set_values(&r.skeleton, values, count, 0, pose), REACH_OK);
        int effector = 1 + (int)(test_rng_next(&rng) % (uint64_t)(bones - 1));
        reach_target target = reach_target_position(effector, reach_vec3_zero());
        target.use_orientation = 1;
        target.orientation = reach_quat_identity();
        int rows, columns;
        size_t need = reach_jacobian_scratch_size(&r.skeleton, 1);
        assert_true(need <= sizeof scratch);
        assert_int_equal(reach_jacobian_dimensions(&r.skeleton, &target, 1, 0, &rows, &columns, scratch, need),
                         REACH_OK);
        reach_real matrix[6 * MAX_BONES];
        int column_bones[MAX_BONES];
        assert_int_equal(reach_jacobian_matrix(&r.skeleton, &target, 1, 0, pose, matrix, column_bones, scratch, need),
                         REACH_OK);
        for (int c = 0; c < columns; ++c) {
            int bone = column_bones[c];
            assert_false(r.joints[bone].mimic);
            int index = value_index(&r, bone);
            const double h = DIFFERENCE_STEP;
            reach_real plus[MAX_BONES], minus[MAX_BONES];
            memcpy(plus, values, sizeof values);
            memcpy(minus, values, sizeof values);
            plus[index] += (reach_real)h;
            minus[index] -= (reach_real)h;
            reach_transform a[MAX_BONES], b[MAX_BONES], wa[MAX_BONES], wb[MAX_BONES];
            reach_pose_rest(&r.skeleton, a);
            reach_pose_rest(&r.skeleton, b);
            /* Clamped: a leader at its end differs one way only, and the followers keep inside. */
            assert_int_equal(reach_pose_set_values(&r.skeleton, plus, count, 1, a), REACH_OK);
            assert_int_equal(reach_pose_set_values(&r.skeleton, minus, count, 1, b), REACH_OK);
            if (values[index] + h > r.joints[bone].max || values[index] - h < r.joints[bone].min) continue;
            reach_forward_kinematics(&r.skeleton, a, wa);
            reach_forward_kinematics(&r.skeleton, b, wb);
            reach_vec3 velocity =
                reach_vec3_scale(reach_vec3_sub(wa[effector].translation, wb[effector].translation), 1 / (2 * h));
            reach_vec3 turn = reach_vec3_scale(
                small_turn(reach_quat_mul(wa[effector].rotation, reach_quat_conjugate(wb[effector].rotation))),
                1 / (2 * h));
            reach_vec3 column = reach_vec3_make(matrix[c], matrix[columns + c], matrix[2 * columns + c]);
            reach_vec3 angular =
                reach_vec3_make(matrix[3 * columns + c], matrix[4 * columns + c], matrix[5 * columns + c]);
            ASSERT_VEC3_NEAR(column, velocity, DIFFERENCE_TOL, "position column");
            ASSERT_VEC3_NEAR(angular, turn, DIFFERENCE_TOL, "rotation column");
        }
    }
}

/* Solves to reachable targets (forward kinematics of random values) on a tip that followers
 * move: every answer keeps each follower coupled and inside its range and says truly whether it
 * reached; nearly all reach. */
static void test_solves_keep_followers_coupled(void **state) {
    (void)state;
    test_rng rng = test_rng_make(99);
    unsigned char scratch[65536];
    reach_solver_settings settings = reach_solver_default_settings();
    settings.jacobian_method = REACH_JACOBIAN_DLS;
    settings.max_iterations = 200;
    settings.restarts = 20;
    int solves = test_scaled(2000), reached = 0;
    for (int n = 0; n < solves; ++n) {
        mimic_rig r;
        int bones = 3 + (int)(test_rng_next(&rng) % (MAX_BONES - 2));
        random_mimic_rig(&r, &rng, bones);
        int count = reach_skeleton_value_count(&r.skeleton);
        reach_real goal_values[MAX_BONES], start_values[MAX_BONES];
        random_values(&r, &rng, goal_values);
        random_values(&r, &rng, start_values);
        reach_transform goal[MAX_BONES], goal_world[MAX_BONES], pose[MAX_BONES], world[MAX_BONES];
        reach_pose_rest(&r.skeleton, goal);
        assert_int_equal(reach_pose_set_values(&r.skeleton, goal_values, count, 0, goal), REACH_OK);
        reach_forward_kinematics(&r.skeleton, goal, goal_world);
        int effector = bones - 1;
        reach_target target = reach_target_position(effector, goal_world[effector].translation);
        reach_pose_rest(&r.skeleton, pose);
        assert_int_equal(reach_pose_set_values(&r.skeleton, start_values, count, 0, pose), REACH_OK);
        size_t need = reach_jacobian_scratch_size(&r.skeleton, 1);
        reach_solve_result result;
        assert_int_equal(reach_jacobian_solve(&r.skeleton, &target, 1, &settings, pose, scratch, need, &result),
                         REACH_OK);
        assert_coupled(&r, pose, 4 * TEST_REACH_TOL);
        reach_forward_kinematics(&r.skeleton, pose, world);
        reach_real distance = reach_vec3_distance(world[effector].translation, target.position);
        ASSERT_NEAR(result.residual, distance, 4 * TEST_REACH_TOL, "reported residual");
        reach_real values[MAX_BONES];
        reach_pose_get_values(&r.skeleton, pose, values);
        int v = 0;
        for (int i = 0; i < bones; ++i) {
            if (!reach_joint_has_value(r.joints[i].type)) continue;
            /* Limits are met in values; reading them back from rotations rounds. */
            double slack = 64 * (double)REACH_REAL_EPSILON;
            if (!(values[v] >= r.joints[i].min - slack && values[v] <= r.joints[i].max + slack))
                fail_msg("bone %d value %.17g outside [%g, %g]", i, (double)values[v], (double)r.joints[i].min,
                         (double)r.joints[i].max);
            ++v;
        }
        reached += result.reached;
    }
    double share = 100.0 * reached / solves;
    print_message("mimic rigs: reached %.2f %%\n", share);
    if (!(share >= 99)) fail_msg("reached only %.2f %%", share);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_set_values_derives_followers),
        cmocka_unit_test(test_random_rigs_set_get_apply),
        cmocka_unit_test(test_leader_column_carries_followers),
        cmocka_unit_test(test_solves_keep_followers_coupled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
