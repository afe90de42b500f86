/* The Jacobian solvers where a first-order method has nothing to go on, and the contract's
 * edges: a chain lying straight on the line to its target (every column moves the end across the
 * line, none along it: every method gave up after one iteration, `limited` 0), target weights of
 * any scale (only their ratios count), and a pose that already reaches (left bit for bit). */
#include <string.h>

#include "test_support.h"

static const reach_jacobian_method all_methods[4] = {REACH_JACOBIAN_TRANSPOSE, REACH_JACOBIAN_PSEUDOINVERSE,
                                                     REACH_JACOBIAN_DLS, REACH_JACOBIAN_SDLS};

typedef struct chain {
    int parents[8];
    reach_transform rest[8];
    reach_joint joints[8];
    reach_skeleton skeleton;
} chain;

/* `bones` bones straight up +y, one unit apart (bone 0 at the origin), ball joints or hinges
 * about +z with the range [-3, 3] (every goal below is within it). */
static void make_chain(chain *c, int bones, int hinges) {
    for (int i = 0; i < bones; ++i) {
        c->parents[i] = i - 1;
        c->rest[i] = reach_transform_identity();
        c->rest[i].translation = reach_vec3_make(0, i ? 1 : 0, 0);
        c->joints[i] = hinges ? reach_joint_hinge(reach_vec3_make(0, 0, 1), -3, 3) : reach_joint_ball();
    }
    c->skeleton = (reach_skeleton){bones, c->parents, c->rest, c->joints};
}

static reach_status solve(const chain *c, const reach_target *target, const reach_solver_settings *settings,
                          reach_transform *pose, reach_solve_result *result) {
    static unsigned char scratch[1 << 16];
    size_t need = reach_jacobian_scratch_size(&c->skeleton, 1);
    assert_true(need > 0 && need <= sizeof scratch);
    return reach_jacobian_solve(&c->skeleton, target, 1, settings, pose, scratch, need, result);
}

/* Four bones straight up: targets on that line inside the reach (ahead, at the root, behind
 * it, a ten-thousandth off it), a planar arm of hinges, and a tip meeting its grandparent. */
static void straight_chains_bend_off_their_line(void **state) {
    (void)state;
    const reach_vec3 goals[] = {{0, 1, 0}, {0, 0, 0}, {0, -2, 0}, {REACH_R(1e-4), 1, 0}, {0, REACH_R(1.5), 0}};
    for (int m = 0; m < 4; ++m) {
        reach_solver_settings settings = reach_solver_default_settings();
        settings.jacobian_method = all_methods[m];
        for (int g = 0; g < 5; ++g) {
            for (int hinges = 0; hinges < 2; ++hinges) {
                chain c;
                make_chain(&c, 4, hinges);
                reach_transform pose[8];
                reach_pose_rest(&c.skeleton, pose);
                reach_target target = reach_target_position(3, goals[g]);
                reach_solve_result result;
                assert_int_equal(solve(&c, &target, &settings, pose, &result), REACH_OK);
                if (!result.reached)
                    fail_msg("%s, %s, goal %d: %d iterations, residual %g", reach_jacobian_method_name(all_methods[m]),
                             hinges ? "hinges" : "balls", g, result.iterations, (double)result.residual);
                for (int i = 0; i < 4; ++i)
                    assert_true(reach_joint_limit_error(&c.joints[i], &c.rest[i], &pose[i]) <= 1e-5);
            }
        }
        /* The tip meets its grandparent: the pair lies on one line, the gap along it. */
        chain c;
        make_chain(&c, 4, 0);
        reach_transform pose[8];
        reach_pose_rest(&c.skeleton, pose);
        reach_target meet = reach_target_meet(3, 1);
        reach_solve_result result;
        assert_int_equal(solve(&c, &meet, &settings, pose, &result), REACH_OK);
        assert_true(result.reached);
    }
}

/* A lone target solves bit for bit alike at any weight (the weights are divided by the
 * heaviest); before, 0.001 missed and 1e20 overflowed in float. */
static void weights_are_relative(void **state) {
    (void)state;
    const reach_real weights[] = {
        1, REACH_R(0.01), REACH_R(0.001), REACH_R(1e-6), REACH_R(1e-30), REACH_R(1e20), REACH_R(3e37)};
    reach_transform first[8];
    for (size_t w = 0; w < sizeof weights / sizeof weights[0]; ++w) {
        chain c;
        make_chain(&c, 4, 0);
        reach_transform pose[8];
        reach_pose_rest(&c.skeleton, pose);
        reach_target target = reach_target_position(3, reach_vec3_make(1, 1, 0));
        target.weight = weights[w];
        reach_solve_result result;
        assert_int_equal(solve(&c, &target, NULL, pose, &result), REACH_OK);
        assert_true(result.reached);
        if (w == 0)
            memcpy(first, pose, sizeof first);
        else
            assert_memory_equal(first, pose, 4 * sizeof(reach_transform));
    }
}

/* A pose that already reaches comes back bit for bit, quaternions of any length included (the
 * solver normalised them and rewrote hinges); one outside its limits comes back inside. */
static void a_pose_that_reaches_is_left_alone(void **state) {
    (void)state;
    chain c;
    make_chain(&c, 4, 0);
    reach_transform pose[8], before[8];
    reach_pose_rest(&c.skeleton, pose);
    pose[1].rotation = reach_quat_make(0, 0, 0, 2);
    memcpy(before, pose, sizeof pose);
    reach_target target = reach_target_position(3, reach_vec3_make(0, 3, 0));
    reach_solve_result result;
    assert_int_equal(solve(&c, &target, NULL, pose, &result), REACH_OK);
    assert_int_equal(result.iterations, 0);
    assert_true(result.reached);
    assert_memory_equal(before, pose, 4 * sizeof(reach_transform));

    /* Hinges about +z; bone 1 turned about +x as well, off its axis and outside its joint. */
    make_chain(&c, 4, 1);
    reach_pose_rest(&c.skeleton, pose);
    pose[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(1e-3));
    assert_int_equal(solve(&c, &target, NULL, pose, &result), REACH_OK);
    assert_true(reach_joint_limit_error(&c.joints[1], &c.rest[1], &pose[1]) <= 1e-6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(straight_chains_bend_off_their_line),
        cmocka_unit_test(weights_are_relative),
        cmocka_unit_test(a_pose_that_reaches_is_left_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
