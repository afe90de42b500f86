/* CCD: reach rate over random reachable targets for 2 to 64 bones, limits, prismatic joints,
 * orientation targets, the per-step cap, determinism and errors. */
#include "test_fabrik_rigs.h"

static reach_status ccd(const reach_skeleton *sk, const reach_target *targets, int count,
                        const reach_solver_settings *settings, reach_transform *pose, reach_solve_result *result) {
    return rig_solve(reach_ccd_solve, reach_ccd_scratch_size, sk, targets, count, settings, pose, result);
}

static void reaches_random_targets(void **state) {
    (void)state;
    rig_reach_rates("ccd", reach_ccd_solve, reach_ccd_scratch_size, 0.99, 0xccd00);
}

static void limits_hold_on_random_chains(void **state) {
    (void)state;
    rig_limit_stats s = rig_limited_random_targets(reach_ccd_solve, reach_ccd_scratch_size, test_scaled(4000), 0xcc1);
    double rate = (double)s.reached_reachable / (double)s.reachable;
    print_message(
        "ccd, limited chains: worst limit error %.2g rad; targets reachable within the limits reached %.2f%%\n",
        s.worst_limit_error, 100 * rate);
    assert_true(s.worst_limit_error <= RIG_LIMIT_TOL);
    /* Measured 81%; a floor to catch regressions. */
    assert_true(rate >= 0.75);
}

static void two_hinges_settle_at_nearest_allowed_pose(void **state) {
    (void)state;
    int cases = test_scaled(400), at_best = rig_two_hinge_nearest(reach_ccd_solve, reach_ccd_scratch_size, cases, 0x2b);
    print_message("ccd, two hinges: at the nearest allowed pose in %d of %d cases\n", at_best, cases);
    assert_true(at_best >= cases * 85 / 100);
}

static void prismatic_slides_within_range(void **state) {
    (void)state;
    rig r;
    r.parents[0] = -1;
    r.parents[1] = 0;
    r.rest[0] = reach_transform_identity();
    r.rest[1] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, 1, 0));
    r.joints[0] = reach_joint_prismatic(reach_vec3_make(1, 0, 0), -1, 1);
    r.joints[1] = reach_joint_ball();
    rig_finish(&r, 2, 1);
    reach_transform pose[RIG_MAX_BONES];
    reach_solve_result result;
    reach_pose_rest(&r.skeleton, pose);
    reach_target target = reach_target_position(1, reach_vec3_make(REACH_R(0.6), 1, 0));
    assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, pose, &result), REACH_OK);
    assert_true(result.reached);
    ASSERT_VEC3_NEAR(pose[0].translation, reach_vec3_make(REACH_R(0.6), 0, 0), 1e-5, "slid");
    target.position = reach_vec3_make(3, 1, 0);
    assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, pose, &result), REACH_OK);
    assert_false(result.reached);
    assert_true(result.limited);
    ASSERT_VEC3_NEAR(pose[0].translation, reach_vec3_make(1, 0, 0), 1e-5, "stopped at the end of its range");
    ASSERT_NEAR(result.residual, 2, 1e-5, "what is left");
}

/* Random reachable poses (position and orientation of the end bone) on ball-jointed chains. */
static void reaches_position_and_orientation(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x6d);
    int cases = test_scaled(3000), reached = 0;
    for (int c = 0; c < cases; ++c) {
        rig r;
        rig_random_chain(&r, &rng, 3 + c % 6, 1);
        int tip = r.skeleton.bone_count - 1;
        reach_transform pose[RIG_MAX_BONES], world[RIG_MAX_BONES];
        rig_random_pose(&r.skeleton, &rng, pose);
        reach_forward_kinematics(&r.skeleton, pose, world);
        reach_target target = reach_target_position(tip, world[tip].translation);
        target.use_orientation = 1;
        target.orientation = world[tip].rotation;
        reach_pose_rest(&r.skeleton, pose);
        reach_solve_result result;
        assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, pose, &result), REACH_OK);
        reach_forward_kinematics(&r.skeleton, pose, world);
        ASSERT_NEAR(result.angle_residual, reach_quat_angle_between(world[tip].rotation, target.orientation), 1e-4,
                    "angle residual");
        ASSERT_NEAR(result.residual, reach_vec3_distance(world[tip].translation, target.position), 1e-5 * r.length,
                    "residual");
        reached += result.reached;
    }
    print_message("ccd, position and orientation: reached %d of %d\n", reached, cases);
    assert_true(reached >= cases * 99 / 100);
}

/* With ccd_max_step, one iteration turns no ball or hinge joint further than the cap. (A cone
 * projects the capped turn onto itself afterwards, which may move it a little further.) */
static void max_step_caps_each_turn(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x57);
    reach_solver_settings settings = reach_solver_default_settings();
    settings.ccd_max_step = REACH_R(0.05);
    settings.max_iterations = 1;
    for (int c = 0; c < 1000; ++c) {
        rig r;
        int links = 2 + c % 8;
        rig_random_chain(&r, &rng, links, 1);
        for (int i = 0; i <= links; ++i)
            r.joints[i] = i % 2 ? reach_joint_ball() : reach_joint_hinge(test_unit_vec3(&rng), -2, 2);
        rig_finish(&r, links + 1, 1);
        reach_transform start[RIG_MAX_BONES], pose[RIG_MAX_BONES];
        rig_random_pose(&r.skeleton, &rng, start);
        memcpy(pose, start, sizeof start);
        reach_target target = reach_target_position(r.skeleton.bone_count - 1, test_in_ball(&rng, r.length));
        reach_solve_result result;
        assert_int_equal(ccd(&r.skeleton, &target, 1, &settings, pose, &result), REACH_OK);
        for (int i = 0; i < r.skeleton.bone_count; ++i)
            assert_true(reach_quat_angle_between(start[i].rotation, pose[i].rotation) <= settings.ccd_max_step + 1e-4);
    }
}

/* Ten-bone chains of cones along their bones, each target the end of a random pose inside the
 * cones (so every one is reachable), solved from the straight rest or a bent warm start within
 * 256 iterations: sweeps alone crawl there (84 to 94 % reached before FABRIK's iterations took
 * over within the reach); now at least 99 % at 0.4, 0.8 and 1.2 rad, and every solve inside the
 * cones. */
static double cone_chain_rate(reach_real cone, int warm, uint64_t seed, int cases) {
    static unsigned char scratch[1 << 16];
    test_rng rng = test_rng_make(seed);
    int reached = 0;
    for (int c = 0; c < cases; ++c) {
        rig r;
        rig_straight_chain_equal(&r, 10, 1);
        for (int i = 0; i <= 10; ++i)
            r.joints[i] = reach_joint_cone(reach_vec3_make(0, 1, 0), cone);
        rig_finish(&r, 11, 1);
        reach_transform goal_pose[RIG_MAX_BONES], world[RIG_MAX_BONES], pose[RIG_MAX_BONES];
        reach_pose_rest(&r.skeleton, goal_pose);
        reach_pose_rest(&r.skeleton, pose);
        for (int i = 0; i <= 10; ++i) {
            reach_vec3 across = test_unit_vec3(&rng);
            across.y = 0;
            across = reach_vec3_normalize_safe(across, reach_vec3_make(1, 0, 0));
            goal_pose[i].rotation = reach_quat_from_axis_angle(across, test_uniform(&rng, 0, cone));
            if (warm) pose[i].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), cone / 2);
        }
        reach_forward_kinematics(&r.skeleton, goal_pose, world);
        reach_target target = reach_target_position(10, world[10].translation);
        reach_solver_settings settings = reach_solver_default_settings();
        settings.max_iterations = 256;
        reach_solve_result result;
        assert_int_equal(reach_ccd_solve(&r.skeleton, &target, 1, &settings, pose, scratch, sizeof scratch, &result),
                         REACH_OK);
        assert_true(reach_pose_limit_error(&r.skeleton, pose, NULL) <= RIG_LIMIT_TOL);
        reached += result.reached;
    }
    return (double)reached / cases;
}

static void cone_chains_reach_within_their_cones(void **state) {
    (void)state;
    const reach_real cones[3] = {REACH_R(0.4), REACH_R(0.8), REACH_R(1.2)};
    int cases = test_scaled(1000);
    for (int k = 0; k < 3; ++k)
        for (int warm = 0; warm < 2; ++warm) {
            double rate = cone_chain_rate(cones[k], warm, 0xc0e + (uint64_t)(2 * k + warm), cases);
            print_message("ccd, ten 1-bone links in %.1f rad cones, %s: %.2f%% reached\n", (double)cones[k],
                          warm ? "warm" : "cold", 100 * rate);
            if (cases >= 1000) assert_true(rate >= 0.99);
        }
}

static void same_input_same_bits(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5b);
    for (int c = 0; c < 300; ++c) {
        rig r;
        rig_random_limited_chain(&r, &rng, 2 + c % 12);
        reach_transform start[RIG_MAX_BONES], a[RIG_MAX_BONES], b[RIG_MAX_BONES];
        rig_random_pose(&r.skeleton, &rng, start);
        memcpy(a, start, sizeof start);
        memcpy(b, start, sizeof start);
        reach_target target = reach_target_position(r.skeleton.bone_count - 1, test_in_ball(&rng, r.length));
        reach_solve_result ra, rb;
        assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, a, &ra), REACH_OK);
        assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, b, &rb), REACH_OK);
        assert_true(test_bytes_equal(a, b, rig_pose_bytes(&r.skeleton)));
        assert_true(rig_same_result(&ra, &rb));
    }
}

static void bad_input_is_an_error_and_leaves_pose(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xba);
    rig r;
    rig_random_chain(&r, &rng, 4, 1);
    reach_transform pose[RIG_MAX_BONES], before[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    memcpy(before, pose, sizeof pose);
    reach_target target = reach_target_position(4, reach_vec3_make((reach_real)NAN, 0, 0));
    reach_solve_result result;
    assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, pose, &result), REACH_ERROR_NOT_FINITE);
    assert_true(test_bytes_equal(pose, before, rig_pose_bytes(&r.skeleton)));
    reach_solver_settings settings = reach_solver_default_settings();
    settings.ccd_max_step = -1;
    target.position = reach_vec3_make(1, 1, 1);
    assert_int_equal(ccd(&r.skeleton, &target, 1, &settings, pose, &result), REACH_ERROR_INVALID_ARGUMENT);
    assert_true(test_bytes_equal(pose, before, rig_pose_bytes(&r.skeleton)));
    size_t need = reach_ccd_scratch_size(&r.skeleton, 1);
    unsigned char *scratch = (unsigned char *)malloc(need);
    assert_int_equal(reach_ccd_solve(&r.skeleton, &target, 1, NULL, pose, scratch, need - 1, &result),
                     REACH_ERROR_BUFFER_TOO_SMALL);
    assert_true(test_bytes_equal(pose, before, rig_pose_bytes(&r.skeleton)));
    free(scratch);
}

/* The named degenerate cases: a target at the root, a straight chain whose target lies on its
 * line (behind the root, ahead inside the reach), a fully folded start, and tiny and huge
 * scales. */
static void degenerate_cases(void **state) {
    (void)state;
    reach_transform pose[RIG_MAX_BONES];
    reach_solve_result result;
    rig r;
    rig_straight_chain_equal(&r, 2, 1);
    reach_target target = reach_target_position(2, reach_vec3_zero());
    reach_pose_rest(&r.skeleton, pose);
    assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, pose, &result), REACH_OK);
    assert_true(result.reached);
    for (int links = 2; links <= 12; ++links) {
        rig_straight_chain_equal(&r, links, 1);
        reach_real n = (reach_real)links;
        reach_vec3 goals[2] = {reach_vec3_make(0, -0.5f * n, 0), reach_vec3_make(0, 0.5f * n, 0)};
        for (int g = 0; g < 2; ++g) {
            target = reach_target_position(links, goals[g]);
            reach_pose_rest(&r.skeleton, pose);
            assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, pose, &result), REACH_OK);
            assert_true(result.reached);
        }
        /* Folded: every bone half a turn from its parent. */
        reach_pose_rest(&r.skeleton, pose);
        for (int i = 1; i < links; ++i)
            pose[i].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_PI);
        target = reach_target_position(links, reach_vec3_make(0.3f * n, 0.2f * n, 0.1f * n));
        assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, pose, &result), REACH_OK);
        assert_true(result.reached);
    }
    static const reach_real scales[] = {REACH_R(1e-6), REACH_R(1e6)};
    for (int k = 0; k < 2; ++k) {
        test_rng rng = test_rng_make(0xde);
        int reached = 0, cases = test_scaled(1000);
        for (int c = 0; c < cases; ++c) {
            rig_random_chain(&r, &rng, 2 + c % 8, scales[k]);
            rig_random_pose(&r.skeleton, &rng, pose);
            target = reach_target_position(r.skeleton.bone_count - 1,
                                           rig_joint_position(&r.skeleton, pose, r.skeleton.bone_count - 1));
            reach_pose_rest(&r.skeleton, pose);
            assert_int_equal(ccd(&r.skeleton, &target, 1, NULL, pose, &result), REACH_OK);
            assert_true(rig_pose_is_finite(&r.skeleton, pose));
            reached += result.reached;
        }
        print_message("ccd at scale %g: reached %d of %d\n", (double)scales[k], reached, cases);
        assert_true(reached >= cases * 99 / 100);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reaches_random_targets),
        cmocka_unit_test(limits_hold_on_random_chains),
        cmocka_unit_test(two_hinges_settle_at_nearest_allowed_pose),
        cmocka_unit_test(prismatic_slides_within_range),
        cmocka_unit_test(reaches_position_and_orientation),
        cmocka_unit_test(max_step_caps_each_turn),
        cmocka_unit_test(degenerate_cases),
        cmocka_unit_test(cone_chains_reach_within_their_cones),
        cmocka_unit_test(same_input_same_bits),
        cmocka_unit_test(bad_input_is_an_error_and_leaves_pose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
