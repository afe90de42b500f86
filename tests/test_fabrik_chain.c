/* FABRIK on single chains: reach rate over random reachable targets for 2 to 64 bones, lengths,
 * unreachable targets, moving the root, warm starts, determinism, scratch, errors, and the
 * degenerate cases by name. */
#include <stdio.h>

#include "test_fabrik_rigs.h"

static reach_status fabrik(const reach_skeleton *sk, const reach_target *targets, int count,
                           const reach_solver_settings *settings, reach_transform *pose, reach_solve_result *result) {
    return rig_solve(reach_fabrik_solve, reach_fabrik_scratch_size, sk, targets, count, settings, pose, result);
}

/* Solves toward `goal` from the rest pose; checks the solve succeeded, kept lengths and reports
 * its true residual. */
static reach_solve_result solve_to(const rig *r, reach_vec3 goal, const reach_solver_settings *settings,
                                   reach_transform *pose) {
    const reach_skeleton *sk = &r->skeleton;
    int tip = sk->bone_count - 1;
    reach_target target = reach_target_position(tip, goal);
    reach_solve_result result;
    reach_pose_rest(sk, pose);
    assert_int_equal(fabrik(sk, &target, 1, settings, pose, &result), REACH_OK);
    assert_true(rig_pose_is_finite(sk, pose));
    assert_true(rig_length_error(sk, pose) <= TEST_LENGTH_TOL);
    ASSERT_NEAR(result.residual, reach_vec3_distance(rig_joint_position(sk, pose, tip), goal), 1e-5 * r->length,
                "residual");
    return result;
}

/* ---- reach rate ------------------------------------------------------------------------- */

static void reaches_random_targets(void **state) {
    (void)state;
    rig_reach_rates("fabrik", reach_fabrik_solve, reach_fabrik_scratch_size, 0.999, 0xfab00);
}

/* ---- out of reach ----------------------------------------------------------------------- */

static void unreachable_target_straightens_chain(void **state) {
    (void)state;
    test_rng rng = test_rng_make(31);
    reach_solver_settings settings = reach_solver_default_settings();
    for (int c = 0; c < 500; ++c) {
        rig r;
        rig_random_chain(&r, &rng, 2 + c % 7, 1);
        reach_vec3 goal = reach_vec3_scale(test_unit_vec3(&rng), r.length * test_uniform(&rng, REACH_R(1.01), 3));
        reach_transform pose[RIG_MAX_BONES];
        reach_solve_result result = solve_to(&r, goal, &settings, pose);
        rig_assert_straight_toward(&r, pose, goal, &result, 1e-2);
    }
}

static void move_root_reaches_unreachable_target(void **state) {
    (void)state;
    test_rng rng = test_rng_make(32);
    reach_solver_settings settings = reach_solver_default_settings();
    settings.fabrik_move_root = 1;
    for (int c = 0; c < 500; ++c) {
        rig r;
        rig_random_chain(&r, &rng, 2 + c % 7, 1);
        reach_vec3 goal = reach_vec3_scale(test_unit_vec3(&rng), r.length * test_uniform(&rng, REACH_R(1.2), 4));
        reach_transform pose[RIG_MAX_BONES];
        reach_solve_result result = solve_to(&r, goal, &settings, pose);
        assert_true(result.reached);
        /* The root went toward the target, by about what the chain lacked. */
        reach_vec3 moved = pose[0].translation;
        ASSERT_NEAR(reach_vec3_length(moved), reach_vec3_length(goal) - r.length, 2e-2 * r.length, "root moved");
        assert_true(reach_vec3_dot(moved, goal) > 0);
    }
}

/* ---- warm start, determinism ------------------------------------------------------------ */

static void warm_start_from_solution_does_nothing(void **state) {
    (void)state;
    test_rng rng = test_rng_make(33);
    reach_solver_settings settings = reach_solver_default_settings();
    for (int c = 0; c < 300; ++c) {
        rig r;
        rig_random_chain(&r, &rng, 2 + c % 10, 1);
        reach_transform pose[RIG_MAX_BONES], again[RIG_MAX_BONES];
        rig_random_pose(&r.skeleton, &rng, pose);
        reach_vec3 goal = rig_joint_position(&r.skeleton, pose, r.skeleton.bone_count - 1);
        reach_solve_result result = solve_to(&r, goal, &settings, pose);
        if (!result.reached) continue;
        memcpy(again, pose, sizeof(reach_transform) * (size_t)r.skeleton.bone_count);
        reach_target target = reach_target_position(r.skeleton.bone_count - 1, goal);
        assert_int_equal(fabrik(&r.skeleton, &target, 1, &settings, again, &result), REACH_OK);
        assert_int_equal(result.iterations, 0);
        assert_true(result.reached);
        assert_true(test_bytes_equal(again, pose, sizeof(reach_transform) * (size_t)r.skeleton.bone_count));
    }
}

static void same_input_same_bits(void **state) {
    (void)state;
    test_rng rng = test_rng_make(34);
    reach_solver_settings settings = reach_solver_default_settings();
    for (int c = 0; c < 300; ++c) {
        rig r;
        rig_random_chain(&r, &rng, 2 + c % 20, 1);
        reach_transform start[RIG_MAX_BONES], a[RIG_MAX_BONES], b[RIG_MAX_BONES];
        rig_random_pose(&r.skeleton, &rng, start);
        reach_target target = reach_target_position(r.skeleton.bone_count - 1, test_in_ball(&rng, r.length * 1.2f));
        size_t bytes = sizeof(reach_transform) * (size_t)r.skeleton.bone_count;
        memcpy(a, start, bytes);
        memcpy(b, start, bytes);
        reach_solve_result ra, rb;
        assert_int_equal(fabrik(&r.skeleton, &target, 1, &settings, a, &ra), REACH_OK);
        assert_int_equal(fabrik(&r.skeleton, &target, 1, &settings, b, &rb), REACH_OK);
        assert_true(test_bytes_equal(a, b, bytes));
        assert_true(rig_same_result(&ra, &rb));
    }
}

/* ---- scratch and errors ----------------------------------------------------------------- */

static void short_scratch_is_an_error(void **state) {
    (void)state;
    rig r;
    rig_straight_chain_equal(&r, 6, 1);
    reach_transform pose[RIG_MAX_BONES], before[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    memcpy(before, pose, sizeof pose);
    reach_target target = reach_target_position(6, reach_vec3_make(2, 2, 0));
    size_t need = reach_fabrik_scratch_size(&r.skeleton, 1);
    assert_true(need > 0);
    unsigned char *scratch = (unsigned char *)malloc(need);
    assert_int_equal(reach_fabrik_solve(&r.skeleton, &target, 1, NULL, pose, scratch, need - 1, NULL),
                     REACH_ERROR_BUFFER_TOO_SMALL);
    assert_true(test_bytes_equal(pose, before, rig_pose_bytes(&r.skeleton)));
    assert_int_equal(reach_fabrik_solve(&r.skeleton, &target, 1, NULL, pose, scratch, need, NULL), REACH_OK);
    free(scratch);
    assert_int_equal(reach_fabrik_scratch_size(NULL, 1), 0);
}

/* Every error leaves the pose exactly as it was. */
static void expect_error(const rig *r, const reach_target *targets, int count, const reach_solver_settings *settings,
                         const reach_transform *pose, reach_status expected) {
    reach_transform copy[RIG_MAX_BONES];
    size_t bytes = sizeof(reach_transform) * (size_t)r->skeleton.bone_count;
    memcpy(copy, pose, bytes);
    reach_solve_result result;
    assert_int_equal(fabrik(&r->skeleton, targets, count, settings, copy, &result), expected);
    assert_true(test_bytes_equal(copy, pose, bytes));
}

static void bad_input_is_an_error_and_leaves_pose(void **state) {
    (void)state;
    rig r;
    rig_straight_chain_equal(&r, 4, 1);
    reach_transform pose[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    reach_solver_settings settings = reach_solver_default_settings();
    reach_target target = reach_target_position(4, reach_vec3_make(1, 2, 0));
    reach_real nan = (reach_real)NAN;

    reach_target bad = target;
    bad.position.y = nan;
    expect_error(&r, &bad, 1, &settings, pose, REACH_ERROR_NOT_FINITE);
    bad = target;
    bad.position.x = (reach_real)INFINITY;
    expect_error(&r, &bad, 1, &settings, pose, REACH_ERROR_NOT_FINITE);
    bad = target;
    bad.weight = nan;
    expect_error(&r, &bad, 1, &settings, pose, REACH_ERROR_NOT_FINITE);
    bad = target;
    bad.weight = 0;
    expect_error(&r, &bad, 1, &settings, pose, REACH_ERROR_INVALID_ARGUMENT);
    bad = target;
    bad.bone = 9;
    expect_error(&r, &bad, 1, &settings, pose, REACH_ERROR_INVALID_ARGUMENT);
    bad = target;
    bad.use_orientation = 1;
    bad.orientation = reach_quat_make(0, 0, 0, 0);
    expect_error(&r, &bad, 1, &settings, pose, REACH_ERROR_BAD_QUATERNION);

    reach_transform bad_pose[RIG_MAX_BONES];
    memcpy(bad_pose, pose, sizeof pose);
    bad_pose[2].rotation.z = nan;
    expect_error(&r, &target, 1, &settings, bad_pose, REACH_ERROR_NOT_FINITE);
    memcpy(bad_pose, pose, sizeof pose);
    bad_pose[3].translation.x = nan;
    expect_error(&r, &target, 1, &settings, bad_pose, REACH_ERROR_NOT_FINITE);

    reach_solver_settings bad_settings = settings;
    bad_settings.tolerance = nan;
    expect_error(&r, &target, 1, &bad_settings, pose, REACH_ERROR_NOT_FINITE);
    bad_settings = settings;
    bad_settings.max_iterations = -1;
    expect_error(&r, &target, 1, &bad_settings, pose, REACH_ERROR_INVALID_ARGUMENT);
    bad_settings = settings;
    bad_settings.root_bone = 2; /* fine: bone 4 descends from 2 */
    reach_target above = reach_target_position(1, reach_vec3_make(0, 1, 0));
    expect_error(&r, &above, 1, &bad_settings, pose, REACH_ERROR_BAD_CHAIN);

    rig broken = r;
    broken.rest[2].translation.y = nan;
    rig_finish(&broken, r.skeleton.bone_count, 0);
    expect_error(&broken, &target, 1, &settings, pose, REACH_ERROR_NOT_FINITE);
    broken = r;
    broken.parents[3] = 3;
    rig_finish(&broken, r.skeleton.bone_count, 0);
    expect_error(&broken, &target, 1, &settings, pose, REACH_ERROR_BAD_PARENT);

    /* Finite but too large to square. */
    bad = target;
#ifdef REACH_DOUBLE
    bad.position.x = 1e200;
#else
    bad.position.x = 1e30f;
#endif
    expect_error(&r, &bad, 1, &settings, pose, REACH_ERROR_OUT_OF_RANGE);
}

static void no_iterations_leaves_pose(void **state) {
    (void)state;
    rig r;
    rig_straight_chain_equal(&r, 3, 1);
    reach_transform pose[RIG_MAX_BONES], before[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    memcpy(before, pose, sizeof pose);
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = 0;
    reach_target target = reach_target_position(3, reach_vec3_make(1, 1, 0));
    reach_solve_result result;
    assert_int_equal(fabrik(&r.skeleton, &target, 1, &settings, pose, &result), REACH_OK);
    assert_int_equal(result.iterations, 0);
    assert_false(result.reached);
    ASSERT_NEAR(result.residual, reach_vec3_distance(reach_vec3_make(0, 3, 0), target.position), 1e-5, "residual");
    assert_true(test_bytes_equal(pose, before, rig_pose_bytes(&r.skeleton)));
}

/* ---- degenerate cases ------------------------------------------------------------------- */

static void target_at_root(void **state) {
    (void)state;
    reach_solver_settings settings = reach_solver_default_settings();
    reach_transform pose[RIG_MAX_BONES];
    /* Two equal bones fold back onto the root exactly. */
    rig r;
    rig_straight_chain_equal(&r, 2, 1);
    assert_true(solve_to(&r, reach_vec3_zero(), &settings, pose).reached);
    /* Longer chains whose bones can close a loop reach it too. */
    reach_real lengths[] = {1, 0.7f, 0.9f, 0.5f};
    rig_straight_chain(&r, 4, lengths);
    assert_true(solve_to(&r, reach_vec3_zero(), &settings, pose).reached);
    /* A chain whose first bone outreaches the rest cannot: the best is the rest folded back,
     * which leaves 2 − (0.5 + 0.5) = 1. */
    reach_real lopsided[] = {2, 0.5f, 0.5f};
    rig_straight_chain(&r, 3, lopsided);
    reach_solve_result result = solve_to(&r, reach_vec3_zero(), &settings, pose);
    assert_false(result.reached);
    ASSERT_NEAR(result.residual, 1, 1e-3, "folded residual");
}

static void fully_folded_chain(void **state) {
    (void)state;
    reach_solver_settings settings = reach_solver_default_settings();
    test_rng rng = test_rng_make(35);
    for (int c = 0; c < 200; ++c) {
        rig r;
        int links = 2 + c % 6;
        rig_straight_chain_equal(&r, links, 1);
        /* Start folded: every bone turned half a turn from its parent, zig-zagging on the y axis. */
        reach_transform pose[RIG_MAX_BONES];
        reach_pose_rest(&r.skeleton, pose);
        for (int i = 1; i < links; ++i)
            pose[i].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_PI);
        reach_vec3 goal = test_in_ball(&rng, (reach_real)links * REACH_R(0.9));
        reach_target target = reach_target_position(links, goal);
        reach_solve_result result;
        assert_int_equal(fabrik(&r.skeleton, &target, 1, &settings, pose, &result), REACH_OK);
        assert_true(rig_pose_is_finite(&r.skeleton, pose));
        assert_true(result.reached);
    }
}

static void straight_chain_target_on_its_line(void **state) {
    (void)state;
    reach_solver_settings settings = reach_solver_default_settings();
    reach_transform pose[RIG_MAX_BONES];
    for (int links = 2; links <= 12; ++links) {
        rig r;
        rig_straight_chain_equal(&r, links, 1);
        reach_real n = (reach_real)links;
        /* Exactly behind the root, and ahead inside the reach: both need the chain to leave its
         * line, which FABRIK's passes alone never do. */
        assert_true(solve_to(&r, reach_vec3_make(0, -0.5f * n, 0), &settings, pose).reached);
        assert_true(solve_to(&r, reach_vec3_make(0, 0.5f * n, 0), &settings, pose).reached);
        /* Behind, beyond reach: straight backward. */
        reach_solve_result far = solve_to(&r, reach_vec3_make(0, -2 * n, 0), &settings, pose);
        assert_false(far.reached);
        ASSERT_NEAR(far.residual, n, 1e-3 * n, "behind, out of reach");
    }
}

/* Straight chains of uneven links, at lengths whose sums round, with the target on the chain's
 * own line ahead and behind: the two-bone step then finds the middle joint on the line from the
 * root, where what is left of the joint across that line is rounding, some of it along the line
 * itself. The chain must still bend off the line with its links whole and reach. */
static void straight_chain_on_its_line_at_uneven_lengths(void **state) {
    (void)state;
    reach_solver_settings settings = reach_solver_default_settings();
    reach_transform pose[RIG_MAX_BONES];
    const reach_real scales[] = {REACH_R(0.3), REACH_R(0.7), REACH_R(1.3), REACH_R(3.1)};
    for (int si = 0; si < 4; ++si) {
        for (int links = 2; links <= 12; ++links) {
            reach_real lengths[RIG_MAX_BONES], total = 0;
            for (int i = 0; i < links; ++i) {
                lengths[i] = scales[si] * (1 + REACH_R(0.37) * (reach_real)(i % 3));
                total += lengths[i];
            }
            rig r;
            rig_straight_chain(&r, links, lengths);
            for (int side = -1; side <= 1; side += 2) {
                reach_vec3 goal = reach_vec3_make(0, (reach_real)side * REACH_R(0.45) * total, 0);
                reach_solve_result result = solve_to(&r, goal, &settings, pose);
                assert_true(result.reached);
            }
        }
    }
}

static void tiny_and_huge_scales(void **state) {
    (void)state;
    static const reach_real scales[] = {REACH_R(1e-6), REACH_R(1e6)};
    reach_solver_settings settings = reach_solver_default_settings();
    for (int k = 0; k < 2; ++k) {
        test_rng rng = test_rng_make(36);
        int reached = 0, cases = 1000;
        for (int c = 0; c < cases; ++c) {
            rig r;
            rig_random_chain(&r, &rng, 2 + c % 8, scales[k]);
            reach_transform pose[RIG_MAX_BONES];
            rig_random_pose(&r.skeleton, &rng, pose);
            reach_vec3 goal = rig_joint_position(&r.skeleton, pose, r.skeleton.bone_count - 1);
            reach_solve_result result = solve_to(&r, goal, &settings, pose);
            assert_true(result.residual >= 0);
            reached += result.reached;
        }
        print_message("fabrik at scale %g: reached %d of %d\n", (double)scales[k], reached, cases);
        assert_true(reached >= cases * 999 / 1000);
    }
}

/* A chain far from the origin, its links a few hundred roundings of their coordinates long:
 * the iterations then lay links at lengths that differ from the skeleton's by more than the
 * rotation recovery's one-step normalisation takes, so it makes their directions unit the plain
 * way. The answer must still be whole: rotations unit, the end where forward kinematics puts it,
 * as near the target as the coordinates can say. */
static void far_from_the_origin(void **state) {
    (void)state;
#ifdef REACH_DOUBLE
    const reach_real offset = REACH_R(1e8);
#else
    const reach_real offset = REACH_R(1e4);
#endif
    const reach_real ulp = offset * REACH_REAL_EPSILON;
    reach_solver_settings settings = reach_solver_default_settings();
    test_rng rng = test_rng_make(0xfa7);
    reach_real worst_residual = 0, worst_unit = 0, worst_report = 0;
    for (int c = 0; c < 500; ++c) {
        rig r;
        rig_random_chain(&r, &rng, 2 + c % 9, 400 * ulp);
        r.rest[0].translation = reach_vec3_make(offset, -offset / 2, offset / 3);
        const reach_skeleton *sk = &r.skeleton;
        int tip = sk->bone_count - 1;
        reach_transform pose[RIG_MAX_BONES];
        rig_random_pose(sk, &rng, pose);
        reach_vec3 goal = rig_joint_position(sk, pose, tip);
        reach_target target = reach_target_position(tip, goal);
        reach_pose_rest(sk, pose);
        reach_solve_result result;
        assert_int_equal(fabrik(sk, &target, 1, &settings, pose, &result), REACH_OK);
        assert_true(rig_pose_is_finite(sk, pose));
        for (int b = 0; b < sk->bone_count; ++b) {
            reach_quat q = pose[b].rotation;
            worst_unit = reach_max(worst_unit, reach_fabs(reach_sqrt(reach_quat_dot(q, q)) - 1));
        }
        reach_real residual = reach_vec3_distance(rig_joint_position(sk, pose, tip), goal);
        worst_residual = reach_max(worst_residual, residual / ulp);
        worst_report = reach_max(worst_report, reach_fabs(result.residual - residual) / ulp);
    }
    print_message("far from the origin: residual up to %.1f ulp, reported within %.1f ulp, rotations unit to %.2g\n",
                  (double)worst_residual, (double)worst_report, (double)worst_unit);
    assert_true(worst_unit <= 4 * REACH_REAL_EPSILON);
    assert_true(worst_residual <= 8);
    assert_true(worst_report <= 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reaches_random_targets),
        cmocka_unit_test(unreachable_target_straightens_chain),
        cmocka_unit_test(move_root_reaches_unreachable_target),
        cmocka_unit_test(warm_start_from_solution_does_nothing),
        cmocka_unit_test(same_input_same_bits),
        cmocka_unit_test(short_scratch_is_an_error),
        cmocka_unit_test(bad_input_is_an_error_and_leaves_pose),
        cmocka_unit_test(no_iterations_leaves_pose),
        cmocka_unit_test(target_at_root),
        cmocka_unit_test(fully_folded_chain),
        cmocka_unit_test(straight_chain_target_on_its_line),
        cmocka_unit_test(straight_chain_on_its_line_at_uneven_lengths),
        cmocka_unit_test(tiny_and_huge_scales),
        cmocka_unit_test(far_from_the_origin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
