/* Settings: IK defaults are not zero, so a settings struct that was not made by
 * reach_solver_default_settings (a zeroed one, say) is refused by every iterative solver with
 * REACH_ERROR_SETTINGS_NOT_INITIALIZED and the pose untouched, never solved as a silent no-op;
 * NULL settings mean the defaults, bit for bit. */
#include "test_fabrik_rigs.h"

#define SCRATCH_BYTES (1 << 16)

static unsigned char scratch[SCRATCH_BYTES];

typedef struct named_solver {
    const char *name;
    rig_solver solve;
    rig_scratch_size size;
} named_solver;

static const named_solver solvers[] = {
    {"fabrik", reach_fabrik_solve, reach_fabrik_scratch_size},
    {"ccd", reach_ccd_solve, reach_ccd_scratch_size},
    {"jacobian", reach_jacobian_solve, reach_jacobian_scratch_size},
};

static void zeroed_settings_are_refused(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5e7);
    for (size_t s = 0; s < sizeof solvers / sizeof solvers[0]; ++s) {
        rig r;
        rig_random_chain(&r, &rng, 5, 1);
        reach_transform pose[RIG_MAX_BONES], before[RIG_MAX_BONES];
        rig_random_pose(&r.skeleton, &rng, pose);
        memcpy(before, pose, rig_pose_bytes(&r.skeleton));
        reach_target target = reach_target_position(5, test_in_ball(&rng, REACH_R(0.5) * r.length));
        reach_solver_settings zeroed;
        memset(&zeroed, 0, sizeof zeroed);
        reach_solve_result result = {7, 1, 1, 0, 1};
        reach_status st = solvers[s].solve(&r.skeleton, &target, 1, &zeroed, pose, scratch, SCRATCH_BYTES, &result);
        if (st != REACH_ERROR_SETTINGS_NOT_INITIALIZED) fail_msg("%s: status %d", solvers[s].name, (int)st);
        assert_true(test_bytes_equal(pose, before, rig_pose_bytes(&r.skeleton)));
        assert_int_equal(result.iterations, 7); /* the result too is left alone */

        /* The same struct made by the defaults and then changed is taken. */
        reach_solver_settings made = reach_solver_default_settings();
        made.max_iterations = 0;
        assert_int_equal(solvers[s].solve(&r.skeleton, &target, 1, &made, pose, scratch, SCRATCH_BYTES, &result),
                         REACH_OK);
    }
}

static void zeroed_settings_are_refused_in_2d(void **state) {
    (void)state;
    reach_vec2 joints[3] = {{0, 0}, {1, 0}, {2, 0}}, before[3];
    memcpy(before, joints, sizeof joints);
    const reach_real lengths[2] = {1, 1};
    reach_fabrik_2d_chain chain = {2, joints, lengths, NULL, NULL, {1, 0}};
    reach_solver_settings zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    assert_int_equal(reach_fabrik_solve_2d(&chain, reach_vec2_make(1, 1), &zeroed, NULL),
                     REACH_ERROR_SETTINGS_NOT_INITIALIZED);
    assert_true(test_bytes_equal(joints, before, sizeof joints));
}

/* NULL settings and the defaults give the same bits, on random limited chains. */
static void null_settings_mean_the_defaults(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5e8);
    reach_solver_settings defaults = reach_solver_default_settings();
    for (int c = 0; c < test_scaled(300); ++c) {
        const named_solver *s = &solvers[c % 3];
        rig r;
        rig_random_limited_chain(&r, &rng, 2 + c % 7);
        reach_transform start[RIG_MAX_BONES], a[RIG_MAX_BONES], b[RIG_MAX_BONES];
        rig_random_pose(&r.skeleton, &rng, start);
        memcpy(a, start, rig_pose_bytes(&r.skeleton));
        memcpy(b, start, rig_pose_bytes(&r.skeleton));
        reach_target target = reach_target_position(r.skeleton.bone_count - 1, test_in_ball(&rng, r.length));
        reach_solve_result ra, rb;
        assert_int_equal(s->solve(&r.skeleton, &target, 1, NULL, a, scratch, SCRATCH_BYTES, &ra), REACH_OK);
        assert_int_equal(s->solve(&r.skeleton, &target, 1, &defaults, b, scratch, SCRATCH_BYTES, &rb), REACH_OK);
        assert_true(test_bytes_equal(a, b, rig_pose_bytes(&r.skeleton)));
        assert_true(rig_same_result(&ra, &rb));
    }
}

static void the_refusal_has_a_message(void **state) {
    (void)state;
    const char *message = reach_status_string(REACH_ERROR_SETTINGS_NOT_INITIALIZED);
    assert_non_null(strstr(message, "default"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zeroed_settings_are_refused),
        cmocka_unit_test(zeroed_settings_are_refused_in_2d),
        cmocka_unit_test(null_settings_mean_the_defaults),
        cmocka_unit_test(the_refusal_has_a_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
