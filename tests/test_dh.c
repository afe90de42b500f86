/* Denavit–Hartenberg tables to skeletons: validation, names, and forward kinematics of the UR5,
 * the KUKA LBR iiwa 14 and the Franka Panda against the textbook DH matrices multiplied in double
 * and against poses worked out by hand; joint values to poses and back. */
#include <math.h>
#include <string.h>

#include "test_support.h"
#include "robots/robots.h"

#define FK_CASES 2000

static void check_frame(const reach_transform *t, const robot_frame *expected, double tol, const char *what) {
    ASSERT_VEC3_NEAR(t->translation, robot_frame_position(expected), tol, what);
    for (int j = 0; j < 3; ++j)
        ASSERT_VEC3_NEAR(robot_transform_axis(*t, j), robot_frame_axis(expected, j), tol, what);
}

/* The skeleton's tool pose equals the product of the DH matrices for random joint values. */
static void check_against_reference(const test_robot *r, uint64_t seed) {
    test_rng rng = test_rng_make(seed);
    for (int k = 0; k < FK_CASES; ++k) {
        reach_real values[ROBOT_MAX_ROWS];
        double q[ROBOT_MAX_ROWS];
        robot_random_values(r, &rng, values);
        for (int i = 0; i < r->dof; ++i)
            q[i] = (double)values[i];
        reach_transform tool = robot_tool_pose(r, values);
        robot_frame expected = robot_reference_fk(r, q);
        check_frame(&tool, &expected, 8 * TEST_LENGTH_TOL, r->name);
    }
}

/* Checks the tool's pose at q by hand-derived numbers. The reference poses may lie outside the
 * limits (the Panda's zero pose does), so the limits are opened for them. */
static void check_tool(const test_robot *limited, const double *q, reach_vec3 position, reach_vec3 x, reach_vec3 y,
                       reach_vec3 z) {
    test_robot open = *limited;
    open.skeleton.joints = open.joints;
    for (int i = 0; i < open.skeleton.bone_count; ++i) {
        if (open.joints[i].type != REACH_JOINT_HINGE) continue;
        open.joints[i].min = -2 * REACH_PI;
        open.joints[i].max = 2 * REACH_PI;
    }
    reach_real values[ROBOT_MAX_ROWS];
    for (int i = 0; i < open.dof; ++i)
        values[i] = (reach_real)q[i];
    reach_transform tool = robot_tool_pose(&open, values);
    ASSERT_VEC3_NEAR(tool.translation, position, 4 * TEST_LENGTH_TOL, "tool position");
    ASSERT_VEC3_NEAR(robot_transform_axis(tool, 0), x, 4 * TEST_LENGTH_TOL, "tool x axis");
    ASSERT_VEC3_NEAR(robot_transform_axis(tool, 1), y, 4 * TEST_LENGTH_TOL, "tool y axis");
    ASSERT_VEC3_NEAR(robot_transform_axis(tool, 2), z, 4 * TEST_LENGTH_TOL, "tool z axis");
}

#define V(x, y, z) reach_vec3_make((reach_real)(x), (reach_real)(y), (reach_real)(z))

static void test_ur5(void **state) {
    (void)state;
    test_robot r;
    robot_ur5(&r);
    assert_int_equal(r.dof, 6);
    assert_int_equal(r.skeleton.bone_count, 7);
    /* Zero pose, by hand: x = a2 + a3, y = −(d4 + d6), z = d1 − d5; the tool's z axis along −y. */
    const double zero[6] = {0};
    check_tool(&r, zero, V(-0.81725, -0.19145, -0.005491), V(1, 0, 0), V(0, 0, 1), V(0, -1, 0));
    /* Upright (q2 = q4 = −π/2): the arm stands on z, z = d1 − a2 − a3 + d5, tool z along −y. */
    const double upright[6] = {0, -ROBOT_PI / 2, 0, -ROBOT_PI / 2, 0, 0};
    check_tool(&r, upright, V(0, -0.19145, 1.001059), V(-1, 0, 0), V(0, 0, -1), V(0, -1, 0));
    check_against_reference(&r, 0xd5);
}

static void test_iiwa14(void **state) {
    (void)state;
    test_robot r;
    robot_iiwa14(&r);
    assert_int_equal(r.dof, 7);
    /* Zero pose: straight up, 0.36 + 0.42 + 0.4 + 0.126 m, the flange aligned with the base. */
    const double zero[7] = {0};
    check_tool(&r, zero, V(0, 0, 1.306), V(1, 0, 0), V(0, 1, 0), V(0, 0, 1));
    /* Elbow (joint 4) at +90°: the forearm, hinged at the elbow at z = 0.78, turns level... */
    const double elbow[7] = {0, 0, 0, ROBOT_PI / 2, 0, 0, 0};
    reach_real values[7];
    for (int i = 0; i < 7; ++i)
        values[i] = (reach_real)elbow[i];
    reach_transform tool = robot_tool_pose(&r, values);
    /* ...so the flange lies 0.4 + 0.126 m from the elbow, in the horizontal plane of the elbow. */
    ASSERT_NEAR(tool.translation.z, 0.78, 4 * TEST_LENGTH_TOL, "elbow height");
    ASSERT_NEAR(sqrt((double)(tool.translation.x * tool.translation.x + tool.translation.y * tool.translation.y)),
                0.526, 4 * TEST_LENGTH_TOL, "forearm reach");
    check_against_reference(&r, 0x114);
}

static void test_panda(void **state) {
    (void)state;
    test_robot r;
    robot_panda(&r);
    assert_int_equal(r.dof, 7);
    assert_int_equal(r.skeleton.bone_count, 9); /* 8 rows (the flange fixed) + tool */
    /* Zero pose: x = a7 = 0.088 (a4 and a5 cancel), z = 0.333 + 0.316 + 0.384 − 0.107, pointing down. */
    const double zero[7] = {0};
    check_tool(&r, zero, V(0.088, 0, 0.926), V(1, 0, 0), V(0, -1, 0), V(0, 0, -1));
    check_against_reference(&r, 0xfa);
}

/* Offsets, prismatic and fixed rows, in both conventions. */
static void mixed_robot(test_robot *r, reach_dh_convention convention) {
    r->rows[0] = robot_row(0.2, 0.5, 0.1, 0.3, REACH_DH_REVOLUTE, -2, 2.5);
    r->rows[1] = robot_row(0.1, -1.0, 0.2, -0.4, REACH_DH_PRISMATIC, 0, 0.5);
    r->rows[2] = robot_row(0.3, 0.2, 0.05, 0.7, REACH_DH_FIXED, 0, 0);
    r->rows[3] = robot_row(-0.15, 1.2, -0.1, 1.1, REACH_DH_REVOLUTE, -5, 5);
    r->rows[4] = robot_row(0.05, -0.3, 0.0, 0.0, REACH_DH_PRISMATIC, -0.2, 0.2);
    robot_finish(r, convention == REACH_DH_STANDARD ? "mixed standard" : "mixed modified", convention, 5);
}

static void test_offsets_prismatic_fixed(void **state) {
    (void)state;
    for (int c = 0; c < 2; ++c) {
        test_robot r;
        mixed_robot(&r, c ? REACH_DH_MODIFIED : REACH_DH_STANDARD);
        assert_int_equal(r.dof, 4);
        assert_int_equal(r.joints[2].type, REACH_JOINT_FIXED);
        assert_int_equal(r.joints[1].type, REACH_JOINT_PRISMATIC);
        assert_int_equal(r.joints[5].type, REACH_JOINT_FIXED);
        ASSERT_NEAR(r.joints[3].min, -5, 0, "revolute min");
        ASSERT_NEAR(r.joints[1].max, 0.5, 0, "prismatic max");
        check_against_reference(&r, 0x313 + (uint64_t)c);
        /* Joint values survive pose and back: prismatic exactly, hinges as rotations. */
        test_rng rng = test_rng_make(0x777);
        for (int k = 0; k < 200; ++k) {
            reach_real values[4], back[4];
            robot_random_values(&r, &rng, values);
            reach_transform pose[ROBOT_MAX_ROWS + 1];
            reach_pose_rest(&r.skeleton, pose);
            assert_int_equal(reach_pose_set_values(&r.skeleton, values, 4, 0, pose), REACH_OK);
            reach_pose_get_values(&r.skeleton, pose, back);
            for (int i = 0; i < 4; ++i) {
                double d = (double)(back[i] - values[i]);
                if (r.joints[i == 0 ? 0 : i == 1 ? 1 : i == 2 ? 3 : 4].type == REACH_JOINT_HINGE)
                    d = remainder(d, 2 * ROBOT_PI);
                ASSERT_NEAR(d, 0, 8 * TEST_LENGTH_TOL, "joint value round trip");
            }
        }
    }
}

static void test_rest_is_the_offset_pose(void **state) {
    (void)state;
    /* With every joint value 0 the rest pose is the table itself: FK of rest = reference at q = 0. */
    test_robot r;
    mixed_robot(&r, REACH_DH_STANDARD);
    reach_transform world[ROBOT_MAX_ROWS + 1];
    reach_forward_kinematics(&r.skeleton, r.rest, world);
    const double q[4] = {0};
    robot_frame expected = robot_reference_fk(&r, q);
    check_frame(&world[r.tool], &expected, 8 * TEST_LENGTH_TOL, "rest");
    assert_int_equal(reach_skeleton_validate(&r.skeleton, NULL), REACH_OK);
}

static void test_names(void **state) {
    (void)state;
    test_robot r;
    robot_ur5(&r);
    char buffer[16];
    assert_string_equal(reach_dh_bone_name(&r.table, 0, buffer, sizeof buffer), "joint1");
    assert_string_equal(reach_dh_bone_name(&r.table, 5, buffer, sizeof buffer), "joint6");
    assert_string_equal(reach_dh_bone_name(&r.table, 6, buffer, sizeof buffer), "tool");
    assert_string_equal(reach_dh_bone_name(&r.table, 7, buffer, sizeof buffer), "");
    assert_string_equal(reach_dh_bone_name(&r.table, -1, buffer, sizeof buffer), "");
    assert_string_equal(reach_dh_bone_name(&r.table, 2, buffer, 4), "joi"); /* truncated */
    assert_string_equal(reach_dh_bone_name(&r.table, 2, NULL, 0), "");
    r.rows[1].name = "shoulder";
    r.table.tool_name = "flange";
    assert_string_equal(reach_dh_bone_name(&r.table, 1, buffer, sizeof buffer), "shoulder");
    assert_string_equal(reach_dh_bone_name(&r.table, 6, buffer, sizeof buffer), "flange");
    assert_int_equal(reach_dh_bone_count(&r.table), 7);
    assert_int_equal(reach_dh_bone_count(NULL), 0);
}

/* A bad table is refused before anything is written. */
static reach_status build_into_canary(const reach_dh_table *table, int capacity, int *bad_row) {
    int parents[4];
    reach_transform rest[4];
    reach_joint joints[4];
    reach_skeleton skeleton;
    memset(parents, 0x5a, sizeof parents);
    memset(rest, 0x5a, sizeof rest);
    memset(joints, 0x5a, sizeof joints);
    memset(&skeleton, 0x5a, sizeof skeleton);
    int canary[4];
    reach_transform canary_rest[4];
    memcpy(canary, parents, sizeof parents);
    memcpy(canary_rest, rest, sizeof rest);
    reach_status st = reach_dh_build(table, parents, rest, joints, capacity, &skeleton, bad_row);
    if (st != REACH_OK) {
        assert_true(test_bytes_equal(parents, canary, sizeof parents));
        assert_true(test_bytes_equal(rest, canary_rest, sizeof rest));
    }
    return st;
}

static void test_validation(void **state) {
    (void)state;
    reach_dh_row rows[3] = {reach_dh_default_row(), reach_dh_default_row(), reach_dh_default_row()};
    reach_dh_table table = {REACH_DH_STANDARD, 3, rows, NULL};
    int bad = -1;
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_OK);
    assert_int_equal(build_into_canary(&table, 3, &bad), REACH_ERROR_BUFFER_TOO_SMALL);

    rows[1].d = (reach_real)NAN;
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_ERROR_NOT_FINITE);
    assert_int_equal(bad, 1);
    rows[1].d = 0;
    rows[2].max = (reach_real)INFINITY;
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_ERROR_NOT_FINITE);
    assert_int_equal(bad, 2);
    rows[2].max = 1;
    rows[2].min = 2;
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_ERROR_BAD_JOINT);
    rows[2].min = -7; /* beyond −2π */
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_ERROR_BAD_JOINT);
    rows[2].type = REACH_DH_PRISMATIC; /* the same range is fine for a slide */
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_OK);
    rows[2].type = (reach_dh_joint_type)9;
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_ERROR_INVALID_ARGUMENT);
    rows[2].type = REACH_DH_FIXED;
    table.convention = (reach_dh_convention)5;
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_ERROR_INVALID_ARGUMENT);
    table.convention = REACH_DH_MODIFIED;
    table.row_count = 0;
    assert_int_equal(build_into_canary(&table, 4, &bad), REACH_ERROR_INVALID_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ur5),
        cmocka_unit_test(test_iiwa14),
        cmocka_unit_test(test_panda),
        cmocka_unit_test(test_offsets_prismatic_fixed),
        cmocka_unit_test(test_rest_is_the_offset_pose),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_validation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
