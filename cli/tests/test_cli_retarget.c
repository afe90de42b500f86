/* `reach retarget` end to end: BVH walks written by the test (a CMU-named source, a Mixamo-named
 * target of other proportions) and the test humanoid robot's URDF (formats/tests/retarget_robot.h).
 * One JSON line per frame; -o writes .jsonl (the same bytes as printed), .bvh (read back: every
 * frame, the target's bones) and .glb (read back: the bones, a clip); onto the robot, its 29 named joints within their
 * limits; a folder of clips with --jobs 3 gives the bytes of --jobs 1, and -o FOLDER a file per clip; --map names roles
 * that names alone cannot; errors name the role or bone that could not be mapped. "reached" is true
 * exactly when "residual" (the largest miss of head, hands and feet) is within 1 % of the target's
 * height: on the synthetic walk onto the robot and, when ../shared/data is there, the CMU walk. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reach/bvh.h"
#include "reach/gltf.h"
#include "reach/urdf.h"
#include "retarget_robot.h"

#define PI 3.14159265358979

/* A humanoid BVH: name, parent (index), offset per joint, in the T-pose facing +z. */
typedef struct bvh_joint {
    int parent;
    double x, y, z;
} bvh_joint;

enum {
    HIPS,
    SPINE,
    CHEST,
    NECK,
    HEAD,
    L_SHOULDER,
    L_ARM,
    L_FOREARM,
    L_HAND,
    R_SHOULDER,
    R_ARM,
    R_FOREARM,
    R_HAND,
    L_UPLEG,
    L_LEG,
    L_FOOT,
    L_TOE,
    R_UPLEG,
    R_LEG,
    R_FOOT,
    R_TOE,
    JOINTS
};

static const bvh_joint skeleton[JOINTS] = {{-1, 0, 0, 0},
                                           {HIPS, 0, 0.1, 0},
                                           {SPINE, 0, 0.2, 0},
                                           {CHEST, 0, 0.2, 0},
                                           {NECK, 0, 0.1, 0},
                                           {CHEST, 0.05, 0.15, 0},
                                           {L_SHOULDER, 0.12, 0, 0},
                                           {L_ARM, 0.28, 0, 0},
                                           {L_FOREARM, 0.25, 0, 0},
                                           {CHEST, -0.05, 0.15, 0},
                                           {R_SHOULDER, -0.12, 0, 0},
                                           {R_ARM, -0.28, 0, 0},
                                           {R_FOREARM, -0.25, 0, 0},
                                           {HIPS, 0.1, -0.05, 0},
                                           {L_UPLEG, 0, -0.42, 0},
                                           {L_LEG, 0, -0.42, 0},
                                           {L_FOOT, 0, -0.06, 0.12},
                                           {HIPS, -0.1, -0.05, 0},
                                           {R_UPLEG, 0, -0.42, 0},
                                           {R_LEG, 0, -0.42, 0},
                                           {R_FOOT, 0, -0.06, 0.12}};

static const char *const cmu_names[JOINTS] = {
    "Hips",        "Spine",    "Spine1",        "Neck",       "Head",         "LeftShoulder", "LeftArm",
    "LeftForeArm", "LeftHand", "RightShoulder", "RightArm",   "RightForeArm", "RightHand",    "LeftUpLeg",
    "LeftLeg",     "LeftFoot", "LeftToeBase",   "RightUpLeg", "RightLeg",     "RightFoot",    "RightToeBase"};

static const char *const mixamo_names[JOINTS] = {
    "mixamorig:Hips",        "mixamorig:Spine",         "mixamorig:Spine1",   "mixamorig:Neck",
    "mixamorig:Head",        "mixamorig:LeftShoulder",  "mixamorig:LeftArm",  "mixamorig:LeftForeArm",
    "mixamorig:LeftHand",    "mixamorig:RightShoulder", "mixamorig:RightArm", "mixamorig:RightForeArm",
    "mixamorig:RightHand",   "mixamorig:LeftUpLeg",     "mixamorig:LeftLeg",  "mixamorig:LeftFoot",
    "mixamorig:LeftToeBase", "mixamorig:RightUpLeg",    "mixamorig:RightLeg", "mixamorig:RightFoot",
    "mixamorig:RightToeBase"};

/* Names no finder knows: only a map says which is which. */
static const char *const odd_names[JOINTS] = {"j0",  "j1",  "j2",  "j3",  "j4",  "j5",  "j6",
                                              "j7",  "j8",  "j9",  "j10", "j11", "j12", "j13",
                                              "j14", "j15", "j16", "j17", "j18", "j19", "j20"};

static void write_joint(FILE *f, const char *const *names, double scale, double arms, int j, int depth) {
    const bvh_joint *b = &skeleton[j];
    double s = scale * (j >= L_ARM && j <= R_HAND && j != R_SHOULDER ? arms : 1);
    fprintf(f, "%*s%s %s\n%*s{\n%*sOFFSET %g %g %g\n%*sCHANNELS %s\n", depth, "", j == HIPS ? "ROOT" : "JOINT",
            names[j], depth, "", depth + 1, "", b->x * s, b->y * s, b->z * s, depth + 1, "",
            j == HIPS ? "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"
                      : "3 Zrotation Xrotation Yrotation");
    int children = 0;
    for (int c = j + 1; c < JOINTS; c++)
        if (skeleton[c].parent == j) {
            write_joint(f, names, scale, arms, c, depth + 1);
            children++;
        }
    if (!children)
        fprintf(f, "%*sEnd Site\n%*s{\n%*sOFFSET 0 %g 0\n%*s}\n", depth + 1, "", depth + 1, "", depth + 2, "",
                0.05 * scale, depth + 1, "");
    fprintf(f, "%*s}\n", depth, "");
}

/* A walk in place moving forward: legs and arms swinging, the arms hanging from the T-pose. The
 * phase shifts one clip from another. */
static void write_bvh(const char *path, const char *const *names, double scale, double arms, int frames, double phase) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fprintf(f, "HIERARCHY\n");
    write_joint(f, names, scale, arms, HIPS, 0);
    fprintf(f, "MOTION\nFrames: %d\nFrame Time: %g\n", frames, 1.0 / 60);
    for (int k = 0; k < frames; k++) {
        double t = k / 60.0 + phase, swing = sin(2 * PI * t);
        double rotation[JOINTS][3] = {{0}}; /* Z X Y, degrees */
        rotation[L_UPLEG][1] = -20 * swing;
        rotation[R_UPLEG][1] = 20 * swing;
        rotation[L_LEG][1] = 15 * (1 - cos(2 * PI * t));
        rotation[R_LEG][1] = 15 * (1 + cos(2 * PI * t));
        rotation[L_ARM][0] = -75;
        rotation[R_ARM][0] = 75;
        rotation[L_ARM][1] = 15 * swing;
        rotation[R_ARM][1] = -15 * swing;
        rotation[L_FOREARM][2] = -20;
        rotation[R_FOREARM][2] = 20;
        rotation[HIPS][2] = 5 * swing;
        fprintf(f, "%g %g %g", 0.0, scale * (0.95 - 0.01 * (1 - cos(4 * PI * t))), 0.5 * scale * (t - phase));
        for (int j = 0; j < JOINTS; j++)
            fprintf(f, " %g %g %g", rotation[j][0], rotation[j][1], rotation[j][2]);
        fputc('\n', f);
    }
    fclose(f);
}

static char folder[] = "/tmp/reach_cli_retarget_XXXXXX";
static char walk[600], hero[600], odd[600], robot[600], clips[600], outputs[600];

static void path_in(char *out, const char *name) { snprintf(out, 600, "%s/%s", folder, name); }

static int setup(void **state) {
    (void)state;
    if (!mkdtemp(folder)) return -1;
    path_in(walk, "walk.bvh");
    path_in(hero, "hero.bvh");
    path_in(odd, "odd.bvh");
    path_in(robot, "robot.urdf");
    path_in(clips, "clips");
    path_in(outputs, "outputs");
    write_bvh(walk, cmu_names, 1.0, 1.0, 90, 0);
    write_bvh(hero, mixamo_names, 1.2, 0.9, 1, 0);
    write_bvh(odd, odd_names, 0.9, 1.0, 1, 0);
    static char text[16384];
    size_t length = robot_urdf(text, sizeof text);
    FILE *f = fopen(robot, "wb");
    assert_non_null(f);
    fwrite(text, 1, length, f);
    fclose(f);
    mkdir(clips, 0700);
    mkdir(outputs, 0700);
    for (int c = 0; c < 4; c++) {
        char name[700];
        snprintf(name, sizeof name, "%s/walk_%d.bvh", clips, c);
        write_bvh(name, cmu_names, 1.0 + 0.1 * c, 1.0, 30 + 7 * c, 0.13 * c);
    }
    return 0;
}

static int count_lines(const char *text) {
    int n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    return n;
}

static void lines_per_frame(void **state) {
    (void)state;
    cli_run run = run_cli(NULL, "retarget", walk, hero, NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(run.err, "");
    assert_int_equal(count_lines(run.out), 90);
    assert_all_finite_text(run.out);
    assert_non_null(run.json);
    assert_string_equal(cJSON_GetObjectItem(run.json, "status")->valuestring, "ok");
    assert_int_equal((int)json_number(run.json, "frame"), 0);
    assert_true(cJSON_IsArray(json_at(run.json, "planted")));
    assert_int_equal(cJSON_GetArraySize(json_at(run.json, "bones")), JOINTS + 5);
    assert_string_equal(json_at(run.json, "bones[0].name")->valuestring, "mixamorig:Hips");
    /* The last line is frame 89, at 89/60 s. */
    const char *last = run.out + strlen(run.out) - 1;
    while (last > run.out && last[-1] != '\n')
        last--;
    cJSON *line = cJSON_Parse(last);
    assert_non_null(line);
    assert_int_equal((int)json_number(line, "frame"), 89);
    /* The file says 0.0166667 s a frame. */
    assert_true(fabs(json_number(line, "time") - 89 * 0.0166667) < 1e-9);
    cJSON_Delete(line);
    cli_run_free(&run);
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc((size_t)size + 1, 1);
    if (text && fread(text, 1, (size_t)size, f) != (size_t)size) text[0] = '\0';
    fclose(f);
    return text;
}

static void files_written(void **state) {
    (void)state;
    char jsonl[700], bvh[700];
    snprintf(jsonl, sizeof jsonl, "%s/out.jsonl", folder);
    snprintf(bvh, sizeof bvh, "%s/out.bvh", folder);
    cli_run printed = run_cli(NULL, "retarget", walk, hero, NULL);
    cli_run to_jsonl = run_cli(NULL, "retarget", walk, hero, "-o", jsonl, NULL);
    assert_int_equal(to_jsonl.status, 0);
    assert_string_equal(to_jsonl.out, "");
    char *text = read_all(jsonl);
    assert_non_null(text);
    assert_string_equal(text, printed.out);
    free(text);
    cli_run to_bvh = run_cli(NULL, "retarget", walk, hero, "-o", bvh, NULL);
    assert_int_equal(to_bvh.status, 0);
    reach_rig rig;
    reach_clip clip;
    char error[256];
    assert_int_equal(reach_bvh_read_file(bvh, &rig, &clip, error, sizeof error), REACH_OK);
    assert_int_equal(clip.frame_count, 90);
    assert_int_equal(rig.bone_count, JOINTS + 5);
    assert_string_equal(rig.bone_names[1], "mixamorig:Spine");
    reach_rig_free(&rig);
    reach_clip_free(&clip);
    char glb[700];
    snprintf(glb, sizeof glb, "%s/out.glb", folder);
    cli_run gltf = run_cli(NULL, "retarget", walk, hero, "-o", glb, NULL);
    assert_int_equal(gltf.status, 0);
    reach_gltf_character character;
    assert_int_equal(reach_gltf_read_file(glb, -1, 0, &character, error, sizeof error), REACH_OK);
    assert_int_equal(character.rig.bone_count, JOINTS + 5);
    assert_int_equal(character.clip_count, 1);
    assert_string_equal(character.rig.bone_names[0], "mixamorig:Hips");
    reach_gltf_free(&character);
    cli_run other = run_cli(NULL, "retarget", walk, hero, "-o", "out.fbx", NULL);
    assert_cli_error(&other, 1, "retarget: 'out.fbx': expected an output ending .bvh, .gltf, .glb or .jsonl");
    cli_run_free(&other);
    cli_run_free(&printed);
    cli_run_free(&to_jsonl);
    cli_run_free(&to_bvh);
    cli_run_free(&gltf);
}

static void onto_the_robot(void **state) {
    (void)state;
    cli_run run = run_cli(NULL, "retarget", walk, robot, NULL);
    assert_int_equal(run.status, 0);
    assert_int_equal(count_lines(run.out), 90);
    const cJSON *names = json_at(run.json, "joint_names");
    assert_int_equal(cJSON_GetArraySize(names), 29);
    assert_string_equal(cJSON_GetArrayItem(names, 0)->valuestring, "left_hip_yaw");
    /* Every frame's joints within the URDF's limits. */
    for (const char *line = run.out; *line;) {
        cJSON *frame = cJSON_Parse(line);
        assert_non_null(frame);
        const cJSON *joints = json_at(frame, "joints"), *joint_names = json_at(frame, "joint_names");
        for (int v = 0; v < cJSON_GetArraySize(joints); v++) {
            const char *name = cJSON_GetArrayItem(joint_names, v)->valuestring;
            double value = cJSON_GetArrayItem(joints, v)->valuedouble;
            for (int k = 0; k < ROBOT_JOINTS; k++) {
                const robot_joint *j = &robot_joints[k];
                double lower = j->lower, upper = j->upper;
                if (strcmp(name + (strncmp(name, "right_", 6) == 0 ? 6 : 0),
                           j->name + (strncmp(j->name, "left_", 5) == 0 && strncmp(name, "right_", 6) == 0 ? 5 : 0)) !=
                    0)
                    continue;
                if (strncmp(name, "right_", 6) == 0 && (j->axis == 'x' || j->axis == 'z')) {
                    lower = -j->upper;
                    upper = -j->lower;
                }
                if (value < lower - 1e-6 || value > upper + 1e-6)
                    fail_msg("%s = %g outside [%g, %g]", name, value, lower, upper);
            }
        }
        cJSON_Delete(frame);
        line = strchr(line, '\n');
        assert_non_null(line);
        line++;
    }
    cli_run_free(&run);
}

/* The robot's height as the retargeting measures it: hips to head plus hips to the left foot, at
 * rest. */
static double robot_height(void) {
    static char text[16384];
    size_t length = robot_urdf(text, sizeof text);
    reach_rig rig;
    char message[256];
    if (reach_urdf_read(text, length, &rig, message, sizeof message) != REACH_OK) fail_msg("%s", message);
    reach_humanoid roles = robot_roles(&rig);
    reach_transform world[64];
    assert_true(rig.bone_count <= 64);
    reach_forward_kinematics(&rig.skeleton, rig.skeleton.rest, world);
    reach_vec3 hips = world[roles.bones[REACH_ROLE_HIPS]].translation;
    double height = (double)(reach_vec3_distance(world[roles.bones[REACH_ROLE_HEAD]].translation, hips) +
                             reach_vec3_distance(world[roles.bones[REACH_ROLE_LEFT_FOOT]].translation, hips));
    reach_rig_free(&rig);
    return height;
}

/* Each line's "reached" against its "residual" and 1 % of the height; the frames reached. */
static int count_reached(const char *out, double height, int *lines) {
    int reached = 0;
    *lines = 0;
    for (const char *line = out; *line; (*lines)++) {
        cJSON *frame = cJSON_Parse(line);
        assert_non_null(frame);
        double residual = json_number(frame, "residual");
        assert_true(isfinite(residual) && residual >= 0);
        int says = cJSON_IsTrue(json_at(frame, "reached"));
        if (says != (residual <= 0.01 * height))
            fail_msg("frame %d: reached %d with a residual of %g (%.4f of the height)", *lines, says, residual,
                     residual / height);
        reached += says;
        cJSON_Delete(frame);
        line = strchr(line, '\n');
        assert_non_null(line);
        line++;
    }
    return reached;
}

static void reached_means_key_points_within_a_percent(void **state) {
    (void)state;
    double height = robot_height();
    cli_run run = run_cli(NULL, "retarget", walk, robot, NULL);
    assert_int_equal(run.status, 0);
    int lines = 0, reached = count_reached(run.out, height, &lines);
    assert_int_equal(lines, 90);
    assert_int_equal(reached, 90);
    cli_run_free(&run);

    char cmu[600];
    snprintf(cmu, sizeof cmu, "%s/bvh/cmu_12_01_walk.bvh", REACH_SHARED_DATA);
    FILE *f = fopen(cmu, "rb");
    if (!f) {
        print_message("skipped the CMU walk: %s is absent (the real clips live in ../shared/data)\n", cmu);
        skip();
    }
    fclose(f);
    run = run_cli(NULL, "retarget", cmu, robot, NULL);
    assert_int_equal(run.status, 0);
    reached = count_reached(run.out, height, &lines);
    print_message("    the CMU walk onto the robot: %d of %d frames reached\n", reached, lines);
    assert_int_equal(lines, 524);
    /* All but the clip's second frame, where a hand is left 1.6 % of the height short (the robot's
     * joints eased from the first frame's pose, as they are on every frame). */
    assert_true(reached >= lines - 1);
    cli_run_free(&run);
}

static void jobs_give_the_same_bytes(void **state) {
    (void)state;
    cli_run one = run_cli(NULL, "retarget", clips, hero, "--jobs", "1", NULL);
    cli_run three = run_cli(NULL, "retarget", clips, hero, "--jobs", "3", NULL);
    assert_int_equal(one.status, 0);
    assert_int_equal(three.status, 0);
    assert_int_equal(count_lines(one.out), 30 + 37 + 44 + 51);
    assert_string_equal(one.out, three.out);
    assert_string_equal(json_at(one.json, "clip")->valuestring, "walk_0");
    /* Into a folder, a file per clip, each what the clip alone prints. */
    cli_run written = run_cli(NULL, "retarget", clips, hero, "--jobs", "2", "-o", outputs, NULL);
    assert_int_equal(written.status, 0);
    char path[700], clip[700];
    snprintf(path, sizeof path, "%s/walk_2.jsonl", outputs);
    snprintf(clip, sizeof clip, "%s/walk_2.bvh", clips);
    char *text = read_all(path);
    assert_non_null(text);
    cli_run alone = run_cli(NULL, "retarget", clip, hero, NULL);
    assert_string_equal(text, alone.out);
    free(text);
    cli_run_free(&one);
    cli_run_free(&three);
    cli_run_free(&written);
    cli_run_free(&alone);
}

static void map_names_roles(void **state) {
    (void)state;
    cli_run unmapped = run_cli(NULL, "retarget", walk, odd, NULL);
    assert_cli_error(
        &unmapped, 1,
        "target: no bone found for the role 'hips' (give it with --map: {\"target\": {\"hips\": \"BONE\"}})");
    char map[700];
    snprintf(map, sizeof map, "%s/map.json", folder);
    FILE *f = fopen(map, "wb");
    assert_non_null(f);
    fputs("{\"target\": {", f);
    static const int roles[][2] = {{REACH_ROLE_HIPS, HIPS},
                                   {REACH_ROLE_SPINE, SPINE},
                                   {REACH_ROLE_CHEST, CHEST},
                                   {REACH_ROLE_NECK, NECK},
                                   {REACH_ROLE_HEAD, HEAD},
                                   {REACH_ROLE_LEFT_SHOULDER, L_SHOULDER},
                                   {REACH_ROLE_LEFT_UPPER_ARM, L_ARM},
                                   {REACH_ROLE_LEFT_LOWER_ARM, L_FOREARM},
                                   {REACH_ROLE_LEFT_HAND, L_HAND},
                                   {REACH_ROLE_RIGHT_SHOULDER, R_SHOULDER},
                                   {REACH_ROLE_RIGHT_UPPER_ARM, R_ARM},
                                   {REACH_ROLE_RIGHT_LOWER_ARM, R_FOREARM},
                                   {REACH_ROLE_RIGHT_HAND, R_HAND},
                                   {REACH_ROLE_LEFT_UPPER_LEG, L_UPLEG},
                                   {REACH_ROLE_LEFT_LOWER_LEG, L_LEG},
                                   {REACH_ROLE_LEFT_FOOT, L_FOOT},
                                   {REACH_ROLE_RIGHT_UPPER_LEG, R_UPLEG},
                                   {REACH_ROLE_RIGHT_LOWER_LEG, R_LEG},
                                   {REACH_ROLE_RIGHT_FOOT, R_FOOT}};
    int n = (int)(sizeof roles / sizeof roles[0]);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\"%s\": \"%s\"", i ? ", " : "", reach_humanoid_role_name((reach_humanoid_role)roles[i][0]),
                odd_names[roles[i][1]]);
    fputs("}}\n", f);
    fclose(f);
    cli_run mapped = run_cli(NULL, "retarget", walk, odd, "--map", map, NULL);
    assert_int_equal(mapped.status, 0);
    assert_int_equal(count_lines(mapped.out), 90);
    /* A map naming a bone the target lacks says which. */
    f = fopen(map, "wb");
    fputs("{\"left_hand\": \"Hand.L\"}", f);
    fclose(f);
    cli_run wrong = run_cli(NULL, "retarget", walk, hero, "--map", map, NULL);
    assert_cli_error(&wrong, 1, "map.target.left_hand: no bone named 'Hand.L'");
    f = fopen(map, "wb");
    fputs("{\"target\": {\"left_paw\": \"x\"}}", f);
    fclose(f);
    cli_run no_role = run_cli(NULL, "retarget", walk, hero, "--map", map, NULL);
    assert_cli_error(&no_role, 1, "map.target: 'left_paw' is no humanoid role (hips, spine, ..., left_hand, ...)");
    cli_run_free(&unmapped);
    cli_run_free(&mapped);
    cli_run_free(&wrong);
    cli_run_free(&no_role);
}

static void usage_errors(void **state) {
    (void)state;
    cli_run one = run_cli(NULL, "retarget", walk, NULL);
    assert_cli_error(&one, 2, "'retarget' needs SOURCE and TARGET (see 'reach --help')");
    cli_run jobs = run_cli(NULL, "retarget", walk, hero, "--jobs", "0", NULL);
    assert_cli_error(&jobs, 2, "--jobs: expected 1 to 64 (see 'reach --help')");
    cli_run missing = run_cli(NULL, "retarget", "nowhere.bvh", hero, NULL);
    assert_int_equal(missing.status, 1);
    assert_non_null(strstr(missing.out, "nowhere.bvh"));
    cli_run_free(&one);
    cli_run_free(&jobs);
    cli_run_free(&missing);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_per_frame),
        cmocka_unit_test(files_written),
        cmocka_unit_test(onto_the_robot),
        cmocka_unit_test(reached_means_key_points_within_a_percent),
        cmocka_unit_test(jobs_give_the_same_bytes),
        cmocka_unit_test(map_names_roles),
        cmocka_unit_test(usage_errors),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
