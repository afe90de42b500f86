/* Characters as rigs through the CLI: {"bvh": PATH}, {"gltf": PATH} (.gltf and .glb),
 * {"fbx": PATH}, {"file": PATH} by extension, --rig PATH on a solve, `reach info PATH` and
 * `reach convert` from FBX; bones
 * named as the file names them, fk at rest giving the file's world positions; files that are not
 * what they say and unknown extensions refused. */
#include "cli_test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *arm_bvh = "HIERARCHY\nROOT hips\n{\n OFFSET 1 2 3\n CHANNELS 6 Xposition Yposition Zposition "
                             "Zrotation Xrotation Yrotation\n JOINT arm\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Zrotation "
                             "Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 5 0\n  }\n }\n}\nMOTION\nFrames: 2\n"
                             "Frame Time: 0.1\n0 0 0 0 0 0 0 0 0\n7 8 9 90 0 0 0 90 0\n";

/* A scaled armature over one joint: the joint sits at 0.01 × (0, 100, 0) = (0, 1, 0). */
static const char *arm_gltf = "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":"
                              "\"Armature\",\"scale\":[0.01,0.01,0.01],\"children\":[1]},{\"name\":\"hand\","
                              "\"translation\":[0,100,0]}],\"skins\":[{\"joints\":[1]}]}";

/* A hand-written ASCII FBX: a hip with a pre-rotation a quarter turn about z (baked into its
 * transform), the knee's (0, -45, 0) turned to (45, 0, 0). */
static const char *leg_fbx = "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n FBXVersion: 7400\n}\nObjects:  {\n"
                             " Model: 1001, \"Model::hips\", \"LimbNode\" {\n  Properties70:  {\n"
                             "   P: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",1,90,2\n"
                             "   P: \"PreRotation\", \"Vector3D\", \"Vector\", \"\",0,0,90\n"
                             "   P: \"RotationActive\", \"bool\", \"\", \"\",1\n  }\n }\n"
                             " Model: 1002, \"Model::knee\", \"LimbNode\" {\n  Properties70:  {\n"
                             "   P: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,-45,0\n  }\n }\n}\n"
                             "Connections:  {\n C: \"OO\",1001,0\n C: \"OO\",1002,1001\n}\n";

static char folder[] = "/tmp/reach_cli_characters_XXXXXX";

static void write_file(const char *name, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    fputs(text, file);
    fclose(file);
}

static int setup(void **state) {
    (void)state;
    if (!mkdtemp(folder)) return -1;
    write_file("arm.bvh", arm_bvh);
    write_file("arm.gltf", arm_gltf);
    write_file("robot.fbx", "not FBX");
    write_file("leg.fbx", leg_fbx);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    const char *names[] = {"arm.bvh", "arm.gltf", "robot.fbx", "leg.fbx", "request.json"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", folder, names[k]);
        remove(path);
    }
    return rmdir(folder);
}

static cli_run fk_with_rig(const char *rig) {
    char request[1024];
    snprintf(request, sizeof request, "{'rig':%s}", rig);
    return run_cli(request, "fk", "-", NULL);
}

static void test_bvh_rig(void **state) {
    (void)state;
    char rig[600];
    snprintf(rig, sizeof rig, "{'bvh':'%s/arm.bvh'}", folder);
    cli_run run = fk_with_rig(rig);
    assert_int_equal(run.status, 0);
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "bones[2].name")), "arm_end");
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_make(1, 17, 3), 1e-12);
    cli_run_free(&run);
    snprintf(rig, sizeof rig, "{'file':'%s/arm.bvh'}", folder);
    run = fk_with_rig(rig);
    assert_int_equal(run.status, 0);
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(1, 12, 3), 1e-12);
    cli_run_free(&run);
}

static void test_gltf_rig_relative_to_the_request(void **state) {
    (void)state;
    write_file("request.json", "{\"rig\":{\"gltf\":\"arm.gltf\"}}");
    char path[512];
    snprintf(path, sizeof path, "%s/request.json", folder);
    cli_run run = run_cli(NULL, "fk", path, NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "bones[1].name")), "hand");
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(0, 1, 0), 1e-9);
    cli_run_free(&run);
}

static void test_fbx_rig(void **state) {
    (void)state;
    char rig[600];
    snprintf(rig, sizeof rig, "{'fbx':'%s/leg.fbx'}", folder);
    cli_run run = fk_with_rig(rig);
    assert_int_equal(run.status, 0);
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "bones[1].name")), "knee");
    assert_vec3_near(json_vec3(run.json, "bones[0].world_position"), reach_vec3_make(1, 90, 2), 1e-5);
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(46, 90, 2), 1e-5);
    cli_run_free(&run);
    snprintf(rig, sizeof rig, "{'file':'%s/leg.fbx'}", folder);
    run = fk_with_rig(rig);
    assert_int_equal(run.status, 0);
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(46, 90, 2), 1e-5);
    cli_run_free(&run);
    char path[512];
    snprintf(path, sizeof path, "%s/leg.fbx", folder);
    run = run_cli(NULL, "info", path, NULL);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "2 bones"));
    cli_run_free(&run);
}

static void test_rig_option_and_info(void **state) {
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/arm.bvh", folder);
    /* A solve for the End Site, the rig from --rig: reached where the arm can reach. */
    cli_run run = run_cli("{'solver':{'type':'fabrik'},'targets':[{'bone':'arm_end','position':[1,16,4]}]}", "solve",
                          "-", "--rig", path, NULL);
    assert_int_equal(run.status, 0);
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "bones[0].name")), "hips");
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_make(1, 16, 4), 1e-6);
    cli_run_free(&run);
    run = run_cli(NULL, "info", path, NULL);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "3 bones"));
    assert_non_null(strstr(run.out, "\n    arm_end"));
    cli_run_free(&run);
}

/* "frame": N poses the rig as the motion's frame N: root Rz(90°) at (7, 8, 9), the arm Rx(90°). */
static void test_frame(void **state) {
    (void)state;
    char request[1024];
    snprintf(request, sizeof request, "{'rig':{'bvh':'%s/arm.bvh'},'frame':1}", folder);
    cli_run run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_vec3_near(json_vec3(run.json, "bones[0].world_position"), reach_vec3_make(7, 8, 9), 1e-12);
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(-3, 8, 9), 1e-12);
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_make(-3, 8, 14), 1e-12);
    cli_run_free(&run);
    /* A solve starts from the frame: a target where the frame already is is reached at once. */
    snprintf(request, sizeof request,
             "{'rig':{'bvh':'%s/arm.bvh'},'frame':1,'solver':{'type':'fabrik'},'targets':[{'bone':'arm_end',"
             "'position':[-3,8,14]}]}",
             folder);
    run = run_cli(request, "solve", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_true(json_number(run.json, "iterations") <= 1);
    assert_vec3_near(json_vec3(run.json, "bones[0].world_position"), reach_vec3_make(7, 8, 9), 1e-9);
    cli_run_free(&run);
    snprintf(request, sizeof request, "{'rig':{'bvh':'%s/arm.bvh'},'frame':2}", folder);
    run = run_cli(request, "fk", "-", NULL);
    assert_cli_error(&run, 1, "frame: expected a frame number from 0 to 1");
    cli_run_free(&run);
    run = run_cli("{'rig':{'bones':[{'name':'a','parent':null,'position':[0,0,0]}]},'frame':0}", "fk", "-", NULL);
    assert_cli_error(&run, 1, "frame: the rig has no motion (only BVH, glTF and FBX characters do)");
    cli_run_free(&run);
}

/* `reach convert`: BVH and glTF into BVH; the written file poses as the original. */
static void test_convert(void **state) {
    (void)state;
    char in[512], out[512], request[1024];
    snprintf(in, sizeof in, "%s/arm.bvh", folder);
    snprintf(out, sizeof out, "%s/converted.bvh", folder);
    cli_run run = run_cli(NULL, "convert", in, out, NULL);
    assert_int_equal(run.status, 0);
    cli_run_free(&run);
    snprintf(request, sizeof request, "{'rig':{'bvh':'%s'},'frame':1}", out);
    run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "bones[2].name")), "arm_end");
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(-3, 8, 9), 1e-9);
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_make(-3, 8, 14), 1e-9);
    cli_run_free(&run);
    snprintf(in, sizeof in, "%s/arm.gltf", folder);
    run = run_cli(NULL, "convert", in, out, NULL);
    assert_int_equal(run.status, 0);
    cli_run_free(&run);
    snprintf(request, sizeof request, "{'rig':{'bvh':'%s'}}", out);
    run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(cJSON_GetStringValue(json_at(run.json, "bones[1].name")), "hand");
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(0, 1, 0), 1e-9);
    cli_run_free(&run);
    run = run_cli(NULL, "convert", in, "out.fbx", NULL);
    assert_cli_error(&run, 1, "convert: 'out.fbx': expected OUT to be a .bvh, .gltf, .glb or .json");
    cli_run_free(&run);
    remove(out);
}

/* An FBX converted to GLB poses as the FBX does at rest (the pre-rotation baked in), and to BVH
 * at its one frame (BVH has no rest rotations: the writer puts the rest pose in a frame). */
static void test_convert_from_fbx(void **state) {
    (void)state;
    const char *outs[] = {"leg.bvh", "leg.glb"};
    for (int k = 0; k < 2; ++k) {
        char in[512], out[512], request[1200];
        snprintf(in, sizeof in, "%s/leg.fbx", folder);
        snprintf(out, sizeof out, "%s/%s", folder, outs[k]);
        cli_run run = run_cli(NULL, "convert", in, out, NULL);
        assert_int_equal(run.status, 0);
        cli_run_free(&run);
        snprintf(request, sizeof request, "{'rig':{'file':'%s'}%s}", out, k == 0 ? ",'frame':0" : "");
        run = run_cli(request, "fk", "-", NULL);
        assert_int_equal(run.status, 0);
        assert_string_equal(cJSON_GetStringValue(json_at(run.json, "bones[1].name")), "knee");
        assert_vec3_near(json_vec3(run.json, "bones[0].world_position"), reach_vec3_make(1, 90, 2), 1e-5);
        assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(46, 90, 2), 1e-5);
        cli_run_free(&run);
        remove(out);
    }
}

static void test_refused(void **state) {
    (void)state;
    char rig[600];
    snprintf(rig, sizeof rig, "{'fbx':'%s/robot.fbx'}", folder);
    cli_run run = fk_with_rig(rig);
    char message[700];
    snprintf(message, sizeof message,
             "rig: %s/robot.fbx: not an FBX file (neither the binary header nor FBXHeaderExtension)", folder);
    assert_cli_error(&run, 1, message);
    cli_run_free(&run);
    run = fk_with_rig("{'file':'walk.abc'}");
    assert_cli_error(&run, 1, "rig.file: 'walk.abc': unknown format (known: .urdf, .bvh, .gltf, .glb, .fbx)");
    cli_run_free(&run);
    run = fk_with_rig("{'bvh':'/nonexistent/walk.bvh'}");
    assert_cli_error(&run, 1, "rig: /nonexistent/walk.bvh: cannot be opened");
    cli_run_free(&run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bvh_rig),
        cmocka_unit_test(test_gltf_rig_relative_to_the_request),
        cmocka_unit_test(test_fbx_rig),
        cmocka_unit_test(test_rig_option_and_info),
        cmocka_unit_test(test_frame),
        cmocka_unit_test(test_convert),
        cmocka_unit_test(test_convert_from_fbx),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
