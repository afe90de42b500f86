/* Every invalid input the contract names gets its message, one error object, one line on
 * standard error and exit status 1. */
#include "cli_test_support.h"

#include <stdio.h>
#include <string.h>

#include "utf8.h"

#define HIP      "{'name':'hip','parent':null,'position':[0,1,0]}"
#define KNEE     "{'name':'knee','parent':'hip','position':[0,-0.45,0]}"
#define ANKLE    "{'name':'ankle','parent':'knee','position':[0,-0.42,0]}"
#define LEG      "{'bones':[" HIP "," KNEE "," ANKLE "]}"
#define TWO_BONE "'solver':{'type':'two_bone'}"
#define TO_ANKLE "'targets':[{'bone':'ankle','position':[0.1,0.3,0.2]}]"

/* A request on the leg with the rig replaced. */
#define WITH_RIG(rig) "{'rig':" rig "," TWO_BONE "," TO_ANKLE "}"
/* A request on the leg with one more field (or a field replaced) at the top level. */
#define LEG_REQUEST(solver, targets) "{'rig':" LEG ",'solver':" solver ",'targets':" targets "}"

static void expect_solve_error(const char *request, const char *message) {
    cli_run run = run_cli(request, "solve", "-", NULL);
    assert_cli_error(&run, 1, message);
    cli_run_free(&run);
}

static void unreadable_file(void **state) {
    (void)state;
    cli_run run = run_cli(NULL, "solve", "no/such/request.json", NULL);
    assert_cli_error(&run, 1, "cannot read 'no/such/request.json': No such file or directory");
    cli_run_free(&run);
    /* A directory opens but does not read: the system's reason, not a bare "read error". */
    cli_run directory = run_cli(NULL, "solve", examples_dir(), NULL);
    char message[1024];
    snprintf(message, sizeof message, "cannot read '%s': Is a directory", examples_dir());
    assert_cli_error(&directory, 1, message);
    cli_run_free(&directory);
}

static void invalid_json(void **state) {
    (void)state;
    expect_solve_error("{'rig': {'bones': [}", "invalid JSON at line 1, column 20");
    expect_solve_error("{'rig':\n  {'bones' [1]}}", "invalid JSON at line 2, column 12");
    expect_solve_error("{} {}", "invalid JSON at line 1, column 4");
    expect_solve_error("  \n ", "invalid JSON: the input is empty");
    expect_solve_error("[1, 2, 3]", "request: expected an object, got an array");
    /* What the parser would let through but JSON, or the echoed output, cannot carry. */
    expect_solve_error("{'x':'a\tb'}",
                       "invalid JSON at line 1, column 8: a control character inside a string (write it "
                       "escaped)");
    expect_solve_error("{'x':'a\xff'}", "invalid JSON at line 1, column 8: a string that is not valid UTF-8");
    expect_solve_error("{'x':'a\xc0\xaf'}", "invalid JSON at line 1, column 8: a string that is not valid UTF-8");
    expect_solve_error("{'x':'a\xed\xa0\x80'}", "invalid JSON at line 1, column 8: a string that is not valid UTF-8");
    expect_solve_error("{'x':[1, 01]}", "invalid JSON at line 1, column 10: a number with a leading zero");
    expect_solve_error("{'x':-00.5}", "invalid JSON at line 1, column 6: a number with a leading zero");
    expect_solve_error("{'x':'a\\u0000b'}",
                       "invalid JSON at line 1, column 8: \\u0000 inside a string (strings cannot hold NUL)");
}

/* Names in UTF-8 (and escaped \" and \\ in strings) read and print back as they were given. */
static void utf8_names_read_and_print_back(void **state) {
    (void)state;
    cli_run run = solve_ok("{'rig':{'bones':[{'name':'hanche'},{'name':'genou \xc3\xa9\xe2\x82\xac\xf0\x9f\xa6\xb5',"
                           "'parent':'hanche','position':[0,-0.45,0]},{'name':'che\\\\ville \\'x\\'','parent':"
                           "'genou \xc3\xa9\xe2\x82\xac\xf0\x9f\xa6\xb5','position':[0,-0.42,0]}]},'solver':{'type':"
                           "'two_bone'},'targets':[{'bone':'che\\\\ville \\'x\\'','position':[0.1,-0.3,0.2]}]}");
    assert_string_equal(json_at(run.json, "bones[1].name")->valuestring, "genou \xc3\xa9\xe2\x82\xac\xf0\x9f\xa6\xb5");
    assert_string_equal(json_at(run.json, "bones[2].name")->valuestring, "che\\ville \"x\"");
    cli_run_free(&run);
}

static int valid_utf8(const char *text) {
    size_t length = strlen(text);
    for (size_t i = 0, n; i < length; i += n)
        if (!(n = cli_utf8_length((const unsigned char *)text + i, length - i))) return 0;
    return 1;
}

/* Output stays valid UTF-8 where a message is cut short inside a character (a duplicate name
 * longer than a message holds) or quotes a command-line argument that is not UTF-8. */
static void messages_stay_valid_utf8(void **state) {
    (void)state;
    char name[1300] = "a";
    for (int i = 0; i < 400; i++)
        strcat(name, "\xe2\x82\xac"); /* € */
    char request[3000];
    snprintf(request, sizeof request, "{'rig':{'bones':[{'name':'%s'},{'name':'%s','parent':null}]}}", name, name);
    cli_run run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 1);
    assert_non_null(run.json);
    const char *message = json_at(run.json, "message")->valuestring;
    assert_true(strncmp(message, "bones[1].name: duplicate bone name 'a\xe2\x82\xac", 40) == 0);
    assert_true(valid_utf8(run.out) && valid_utf8(run.err));
    cli_run_free(&run);
    cli_run usage = run_cli(NULL, "solve", "--\xff\xfe", "-", NULL);
    assert_cli_error(&usage, 2,
                     "unknown option '--?"
                     "?' for 'solve' (see 'reach --help')");
    assert_true(valid_utf8(usage.out) && valid_utf8(usage.err));
    cli_run_free(&usage);
}

static void unknown_parent(void **state) {
    (void)state;
    expect_solve_error(WITH_RIG("{'bones':[" HIP "," KNEE ",{'name':'ankle','parent':'kne'}]}"),
                       "bones[2].parent: no bone named 'kne'");
}

static void cycle_and_order(void **state) {
    (void)state;
    expect_solve_error(WITH_RIG("{'bones':[{'name':'a','parent':'b'},{'name':'b','parent':'a'}]}"),
                       "bones[0].parent: the parents form a cycle: 'a' -> 'b' -> 'a'");
    expect_solve_error(WITH_RIG("{'bones':[{'name':'a','parent':'a'}]}"),
                       "bones[0].parent: the bone 'a' cannot be its own parent");
    expect_solve_error(WITH_RIG("{'bones':[" HIP ",{'name':'ankle','parent':'knee'}," KNEE "]}"),
                       "bones[1].parent: 'knee' is listed after this bone; list parents before their children");
}

static void duplicate_names(void **state) {
    (void)state;
    expect_solve_error(WITH_RIG("{'bones':[" HIP "," KNEE "," KNEE "]}"),
                       "bones[2].name: duplicate bone name 'knee' (also bones[1])");
    expect_solve_error(WITH_RIG("{'bones':[{'name':''}]}"), "bones[0].name: a bone name cannot be empty");
    expect_solve_error(WITH_RIG("{'bones':[{'parent':null}]}"), "bones[0].name: required field is missing");
}

static void zero_length_bone(void **state) {
    (void)state;
    expect_solve_error(WITH_RIG("{'bones':[" HIP ",{'name':'knee','parent':'hip'}," ANKLE "]}"),
                       "bones[1].position: bone 'hip' has zero length ('knee' sits on its joint); two_bone needs "
                       "both bones to have a length");
    expect_solve_error(WITH_RIG("{'bones':[" HIP "," KNEE ",{'name':'ankle','parent':'knee','position':[0,0,0]}]}"),
                       "bones[2].position: bone 'knee' has zero length ('ankle' sits on its joint); two_bone needs "
                       "both bones to have a length");
}

static void not_finite_numbers(void **state) {
    (void)state;
    expect_solve_error(WITH_RIG("{'bones':[{'name':'hip','position':[0,1e999,0]}," KNEE "," ANKLE "]}"),
                       "bones[0].position[1]: number is not finite");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[-1e400,0,0]}]"),
                       "targets[0].position[0]: number is not finite");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone','tolerance':1e309}", "[{'bone':'ankle','position':[0,0,0]}]"),
                       "solver.tolerance: number is not finite");
    /* JSON has no NaN or Infinity literals: the parse stops on them. */
    const char *literals[] = {LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[NaN,0,0]}]"),
                              LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[-Infinity,0,0]}]")};
    const char *starts[] = {"NaN", "-Infinity"};
    for (size_t i = 0; i < 2; i++) {
        char message[64];
        snprintf(message, sizeof message, "invalid JSON at line 1, column %d",
                 (int)(strstr(literals[i], starts[i]) - literals[i]) + 1);
        expect_solve_error(literals[i], message);
    }
}

static void zero_quaternion(void **state) {
    (void)state;
    expect_solve_error(WITH_RIG("{'bones':[{'name':'hip','rotation':[0,0,0,0]}," KNEE "," ANKLE "]}"),
                       "bones[0].rotation: quaternion has length zero");
    expect_solve_error(
        LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[0,0,0],'orientation':[0,0,0,0]}]"),
        "targets[0].orientation: quaternion has length zero");
    expect_solve_error(WITH_RIG("{'bones':[{'name':'hip','rotation':[0,0,1]}," KNEE "," ANKLE "]}"),
                       "bones[0].rotation: expected a quaternion [x, y, z, w], got an array of another length");
}

static void unknown_solver(void **state) {
    (void)state;
    expect_solve_error(
        LEG_REQUEST("{'type':'fabrick'}", "[{'bone':'ankle','position':[0,0,0]}]"),
        "solver.type: unknown solver 'fabrick' (available: two_bone, fabrik, ccd, jacobian, aim, full_body)");
    expect_solve_error("{'rig':" LEG "," TO_ANKLE "}", "solver: required field is missing");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone','damping':0.1}", "[{'bone':'ankle','position':[0,0,0]}]"),
                       "solver: unknown field 'damping'");
}

static void wrong_types(void **state) {
    (void)state;
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':'up'}]"),
                       "targets[0].position: expected [x, y, z] or [x, y], got a string");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone','tolerance':'small'}", "[{'bone':'ankle','position':[0,0,0]}]"),
                       "solver.tolerance: expected a number, got a string");
    expect_solve_error(LEG_REQUEST("{'type':2}", "[{'bone':'ankle','position':[0,0,0]}]"),
                       "solver.type: expected a string, got a number");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "{'bone':'ankle'}"),
                       "targets: expected an array, got an object");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[0,true,0]}]"),
                       "targets[0].position[1]: expected a number, got a boolean");
    expect_solve_error(WITH_RIG("{'bones':[{'name':'hip','parent':3}]}"),
                       "bones[0].parent: expected a bone name (a string) or null, got a number");
    expect_solve_error(WITH_RIG("{'bones':{}}"), "bones: expected an array, got an object");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone','max_iterations':2.5}", "[{'bone':'ankle','position':[0,0,0]}]"),
                       "solver.max_iterations: expected a whole number in [1, 1000000]");
}

static void unknown_and_repeated_fields(void **state) {
    (void)state;
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','positon':[0,0,0]}]"),
                       "targets[0]: unknown field 'positon'");
    expect_solve_error(WITH_RIG("{'bones':[{'name':'hip','name':'leg'}]}"), "bones[0]: field 'name' appears twice");
    expect_solve_error("{'rig':" LEG "," TWO_BONE "," TO_ANKLE ",'extra':1}", "request: unknown field 'extra'");
}

static void unknown_target_bone(void **state) {
    (void)state;
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'foot','position':[0,0,0]}]"),
                       "targets[0].bone: no bone named 'foot'");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[]"), "targets: give at least one target");
    expect_solve_error("{'rig':" LEG "," TWO_BONE ",'chain_root':'pelvis'," TO_ANKLE "}",
                       "chain_root: no bone named 'pelvis'");
}

static void wrong_chain_shape(void **state) {
    (void)state;
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'knee','position':[0,0,0]}]"),
                       "targets[0].bone: two_bone needs the target bone, its parent and its grandparent, but 'knee' "
                       "has no grandparent");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'hip','position':[0,0,0]}]"),
                       "targets[0].bone: two_bone needs the target bone, its parent and its grandparent, but 'hip' "
                       "has no parent");
    expect_solve_error("{'rig':" LEG "," TWO_BONE ",'chain_root':'knee'," TO_ANKLE "}",
                       "chain_root: two_bone moves the grandparent of the target bone, 'hip', not 'knee'");
    expect_solve_error(
        LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[0,0,0]},{'bone':'ankle','position':[0,0,0]}]"),
        "targets: two_bone takes exactly one target, got 2");
}

static void bad_two_bone_options(void **state) {
    (void)state;
    expect_solve_error(LEG_REQUEST("{'type':'two_bone','max_stretch':0.5}", "[{'bone':'ankle','position':[0,0,0]}]"),
                       "solver.max_stretch: must be at least 1 (1 turns stretch off)");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone','soft_distance':-1}", "[{'bone':'ankle','position':[0,0,0]}]"),
                       "solver.soft_distance: must not be negative");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone','tolerance':0}", "[{'bone':'ankle','position':[0,0,0]}]"),
                       "solver.tolerance: must be greater than zero");
    expect_solve_error(LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[0,0,0],'weight':2}]"),
                       "targets[0].weight: two_bone blends by weight, which must be in [0, 1]");
}

static void bad_joints(void **state) {
    (void)state;
    expect_solve_error(WITH_RIG("{'bones':[" HIP
                                ",{'name':'knee','parent':'hip','position':[0,-0.45,0],'joint':{'type':"
                                "'slider'}}," ANKLE "]}"),
                       "bones[1].joint.type: unknown joint type 'slider' (expected ball, hinge, cone, prismatic or "
                       "fixed)");
    expect_solve_error(WITH_RIG("{'bones':[" HIP
                                ",{'name':'knee','parent':'hip','joint':{'type':'hinge','axis':[0,0,0]}}"
                                "," ANKLE "]}"),
                       "bones[1].joint.axis: axis has length zero");
    expect_solve_error(WITH_RIG("{'bones':[" HIP
                                ",{'name':'knee','parent':'hip','joint':{'type':'hinge','axis':[1,0,0],"
                                "'min':1,'max':-1}}," ANKLE "]}"),
                       "bones[1].joint: min (1) is greater than max (-1)");
    expect_solve_error(WITH_RIG("{'bones':[" HIP
                                ",{'name':'knee','parent':'hip','joint':{'type':'prismatic','axis':[1,0,"
                                "0]}}," ANKLE "]}"),
                       "bones[1].joint.min: required field is missing");
    expect_solve_error(WITH_RIG("{'bones':[" HIP ",{'name':'knee','parent':'hip','joint':{'type':'cone','axis':[0,1,0],"
                                "'angle':4}}," ANKLE "]}"),
                       "bones[1].joint.angle: must lie within [0, pi] radians");
    expect_solve_error(WITH_RIG("{'bones':[" HIP
                                ",{'name':'knee','parent':'hip','joint':{'type':'fixed','axis':[0,1,0]}}"
                                "," ANKLE "]}"),
                       "bones[1].joint: unknown field 'axis'");
    expect_solve_error(WITH_RIG("{'bones':[" HIP ",{'name':'knee','parent':'hip','joint':{'type':'cone','axis':[0,1,0],"
                                "'angle':1,'twist':[1,-1]}}," ANKLE "]}"),
                       "bones[1].joint.twist: expected min <= max within [-pi, pi] radians");
    expect_solve_error(WITH_RIG("{'bones':[" HIP ",{'name':'knee','parent':'hip','joint':{'type':'cone','axis':[0,1,0],"
                                "'angle':1,'twist':'none'}}," ANKLE "]}"),
                       "bones[1].joint.twist: expected [min, max], got a string");
}

static void bad_joint_values(void **state) {
    (void)state;
    const char *rig = "{'bones':[" HIP ",{'name':'knee','parent':'hip','position':[0,-0.45,0],'joint':{'type':'hinge',"
                      "'axis':[1,0,0],'min':-2,'max':0}}," ANKLE "]}";
    char request[1024];
    snprintf(request, sizeof request, "{'rig':%s," TWO_BONE "," TO_ANKLE ",'joints':[0.5]}", rig);
    expect_solve_error(request, "joints[0]: 0.5 is outside the limits [-2, 0] of bone 'knee' (hinge)");
    /* Values a rounding outside a limit, printed exactly enough to tell them from it (in 15
     * digits -2.0000000000000004 would read -2). */
    snprintf(request, sizeof request, "{'rig':%s," TWO_BONE "," TO_ANKLE ",'joints':[4.4408920985006262e-16]}", rig);
    expect_solve_error(request,
                       "joints[0]: 4.4408920985006262e-16 is outside the limits [-2, 0] of bone 'knee' (hinge)");
    snprintf(request, sizeof request, "{'rig':%s," TWO_BONE "," TO_ANKLE ",'joints':[-2.0000000000000004]}", rig);
    expect_solve_error(request, "joints[0]: -2.0000000000000004 is outside the limits [-2, 0] of bone 'knee' (hinge)");
    snprintf(request, sizeof request, "{'rig':%s," TWO_BONE "," TO_ANKLE ",'joints':[0, 1]}", rig);
    expect_solve_error(request, "joints: expected 1 value (one per hinge or prismatic joint, in bone order), got 2");
}

static void missing_rig(void **state) {
    (void)state;
    expect_solve_error(WITH_RIG("{}"), "rig: expected a \"bones\" array, a \"dh\" table, or a file (\"urdf\", "
                                       "\"urdf_text\", \"bvh\", \"gltf\", \"fbx\", \"file\")");
    expect_solve_error(WITH_RIG("{'bones':[" HIP "],'dh':{}}"), "rig: give one of \"bones\" and \"dh\", not both");
    expect_solve_error("{" TWO_BONE "," TO_ANKLE "}", "rig: required field is missing");
}

/* Numbers that are finite but whose products overflow must give an error or finite output,
 * never NaN or infinity. */
static void huge_numbers_never_print_non_finite(void **state) {
    (void)state;
    const char *requests[] = {
        WITH_RIG(
            "{'bones':[{'name':'hip','position':[0,1e308,0]},{'name':'knee','parent':'hip','position':[1e308,-1e308,"
            "0]},{'name':'ankle','parent':'knee','position':[-1e308,1e308,0]}]}"),
        LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[1e308,-1e308,1e308]}]"),
        LEG_REQUEST("{'type':'two_bone'}", "[{'bone':'ankle','position':[1e-308,0,0],'pole':[1e308,1e308,0]}]"),
    };
    for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
        cli_run run = run_cli(requests[i], "solve", "-", NULL);
        assert_non_null(run.json);
        if (run.status == 0)
            assert_all_finite_text(run.out);
        else
            assert_int_equal(run.status, 1);
        cli_run_free(&run);
    }
}

/* World positions that overflow while the pose is written: one error naming why, no output. */
static void overflowing_pose_is_refused(void **state) {
    (void)state;
    cli_run run = run_cli("{'rig':{'bones':[{'name':'a','position':[1e308,0,0]},"
                          "{'name':'b','parent':'a','position':[1.7e308,0,0]}]}}",
                          "fk", "-", NULL);
    assert_cli_error(&run, 1, "the result is not finite (the input is too large to compute with)");
    cli_run_free(&run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unreadable_file),
        cmocka_unit_test(invalid_json),
        cmocka_unit_test(utf8_names_read_and_print_back),
        cmocka_unit_test(messages_stay_valid_utf8),
        cmocka_unit_test(unknown_parent),
        cmocka_unit_test(cycle_and_order),
        cmocka_unit_test(duplicate_names),
        cmocka_unit_test(zero_length_bone),
        cmocka_unit_test(not_finite_numbers),
        cmocka_unit_test(zero_quaternion),
        cmocka_unit_test(unknown_solver),
        cmocka_unit_test(wrong_types),
        cmocka_unit_test(unknown_and_repeated_fields),
        cmocka_unit_test(unknown_target_bone),
        cmocka_unit_test(wrong_chain_shape),
        cmocka_unit_test(bad_two_bone_options),
        cmocka_unit_test(bad_joints),
        cmocka_unit_test(bad_joint_values),
        cmocka_unit_test(missing_rig),
        cmocka_unit_test(huge_numbers_never_print_non_finite),
        cmocka_unit_test(overflowing_pose_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
