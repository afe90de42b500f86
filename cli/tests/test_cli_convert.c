/* `reach convert IN OUT` and `reach info` on characters: a BVH (channels in mixed orders, a
 * position channel below the root, End Sites) converted to .glb, .gltf and back to .bvh poses as
 * the original at every frame (fk with "frame": N, bones matched by name, to 1e-6 of its height);
 * into .json it is a bones rig that poses as the original at rest; a URDF into .json keeps its
 * joints (fk at the same joint values agrees) and into .glb its rest; a URDF with mimic joints
 * cannot be a bones rig; `reach info` gives a clip's frames, rate and length; bad names and
 * unwritable places are clean errors that leave OUT as it was. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FRAMES 4

/* Hips (6 channels, YXZ), a spine turned ZXY, an arm with a position channel of its own (XYZ
 * rotations after it), End Sites on the arm and the head. Height about 70. */
static const char *walk_bvh =
    "HIERARCHY\nROOT Hips\n{\n OFFSET 0 40 0\n CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation "
    "Zrotation\n JOINT Spine\n {\n  OFFSET 0 12 1\n  CHANNELS 3 Zrotation Xrotation Yrotation\n  JOINT Head\n  {\n"
    "   OFFSET 0 15 0\n   CHANNELS 3 Xrotation Zrotation Yrotation\n   End Site\n   {\n    OFFSET 0 8 0\n   }\n  }\n"
    "  JOINT LeftArm\n  {\n   OFFSET 6 10 0\n   CHANNELS 6 Zposition Xposition Yposition Xrotation Yrotation "
    "Zrotation\n   End Site\n   {\n    OFFSET 20 0 0\n   }\n  }\n }\n}\n"
    "MOTION\nFrames: 4\nFrame Time: 0.1\n"
    "0 40 0 0 0 0 0 0 0 0 0 0 0 6 10 0 0 0\n"
    "1.5 41 -2 30 -20 10 15 40 -5 -25 10 60 1 7 11 45 -30 80\n"
    "3 42 -4 170 -60 20 -35 10 90 120 -45 -170 -1 5 9 -90 60 -120\n"
    "4.5 40.5 -6 -150 80 -40 5 -15 30 -60 170 45 0.5 6.5 10.5 179 -89 0\n";

static char folder[] = "/tmp/reach_cli_convert_XXXXXX";

static void in_folder(char *path, size_t size, const char *name) { snprintf(path, size, "%s/%s", folder, name); }

static void write_file(const char *name, const char *text) {
    char path[512];
    in_folder(path, sizeof path, name);
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    fputs(text, file);
    fclose(file);
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[n] = '\0';
    return text;
}

static int setup(void **state) {
    (void)state;
    if (!mkdtemp(folder)) return -1;
    write_file("walk.bvh", walk_bvh);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    const char *names[] = {"walk.bvh", "walk.glb", "walk.gltf", "again.bvh", "walk.json",
                           "ur5.json", "ur5.glb",  "kept.json", "kept.glb"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
        char path[512];
        in_folder(path, sizeof path, names[k]);
        remove(path);
    }
    return rmdir(folder);
}

static void convert_ok(const char *in, const char *out) {
    char in_path[512], out_path[512];
    in_folder(in_path, sizeof in_path, in);
    in_folder(out_path, sizeof out_path, out);
    cli_run run = run_cli(NULL, "convert", in_path, out_path, NULL);
    if (run.status != 0) fail_msg("convert %s %s: %s", in, out, run.out);
    assert_string_equal(run.out, "");
    cli_run_free(&run);
    char temporary[600];
    snprintf(temporary, sizeof temporary, "%s.tmp", out_path);
    assert_null(read_file(temporary));
}

/* fk of a request (' for "), which must succeed. */
static cli_run fk_ok(const char *request) {
    cli_run run = run_cli(request, "fk", "-", NULL);
    if (run.status != 0) fail_msg("fk failed: %s", run.out);
    return run;
}

/* Every bone of `expected` at the same world position in `actual` (found by name). */
static void assert_same_bones(const cJSON *expected, const cJSON *actual, double tolerance) {
    const cJSON *bones = json_at(expected, "bones"), *others = json_at(actual, "bones");
    assert_int_equal(cJSON_GetArraySize(bones), cJSON_GetArraySize(others));
    for (const cJSON *bone = bones->child; bone; bone = bone->next) {
        const char *name = cJSON_GetStringValue(json_at(bone, "name"));
        const cJSON *match = NULL;
        for (const cJSON *other = others->child; other && !match; other = other->next)
            if (strcmp(cJSON_GetStringValue(json_at(other, "name")), name) == 0) match = other;
        if (!match) fail_msg("no bone '%s'", name);
        reach_vec3 a = json_vec3(bone, "world_position"), b = json_vec3(match, "world_position");
        if (reach_vec3_distance(a, b) > tolerance)
            fail_msg("'%s': (%g, %g, %g) against (%g, %g, %g)", name, (double)a.x, (double)a.y, (double)a.z,
                     (double)b.x, (double)b.y, (double)b.z);
    }
}

/* The converted file poses as the BVH at every frame (kind: "gltf" or "bvh"). */
static void poses_as_walk(const char *kind, const char *name) {
    char path[512], request[1024];
    in_folder(path, sizeof path, name);
    for (int f = 0; f < FRAMES; ++f) {
        snprintf(request, sizeof request, "{'rig':{'bvh':'%s/walk.bvh'},'frame':%d}", folder, f);
        cli_run expected = fk_ok(request);
        snprintf(request, sizeof request, "{'rig':{'%s':'%s'},'frame':%d}", kind, path, f);
        cli_run actual = fk_ok(request);
        assert_same_bones(expected.json, actual.json, 1e-6 * 70);
        cli_run_free(&expected);
        cli_run_free(&actual);
    }
    snprintf(request, sizeof request, "{'rig':{'%s':'%s'},'frame':%d}", kind, path, FRAMES);
    cli_run run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 1); /* every frame kept, and no more */
    cli_run_free(&run);
}

static void test_bvh_to_gltf_and_back(void **state) {
    (void)state;
    convert_ok("walk.bvh", "walk.glb");
    poses_as_walk("gltf", "walk.glb");
    convert_ok("walk.glb", "walk.gltf");
    poses_as_walk("gltf", "walk.gltf");
    char path[512];
    in_folder(path, sizeof path, "walk.gltf");
    assert_non_null(strstr(read_file(path), "\"uri\":\"data:application/octet-stream;base64,"));
    convert_ok("walk.gltf", "again.bvh");
    poses_as_walk("bvh", "again.bvh");
    in_folder(path, sizeof path, "again.bvh");
    assert_non_null(strstr(read_file(path), "End Site")); /* the End Sites are End Sites again */
}

static void test_info_gives_the_clip(void **state) {
    (void)state;
    char path[512];
    in_folder(path, sizeof path, "walk.bvh");
    cli_run run = run_cli(NULL, "info", path, NULL);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "6 bones"));
    assert_non_null(strstr(run.out, "\nmotion: 4 frames at 10 frames per second, 0.3 s\n"));
    cli_run_free(&run);
    convert_ok("walk.bvh", "walk.glb");
    in_folder(path, sizeof path, "walk.glb");
    run = run_cli(NULL, "info", path, NULL);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "\n1 animation\n  animation_0: 4 frames at 10 frames per second, 0.3 s\n"));
    cli_run_free(&run);
    /* A rest pose alone: no animations. */
    char urdf[512];
    snprintf(urdf, sizeof urdf, "%s/ur5.urdf", examples_dir());
    in_folder(path, sizeof path, "ur5.glb");
    run = run_cli(NULL, "convert", urdf, path, NULL);
    assert_int_equal(run.status, 0);
    cli_run_free(&run);
    run = run_cli(NULL, "info", path, NULL);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "\n0 animations\n"));
    cli_run_free(&run);
}

static char *quoted_rig(const char *name) {
    char path[512];
    in_folder(path, sizeof path, name);
    const char *text = read_file(path);
    assert_non_null(text);
    return strdup(text);
}

static void test_bvh_to_json_rig(void **state) {
    (void)state;
    convert_ok("walk.bvh", "walk.json");
    char *rig = quoted_rig("walk.json");
    assert_non_null(strstr(rig, "{\"bones\":[{\"name\":\"Hips\",\"parent\":null,"));
    size_t size = strlen(rig) + 64;
    char *request = malloc(size);
    snprintf(request, size, "{\"rig\":%s}", rig);
    cli_run from_json = fk_ok(request);
    char path_request[600];
    snprintf(path_request, sizeof path_request, "{'rig':{'bvh':'%s/walk.bvh'}}", folder);
    cli_run from_bvh = fk_ok(path_request);
    assert_same_bones(from_bvh.json, from_json.json, 1e-12);
    cli_run_free(&from_json);
    cli_run_free(&from_bvh);
    char path[512];
    in_folder(path, sizeof path, "walk.json");
    cli_run info = run_cli(NULL, "info", path, NULL);
    assert_int_equal(info.status, 0);
    assert_non_null(strstr(info.out, "LeftArm_end  fixed"));
    cli_run_free(&info);
    free(request);
    free(rig);
}

/* A UR5 as a bones rig: the same hinges (axes, limits), so fk at the same joint values agrees. */
static void test_urdf_to_json_rig(void **state) {
    (void)state;
    char urdf[512], out[512];
    snprintf(urdf, sizeof urdf, "%s/ur5.urdf", examples_dir());
    in_folder(out, sizeof out, "ur5.json");
    cli_run run = run_cli(NULL, "convert", urdf, out, NULL);
    assert_int_equal(run.status, 0);
    cli_run_free(&run);
    char *rig = quoted_rig("ur5.json");
    const char *values = "[0.3,-1.2,1.9,-0.4,1.1,2.5]";
    size_t size = strlen(rig) + 128;
    char *request = malloc(size);
    snprintf(request, size, "{\"rig\":%s,\"joints\":%s}", rig, values);
    cli_run from_json = fk_ok(request);
    char urdf_request[700];
    snprintf(urdf_request, sizeof urdf_request, "{'rig':{'urdf':'%s'},'joints':%s}", urdf, values);
    cli_run from_urdf = fk_ok(urdf_request);
    assert_same_bones(from_urdf.json, from_json.json, 1e-12);
    cli_run_free(&from_json);
    cli_run_free(&from_urdf);
    free(request);
    free(rig);
    /* Into glTF: its rest pose (joints become ball joints there). */
    in_folder(out, sizeof out, "ur5.glb");
    run = run_cli(NULL, "convert", urdf, out, NULL);
    assert_int_equal(run.status, 0);
    cli_run_free(&run);
    snprintf(urdf_request, sizeof urdf_request, "{'rig':{'gltf':'%s'}}", out);
    cli_run from_gltf = fk_ok(urdf_request);
    snprintf(urdf_request, sizeof urdf_request, "{'rig':{'urdf':'%s'}}", urdf);
    from_urdf = fk_ok(urdf_request);
    assert_same_bones(from_urdf.json, from_gltf.json, 1e-6);
    cli_run_free(&from_gltf);
    cli_run_free(&from_urdf);
}

/* Errors, each leaving OUT as it was. */
static void test_refused(void **state) {
    (void)state;
    write_file("kept.json", "what was there");
    write_file("kept.glb", "what was there");
    char in[512], out[512], gripper[512];
    snprintf(gripper, sizeof gripper, "%s/gripper.urdf", examples_dir());
    in_folder(out, sizeof out, "kept.json");
    cli_run run = run_cli(NULL, "convert", gripper, out, NULL);
    assert_cli_error(&run, 1,
                     "convert: bone 'finger_right' mimics another joint, which a version-1 bones rig cannot say");
    cli_run_free(&run);
    assert_string_equal(read_file(out), "what was there");

    write_file("broken.bvh", "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n");
    in_folder(in, sizeof in, "broken.bvh");
    in_folder(out, sizeof out, "kept.glb");
    run = run_cli(NULL, "convert", in, out, NULL);
    assert_int_equal(run.status, 1);
    assert_non_null(strstr(run.out, "convert: "));
    cli_run_free(&run);
    assert_string_equal(read_file(out), "what was there");
    remove(in);

    in_folder(in, sizeof in, "walk.bvh");
    run = run_cli(NULL, "convert", in, "/nonexistent/walk.glb", NULL);
    assert_cli_error(&run, 1, "convert: /nonexistent/walk.glb: cannot be written");
    cli_run_free(&run);
    run = run_cli(NULL, "convert", in, "/nonexistent/walk.json", NULL);
    assert_cli_error(&run, 1, "convert: /nonexistent/walk.json: cannot be written");
    cli_run_free(&run);
    run = run_cli(NULL, "convert", "walk.abc", "walk.glb", NULL);
    assert_cli_error(&run, 1, "convert: 'walk.abc': expected IN to be a .bvh, .gltf, .glb or .urdf");
    cli_run_free(&run);
    run = run_cli(NULL, "convert", in, "walk.txt", NULL);
    assert_cli_error(&run, 1, "convert: 'walk.txt': expected OUT to be a .bvh, .gltf, .glb or .json");
    cli_run_free(&run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bvh_to_gltf_and_back),
        cmocka_unit_test(test_info_gives_the_clip),
        cmocka_unit_test(test_bvh_to_json_rig),
        cmocka_unit_test(test_urdf_to_json_rig),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
