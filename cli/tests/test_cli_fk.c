/* `reach fk`: world transforms from a rig and joint values, checked against hand-worked poses
 * and against `reach solve` (its printed pose fed back in gives the same world transforms). */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void rest_pose_accumulates_positions(void **state) {
    (void)state;
    cli_run run =
        run_cli("{'rig':{'bones':[{'name':'a','position':[1,2,3]},{'name':'b','parent':'a','position':[0,1,0]},"
                "{'name':'c','parent':'b','position':[0,0,2]}]}}",
                "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(json_at(run.json, "status")->valuestring, "ok");
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_make(1, 3, 5), 0);
    assert_null(json_at(run.json, "reached"));
    cli_run_free(&run);
}

/* The example arm: base turned a quarter about z, shoulder an eighth about y, slide out 0.1.
 * Worked by hand: the shoulder's y axis becomes world -x, so the tilt carries the arm's z
 * toward world +y. */
static void hinge_and_prismatic_values(void **state) {
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/arm_fk.json", examples_dir());
    cli_run run = run_cli(NULL, "fk", path, NULL);
    assert_int_equal(run.status, 0);
    double s = sqrt(0.5);
    reach_vec3 shoulder = reach_vec3_make(0, 0, 0.3);
    reach_vec3 along = reach_vec3_make(0, s, s); /* the arm's direction after the two turns */
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), shoulder, 1e-15);
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_mad(shoulder, along, 0.6), 1e-12);
    assert_vec3_near(json_vec3(run.json, "bones[3].world_position"), reach_vec3_mad(shoulder, along, 0.7), 1e-12);
    assert_true(fabs(json_number(run.json, "joints[0]") - REACH_PI / 2) < 1e-12);
    assert_true(fabs(json_number(run.json, "joints[1]") - REACH_PI / 4) < 1e-12);
    assert_true(fabs(json_number(run.json, "joints[2]") - 0.1) < 1e-12);
    cli_run_free(&run);
}

/* Writes bones[i].position and rotation of a result as a rig with the given names/parents. */
static char *rig_from_result(const cJSON *result, const char *const *names, const char *const *parents, int count) {
    size_t size = 4096, used = 0;
    char *text = malloc(size);
    assert_non_null(text);
    used += (size_t)snprintf(text + used, size - used, "{'rig':{'bones':[");
    for (int i = 0; i < count; i++) {
        reach_transform local = json_bone_local(result, i);
        reach_vec3 p = local.translation;
        reach_quat q = local.rotation;
        used +=
            (size_t)snprintf(text + used, size - used,
                             "%s{'name':'%s','parent':%s%s%s,'position':[%.17g,%.17g,%.17g],'rotation':[%.17g,%.17g,"
                             "%.17g,%.17g]}",
                             i ? "," : "", names[i], parents[i] ? "'" : "", parents[i] ? parents[i] : "null",
                             parents[i] ? "'" : "", p.x, p.y, p.z, q.x, q.y, q.z, q.w);
    }
    snprintf(text + used, size - used, "]}}");
    return text;
}

static void solve_then_fk_round_trip(void **state) {
    (void)state;
    cli_run solved =
        run_cli("{'rig':{'bones':[{'name':'pelvis','position':[0,1,0],'rotation':[0,0.2,0,0.98]},{'name':"
                "'hip','parent':'pelvis','position':[0.1,0,0]},{'name':'knee','parent':'hip','position':[0,"
                "-0.45,0]},{'name':'ankle','parent':'knee','position':[0,-0.42,0]}]},'solver':{'type':"
                "'two_bone'},'targets':[{'bone':'ankle','position':[0.3,0.4,0.2],'pole':[0.5,1,1]}]}",
                "solve", "-", NULL);
    assert_int_equal(solved.status, 0);
    static const char *const names[] = {"pelvis", "hip", "knee", "ankle"};
    static const char *const parents[] = {NULL, "pelvis", "hip", "knee"};
    char *request = rig_from_result(solved.json, names, parents, 4);
    cli_run fk = run_cli(request, "fk", "-", NULL);
    free(request);
    assert_int_equal(fk.status, 0);
    for (int i = 0; i < 4; i++) {
        char path[64];
        snprintf(path, sizeof path, "bones[%d].world_position", i);
        assert_vec3_near(json_vec3(fk.json, path), json_vec3(solved.json, path), 1e-12);
    }
    assert_vec3_near(json_vec3(fk.json, "bones[3].world_position"), reach_vec3_make(0.3, 0.4, 0.2), 1e-12);
    cli_run_free(&fk);
    cli_run_free(&solved);
}

/* Joint values in, the same values out, and the pose they describe. */
static void joint_values_round_trip(void **state) {
    (void)state;
    const double values[] = {-1.25, 0.5, 0.05};
    char request[1024];
    snprintf(
        request, sizeof request,
        "{'rig':{'bones':[{'name':'a','joint':{'type':'hinge','axis':[0,0,1]}},{'name':'b','parent':'a','position':"
        "[1,0,0],'joint':{'type':'hinge','axis':[0,0,2],'min':-1,'max':1}},{'name':'c','parent':'b','position':[1,0,"
        "0],'joint':{'type':'prismatic','axis':[1,0,0],'min':0,'max':0.1}}]},'joints':[%.17g,%.17g,%.17g]}",
        values[0], values[1], values[2]);
    cli_run run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    for (int i = 0; i < 3; i++) {
        char path[32];
        snprintf(path, sizeof path, "joints[%d]", i);
        assert_true(fabs(json_number(run.json, path) - values[i]) < 1e-12);
    }
    /* planar arm: b at angle a, c at angle a + b, c slid 0.05 further along b's x */
    double a = values[0], ab = values[0] + values[1];
    reach_vec3 b = reach_vec3_make(cos(a), sin(a), 0);
    reach_vec3 c = reach_vec3_add(b, reach_vec3_make(1.05 * cos(ab), 1.05 * sin(ab), 0));
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), b, 1e-12);
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), c, 1e-12);
    cli_run_free(&run);
}

static void fk_errors(void **state) {
    (void)state;
    cli_run no_rig = run_cli("{'joints':[]}", "fk", "-", NULL);
    assert_cli_error(&no_rig, 1, "rig: required field is missing");
    cli_run_free(&no_rig);
    cli_run extra = run_cli("{'rig':{'bones':[{'name':'a'}]},'targets':[]}", "fk", "-", NULL);
    assert_cli_error(&extra, 1, "request: unknown field 'targets'");
    cli_run_free(&extra);
    cli_run count = run_cli("{'rig':{'bones':[{'name':'a'}]},'joints':[0]}", "fk", "-", NULL);
    assert_cli_error(&count, 1, "joints: expected 0 values (one per hinge or prismatic joint, in bone order), got 1");
    cli_run_free(&count);
    cli_run type = run_cli("{'rig':{'bones':[{'name':'a','joint':{'type':'hinge','axis':[0,0,1]}}]},'joints':['x']}",
                           "fk", "-", NULL);
    assert_cli_error(&type, 1, "joints[0]: expected a number, got a string");
    cli_run_free(&type);
}

/* A chain of 3000 bones, each naming the one before as its parent: every name is found (the
 * tip ends up 3000 steps up), and a name given twice, at the far end, is caught. */
static void long_rigs_find_every_name(void **state) {
    (void)state;
    enum { BONES = 3000 };
    size_t size = 64 * BONES + 256, used = 0;
    char *request = malloc(size);
    assert_non_null(request);
    used += (size_t)snprintf(request + used, size - used, "{'rig':{'bones':[{'name':'bone 0'}");
    for (int i = 1; i < BONES; i++)
        used += (size_t)snprintf(request + used, size - used,
                                 ",{'name':'bone %d','parent':'bone %d','position':[0,0.5,0]}", i, i - 1);
    snprintf(request + used, size - used, "]}}");
    cli_run run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    char path[64];
    snprintf(path, sizeof path, "bones[%d].world_position", BONES - 1);
    assert_vec3_near(json_vec3(run.json, path), reach_vec3_make(0, 0.5 * (BONES - 1), 0), 1e-9);
    cli_run_free(&run);
    /* The last bone renamed to an early one's name. */
    char *last = strstr(request, "'bone 2999',");
    assert_non_null(last);
    memcpy(last, "'bone 7'   ,", strlen("'bone 7'   ,"));
    run = run_cli(request, "fk", "-", NULL);
    assert_cli_error(&run, 1, "bones[2999].name: duplicate bone name 'bone 7' (also bones[7])");
    cli_run_free(&run);
    free(request);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rest_pose_accumulates_positions),
        cmocka_unit_test(hinge_and_prismatic_values),
        cmocka_unit_test(solve_then_fk_round_trip),
        cmocka_unit_test(joint_values_round_trip),
        cmocka_unit_test(fk_errors),
        cmocka_unit_test(long_rigs_find_every_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
