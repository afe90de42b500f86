/* The two-bone solver's fast path for ordinary limbs against its general path
 * (reach_two_bone_solve_general): seeded ordinary limbs of many sizes, and limbs placed right at
 * each of the fast path's limits, on both sides, must give the same answer either way. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "test_support.h"
#include "reach/testing.h"

/* The fast path's limits (src/two_bone.c): squared bone, target and pole distances within
 * 2^±40 (float) or 2^±400 (double), a bend side at sine 0.1 or more off the target line. */
#ifdef REACH_DOUBLE
#define ORDINARY_LIMIT_EXPONENT 400
#else
#define ORDINARY_LIMIT_EXPONENT 40
#endif

static reach_real next_toward(reach_real x, reach_real to) {
#ifdef REACH_DOUBLE
    return nextafter(x, to);
#else
    return nextafterf(x, to);
#endif
}

/* A random ordinary limb of about `size`: bones 0.1 to 2 sizes long, the root up to 3 sizes
 * from the origin, a target up to 1.3 chains from the root, and a pole, or none, or one on the
 * root (which means none). */
static reach_two_bone_input random_limb(test_rng *rng, reach_real size) {
    reach_two_bone_input in;
    in.root = test_in_ball(rng, 3 * size);
    reach_real l1 = test_uniform(rng, REACH_R(0.1), 2) * size, l2 = test_uniform(rng, REACH_R(0.1), 2) * size;
    in.mid = reach_vec3_mad(in.root, test_unit_vec3(rng), l1);
    in.end = reach_vec3_mad(in.mid, test_unit_vec3(rng), l2);
    in.target = reach_vec3_add(in.root, test_in_ball(rng, REACH_R(1.3) * (l1 + l2)));
    in.pole = reach_vec3_add(in.root, test_in_ball(rng, 3 * size));
    uint64_t kind = test_rng_next(rng) % 8;
    in.use_pole = kind != 0;
    if (kind == 1) in.pole = in.root;
    return in;
}

/* Both paths' answers agree: positions and lengths to rounding, the residual to a rounding of
 * the target's distance, the rotations as the rounding of their inputs allows. */
static void check_agreement(const reach_two_bone_input *in, const reach_two_bone_settings *opt) {
    reach_two_bone_output fast, general;
    memset(&fast, 0, sizeof fast);
    memset(&general, 0, sizeof general);
    reach_status fast_status = reach_two_bone_solve(in, opt, &fast);
    reach_status general_status = reach_two_bone_solve_general(in, opt, &general);
    assert_int_equal(fast_status, general_status);
    if (general_status != REACH_OK) return;

    reach_real l1 = reach_vec3_length_robust(reach_vec3_sub(in->mid, in->root));
    reach_real l2 = reach_vec3_length_robust(reach_vec3_sub(in->end, in->mid));
    reach_real chain = l1 + l2;
    reach_real d = reach_vec3_length_robust(reach_vec3_sub(in->target, in->root));
    reach_real eps = REACH_REAL_EPSILON;
    /* The mid joint's height h off the target line moves by about eps·L²/h for a rounding of
     * eps in the foot, where the limb is nearly straight or folded. */
    reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(general.end, in->root), reach_vec3_make(1, 0, 0));
    reach_real h = reach_vec3_length_robust(reach_vec3_reject(reach_vec3_sub(general.mid, in->root), axis));
    reach_real end_tol = 8 * eps * (chain + reach_vec3_max_abs(in->root));
    reach_real mid_tol = end_tol + 16 * eps * chain * chain / reach_max(h, reach_sqrt(eps) * chain);
    ASSERT_VEC3_NEAR(fast.mid, general.mid, mid_tol, "mid");
    ASSERT_VEC3_NEAR(fast.end, general.end, end_tol, "end");
    ASSERT_NEAR(fast.upper_length, general.upper_length, 4 * eps * l1, "upper length");
    ASSERT_NEAR(fast.lower_length, general.lower_length, 4 * eps * l2, "lower length");
    reach_real residual_tol = 8 * eps * (d + chain);
    ASSERT_NEAR(fast.residual, general.residual, residual_tol, "residual");
    reach_real tolerance = opt->tolerance > 0 ? opt->tolerance : REACH_R(1e-4) * chain;
    if (fast.reached != general.reached)
        ASSERT_NEAR(general.residual, tolerance, 2 * residual_tol, "reached differs only at the tolerance");
    /* The root rotation is built from the same vectors on both paths, normalised apart; the
     * mid rotation's inputs differ by that rounding, which a turn of nearly half a revolution
     * (small w) magnifies by 1/w. */
    ASSERT_QUAT_NEAR(fast.root_rotation, general.root_rotation, 64 * eps, "root rotation");
    reach_real w = reach_max(reach_fabs(general.mid_rotation.w), reach_sqrt(eps));
    ASSERT_QUAT_NEAR(fast.mid_rotation, general.mid_rotation, 64 * eps / w, "mid rotation");
}

static void ordinary_limbs_agree_with_the_general_path(void **state) {
    (void)state;
    test_rng rng = test_rng_make(70);
    reach_two_bone_settings with_rotations = reach_two_bone_default_settings();
    reach_two_bone_settings positions_only = with_rotations;
    positions_only.rotations = 0;
    reach_two_bone_settings fixed_tolerance = with_rotations;
    fixed_tolerance.tolerance = REACH_R(0.05);
    const reach_two_bone_settings *options[] = {&with_rotations, &positions_only, &fixed_tolerance, NULL};
    for (int n = 0; n < TEST_CASES; ++n) {
        /* Sizes from 1e-3 to 1e3, well inside the fast path's range in either precision. */
        reach_real size = (reach_real)pow(10.0, test_uniform_double(&rng, -3, 3));
        reach_two_bone_input in = random_limb(&rng, size);
        const reach_two_bone_settings *opt = options[n % 4];
        if (opt) {
            check_agreement(&in, opt);
        } else {
            /* No options: the defaults. */
            reach_two_bone_output a, b;
            assert_int_equal(reach_two_bone_solve(&in, NULL, &a), reach_two_bone_solve(&in, &with_rotations, &b));
            assert_true(test_bytes_equal(&a.mid, &b.mid, sizeof a.mid) &&
                        test_bytes_equal(&a.root_rotation, &b.root_rotation, sizeof a.root_rotation));
        }
    }
}

/* An equilateral limb whose bones and target and pole distances are all `size`: each square
 * sits on a limit when size² does. */
static reach_two_bone_input equilateral_limb(reach_real size) {
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(size, 0, 0);
    in.end = reach_vec3_make(size, size, 0);
    in.target = reach_vec3_make(0, size, 0);
    in.pole = reach_vec3_make(0, 0, size);
    in.use_pole = 1;
    return in;
}

static void limbs_on_the_size_limits_agree_either_way(void **state) {
    (void)state;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    const reach_real limits[] = {(reach_real)ldexp(1.0, -ORDINARY_LIMIT_EXPONENT / 2),
                                 (reach_real)ldexp(1.0, ORDINARY_LIMIT_EXPONENT / 2)};
    for (int s = 0; s < 2; ++s) {
        /* Two units in the last place below the limit to two above. */
        reach_real size = next_toward(next_toward(limits[s], 0), 0);
        for (int step = 0; step < 5; ++step, size = next_toward(size, (reach_real)INFINITY)) {
            reach_two_bone_input in = equilateral_limb(size);
            check_agreement(&in, &opt);
            /* The target's and the pole's distances alone on the limit, the limb of unit size. */
            reach_two_bone_input unit = equilateral_limb(1);
            unit.target = reach_vec3_make(0, size, 0);
            check_agreement(&unit, &opt);
            unit = equilateral_limb(1);
            unit.pole = reach_vec3_make(0, 0, size);
            check_agreement(&unit, &opt);
        }
    }
}

/* A limb far from the origin, where its coordinates' resolution is the limit: the general
 * path refuses a chain below 64 units in the last place of its coordinates, the fast path
 * hands over a little earlier. */
static void limbs_on_the_resolution_limit_agree_either_way(void **state) {
    (void)state;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    reach_real chain = 2, limit = chain / (64 * REACH_REAL_EPSILON);
    for (int i = -50; i <= 50; ++i) {
        reach_real far = limit * (1 + (reach_real)i / 1000);
        reach_two_bone_input in = equilateral_limb(1);
        reach_vec3 offset = reach_vec3_make(far, -far, far);
        in.root = reach_vec3_add(in.root, offset);
        in.mid = reach_vec3_add(in.mid, offset);
        in.end = reach_vec3_add(in.end, offset);
        in.target = reach_vec3_add(in.target, offset);
        in.pole = reach_vec3_add(in.pole, offset);
        check_agreement(&in, &opt);
    }
}

/* The bend side near its limit, sine 0.1 off the target line: a pole swept across it, and a
 * limb with no pole whose knee is swept across it, and whose root→end line (the knee's
 * reference) is swept across its own limit, a tenth of the chain. */
static void bend_sides_on_their_limits_agree_either_way(void **state) {
    (void)state;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    for (int i = -200; i <= 200; ++i) {
        reach_real sine = REACH_R(0.1) * (1 + (reach_real)i * 4 * REACH_REAL_EPSILON);
        reach_two_bone_input in = equilateral_limb(1);
        in.target = reach_vec3_make(REACH_R(1.5), 0, 0);
        in.pole = reach_vec3_make(2 * reach_sqrt(1 - sine * sine), 0, 2 * sine);
        check_agreement(&in, &opt);

        /* No pole: the knee (the mid joint off the root→end line) leans toward the target line
         * so that its side off that line is near the limit. */
        in.use_pole = 0;
        in.mid = reach_vec3_make(1, 0, 0);
        in.end = reach_vec3_make(1 + sine, 1, 0);
        in.target = reach_vec3_make(REACH_R(0.3), 1, REACH_R(0.2) * sine);
        check_agreement(&in, &opt);

        /* Nearly folded: |mid + lower| near a tenth of the chain. */
        reach_real gap = REACH_R(0.2) * (1 + (reach_real)i * REACH_REAL_EPSILON);
        in.mid = reach_vec3_make(1, 0, 0);
        in.end = reach_vec3_make(gap, reach_sqrt(1 - (1 - gap) * (1 - gap)), 0);
        in.target = reach_vec3_make(REACH_R(0.5), REACH_R(0.5), REACH_R(0.5));
        check_agreement(&in, &opt);
    }
}

/* Inputs outside the fast path behave as before: the degenerate cases by name. */
static void degenerate_limbs_agree_either_way(void **state) {
    (void)state;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    reach_two_bone_input in = equilateral_limb(1);
    in.target = in.root; /* target on the root */
    check_agreement(&in, &opt);
    in = equilateral_limb(1);
    in.end = reach_vec3_make(2, 0, 0); /* straight, pole off the line */
    check_agreement(&in, &opt);
    in.use_pole = 0; /* straight, no pole */
    check_agreement(&in, &opt);
    in = equilateral_limb(1);
    in.pole = reach_vec3_make(0, 3, 0); /* pole on the target line */
    check_agreement(&in, &opt);
    in = equilateral_limb(1);
    in.mid = in.root; /* zero-length bone */
    check_agreement(&in, &opt);
    in = equilateral_limb(1);
    in.pole.x = (reach_real)NAN;
    check_agreement(&in, &opt);
    in.use_pole = 0; /* an unused pole is not read */
    check_agreement(&in, &opt);
}

/* Asking for rotations must not change the positions or the residual. With the target almost
 * straight behind the limb the root turns by nearly a half turn; the short path once left such
 * limbs to the general one only when rotations were asked for, and the residual then differed
 * by a rounding (found by fuzz_batch, whose scalar lanes solve without rotations). Seeded limbs,
 * and that case by name. */
static void rotations_change_neither_positions_nor_residual(void **state) {
    (void)state;
    reach_two_bone_input named;
    named.root = reach_vec3_make(0, REACH_R(0x1.16203p-71), 1);
    named.mid = reach_vec3_make(0, REACH_R(0.5), REACH_R(1.5));
    named.end = reach_vec3_make(0, 0, 1);
    named.target = reach_vec3_make(1, -2, -2);
    named.pole = reach_vec3_make(-2, -2, -2);
    named.use_pole = 1;
    test_rng rng = test_rng_make(0x407a);
    for (int c = 0; c <= test_scaled(20000); ++c) {
        reach_two_bone_input in = named;
        if (c > 0) {
            in.root = test_in_ball(&rng, 2);
            in.mid = reach_vec3_add(in.root, test_in_ball(&rng, 1));
            in.end = reach_vec3_add(in.mid, test_in_ball(&rng, 1));
            /* Mostly behind the limb, where the root turns by nearly a half turn. */
            reach_vec3 back = reach_vec3_sub(in.root, reach_vec3_sub(in.end, in.root));
            in.target = reach_vec3_add(back, test_in_ball(&rng, REACH_R(0.05)));
            in.pole = reach_vec3_add(in.root, test_in_ball(&rng, 1));
        }
        reach_two_bone_settings with = reach_two_bone_default_settings(), without = with;
        without.rotations = 0;
        reach_two_bone_output a, b;
        reach_status sa = reach_two_bone_solve(&in, &with, &a), sb = reach_two_bone_solve(&in, &without, &b);
        assert_int_equal(sa, sb);
        if (sa != REACH_OK) continue;
        assert_true(test_bytes_equal(&a.mid, &b.mid, sizeof a.mid) && test_bytes_equal(&a.end, &b.end, sizeof a.end));
        assert_true(test_bytes_equal(&a.residual, &b.residual, sizeof a.residual));
        assert_int_equal(a.reached, b.reached);
    }
}

/* The short path's rotations on seeded ordinary limbs of many sizes: unit quaternions that
 * carry the old upper bone onto the new one, and the old lower bone, turned by both, onto the
 * new lower one, to the rounding of the joints' coordinates (measured: 11 eps at most). */
static void rotations_are_unit_and_turn_the_bones(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5707);
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    const reach_real eps = REACH_REAL_EPSILON;
    for (int n = 0; n < TEST_CASES; ++n) {
        reach_real size = (reach_real)pow(10.0, test_uniform_double(&rng, -3, 3));
        reach_two_bone_input in = random_limb(&rng, size);
        reach_two_bone_output out;
        if (reach_two_bone_solve(&in, &opt, &out) != REACH_OK) continue;
        /* An arc is as unit as the directions it is built from: the old upper bone made unit by
         * a divide, and for the mid arc the new lower bone, whose length is the lower bone's
         * only to the rounding of the joints (measured: 8 and 23 eps at most). */
        ASSERT_NEAR(reach_quat_dot(out.root_rotation, out.root_rotation), 1, 16 * eps, "root rotation is unit");
        ASSERT_NEAR(reach_quat_dot(out.mid_rotation, out.mid_rotation), 1, 64 * eps, "mid rotation is unit");
        reach_vec3 old_upper = reach_vec3_sub(in.mid, in.root), old_lower = reach_vec3_sub(in.end, in.mid);
        reach_vec3 new_upper = reach_vec3_sub(out.mid, in.root), new_lower = reach_vec3_sub(out.end, out.mid);
        reach_real chain = reach_vec3_length(old_upper) + reach_vec3_length(old_lower);
        reach_real tol = 32 * eps * (chain + reach_vec3_max_abs(in.root));
        ASSERT_VEC3_NEAR(reach_quat_rotate(out.root_rotation, old_upper), new_upper, tol, "root rotation turns upper");
        reach_quat lower_total = reach_quat_mul(out.mid_rotation, out.root_rotation);
        ASSERT_VEC3_NEAR(reach_quat_rotate(lower_total, old_lower), new_lower, tol, "mid rotation turns lower");
    }
}

/* An arc of exactly half a turn has no axis of its own: the short path takes the robust
 * construction's, a half turn about the perpendicular of the old direction along the axis it
 * is least along (+z here). The root turns by half a revolution when a straight limb along +x
 * reaches straight behind it, and by a few roundings less when the target moves off that line
 * by a few units in the last place, on both sides of where the robust construction takes
 * over; the mid joint turns by half a revolution when a straight limb folds back onto itself. */
static void half_turns_take_the_robust_arc(void **state) {
    (void)state;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    const reach_quat half_turn_about_z = reach_quat_make(0, 0, 1, 0);
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(1, 0, 0);
    in.end = reach_vec3_make(2, 0, 0);
    in.pole = reach_vec3_make(0, 0, 1);
    in.use_pole = 1;
    for (int k = 0; k <= 16; ++k) {
        in.target = reach_vec3_make(-2, (reach_real)k * REACH_REAL_EPSILON, 0);
        reach_two_bone_output out;
        assert_int_equal(reach_two_bone_solve(&in, &opt, &out), REACH_OK);
        /* The new upper bone is (-1, k·eps/2, 0): |from + to|² = k²·eps²/4, at most the
         * robust construction's 2·eps² for k <= 2. */
        int robust = test_bytes_equal(&out.root_rotation, &half_turn_about_z, sizeof half_turn_about_z);
        assert_int_equal(robust, k <= 2);
        check_agreement(&in, &opt);
    }

    in.end = reach_vec3_make(REACH_R(1.5), 0, 0);
    in.target = reach_vec3_make(REACH_R(0.5), 0, 0);
    reach_two_bone_output out;
    assert_int_equal(reach_two_bone_solve(&in, &opt, &out), REACH_OK);
    ASSERT_VEC3_NEAR(out.end, in.target, 0, "folded onto the target");
    assert_true(test_bytes_equal(&out.mid_rotation, &half_turn_about_z, sizeof half_turn_about_z));
    check_agreement(&in, &opt);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ordinary_limbs_agree_with_the_general_path),
        cmocka_unit_test(limbs_on_the_size_limits_agree_either_way),
        cmocka_unit_test(limbs_on_the_resolution_limit_agree_either_way),
        cmocka_unit_test(bend_sides_on_their_limits_agree_either_way),
        cmocka_unit_test(degenerate_limbs_agree_either_way),
        cmocka_unit_test(rotations_change_neither_positions_nor_residual),
        cmocka_unit_test(rotations_are_unit_and_turn_the_bones),
        cmocka_unit_test(half_turns_take_the_robust_arc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
