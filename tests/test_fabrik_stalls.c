/* Where FABRIK and CCD used to stop short, reported by their users, each pinned by name: a
 * one-sided hinge starting straight (the leg of cli/examples/leg_rig.json, and a small arm with
 * such hinges), a closed loop whose two ends start on one line, the 2-D solver's stop on a
 * limited chain, a closed loop that converged slowly (a four-bar linkage turned frame by frame),
 * and the honesty of a result that stops short. */
#include <stdio.h>

#include "test_fabrik_rigs.h"

static const rig_named_solver solvers[] = RIG_FABRIK_AND_CCD;

/* A stop short of the targets says why: a joint's range was in the way (limited), or the cap
 * ran out. A target within reach is never left unreached for no reason. */
static void assert_honest(const reach_solve_result *result, const reach_solver_settings *settings) {
    if (!result->reached && !result->limited && result->iterations < settings->max_iterations)
        fail_msg("stopped short after %d iterations, residual %g, not limited", result->iterations,
                 (double)result->residual);
}

/* ---- one-sided hinges starting straight ------------------------------------------------- */

/* cli/examples/leg_rig.json: a ball hip at (0, 1, 0), a knee 0.45 below it that bends about x
 * within [0, 2.6] (the shin swings back, toward -z), the ankle 0.42 below the knee. */
static void leg_rig(rig *r) {
    r->parents[0] = -1;
    r->parents[1] = 0;
    r->parents[2] = 1;
    r->rest[0] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, 1, 0));
    r->rest[1] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, REACH_R(-0.45), 0));
    r->rest[2] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, REACH_R(-0.42), 0));
    r->joints[0] = reach_joint_ball();
    r->joints[1] = reach_joint_hinge(reach_vec3_make(1, 0, 0), 0, REACH_R(2.6));
    r->joints[2] = reach_joint_ball();
    rig_finish(r, 3, 1);
}

/* The foot sent forward and up, to (0, 0.3, 0.4): within reach (0.806 of 0.87 from the hip),
 * but only with the thigh turned forward and the knee bent back. From the straight rest pose
 * both solvers used to stop with the leg straight, 0.064 past the target, `limited` 0. */
static void straight_leg_bends_its_one_sided_knee(void **state) {
    (void)state;
    rig r;
    leg_rig(&r);
    reach_vec3 goal = reach_vec3_make(0, REACH_R(0.3), REACH_R(0.4));
    for (int k = 0; k < 2; ++k) {
        reach_transform pose[RIG_MAX_BONES];
        reach_pose_rest(&r.skeleton, pose);
        reach_target target = reach_target_position(2, goal);
        reach_solver_settings settings = reach_solver_default_settings();
        reach_solve_result result;
        assert_int_equal(rig_solve_named(&solvers[k], &r.skeleton, &target, 1, &settings, pose, &result), REACH_OK);
        print_message("%s, leg to (0, 0.3, 0.4) from straight: %d iterations, residual %.3g, reached %d, limited %d\n",
                      solvers[k].name, result.iterations, (double)result.residual, result.reached, result.limited);
        assert_true(reach_pose_limit_error(&r.skeleton, pose, NULL) <= RIG_LIMIT_TOL);
        ASSERT_NEAR(result.residual, reach_vec3_distance(rig_joint_position(&r.skeleton, pose, 2), goal), 1e-5,
                    "residual");
        assert_true(result.reached);
    }
}

/* The leg from straight toward points all round it within its reach, each one the ankle of an
 * allowed pose (a random hip rotation, a knee angle in its range): every one is reached. */
static void straight_leg_reaches_allowed_points(void **state) {
    (void)state;
    rig r;
    leg_rig(&r);
    for (int k = 0; k < 2; ++k) {
        test_rng rng = test_rng_make(0x1e6);
        int cases = test_scaled(1000), reached = 0;
        for (int c = 0; c < cases; ++c) {
            reach_transform pose[RIG_MAX_BONES];
            reach_pose_rest(&r.skeleton, pose);
            pose[0].rotation = test_unit_quat(&rng);
            pose[1].rotation =
                reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), test_uniform(&rng, 0, REACH_R(2.6)));
            reach_target target = reach_target_position(2, rig_joint_position(&r.skeleton, pose, 2));
            reach_pose_rest(&r.skeleton, pose);
            reach_solver_settings settings = reach_solver_default_settings();
            reach_solve_result result;
            assert_int_equal(rig_solve_named(&solvers[k], &r.skeleton, &target, 1, &settings, pose, &result), REACH_OK);
            assert_true(reach_pose_limit_error(&r.skeleton, pose, NULL) <= RIG_LIMIT_TOL);
            assert_honest(&result, &settings);
            reached += result.reached;
        }
        print_message("%s, leg from straight to allowed points: reached %d of %d\n", solvers[k].name, reached, cases);
        assert_true(reached >= cases * 999 / 1000);
    }
}

/* The small arm of cli/tests/test_cli_limits.c: a base turning within ±0.5 about z, a shoulder
 * bending about y within [0, 1.2] and an elbow within [-2, 0] (both one-sided, straight at
 * rest), a wrist cone of 0.5 about the bone, and the tip. */
static void limited_arm(rig *r) {
    static const reach_real offsets[5] = {0, REACH_R(0.3), REACH_R(0.5), REACH_R(0.4), REACH_R(0.1)};
    for (int i = 0; i < 5; ++i) {
        r->parents[i] = i - 1;
        r->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, 0, offsets[i]));
    }
    reach_vec3 y = reach_vec3_make(0, 1, 0), z = reach_vec3_make(0, 0, 1);
    r->joints[0] = reach_joint_hinge(z, REACH_R(-0.5), REACH_R(0.5));
    r->joints[1] = reach_joint_hinge(y, 0, REACH_R(1.2));
    r->joints[2] = reach_joint_hinge(y, -2, 0);
    r->joints[3] = reach_joint_cone(z, REACH_R(0.5));
    r->joints[4] = reach_joint_ball();
    rig_finish(r, 5, 1);
}

/* Targets made by forward kinematics of hinge values drawn inside their ranges (the wrist
 * straight), each solved from the straight rest pose with the command line's cap of 1000
 * iterations: FABRIK used to miss 93 of 1000 (CCD none), stopping with a one-sided hinge at
 * its straight end. */
static void arm_with_one_sided_hinges_reaches_allowed_targets(void **state) {
    (void)state;
    rig r;
    limited_arm(&r);
    for (int k = 0; k < 2; ++k) {
        test_rng rng = test_rng_make(2024);
        int cases = test_scaled(1000), reached = 0;
        long iterations = 0;
        for (int c = 0; c < cases; ++c) {
            reach_real values[3];
            for (int i = 0; i < 3; ++i)
                values[i] = test_uniform(&rng, r.joints[i].min, r.joints[i].max);
            reach_transform pose[RIG_MAX_BONES];
            reach_pose_rest(&r.skeleton, pose);
            assert_int_equal(reach_pose_set_values(&r.skeleton, values, 3, 0, pose), REACH_OK);
            reach_target target = reach_target_position(4, rig_joint_position(&r.skeleton, pose, 4));
            reach_pose_rest(&r.skeleton, pose);
            reach_solver_settings settings = reach_solver_default_settings();
            settings.max_iterations = 1000;
            reach_solve_result result;
            assert_int_equal(rig_solve_named(&solvers[k], &r.skeleton, &target, 1, &settings, pose, &result), REACH_OK);
            assert_true(reach_pose_limit_error(&r.skeleton, pose, NULL) <= RIG_LIMIT_TOL);
            assert_honest(&result, &settings);
            reached += result.reached;
            iterations += result.iterations;
        }
        print_message("%s, arm with one-sided hinges from straight: reached %d of %d, mean iterations %.2f\n",
                      solvers[k].name, reached, cases, (double)iterations / cases);
        assert_true(reached >= cases * 995 / 1000);
    }
}

/* ---- a closed loop starting on one line ------------------------------------------------- */

/* Two arms of two bones (0.6 each) hang from a fixed root, one from (-1, 0, 0) and one from
 * (1, 0, 0), both straight along the x axis toward each other and past each other's ends: the
 * left hand at x = 0.2, the right at x = -0.2, 0.4 apart on the one line. Every CCD turn about
 * a joint on that line leaves the ends on it, so CCD used to stop after two iterations with the
 * gap 0.4. */
static void meeting_arms_straight_on_one_line(void **state) {
    (void)state;
    rig r;
    static const reach_real x[7] = {0, -1, REACH_R(0.6), REACH_R(0.6), 1, REACH_R(-0.6), REACH_R(-0.6)};
    static const int parents[7] = {-1, 0, 1, 2, 0, 4, 5};
    for (int i = 0; i < 7; ++i) {
        r.parents[i] = parents[i];
        r.rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(x[i], 0, 0));
        r.joints[i] = reach_joint_ball();
    }
    r.joints[0] = reach_joint_fixed();
    rig_finish(&r, 7, 1);
    for (int k = 0; k < 2; ++k) {
        reach_transform pose[RIG_MAX_BONES];
        reach_pose_rest(&r.skeleton, pose);
        reach_target meet = reach_target_meet(3, 6);
        reach_solver_settings settings = reach_solver_default_settings();
        reach_solve_result result;
        assert_int_equal(rig_solve_named(&solvers[k], &r.skeleton, &meet, 1, &settings, pose, &result), REACH_OK);
        print_message("%s, arms meeting from one line: %d iterations, gap %.3g, reached %d\n", solvers[k].name,
                      result.iterations, (double)result.residual, result.reached);
        assert_true(rig_length_error(&r.skeleton, pose) <= TEST_LENGTH_TOL);
        ASSERT_NEAR(
            result.residual,
            reach_vec3_distance(rig_joint_position(&r.skeleton, pose, 3), rig_joint_position(&r.skeleton, pose, 6)),
            1e-5, "residual is the gap");
        assert_true(result.reached);
    }
}

/* ---- 2-D with angle limits -------------------------------------------------------------- */

/* Three bones of 0.9, 0.85 and 0.65 with turns limited to [-0.8, 1.5], [-2.8, 0.3] and
 * [-2.5, 1.6] from +x, sent to (1.2, 0): reachable (from the second start the solve gets
 * there). From the third start, with the last two bones folded against their upper limits,
 * every greedy step leads away and the solve used to stop after four iterations 0.534 short. */
static void limited_2d_chain_does_not_give_up(void **state) {
    (void)state;
    reach_real lengths[3] = {REACH_R(0.9), REACH_R(0.85), REACH_R(0.65)};
    reach_real lo[3] = {REACH_R(-0.8), REACH_R(-2.8), REACH_R(-2.5)},
               hi[3] = {REACH_R(1.5), REACH_R(0.3), REACH_R(1.6)};
    static const reach_real starts[3][4][2] = {{{0, 0}, {0.776f, 0.455f}, {1.355f, -0.167f}, {1.798f, -0.643f}},
                                               {{0, 0}, {0.45f, 0.78f}, {1.04f, 0.17f}, {1.49f, -0.30f}},
                                               {{0, 0}, {0.801f, -0.411f}, {0.951f, -1.248f}, {0.448f, -0.837f}}};
    reach_vec2 target = reach_vec2_make(REACH_R(1.2), 0);
    for (int s = 0; s < 3; ++s) {
        reach_vec2 joints[4];
        for (int i = 0; i < 4; ++i)
            joints[i] = reach_vec2_make(starts[s][i][0], starts[s][i][1]);
        reach_fabrik_2d_chain chain = {3, joints, lengths, lo, hi, reach_vec2_make(1, 0)};
        reach_solver_settings settings = reach_solver_default_settings();
        reach_solve_result result;
        assert_int_equal(reach_fabrik_solve_2d(&chain, target, &settings, &result), REACH_OK);
        print_message("fabrik 2-D, limited three bones, start %d: %d iterations, residual %.4g, limited %d\n", s,
                      result.iterations, (double)result.residual, result.limited);
        ASSERT_NEAR(result.residual, reach_vec2_distance(joints[3], target), 1e-5, "residual");
        assert_true(result.reached);
    }
    /* From random starts inside the limits: 27% used to stop short. */
    test_rng rng = test_rng_make(0x2d9);
    int cases = test_scaled(2000), reached = 0;
    for (int c = 0; c < cases; ++c) {
        reach_vec2 joints[4];
        joints[0] = reach_vec2_make(0, 0);
        reach_real heading = 0;
        for (int i = 0; i < 3; ++i) {
            heading += test_uniform(&rng, lo[i], hi[i]);
            joints[i + 1] = reach_vec2_add(
                joints[i], reach_vec2_make(reach_cos(heading) * lengths[i], reach_sin(heading) * lengths[i]));
        }
        reach_fabrik_2d_chain chain = {3, joints, lengths, lo, hi, reach_vec2_make(1, 0)};
        reach_solve_result result;
        assert_int_equal(reach_fabrik_solve_2d(&chain, target, NULL, &result), REACH_OK);
        assert_true(result.reached || result.limited);
        reached += result.reached;
    }
    print_message("fabrik 2-D, limited three bones from random starts: reached %d of %d\n", reached, cases);
    assert_true(reached >= cases * 99 / 100);
}

/* The demo's tentacle: ten bones (0.17 down to 0.08) within ±0.42 rad (24°) of their parent,
 * the first within ±0.7 of straight up, following a target round a closed path, 250 frames,
 * each warm-started from the last. 14 frames hit the 64-iteration cap (float; 16 in double),
 * most where the limits keep the end from the target and CCD creeps toward the nearest pose;
 * three frames within reach stopped short saying nothing of why. Every stop short now says
 * limited; the cap count is held where it is (still weak). */
static reach_vec2 tentacle_target(double t) {
    double a = 2 * 3.14159265358979323846 * t / 10.0;
    double phi = 1.95 * sin(a), r = 0.93 + 0.38 * sin(3 * a + 0.6);
    return reach_vec2_make((reach_real)(r * sin(phi)), (reach_real)(r * cos(phi)));
}

static void tentacle_follows_without_hitting_the_cap(void **state) {
    (void)state;
    enum { BONES = 10, FRAMES = 250 };
    reach_real lengths[BONES], lo[BONES], hi[BONES];
    reach_vec2 joints[BONES + 1];
    joints[0] = reach_vec2_make(0, 0);
    for (int i = 0; i < BONES; ++i) {
        lengths[i] = REACH_R(0.17) - REACH_R(0.01) * (reach_real)i;
        hi[i] = i == 0 ? REACH_R(0.7) : REACH_R(0.42);
        lo[i] = -hi[i];
        joints[i + 1] = reach_vec2_add(joints[i], reach_vec2_make(0, lengths[i]));
    }
    reach_fabrik_2d_chain chain = {BONES, joints, lengths, lo, hi, reach_vec2_make(0, 1)};
    reach_solver_settings settings = reach_solver_default_settings();
    int capped = 0, reached = 0, dishonest = 0, worst = 0;
    long iterations = 0;
    for (int k = 0; k < FRAMES; ++k) {
        reach_solve_result result;
        assert_int_equal(reach_fabrik_solve_2d(&chain, tentacle_target(0.04 * k), &settings, &result), REACH_OK);
        capped += result.iterations >= settings.max_iterations;
        reached += result.reached;
        dishonest += !result.reached && !result.limited && result.iterations < settings.max_iterations &&
                     reach_vec2_length(tentacle_target(0.04 * k)) < REACH_R(1.25);
        iterations += result.iterations;
        worst = result.iterations > worst ? result.iterations : worst;
    }
    print_message("fabrik 2-D tentacle, %d frames: reached %d, at the cap %d, mean iterations %.2f, most %d\n", FRAMES,
                  reached, capped, (double)iterations / FRAMES, worst);
    assert_int_equal(dishonest, 0);
    assert_true(capped <= 18);
}

/* ---- a four-bar linkage, frame by frame -------------------------------------------------- */

/* The demo's crank-rocker: a fixed ground bone at (-0.5, 0), a crank (0.3) and coupler (0.9)
 * from it, a rocker (0.7) from the pivot 1.0 along; hinges about z that turn all the way. A
 * position target turns the crank pin 1.8° a frame, and REACH_TARGET_MEET joins the coupler's
 * end to the rocker's. Warm-started, FABRIK used to need up to 112 iterations on a frame. */
enum { GROUND, CRANK, COUPLER, COUPLER_END, ROCKER, ROCKER_END, LINKAGE_BONES };

static void crank_rocker(rig *r) {
    static const int parents[LINKAGE_BONES] = {-1, GROUND, CRANK, COUPLER, GROUND, ROCKER};
    static const reach_real offsets[LINKAGE_BONES] = {0, 0, REACH_R(0.3), REACH_R(0.9), 1, REACH_R(0.7)};
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    for (int i = 0; i < LINKAGE_BONES; ++i) {
        r->parents[i] = parents[i];
        r->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(offsets[i], 0, 0));
        r->joints[i] = reach_joint_hinge(z, -REACH_PI, REACH_PI);
    }
    r->joints[GROUND] = reach_joint_fixed();
    r->rest[GROUND].translation = reach_vec3_make(REACH_R(-0.5), 0, 0);
    r->rest[CRANK].rotation = reach_quat_from_axis_angle(z, REACH_PI / 2);
    rig_finish(r, LINKAGE_BONES, 1);
}

/* Turns the linkage round once, 200 frames, warm-started; returns the most iterations a frame
 * took and counts the frames that closed. */
static int turn_crank_rocker(const rig_named_solver *s, int *closed, double *mean) {
    rig r;
    crank_rocker(&r);
    reach_transform pose[RIG_MAX_BONES], world[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = 400;
    int worst = 0;
    long total = 0;
    *closed = 0;
    /* A first solve at the first crank angle closes the loop from the rest pose; then frames. */
    for (int k = -1; k < 200; ++k) {
        double angle = 3.14159265358979323846 / 2 + 2 * 3.14159265358979323846 * (k < 0 ? 0 : k) / 200;
        reach_target targets[2] = {reach_target_position(COUPLER, reach_vec3_make((reach_real)(-0.5 + 0.3 * cos(angle)),
                                                                                  (reach_real)(0.3 * sin(angle)), 0)),
                                   reach_target_meet(COUPLER_END, ROCKER_END)};
        reach_solve_result result;
        assert_int_equal(rig_solve_named(s, &r.skeleton, targets, 2, &settings, pose, &result), REACH_OK);
        if (k < 0) continue;
        reach_forward_kinematics(&r.skeleton, pose, world);
        assert_true(reach_vec3_distance(world[COUPLER].translation, world[CRANK].translation) > 0.29f);
        worst = result.iterations > worst ? result.iterations : worst;
        total += result.iterations;
        *closed += result.reached;
    }
    *mean = (double)total / 200;
    return worst;
}

static void four_bar_linkage_converges_quickly(void **state) {
    (void)state;
    for (int k = 0; k < 2; ++k) {
        int closed;
        double mean;
        int worst = turn_crank_rocker(&solvers[k], &closed, &mean);
        print_message("%s, crank-rocker turned once (200 frames): closed %d, mean iterations %.2f, most %d\n",
                      solvers[k].name, closed, mean, worst);
        assert_int_equal(closed, 200);
        if (k == 0) assert_true(worst <= 4);
    }
}

/* ---- honest results on limited chains --------------------------------------------------- */

/* Random limited chains and targets made by forward kinematics of allowed poses, started from
 * the rest pose projected into the limits (one-sided ranges start at their ends): whatever is
 * not reached is flagged limited or stopped at the cap. */
static void limited_chains_from_rest_stop_short_honestly(void **state) {
    (void)state;
    for (int k = 0; k < 2; ++k) {
        test_rng rng = test_rng_make(0x5107);
        int cases = 3000, reached = 0, dishonest = 0;
        for (int c = 0; c < cases; ++c) {
            rig r;
            int links = 2 + c % 8;
            rig_random_limited_chain(&r, &rng, links);
            reach_transform pose[RIG_MAX_BONES];
            rig_random_pose(&r.skeleton, &rng, pose);
            reach_target target = reach_target_position(links, rig_joint_position(&r.skeleton, pose, links));
            reach_pose_rest(&r.skeleton, pose);
            for (int i = 0; i <= links; ++i)
                reach_joint_project_local(&r.joints[i], &r.rest[i], &pose[i]);
            reach_solver_settings settings = reach_solver_default_settings();
            reach_solve_result result;
            assert_int_equal(rig_solve_named(&solvers[k], &r.skeleton, &target, 1, &settings, pose, &result), REACH_OK);
            assert_true(reach_pose_limit_error(&r.skeleton, pose, NULL) <= RIG_LIMIT_TOL);
            if (!result.reached && !result.limited && result.iterations < settings.max_iterations) {
                print_message("%s, case %d: stopped after %d iterations, residual %g, not limited\n", solvers[k].name,
                              c, result.iterations, (double)result.residual);
                ++dishonest;
            }
            reached += result.reached;
        }
        print_message("%s, limited chains from rest toward allowed targets: reached %.2f%%, %d stopped short "
                      "without saying why\n",
                      solvers[k].name, 100.0 * reached / cases, dishonest);
        assert_int_equal(dishonest, 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(straight_leg_bends_its_one_sided_knee),
        cmocka_unit_test(straight_leg_reaches_allowed_points),
        cmocka_unit_test(arm_with_one_sided_hinges_reaches_allowed_targets),
        cmocka_unit_test(meeting_arms_straight_on_one_line),
        cmocka_unit_test(limited_2d_chain_does_not_give_up),
        cmocka_unit_test(tentacle_follows_without_hitting_the_cap),
        cmocka_unit_test(four_bar_linkage_converges_quickly),
        cmocka_unit_test(limited_chains_from_rest_stop_short_honestly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
