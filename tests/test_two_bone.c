/* Two-bone IK in 3-D and 2-D: seeded properties, an independent law-of-cosines check,
 * continuity, options, and the degenerate cases by name. */
#include <math.h>
#include <string.h>

#include "test_support.h"

/* A random limb: root anywhere, bones of random length in random directions, a target
 * anywhere up to 1.3 × the chain's reach (so about a third are out of reach), a random pole. */
/* Bit-for-bit equality of two solves, field by field (the struct may have padding). */
static int same_output(const reach_two_bone_output *a, const reach_two_bone_output *b) {
    return test_bytes_equal(&a->mid, &b->mid, sizeof a->mid) && test_bytes_equal(&a->end, &b->end, sizeof a->end) &&
           test_bytes_equal(&a->root_rotation, &b->root_rotation, sizeof a->root_rotation) &&
           test_bytes_equal(&a->mid_rotation, &b->mid_rotation, sizeof a->mid_rotation) &&
           test_bytes_equal(&a->upper_length, &b->upper_length, sizeof a->upper_length) &&
           test_bytes_equal(&a->lower_length, &b->lower_length, sizeof a->lower_length) &&
           test_bytes_equal(&a->residual, &b->residual, sizeof a->residual) && a->reached == b->reached;
}

/* Scale-safe distance, so the checks themselves work at 1e-30 and 1e30. */
static reach_real distance(reach_vec3 a, reach_vec3 b) { return reach_vec3_length_robust(reach_vec3_sub(a, b)); }

typedef struct limb {
    reach_two_bone_input in;
    reach_real l1, l2;
} limb;

static limb random_limb(test_rng *rng, reach_real scale) {
    limb c;
    c.l1 = test_uniform(rng, REACH_R(0.1), 2) * scale;
    c.l2 = test_uniform(rng, REACH_R(0.1), 2) * scale;
    c.in.root = test_in_ball(rng, 3 * scale);
    c.in.mid = reach_vec3_mad(c.in.root, test_unit_vec3(rng), c.l1);
    c.in.end = reach_vec3_mad(c.in.mid, test_unit_vec3(rng), c.l2);
    c.in.target = reach_vec3_add(c.in.root, test_in_ball(rng, REACH_R(1.3) * (c.l1 + c.l2)));
    c.in.pole = reach_vec3_add(c.in.root, test_in_ball(rng, 3 * scale));
    c.in.use_pole = 1;
    /* Measure the lengths as the solver will, from the positions. */
    c.l1 = distance(c.in.mid, c.in.root);
    c.l2 = distance(c.in.end, c.in.mid);
    return c;
}

static reach_two_bone_output solve_ok(const reach_two_bone_input *in, const reach_two_bone_settings *opt) {
    reach_two_bone_output out;
    memset(&out, 0, sizeof out);
    reach_status st = reach_two_bone_solve(in, opt, &out);
    if (st != REACH_OK) fail_msg("solve failed: %s", reach_status_string(st));
    return out;
}

/* The properties every solve must have, checked at a given scale. */
static void check_limb_properties(const limb *c, const reach_two_bone_output *out, reach_real scale) {
    reach_real chain = c->l1 + c->l2;
    reach_vec3 root = c->in.root;
    ASSERT_NEAR(distance(out->mid, root) / c->l1, 1, TEST_LENGTH_TOL, "upper length kept");
    ASSERT_NEAR(distance(out->end, out->mid) / c->l2, 1, TEST_LENGTH_TOL, "lower length kept");

    reach_vec3 to_target = reach_vec3_sub(c->in.target, root);
    reach_real d = reach_vec3_length_robust(to_target);
    reach_real lo = reach_fabs(c->l1 - c->l2), hi = chain;
    reach_real closest = d < lo ? lo - d : (d > hi ? d - hi : 0);
    /* Reachable: on target. Not: as close as the reach shell allows (the closest pose). */
    ASSERT_NEAR(distance(out->end, c->in.target), closest, TEST_REACH_TOL * chain * 4, "end distance");
    ASSERT_NEAR(out->residual, distance(out->end, c->in.target), TEST_REACH_TOL * chain, "residual");
    if (closest == 0 && out->residual > REACH_R(1e-4) * chain) fail_msg("reachable target not reached");

    /* Mid joint on the pole's side of the root→target line. */
    reach_vec3 u = reach_vec3_normalize_safe(to_target, reach_vec3_make(1, 0, 0));
    reach_vec3 pole_side = reach_vec3_reject(reach_vec3_sub(c->in.pole, root), u);
    reach_vec3 mid_side = reach_vec3_reject(reach_vec3_sub(out->mid, root), u);
    reach_real pole_len = reach_vec3_length_robust(pole_side), mid_len = reach_vec3_length_robust(mid_side);
    if (pole_len > REACH_R(1e-2) * scale && mid_len > REACH_R(1e-2) * scale) {
        reach_real cosine =
            reach_vec3_dot(reach_vec3_scale(pole_side, 1 / pole_len), reach_vec3_scale(mid_side, 1 / mid_len));
        ASSERT_NEAR(cosine, 1, REACH_R(1e-3), "mid joint lies toward the pole");
    }

    /* The rotation outputs move the old bones onto the new ones. */
    reach_vec3 old_upper = reach_vec3_sub(c->in.mid, root), old_lower = reach_vec3_sub(c->in.end, c->in.mid);
    reach_vec3 new_upper = reach_vec3_sub(out->mid, root), new_lower = reach_vec3_sub(out->end, out->mid);
    ASSERT_VEC3_NEAR(reach_quat_rotate(out->root_rotation, old_upper), new_upper, TEST_REACH_TOL * 8 * chain,
                     "root rotation turns the upper bone");
    reach_quat lower_total = reach_quat_mul(out->mid_rotation, out->root_rotation);
    ASSERT_VEC3_NEAR(reach_quat_rotate(lower_total, old_lower), new_lower, TEST_REACH_TOL * 8 * chain,
                     "mid rotation turns the lower bone");
}

static void random_limbs_keep_lengths_reach_and_bend_toward_the_pole(void **state) {
    (void)state;
    test_rng rng = test_rng_make(10);
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    int reachable = 0, reached = 0;
    for (int n = 0; n < TEST_CASES; ++n) {
        limb c = random_limb(&rng, 1);
        reach_two_bone_output out = solve_ok(&c.in, &opt);
        check_limb_properties(&c, &out, 1);
        reach_real d = reach_vec3_distance(c.in.target, c.in.root);
        if (d >= reach_fabs(c.l1 - c.l2) && d <= c.l1 + c.l2) {
            ++reachable;
            reached += out.reached;
        }
    }
    /* A target exactly on the reach shell's edge may round just outside; all others reach. */
    assert_true(reachable > TEST_CASES / 3);
    assert_true(reached >= reachable - reachable / 10000);
}

/* Out of reach, the limb is exactly straight toward the target, or exactly folded toward it:
 * the mid joint on the root→target line, not a rounding's height off it. */
static void unreachable_targets_leave_the_mid_joint_on_the_line(void **state) {
    (void)state;
    test_rng rng = test_rng_make(17);
    int checked = 0;
    for (int n = 0; n < TEST_CASES; ++n) {
        limb c = random_limb(&rng, 1);
        reach_real d = distance(c.in.target, c.in.root);
        if (d <= c.l1 + c.l2 && d >= reach_fabs(c.l1 - c.l2)) continue;
        reach_two_bone_output out = solve_ok(&c.in, NULL);
        reach_vec3 u = reach_vec3_normalize_safe(reach_vec3_sub(c.in.target, c.in.root), reach_vec3_zero());
        reach_real off = reach_vec3_length(reach_vec3_reject(reach_vec3_sub(out.mid, c.in.root), u));
        ASSERT_NEAR(off, 0, 16 * REACH_REAL_EPSILON * (c.l1 + c.l2), "mid joint on the target line");
        ++checked;
    }
    assert_true(checked > TEST_CASES / 3);
}

/* A long upper bone and a short lower one near full extension: the short bone keeps its length
 * too (its relative error would grow as (L1/L2)² if the foot were measured from the root). */
static void a_short_bone_keeps_its_length_beside_a_long_one(void **state) {
    (void)state;
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(2, 0, 0);
    in.end = reach_vec3_make(2, REACH_R(0.1), 0);
    in.pole = reach_vec3_make(0, 0, 1);
    in.use_pole = 1;
    for (int i = 0; i <= 20000; ++i) {
        in.target = reach_vec3_make(REACH_R(1.9) + REACH_R(0.2) * (reach_real)i / 20000, REACH_R(0.01), 0);
        reach_two_bone_output out = solve_ok(&in, NULL);
        ASSERT_NEAR(reach_vec3_distance(out.end, out.mid) / REACH_R(0.1), 1, TEST_LENGTH_TOL, "short lower bone");
        ASSERT_NEAR(reach_vec3_distance(out.mid, in.root) / 2, 1, TEST_LENGTH_TOL, "long upper bone");
    }
}

/* The knee of a straight limb does not flip as the target crosses the limb's line. */
static void a_straight_limb_does_not_flip_as_the_target_crosses_its_line(void **state) {
    (void)state;
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(1, 0, 0);
    in.end = reach_vec3_make(2, 0, 0);
    in.use_pole = 0;
    in.pole = in.root;
    in.target = reach_vec3_make(REACH_R(1.5), 0, 0);
    reach_vec3 first = solve_ok(&in, NULL).mid;
    const reach_vec3 nudges[] = {reach_vec3_make(0, REACH_R(1e-4), 0), reach_vec3_make(0, REACH_R(-1e-4), 0),
                                 reach_vec3_make(0, 0, REACH_R(1e-4)), reach_vec3_make(0, 0, REACH_R(-1e-4))};
    for (int k = 0; k < 4; ++k) {
        in.target = reach_vec3_add(reach_vec3_make(REACH_R(1.5), 0, 0), nudges[k]);
        reach_vec3 mid = solve_ok(&in, NULL).mid;
        assert_true(reach_vec3_distance(mid, first) < REACH_R(1e-2));
    }
}

static void properties_hold_at_tiny_and_huge_scales(void **state) {
    (void)state;
#ifdef REACH_DOUBLE
    const reach_real scales[] = {1e-6, 1e6, 1e-30, 1e30, 1e-150, 1e150};
#else
    const reach_real scales[] = {1e-6f, 1e6f, 1e-30f, 1e30f};
#endif
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    for (size_t s = 0; s < sizeof scales / sizeof scales[0]; ++s) {
        test_rng rng = test_rng_make(11 + s);
        for (int n = 0; n < TEST_CASES / 10; ++n) {
            limb c = random_limb(&rng, scales[s]);
            reach_two_bone_output out = solve_ok(&c.in, &opt);
            check_limb_properties(&c, &out, scales[s]);
        }
    }
}

/* Seed 004's formulation, independent of ours: the interior angles from the law of cosines. */
static void agrees_with_the_law_of_cosines(void **state) {
    (void)state;
    test_rng rng = test_rng_make(12);
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    for (int n = 0; n < TEST_CASES; ++n) {
        limb c = random_limb(&rng, 1);
        double l1 = (double)c.l1, l2 = (double)c.l2;
        double d = (double)reach_vec3_distance(c.in.target, c.in.root);
        if (d <= fabs(l1 - l2) * 1.01 || d >= (l1 + l2) * 0.99) continue; /* well inside the reach */
        reach_two_bone_output out = solve_ok(&c.in, &opt);
        double root_angle = acos((l1 * l1 + d * d - l2 * l2) / (2 * l1 * d));
        double knee_angle = acos((l1 * l1 + l2 * l2 - d * d) / (2 * l1 * l2));
        reach_vec3 a = reach_vec3_sub(out.mid, c.in.root), t = reach_vec3_sub(c.in.target, c.in.root);
        reach_vec3 b = reach_vec3_sub(c.in.root, out.mid), e = reach_vec3_sub(out.end, out.mid);
        double got_root = atan2((double)reach_vec3_length(reach_vec3_cross(a, t)), (double)reach_vec3_dot(a, t));
        double got_knee = atan2((double)reach_vec3_length(reach_vec3_cross(b, e)), (double)reach_vec3_dot(b, e));
        /* acos loses accuracy near 0 and pi; the tolerance follows float's sqrt(eps) there. */
        ASSERT_NEAR(got_root, root_angle, 2e-3, "root angle");
        ASSERT_NEAR(got_knee, knee_angle, 2e-3, "knee angle");
    }
}

static reach_two_bone_2d_input planar_input(const limb *c, reach_bend bend) {
    reach_two_bone_2d_input in2;
    in2.root = reach_vec2_make(c->in.root.x, c->in.root.y);
    in2.mid = reach_vec2_make(c->in.mid.x, c->in.mid.y);
    in2.end = reach_vec2_make(c->in.end.x, c->in.end.y);
    in2.target = reach_vec2_make(c->in.target.x, c->in.target.y);
    in2.bend = bend;
    return in2;
}

static limb flatten(limb c) {
    c.in.root.z = c.in.mid.z = c.in.end.z = c.in.target.z = c.in.pole.z = 0;
    c.l1 = reach_vec3_distance(c.in.mid, c.in.root);
    c.l2 = reach_vec3_distance(c.in.end, c.in.mid);
    return c;
}

static void planar_3d_and_2d_agree_and_give_both_solutions(void **state) {
    (void)state;
    test_rng rng = test_rng_make(13);
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    for (int n = 0; n < TEST_CASES; ++n) {
        limb c = flatten(random_limb(&rng, 1));
        if (c.l1 < REACH_R(0.05) || c.l2 < REACH_R(0.05)) continue;
        reach_bend bend = (n & 1) ? REACH_BEND_CCW : REACH_BEND_CW;
        /* The 3-D solver with a pole a quarter turn to the bend side of the target line. */
        reach_vec2 u = reach_vec2_normalize_safe(
            reach_vec2_make(c.in.target.x - c.in.root.x, c.in.target.y - c.in.root.y), reach_vec2_make(1, 0));
        if (reach_vec2_distance(reach_vec2_make(c.in.target.x, c.in.target.y),
                                reach_vec2_make(c.in.root.x, c.in.root.y)) < REACH_R(1e-3))
            continue;
        reach_vec2 side = reach_vec2_scale(reach_vec2_perp(u), (reach_real)bend);
        c.in.pole = reach_vec3_make(c.in.root.x + side.x, c.in.root.y + side.y, 0);
        reach_two_bone_output out3 = solve_ok(&c.in, &opt);
        reach_two_bone_2d_input in2 = planar_input(&c, bend);
        reach_two_bone_2d_output out2;
        assert_int_equal(reach_two_bone_solve_2d(&in2, &opt, &out2), REACH_OK);
        reach_real tol = TEST_REACH_TOL * 8 * (c.l1 + c.l2);
        ASSERT_VEC3_NEAR(reach_vec3_make(out2.mid.x, out2.mid.y, 0), out3.mid, tol, "2-D mid = 3-D mid");
        ASSERT_VEC3_NEAR(reach_vec3_make(out2.end.x, out2.end.y, 0), out3.end, tol, "2-D end = 3-D end");
        assert_true(reach_fabs(out3.mid.z) == 0);
        /* The mid joint is on the asked-for side of root→end. */
        reach_vec2 to_end = reach_vec2_sub(out2.end, in2.root), to_mid = reach_vec2_sub(out2.mid, in2.root);
        assert_true(reach_vec2_cross(to_end, to_mid) * (reach_real)bend >= -tol);
        /* The mirror is the other bend's solution. */
        reach_two_bone_2d_input other = in2;
        other.bend = (reach_bend)(-(int)bend);
        reach_two_bone_2d_output out_other;
        assert_int_equal(reach_two_bone_solve_2d(&other, &opt, &out_other), REACH_OK);
        ASSERT_VEC3_NEAR(reach_vec3_make(out2.mid_mirror.x, out2.mid_mirror.y, 0),
                         reach_vec3_make(out_other.mid.x, out_other.mid.y, 0), tol, "mirror = other bend");
        /* The 2-D rotations turn the old bones onto the new ones. */
        reach_vec2 old_upper = reach_vec2_sub(in2.mid, in2.root), new_upper = reach_vec2_sub(out2.mid, in2.root);
        reach_vec2 r = out2.root_rotation;
        reach_vec2 turned =
            reach_vec2_make(r.x * old_upper.x - r.y * old_upper.y, r.y * old_upper.x + r.x * old_upper.y);
        ASSERT_VEC3_NEAR(reach_vec3_make(turned.x, turned.y, 0), reach_vec3_make(new_upper.x, new_upper.y, 0), tol,
                         "2-D root rotation");
    }
}

static void results_are_identical_bit_for_bit(void **state) {
    (void)state;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    for (int run = 0; run < 2; ++run) {
        test_rng rng = test_rng_make(14);
        test_rng again = test_rng_make(14);
        for (int n = 0; n < TEST_CASES / 10; ++n) {
            limb a = random_limb(&rng, 1), b = random_limb(&again, 1);
            reach_two_bone_output oa, ob;
            memset(&oa, 0, sizeof oa);
            memset(&ob, 0, sizeof ob);
            assert_int_equal(reach_two_bone_solve(&a.in, &opt, &oa), REACH_OK);
            assert_int_equal(reach_two_bone_solve(&b.in, &opt, &ob), REACH_OK);
            assert_true(same_output(&oa, &ob));
        }
    }
}

/* Moving the target by a little moves the mid joint by a little, away from full extension. */
static void small_target_motion_gives_small_joint_motion(void **state) {
    (void)state;
    test_rng rng = test_rng_make(15);
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    int checked = 0;
    for (int n = 0; n < TEST_CASES / 10; ++n) {
        limb c = random_limb(&rng, 1);
        reach_real chain = c.l1 + c.l2;
        reach_real d = reach_vec3_distance(c.in.target, c.in.root);
        if (d < reach_fabs(c.l1 - c.l2) + REACH_R(0.1) * chain || d > REACH_R(0.9) * chain) continue;
        reach_two_bone_output a = solve_ok(&c.in, &opt);
        reach_real eps = REACH_R(1e-3) * chain;
        c.in.target = reach_vec3_mad(c.in.target, test_unit_vec3(&rng), eps);
        reach_two_bone_output b = solve_ok(&c.in, &opt);
        /* Away from the reach shell the joint's sensitivity is bounded by the triangle's shape. */
        assert_true(reach_vec3_distance(a.mid, b.mid) <= 40 * eps);
        ++checked;
    }
    assert_true(checked > TEST_CASES / 40);
}

/* Sweeps the target through full extension; returns the largest mid-joint step per unit of
 * target motion. */
static reach_real sweep_mid_speed(const reach_two_bone_settings *opt) {
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(0, 1, 0);
    in.end = reach_vec3_make(1, 1, 0);
    in.pole = reach_vec3_make(0, 5, 0);
    in.use_pole = 1;
    reach_real step = REACH_R(1e-4), worst = 0;
    reach_vec3 last_mid = reach_vec3_zero();
    for (int i = 0; i <= 8000; ++i) {
        in.target = reach_vec3_make(REACH_R(1.6) + step * (reach_real)i, 0, 0);
        reach_two_bone_output out = solve_ok(&in, opt);
        if (i > 0) worst = reach_max(worst, reach_vec3_distance(out.mid, last_mid) / step);
        last_mid = out.mid;
    }
    return worst;
}

static void soft_ik_removes_the_snap_at_full_extension(void **state) {
    (void)state;
    reach_two_bone_settings hard = reach_two_bone_default_settings();
    reach_two_bone_settings soft = hard;
    soft.soft_distance = REACH_R(0.1);
    /* Without soft IK the joint speeds up without bound as the limb straightens... */
    assert_true(sweep_mid_speed(&hard) > 20);
    /* ...with it, the speed stays that of the target's. */
    assert_true(sweep_mid_speed(&soft) < 5);
}

static void soft_ik_follows_its_formula(void **state) {
    (void)state;
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(0, 1, 0);
    in.end = reach_vec3_make(1, 1, 0);
    in.use_pole = 0;
    in.pole = in.root;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    opt.soft_distance = REACH_R(0.2);
    const reach_real distances[] = {1, REACH_R(1.8), REACH_R(1.9), 2, REACH_R(2.5), 10};
    for (int i = 0; i < 6; ++i) {
        reach_real d = distances[i];
        in.target = reach_vec3_make(d, 0, 0);
        reach_two_bone_output out = solve_ok(&in, &opt);
        reach_real start = 2 - opt.soft_distance;
        reach_real expected =
            d <= start ? d : start + opt.soft_distance * (1 - reach_exp(-(d - start) / opt.soft_distance));
        ASSERT_NEAR(reach_vec3_length(out.end), expected, TEST_REACH_TOL * 4, "soft distance");
        assert_true(reach_vec3_length(out.end) <= 2);
    }
}

static void stretch_lengthens_up_to_its_ratio(void **state) {
    (void)state;
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(1, 0, 0);
    in.end = reach_vec3_make(1, 1, 0);
    in.pole = reach_vec3_make(0, 0, 1);
    in.use_pole = 1;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    opt.max_stretch = REACH_R(1.5);
    in.target = reach_vec3_make(0, REACH_R(2.5), 0);
    reach_two_bone_output out = solve_ok(&in, &opt);
    assert_true(out.reached);
    ASSERT_NEAR(out.upper_length, REACH_R(1.25), TEST_REACH_TOL * 4, "stretched upper");
    ASSERT_NEAR(out.lower_length, REACH_R(1.25), TEST_REACH_TOL * 4, "stretched lower");
    in.target = reach_vec3_make(0, 4, 0);
    out = solve_ok(&in, &opt);
    assert_false(out.reached);
    ASSERT_NEAR(reach_vec3_length(out.end), 3, TEST_REACH_TOL * 4, "capped at the ratio");
    /* Within reach nothing stretches. */
    in.target = reach_vec3_make(0, REACH_R(1.5), 0);
    out = solve_ok(&in, &opt);
    ASSERT_NEAR(out.upper_length, 1, TEST_REACH_TOL * 4, "no stretch within reach");
}

static void weight_blends_from_the_current_pose(void **state) {
    (void)state;
    test_rng rng = test_rng_make(16);
    for (int n = 0; n < TEST_CASES / 10; ++n) {
        limb c = random_limb(&rng, 1);
        reach_two_bone_settings opt = reach_two_bone_default_settings();
        opt.weight = 0;
        reach_two_bone_output out = solve_ok(&c.in, &opt);
        ASSERT_VEC3_NEAR(out.mid, c.in.mid, TEST_REACH_TOL * 4, "weight 0 keeps the mid joint");
        ASSERT_VEC3_NEAR(out.end, c.in.end, TEST_REACH_TOL * 4, "weight 0 keeps the end");
        opt.weight = test_uniform(&rng, 0, 1);
        out = solve_ok(&c.in, &opt);
        ASSERT_NEAR(reach_vec3_distance(out.mid, c.in.root) / c.l1, 1, TEST_LENGTH_TOL * 4, "partial keeps upper");
        ASSERT_NEAR(reach_vec3_distance(out.end, out.mid) / c.l2, 1, TEST_LENGTH_TOL * 4, "partial keeps lower");
    }
}

/* ---- degenerate cases ------------------------------------------------------------------- */

static reach_two_bone_input bent_arm(void) {
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(1, 0, 0);
    in.end = reach_vec3_make(1, REACH_R(0.5), 0);
    in.pole = reach_vec3_make(0, 0, 2);
    in.use_pole = 1;
    in.target = reach_vec3_make(1, 1, 0);
    return in;
}

static void target_at_root_folds_along_the_current_aim(void **state) {
    (void)state;
    reach_two_bone_input in = bent_arm();
    in.target = in.root;
    reach_two_bone_output out = solve_ok(&in, NULL);
    /* |L1 - L2| = 0.5 along the limb's current aim (root→end). */
    reach_vec3 aim = reach_vec3_normalize_safe(in.end, reach_vec3_zero());
    ASSERT_VEC3_NEAR(out.end, reach_vec3_scale(aim, REACH_R(0.5)), TEST_REACH_TOL * 4, "folded toward the aim");
    assert_false(out.reached);
    /* Equal bones fold exactly onto the root: reached. */
    in.end = reach_vec3_make(1, 1, 0);
    out = solve_ok(&in, NULL);
    ASSERT_VEC3_NEAR(out.end, in.root, TEST_REACH_TOL * 4, "equal bones fold onto the root");
    assert_true(out.reached);
    assert_true(reach_vec3_is_finite(out.mid));
}

static void pole_on_the_target_line_keeps_the_current_bend(void **state) {
    (void)state;
    reach_two_bone_input in = bent_arm();
    in.target = reach_vec3_make(REACH_R(1.2), 0, 0);
    in.pole = reach_vec3_make(3, 0, 0); /* on the root→target line */
    reach_two_bone_output out = solve_ok(&in, NULL);
    assert_true(out.reached);
    /* The mid joint was bent toward -y relative to root→target (the end is at +y from mid, so
     * the current plane is the xy-plane); it stays in that plane. */
    ASSERT_NEAR(out.mid.z, 0, TEST_REACH_TOL, "stays in the current plane");
    /* No flip for small target motion around the line. */
    reach_vec3 first = out.mid;
    in.target = reach_vec3_make(REACH_R(1.2), REACH_R(1e-4), 0);
    out = solve_ok(&in, NULL);
    assert_true(reach_vec3_distance(out.mid, first) < REACH_R(1e-2));
}

static void pole_at_the_root_keeps_the_current_bend(void **state) {
    (void)state;
    reach_two_bone_input in = bent_arm();
    in.pole = in.root;
    reach_two_bone_output with_pole_at_root = solve_ok(&in, NULL);
    in.use_pole = 0;
    reach_two_bone_output without_pole = solve_ok(&in, NULL);
    assert_true(same_output(&with_pole_at_root, &without_pole));
}

static void straight_limb_with_pole_on_the_line_is_well_defined(void **state) {
    (void)state;
    reach_two_bone_input in;
    in.root = reach_vec3_zero();
    in.mid = reach_vec3_make(1, 0, 0);
    in.end = reach_vec3_make(2, 0, 0);
    in.pole = reach_vec3_make(5, 0, 0);
    in.use_pole = 1;
    in.target = reach_vec3_make(REACH_R(1.5), 0, 0);
    reach_two_bone_output out = solve_ok(&in, NULL);
    assert_true(reach_vec3_is_finite(out.mid) && reach_quat_is_finite(out.root_rotation));
    assert_true(out.reached);
    ASSERT_NEAR(reach_vec3_length(out.mid), 1, TEST_LENGTH_TOL * 4, "upper length");
    /* The target exactly behind a straight limb. */
    in.target = reach_vec3_make(REACH_R(-1.5), 0, 0);
    out = solve_ok(&in, NULL);
    assert_true(out.reached);
    assert_true(reach_quat_is_finite(out.root_rotation) && reach_quat_is_finite(out.mid_rotation));
}

static void zero_length_bone_is_an_error_and_output_untouched(void **state) {
    (void)state;
    reach_two_bone_input in = bent_arm();
    reach_two_bone_output out, before;
    memset(&out, 0x5a, sizeof out);
    before = out;
    in.mid = in.root;
    assert_int_equal(reach_two_bone_solve(&in, NULL, &out), REACH_ERROR_ZERO_LENGTH);
    in = bent_arm();
    in.end = in.mid;
    assert_int_equal(reach_two_bone_solve(&in, NULL, &out), REACH_ERROR_ZERO_LENGTH);
    in = bent_arm();
    in.mid = in.end = in.root;
    assert_int_equal(reach_two_bone_solve(&in, NULL, &out), REACH_ERROR_ZERO_LENGTH);
    assert_true(test_bytes_equal(&out, &before, sizeof out));
}

static void non_finite_input_anywhere_is_an_error_and_output_untouched(void **state) {
    (void)state;
    const reach_real bad[] = {(reach_real)NAN, (reach_real)INFINITY, -(reach_real)INFINITY};
    reach_two_bone_output out, before;
    memset(&out, 0x5a, sizeof out);
    before = out;
    for (int b = 0; b < 3; ++b) {
        /* Every scalar of the input, one at a time. */
        for (size_t k = 0; k < 15; ++k) {
            reach_two_bone_input in = bent_arm();
            reach_real *fields[15] = {&in.root.x,   &in.root.y,   &in.root.z, &in.mid.x,  &in.mid.y,
                                      &in.mid.z,    &in.end.x,    &in.end.y,  &in.end.z,  &in.target.x,
                                      &in.target.y, &in.target.z, &in.pole.x, &in.pole.y, &in.pole.z};
            *fields[k] = bad[b];
            assert_int_equal(reach_two_bone_solve(&in, NULL, &out), REACH_ERROR_NOT_FINITE);
        }
        reach_two_bone_input in = bent_arm();
        reach_two_bone_settings opt = reach_two_bone_default_settings();
        opt.soft_distance = bad[b];
        assert_int_equal(reach_two_bone_solve(&in, &opt, &out), REACH_ERROR_NOT_FINITE);
        reach_two_bone_2d_input in2 = {reach_vec2_make(0, 0), reach_vec2_make(1, 0), reach_vec2_make(1, 1),
                                       reach_vec2_make(bad[b], 0), REACH_BEND_CCW};
        reach_two_bone_2d_output out2, before2;
        memset(&out2, 0x5a, sizeof out2);
        before2 = out2;
        assert_int_equal(reach_two_bone_solve_2d(&in2, NULL, &out2), REACH_ERROR_NOT_FINITE);
        assert_true(test_bytes_equal(&out2, &before2, sizeof out2));
    }
    assert_true(test_bytes_equal(&out, &before, sizeof out));
}

static void overflowing_input_is_an_error(void **state) {
    (void)state;
    reach_two_bone_input in = bent_arm();
#ifdef REACH_DOUBLE
    in.target = reach_vec3_make(1.5e308, 0, 0);
    in.root = reach_vec3_make(-1.5e308, 0, 0);
#else
    in.target = reach_vec3_make(3e38f, 0, 0);
    in.root = reach_vec3_make(-3e38f, 0, 0);
#endif
    reach_two_bone_output out;
    assert_int_equal(reach_two_bone_solve(&in, NULL, &out), REACH_ERROR_OUT_OF_RANGE);
}

static void bad_options_and_arguments_are_errors(void **state) {
    (void)state;
    reach_two_bone_input in = bent_arm();
    reach_two_bone_output out;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    opt.weight = 2;
    assert_int_equal(reach_two_bone_solve(&in, &opt, &out), REACH_ERROR_INVALID_ARGUMENT);
    opt = reach_two_bone_default_settings();
    opt.max_stretch = REACH_R(0.5);
    assert_int_equal(reach_two_bone_solve(&in, &opt, &out), REACH_ERROR_INVALID_ARGUMENT);
    opt = reach_two_bone_default_settings();
    opt.soft_distance = -1;
    assert_int_equal(reach_two_bone_solve(&in, &opt, &out), REACH_ERROR_INVALID_ARGUMENT);
    reach_two_bone_2d_input in2 = {reach_vec2_make(0, 0), reach_vec2_make(1, 0), reach_vec2_make(1, 1),
                                   reach_vec2_make(1, 0), (reach_bend)0};
    reach_two_bone_2d_output out2;
    assert_int_equal(reach_two_bone_solve_2d(&in2, NULL, &out2), REACH_ERROR_INVALID_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_limbs_keep_lengths_reach_and_bend_toward_the_pole),
        cmocka_unit_test(unreachable_targets_leave_the_mid_joint_on_the_line),
        cmocka_unit_test(a_short_bone_keeps_its_length_beside_a_long_one),
        cmocka_unit_test(a_straight_limb_does_not_flip_as_the_target_crosses_its_line),
        cmocka_unit_test(properties_hold_at_tiny_and_huge_scales),
        cmocka_unit_test(agrees_with_the_law_of_cosines),
        cmocka_unit_test(planar_3d_and_2d_agree_and_give_both_solutions),
        cmocka_unit_test(results_are_identical_bit_for_bit),
        cmocka_unit_test(small_target_motion_gives_small_joint_motion),
        cmocka_unit_test(soft_ik_removes_the_snap_at_full_extension),
        cmocka_unit_test(soft_ik_follows_its_formula),
        cmocka_unit_test(stretch_lengthens_up_to_its_ratio),
        cmocka_unit_test(weight_blends_from_the_current_pose),
        cmocka_unit_test(target_at_root_folds_along_the_current_aim),
        cmocka_unit_test(pole_on_the_target_line_keeps_the_current_bend),
        cmocka_unit_test(pole_at_the_root_keeps_the_current_bend),
        cmocka_unit_test(straight_limb_with_pole_on_the_line_is_well_defined),
        cmocka_unit_test(zero_length_bone_is_an_error_and_output_untouched),
        cmocka_unit_test(non_finite_input_anywhere_is_an_error_and_output_untouched),
        cmocka_unit_test(overflowing_input_is_an_error),
        cmocka_unit_test(bad_options_and_arguments_are_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
