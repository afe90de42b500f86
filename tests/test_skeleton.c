/* The skeleton model: validation errors by name, forward kinematics against a hand-built
 * chain, joint values, chains, and positions back to rotations by a forward-kinematics round
 * trip. */
#include <string.h>

#include "test_support.h"

#define MAX_BONES 64

typedef struct rig {
    int parents[MAX_BONES];
    reach_transform rest[MAX_BONES];
    reach_joint joints[MAX_BONES];
    reach_skeleton skeleton;
} rig;

/* A chain of n bones along +y, each `length` long, all ball joints. */
static void make_chain(rig *r, int n, reach_real length) {
    for (int i = 0; i < n; ++i) {
        r->parents[i] = i - 1;
        r->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, i == 0 ? 0 : length, 0));
        r->joints[i] = reach_joint_ball();
    }
    r->skeleton.bone_count = n;
    r->skeleton.parents = r->parents;
    r->skeleton.rest = r->rest;
    r->skeleton.joints = r->joints;
}

static void validation_names_each_error(void **state) {
    (void)state;
    rig r;
    make_chain(&r, 4, 1);
    int bad = -1;
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_OK);

    r.parents[2] = 3; /* parent after child: also how a cycle shows in parents-first order */
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_PARENT);
    assert_int_equal(bad, 2);
    r.parents[2] = 2; /* its own parent */
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_PARENT);
    r.parents[2] = -2;
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_PARENT);
    make_chain(&r, 4, 1);
    r.rest[1].translation.x = (reach_real)NAN;
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_NOT_FINITE);
    assert_int_equal(bad, 1);
    make_chain(&r, 4, 1);
    r.rest[3].rotation = reach_quat_make(0, 0, 0, 0);
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_QUATERNION);
    r.rest[3].rotation = reach_quat_make(0, 0, 1, 1); /* not unit: FK would scale the bone */
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_QUATERNION);
    make_chain(&r, 4, 1);
    r.joints[1] = reach_joint_hinge(reach_vec3_make(0, 0, 2), -1, 1); /* not a unit axis */
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_JOINT);
    r.joints[1] = reach_joint_hinge(reach_vec3_make(0, 0, 1), 1, -1); /* inverted limits */
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_JOINT);
    r.joints[1] = reach_joint_cone(reach_vec3_make(0, 1, 0), 4); /* beyond a half turn */
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_JOINT);
    r.joints[1] = reach_joint_cone_twist(reach_vec3_make(0, 1, 0), 1, REACH_R(0.5), -REACH_R(0.5));
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_JOINT);
    r.joints[1] = reach_joint_prismatic(reach_vec3_make(0, 0, 1), 0, (reach_real)INFINITY);
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_NOT_FINITE);
    r.joints[1].type = (reach_joint_type)42;
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_BAD_JOINT);
    r.skeleton.bone_count = -1;
    assert_int_equal(reach_skeleton_validate(&r.skeleton, &bad), REACH_ERROR_INVALID_ARGUMENT);
}

static void forward_kinematics_matches_composed_transforms(void **state) {
    (void)state;
    test_rng rng = test_rng_make(20);
    for (int n = 0; n < 2000; ++n) {
        rig r;
        int count = 1 + (int)(test_rng_next(&rng) % MAX_BONES);
        make_chain(&r, count, 1);
        /* A random tree: any earlier bone may be the parent. */
        for (int i = 1; i < count; ++i)
            r.parents[i] = (int)(test_rng_next(&rng) % (uint64_t)i);
        reach_transform local[MAX_BONES], world[MAX_BONES];
        for (int i = 0; i < count; ++i)
            local[i] = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 2));
        reach_forward_kinematics(&r.skeleton, local, world);
        for (int i = 0; i < count; ++i) {
            /* Walk to the root and compose by hand, point by point. */
            reach_vec3 p = reach_vec3_zero(), axis = reach_vec3_make(1, 0, 0);
            reach_vec3 tip = axis;
            for (int b = i; b >= 0; b = r.parents[b]) {
                p = reach_transform_point(local[b], p);
                tip = reach_transform_point(local[b], tip);
            }
            ASSERT_VEC3_NEAR(world[i].translation, p, TEST_REACH_TOL * 200, "joint position");
            ASSERT_VEC3_NEAR(reach_transform_point(world[i], axis), tip, TEST_REACH_TOL * 200, "joint frame");
        }
    }
}

static void joint_values_round_trip_and_respect_limits(void **state) {
    (void)state;
    rig r;
    make_chain(&r, 5, 1);
    r.rest[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(0.3));
    r.joints[1] = reach_joint_hinge(reach_vec3_make(0, 0, 1), -2, 1);
    r.joints[2] = reach_joint_prismatic(reach_vec3_make(0, 1, 0), 0, REACH_R(0.5));
    r.joints[3] = reach_joint_fixed();
    r.joints[4] = reach_joint_hinge(reach_vec3_make(1, 0, 0), -1, 1);
    assert_int_equal(reach_skeleton_validate(&r.skeleton, NULL), REACH_OK);
    assert_int_equal(reach_skeleton_value_count(&r.skeleton), 3);

    reach_transform pose[5];
    reach_pose_rest(&r.skeleton, pose);
    const reach_real values[3] = {REACH_R(-1.5), REACH_R(0.25), REACH_R(0.75)};
    assert_int_equal(reach_pose_set_values(&r.skeleton, values, 3, 0, pose), REACH_OK);
    reach_real back[3];
    reach_pose_get_values(&r.skeleton, pose, back);
    for (int i = 0; i < 3; ++i)
        ASSERT_NEAR(back[i], values[i], TEST_REACH_TOL * 10, "value round trip");
    /* The hinge turned about its axis in its rest frame: the next bone's offset moved so. */
    reach_transform world[5];
    reach_forward_kinematics(&r.skeleton, pose, world);
    reach_vec3 expected = reach_quat_rotate(
        reach_quat_mul(r.rest[1].rotation, reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(-1.5))),
        reach_vec3_make(0, 1 + REACH_R(0.25), 0));
    ASSERT_VEC3_NEAR(reach_vec3_sub(world[2].translation, world[1].translation), expected, TEST_REACH_TOL * 10,
                     "hinge then prismatic");

    /* Out of limits: an error with the pose untouched, or clamped on request. */
    reach_transform saved[5];
    memcpy(saved, pose, sizeof pose);
    const reach_real too_far[3] = {REACH_R(-2.5), 0, 0};
    assert_int_equal(reach_pose_set_values(&r.skeleton, too_far, 3, 0, pose), REACH_ERROR_INVALID_ARGUMENT);
    assert_true(test_bytes_equal(pose, saved, sizeof pose));
    const reach_real not_finite[3] = {0, (reach_real)NAN, 0};
    assert_int_equal(reach_pose_set_values(&r.skeleton, not_finite, 3, 1, pose), REACH_ERROR_NOT_FINITE);
    assert_true(test_bytes_equal(pose, saved, sizeof pose));
    assert_int_equal(reach_pose_set_values(&r.skeleton, too_far, 2, 1, pose), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_pose_set_values(&r.skeleton, too_far, 3, 1, pose), REACH_OK);
    reach_pose_get_values(&r.skeleton, pose, back);
    ASSERT_NEAR(back[0], -2, TEST_REACH_TOL * 10, "clamped to the hinge's minimum");
}

/* A hinge whose range reaches past pi reads back inside its range, so values round-trip. */
static void hinge_values_read_back_inside_their_range(void **state) {
    (void)state;
    rig r;
    make_chain(&r, 2, 1);
    r.joints[1] = reach_joint_hinge(reach_vec3_make(0, 0, 1), REACH_R(-0.5), REACH_R(3.75));
    reach_transform pose[2];
    reach_pose_rest(&r.skeleton, pose);
    const reach_real wide[1] = {REACH_R(3.5)};
    assert_int_equal(reach_pose_set_values(&r.skeleton, wide, 1, 0, pose), REACH_OK);
    reach_real back[1];
    reach_pose_get_values(&r.skeleton, pose, back);
    ASSERT_NEAR(back[0], 3.5, TEST_REACH_TOL * 10, "angle past pi stays in the range");
    assert_int_equal(reach_pose_set_values(&r.skeleton, back, 1, 0, pose), REACH_OK);
}

/* A hinge's angle reads alike whatever the scale of its rotations: rotations of everyday size are
 * read as given (the twist angle ignores scale), very small or large ones made unit first, and
 * a rotation of zero reads as the rest pose's angle, as a unit one would. */
static void hinge_values_read_alike_at_any_scale(void **state) {
    (void)state;
    rig r;
    make_chain(&r, 2, 1);
    r.rest[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(0.3));
    r.joints[1] = reach_joint_hinge(reach_vec3_make(0, 0, 1), -3, 3);
    reach_transform pose[2];
    reach_pose_rest(&r.skeleton, pose);
    const reach_real angle[1] = {REACH_R(1.25)};
    assert_int_equal(reach_pose_set_values(&r.skeleton, angle, 1, 0, pose), REACH_OK);
    reach_quat unit = pose[1].rotation;
    const reach_real scales[] = {1, REACH_R(0.5), 3, REACH_R(1e-3), REACH_R(1e-20), REACH_R(1e20)};
    for (size_t k = 0; k < sizeof scales / sizeof scales[0]; ++k) {
        reach_real s = scales[k];
        pose[1].rotation = reach_quat_make(unit.x * s, unit.y * s, unit.z * s, unit.w * s);
        reach_real back[1];
        reach_pose_get_values(&r.skeleton, pose, back);
        ASSERT_NEAR(back[0], 1.25, TEST_REACH_TOL * 10, "the angle at any scale");
    }
    pose[1].rotation = reach_quat_make(0, 0, 0, 0);
    reach_real back[1];
    reach_pose_get_values(&r.skeleton, pose, back);
    ASSERT_NEAR(back[0], 0, TEST_REACH_TOL * 10, "a rotation of zero reads as rest");
}

/* Sets the one hinge of a two-bone rig to value from its rest pose and reads it back. */
static reach_real hinge_read_back(const rig *r, reach_real value) {
    reach_transform pose[2];
    reach_pose_rest(&r->skeleton, pose);
    const reach_real set[1] = {value};
    assert_int_equal(reach_pose_set_values(&r->skeleton, set, 1, 0, pose), REACH_OK);
    reach_real back[1];
    reach_pose_get_values(&r->skeleton, pose, back);
    return back[0];
}

/* A value set on an end of its range reads back inside the range, as the same turn, and sets
 * again unclamped: for ranges with an end past pi, where the angle read from the rotation is a
 * whole turn off and, a rounding past the end, used to be left outside the range (tens of the
 * 20 000 ends of a sweep like this one), and an axis off the coordinate axes. */
static void values_on_the_ends_of_their_ranges_read_back_inside(void **state) {
    (void)state;
    rig r;
    make_chain(&r, 2, 1);
    r.rest[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(0.3));
    for (int i = 0; i < 4000; ++i) {
        int at_max = i % 2 == 0;
        reach_real far_end = (reach_real)(3.2 + 3.0 * (i / 2) / 2000.0);
        reach_real lo = at_max ? -1 : -far_end, hi = at_max ? far_end : 1;
        r.joints[1] = reach_joint_hinge(reach_vec3_make(REACH_R(0.6), REACH_R(0.8), 0), lo, hi);
        reach_real end = at_max ? hi : lo, back = hinge_read_back(&r, end);
        assert_true(back >= lo && back <= hi);
        /* The same turn (a range wider than a turn holds it twice; either is right). */
        double off = remainder((double)back - (double)end, 2 * 3.14159265358979323846);
        ASSERT_NEAR(off, 0, TEST_REACH_TOL * 10, "the end read back");
        reach_transform pose[2];
        reach_pose_rest(&r.skeleton, pose);
        assert_int_equal(reach_pose_set_values(&r.skeleton, &back, 1, 0, pose), REACH_OK);
    }
    /* Ranges a hair short of a whole turn (2π less 4 to 60 roundings of π): both ends are the
     * same rotation but for the hair, and a value set on either end reads back as that end,
     * not as the other (it read the minimum as the maximum in one case of thirteen). */
    test_rng rng = test_rng_make(0x5e7e);
    for (int i = 0; i < 4000; ++i) {
        reach_real hair = test_uniform(&rng, 4, 60) * REACH_REAL_EPSILON * REACH_PI;
        reach_real lo = test_uniform(&rng, REACH_R(-3.1), -2), hi = lo + (2 * REACH_PI - hair);
        r.joints[1] = reach_joint_hinge(
            i % 3 ? reach_vec3_make(0, 0, 1) : reach_vec3_make(REACH_R(0.6), REACH_R(0.8), 0), lo, hi);
        reach_real end = i % 2 ? hi : lo, back = hinge_read_back(&r, end);
        if (!(reach_fabs(back - end) <= TEST_REACH_TOL * 10))
            fail_msg("range [%.9g, %.9g]: %.9g read back as %.9g", (double)lo, (double)hi, (double)end, (double)back);
    }
}

static void chains_are_found_root_first(void **state) {
    (void)state;
    rig r;
    make_chain(&r, 6, 1);
    r.parents[4] = 1; /* a branch: 0-1-2-3 and 1-4-5 */
    r.parents[5] = 4;
    int bones[6], count = 0;
    assert_int_equal(reach_chain_find(&r.skeleton, 0, 5, bones, 6, &count), REACH_OK);
    assert_int_equal(count, 4);
    assert_int_equal(bones[0], 0);
    assert_int_equal(bones[1], 1);
    assert_int_equal(bones[2], 4);
    assert_int_equal(bones[3], 5);
    assert_int_equal(reach_chain_find(&r.skeleton, 2, 5, bones, 6, &count), REACH_ERROR_BAD_CHAIN);
    assert_int_equal(reach_chain_find(&r.skeleton, 0, 9, bones, 6, &count), REACH_ERROR_BAD_CHAIN);
    assert_int_equal(reach_chain_find(&r.skeleton, 0, 3, bones, 2, &count), REACH_ERROR_BUFFER_TOO_SMALL);
    assert_int_equal(count, 4);
    assert_int_equal(reach_chain_find(&r.skeleton, 3, 3, bones, 6, &count), REACH_OK);
    assert_int_equal(count, 1);
}

/* Parents that reach_skeleton_validate refuses are refused on the way up too: a cycle (it
 * walked forever), a parent out of range (it read outside the array), a bone its own parent. The
 * chain's bones and the pose stay untouched. */
static void chains_refuse_bad_parents(void **state) {
    (void)state;
    const int bad[][3] = {{-1, 2, 1}, {-1, 0, 7}, {-1, 0, -3}, {-1, 0, 2}};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; ++b) {
        rig r;
        make_chain(&r, 3, 1);
        for (int i = 0; i < 3; ++i)
            r.parents[i] = bad[b][i];
        int bones[3] = {-9, -9, -9}, count = -9;
        assert_int_equal(reach_chain_find(&r.skeleton, 0, 2, bones, 3, &count), REACH_ERROR_BAD_PARENT);
        assert_int_equal(bones[0], -9);
        assert_int_equal(count, -9);
        const int chain[2] = {1, 2};
        reach_transform local[3], world[3], before[3];
        for (int i = 0; i < 3; ++i)
            local[i] = world[i] = reach_transform_identity();
        memcpy(before, local, sizeof before);
        const reach_vec3 positions[2] = {{0, 0, 0}, {0, 1, 0}};
        /* The chain 1 → 2: a bad parent of either bone is named before the chain's links are. */
        assert_int_equal(reach_chain_apply_positions(&r.skeleton, chain, 2, positions, local, world),
                         REACH_ERROR_BAD_PARENT);
        assert_memory_equal(before, local, sizeof before);
    }
}

/* Random new joint positions with the bone lengths kept (random directions), pushed back into
 * rotations, then forward kinematics must reproduce them; the tip keeps its world rotation. */
static void positions_back_to_rotations_round_trip(void **state) {
    (void)state;
    test_rng rng = test_rng_make(21);
    for (int n = 0; n < 5000; ++n) {
        rig r;
        int count = 2 + (int)(test_rng_next(&rng) % 30);
        make_chain(&r, count, 1);
        for (int i = 0; i < count; ++i)
            r.rest[i] = reach_transform_make(
                test_unit_quat(&rng),
                i == 0 ? test_in_ball(&rng, 3)
                       : reach_vec3_scale(test_unit_vec3(&rng), test_uniform(&rng, REACH_R(0.2), 2)));
        reach_transform local[MAX_BONES], world[MAX_BONES];
        reach_pose_rest(&r.skeleton, local);
        reach_forward_kinematics(&r.skeleton, local, world);
        reach_quat tip_rotation = world[count - 1].rotation;
        int chain[MAX_BONES];
        reach_vec3 positions[MAX_BONES];
        for (int k = 0; k < count; ++k)
            chain[k] = k;
        positions[0] = world[0].translation;
        for (int k = 1; k < count; ++k) {
            reach_real length = reach_vec3_length(r.rest[k].translation);
            positions[k] = reach_vec3_mad(positions[k - 1], test_unit_vec3(&rng), length);
        }
        assert_int_equal(reach_chain_apply_positions(&r.skeleton, chain, count, positions, local, world), REACH_OK);
        reach_transform check[MAX_BONES];
        reach_forward_kinematics(&r.skeleton, local, check);
        for (int k = 0; k < count; ++k) {
            ASSERT_VEC3_NEAR(check[k].translation, positions[k], TEST_REACH_TOL * 20 * (reach_real)count,
                             "FK reproduces the positions");
            ASSERT_VEC3_NEAR(check[k].translation, world[k].translation, TEST_REACH_TOL * 20 * (reach_real)count,
                             "world kept consistent");
        }
        ASSERT_QUAT_NEAR(check[count - 1].rotation, tip_rotation, TEST_REACH_TOL * 20, "tip keeps its rotation");
    }
}

/* The swing keeps twist: a bone whose direction does not change does not rotate. */
static void unchanged_direction_means_unchanged_rotation(void **state) {
    (void)state;
    rig r;
    make_chain(&r, 3, 1);
    r.rest[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), 1);
    reach_transform local[3], world[3];
    reach_pose_rest(&r.skeleton, local);
    reach_forward_kinematics(&r.skeleton, local, world);
    reach_vec3 positions[3] = {world[0].translation, world[1].translation, world[2].translation};
    int chain[3] = {0, 1, 2};
    reach_transform before[3];
    memcpy(before, local, sizeof local);
    assert_int_equal(reach_chain_apply_positions(&r.skeleton, chain, 3, positions, local, world), REACH_OK);
    for (int i = 0; i < 3; ++i)
        ASSERT_QUAT_NEAR(local[i].rotation, before[i].rotation, 1e-6, "no twist added");
    /* Bad input leaves the pose alone. */
    positions[2].y = (reach_real)INFINITY;
    reach_transform saved[3];
    memcpy(saved, local, sizeof local);
    assert_int_equal(reach_chain_apply_positions(&r.skeleton, chain, 3, positions, local, world),
                     REACH_ERROR_NOT_FINITE);
    assert_true(test_bytes_equal(local, saved, sizeof local));
    int not_a_chain[3] = {0, 2, 1};
    positions[2].y = 0;
    assert_int_equal(reach_chain_apply_positions(&r.skeleton, not_a_chain, 3, positions, local, world),
                     REACH_ERROR_BAD_CHAIN);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(validation_names_each_error),
        cmocka_unit_test(forward_kinematics_matches_composed_transforms),
        cmocka_unit_test(joint_values_round_trip_and_respect_limits),
        cmocka_unit_test(hinge_values_read_back_inside_their_range),
        cmocka_unit_test(hinge_values_read_alike_at_any_scale),
        cmocka_unit_test(values_on_the_ends_of_their_ranges_read_back_inside),
        cmocka_unit_test(chains_are_found_root_first),
        cmocka_unit_test(chains_refuse_bad_parents),
        cmocka_unit_test(positions_back_to_rotations_round_trip),
        cmocka_unit_test(unchanged_direction_means_unchanged_rotation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
