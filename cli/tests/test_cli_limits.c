/* Joint limits through the iterative solvers: the printed pose keeps every hinge in its range
 * (and its rotation about its axis only) and the cone within its angle; targets the limits
 * allow are reached; a target they forbid is reported as not reached, limited, with the
 * distance really left. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const solvers[] = {"fabrik", "ccd", "jacobian"};
#define SOLVER_COUNT 3

/* A small arm: a base turning ±0.5 about z, a shoulder and an elbow bending about y on one side
 * only, a wrist cone of 0.5 rad and the tip. */
#define ARM                                                                                                            \
    "{'bones':[{'name':'base','joint':{'type':'hinge','axis':[0,0,1],'min':-0.5,'max':0.5}},"                          \
    "{'name':'upper','parent':'base','position':[0,0,0.3],'joint':{'type':'hinge','axis':[0,1,0],'min':0,"             \
    "'max':1.2}},{'name':'fore','parent':'upper','position':[0,0,0.5],'joint':{'type':'hinge','axis':[0,1,0],"         \
    "'min':-2,'max':0}},{'name':'wrist','parent':'fore','position':[0,0,0.4],'joint':{'type':'cone','axis':[0,0,1],"   \
    "'angle':0.5}},{'name':'tip','parent':'wrist','position':[0,0,0.1]}]}"
static const int arm_parents[5] = {-1, 0, 1, 2, 3};

typedef struct hinge {
    int bone;
    reach_vec3 axis;
    double min, max;
} hinge;
static const hinge hinges[3] = {{0, {0, 0, 1}, -0.5, 0.5}, {1, {0, 1, 0}, 0, 1.2}, {2, {0, 1, 0}, -2, 0}};

/* Every hinge's printed rotation turns about its axis only, by the printed joint value, which
 * lies in its range; the wrist swings no more than its cone allows. */
static void assert_limits_hold(const cJSON *result) {
    assert_int_equal(cJSON_GetArraySize(json_at(result, "joints")), 3);
    for (int k = 0; k < 3; k++) {
        reach_quat q = json_bone_local(result, hinges[k].bone).rotation;
        reach_vec3 v = reach_vec3_make(q.x, q.y, q.z);
        assert_true(reach_vec3_length(reach_vec3_cross(v, hinges[k].axis)) < 1e-12);
        double angle = 2 * atan2(reach_vec3_dot(v, hinges[k].axis), q.w);
        char path[32];
        snprintf(path, sizeof path, "joints[%d]", k);
        double printed = json_number(result, path);
        assert_true(fabs(remainder(angle - printed, 2 * REACH_PI)) < 1e-12);
        if (!(printed >= hinges[k].min && printed <= hinges[k].max))
            fail_msg("joint %d at %.17g is outside [%g, %g]", k, printed, hinges[k].min, hinges[k].max);
    }
    /* The cone's axis is the bone's z: the swing is the angle the local z axis turns by. */
    reach_quat w = json_bone_local(result, 3).rotation;
    double cos_swing = 1 - 2 * (w.x * w.x + w.y * w.y);
    assert_true(acos(cos_swing < 1 ? cos_swing : 1) <= 0.5 + 1e-9);
}

static cli_run solve_arm(const char *solver, reach_vec3 target, const char *joints) {
    char request[4096];
    snprintf(request, sizeof request,
             "{'rig':" ARM ",'solver':{'type':'%s'},'targets':[{'bone':'tip','position':[%.17g,%.17g,%.17g]}]%s}",
             solver, target.x, target.y, target.z, joints);
    return solve_ok(request);
}

/* The tip's position at joint values q, through `reach fk`. */
static reach_vec3 arm_tip_at(const double q[3]) {
    char request[4096];
    snprintf(request, sizeof request, "{'rig':" ARM ",'joints':[%.17g,%.17g,%.17g]}", q[0], q[1], q[2]);
    cli_run run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    reach_vec3 tip = json_vec3(run.json, "bones[4].world_position");
    cli_run_free(&run);
    return tip;
}

static double next_unit(uint64_t *seed) {
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    return (double)(*seed >> 11) / 9007199254740992.0;
}

/* Targets made by forward kinematics of joint values inside the limits: ccd and jacobian reach
 * every one; fabrik may stop short on a few (docs/solvers.md), but then says so honestly. All
 * keep the limits. */
static void limits_hold_and_allowed_targets_are_reached(void **state) {
    (void)state;
    uint64_t seed = 2024;
    for (int i = 0; i < 15; i++) {
        double q[3];
        for (int k = 0; k < 3; k++)
            q[k] = hinges[k].min + (hinges[k].max - hinges[k].min) * next_unit(&seed);
        reach_vec3 target = arm_tip_at(q);
        for (int s = 0; s < SOLVER_COUNT; s++) {
            cli_run run = solve_arm(solvers[s], target, "");
            assert_limits_hold(run.json);
            assert_self_consistent(run.json, arm_parents, 5);
            double residual = json_number(run.json, "residual");
            assert_true(fabs(reach_vec3_distance(json_vec3(run.json, "bones[4].world_position"), target) - residual) <
                        1e-12);
            /* The default tolerance: 1e-4 × the moving bones' length, 0.3 + 0.5 + 0.4 + 0.1. */
            int reached = cJSON_IsTrue(json_at(run.json, "reached"));
            assert_int_equal(reached, residual <= 1e-4 * 1.3);
            if (strcmp(solvers[s], "fabrik") != 0 && !reached)
                fail_msg("%s missed an allowed target: %s", solvers[s], run.out);
            cli_run_free(&run);
        }
    }
}

/* Straight out to the side (+y) needs the base to turn by pi/2; it may turn 0.5. */
static void forbidden_target_is_reported(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0, 0.8, 0.4);
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run run = solve_arm(solvers[s], target, "");
        assert_true(cJSON_IsFalse(json_at(run.json, "reached")));
        assert_true(cJSON_IsTrue(json_at(run.json, "limited")));
        double residual = json_number(run.json, "residual");
        assert_true(residual > 0.1);
        assert_true(fabs(reach_vec3_distance(json_vec3(run.json, "bones[4].world_position"), target) - residual) <
                    1e-12);
        assert_limits_hold(run.json);
        cli_run_free(&run);
    }
}

/* The printed joints go back in as a starting pose (they are within the limits the input is
 * checked against), and a solve from the solution needs no iteration. */
static void printed_joints_warm_start_the_next_solve(void **state) {
    (void)state;
    const double q[3] = {0.3, 0.7, -1.1};
    reach_vec3 target = arm_tip_at(q);
    for (int s = 1; s < SOLVER_COUNT; s++) {
        cli_run first = solve_arm(solvers[s], target, "");
        assert_true(cJSON_IsTrue(json_at(first.json, "reached")));
        char joints[256];
        snprintf(joints, sizeof joints, ",'joints':[%.17g,%.17g,%.17g]", json_number(first.json, "joints[0]"),
                 json_number(first.json, "joints[1]"), json_number(first.json, "joints[2]"));
        /* The wrist's swing is not a joint value: the second solve starts with it at rest, so
         * it may move again, but the hinges start where the first solve left them. */
        cli_run second = solve_arm(solvers[s], target, joints);
        assert_true(cJSON_IsTrue(json_at(second.json, "reached")));
        assert_limits_hold(second.json);
        cli_run_free(&first);
        cli_run_free(&second);
    }
}

/* Joints a solver stopped at a limit print as that limit, not a rounding outside it (which the
 * input check would refuse): the printed joints of solves that press against the limits go
 * back in as `fk`'s joints, and `fk` prints the values it was given. */
static void joints_at_limits_read_back(void **state) {
    (void)state;
    int at_limit = 0;
    for (int s = 0; s < SOLVER_COUNT; s++) {
        for (int k = 0; k < 24; k++) {
            /* Around the arm, many of them past what its base and shoulder allow. */
            double turn = 2 * REACH_PI * k / 24;
            reach_vec3 target = reach_vec3_make(0.7 * cos(turn), 0.7 * sin(turn), 0.2 + 0.5 * (k % 3));
            cli_run run = solve_arm(solvers[s], target, "");
            char *joints = cJSON_PrintUnformatted(json_at(run.json, "joints"));
            char request[2048];
            snprintf(request, sizeof request, "{'rig':" ARM ",'joints':%s}", joints);
            cli_run fk = run_cli(request, "fk", "-", NULL);
            if (fk.status != 0) fail_msg("%s: printed joints %s do not read back: %s", solvers[s], joints, fk.out);
            for (int j = 0; j < 3; j++) {
                char path[32];
                snprintf(path, sizeof path, "joints[%d]", j);
                double value = json_number(run.json, path);
                int limit = value == hinges[j].min || value == hinges[j].max;
                at_limit += limit;
                /* Elsewhere a value read back from the rotation fk builds may differ by a rounding. */
                double back = json_number(fk.json, path);
                assert_true(limit ? back == value : fabs(back - value) < 1e-12);
            }
            cJSON_free(joints);
            cli_run_free(&fk);
            cli_run_free(&run);
        }
    }
    assert_true(at_limit >= 10);
    /* One hinge whose limits are not halves, so that a rotation at a limit reads back a
     * rounding off it: pressed against either limit by targets all round it. */
#define ONE_HINGE                                                                                                      \
    "{'bones':[{'name':'a','joint':{'type':'hinge','axis':[0,0,1],'min':0.4,'max':2.3}},"                              \
    "{'name':'b','parent':'a','position':[1,0,0]}]}"
    at_limit = 0;
    for (int s = 0; s < SOLVER_COUNT; s++) {
        for (int k = 0; k < 12; k++) {
            double turn = 2 * REACH_PI * k / 12;
            char request[1024];
            snprintf(request, sizeof request,
                     "{'rig':" ONE_HINGE ",'solver':{'type':'%s'},'targets':[{'bone':'b','position':[%.17g,%.17g,0]}]}",
                     solvers[s], cos(turn), sin(turn));
            cli_run run = solve_ok(request);
            double value = json_number(run.json, "joints[0]");
            assert_true(value >= 0.4 && value <= 2.3);
            at_limit += value == 0.4 || value == 2.3;
            snprintf(request, sizeof request, "{'rig':" ONE_HINGE ",'joints':[%.17g]}", value);
            cli_run fk = run_cli(request, "fk", "-", NULL);
            assert_int_equal(fk.status, 0);
            cli_run_free(&fk);
            cli_run_free(&run);
        }
    }
    assert_true(at_limit >= 12);
    /* A limit given as the joint value comes back as itself. */
    cli_run fk = run_cli("{'rig':" ONE_HINGE ",'joints':[0.4]}", "fk", "-", NULL);
    assert_int_equal(fk.status, 0);
    assert_true(json_number(fk.json, "joints[0]") == 0.4);
    cli_run_free(&fk);
    /* A slider far from its parent: its offset is read back from translations of about 1234, so
     * a slide stopped at its limit reads back roundings of that size off it, and prints as the
     * limit. */
    for (int s = 1; s < SOLVER_COUNT; s++) {
        char request[1024];
        snprintf(request, sizeof request,
                 "{'rig':{'bones':[{'name':'a'},{'name':'b','parent':'a','position':[1234.5,0,0],'joint':{'type':"
                 "'prismatic','axis':[1,0,0],'min':0,'max':0.4}},{'name':'c','parent':'b','position':[1,0,0]}]},"
                 "'solver':{'type':'%s'},'targets':[{'bone':'c','position':[1240,0,0]}]}",
                 solvers[s]);
        cli_run run = solve_ok(request);
        double value = json_number(run.json, "joints[0]");
        if (value != 0.4) fail_msg("%s: the slide stopped at %.17g, not at its limit", solvers[s], value);
        cli_run_free(&run);
    }
    /* Only roundings are taken onto a limit: a rest offset of 0 below a range of [5e-10, 1e-9]
     * prints as 0. */
    fk = run_cli("{'rig':{'bones':[{'name':'a'},{'name':'b','parent':'a','position':[1,0,0],'joint':{'type':"
                 "'prismatic','axis':[1,0,0],'min':5e-10,'max':1e-9}}]}}",
                 "fk", "-", NULL);
    assert_int_equal(fk.status, 0);
    assert_true(json_number(fk.json, "joints[0]") == 0);
    cli_run_free(&fk);
#undef ONE_HINGE
}

/* A starting pose on the target: no iterations, nothing moves. */
static void start_on_target_keeps_the_pose(void **state) {
    (void)state;
    const double q[3] = {-0.2, 0.4, -0.9};
    reach_vec3 target = arm_tip_at(q);
    for (int s = 0; s < SOLVER_COUNT; s++) {
        cli_run run = solve_arm(solvers[s], target, ",'joints':[-0.2,0.4,-0.9]");
        assert_int_equal((int)json_number(run.json, "iterations"), 0);
        for (int k = 0; k < 3; k++) {
            char path[32];
            snprintf(path, sizeof path, "joints[%d]", k);
            assert_true(fabs(json_number(run.json, path) - q[k]) < 1e-12);
        }
        cli_run_free(&run);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(limits_hold_and_allowed_targets_are_reached),
        cmocka_unit_test(forbidden_target_is_reported),
        cmocka_unit_test(printed_joints_warm_start_the_next_solve),
        cmocka_unit_test(start_on_target_keeps_the_pose),
        cmocka_unit_test(joints_at_limits_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
