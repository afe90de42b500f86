/* Reading FBX: characters the test writes as glTF (gltf_generate.h: an armature node with a
 * rotation and a uniform scale of 0.01 or more, joints with scales of their own, a node outside
 * the skin, an animation turning half the joints and moving the hips),
 * turned into FBX by assimp (aiExportScene, "fbxa"), read by reach: every joint's world position
 * at rest and at every sampled frame against the same character read from the glTF by reach's
 * own reader, to 1e-6 of the height. A skinned mesh's bones and their ancestors make the rig, a
 * declared unit is reported and not applied, and every FBX file assimp wrote reads again.
 *
 * assimp 5.2's FBX exporter has two faults the test works around, both in the writing, not the
 * reading: its ASCII output keeps six significant digits, so the generated values are ones six
 * digits hold (translations to a tenth, rotations of whole degrees, scales such as 0.01 and 1.25,
 * keys on frames of 30 per second); it writes a key at tick k as k seconds, so the scene's key
 * times are put in seconds (one tick per second) before it is exported; and it drops a channel
 * that moves only a node's scale, so the armature's scale is keyed still. Its binary output
 * does not read back in assimp 5.2 at all (test_fbx_hostile refuses it cleanly). */
#include <unistd.h>

#include "fbx_generate.h"
#include "gltf_generate.h"
#include "reach/fbx.h"
#include "reach/gltf.h"

#ifdef REACH_DOUBLE
#define HEIGHT_TOL 1e-6
#else
#define HEIGHT_TOL 3e-6 /* float's 24 bits over a chain of scaled nodes (the worst seen: 2e-6) */
#endif

static char folder[] = "/tmp/reach_fbx_XXXXXX";

static int setup(void **state) {
    (void)state;
    return mkdtemp(folder) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return rmdir(folder);
}

static void path_in_folder(char *path, size_t size, const char *name) { snprintf(path, size, "%s/%s", folder, name); }

/* ---- characters six significant digits hold ---------------------------------------------- */

static double tenths(double x) { return round(x * 10) / 10; }

/* A rotation of whole degrees about z, then y, then x (qz · qy · qx) as x, y, z, w. */
static void whole_degrees(const int *degrees, double *q) {
    double h[3];
    for (int a = 0; a < 3; ++a)
        h[a] = degrees[a] * M_PI / 360;
    double cz = cos(h[0]), sz = sin(h[0]), cy = cos(h[1]), sy = sin(h[1]), cx = cos(h[2]), sx = sin(h[2]);
    q[3] = cz * cy * cx + sz * sy * sx;
    q[0] = cz * cy * sx - sz * sy * cx;
    q[1] = cz * sy * cx + sz * cy * sx;
    q[2] = sz * cy * cx - cz * sy * sx;
}

static int whole(test_rng *rng, int limit) { return (int)(test_rng_next(rng) % (unsigned)(2 * limit + 1)) - limit; }

/* Random angles about z, y and x, y within ±60° (away from gimbal lock), the others ±150°. */
static void random_degrees(test_rng *rng, int *degrees) {
    degrees[0] = whole(rng, 150), degrees[1] = whole(rng, 60), degrees[2] = whole(rng, 150);
}

static double round_scale(test_rng *rng) {
    static const double scales[] = {0.8, 1.25, 1.5, 0.5};
    return scales[test_rng_next(rng) % 4];
}

/* gg_make's character, its values rounded to what six digits hold, every channel keyed on the
 * same frames (0 to 5 at 30 per second) so that sampling lands on keys. */
static void make_character(gg_file *g, test_rng *rng) {
    gg_make(g, rng);
    for (int i = 0; i < GG_NODES; ++i) {
        gg_node *n = &g->nodes[i];
        snprintf(n->name, sizeof n->name, "%s", i == 0 ? "Armature" : i == GG_NODES - 1 ? "Body" : n->name);
        if (!n->name[0]) snprintf(n->name, sizeof n->name, "joint_%d", i);
        for (int a = 0; a < 3; ++a)
            n->t[a] = tenths(n->t[a]);
        int degrees[3];
        random_degrees(rng, degrees);
        if (i < GG_NODES - 1) whole_degrees(degrees, n->r);
        if (n->s != 1) n->s = i == 0 && n->s == 0.01 ? 0.01 : round_scale(rng);
    }
    for (int c = 0; c < g->channel_count; ++c) {
        gg_channel *ch = &g->channels[c];
        /* Rotations turn up to 20° about each axis from key to key, as motion does. */
        int degrees[3];
        random_degrees(rng, degrees);
        /* FBX curves have no STEP; and a key at 1/30 s in a float buffer lies a hair after the
         * frame, where STEP would still hold the key before. */
        ch->step = 0;
        for (int k = 0; k < GG_KEYS; ++k) {
            ch->times[k] = k / 30.0;
            for (int a = 0; a < 3; ++a)
                degrees[a] += whole(rng, 20);
            if (ch->path == 1) whole_degrees(degrees, ch->values[k]);
            for (int a = 0; a < 3 && ch->path == 0; ++a)
                ch->values[k][a] = tenths(ch->values[k][a]);
            if (ch->path == 2) ch->values[k][0] = ch->values[k][1] = ch->values[k][2] = g->nodes[0].s;
        }
    }
    g->height = 180 * g->nodes[0].s;
}

static void world_positions(const reach_rig *rig, const reach_transform *local, reach_transform *world) {
    reach_forward_kinematics(&rig->skeleton, local, world);
}

/* Every bone of the glTF's rig is a bone of the FBX's of the same name, at the same place, at
 * rest and in every frame. */
static void compare(const reach_gltf_character *gltf, const reach_fbx_character *fbx, double height) {
    const reach_rig *a = &gltf->rig, *b = &fbx->rig;
    assert_int_equal(fbx->clip_count, 1);
    assert_int_equal(fbx->clips[0].frame_count, gltf->clips[0].frame_count);
    assert_non_null(strstr(fbx->clip_names[0], "walk"));
    reach_transform world_a[GG_NODES], world_b[GG_NODES + 2];
    assert_true(b->bone_count <= GG_NODES + 2);
    for (int f = -1; f < gltf->clips[0].frame_count; ++f) {
        world_positions(a, f < 0 ? a->rest : reach_clip_frame(&gltf->clips[0], f), world_a);
        world_positions(b, f < 0 ? b->rest : reach_clip_frame(&fbx->clips[0], f), world_b);
        for (int bone = 0; bone < a->bone_count; ++bone) {
            int other = reach_rig_find_bone(b, a->bone_names[bone]);
            if (other < 0) fail_msg("the FBX has no bone '%s'", a->bone_names[bone]);
            char what[128];
            snprintf(what, sizeof what, "%s at frame %d", a->bone_names[bone], f);
            ASSERT_VEC3_NEAR(world_b[other].translation, world_a[bone].translation, HEIGHT_TOL * height, what);
        }
    }
}

/* The character as GLB at gltf_path and, through assimp, as FBX at fbx_path. */
static void write_character(const gg_file *g, const char *gltf_path, const char *fbx_path) {
    gg_bytes file = gg_write(g, GG_GLB, NULL, NULL);
    write_bytes(gltf_path, file.data, file.length);
    free(file.data);
    assimp_to_fbx(gltf_path, fbx_path);
}

static void test_characters_through_fbx(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2560);
    char gltf_path[512], fbx_path[512];
    path_in_folder(gltf_path, sizeof gltf_path, "walk.glb");
    path_in_folder(fbx_path, sizeof fbx_path, "walk.fbx");
    for (int i = 0; i < test_scaled(40); ++i) {
        gg_file g;
        make_character(&g, &rng);
        write_character(&g, gltf_path, fbx_path);
        char error[512];
        reach_gltf_character gltf;
        reach_fbx_character fbx;
        if (reach_gltf_read_file(gltf_path, -1, 30, &gltf, error, sizeof error) != REACH_OK) fail_msg("%s", error);
        if (reach_fbx_read_file(fbx_path, 30, &fbx, error, sizeof error) != REACH_OK) fail_msg("%s", error);
        /* No mesh is skinned: every node is a bone, the armature's scale folded. */
        assert_true(reach_rig_find_bone(&fbx.rig, "Body") >= 0);
        assert_int_equal(fbx.scale_folded, 1);
        ASSERT_NEAR(fbx.unit_scale_factor, 1, 0, "assimp writes centimetres");
        compare(&gltf, &fbx, g.height);
        reach_gltf_free(&gltf);
        reach_fbx_free(&fbx);
        remove(gltf_path);
        remove(fbx_path);
    }
}

/* Read at another rate: every other frame at 60 per second is a frame at 30 (a key), and poses
 * as it does. Between keys reach slerps assimp's quaternion keys, where an FBX player would
 * interpolate the Euler angles, so only the keys are compared. */
static void test_sample_rate(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2561);
    char gltf_path[512], fbx_path[512], error[512];
    path_in_folder(gltf_path, sizeof gltf_path, "rate.glb");
    path_in_folder(fbx_path, sizeof fbx_path, "rate.fbx");
    gg_file g;
    make_character(&g, &rng);
    write_character(&g, gltf_path, fbx_path);
    reach_fbx_character fbx, fbx30;
    if (reach_fbx_read_file(fbx_path, 60, &fbx, error, sizeof error) != REACH_OK) fail_msg("%s", error);
    if (reach_fbx_read_file(fbx_path, 0, &fbx30, error, sizeof error) != REACH_OK) fail_msg("%s", error);
    ASSERT_NEAR(fbx30.clips[0].frame_rate, 30, 0, "30 per second by default");
    assert_int_equal(fbx.clips[0].frame_count, 2 * fbx30.clips[0].frame_count - 1);
    reach_transform a[GG_NODES + 2], b[GG_NODES + 2];
    for (int f = 0; f < fbx30.clips[0].frame_count; ++f) {
        world_positions(&fbx.rig, reach_clip_frame(&fbx.clips[0], 2 * f), a);
        world_positions(&fbx30.rig, reach_clip_frame(&fbx30.clips[0], f), b);
        for (int bone = 0; bone < fbx.rig.bone_count; ++bone)
            ASSERT_VEC3_NEAR(a[bone].translation, b[bone].translation, HEIGHT_TOL * g.height, fbx.rig.bone_names[bone]);
    }
    reach_fbx_free(&fbx);
    reach_fbx_free(&fbx30);
    remove(gltf_path);
    remove(fbx_path);
}

static void test_skinned_bones_and_their_ancestors(void **state) {
    (void)state;
    size_t length;
    char *text = skinned_arm_fbx(folder, &length), error[512];
    assert_non_null(text);
    reach_fbx_character fbx;
    if (reach_fbx_read((const unsigned char *)text, length, 0, &fbx, error, sizeof error) != REACH_OK)
        fail_msg("%s", error);
    free(text);
    const char *bones[] = {"Armature", "shoulder", "elbow", "hand"};
    assert_int_equal(fbx.rig.bone_count, 4);
    for (int b = 0; b < 4; ++b)
        assert_string_equal(fbx.rig.bone_names[b], bones[b]);
    assert_int_equal(reach_rig_find_bone(&fbx.rig, "Prop"), -1);
    assert_int_equal(fbx.clip_count, 0);
    reach_transform world[4];
    world_positions(&fbx.rig, fbx.rig.rest, world);
    /* 0.01 × ((0, 150, 0) + (30, 0, 0) + 25 turned 60° about z). */
    ASSERT_VEC3_NEAR(world[3].translation,
                     reach_vec3_make(REACH_R(0.425), REACH_R(1.5) + REACH_R(0.25) * REACH_R(0.8660254), 0), 1e-6,
                     "the hand");
    /* The hand's offset matrix takes its rest place to the origin. */
    const reach_real *m = fbx.inverse_bind + 3 * 16;
    reach_vec3 p = world[3].translation;
    for (int r = 0; r < 3; ++r) {
        double x = (double)m[r] * (double)p.x + (double)m[4 + r] * (double)p.y + (double)m[8 + r] * (double)p.z +
                   (double)m[12 + r];
        ASSERT_NEAR(x, 0, 1e-5, "the hand's bind");
    }
    reach_fbx_free(&fbx);
}

/* A declared unit is reported and not applied: coordinates stay the file's. */
static void test_unit_reported(void **state) {
    (void)state;
    size_t length;
    char *text = skinned_arm_fbx(folder, &length), error[512];
    assert_non_null(text);
    const char *unit = "\"UnitScaleFactor\", \"double\", \"Number\", \"\", 1";
    char *at = strstr(text, unit);
    if (!at) fail_msg("no UnitScaleFactor of 1 in the file assimp wrote");
    /* In place: the 1 becomes 100, the text two bytes longer. */
    char *changed = malloc(length + 3);
    size_t head = (size_t)(at - text) + strlen(unit);
    memcpy(changed, text, head);
    memcpy(changed + head, "00", 2);
    memcpy(changed + head + 2, text + head, length - head);
    reach_fbx_character fbx;
    if (reach_fbx_read((const unsigned char *)changed, length + 2, 0, &fbx, error, sizeof error) != REACH_OK)
        fail_msg("%s", error);
    ASSERT_NEAR(fbx.unit_scale_factor, 100, 0, "metres declared");
    reach_transform world[4];
    world_positions(&fbx.rig, fbx.rig.rest, world);
    ASSERT_VEC3_NEAR(world[1].translation, reach_vec3_make(0, REACH_R(1.5), 0), 1e-6, "not converted");
    reach_fbx_free(&fbx);
    free(text);
    free(changed);
}

/* A hand-written ASCII FBX: a hip with a pre-rotation (Maya's joint orient) a quarter turn about
 * z, and a knee below it. assimp bakes the pre-rotation into the hip's transform, so the knee's
 * (0, -45, 0) turns to (45, 0, 0): it sits at (1 + 45, 90, 2). */
static const char hand_written[] = "; FBX 7.4.0 project file\n"
                                   "FBXHeaderExtension:  {\n FBXHeaderVersion: 1003\n FBXVersion: 7400\n}\n"
                                   "Objects:  {\n"
                                   " Model: 1001, \"Model::hips\", \"LimbNode\" {\n  Version: 232\n  Properties70:  {\n"
                                   "   P: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",1,90,2\n"
                                   "   P: \"PreRotation\", \"Vector3D\", \"Vector\", \"\",0,0,90\n"
                                   "   P: \"RotationActive\", \"bool\", \"\", \"\",1\n  }\n }\n"
                                   " Model: 1002, \"Model::knee\", \"LimbNode\" {\n  Version: 232\n  Properties70:  {\n"
                                   "   P: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\",0,-45,0\n  }\n }\n}\n"
                                   "Connections:  {\n C: \"OO\",1001,0\n C: \"OO\",1002,1001\n}\n";

static void test_hand_written_pre_rotation(void **state) {
    (void)state;
    reach_fbx_character fbx;
    char error[512];
    if (reach_fbx_read((const unsigned char *)hand_written, strlen(hand_written), 0, &fbx, error, sizeof error) !=
        REACH_OK)
        fail_msg("%s", error);
    assert_int_equal(fbx.rig.bone_count, 2);
    assert_string_equal(fbx.rig.bone_names[0], "hips");
    assert_string_equal(fbx.rig.bone_names[1], "knee");
    assert_int_equal(fbx.rig.parents[1], 0);
    assert_int_equal(fbx.clip_count, 0);
    assert_int_equal(fbx.scale_folded, 0);
    ASSERT_NEAR(fbx.unit_scale_factor, 1, 0, "no unit declared");
    reach_transform world[2];
    world_positions(&fbx.rig, fbx.rig.rest, world);
    ASSERT_VEC3_NEAR(world[0].translation, reach_vec3_make(1, 90, 2), 1e-5, "the hip");
    ASSERT_VEC3_NEAR(world[1].translation, reach_vec3_make(46, 90, 2), 1e-5, "the knee");
    reach_fbx_free(&fbx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_characters_through_fbx),
        cmocka_unit_test(test_sample_rate),
        cmocka_unit_test(test_skinned_bones_and_their_ancestors),
        cmocka_unit_test(test_unit_reported),
        cmocka_unit_test(test_hand_written_pre_rotation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
