/* Hinges whose range is the whole turn (±π, the default, and a URDF `continuous` joint): every
 * rotation about the axis is allowed, so the angle wraps across the ends of the range. The
 * Jacobian solvers used to clamp it there, lock it as at a limit and aim its rest motion the long
 * way round: a four-bar linkage driven by its crank missed about 90 of 200 frames, the crank up to
 * 175° off, where ranges of ±2π reached every one. Here the linkage, a seeded set of chains whose
 * targets lie across the seam (a full turn against ±2π), and the joint-limit projections, which
 * must never clamp a range of a whole turn. */
#include "test_fabrik_rigs.h"

static const reach_jacobian_method converging_methods[3] = {REACH_JACOBIAN_PSEUDOINVERSE, REACH_JACOBIAN_DLS,
                                                            REACH_JACOBIAN_SDLS};

static reach_solve_result solve(const rig *r, const reach_target *targets, int count, reach_jacobian_method method,
                                reach_transform *pose) {
    static unsigned char scratch[1 << 16];
    size_t need = reach_jacobian_scratch_size(&r->skeleton, count);
    assert_true(need > 0 && need <= sizeof scratch);
    reach_solver_settings settings = reach_solver_default_settings();
    settings.jacobian_method = method;
    reach_solve_result result;
    assert_int_equal(reach_jacobian_solve(&r->skeleton, targets, count, &settings, pose, scratch, need, &result),
                     REACH_OK);
    return result;
}

/* ---- a four-bar linkage ------------------------------------------------------------------ */

/* Crank 1, coupler 3.5, rocker 3, ground 4 (a Grashof crank-rocker: the crank turns all the way
 * round). Bone 0 is the ground; the crank (1) turns about z at the origin, the coupler (2) at
 * the crank's end, its end (3) meets the rocker's end (5), the rocker (4) turns at (4, 0, 0).
 * Every hinge has the range [lo, lo + width]. */
static void four_bar(rig *r, reach_real lo, reach_real width) {
    static const int parents[6] = {-1, 0, 1, 2, 0, 4};
    static const double offsets[6] = {0, 0, 1, 3.5, 4, 3};
    static const int hinged[6] = {0, 1, 1, 0, 1, 0};
    for (int i = 0; i < 6; ++i) {
        r->parents[i] = parents[i];
        r->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make((reach_real)offsets[i], 0, 0));
        r->joints[i] = hinged[i] ? reach_joint_hinge(reach_vec3_make(0, 0, 1), lo, lo + width) : reach_joint_fixed();
    }
    rig_finish(r, 6, 1);
}

/* The crank's end driven twice round the circle in 200 frames (each frame solved from the last
 * one's answer) while the coupler's end meets the rocker's; returns the frames missed and the
 * crank's largest miss in radians. */
static int drive_crank(const rig *r, reach_jacobian_method method, double *worst_angle) {
    reach_transform pose[6];
    reach_pose_rest(&r->skeleton, pose);
    int missed = 0;
    *worst_angle = 0;
    for (int f = 1; f <= 200; ++f) {
        double angle = 4 * M_PI * f / 200;
        reach_target targets[2] = {
            reach_target_position(2, reach_vec3_make((reach_real)cos(angle), (reach_real)sin(angle), 0)),
            reach_target_meet(3, 5)};
        reach_solve_result result = solve(r, targets, 2, method, pose);
        missed += !result.reached;
        assert_true(reach_pose_limit_error(&r->skeleton, pose, NULL) <= 1e-5);
        reach_transform world[6];
        reach_forward_kinematics(&r->skeleton, pose, world);
        double crank = atan2((double)world[2].translation.y, (double)world[2].translation.x);
        *worst_angle = fmax(*worst_angle, fabs(remainder(crank - angle, 2 * M_PI)));
    }
    return missed;
}

static void four_bar_crank_turns_round(void **state) {
    (void)state;
    /* ±π, a full turn off centre, and ±2π (the ranges that always reached). */
    const reach_real lows[3] = {-REACH_PI, -REACH_PI / 2, -2 * REACH_PI};
    const reach_real widths[3] = {2 * REACH_PI, 2 * REACH_PI, 4 * REACH_PI};
    for (int k = 0; k < 3; ++k) {
        rig r;
        four_bar(&r, lows[k], widths[k]);
        assert_int_equal(reach_skeleton_validate(&r.skeleton, NULL), REACH_OK);
        for (int m = 0; m < 3; ++m) {
            double worst;
            int missed = drive_crank(&r, converging_methods[m], &worst);
            if (missed)
                fail_msg("range [%g, %g], %s: %d of 200 frames missed, the crank up to %.1f degrees off",
                         (double)lows[k], (double)(lows[k] + widths[k]),
                         reach_jacobian_method_name(converging_methods[m]), missed, worst * 180 / M_PI);
            assert_true(worst < 1e-3);
        }
    }
}

/* ---- chains across the seam --------------------------------------------------------------- */

/* 2 to 6 hinges about random axes, links 0.5 to 1.5 along random directions, a fixed tip; the
 * hinges' range [lo, lo + width]. */
static int random_chain(rig *r, test_rng *rng, reach_real lo, reach_real width) {
    int hinges = 2 + (int)(test_rng_next(rng) % 5);
    for (int i = 0; i <= hinges; ++i) {
        r->parents[i] = i - 1;
        reach_vec3 link = reach_vec3_scale(test_unit_vec3(rng), i ? test_uniform(rng, REACH_R(0.5), REACH_R(1.5)) : 0);
        r->rest[i] = reach_transform_make(reach_quat_identity(), link);
        r->joints[i] = i < hinges ? reach_joint_hinge(test_unit_vec3(rng), lo, lo + width) : reach_joint_fixed();
    }
    rig_finish(r, hinges + 1, 1);
    return hinges;
}

/* The same chain with another range on every hinge. */
static void with_range(const rig *from, rig *to, reach_real lo, reach_real width) {
    *to = *from;
    for (int i = 0; i < from->skeleton.bone_count; ++i)
        if (to->joints[i].type == REACH_JOINT_HINGE)
            to->joints[i] = reach_joint_hinge(from->joints[i].axis, lo, lo + width);
    rig_finish(to, from->skeleton.bone_count, 1);
}

/* Start angles within half a radian of the seam at ±π for at least one hinge, target angles on
 * its other side (the others anywhere, moved up to a radian): the tip's target is where forward
 * kinematics puts it. A chain of full-turn hinges must reach as often as the same chain with ±2π
 * ranges, which never stood in the way; it reached far less often while the seam held it. */
static void targets_across_the_seam_reach_as_with_wider_ranges(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5ea3);
    const int cases = test_scaled(3000);
    for (int m = 0; m < 3; ++m) {
        int reached_full = 0, reached_wide = 0, limited = 0;
        for (int c = 0; c < cases; ++c) {
            rig full, wide;
            int hinges = random_chain(&full, &rng, -REACH_PI, 2 * REACH_PI);
            with_range(&full, &wide, -2 * REACH_PI, 4 * REACH_PI);
            reach_real start[RIG_MAX_BONES], goal[RIG_MAX_BONES];
            for (int i = 0; i < hinges; ++i) {
                start[i] = test_uniform(&rng, -REACH_PI, REACH_PI);
                goal[i] = (reach_real)remainder((double)(start[i] + test_uniform(&rng, -1, 1)), 2 * M_PI);
            }
            int crossing = (int)(test_rng_next(&rng) % (uint64_t)hinges);
            reach_real side = test_rng_next(&rng) % 2 ? 1 : -1;
            start[crossing] = side * (REACH_PI - test_uniform(&rng, 0, REACH_R(0.5)));
            goal[crossing] = -side * (REACH_PI - test_uniform(&rng, 0, REACH_R(0.5)));
            reach_transform pose_full[RIG_MAX_BONES], pose_wide[RIG_MAX_BONES], world[RIG_MAX_BONES];
            reach_pose_rest(&full.skeleton, pose_full);
            assert_int_equal(reach_pose_set_values(&full.skeleton, goal, hinges, 1, pose_full), REACH_OK);
            reach_forward_kinematics(&full.skeleton, pose_full, world);
            reach_target target = reach_target_position(hinges, world[hinges].translation);
            assert_int_equal(reach_pose_set_values(&full.skeleton, start, hinges, 1, pose_full), REACH_OK);
            memcpy(pose_wide, pose_full, sizeof pose_full);
            reach_solve_result rf = solve(&full, &target, 1, converging_methods[m], pose_full);
            reach_solve_result rw = solve(&wide, &target, 1, converging_methods[m], pose_wide);
            reached_full += rf.reached;
            reached_wide += rw.reached;
            limited += rf.limited;
            assert_true(reach_pose_limit_error(&full.skeleton, pose_full, NULL) <= 1e-5);
        }
        print_message("%-13s across the seam: full turn reached %d, ±2π %d of %d\n",
                      reach_jacobian_method_name(converging_methods[m]), reached_full, reached_wide, cases);
        assert_int_equal(limited, 0); /* a full turn has no limit to be held by */
        assert_true(reached_full + cases / 200 >= reached_wide);
    }
}

/* ---- the projections ------------------------------------------------------------------------ */

/* A range of a whole turn or more holds every angle: reach_angle_clamp gives the same rotation
 * back, a hinge's projection reports no clamping, and no pose is outside its limits. */
static void whole_turn_ranges_never_clamp(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x7a11);
    for (int c = 0; c < TEST_CASES; ++c) {
        reach_real lo = c % 4 == 0 ? -REACH_PI : test_uniform(&rng, -10, 10);
        reach_real hi = lo + 2 * REACH_PI + (c % 3 == 0 ? 0 : test_uniform(&rng, 0, 10));
        reach_real angle = c % 5 == 0 ? (c % 2 ? lo : hi) + test_uniform(&rng, -1, 1) * 8 * REACH_REAL_EPSILON
                                      : test_uniform(&rng, -100, 100);
        reach_real kept = reach_angle_clamp(angle, lo, hi);
        assert_true(kept >= lo && kept <= hi);
        ASSERT_NEAR(remainder((double)kept - (double)angle, 2 * M_PI), 0, 1e-4 * (1 + fabs((double)angle)),
                    "same rotation");
        reach_vec3 axis = test_unit_vec3(&rng);
        reach_joint hinge = reach_joint_hinge(axis, lo, hi);
        reach_quat delta = reach_quat_from_axis_angle(axis, angle), projected;
        assert_int_equal(reach_joint_project_delta(&hinge, delta, &projected), 0);
        ASSERT_QUAT_NEAR(projected, delta, 1e-4, "projected hinge");
        reach_transform rest = reach_transform_identity();
        reach_transform local = reach_transform_make(delta, reach_vec3_zero());
        assert_true(reach_joint_limit_error(&hinge, &rest, &local) <= 1024 * REACH_REAL_EPSILON);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(four_bar_crank_turns_round),
        cmocka_unit_test(targets_across_the_seam_reach_as_with_wider_ranges),
        cmocka_unit_test(whole_turn_ranges_never_clamp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
