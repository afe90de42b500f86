/* The character solvers through the CLI: "full_body" (targets by role or bone, "humanoid" auto or
 * a map, elbow hints, a look-at on the head) and "aim" (a chain from chain_root to the bone), on
 * a typed humanoid (cli/examples/humanoid_rig.json), the same humanoid as a BVH file with Mixamo
 * names, and the CMU walk from ../shared/data; every answer checked by forward kinematics of the
 * printed local values, written independently of the library; errors by their messages. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BONES 22

/* The example rig, read from its file. */
static char rig_path[512];
static int parents[BONES];
static reach_vec3 offsets[BONES];
static char names[BONES][32];

static char folder[] = "/tmp/reach_cli_character_solvers_XXXXXX";
static char bvh_path[600];

static const char *const mixamo[BONES] = {
    "Hips",        "Spine",       "Spine1",        "Spine2",   "Neck",         "Head",        "LeftShoulder", "LeftArm",
    "LeftForeArm", "LeftHand",    "RightShoulder", "RightArm", "RightForeArm", "RightHand",   "LeftUpLeg",    "LeftLeg",
    "LeftFoot",    "LeftToeBase", "RightUpLeg",    "RightLeg", "RightFoot",    "RightToeBase"};

static void read_rig(void) {
    snprintf(rig_path, sizeof rig_path, "%s/humanoid_rig.json", examples_dir());
    FILE *file = fopen(rig_path, "rb");
    assert_non_null(file);
    static char text[16384];
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[n] = '\0';
    cJSON *json = cJSON_Parse(text);
    assert_non_null(json);
    const cJSON *bones = cJSON_GetObjectItem(json, "bones");
    assert_int_equal(cJSON_GetArraySize(bones), BONES);
    int i = 0;
    for (const cJSON *bone = bones->child; bone; bone = bone->next, i++) {
        snprintf(names[i], sizeof names[i], "%s", cJSON_GetObjectItem(bone, "name")->valuestring);
        const cJSON *parent = cJSON_GetObjectItem(bone, "parent");
        parents[i] = -1;
        for (int p = 0; p < i && cJSON_IsString(parent); p++)
            if (strcmp(names[p], parent->valuestring) == 0) parents[i] = p;
        const cJSON *position = cJSON_GetObjectItem(bone, "position");
        offsets[i] =
            reach_vec3_make(cJSON_GetArrayItem(position, 0)->valuedouble, cJSON_GetArrayItem(position, 1)->valuedouble,
                            cJSON_GetArrayItem(position, 2)->valuedouble);
    }
    cJSON_Delete(json);
}

/* The rig as BVH with Mixamo names: a hierarchy of OFFSETs and one frame at rest. */
static void write_bvh_joint(FILE *file, int bone, int depth) {
    const char *kind = parents[bone] < 0 ? "ROOT" : "JOINT";
    fprintf(file, "%*s%s mixamorig:%s\n%*s{\n%*sOFFSET %.17g %.17g %.17g\n%*sCHANNELS %s\n", depth, "", kind,
            mixamo[bone], depth, "", depth + 1, "", offsets[bone].x, offsets[bone].y, offsets[bone].z, depth + 1, "",
            parents[bone] < 0 ? "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"
                              : "3 Zrotation Xrotation Yrotation");
    int children = 0;
    for (int child = bone + 1; child < BONES; child++)
        if (parents[child] == bone) {
            write_bvh_joint(file, child, depth + 1);
            children++;
        }
    if (children == 0)
        fprintf(file, "%*sEnd Site\n%*s{\n%*sOFFSET 0 0.05 0\n%*s}\n", depth + 1, "", depth + 1, "", depth + 2, "",
                depth + 1, "");
    fprintf(file, "%*s}\n", depth, "");
}

static int setup(void **state) {
    (void)state;
    read_rig();
    if (!mkdtemp(folder)) return -1;
    snprintf(bvh_path, sizeof bvh_path, "%s/mixamo.bvh", folder);
    FILE *file = fopen(bvh_path, "wb");
    if (!file) return -1;
    fputs("HIERARCHY\n", file);
    write_bvh_joint(file, 0, 0);
    fprintf(file, "MOTION\nFrames: 1\nFrame Time: 0.033\n%.17g %.17g %.17g", offsets[0].x, offsets[0].y, offsets[0].z);
    for (int k = 0; k < 3 + 3 * (BONES - 1); k++)
        fputs(" 0", file);
    fputs("\n", file);
    fclose(file);
    return 0;
}

static int teardown(void **state) {
    (void)state;
    remove(bvh_path);
    return rmdir(folder);
}

static cli_run solve_with_rig(const char *request, const char *rig) {
    cli_run run = run_cli(request, "solve", "-", "--rig", rig, NULL);
    return run;
}

static cli_run solve_rig_ok(const char *request, const char *rig) {
    cli_run run = solve_with_rig(request, rig);
    if (run.status != 0) fail_msg("solve failed: %s", run.out);
    assert_non_null(run.json);
    assert_all_finite_text(run.out);
    assert_string_equal(run.err, "");
    return run;
}

static uint64_t rng_state;
static double uniform(double lo, double hi) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng_state >> 11) / 9007199254740992.0;
}

/* The rest pose's world positions. */
static void rest_world(reach_vec3 *world) {
    for (int b = 0; b < BONES; b++)
        world[b] = parents[b] < 0 ? offsets[b] : reach_vec3_add(world[parents[b]], offsets[b]);
}

static int bone_named(const char *name) {
    for (int b = 0; b < BONES; b++)
        if (strcmp(names[b], name) == 0) return b;
    fail_msg("no bone %s", name);
    return -1;
}

/* Every bone keeps its length: the printed local translations are the rest offsets, but for
 * the root's. */
static void assert_lengths_kept(const cJSON *result) {
    for (int b = 1; b < BONES; b++)
        assert_vec3_near(json_bone_local(result, b).translation, offsets[b], 1e-12);
}

static double angle_between(reach_vec3 a, reach_vec3 b) {
    return atan2(reach_vec3_length(reach_vec3_cross(a, b)), reach_vec3_dot(a, b));
}

/* The feet planted where they stand, the right hand sent to random points in front of the
 * chest, the head looking at it, the right elbow hinted outward: every set reached in the
 * printed pose (forward kinematics of the printed locals), feet unmoved, lengths kept. */
static void test_full_body_by_role(void **state) {
    (void)state;
    reach_vec3 rest[BONES];
    rest_world(rest);
    int hand = bone_named("right_hand"), left_foot = bone_named("left_foot"), right_foot = bone_named("right_foot");
    int head = bone_named("head");
    rng_state = 26;
    int sets = 60, reached = 0, looked = 0;
    for (int n = 0; n < sets; n++) {
        reach_vec3 target = reach_vec3_make(uniform(-0.55, 0.2), uniform(0.8, 1.5), uniform(0.15, 0.5));
        char request[1024];
        snprintf(request, sizeof request,
                 "{'solver':{'type':'full_body','humanoid':'auto'},'targets':["
                 "{'role':'left_foot','position':[%.17g,%.17g,%.17g],'orientation':[0,0,0,1]},"
                 "{'role':'right_foot','position':[%.17g,%.17g,%.17g],'orientation':[0,0,0,1]},"
                 "{'role':'right_hand','position':[%.17g,%.17g,%.17g],'pole':[-1,1,-0.5]},"
                 "{'role':'head','look_at':[%.17g,%.17g,%.17g],'forward':[0,0,1],'up':[0,1,0]}]}",
                 rest[left_foot].x, rest[left_foot].y, rest[left_foot].z, rest[right_foot].x, rest[right_foot].y,
                 rest[right_foot].z, target.x, target.y, target.z, target.x, target.y, target.z);
        cli_run run = solve_rig_ok(request, rig_path);
        reach_vec3 world[BONES];
        reach_quat rotation[BONES];
        fk_from_printed(run.json, parents, BONES, world, rotation);
        assert_self_consistent(run.json, parents, BONES);
        assert_lengths_kept(run.json);
        double tolerance = 1e-4 * 1.75; /* 1e-4 of the height */
        assert_vec3_near(world[left_foot], rest[left_foot], tolerance);
        assert_vec3_near(world[right_foot], rest[right_foot], tolerance);
        double hand_miss = reach_vec3_distance(world[hand], target);
        double look = angle_between(reach_quat_rotate(rotation[head], reach_vec3_make(0, 0, 1)),
                                    reach_vec3_sub(target, world[head]));
        int run_reached = cJSON_IsTrue(cJSON_GetObjectItem(run.json, "reached"));
        /* "reached" says what forward kinematics finds: the hand within the tolerance and the
         * head's look within 1e-3 rad (the default angle tolerance); angle_residual is the look's
         * angle when the look is what misses. */
        assert_int_equal(run_reached, hand_miss <= tolerance && look <= 1e-3 + 1e-9);
        assert_true(json_number(run.json, "angle_residual") >= look - 1e-9);
        reached += hand_miss <= tolerance;
        looked += look <= 1e-3;
        cli_run_free(&run);
    }
    /* The hand reaches every point; the neck and head turn only as far as their cones (0.6 rad
     * each): 52 of the 60 looks are exact, the rest point low and close, at the chest. */
    assert_int_equal(reached, sets);
    assert_true(looked >= sets * 4 / 5);
}

/* A map naming the roles of bones with no telling names gives the same answer as "auto" on the
 * plain names; a bone target and a role target on the same bone are the same target. */
static void test_full_body_map_matches_auto(void **state) {
    (void)state;
    /* The rig renamed b0 … b21 in a request of its own. */
    char rig[8192] = "{'bones':[";
    char map[4096] = "{";
    for (int b = 0; b < BONES; b++) {
        char bone[256];
        char parent[16];
        snprintf(parent, sizeof parent, parents[b] < 0 ? "null" : "'b%d'", parents[b]);
        snprintf(bone, sizeof bone, "%s{'name':'b%d','parent':%s,'position':[%.17g,%.17g,%.17g]}", b ? "," : "", b,
                 parent, offsets[b].x, offsets[b].y, offsets[b].z);
        strcat(rig, bone);
        snprintf(bone, sizeof bone, "%s'%s':'b%d'", b ? "," : "", names[b], b);
        strcat(map, bone);
    }
    strcat(rig, "]}");
    strcat(map, "}");
    static const char targets[] =
        "'targets':[{'%s':'%s','position':[-0.3,1.1,0.4]},{'role':'left_foot','position':[0.1,0.04,0]},"
        "{'role':'right_foot','position':[-0.1,0.04,0]}]}";
    char request[16384], part[512];
    snprintf(request, sizeof request, "{'rig':%s,'solver':{'type':'full_body','humanoid':%s},", rig, map);
    snprintf(part, sizeof part, targets, "bone", "b13");
    strcat(request, part);
    cli_run mapped = solve_ok(request);
    snprintf(request, sizeof request, "{'solver':{'type':'full_body'},");
    snprintf(part, sizeof part, targets, "role", "right_hand");
    strcat(request, part);
    cli_run found = solve_rig_ok(request, rig_path);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(found.json, "reached")));
    for (int b = 0; b < BONES; b++) {
        char path[64];
        snprintf(path, sizeof path, "bones[%d].world_position", b);
        assert_vec3_near(json_vec3(mapped.json, path), json_vec3(found.json, path), 1e-12);
    }
    cli_run_free(&mapped);
    cli_run_free(&found);
}

/* The same humanoid read from BVH with Mixamo names ("mixamorig:RightHand"): the roles found,
 * a hand rotation alone as a target, the hips held. */
static void test_full_body_on_a_bvh_character(void **state) {
    (void)state;
    reach_quat turn = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), 0.6);
    char request[1024];
    snprintf(request, sizeof request,
             "{'solver':{'type':'full_body'},'targets':[{'role':'hips','position':[0,0.93,0],'orientation':[0,0,0,1]},"
             "{'role':'left_hand','orientation':[%.17g,%.17g,%.17g,%.17g]},"
             "{'bone':'mixamorig:RightHand','position':[-0.45,1.0,0.3]}]}",
             turn.x, turn.y, turn.z, turn.w);
    cli_run run = solve_rig_ok(request, bvh_path);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(run.json, "reached")));
    /* Bones in file order: the BVH lists them depth first as the rig does, then End Sites. */
    const cJSON *bones = cJSON_GetObjectItem(run.json, "bones");
    for (const cJSON *bone = bones->child; bone; bone = bone->next) {
        const char *name = cJSON_GetObjectItem(bone, "name")->valuestring;
        const cJSON *position = cJSON_GetObjectItem(bone, "world_position");
        const cJSON *rotation = cJSON_GetObjectItem(bone, "world_rotation");
        if (strcmp(name, "mixamorig:RightHand") == 0)
            assert_vec3_near(reach_vec3_make(cJSON_GetArrayItem(position, 0)->valuedouble,
                                             cJSON_GetArrayItem(position, 1)->valuedouble,
                                             cJSON_GetArrayItem(position, 2)->valuedouble),
                             reach_vec3_make(-0.45, 1.0, 0.3), 1e-4 * 1.75);
        if (strcmp(name, "mixamorig:LeftHand") == 0) {
            reach_quat q = reach_quat_make(
                cJSON_GetArrayItem(rotation, 0)->valuedouble, cJSON_GetArrayItem(rotation, 1)->valuedouble,
                cJSON_GetArrayItem(rotation, 2)->valuedouble, cJSON_GetArrayItem(rotation, 3)->valuedouble);
            assert_true(reach_quat_angle_between(q, turn) <= 1e-3);
        }
        if (strcmp(name, "mixamorig:Hips") == 0)
            assert_vec3_near(reach_vec3_make(cJSON_GetArrayItem(position, 0)->valuedouble,
                                             cJSON_GetArrayItem(position, 1)->valuedouble,
                                             cJSON_GetArrayItem(position, 2)->valuedouble),
                             reach_vec3_make(0, 0.93, 0), 1e-4 * 1.75);
    }
    cli_run_free(&run);
}

/* The CMU walk (38 bones, CMU names, hip joints and a second neck bone) posed as its frame 100:
 * the feet kept where that frame has them, a hand sent forward, the head looking. */
static void test_full_body_on_the_cmu_walk(void **state) {
    (void)state;
    static const char path[] = "../shared/data/bvh/cmu_12_01_walk.bvh";
    char full[1024];
    snprintf(full, sizeof full, "%s/../../%s", examples_dir(), path);
    if (access(full, R_OK) != 0) {
        print_message("skipped: %s is absent (the real clips live in ../shared/data)\n", path);
        skip();
    }
    char request[2048];
    snprintf(request, sizeof request, "{'rig':{'bvh':'%s'},'frame':100}", full);
    cli_run posed = run_cli(request, "fk", "-", NULL);
    assert_int_equal(posed.status, 0);
    reach_vec3 left = reach_vec3_zero(), right = reach_vec3_zero(), hand = reach_vec3_zero();
    const cJSON *bones = cJSON_GetObjectItem(posed.json, "bones");
    int index = 0;
    for (const cJSON *bone = bones->child; bone; bone = bone->next, index++) {
        const char *name = cJSON_GetObjectItem(bone, "name")->valuestring;
        char at[64];
        snprintf(at, sizeof at, "bones[%d].world_position", index);
        if (strcmp(name, "LeftFoot") == 0) left = json_vec3(posed.json, at);
        if (strcmp(name, "RightFoot") == 0) right = json_vec3(posed.json, at);
        if (strcmp(name, "RightHand") == 0) hand = json_vec3(posed.json, at);
    }
    cli_run_free(&posed);
    reach_vec3 reach_to = reach_vec3_add(hand, reach_vec3_make(0, 4, 3));
    snprintf(
        request, sizeof request,
        "{'solver':{'type':'full_body'},'frame':100,'targets':[{'role':'left_foot','position':[%.17g,%.17g,%.17g]},"
        "{'role':'right_foot','position':[%.17g,%.17g,%.17g]},{'role':'right_hand','position':[%.17g,%.17g,%.17g]},"
        "{'role':'head','look_at':[%.17g,%.17g,%.17g]}]}",
        left.x, left.y, left.z, right.x, right.y, right.z, reach_to.x, reach_to.y, reach_to.z, reach_to.x,
        reach_to.y + 5, reach_to.z + 30);
    cli_run run = solve_rig_ok(request, full);
    assert_true(json_number(run.json, "residual") <= 1e-4 * 30);
    cli_run_free(&run);
}

/* A spine, neck and head of typed cone joints looking at random points: within the cones' reach
 * each is reached, and the printed angle_residual is the angle forward kinematics finds
 * between the head's forward axis and the way to the point. */
static const char aim_rig[] = "'rig':{'bones':[{'name':'root','parent':null,'position':[0,1,0]},"
                              "{'name':'spine','parent':'root','position':[0,0.1,0],'joint':{'type':'cone','axis':"
                              "[0,1,0],'angle':0.4,'twist':[-0.3,0.3]}},"
                              "{'name':'neck','parent':'spine','position':[0,0.4,0],'joint':{'type':'cone','axis':"
                              "[0,1,0],'angle':0.4,'twist':[-0.3,0.3]}},"
                              "{'name':'head','parent':'neck','position':[0,0.15,0],'joint':{'type':'cone','axis':"
                              "[0,1,0],'angle':0.5,'twist':[-0.5,0.5]}}]}";
static const int aim_parents[4] = {-1, 0, 1, 2};

static void test_aim_chain(void **state) {
    (void)state;
    rng_state = 7;
    int reached = 0, inside = 0;
    for (int n = 0; n < 200; n++) {
        /* Inside: a direction within 1.0 rad of the head's forward (+z), the cones sum to 1.3.
         * Beyond: each joint turns at most its cone plus its twist (2.4 rad in all), and at 2 or
         * more the head's own move (under 0.45) shifts the way to the point by under 0.23 rad. */
        int far = n % 4 == 3;
        double polar = far ? uniform(2.7, 3.1) : uniform(0, 1.0), around = uniform(-M_PI, M_PI);
        double distance = far ? uniform(2, 3) : uniform(0.6, 3);
        reach_vec3 way = reach_vec3_make(sin(polar) * cos(around), sin(polar) * sin(around), cos(polar));
        reach_vec3 point = reach_vec3_add(reach_vec3_make(0, 1.65, 0), reach_vec3_scale(way, distance));
        char request[2048];
        snprintf(request, sizeof request,
                 "{%s,'solver':{'type':'aim','shares':[1,1,2]},'chain_root':'spine','targets':[{'bone':'head',"
                 "'look_at':[%.17g,%.17g,%.17g],'forward':[0,0,1],'up':[0,1,0]}]}",
                 aim_rig, point.x, point.y, point.z);
        cli_run run = solve_ok(request);
        assert_self_consistent(run.json, aim_parents, 4);
        reach_vec3 world[4];
        reach_quat rotation[4];
        fk_from_printed(run.json, aim_parents, 4, world, rotation);
        double angle =
            angle_between(reach_quat_rotate(rotation[3], reach_vec3_make(0, 0, 1)), reach_vec3_sub(point, world[3]));
        assert_true(fabs(json_number(run.json, "angle_residual") - angle) <= 1e-9);
        int run_reached = cJSON_IsTrue(cJSON_GetObjectItem(run.json, "reached"));
        assert_int_equal(run_reached, angle <= 1e-4);
        assert_true(cJSON_IsBool(cJSON_GetObjectItem(run.json, "limited")));
        if (!far) {
            inside++;
            reached += run_reached;
        } else {
            assert_false(run_reached);
        }
        /* The root never moves; no bone outside the chain turns. */
        assert_true(reach_quat_angle_between(rotation[0], reach_quat_identity()) == 0);
        cli_run_free(&run);
    }
    assert_int_equal(reached, inside);
}

/* One bone of a file's character, the default chain: the head of the BVH humanoid turns alone. */
static void test_aim_one_bone_of_a_file(void **state) {
    (void)state;
    cli_run run = solve_rig_ok(
        "{'solver':{'type':'aim'},'targets':[{'role':'head','look_at':[1,2,1],'offset':[0,0.05,0.08]}]}", bvh_path);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(run.json, "reached")));
    assert_true(json_number(run.json, "angle_residual") <= 1e-4);
    /* The neck kept its rest rotation. */
    assert_true(reach_quat_angle_between(json_quat(run.json, "bones[4].rotation"), reach_quat_identity()) == 0);
    cli_run_free(&run);
}

typedef struct bad_request {
    const char *request;
    const char *message;
} bad_request;

static void test_errors_name_the_role_or_bone(void **state) {
    (void)state;
    static const bad_request cases[] = {
        {"{'solver':{'type':'full_body'},'targets':[{'role':'left_hnd','position':[0,1,0]}]}",
         "targets[0].role: no role named 'left_hnd' (roles: hips, spine, chest, upper_chest, neck, head, "
         "left_shoulder, "
         "left_upper_arm, left_lower_arm, left_hand, right_shoulder, right_upper_arm, right_lower_arm, right_hand, "
         "left_upper_leg, left_lower_leg, left_foot, left_toes, right_upper_leg, right_lower_leg, right_foot, "
         "right_toes)"},
        {"{'solver':{'type':'full_body'},'targets':[{'role':'spine','position':[0,1,0]}]}",
         "targets[0].role: full_body takes targets on the hips, head, hands and feet; 'spine' is none of them"},
        {"{'solver':{'type':'full_body'},'targets':[{'bone':'left_hand','look_at':[0,1,1]}]}",
         "targets[0].look_at: full_body looks with the head, not 'left_hand' (aim turns any bone)"},
        {"{'solver':{'type':'full_body'},'targets':[{'bone':'left_hand','role':'left_hand','position':[0,1,0]}]}",
         "targets[0]: \"bone\" and \"role\" exclude each other (give one)"},
        {"{'solver':{'type':'full_body'},'targets':[{'role':'head','position':[0,1,0]},{'bone':'head','orientation':"
         "[0,0,0,1]}]}",
         "targets[1]: a second target on the head (targets[0] is one)"},
        {"{'solver':{'type':'full_body'},'targets':[{'role':'head','position':[0,1,0],'pole':[0,0,1]}]}",
         "targets[0].pole: only hands and feet take a pole (their elbow or knee turns toward it)"},
        {"{'solver':{'type':'full_body','humanoid':{'left_hand':'Hand.L'}},'targets':[{'role':'head','position':[0,1,"
         "0]}]}",
         "solver.humanoid.left_hand: no bone named 'Hand.L'"},
        {"{'solver':{'type':'full_body','humanoid':{'left_paw':'left_hand'}},'targets':[{'role':'head','position':[0,"
         "1,0]}]}",
         "solver.humanoid.left_paw: no role named 'left_paw' (roles: hips, spine, chest, upper_chest, neck, head, "
         "left_shoulder, left_upper_arm, left_lower_arm, left_hand, right_shoulder, right_upper_arm, right_lower_arm, "
         "right_hand, left_upper_leg, left_lower_leg, left_foot, left_toes, right_upper_leg, right_lower_leg, "
         "right_foot, right_toes)"},
        {"{'solver':{'type':'full_body','humanoid':{'head':'head'}},'targets':[{'role':'head','position':[0,1,0]}]}",
         "solver.humanoid: the map gives no bone for the role 'hips' (required)"},
        {"{'solver':{'type':'full_body','humanoid':'guess'},'targets':[{'role':'head','position':[0,1,0]}]}",
         "solver.humanoid: expected \"auto\" or a map of roles to bone names, got another string"},
        {"{'solver':{'type':'jacobian'},'targets':[{'bone':'head','look_at':[0,1,1]}]}",
         "targets[0].look_at: jacobian reaches for positions; the aim and full_body solvers turn a bone to look at a "
         "point"},
        {"{'solver':{'type':'jacobian'},'targets':[{'bone':'head','position':[0,1,1],'forward':[0,0,1]}]}",
         "targets[0].forward: only an aim target (with \"look_at\") has one"},
        {"{'solver':{'type':'aim'},'targets':[{'bone':'head','position':[0,1,1]}]}",
         "targets[0]: aim turns a bone to look at a point: give \"look_at\""},
        {"{'solver':{'type':'aim'},'chain_root':'left_hand','targets':[{'bone':'head','look_at':[0,1,1]}]}",
         "chain_root: 'left_hand' is not above 'head' (aim turns the bones from chain_root down to the target's)"},
        {"{'solver':{'type':'aim','shares':[1,2,3]},'chain_root':'neck','targets':[{'bone':'head','look_at':[0,1,1]}]}",
         "solver.shares: expected 2 numbers (one per bone from 'neck' to 'head'), got an array of another length"},
        {"{'solver':{'type':'aim'},'targets':[{'bone':'head','look_at':[0,1,1],'up':[0,0,2]}]}",
         "targets[0].up: must not be zero or along forward"},
        {"{'solver':{'type':'aim','tolerance':0.1},'targets':[{'bone':'head','look_at':[0,1,1]}]}",
         "solver.tolerance: aim's error is an angle; give angle_tolerance"},
        {"{'solver':{'type':'aim'},'targets':[{'bone':'head','look_at':[0,1,1],'position':[0,1,1]}]}",
         "targets[0]: \"look_at\" and \"position\" exclude each other (an aim turns its bone where it stands)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cli_run run = solve_with_rig(cases[k].request, rig_path);
        assert_cli_error(&run, 1, cases[k].message);
        cli_run_free(&run);
    }
    /* A rig whose names tell no roles, and a role target on it. */
    cli_run run = run_cli("{'rig':{'bones':[{'name':'a','parent':null},{'name':'b','parent':'a','position':[0,1,0]}]},"
                          "'solver':{'type':'jacobian'},'targets':[{'role':'left_hand','position':[0,1,0]}]}",
                          "solve", "-", NULL);
    assert_cli_error(&run, 1,
                     "targets[0].role: no bone for the role 'hips' found from the bone names; name the roles with a "
                     "map such as {\"hips\": \"<bone>\", ...}");
    cli_run_free(&run);
}

/* The roles serve the other solvers too: two_bone on the right arm by role. */
static void test_role_with_another_solver(void **state) {
    (void)state;
    cli_run run = solve_rig_ok("{'solver':{'type':'two_bone'},'targets':[{'role':'right_hand','position':[-0.5,1.2,"
                               "0.3]}]}",
                               rig_path);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(run.json, "reached")));
    assert_vec3_near(json_vec3(run.json, "bones[13].world_position"), reach_vec3_make(-0.5, 1.2, 0.3), 1e-9);
    cli_run_free(&run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_body_by_role),
        cmocka_unit_test(test_full_body_map_matches_auto),
        cmocka_unit_test(test_full_body_on_a_bvh_character),
        cmocka_unit_test(test_full_body_on_the_cmu_walk),
        cmocka_unit_test(test_aim_chain),
        cmocka_unit_test(test_aim_one_bone_of_a_file),
        cmocka_unit_test(test_errors_name_the_role_or_bone),
        cmocka_unit_test(test_role_with_another_solver),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
