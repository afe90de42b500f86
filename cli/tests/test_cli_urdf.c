/* URDF rigs through the CLI: {"urdf": PATH} (from the request's folder), {"urdf_text": ...},
 * {"file": ...} and --rig robot.urdf; "joint_names" in results; "joints" by name in fk and as a
 * solve's start; mimic followers derived and never given; `reach info`; and the errors. The
 * UR5 URDF's fk matches the textbook DH matrices. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dh_reference.h"

#define REQUEST_SIZE 8192

static const char *gripper_text =
    "<robot name=\\\"g\\\"><link name=\\\"base\\\"/><link name=\\\"left\\\"/><link name=\\\"right\\\"/>"
    "<joint name=\\\"left_joint\\\" type=\\\"prismatic\\\"><parent link=\\\"base\\\"/><child link=\\\"left\\\"/>"
    "<axis xyz=\\\"0 1 0\\\"/><limit lower=\\\"0\\\" upper=\\\"0.04\\\"/></joint>"
    "<joint name=\\\"right_joint\\\" type=\\\"prismatic\\\"><parent link=\\\"base\\\"/><child link=\\\"right\\\"/>"
    "<axis xyz=\\\"0 -1 0\\\"/><limit lower=\\\"0\\\" upper=\\\"0.04\\\"/>"
    "<mimic joint=\\\"left_joint\\\"/></joint></robot>";

static cli_run ur5_fk(const char *joints) {
    char request[REQUEST_SIZE];
    snprintf(request, sizeof request, "{'rig':{'urdf':'%s/ur5.urdf'},'joints':%s}", examples_dir(), joints);
    return run_cli(request, "fk", "-", NULL);
}

static void test_fk_by_name_matches_dh(void **state) {
    (void)state;
    dh_robot robot = dh_ur5();
    double q[6] = {0.3, -1.1, 0.7, -0.4, 1.9, -2.5};
    char joints[512];
    snprintf(joints, sizeof joints,
             "{'wrist_3_joint':%.17g,'shoulder_pan_joint':%.17g,'shoulder_lift_joint':%.17g,'elbow_joint':%.17g,"
             "'wrist_1_joint':%.17g,'wrist_2_joint':%.17g}",
             q[5], q[0], q[1], q[2], q[3], q[4]);
    cli_run run = ur5_fk(joints);
    assert_int_equal(run.status, 0);
    const char *names[6] = {"shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint",
                            "wrist_1_joint",      "wrist_2_joint",       "wrist_3_joint"};
    for (int k = 0; k < 6; k++) {
        char path[32];
        snprintf(path, sizeof path, "joint_names[%d]", k);
        assert_string_equal(cJSON_GetStringValue(json_at(run.json, path)), names[k]);
        snprintf(path, sizeof path, "joints[%d]", k);
        assert_true(fabs(json_number(run.json, path) - q[k]) < 1e-12);
    }
    double position[3], rotation[9];
    dh_reference_fk(&robot, q, position, rotation);
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "bones[7].name")), "tool0");
    assert_vec3_near(json_vec3(run.json, "bones[7].world_position"),
                     reach_vec3_make(position[0], position[1], position[2]), 1e-9);
    cli_run_free(&run);
}

static void test_names_left_out_keep_rest(void **state) {
    (void)state;
    cli_run run = ur5_fk("{'elbow_joint':0.5}");
    assert_int_equal(run.status, 0);
    assert_true(fabs(json_number(run.json, "joints[2]") - 0.5) < 1e-12);
    assert_true(fabs(json_number(run.json, "joints[0]")) < 1e-12);
    cli_run_free(&run);
}

static void test_mimic_follower_derived(void **state) {
    (void)state;
    char request[REQUEST_SIZE];
    snprintf(request, sizeof request, "{'rig':{'urdf_text':'%s'},'joints':{'left_joint':0.03}}", gripper_text);
    cli_run run = run_cli(request, "fk", "-", NULL);
    if (run.status != 0) fail_msg("%s", run.out);
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "joint_names[1]")), "right_joint");
    assert_true(fabs(json_number(run.json, "joints[1]") - 0.03) < 1e-12);
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_make(0, -0.03, 0), 1e-12);
    cli_run_free(&run);

    /* The array form: the follower's entry is not read (its derived value is printed). */
    snprintf(request, sizeof request, "{'rig':{'urdf_text':'%s'},'joints':[0.01, 0.5]}", gripper_text);
    run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_true(fabs(json_number(run.json, "joints[1]") - 0.01) < 1e-12);
    cli_run_free(&run);

    snprintf(request, sizeof request, "{'rig':{'urdf_text':'%s'},'joints':{'right_joint':0.01}}", gripper_text);
    run = run_cli(request, "fk", "-", NULL);
    assert_cli_error(&run, 1,
                     "joints.right_joint: 'right_joint' follows 'left_joint' (mimic): its value is derived, not given");
    cli_run_free(&run);
}

static void test_solve_from_file_with_relative_urdf(void **state) {
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/ur5_urdf_solve.json", examples_dir());
    cli_run run = run_cli(NULL, "solve", path, NULL);
    if (run.status != 0) fail_msg("%s", run.out);
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "joint_names[5]")), "wrist_3_joint");
    cli_run_free(&run);
}

static void test_rig_option_takes_urdf(void **state) {
    (void)state;
    char rig[1024];
    snprintf(rig, sizeof rig, "%s/ur5.urdf", examples_dir());
    cli_run run = run_cli("{'solver':{'type':'jacobian'},'joints':{'shoulder_lift_joint':-1.2,'elbow_joint':1},"
                          "'targets':[{'bone':'tool0','position':[0.3,0.2,0.4]}]}",
                          "solve", "-", "--rig", rig, NULL);
    if (run.status != 0) fail_msg("%s", run.out);
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    assert_vec3_near(json_vec3(run.json, "bones[7].world_position"), reach_vec3_make(0.3, 0.2, 0.4), 1e-3);
    cli_run_free(&run);
}

static void test_solve_moves_followers(void **state) {
    (void)state;
    char request[REQUEST_SIZE];
    snprintf(
        request, sizeof request,
        "{'rig':{'urdf_text':'%s'},'solver':{'type':'jacobian'},'targets':[{'bone':'right','position':[0,-0.025,0]}]}",
        gripper_text);
    cli_run run = solve_ok(request);
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    assert_true(fabs(json_number(run.json, "joints[0]") - 0.025) < 1e-5);
    assert_true(fabs(json_number(run.json, "joints[1]") - 0.025) < 1e-5);
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(0, 0.025, 0), 1e-5);
    cli_run_free(&run);
}

/* FABRIK and CCD turn a follower on its own: the CLI couples it again and says so. */
static void test_fabrik_and_ccd_followers_coupled_after(void **state) {
    (void)state;
    const char *solvers[] = {"fabrik", "ccd"};
    for (int k = 0; k < 2; k++) {
        char request[REQUEST_SIZE];
        snprintf(request, sizeof request,
                 "{'rig':{'urdf':'%s/gripper.urdf'},'solver':{'type':'%s'},'joints':{'wrist':0.3},"
                 "'targets':[{'bone':'thumb','position':[0.2,0.1,0.7]}]}",
                 examples_dir(), solvers[k]);
        cli_run run = run_cli(request, "solve", "-", NULL);
        if (run.status != 0) fail_msg("%s", run.out);
        /* tilt = -0.5 wrist + 0.1, whatever the solver did to the thumb. */
        double wrist = json_number(run.json, "joints[1]"), tilt = json_number(run.json, "joints[4]");
        assert_true(fabs(tilt - (-0.5 * wrist + 0.1)) < 1e-9);
        const char *warning = cJSON_GetStringValue(json_at(run.json, "warnings[0]"));
        assert_non_null(warning);
        assert_non_null(strstr(warning, "bone 'thumb'"));
        assert_non_null(strstr(warning, "coupled to its leader after the solve"));
        cli_run_free(&run);
    }
}

static void test_info(void **state) {
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/gripper.urdf", examples_dir());
    cli_run run = run_cli(NULL, "info", path, NULL);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "6 bones, 3 degrees of freedom: 5 joint values (2 mimic, following others)\n"));
    assert_non_null(strstr(run.out, "\n  column  lift: prismatic along (0, 0, 1) [-0.1, 0.3]\n"));
    assert_non_null(strstr(run.out,
                           "\n      finger_right  finger_right_joint: prismatic along (0, 1, 0) [0, 0.04], mimic: 1 x "
                           "finger_left_joint +0\n"));
    cli_run_free(&run);
    run = run_cli(NULL, "info", "no_such_robot.urdf", NULL);
    assert_cli_error(&run, 1, "rig: no_such_robot.urdf: cannot be opened");
    cli_run_free(&run);
}

static void test_errors(void **state) {
    (void)state;
    cli_run run =
        run_cli("{'rig':{'urdf_text':'<robot name=\\\"r\\\"><link name=\\\"a\\\"/><link name=\\\"a\\\"/></robot>'}}",
                "fk", "-", NULL);
    assert_cli_error(&run, 1, "rig: line 1: a second link named 'a'");
    cli_run_free(&run);
    run = run_cli("{'rig':{'file':'hero.obj'}}", "fk", "-", NULL);
    assert_cli_error(&run, 1, "rig.file: 'hero.obj': unknown format (known: .urdf, .bvh, .gltf, .glb, .fbx)");
    cli_run_free(&run);
    run = run_cli("{'rig':{'urdf':'a.urdf','bones':[]}}", "fk", "-", NULL);
    assert_cli_error(&run, 1, "rig: give one of \"bones\" and \"urdf\", not both");
    cli_run_free(&run);
    run = ur5_fk("{'no_joint':1}");
    assert_cli_error(&run, 1, "joints.no_joint: no hinge or prismatic joint named 'no_joint'");
    cli_run_free(&run);
    char request[REQUEST_SIZE];
    snprintf(request, sizeof request, "{'rig':{'urdf_text':'%s'},'joints':{'left_joint':0.5}}", gripper_text);
    run = run_cli(request, "fk", "-", NULL);
    assert_cli_error(&run, 1, "joints.left_joint: 0.5 is outside the limits [0, 0.04] of bone 'left' (prismatic)");
    cli_run_free(&run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fk_by_name_matches_dh),
        cmocka_unit_test(test_names_left_out_keep_rest),
        cmocka_unit_test(test_mimic_follower_derived),
        cmocka_unit_test(test_solve_from_file_with_relative_urdf),
        cmocka_unit_test(test_rig_option_takes_urdf),
        cmocka_unit_test(test_solve_moves_followers),
        cmocka_unit_test(test_fabrik_and_ccd_followers_coupled_after),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
