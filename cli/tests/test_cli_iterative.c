/* The iterative solvers (fabrik, ccd, jacobian) through the CLI on a free chain: reachable
 * targets reached, unreachable ones reported with the distance that is really left, lengths
 * kept, the printed pose consistent, and each solver's options doing what docs/cli.md says. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const solvers[] = {"fabrik", "ccd", "jacobian"};
#define SOLVER_COUNT 3

/* Four ball-jointed bones of 0.25 up from the origin: length 1, default tolerance 1e-4. */
#define CHAIN                                                                                                          \
    "{'bones':[{'name':'b0'},{'name':'b1','parent':'b0','position':[0,0.25,0]},"                                       \
    "{'name':'b2','parent':'b1','position':[0,0.25,0]},{'name':'b3','parent':'b2','position':[0,0.25,0]},"             \
    "{'name':'tip','parent':'b3','position':[0,0.25,0]}]}"
static const int chain_parents[5] = {-1, 0, 1, 2, 3};

/* Solves the chain's tip toward target with solver (and extra solver fields, e.g. ",'seed':3"). */
static cli_run solve_chain(const char *solver, const char *solver_extra, reach_vec3 target) {
    char request[2048];
    snprintf(request, sizeof request,
             "{'rig':" CHAIN ",'solver':{'type':'%s'%s},'targets':[{'bone':'tip','position':[%.17g,%.17g,%.17g]}]}",
             solver, solver_extra, target.x, target.y, target.z);
    return solve_ok(request);
}

static void assert_lengths_kept(const cJSON *result) {
    for (int i = 1; i < 5; i++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "bones[%d].world_position", i - 1);
        snprintf(b, sizeof b, "bones[%d].world_position", i);
        assert_true(fabs(reach_vec3_distance(json_vec3(result, a), json_vec3(result, b)) - 0.25) < 1e-12);
    }
}

static reach_vec3 random_point(uint64_t *seed, double min_radius, double max_radius) {
    for (;;) {
        double c[3];
        for (int k = 0; k < 3; k++) {
            *seed = *seed * 6364136223846793005u + 1442695040888963407u;
            c[k] = ((double)(*seed >> 11) / 9007199254740992.0) * 2 - 1;
        }
        reach_vec3 p = reach_vec3_make(c[0] * max_radius, c[1] * max_radius, c[2] * max_radius);
        double r = reach_vec3_length(p);
        if (r >= min_radius && r <= max_radius) return p;
    }
}

/* Seeded targets inside the chain's reach: every solver reaches every one, within the default
 * tolerance of 1e-4 × the chain's length, keeping lengths and printing a consistent pose. */
static void reachable_targets_are_reached(void **state) {
    (void)state;
    for (int s = 0; s < SOLVER_COUNT; s++) {
        uint64_t seed = 99;
        for (int i = 0; i < 20; i++) {
            reach_vec3 target = random_point(&seed, 0.2, 0.95);
            cli_run run = solve_chain(solvers[s], "", target);
            if (!cJSON_IsTrue(json_at(run.json, "reached")))
                fail_msg("%s did not reach (%g, %g, %g): %s", solvers[s], target.x, target.y, target.z, run.out);
            double residual = json_number(run.json, "residual");
            assert_true(residual <= 1e-4);
            assert_true(fabs(reach_vec3_distance(json_vec3(run.json, "bones[4].world_position"), target) - residual) <
                        1e-12);
            assert_true(json_number(run.json, "iterations") >= 1);
            assert_non_null(json_at(run.json, "limited"));
            assert_lengths_kept(run.json);
            assert_self_consistent(run.json, chain_parents, 5);
            cli_run_free(&run);
        }
    }
}

/* Twice the chain's length away: not reached, and the residual is the distance the printed pose
 * really leaves, at least the gap no pose can close (distance − length) and close to it. */
static void unreachable_target_reports_what_is_left(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0.8, 1.6, -0.8);
    double gap = reach_vec3_length(target) - 1;
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run run = solve_chain(solvers[s], "", target);
        assert_true(cJSON_IsFalse(json_at(run.json, "reached")));
        double residual = json_number(run.json, "residual");
        assert_true(fabs(reach_vec3_distance(json_vec3(run.json, "bones[4].world_position"), target) - residual) <
                    1e-12);
        assert_true(residual >= gap - 1e-12);
        assert_true(residual <= gap + 0.01);
        assert_lengths_kept(run.json);
        cli_run_free(&run);
    }
}

/* A pose already on the target is left as it is: zero iterations, the same bones. */
static void warm_start_on_target_does_nothing(void **state) {
    (void)state;
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run run = solve_chain(solvers[s], "", reach_vec3_make(0, 1, 0));
        assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
        assert_int_equal((int)json_number(run.json, "iterations"), 0);
        assert_vec3_near(json_vec3(run.json, "bones[4].world_position"), reach_vec3_make(0, 1, 0), 0);
        cli_run_free(&run);
    }
}

/* An orientation on the tip is reached with its position; angle_residual says how nearly. */
static void orientation_targets(void **state) {
    (void)state;
    double h = sqrt(0.5);
    for (int s = 0; s < SOLVER_COUNT; s++) {
        char request[2048];
        snprintf(request, sizeof request,
                 "{'rig':" CHAIN ",'solver':{'type':'%s'},'targets':[{'bone':'tip','position':[0.3,0.6,0.2],"
                 "'orientation':[%.17g,0,0,%.17g]}]}",
                 solvers[s], h, h);
        cli_run run = solve_ok(request);
        assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
        double angle = json_number(run.json, "angle_residual");
        assert_true(angle <= 1e-4);
        /* The angle between the two from their relative turn's vector part: acos of their dot
         * product would turn one rounding of it into an angle of 2e-8. */
        reach_quat q = json_quat(run.json, "bones[4].world_rotation");
        reach_quat turn = reach_quat_mul(reach_quat_conjugate(reach_quat_make(h, 0, 0, h)), q);
        double between = 2 * atan2(sqrt(turn.x * turn.x + turn.y * turn.y + turn.z * turn.z), fabs(turn.w));
        assert_true(between <= angle + 1e-9);
        cli_run_free(&run);
    }
}

/* fabrik's move_root: a target beyond the chain pulls the root bone along until it is reached. */
static void fabrik_move_root(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0.5, 1.5, 0);
    cli_run fixed = solve_chain("fabrik", "", target);
    assert_true(cJSON_IsFalse(json_at(fixed.json, "reached")));
    assert_vec3_near(json_vec3(fixed.json, "bones[0].world_position"), reach_vec3_zero(), 0);
    cli_run_free(&fixed);
    cli_run moved = solve_chain("fabrik", ",'move_root':true", target);
    assert_true(cJSON_IsTrue(json_at(moved.json, "reached")));
    assert_true(reach_vec3_length(json_vec3(moved.json, "bones[0].position")) > 0.5);
    assert_lengths_kept(moved.json);
    cli_run_free(&moved);
}

/* ccd's max_step caps each joint's turn per step: still reached, in more iterations. */
static void ccd_max_step(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(-0.5, 0.2, 0.4);
    cli_run free_run = solve_chain("ccd", "", target);
    cli_run capped = solve_chain("ccd", ",'max_step':0.02", target);
    assert_true(cJSON_IsTrue(json_at(free_run.json, "reached")));
    assert_true(cJSON_IsTrue(json_at(capped.json, "reached")));
    assert_true(json_number(capped.json, "iterations") > json_number(free_run.json, "iterations"));
    cli_run_free(&free_run);
    cli_run_free(&capped);
}

/* Every Jacobian method is accepted; the three SVD-based ones reach a reachable target. */
static void jacobian_methods(void **state) {
    (void)state;
    static const char *const methods[] = {"transpose", "pseudoinverse", "dls", "sdls"};
    reach_vec3 target = reach_vec3_make(0.4, 0.5, -0.3);
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        char extra[128];
        snprintf(extra, sizeof extra, ",'method':'%s','damping':0,'null_space':false,'restarts':3,'seed':7",
                 methods[m]);
        cli_run run = solve_chain("jacobian", extra, target);
        if (m > 0) assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
        assert_true(fabs(reach_vec3_distance(json_vec3(run.json, "bones[4].world_position"), target) -
                         json_number(run.json, "residual")) < 1e-12);
        cli_run_free(&run);
    }
    /* A fixed damping still converges on a reachable target, given the iterations. */
    cli_run damped = solve_chain("jacobian", ",'method':'dls','damping':0.05,'max_iterations':5000", target);
    assert_true(cJSON_IsTrue(json_at(damped.json, "reached")));
    cli_run_free(&damped);
}

/* Restarts draw from the seed: the same request gives the same bits, every time. */
static void same_request_same_output(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(2, 0.3, 0.1); /* unreachable: restarts run */
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run a = solve_chain(solvers[s], "", target);
        cli_run b = solve_chain(solvers[s], "", target);
        assert_string_equal(a.out, b.out);
        cli_run_free(&a);
        cli_run_free(&b);
    }
}

/* An explicit tolerance decides reached the same way for every solver. */
static void tolerance_and_iteration_cap(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0, 1.04, 0); /* 0.04 beyond the tip */
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run loose = solve_chain(solvers[s], ",'tolerance':0.05", target);
        assert_true(cJSON_IsTrue(json_at(loose.json, "reached")));
        cli_run_free(&loose);
        cli_run capped = solve_chain(solvers[s], ",'max_iterations':1", reach_vec3_make(0.6, 0.3, 0.1));
        assert_true(json_number(capped.json, "iterations") <= 1);
        cli_run_free(&capped);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reachable_targets_are_reached),
        cmocka_unit_test(unreachable_target_reports_what_is_left),
        cmocka_unit_test(warm_start_on_target_does_nothing),
        cmocka_unit_test(orientation_targets),
        cmocka_unit_test(fabrik_move_root),
        cmocka_unit_test(ccd_max_step),
        cmocka_unit_test(jacobian_methods),
        cmocka_unit_test(same_request_same_output),
        cmocka_unit_test(tolerance_and_iteration_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
