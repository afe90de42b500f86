/* Joint limits: angle clamping, swing-twist, projections onto each joint type, the limit error,
 * and aiming a bone as nearly as its joint allows. */
#include "test_fabrik_rigs.h"

#define CASES 20000

#ifdef REACH_DOUBLE
#define ANGLE_TOL 1e-9
#else
#define ANGLE_TOL 2e-5
#endif

static reach_real angle_between_vectors(reach_vec3 a, reach_vec3 b) {
    return reach_atan2(reach_vec3_length(reach_vec3_cross(a, b)), reach_vec3_dot(a, b));
}

/* A random joint of the given type with a random unit axis and random ranges. */
static reach_joint random_joint(test_rng *rng, reach_joint_type type) {
    reach_vec3 axis = test_unit_vec3(rng);
    reach_real a = test_uniform(rng, -REACH_PI, REACH_PI), b = test_uniform(rng, -REACH_PI, REACH_PI);
    reach_real lo = reach_min(a, b), hi = reach_max(a, b);
    switch (type) {
    case REACH_JOINT_HINGE: return reach_joint_hinge(axis, lo, hi);
    case REACH_JOINT_CONE: return reach_joint_cone_twist(axis, test_uniform(rng, 0, REACH_PI), lo, hi);
    case REACH_JOINT_PRISMATIC: return reach_joint_prismatic(axis, lo, hi);
    case REACH_JOINT_FIXED: return reach_joint_fixed();
    case REACH_JOINT_BALL: break;
    }
    return reach_joint_ball();
}

static reach_real limit_error_of_delta(const reach_joint *joint, reach_quat delta) {
    reach_transform rest = reach_transform_identity(), local = reach_transform_make(delta, reach_vec3_zero());
    return reach_joint_limit_error(joint, &rest, &local);
}

/* ---- angles ----------------------------------------------------------------------------- */

static void angle_clamp_cases(void **state) {
    (void)state;
    ASSERT_NEAR(reach_angle_clamp(REACH_R(0.2), REACH_R(-0.5), REACH_R(0.5)), 0.2, 1e-7, "inside");
    ASSERT_NEAR(reach_angle_clamp(3, REACH_R(-0.5), REACH_R(0.5)), 0.5, 0, "nearer the upper end");
    ASSERT_NEAR(reach_angle_clamp(-3, REACH_R(-0.5), REACH_R(0.5)), -0.5, 0, "nearer the lower end");
    /* 3.5 is nearer -0.5 going on around the circle (2π − 4 ≈ 2.28 against 3.0). */
    ASSERT_NEAR(reach_angle_clamp(REACH_R(3.5), REACH_R(-0.5), REACH_R(0.5)), -0.5, 0, "around the circle");
    /* A whole turn away from the range is inside it. */
    ASSERT_NEAR(reach_angle_clamp(REACH_R(0.2) + 2 * REACH_PI, REACH_R(-0.5), REACH_R(0.5)), 0.2, 1e-5, "turn");
    ASSERT_NEAR(reach_angle_clamp(-3, 0, 2 * REACH_PI), 2 * REACH_PI - 3, 1e-5, "range beyond π");
    ASSERT_NEAR(reach_angle_clamp((reach_real)NAN, -1, 1), -1, 0, "NaN comes back as the lower end");
    test_rng rng = test_rng_make(1);
    for (int c = 0; c < CASES; ++c) {
        reach_real a = test_uniform(&rng, -3 * REACH_PI, 3 * REACH_PI);
        reach_real lo = test_uniform(&rng, -REACH_PI, REACH_PI), hi = lo + test_uniform(&rng, 0, REACH_PI);
        reach_real got = reach_angle_clamp(a, lo, hi);
        assert_true(got >= lo && got <= hi);
        /* No angle of the range is nearer around the circle than what came back. */
        reach_real got_gap = reach_fabs(reach_quat_twist_angle(
            reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), a - got), reach_vec3_make(0, 0, 1)));
        for (int k = 0; k <= 16; ++k) {
            reach_real other = lo + (hi - lo) * (reach_real)k / 16;
            reach_real gap = reach_fabs(reach_quat_twist_angle(
                reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), a - other), reach_vec3_make(0, 0, 1)));
            assert_true(got_gap <= gap + 1e-4);
        }
    }
}

static void swing_twist_rebuilds_rotation(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2);
    for (int c = 0; c < CASES; ++c) {
        reach_quat q = test_unit_quat(&rng);
        reach_vec3 axis = test_unit_vec3(&rng);
        reach_quat swing, twist;
        reach_quat_swing_twist(q, axis, &swing, &twist);
        ASSERT_QUAT_NEAR(reach_quat_mul(swing, twist), q, 1e-5, "swing · twist");
        /* The twist turns about the axis; the swing about an axis across it. */
        ASSERT_NEAR(reach_vec3_length(reach_vec3_cross(reach_vec3_make(twist.x, twist.y, twist.z), axis)), 0, 1e-5,
                    "twist axis");
        ASSERT_NEAR(swing.x * axis.x + swing.y * axis.y + swing.z * axis.z, 0, 1e-5, "swing across the axis");
    }
    /* A half turn across the axis has no twist. */
    reach_quat half = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_PI);
    reach_quat twist;
    reach_quat_swing_twist(half, reach_vec3_make(0, 1, 0), NULL, &twist);
    ASSERT_QUAT_NEAR(twist, reach_quat_identity(), TEST_REACH_TOL, "undefined twist is the identity");
}

/* ---- projections ------------------------------------------------------------------------ */

static void projection_lands_inside_and_is_idempotent(void **state) {
    (void)state;
    static const reach_joint_type types[] = {REACH_JOINT_BALL, REACH_JOINT_HINGE, REACH_JOINT_CONE,
                                             REACH_JOINT_PRISMATIC, REACH_JOINT_FIXED};
    test_rng rng = test_rng_make(3);
    for (int c = 0; c < CASES; ++c) {
        reach_joint joint = random_joint(&rng, types[c % 5]);
        reach_transform rest = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 2));
        reach_transform local = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 4));
        reach_transform p = local, again;
        int clamped = reach_joint_project_local(&joint, &rest, &p);
        reach_real error = reach_joint_limit_error(&joint, &rest, &p);
        if (!(error <= ANGLE_TOL)) fail_msg("joint type %d: %g outside after projection", joint.type, (double)error);
        again = p;
        reach_joint_project_local(&joint, &rest, &again);
        ASSERT_QUAT_NEAR(again.rotation, p.rotation, TEST_REACH_TOL, "projecting twice");
        ASSERT_VEC3_NEAR(again.translation, p.translation, 1e-5, "projecting twice");
        /* What is allowed comes back unchanged. */
        if (reach_joint_limit_error(&joint, &rest, &local) == 0)
            ASSERT_QUAT_NEAR(p.rotation, local.rotation, TEST_REACH_TOL, "kept");
        if (joint.type == REACH_JOINT_BALL) assert_int_equal(clamped, 0);
        /* The rotation-only form agrees with the whole-transform one. */
        reach_quat rotation;
        reach_joint_project_rotation(&joint, rest.rotation, local.rotation, &rotation);
        ASSERT_QUAT_NEAR(rotation, p.rotation, TEST_REACH_TOL, "rotation form");
    }
}

static void hinge_projection_keeps_nearest_angle(void **state) {
    (void)state;
    test_rng rng = test_rng_make(4);
    for (int c = 0; c < CASES; ++c) {
        reach_joint joint = random_joint(&rng, REACH_JOINT_HINGE);
        reach_real angle = test_uniform(&rng, -REACH_PI, REACH_PI);
        /* A pure hinge turn, with a swing across the axis added that the hinge must drop. */
        reach_quat turn = reach_quat_from_axis_angle(joint.axis, angle);
        reach_vec3 across = reach_vec3_any_perpendicular(joint.axis);
        reach_quat q = reach_quat_mul(reach_quat_from_axis_angle(across, test_uniform(&rng, -1, 1)), turn), p;
        int clamped = reach_joint_project_delta(&joint, q, &p);
        reach_real expected = reach_angle_clamp(angle, joint.min, joint.max);
        ASSERT_QUAT_NEAR(p, reach_quat_from_axis_angle(joint.axis, expected), TEST_REACH_TOL, "hinge angle");
        assert_int_equal(clamped, angle < joint.min || angle > joint.max);
    }
}

static void cone_projection_is_nearest_direction(void **state) {
    (void)state;
    test_rng rng = test_rng_make(5);
    for (int c = 0; c < CASES; ++c) {
        reach_vec3 axis = test_unit_vec3(&rng);
        reach_joint joint = reach_joint_cone(axis, test_uniform(&rng, 0, REACH_PI));
        reach_quat q = test_unit_quat(&rng), p;
        reach_joint_project_delta(&joint, q, &p);
        /* Without twist limits the axis ends on the cone at the point nearest where q took it. */
        reach_vec3 wanted = reach_quat_rotate(q, axis), got = reach_quat_rotate(p, axis);
        reach_real off = angle_between_vectors(axis, wanted);
        ASSERT_NEAR(angle_between_vectors(got, wanted), reach_max(0, off - joint.cone_angle), 1e-4, "nearest");
        /* and the twist about the axis is the one q had. */
        ASSERT_NEAR(reach_quat_twist_angle(p, axis), reach_quat_twist_angle(q, axis), 2e-4, "twist kept");
    }
}

static void prismatic_and_fixed_locals(void **state) {
    (void)state;
    reach_transform rest = reach_transform_make(reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_PI / 2),
                                                reach_vec3_make(1, 2, 3));
    reach_joint slider = reach_joint_prismatic(reach_vec3_make(1, 0, 0), -1, REACH_R(0.5));
    /* The axis is in the rest frame: rotated a quarter turn about z, +x points along world +y. */
    reach_transform local =
        reach_transform_make(reach_quat_mul(rest.rotation, reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), 1)),
                             reach_vec3_make(REACH_R(1.3), 4, 3));
    /* Offset 2 along the axis (0.3 off it), 1.5 past max, and a 1 rad turn it may not have. */
    ASSERT_NEAR(reach_joint_limit_error(&slider, &rest, &local), 1.5, 1e-5, "worst of the violations");
    assert_int_equal(reach_joint_project_local(&slider, &rest, &local), 1);
    ASSERT_VEC3_NEAR(local.translation, reach_vec3_make(1, REACH_R(2.5), 3), 1e-5, "offset clamped on the axis");
    ASSERT_QUAT_NEAR(local.rotation, rest.rotation, TEST_REACH_TOL, "slider keeps the rest rotation");
    ASSERT_NEAR(reach_joint_limit_error(&slider, &rest, &local), 0, 1e-5, "slider inside");

    reach_joint fixed = reach_joint_fixed();
    local = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, 0, 0));
    assert_true(reach_joint_limit_error(&fixed, &rest, &local) > 1);
    assert_int_equal(reach_joint_project_local(&fixed, &rest, &local), 0);
    ASSERT_VEC3_NEAR(local.translation, rest.translation, 0, "fixed at rest");
    ASSERT_NEAR(reach_joint_limit_error(&fixed, &rest, &local), 0, 1e-6, "fixed inside");
}

static void limit_error_cases(void **state) {
    (void)state;
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    reach_joint hinge = reach_joint_hinge(z, -1, REACH_R(0.5));
    ASSERT_NEAR(limit_error_of_delta(&hinge, reach_quat_from_axis_angle(z, REACH_R(0.7))), 0.2, 1e-5, "past max");
    ASSERT_NEAR(limit_error_of_delta(&hinge, reach_quat_from_axis_angle(z, REACH_R(-0.2))), 0, 0, "inside");
    ASSERT_NEAR(limit_error_of_delta(&hinge, reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(0.3))), 0.3,
                1e-5, "swing a hinge may not have");
    reach_joint cone = reach_joint_cone_twist(z, REACH_R(0.4), REACH_R(-0.1), REACH_R(0.1));
    ASSERT_NEAR(limit_error_of_delta(&cone, reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), REACH_R(0.5))), 0.1,
                1e-5, "past the cone");
    ASSERT_NEAR(limit_error_of_delta(&cone, reach_quat_from_axis_angle(z, REACH_R(0.25))), 0.15, 1e-5, "twist");

    /* Over a pose: the worst bone. */
    rig r;
    test_rng rng = test_rng_make(6);
    rig_random_chain(&r, &rng, 4, 1);
    r.joints[2] = hinge;
    rig_finish(&r, 5, 1);
    reach_transform pose[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    int worst;
    ASSERT_NEAR(reach_pose_limit_error(&r.skeleton, pose, &worst), 0, 1e-6, "rest is inside");
    r.skeleton.joints = NULL; /* all ball joints: nothing can be outside */
    ASSERT_NEAR(reach_pose_limit_error(&r.skeleton, pose, &worst), 0, 0, "ball joints");
    assert_int_equal(worst, -1);
    r.skeleton.joints = r.joints;
    pose[2].rotation = reach_quat_mul(r.rest[2].rotation, reach_quat_from_axis_angle(z, 1));
    ASSERT_NEAR(reach_pose_limit_error(&r.skeleton, pose, &worst), 0.5, 1e-5, "hinge past max");
    assert_int_equal(worst, 2);
}

/* A slide whose range runs to the end of reach_real: measured and projected without overflow at
 * any offset along it (a rotation doubles its vector on the way; the offset is turned at a
 * scale that cannot overflow; found by fuzz_jacobian, seed prismatic_at_the_end_of_the_range).
 * 400 seeded rest rotations and axes, offsets from 1 to the end of the range; then a difference
 * that overflows. */
static void slides_to_the_end_of_the_range(void **state) {
    (void)state;
    const double end = TEST_END_OF_RANGE;
    test_rng rng = test_rng_make(0x5117);
    for (int c = 0; c < 400; ++c) {
        reach_vec3 axis = test_unit_vec3(&rng);
        reach_real value = (reach_real)(end * pow(10, -test_uniform_double(&rng, 0, log10(end))));
        reach_joint slide = reach_joint_prismatic(axis, 0, (reach_real)end);
        reach_transform rest = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 2));
        reach_transform local = rest;
        local.translation = reach_vec3_mad(rest.translation, reach_quat_rotate(rest.rotation, axis), value);
        if (!reach_vec3_is_finite(local.translation)) continue;
        reach_real error = reach_joint_limit_error(&slide, &rest, &local);
        /* On the axis and inside the range: a few roundings of the offset at most. */
        assert_true(reach_is_finite(error));
        assert_true((double)error <= 64 * (double)REACH_REAL_EPSILON * (double)value + 1e-3);
        reach_transform projected = local;
        reach_joint_project_local(&slide, &rest, &projected);
        assert_true(reach_vec3_is_finite(projected.translation));
        ASSERT_NEAR(reach_vec3_length_robust(reach_vec3_sub(projected.translation, local.translation)), 0,
                    64 * REACH_REAL_EPSILON * (double)value + 1e-3, "projected in place");
    }
    /* A rest and a translation at opposite ends of the range: their difference overflows. The
     * offset is beyond the range (by more than reach_real holds), and projecting puts the slide
     * back on its end. */
    reach_joint both_ways = reach_joint_prismatic(reach_vec3_make(0, 1, 0), (reach_real)-end, (reach_real)end);
    reach_transform rest = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, (reach_real)(end * 0.9), 0));
    reach_transform local =
        reach_transform_make(reach_quat_identity(), reach_vec3_make(0, (reach_real)(-end * 0.9), 0));
    assert_true(reach_joint_limit_error(&both_ways, &rest, &local) > (reach_real)(end * 0.5));
    reach_joint_project_local(&both_ways, &rest, &local);
    assert_true(reach_vec3_is_finite(local.translation));
    ASSERT_NEAR(local.translation.y, (double)rest.translation.y - end, 1e-6 * end, "on the range's end");
}

/* ---- aiming ----------------------------------------------------------------------------- */

/* The world direction a local rotation points the bone along. */
static reach_vec3 pointing(reach_quat parent, reach_quat local, reach_vec3 bone) {
    return reach_vec3_normalize_safe(reach_quat_rotate(reach_quat_mul(parent, local), bone), reach_vec3_zero());
}

static void aim_ball_points_exactly_and_keeps_twist(void **state) {
    (void)state;
    test_rng rng = test_rng_make(7);
    reach_joint ball = reach_joint_ball();
    for (int c = 0; c < CASES; ++c) {
        reach_quat parent = test_unit_quat(&rng), rest = test_unit_quat(&rng), current = test_unit_quat(&rng), out;
        reach_vec3 bone = test_in_ball(&rng, 2), direction = test_in_ball(&rng, 3);
        assert_int_equal(reach_joint_aim(&ball, parent, rest, current, bone, direction, &out), 0);
        reach_vec3 want = reach_vec3_normalize_safe(direction, reach_vec3_zero());
        ASSERT_NEAR(angle_between_vectors(pointing(parent, out, bone), want), 0, 1e-3, "points along");
        /* The smallest swing: no turn about the bone's own line beyond what pointing needs. */
        reach_vec3 before = pointing(parent, current, bone);
        reach_quat turn =
            reach_quat_mul(reach_quat_mul(parent, out), reach_quat_conjugate(reach_quat_mul(parent, current)));
        ASSERT_NEAR(reach_quat_angle(turn), angle_between_vectors(before, want), 1e-3, "smallest swing");
    }
}

static void aim_hinge_finds_nearest_allowed_direction(void **state) {
    (void)state;
    test_rng rng = test_rng_make(8);
    for (int c = 0; c < 5000; ++c) {
        reach_joint hinge = random_joint(&rng, REACH_JOINT_HINGE);
        reach_quat parent = test_unit_quat(&rng), rest = test_unit_quat(&rng), out;
        reach_vec3 bone = test_unit_vec3(&rng), direction = test_unit_vec3(&rng);
        reach_joint_aim(&hinge, parent, rest, rest, bone, direction, &out);
        assert_true(limit_error_of_delta(&hinge, reach_quat_mul(reach_quat_conjugate(rest), out)) <= ANGLE_TOL);
        /* No angle in the range, sampled finely, points nearer. */
        reach_real got = angle_between_vectors(pointing(parent, out, bone), direction);
        for (int k = 0; k <= 400; ++k) {
            reach_real a = hinge.min + (hinge.max - hinge.min) * (reach_real)k / 400;
            reach_quat local = reach_quat_mul(rest, reach_quat_from_axis_angle(hinge.axis, a));
            assert_true(got <= angle_between_vectors(pointing(parent, local, bone), direction) + 1e-4);
        }
    }
}

static void aim_cone_along_axis_finds_nearest_direction(void **state) {
    (void)state;
    test_rng rng = test_rng_make(9);
    for (int c = 0; c < CASES; ++c) {
        reach_vec3 axis = test_unit_vec3(&rng);
        reach_joint cone = reach_joint_cone_twist(axis, test_uniform(&rng, 0, REACH_PI), REACH_R(-0.3), REACH_R(0.3));
        reach_quat parent = test_unit_quat(&rng), rest = test_unit_quat(&rng), out;
        reach_real sign = c % 2 ? 1 : -1; /* bones along the axis or against it */
        reach_vec3 bone = reach_vec3_scale(axis, sign * test_uniform(&rng, REACH_R(0.5), 2));
        reach_vec3 direction = test_unit_vec3(&rng);
        reach_quat current = reach_quat_mul(rest, test_unit_quat(&rng));
        reach_joint_aim(&cone, parent, rest, current, bone, direction, &out);
        assert_true(limit_error_of_delta(&cone, reach_quat_mul(reach_quat_conjugate(rest), out)) <= ANGLE_TOL);
        /* The bone's rest direction in the world, and how far the wanted direction is from it. */
        reach_vec3 rest_dir = pointing(parent, rest, bone);
        reach_real off = angle_between_vectors(rest_dir, direction);
        ASSERT_NEAR(angle_between_vectors(pointing(parent, out, bone), direction), reach_max(0, off - cone.cone_angle),
                    1e-3, "nearest on the cone");
    }
}

static void aim_zero_direction_keeps_projected_current(void **state) {
    (void)state;
    reach_joint hinge = reach_joint_hinge(reach_vec3_make(0, 0, 1), 0, REACH_R(0.5));
    reach_quat current = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), 1), out;
    assert_int_equal(reach_joint_aim(&hinge, reach_quat_identity(), reach_quat_identity(), current,
                                     reach_vec3_make(0, 1, 0), reach_vec3_zero(), &out),
                     1);
    ASSERT_QUAT_NEAR(out, reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(0.5)), TEST_REACH_TOL,
                     "projected");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(angle_clamp_cases),
        cmocka_unit_test(swing_twist_rebuilds_rotation),
        cmocka_unit_test(projection_lands_inside_and_is_idempotent),
        cmocka_unit_test(hinge_projection_keeps_nearest_angle),
        cmocka_unit_test(cone_projection_is_nearest_direction),
        cmocka_unit_test(prismatic_and_fixed_locals),
        cmocka_unit_test(limit_error_cases),
        cmocka_unit_test(slides_to_the_end_of_the_range),
        cmocka_unit_test(aim_ball_points_exactly_and_keeps_twist),
        cmocka_unit_test(aim_hinge_finds_nearest_allowed_direction),
        cmocka_unit_test(aim_cone_along_axis_finds_nearest_direction),
        cmocka_unit_test(aim_zero_direction_keeps_projected_current),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
