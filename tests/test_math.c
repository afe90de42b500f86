/* Vector, quaternion and transform math: exact cases and seeded properties. */
#include <float.h>
#include <math.h>

#include "test_support.h"
#include "../src/half_angle.h"
#include "../src/quadrant_atan.h"

#ifdef REACH_DOUBLE
#define ROT_TOL 1e-12
#else
#define ROT_TOL 2e-6
#endif

static void hamilton_product_follows_the_convention(void **state) {
    (void)state;
    /* i * j = k under the Hamilton convention. */
    reach_quat i = reach_quat_make(1, 0, 0, 0), j = reach_quat_make(0, 1, 0, 0);
    reach_quat k = reach_quat_mul(i, j);
    ASSERT_QUAT_NEAR(k, reach_quat_make(0, 0, 1, 0), 0, "i*j");
    /* mul(a, b) applies b first: a quarter turn about z after one about x. */
    reach_quat about_x = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_PI / 2);
    reach_quat about_z = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_PI / 2);
    reach_vec3 v = reach_quat_rotate(reach_quat_mul(about_z, about_x), reach_vec3_make(0, 1, 0));
    /* y --x--> z --z--> z */
    ASSERT_VEC3_NEAR(v, reach_vec3_make(0, 0, 1), ROT_TOL, "z after x applied to y");
    v = reach_quat_rotate(about_z, reach_vec3_make(1, 0, 0));
    ASSERT_VEC3_NEAR(v, reach_vec3_make(0, 1, 0), ROT_TOL, "right-handed quarter turn about z");
}

static void shortest_arc_maps_from_to_to(void **state) {
    (void)state;
    test_rng rng = test_rng_make(1);
    for (int n = 0; n < TEST_CASES; ++n) {
        reach_vec3 a = test_unit_vec3(&rng), b = test_unit_vec3(&rng);
        reach_quat q = reach_quat_shortest_arc(a, b);
        ASSERT_NEAR(reach_quat_dot(q, q), 1, 4 * ROT_TOL, "unit length");
        ASSERT_VEC3_NEAR(reach_quat_rotate(q, a), b, 8 * ROT_TOL, "rotates a onto b");
        /* Smallest: the rotation angle equals the angle between the vectors. */
        reach_real angle = reach_atan2(reach_vec3_length(reach_vec3_cross(a, b)), reach_vec3_dot(a, b));
        ASSERT_NEAR(reach_quat_angle(q), angle, 1e3 * ROT_TOL, "angle is the angle between");
    }
}

static void shortest_arc_is_exact_near_zero_and_defined_at_half_turn(void **state) {
    (void)state;
    reach_vec3 a = reach_vec3_make(0, 0, 1);
    reach_quat q = reach_quat_shortest_arc(a, a);
    ASSERT_QUAT_NEAR(q, reach_quat_identity(), 0, "identical vectors give identity");
    /* A tiny angle keeps its size (no acos of a number near 1). */
    reach_real tiny = REACH_R(1e-4);
    reach_vec3 b = reach_vec3_make(reach_sin(tiny), 0, reach_cos(tiny));
    ASSERT_NEAR(reach_quat_angle(reach_quat_shortest_arc(a, b)), tiny, tiny * 1e-3, "tiny angle");
    /* Opposite vectors: a half turn about some perpendicular, never NaN. */
    reach_vec3 dirs[] = {reach_vec3_make(1, 0, 0), reach_vec3_make(0, 1, 0), reach_vec3_make(0, 0, 1),
                         reach_vec3_make(REACH_R(0.6), REACH_R(0.8), 0)};
    for (int i = 0; i < 4; ++i) {
        q = reach_quat_shortest_arc(dirs[i], reach_vec3_neg(dirs[i]));
        assert_true(reach_quat_is_finite(q));
        ASSERT_VEC3_NEAR(reach_quat_rotate(q, dirs[i]), reach_vec3_neg(dirs[i]), ROT_TOL, "half turn");
    }
    /* Planar half turns stay in the plane: the axis is z. */
    q = reach_quat_shortest_arc(dirs[3], reach_vec3_neg(dirs[3]));
    ASSERT_NEAR(reach_fabs(q.z), 1, ROT_TOL, "planar half turn is about z");
}

/* Nearly opposite vectors: the rotation still takes one onto the other to full precision. */
static void shortest_arc_is_accurate_near_a_half_turn(void **state) {
    (void)state;
    test_rng rng = test_rng_make(5);
    for (int n = 0; n < TEST_CASES / 10; ++n) {
        reach_vec3 a = test_unit_vec3(&rng);
        reach_real offset = (reach_real)test_uniform_double(&rng, 1e-7, 1e-2);
        reach_vec3 b =
            reach_vec3_normalize_safe(reach_vec3_mad(reach_vec3_neg(a), reach_vec3_any_perpendicular(a), offset), a);
        reach_quat q = reach_quat_shortest_arc(a, b);
        ASSERT_VEC3_NEAR(reach_quat_rotate(q, a), b, 8 * ROT_TOL, "near-opposite vectors");
    }
}

static void normalize_safe_falls_back(void **state) {
    (void)state;
    reach_vec3 fallback = reach_vec3_make(0, 1, 0);
    ASSERT_VEC3_NEAR(reach_vec3_normalize_safe(reach_vec3_zero(), fallback), fallback, 0, "zero");
    reach_real nan = (reach_real)NAN, inf = (reach_real)INFINITY;
    ASSERT_VEC3_NEAR(reach_vec3_normalize_safe(reach_vec3_make(nan, 0, 0), fallback), fallback, 0, "NaN");
    ASSERT_VEC3_NEAR(reach_vec3_normalize_safe(reach_vec3_make(inf, 1, 0), fallback), fallback, 0, "inf");
    /* Huge and tiny vectors normalise without overflow or underflow. */
#ifdef REACH_DOUBLE
    reach_real huge = 1e300, small = 1e-300;
#else
    reach_real huge = 1e37f, small = 1e-37f;
#endif
    ASSERT_VEC3_NEAR(reach_vec3_normalize_safe(reach_vec3_make(huge, huge, 0), fallback),
                     reach_vec3_make(REACH_R(0.70710678118654752), REACH_R(0.70710678118654752), 0), ROT_TOL, "huge");
    ASSERT_VEC3_NEAR(reach_vec3_normalize_safe(reach_vec3_make(0, small, small), fallback),
                     reach_vec3_make(0, REACH_R(0.70710678118654752), REACH_R(0.70710678118654752)), ROT_TOL, "tiny");
    ASSERT_NEAR(reach_vec3_length_robust(reach_vec3_make(huge, huge, huge)) / huge, reach_sqrt(3), ROT_TOL,
                "robust length");
    reach_quat q = reach_quat_normalize_safe(reach_quat_make(0, 0, 0, 0));
    ASSERT_QUAT_NEAR(q, reach_quat_identity(), 0, "zero quaternion becomes identity");
}

static void any_perpendicular_is_unit_and_perpendicular(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2);
    for (int n = 0; n < TEST_CASES; ++n) {
        reach_vec3 v = test_unit_vec3(&rng);
        reach_vec3 p = reach_vec3_any_perpendicular(v);
        ASSERT_NEAR(reach_vec3_length(p), 1, ROT_TOL, "unit");
        ASSERT_NEAR(reach_vec3_dot(p, v), 0, ROT_TOL, "perpendicular");
    }
}

/* Row c of m: column c of its transpose, a rotation's inverse. */
static reach_vec3 row_of(reach_mat3 m, int c) {
    const reach_real x[3] = {m.col[0].x, m.col[0].y, m.col[0].z}, y[3] = {m.col[1].x, m.col[1].y, m.col[1].z},
                     z[3] = {m.col[2].x, m.col[2].y, m.col[2].z};
    return reach_vec3_make(x[c], y[c], z[c]);
}

static void matrices_and_quaternions_agree(void **state) {
    (void)state;
    test_rng rng = test_rng_make(3);
    for (int n = 0; n < TEST_CASES / 10; ++n) {
        reach_quat q = test_unit_quat(&rng);
        reach_vec3 v = test_in_ball(&rng, 2);
        reach_mat3 m = reach_mat3_from_quat(q);
        ASSERT_VEC3_NEAR(reach_mat3_mul_vec3(m, v), reach_quat_rotate(q, v), 4 * ROT_TOL, "matrix rotates like q");
        ASSERT_QUAT_NEAR(reach_quat_from_mat3(m), q, 4 * ROT_TOL, "matrix back to quaternion");
        /* Scaled columns: the rotation part is recovered. */
        m.col[0] = reach_vec3_scale(m.col[0], 3);
        m.col[2] = reach_vec3_scale(m.col[2], REACH_R(0.25));
        ASSERT_QUAT_NEAR(reach_quat_from_mat3(m), q, 4 * ROT_TOL, "rotation part of a scaled matrix");
        reach_mat3 inv = m;
        assert_true(reach_mat3_inverse(m, &inv));
        ASSERT_VEC3_NEAR(reach_mat3_mul_vec3(inv, reach_mat3_mul_vec3(m, v)), v, 16 * ROT_TOL, "inverse");
    }
    reach_mat3 singular = {{reach_vec3_make(1, 0, 0), reach_vec3_make(2, 0, 0), reach_vec3_make(0, 0, 1)}};
    reach_mat3 untouched = singular;
    assert_false(reach_mat3_inverse(singular, &untouched));
    assert_true(test_bytes_equal(&untouched, &singular, sizeof singular));
    /* Far from singular at any scale whose inverse is in range: a rotation scaled by 2^±60 (its
     * determinant, 2^±180, is beyond float's range), and by 2^±120. */
    const int exponents[] = {-120, -60, 60, 120};
    for (int e = 0; e < 4; ++e) {
        reach_quat q = test_unit_quat(&rng);
        reach_mat3 m = reach_mat3_from_quat(q), scaled = m, inv;
        for (int c = 0; c < 3; ++c)
            scaled.col[c] = reach_vec3_scale(m.col[c], reach_ldexp(1, exponents[e]));
        assert_true(reach_mat3_inverse(scaled, &inv));
        for (int c = 0; c < 3; ++c)
            ASSERT_VEC3_NEAR(reach_vec3_scale(inv.col[c], reach_ldexp(1, exponents[e])), row_of(m, c), 4 * ROT_TOL,
                             "inverse at any scale");
    }
}

static void transforms_compose_and_invert(void **state) {
    (void)state;
    test_rng rng = test_rng_make(4);
    for (int n = 0; n < TEST_CASES / 10; ++n) {
        reach_transform a = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 5));
        reach_transform b = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 5));
        reach_vec3 p = test_in_ball(&rng, 5);
        reach_vec3 composed = reach_transform_point(reach_transform_mul(a, b), p);
        reach_vec3 stepwise = reach_transform_point(a, reach_transform_point(b, p));
        ASSERT_VEC3_NEAR(composed, stepwise, 64 * ROT_TOL, "composition");
        reach_vec3 back = reach_transform_point(reach_transform_inverse(a), reach_transform_point(a, p));
        ASSERT_VEC3_NEAR(back, p, 64 * ROT_TOL, "inverse");
        reach_affine fa = reach_affine_from_transform(a);
        ASSERT_VEC3_NEAR(reach_affine_point(fa, p), reach_transform_point(a, p), 64 * ROT_TOL, "affine agrees");
    }
}

static void slerp_and_twist(void **state) {
    (void)state;
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    reach_quat a = reach_quat_identity(), b = reach_quat_from_axis_angle(z, 2);
    ASSERT_NEAR(reach_quat_angle(reach_quat_slerp(a, b, REACH_R(0.25))), REACH_R(0.5), ROT_TOL * 4, "slerp quarter");
    ASSERT_NEAR(reach_quat_twist_angle(b, z), 2, ROT_TOL * 4, "twist about the rotation axis");
    reach_quat swing = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(0.7));
    ASSERT_NEAR(reach_quat_twist_angle(reach_quat_mul(swing, b), z), 2, ROT_TOL * 4, "twist under a swing");
    ASSERT_NEAR(reach_quat_angle_between(b, b), 0, ROT_TOL * 4, "no angle to itself");
}

/* The hinge's half-angle cosine and sine (src/half_angle.h) against libm's in double: polynomials
 * within a whole turn either way, libm beyond; exact at zero, odd and even, and on the unit
 * circle, over a dense sweep that crosses the switch at ±π and runs to ±4π. */
static void half_angle_cosine_and_sine_match_libm(void **state) {
    (void)state;
#ifdef REACH_DOUBLE
    const double tolerance = 3e-16; /* at most 2.2e-16 measured */
#else
    const double tolerance = 1.5e-7; /* at most 1.19e-7 over every float angle: two units in the last place */
#endif
    reach_real c, s;
    reach__half_angle_cos_sin(0, &c, &s);
    assert_true(c == 1 && s == 0);
    double worst = 0, worst_circle = 0;
    const int steps = 200000;
    for (int i = -steps; i <= steps; ++i) {
        reach_real angle = (reach_real)(4 * REACH_PI * (double)i / steps);
        reach__half_angle_cos_sin(angle, &c, &s);
        double half = 0.5 * (double)angle;
        worst = fmax(worst, fmax(fabs((double)c - cos(half)), fabs((double)s - sin(half))));
        worst_circle = fmax(worst_circle, fabs((double)c * (double)c + (double)s * (double)s - 1));
        reach_real c_neg, s_neg;
        reach__half_angle_cos_sin(-angle, &c_neg, &s_neg);
        assert_true(c_neg == c && s_neg == -s);
    }
    ASSERT_NEAR(worst, 0, tolerance, "largest difference from libm");
    ASSERT_NEAR(worst_circle, 0, 3 * tolerance, "off the unit circle");
    /* Just inside and just past the switch, and an angle of no size. */
    const reach_real edges[] = {REACH_PI, REACH_PI * (1 + 4 * REACH_REAL_EPSILON), (reach_real)1e-30};
    for (int i = 0; i < 3; ++i) {
        reach__half_angle_cos_sin(edges[i], &c, &s);
        ASSERT_NEAR(c, cos(0.5 * (double)edges[i]), tolerance, "cosine at an edge");
        ASSERT_NEAR(s, sin(0.5 * (double)edges[i]), tolerance, "sine at an edge");
    }
}

/* The error's angle (src/quadrant_atan.h) against atan2 one precision up, in units in the last
 * place of the result: 400 000 seeded pairs over ratios from 0 to ∞ and scales from 1e-30 to
 * 1e30 (the function only sees the ratio), either side of the diagonal and of tan(π/8) where it
 * changes form, and pairs near the end of the range; exact on the axes; no bias above the diagonal.
 * Measured: at most 2.18 units (float) and 2.23 (double). */
static double ulps_from(reach_real got, long double want) {
    reach_real nearest = (reach_real)want;
#ifdef REACH_DOUBLE
    long double ulp = (long double)(nextafter(nearest, INFINITY) - nearest);
#else
    long double ulp = (long double)(nextafterf(nearest, INFINITY) - nearest);
#endif
    return (double)(fabsl((long double)got - want) / ulp);
}

static void quadrant_atan_matches_libm(void **state) {
    (void)state;
    assert_true(reach__quadrant_atan2(0, 1) == 0);
    assert_true(reach__quadrant_atan2(0, (reach_real)1e-30) == 0);
    assert_true(reach__quadrant_atan2(1, 0) == REACH_PI / 2);
    assert_true(reach__quadrant_atan2((reach_real)1e-30, 0) == REACH_PI / 2);
    /* Pairs near the end of the range: their sum overflows. */
    const reach_real top = sizeof(reach_real) == 4 ? (reach_real)FLT_MAX : (reach_real)DBL_MAX;
    const reach_real big[][2] = {{top, top * REACH_R(0.7)}, {top * REACH_R(0.6), top}, {top, top}};
    for (int i = 0; i < 3; ++i) {
        double error = ulps_from(reach__quadrant_atan2(big[i][0], big[i][1]),
                                 atan2l((long double)big[i][0], (long double)big[i][1]));
        if (!(error <= 2)) fail_msg("near the end of the range: %.2f units in the last place off", error);
    }
    test_rng rng = test_rng_make(0xa7a2);
    double worst = 0, signed_sum = 0;
    int steep_count = 0;
    for (int i = 0; i < 400000; ++i) {
        reach_real ratio = i % 4 == 0 ? test_uniform(&rng, REACH_R(0.40), REACH_R(0.43)) : test_uniform(&rng, 0, 1);
        if (i % 8 == 1) ratio *= REACH_R(1e-6);
        reach_real scale = (reach_real)pow(10, (double)test_uniform(&rng, -30, 30));
        reach_real y = ratio * scale, x = scale;
        if (i % 2) {
            reach_real swap = x;
            x = y;
            y = swap;
        }
        long double want = atan2l((long double)y, (long double)x);
        reach_real got = reach__quadrant_atan2(y, x);
        double error = ulps_from(got, want);
        if (y > x) {
            signed_sum += (double)((long double)got > want ? error : -error);
            ++steep_count;
        }
        if (!(error <= REACH_R(2.5)))
            fail_msg("atan2(%.9g, %.9g): %.2f units in the last place off", (double)y, (double)x, error);
        worst = fmax(worst, error);
    }
    /* Above the diagonal the angle is π/2 less another: π/2's rounding once biased them all. */
    double bias = signed_sum / steep_count;
    print_message("worst %.2f units in the last place; above the diagonal, on average %+.3f\n", worst, bias);
    ASSERT_NEAR(bias, 0, 0.05, "no bias above the diagonal");

    /* The twist angle from it: libm's within a few roundings, the same for q and −q, in
     * (−π, π] (a half turn either way reads +π), zero without a twist. */
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    assert_true(reach__twist_angle(reach_quat_identity(), z) == 0);
    assert_true(reach__twist_angle(reach_quat_make(0, 0, 1, 0), z) == REACH_PI);
    assert_true(reach__twist_angle(reach_quat_make(0, 0, -1, 0), z) == REACH_PI);
    assert_true(reach__twist_angle(reach_quat_make(0, 0, -1, -0.0f), z) == REACH_PI);
    assert_true(reach__twist_angle(reach_quat_make(1, 0, 0, 0), z) == 0);
    for (int i = 0; i < 100000; ++i) {
        reach_quat q = test_unit_quat(&rng);
        reach_vec3 axis = test_unit_vec3(&rng);
        reach_real angle = reach__twist_angle(q, axis);
        assert_true(angle > -REACH_PI && angle <= REACH_PI);
        assert_true(reach__twist_angle(reach_quat_neg(q), axis) == angle);
        reach_real gap = reach_fabs(angle - reach_quat_twist_angle(q, axis));
        ASSERT_NEAR(reach_min(gap, 2 * REACH_PI - gap), 0, 16 * REACH_REAL_EPSILON, "twist as libm's");
    }
}

static void precision_queries_match_the_build(void **state) {
    (void)state;
    assert_int_equal(reach_real_size(), (int)sizeof(reach_real));
    assert_string_equal(reach_precision(), REACH_PRECISION_NAME);
    assert_string_equal(reach_version(), REACH_VERSION_STRING);
    assert_string_equal(reach_status_string(REACH_ERROR_ZERO_LENGTH), "bone has zero length");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hamilton_product_follows_the_convention),
        cmocka_unit_test(shortest_arc_maps_from_to_to),
        cmocka_unit_test(shortest_arc_is_exact_near_zero_and_defined_at_half_turn),
        cmocka_unit_test(shortest_arc_is_accurate_near_a_half_turn),
        cmocka_unit_test(normalize_safe_falls_back),
        cmocka_unit_test(any_perpendicular_is_unit_and_perpendicular),
        cmocka_unit_test(matrices_and_quaternions_agree),
        cmocka_unit_test(transforms_compose_and_invert),
        cmocka_unit_test(slerp_and_twist),
        cmocka_unit_test(half_angle_cosine_and_sine_match_libm),
        cmocka_unit_test(quadrant_atan_matches_libm),
        cmocka_unit_test(precision_queries_match_the_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
