/* Aim of one bone: random points within the limits aimed exactly, points outside at the nearest
 * allowed aim (closed form: on the cone's rim, in the plane of the cone's axis and the target),
 * the pole, weight and twist, the degenerate cases by name, and bad input leaving the output
 * untouched. */
#include <math.h>
#include <string.h>

#include "test_support.h"

#define AIM_TOL REACH_R(1.745e-3) /* 0.1 degree */
#ifdef REACH_DOUBLE
#define ANGLE_TOL 1e-9
#else
#define ANGLE_TOL 2e-3f
#endif

static reach_real angle_between(reach_vec3 a, reach_vec3 b) {
    return reach_atan2(reach_vec3_length(reach_vec3_cross(a, b)), reach_vec3_dot(a, b));
}

/* A random local axis pair: forward, and an up at least 30 degrees away from it. */
static void random_axes(test_rng *rng, reach_aim_settings *s) {
    s->forward = reach_vec3_scale(test_unit_vec3(rng), test_uniform(rng, REACH_R(0.5), 2));
    do {
        s->up = test_unit_vec3(rng);
    } while (angle_between(s->up, s->forward) < REACH_R(0.5) || angle_between(s->up, s->forward) > REACH_R(2.6));
}

static reach_aim_output solve_ok(const reach_aim_input *in, const reach_aim_settings *s) {
    reach_aim_output out;
    memset(&out, 0, sizeof out);
    reach_status st = reach_aim_solve(in, s, &out);
    if (st != REACH_OK) fail_msg("aim failed: %s", reach_status_string(st));
    if (!reach_quat_is_finite(out.rotation) || !reach_is_finite(out.error)) fail_msg("aim gave NaN");
    ASSERT_NEAR(reach_quat_dot(out.rotation, out.rotation), 1, 1e-4, "unit rotation");
    return out;
}

static reach_vec3 unit(reach_vec3 v) { return reach_vec3_normalize_safe(v, reach_vec3_make(1, 0, 0)); }

/* Unlimited, with offsets: the ray passes through the target, and the up axis leans to the pole
 * (the two lie in one plane with the aim line, on the same side). */
static void unlimited_points_aimed_with_up_toward_pole(void **state) {
    (void)state;
    test_rng rng = test_rng_make(11);
    for (int i = 0; i < TEST_CASES; i++) {
        reach_aim_settings s = reach_aim_default_settings();
        random_axes(&rng, &s);
        s.offset = (i % 3 == 0) ? reach_vec3_zero() : test_in_ball(&rng, REACH_R(0.3));
        reach_aim_input in;
        in.joint = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 5));
        in.target =
            reach_vec3_add(in.joint.translation, reach_vec3_scale(test_unit_vec3(&rng), test_uniform(&rng, 1, 10)));
        in.pole = test_unit_vec3(&rng);
        in.reference = reach_quat_identity();
        reach_aim_output out = solve_ok(&in, &s);
        if (out.error > AIM_TOL) fail_msg("case %d: error %g rad", i, (double)out.error);
        if (!out.reached && out.error <= s.tolerance) fail_msg("reached flag");
        reach_vec3 axis = unit(reach_vec3_sub(in.target, in.joint.translation));
        reach_vec3 up = reach_vec3_reject(reach_quat_rotate(out.rotation, unit(s.up)), axis);
        reach_vec3 pole = reach_vec3_reject(in.pole, axis);
        if (reach_vec3_length(up) > REACH_R(0.05) && reach_vec3_length(pole) > REACH_R(0.05))
            ASSERT_NEAR(angle_between(up, pole), 0, 1e-3, "up toward the pole");
        ASSERT_QUAT_NEAR(reach_quat_mul(in.joint.rotation, out.correction), out.rotation, 1e-4, "correction");
    }
}

/* Without keep_up and without an offset, the turn is the smallest one. */
static void smallest_turn_without_up(void **state) {
    (void)state;
    test_rng rng = test_rng_make(12);
    for (int i = 0; i < TEST_CASES / 10; i++) {
        reach_aim_settings s = reach_aim_default_settings();
        random_axes(&rng, &s);
        s.keep_up = 0;
        reach_aim_input in;
        in.joint = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 5));
        in.target = reach_vec3_add(in.joint.translation, test_unit_vec3(&rng));
        in.pole = reach_vec3_make(0, 1, 0);
        in.reference = reach_quat_identity();
        reach_aim_output out = solve_ok(&in, &s);
        reach_vec3 from = reach_quat_rotate(in.joint.rotation, unit(s.forward));
        reach_vec3 to = unit(reach_vec3_sub(in.target, in.joint.translation));
        if (reach_vec3_dot(from, to) < REACH_R(-0.99)) continue; /* the half turn's axis is the up rule's */
        ASSERT_NEAR(reach_quat_angle(out.correction), angle_between(from, to), 1e-3, "smallest turn");
    }
}

/* An allowed rotation: the reference turned by a swing inside the cone and a twist in range. */
static reach_quat allowed_rotation(test_rng *rng, reach_quat reference, reach_vec3 forward,
                                   const reach_aim_settings *s) {
    reach_vec3 about = reach_vec3_any_perpendicular(forward);
    about = reach_quat_rotate(reach_quat_from_axis_angle(forward, test_uniform(rng, -REACH_PI, REACH_PI)), about);
    reach_quat swing = reach_quat_from_axis_angle(about, test_uniform(rng, 0, REACH_R(0.98)) * s->cone_angle);
    reach_quat twist = reach_quat_from_axis_angle(forward, test_uniform(rng, s->twist_min, s->twist_max));
    return reach_quat_mul(reference, reach_quat_mul(swing, twist));
}

static reach_real cone_turn(reach_quat rotation, reach_quat reference, reach_vec3 forward) {
    return angle_between(reach_quat_rotate(rotation, forward), reach_quat_rotate(reference, forward));
}

static void random_limits(test_rng *rng, reach_aim_settings *s) {
    s->limited = 1;
    s->cone_angle = test_uniform(rng, REACH_R(0.2), REACH_R(2.5));
    s->twist_min = test_uniform(rng, -REACH_PI, 0);
    s->twist_max = test_uniform(rng, 0, REACH_PI);
}

/* A limited bone in a rotation its limit allows; the target and pole left to the caller. */
static void limited_case(test_rng *rng, int keep_up, reach_aim_settings *s, reach_aim_input *in) {
    *s = reach_aim_default_settings();
    random_axes(rng, s);
    random_limits(rng, s);
    s->keep_up = keep_up;
    in->reference = test_unit_quat(rng);
    in->joint = reach_transform_make(allowed_rotation(rng, in->reference, unit(s->forward), s), test_in_ball(rng, 5));
}

/* Points inside the cone (from rotations the limit allows) are aimed within 0.1 degree, and the
 * result stays inside the limit. */
static void points_within_limits_aimed(void **state) {
    (void)state;
    test_rng rng = test_rng_make(13);
    for (int i = 0; i < TEST_CASES; i++) {
        reach_aim_settings s;
        reach_aim_input in;
        limited_case(&rng, i % 2, &s, &in);
        reach_vec3 forward = unit(s.forward);
        reach_quat goal = allowed_rotation(&rng, in.reference, forward, &s);
        in.target =
            reach_vec3_mad(in.joint.translation, reach_quat_rotate(goal, forward), test_uniform(&rng, REACH_R(0.5), 5));
        in.pole = test_unit_vec3(&rng);
        reach_aim_output out = solve_ok(&in, &s);
        if (out.error > AIM_TOL) fail_msg("case %d: error %g rad inside the cone", i, (double)out.error);
        if (cone_turn(out.rotation, in.reference, forward) > s.cone_angle + REACH_R(1e-3)) fail_msg("outside the cone");
        reach_quat delta = reach_quat_mul(reach_quat_conjugate(in.reference), out.rotation);
        reach_quat twist;
        reach_quat_swing_twist(delta, forward, NULL, &twist);
        reach_real t = reach_quat_twist_angle(twist, forward);
        if (t < s.twist_min - REACH_R(1e-3) || t > s.twist_max + REACH_R(1e-3)) fail_msg("twist out of range");
    }
}

/* Points outside the cone end at the nearest allowed aim: forward on the rim, as near the target's
 * direction as the rim comes (the angle to it is the target's angle from the axis less the cone). */
static void points_outside_end_at_nearest_allowed_aim(void **state) {
    (void)state;
    test_rng rng = test_rng_make(14);
    int checked = 0;
    for (int i = 0; i < TEST_CASES; i++) {
        reach_aim_settings s;
        reach_aim_input in;
        limited_case(&rng, i % 2, &s, &in);
        reach_vec3 forward = unit(s.forward);
        reach_vec3 way = test_unit_vec3(&rng);
        reach_real beyond = angle_between(way, reach_quat_rotate(in.reference, forward)) - s.cone_angle;
        if (beyond < REACH_R(0.01)) continue;
        in.target = reach_vec3_mad(in.joint.translation, way, 3);
        in.pole = test_unit_vec3(&rng);
        reach_aim_output out = solve_ok(&in, &s);
        ASSERT_NEAR(cone_turn(out.rotation, in.reference, forward), s.cone_angle, 1e-3, "on the rim");
        ASSERT_NEAR(out.error, beyond, 1e-3, "nearest allowed aim");
        if (!out.limited || out.reached) fail_msg("flags of a clamped aim");
        checked++;
    }
    if (checked < TEST_CASES / 4) fail_msg("too few points outside the cone: %d", checked);
}

/* Weight blends along the shortest way between the current and the aimed rotation; the twist
 * angle rolls about the aim line. */
static void weight_and_twist(void **state) {
    (void)state;
    test_rng rng = test_rng_make(15);
    for (int i = 0; i < TEST_CASES / 10; i++) {
        reach_aim_settings s = reach_aim_default_settings();
        random_axes(&rng, &s);
        reach_aim_input in;
        in.joint = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 5));
        in.target = reach_vec3_add(in.joint.translation, reach_vec3_scale(test_unit_vec3(&rng), 2));
        in.pole = test_unit_vec3(&rng);
        in.reference = reach_quat_identity();
        reach_aim_output full = solve_ok(&in, &s);
        s.weight = 0;
        ASSERT_QUAT_NEAR(solve_ok(&in, &s).rotation, in.joint.rotation, 1e-5, "weight 0 keeps the rotation");
        s.weight = REACH_R(0.25);
        reach_aim_output part = solve_ok(&in, &s);
        ASSERT_NEAR(reach_quat_angle(part.correction), REACH_R(0.25) * reach_quat_angle(full.correction), 2e-3,
                    "a quarter of the turn");
        s.weight = 1;
        s.twist_angle = test_uniform(&rng, -3, 3);
        reach_aim_output rolled = solve_ok(&in, &s);
        reach_vec3 axis = unit(reach_vec3_sub(in.target, in.joint.translation));
        ASSERT_QUAT_NEAR(rolled.rotation,
                         reach_quat_mul(reach_quat_from_axis_angle(axis, s.twist_angle), full.rotation), 1e-3,
                         "twist about the aim line");
        if (rolled.error > AIM_TOL) fail_msg("the twist kept the aim");
    }
}

static reach_aim_input head_at_origin(void) {
    reach_aim_input in;
    in.joint = reach_transform_identity();
    in.target = reach_vec3_make(0, 0, 1);
    in.pole = reach_vec3_make(0, 1, 0);
    in.reference = reach_quat_identity();
    return in;
}

static void degenerate_point_at_the_joint(void **state) {
    (void)state;
    reach_aim_input in = head_at_origin();
    in.joint.rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), REACH_R(0.3));
    in.target = in.joint.translation;
    reach_aim_output out = solve_ok(&in, NULL);
    ASSERT_QUAT_NEAR(out.rotation, in.joint.rotation, 1e-6, "kept");
}

static void degenerate_point_on_the_up_axis(void **state) {
    (void)state;
    reach_aim_input in = head_at_origin();
    in.target = reach_vec3_make(0, 5, 0); /* straight up: the pole lies along the aim */
    reach_aim_output out = solve_ok(&in, NULL);
    if (out.error > AIM_TOL) fail_msg("aims up");
    /* The smallest turn from +Z to +Y: a quarter turn about -X. */
    ASSERT_QUAT_NEAR(out.rotation, reach_quat_from_axis_angle(reach_vec3_make(-1, 0, 0), REACH_PI / 2), 1e-5,
                     "smallest turn when the pole says nothing");
}

static void degenerate_point_behind(void **state) {
    (void)state;
    reach_aim_input in = head_at_origin();
    in.target = reach_vec3_make(0, 0, -2);
    reach_aim_settings s = reach_aim_default_settings();
    s.keep_up = 0;
    reach_aim_output out = solve_ok(&in, &s);
    if (out.error > AIM_TOL) fail_msg("aims behind");
    /* The head turns round about its up axis: up stays up. */
    ASSERT_VEC3_NEAR(reach_quat_rotate(out.rotation, reach_vec3_make(0, 1, 0)), reach_vec3_make(0, 1, 0), 1e-5,
                     "turned round, not over");
}

static void degenerate_point_inside_the_offset(void **state) {
    (void)state;
    reach_aim_input in = head_at_origin();
    reach_aim_settings s = reach_aim_default_settings();
    s.offset = reach_vec3_make(0, 1, 0); /* the ray runs 1 above the joint */
    in.target = reach_vec3_make(REACH_R(0.2), 0, REACH_R(0.3));
    reach_aim_output out = solve_ok(&in, &s);
    /* The ray cannot pass through it: forward aims at it from the joint. */
    ASSERT_NEAR(angle_between(reach_quat_rotate(out.rotation, s.forward), in.target), 0, 1e-4, "aimed from the joint");
    /* With the target far enough, the offset ray passes through it exactly. */
    in.target = reach_vec3_make(3, -1, 2);
    out = solve_ok(&in, &s);
    if (out.error > AIM_TOL) fail_msg("offset ray through the target");
}

/* Bad input: an error, and the output as it was. */
static void bad_input_leaves_output_untouched(void **state) {
    (void)state;
    reach_aim_output before, out;
    memset(&before, 0x5a, sizeof before);
    reach_real nan_value = (reach_real)NAN;
    for (int c = 0; c < 12; c++) {
        reach_aim_input in = head_at_origin();
        reach_aim_settings s = reach_aim_default_settings();
        reach_status expect;
        switch (c) {
        case 0:
            in.target.x = nan_value;
            expect = REACH_ERROR_NOT_FINITE;
            break;
        case 1:
            in.joint.rotation.w = (reach_real)INFINITY;
            expect = REACH_ERROR_NOT_FINITE;
            break;
        case 2:
            s.forward = reach_vec3_zero();
            expect = REACH_ERROR_INVALID_ARGUMENT;
            break;
        case 3:
            s.up = reach_vec3_make(0, 0, 2);
            expect = REACH_ERROR_INVALID_ARGUMENT;
            break; /* along forward */
        case 4:
            s.weight = REACH_R(1.5);
            expect = REACH_ERROR_INVALID_ARGUMENT;
            break;
        case 5:
            s.limited = 1;
            s.cone_angle = 4;
            expect = REACH_ERROR_BAD_JOINT;
            break;
        case 6:
            s.limited = 1;
            s.twist_min = 1;
            s.twist_max = 0;
            expect = REACH_ERROR_BAD_JOINT;
            break;
        case 7:
            memset(&s, 0, sizeof s);
            expect = REACH_ERROR_SETTINGS_NOT_INITIALIZED;
            break;
        case 8:
            in.joint.rotation = reach_quat_make(0, 0, 0, 0);
            expect = REACH_ERROR_BAD_QUATERNION;
            break;
        case 9:
            in.pole = reach_vec3_zero();
            expect = REACH_ERROR_INVALID_ARGUMENT;
            break;
        case 10:
            in.joint.translation.x = -TEST_END_OF_RANGE;
            in.target.x = TEST_END_OF_RANGE;
            expect = REACH_ERROR_OUT_OF_RANGE;
            break;
        default:
            s.offset.y = nan_value;
            expect = REACH_ERROR_NOT_FINITE;
            break;
        }
        out = before;
        reach_status st = reach_aim_solve(&in, &s, &out);
        if (st != expect) fail_msg("case %d: %s, expected %s", c, reach_status_string(st), reach_status_string(expect));
        if (!test_bytes_equal(&out, &before, sizeof out)) fail_msg("case %d: output written", c);
    }
    reach_aim_input in = head_at_origin();
    assert_int_equal(reach_aim_solve(NULL, NULL, &out), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_aim_solve(&in, NULL, NULL), REACH_ERROR_INVALID_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unlimited_points_aimed_with_up_toward_pole),
        cmocka_unit_test(smallest_turn_without_up),
        cmocka_unit_test(points_within_limits_aimed),
        cmocka_unit_test(points_outside_end_at_nearest_allowed_aim),
        cmocka_unit_test(weight_and_twist),
        cmocka_unit_test(degenerate_point_at_the_joint),
        cmocka_unit_test(degenerate_point_on_the_up_axis),
        cmocka_unit_test(degenerate_point_behind),
        cmocka_unit_test(degenerate_point_inside_the_offset),
        cmocka_unit_test(bad_input_leaves_output_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
