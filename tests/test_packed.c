/* The packed 3-vectors and quaternions (src/packed_vec3.h) against vecmath.h's scalar operations,
 * bit for bit: random values of every scale and sign, signed zeros, infinities, subnormals and
 * NaN (where both give NaN, any NaN will do); the shortest arc and FABRIK's unit helpers built
 * on them. Then forward kinematics, which runs on them, against reach_transform_mul bone by bone,
 * also when the world array is the local one. In
 * double, and off x86-64, the packed types are the scalar ones and the test checks the
 * fallback. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "test_support.h"
#include "../src/robust.h"
#include "../src/packed_vec3.h"

/* Values per check: 200 000, 2 000 in quick runs (under Valgrind). */
#define CASES 200000

#ifdef REACH_DOUBLE
#define SMALLEST_NORMAL DBL_MIN
#else
#define SMALLEST_NORMAL FLT_MIN
#endif

/* A coordinate: mostly ordinary values of any scale, sometimes a special one. */
static reach_real any_coordinate(test_rng *rng) {
    static const reach_real special[] = {0, -REACH_R(0.0), 1, -1, REACH_REAL_EPSILON, -REACH_REAL_EPSILON};
    uint64_t pick = test_rng_next(rng) % 16;
    if (pick < 6) return special[pick];
    if (pick == 6) return (test_rng_next(rng) & 1) ? (reach_real)INFINITY : -(reach_real)INFINITY;
    if (pick == 7) return (reach_real)NAN;
    if (pick == 8) return test_uniform(rng, -1, 1) * SMALLEST_NORMAL; /* subnormal or zero */
    reach_real magnitude = (reach_real)pow(2.0, (double)test_uniform(rng, -40, 40));
    return test_uniform(rng, -1, 1) * magnitude;
}

/* Finite coordinates only: where a computation must not meet infinity or NaN. */
static reach_real finite_coordinate(test_rng *rng) {
    reach_real x;
    do
        x = any_coordinate(rng);
    while (!reach_is_finite(x));
    return x;
}

static reach_vec3 any_vec3(test_rng *rng, int finite) {
    reach_real (*coordinate)(test_rng *) = finite ? finite_coordinate : any_coordinate;
    return reach_vec3_make(coordinate(rng), coordinate(rng), coordinate(rng));
}

static reach_quat any_quat(test_rng *rng, int finite) {
    reach_vec3 v = any_vec3(rng, finite);
    return reach_quat_make(v.x, v.y, v.z, finite ? finite_coordinate(rng) : any_coordinate(rng));
}

/* The same bits, or NaN on both sides. */
static int same_real(reach_real a, reach_real b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof a) == 0;
}

static void expect_vec3(reach_vec3 packed_result, reach_vec3 scalar, const char *what, int index) {
    if (same_real(packed_result.x, scalar.x) && same_real(packed_result.y, scalar.y) &&
        same_real(packed_result.z, scalar.z))
        return;
    fail_msg("%s, case %d: packed (%a, %a, %a), scalar (%a, %a, %a)", what, index, (double)packed_result.x,
             (double)packed_result.y, (double)packed_result.z, (double)scalar.x, (double)scalar.y, (double)scalar.z);
}

static void expect_quat(reach_quat packed_result, reach_quat scalar, const char *what, int index) {
    expect_vec3(reach_vec3_make(packed_result.x, packed_result.y, packed_result.z),
                reach_vec3_make(scalar.x, scalar.y, scalar.z), what, index);
    if (!same_real(packed_result.w, scalar.w))
        fail_msg("%s, case %d: w packed %a, scalar %a", what, index, (double)packed_result.w, (double)scalar.w);
}

static void expect_real(reach_real packed_result, reach_real scalar, const char *what, int index) {
    if (!same_real(packed_result, scalar))
        fail_msg("%s, case %d: packed %a, scalar %a", what, index, (double)packed_result, (double)scalar);
}

static reach_vec3 unpacked(packed_vec3 v) {
    reach_vec3 out;
    packed_store(&out, v);
    return out;
}

static void vectors_match_the_scalar_operations(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x9ac4ed);
    const int cases = test_scaled(CASES);
    for (int i = 0; i < cases; ++i) {
        reach_vec3 a = any_vec3(&rng, 0), b = any_vec3(&rng, 0);
        reach_real s = any_coordinate(&rng);
        packed_vec3 pa = packed_load(&a), pb = packed_load(&b);
        expect_vec3(unpacked(pa), a, "load and store", i);
        expect_vec3(unpacked(packed_add(pa, pb)), reach_vec3_add(a, b), "add", i);
        expect_vec3(unpacked(packed_sub(pa, pb)), reach_vec3_sub(a, b), "sub", i);
        expect_vec3(unpacked(packed_scale(pa, s)), reach_vec3_scale(a, s), "scale", i);
        expect_vec3(unpacked(packed_mad(pa, pb, s)), reach_vec3_mad(a, b, s), "mad", i);
        expect_vec3(unpacked(packed_cross(pa, pb)), reach_vec3_cross(a, b), "cross", i);
        expect_real(packed_dot(pa, pb), reach_vec3_dot(a, b), "dot", i);
        expect_real(packed_length_sq(pa), reach_vec3_length_sq(a), "length_sq", i);
        expect_real(packed_max_abs(pa), reach_vec3_max_abs(a), "max_abs", i);
        assert_int_equal(packed_is_zero(pa), a.x == 0 && a.y == 0 && a.z == 0);
    }
    expect_vec3(unpacked(packed_zero()), reach_vec3_zero(), "zero", 0);
}

static void quaternions_match_the_scalar_operations(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x9ac4ee);
    const int cases = test_scaled(CASES);
    for (int i = 0; i < cases; ++i) {
        int finite = i % 2; /* half the cases may hold infinities and NaN */
        reach_quat a = any_quat(&rng, finite), b = i % 3 ? test_unit_quat(&rng) : any_quat(&rng, finite);
        reach_vec3 v = any_vec3(&rng, finite);
        reach_quat product;
        packed_quat_store(&product, packed_quat_mul(packed_quat_load(&a), packed_quat_load(&b)));
        expect_quat(product, reach_quat_mul(a, b), "quat_mul", i);
        expect_vec3(unpacked(packed_quat_rotate(packed_quat_load(&a), packed_load(&v))), reach_quat_rotate(a, v),
                    "quat_rotate", i);
        reach_quat out;
        reach_real s = any_coordinate(&rng);
        packed_quat_store(&out, packed_quat_make(packed_load(&v), s));
        expect_quat(out, reach_quat_make(v.x, v.y, v.z, s), "quat_make", i);
        packed_quat_store(&out, packed_quat_scale(packed_quat_load(&a), s));
        expect_quat(out, reach_quat_make(a.x * s, a.y * s, a.z * s, a.w * s), "quat_scale", i);
        packed_quat_store(&out, packed_quat_conjugate(packed_quat_load(&a)));
        expect_quat(out, reach_quat_conjugate(a), "quat_conjugate", i);
        expect_real(packed_quat_dot(packed_quat_load(&a), packed_quat_load(&b)), reach_quat_dot(a, b), "quat_dot", i);
    }
}

/* Directions as the rotation recovery meets them: unit vectors, nearly opposite pairs (the arc's
 * cross product cancels), exactly opposite ones (its half-turn branch), equal ones, and any
 * vectors of every scale. */
static void shortest_arcs_match(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x9ac4f0);
    const int cases = test_scaled(CASES);
    for (int i = 0; i < cases; ++i) {
        reach_vec3 from = test_unit_vec3(&rng), to;
        switch (i % 5) {
        case 0: to = test_unit_vec3(&rng); break;
        case 1:
            to = reach_vec3_normalize_safe(reach_vec3_mad(reach_vec3_neg(from), test_unit_vec3(&rng), REACH_R(1e-4)),
                                           from);
            break;
        case 2: to = reach_vec3_neg(from); break;
        case 3: to = from; break;
        default: from = any_vec3(&rng, i % 2); to = any_vec3(&rng, i % 2);
        }
        reach_quat arc;
        packed_quat_store(&arc, packed_quat_shortest_arc(packed_load(&from), packed_load(&to)));
        expect_quat(arc, reach_quat_shortest_arc(from, to), "shortest_arc", i);
    }
}

/* 1e19 to 1e30 (float's largest is 3e38): squares beyond REACH__SQUARE_CEILING in float. */
static reach_real huge_scale(test_rng *rng) { return (reach_real)pow(10.0, (double)test_uniform(rng, 19, 30)); }

/* FABRIK's unit vectors and quaternions (robust.h) against their scalar forms: near
 * unit length (the Newton step), ordinary lengths (the root), and lengths whose squares leave
 * the plain range, zero, infinite or NaN (the scaled routines and their fallbacks). */
static void unit_helpers_match(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x9ac4f1);
    const int cases = test_scaled(CASES);
    for (int i = 0; i < cases; ++i) {
        reach_quat q;
        switch (i % 4) {
        case 0: q = test_unit_quat(&rng); break;
        /* a product of unit quaternions: a few roundings off unit length */
        case 1: q = reach_quat_mul(test_unit_quat(&rng), test_unit_quat(&rng)); break;
        /* finite, but with a square beyond the plain range */
        case 2: {
            reach_quat u = test_unit_quat(&rng);
            reach_real k = huge_scale(&rng);
            q = reach_quat_make(u.x * k, u.y * k, u.z * k, u.w * k);
            break;
        }
        default: q = any_quat(&rng, i % 2);
        }
        reach_quat unit;
        packed_quat_store(&unit, reach__packed_quat_unit(packed_quat_load(&q)));
        expect_quat(unit, reach__quat_unit(q), "quat_unit", i);
        reach_vec3 v = i % 5 == 2 ? reach_vec3_scale(test_unit_vec3(&rng), huge_scale(&rng)) : any_vec3(&rng, i % 2);
        reach_vec3 fallback = i % 4 ? test_unit_vec3(&rng) : reach_vec3_zero();
        expect_vec3(unpacked(reach__packed_unit(packed_load(&v), packed_load(&fallback))), reach__unit(v, fallback),
                    "unit", i);
    }
}

/* The solvers' check that a transform is finite against the seven scalar tests: transforms of
 * any coordinates (an infinity or NaN in about half of them) and finite ones with one number
 * made infinite or NaN in each place in turn. */
static void finite_transforms_are_told(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x9ac4f2);
    const int cases = test_scaled(CASES);
    for (int i = 0; i < cases; ++i) {
        reach_transform t = {any_quat(&rng, i % 3 == 0), any_vec3(&rng, i % 3 == 0)};
        if (i % 3 == 1) {
            reach_real *numbers[7] = {&t.rotation.x,    &t.rotation.y,    &t.rotation.z,   &t.rotation.w,
                                      &t.translation.x, &t.translation.y, &t.translation.z};
            t = (reach_transform){any_quat(&rng, 1), any_vec3(&rng, 1)};
            *numbers[i % 7] = i % 2 ? (reach_real)NAN : -(reach_real)INFINITY;
        }
        int finite = reach_quat_is_finite(t.rotation) && reach_vec3_is_finite(t.translation);
        assert_int_equal(packed_transform_is_finite(&t), finite);
    }
}

/* The set-up's test of a pose bone against its rest against the seven scalar ==: pairs equal
 * but for one number in turn (changed, made NaN, or a zero of the other sign), equal pairs, and
 * pairs with a NaN in the same place of both (never equal). */
static void equal_transforms_are_told(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x9ac4f3);
    const int cases = test_scaled(CASES);
    for (int i = 0; i < cases; ++i) {
        reach_transform a = {any_quat(&rng, 1), any_vec3(&rng, 1)}, b = a;
        reach_real *numbers[7] = {&b.rotation.x,    &b.rotation.y,    &b.rotation.z,   &b.rotation.w,
                                  &b.translation.x, &b.translation.y, &b.translation.z};
        reach_real *same_place[7] = {&a.rotation.x,    &a.rotation.y,    &a.rotation.z,   &a.rotation.w,
                                     &a.translation.x, &a.translation.y, &a.translation.z};
        int place = (i / 5) % 7;
        switch (i % 5) {
        case 1: *numbers[place] = *numbers[place] != 1 ? 1 : 2; break;
        case 2: *numbers[place] = (reach_real)NAN; break;
        case 3:
            *same_place[place] = 0;
            *numbers[place] = -(reach_real)0;
            break;
        case 4: *same_place[place] = *numbers[place] = (reach_real)NAN; break;
        default: break;
        }
        int equal = a.rotation.x == b.rotation.x && a.rotation.y == b.rotation.y && a.rotation.z == b.rotation.z &&
                    a.rotation.w == b.rotation.w && a.translation.x == b.translation.x &&
                    a.translation.y == b.translation.y && a.translation.z == b.translation.z;
        assert_int_equal(packed_transform_equal(&a, &b), equal);
        assert_int_equal(equal, i % 5 == 0 || i % 5 == 3);
    }
}

/* A random tree: every bone's parent comes before it. */
#define BONES 40

static void forward_kinematics_matches_transform_products(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x9ac4ef);
    int parents[BONES];
    reach_transform rest[BONES], local[BONES], world[BONES], in_place[BONES];
    for (int round = 0; round < 500; ++round) {
        for (int i = 0; i < BONES; ++i) {
            parents[i] = i == 0 || test_rng_next(&rng) % 8 == 0 ? -1 : (int)(test_rng_next(&rng) % (uint64_t)i);
            rest[i] = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 2));
            local[i] = reach_transform_make(test_unit_quat(&rng), any_vec3(&rng, 1));
        }
        reach_skeleton skeleton;
        memset(&skeleton, 0, sizeof skeleton);
        skeleton.bone_count = BONES;
        skeleton.parents = parents;
        skeleton.rest = rest;
        reach_forward_kinematics(&skeleton, local, world);
        memcpy(in_place, local, sizeof in_place);
        reach_forward_kinematics(&skeleton, in_place, in_place);
        for (int i = 0; i < BONES; ++i) {
            reach_transform expected = parents[i] < 0 ? local[i] : reach_transform_mul(world[parents[i]], local[i]);
            expect_quat(world[i].rotation, expected.rotation, "world rotation", i);
            expect_vec3(world[i].translation, expected.translation, "world translation", i);
            expect_quat(in_place[i].rotation, expected.rotation, "in place, rotation", i);
            expect_vec3(in_place[i].translation, expected.translation, "in place, translation", i);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vectors_match_the_scalar_operations),
        cmocka_unit_test(quaternions_match_the_scalar_operations),
        cmocka_unit_test(shortest_arcs_match),
        cmocka_unit_test(unit_helpers_match),
        cmocka_unit_test(finite_transforms_are_told),
        cmocka_unit_test(equal_transforms_are_told),
        cmocka_unit_test(forward_kinematics_matches_transform_products),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
