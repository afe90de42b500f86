/* The errors of the iterative solvers' options, of targets (meetings, poles, weights, bones
 * outside the solve) and of Denavit–Hartenberg tables: each names the field at fault, is one
 * error object plus one line on standard error, and exits with status 1. */
#include "cli_test_support.h"

#include <stdio.h>

#define LEG                                                                                                            \
    "{'bones':[{'name':'hip','position':[0,1,0]},{'name':'knee','parent':'hip','position':[0,-0.45,0]},"               \
    "{'name':'ankle','parent':'knee','position':[0,-0.42,0]}]}"
#define TO_ANKLE "[{'bone':'ankle','position':[0,0.4,0.2]}]"

static void expect_error(const char *request, const char *message) {
    cli_run run = run_cli(request, "solve", "-", NULL);
    assert_cli_error(&run, 1, message);
    cli_run_free(&run);
}

/* A request on the leg with this solver object and these targets. */
static void expect_leg_error(const char *solver, const char *targets, const char *message) {
    char request[2048];
    snprintf(request, sizeof request, "{'rig':" LEG ",'solver':%s,'targets':%s}", solver, targets);
    expect_error(request, message);
}

static void bad_solver_options(void **state) {
    (void)state;
    expect_leg_error("{'type':'jacobian','method':'newton'}", TO_ANKLE,
                     "solver.method: unknown method 'newton' (expected transpose, pseudoinverse, dls or sdls)");
    expect_leg_error("{'type':'jacobian','method':3}", TO_ANKLE, "solver.method: expected a string, got a number");
    expect_leg_error("{'type':'jacobian','damping':-0.1}", TO_ANKLE,
                     "solver.damping: must not be negative (0 adapts it)");
    expect_leg_error("{'type':'jacobian','restarts':-1}", TO_ANKLE,
                     "solver.restarts: expected a whole number in [0, 1000000]");
    expect_leg_error("{'type':'jacobian','seed':1.5}", TO_ANKLE, "solver.seed: expected a whole number in [0, 2^53]");
    expect_leg_error("{'type':'jacobian','seed':-2}", TO_ANKLE, "solver.seed: expected a whole number in [0, 2^53]");
    expect_leg_error("{'type':'jacobian','null_space':1}", TO_ANKLE,
                     "solver.null_space: expected true or false, got a number");
    expect_leg_error("{'type':'fabrik','move_root':'yes'}", TO_ANKLE,
                     "solver.move_root: expected true or false, got a string");
    expect_leg_error("{'type':'ccd','max_step':-0.1}", TO_ANKLE,
                     "solver.max_step: must not be negative (0 turns the cap off)");
    /* One solver's option is not another's. */
    expect_leg_error("{'type':'fabrik','method':'dls'}", TO_ANKLE, "solver: unknown field 'method'");
    expect_leg_error("{'type':'ccd','move_root':true}", TO_ANKLE, "solver: unknown field 'move_root'");
    expect_leg_error("{'type':'two_bone','restarts':2}", TO_ANKLE, "solver: unknown field 'restarts'");
}

static void bad_targets(void **state) {
    (void)state;
    expect_leg_error("{'type':'fabrik'}", "[{'bone':'ankle','position':[0,0.4,0.2],'pole':[0,1,1]}]",
                     "targets[0].pole: fabrik has no pole (only two_bone bends toward one)");
    expect_leg_error("{'type':'ccd'}", "[{'bone':'ankle','position':[0,0.4,0.2],'weight':0}]",
                     "targets[0].weight: ccd weighs targets against each other; the weight must be greater than zero");
    expect_leg_error("{'type':'fabrik'}", "[{'bone':'ankle'}]", "targets[0].position: required field is missing");
}

/* chain_root is a top-level field, so these requests are written out whole. */
static void targets_outside_the_solve(void **state) {
    (void)state;
    expect_error("{'rig':" LEG ",'solver':{'type':'jacobian'},'chain_root':'ankle','targets':[{'bone':'knee',"
                 "'position':[0,0.4,0.2]}]}",
                 "targets[0].bone: 'knee' is not below chain_root 'ankle'");
    expect_error("{'rig':" LEG ",'solver':{'type':'fabrik'},'chain_root':'knee','targets':[{'bone':'ankle',"
                 "'meet':'hip'}]}",
                 "targets[0].meet: 'hip' is not below chain_root 'knee'");
    expect_error("{'rig':{'bones':[{'name':'a'},{'name':'a1','parent':'a','position':[1,0,0]},{'name':'b'},"
                 "{'name':'b1','parent':'b','position':[1,0,0]}]},'solver':{'type':'ccd'},'targets':[{'bone':'a1',"
                 "'position':[0,1,0]},{'bone':'b1','position':[0,1,0]}]}",
                 "targets[1].bone: 'b1' and 'a1' (targets[0].bone) have no common root; one solve moves one "
                 "hierarchy");
}

static void bad_meetings(void **state) {
    (void)state;
    expect_leg_error("{'type':'fabrik'}", "[{'bone':'ankle','meet':'ankle'}]",
                     "targets[0].meet: bone 'ankle' cannot meet itself");
    expect_leg_error("{'type':'fabrik'}", "[{'bone':'ankle','meet':'toe'}]", "targets[0].meet: no bone named 'toe'");
    expect_leg_error("{'type':'ccd'}", "[{'bone':'ankle','meet':'hip','position':[0,0,0]}]",
                     "targets[0]: \"meet\" and \"position\" exclude each other (two bones meet wherever they can)");
    expect_leg_error("{'type':'ccd'}", "[{'bone':'ankle','meet':'hip','orientation':[0,0,0,1]}]",
                     "targets[0]: \"meet\" and \"orientation\" exclude each other (two bones meet wherever they can)");
    expect_leg_error("{'type':'two_bone'}", "[{'bone':'ankle','meet':'hip'}]",
                     "targets[0].meet: two_bone reaches for a position; fabrik, ccd and jacobian close loops");
}

/* A request with this DH table as its rig. */
static void expect_dh_error(const char *dh, const char *message) {
    char request[2048];
    snprintf(request, sizeof request,
             "{'rig':{'dh':%s},'solver':{'type':'jacobian'},'targets':[{'bone':'tool',"
             "'position':[0,0,0]}]}",
             dh);
    expect_error(request, message);
}

static void bad_dh_tables(void **state) {
    (void)state;
    expect_dh_error("{'convention':'craig','joints':[{}]}",
                    "dh.convention: unknown convention 'craig' (expected standard or modified)");
    expect_dh_error("{'joints':[{}]}", "dh.convention: required field is missing");
    expect_dh_error("{'convention':'standard'}", "dh.joints: required field is missing");
    expect_dh_error("{'convention':'standard','joints':[]}", "dh.joints: a table needs at least one joint");
    expect_dh_error("[]", "dh: expected an object, got an array");
    expect_dh_error("{'convention':'standard','joints':[{}],'base':[0,0,0]}", "dh: unknown field 'base'");
    expect_dh_error("{'convention':'modified','joints':[{'a':1,'offset':0.1}]}",
                    "dh.joints[0]: unknown field 'offset'");
    expect_dh_error("{'convention':'standard','joints':[{},{'type':'spherical'}]}",
                    "dh.joints[1].type: unknown joint type 'spherical' (expected revolute, prismatic or fixed)");
    expect_dh_error("{'convention':'standard','joints':[{'type':'fixed','min':0}]}",
                    "dh.joints[0]: a fixed joint has no value, so no min or max");
    expect_dh_error("{'convention':'standard','joints':[{'type':'prismatic','max':1}]}",
                    "dh.joints[0].min: required field is missing");
    expect_dh_error("{'convention':'standard','joints':[{'min':-7,'max':0}]}",
                    "dh.joints[0]: angle limits must lie within [-2*pi, 2*pi] radians");
    expect_dh_error("{'convention':'standard','joints':[{'min':1,'max':-1}]}",
                    "dh.joints[0]: min (1) is greater than max (-1)");
    expect_dh_error("{'convention':'standard','joints':[{'alpha':'pi'}]}",
                    "dh.joints[0].alpha: expected a number, got a string");
    expect_dh_error("{'convention':'standard','joints':[{'d':1e999}]}", "dh.joints[0].d: number is not finite");
    expect_dh_error("{'convention':'standard','joints':[{},{'name':'joint1'}]}",
                    "dh.joints[1].name: duplicate bone name 'joint1' (also dh.joints[0].name)");
    expect_dh_error("{'convention':'standard','tool':'base','joints':[{'name':'base'}]}",
                    "dh.tool: duplicate bone name 'base' (also dh.joints[0].name)");
    expect_dh_error("{'convention':'standard','tool':'','joints':[{}]}", "dh.tool: a bone name cannot be empty");
    expect_dh_error("{'convention':'standard','joints':[{'name':''}]}",
                    "dh.joints[0].name: a bone name cannot be empty");
}

static void dh_joint_values_out_of_range(void **state) {
    (void)state;
    cli_run run = run_cli("{'rig':{'dh':{'convention':'standard','joints':[{'a':1,'min':-1,'max':1}]}},'joints':[2]}",
                          "fk", "-", NULL);
    assert_cli_error(&run, 1, "joints[0]: 2 is outside the limits [-1, 1] of bone 'joint1' (hinge)");
    cli_run_free(&run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_solver_options),
        cmocka_unit_test(bad_targets),
        cmocka_unit_test(targets_outside_the_solve),
        cmocka_unit_test(bad_meetings),
        cmocka_unit_test(bad_dh_tables),
        cmocka_unit_test(dh_joint_values_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
