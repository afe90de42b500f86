/* Reading glTF: generated characters (an armature node with a rotation and a uniform scale,
 * joints with scales of their own, unnamed nodes, a mesh node outside the skin, an animation
 * with LINEAR and STEP rotations, a translation and an animated scale) as .gltf with a data: URI,
 * .gltf with an external .bin and .glb: every joint's world position at rest and at sampled
 * frames against an independent forward kinematics with scale, to 1e-6 of the height. */
#include <unistd.h>

#include "gltf_generate.h"
#include "reach/gltf.h"

#ifdef REACH_DOUBLE
#define HEIGHT_TOL 1e-6
#else
#define HEIGHT_TOL 1e-5 /* float's 24 bits over a chain of scaled nodes */
#endif

static void check_character(const gg_file *g, const reach_gltf_character *c) {
    /* The armature and the joints; the mesh node is outside the skin. */
    assert_int_equal(c->rig.bone_count, GG_NODES - 1);
    assert_int_equal(reach_rig_find_bone(&c->rig, "Body"), -1);
    assert_int_equal(c->scale_folded, 1);
    assert_int_equal(c->clip_count, 1);
    assert_string_equal(c->clip_names[0], "walk");
    const reach_clip *clip = &c->clips[0];
    assert_int_equal(clip->bone_count, c->rig.bone_count);
    for (int b = 0; b < c->rig.bone_count; ++b) {
        int node = c->node_of_bone[b];
        char expected[64];
        if (g->nodes[node].name[0])
            snprintf(expected, sizeof expected, "%s", g->nodes[node].name);
        else
            snprintf(expected, sizeof expected, "node_%d", node);
        assert_string_equal(c->rig.bone_names[b], expected);
        int parent = g->nodes[node].parent;
        if (parent < 0)
            assert_int_equal(c->rig.parents[b], -1);
        else
            assert_int_equal(c->node_of_bone[c->rig.parents[b]], parent);
    }
    double expected[GG_NODES][3];
    reach_transform world[GG_NODES], rest[GG_NODES];
    reach_pose_rest(&c->rig.skeleton, rest);
    for (int f = -1; f < clip->frame_count; ++f) {
        double time = f < 0 ? -1 : f / (double)clip->frame_rate;
        gg_world_positions(g, time, expected);
        reach_forward_kinematics(&c->rig.skeleton, f < 0 ? rest : reach_clip_frame(clip, f), world);
        for (int b = 0; b < c->rig.bone_count; ++b) {
            int node = c->node_of_bone[b];
            char what[96];
            snprintf(what, sizeof what, "%s at frame %d", c->rig.bone_names[b], f);
            ASSERT_VEC3_NEAR(world[b].translation,
                             reach_vec3_make((reach_real)expected[node][0], (reach_real)expected[node][1],
                                             (reach_real)expected[node][2]),
                             HEIGHT_TOL * g->height, what);
        }
    }
}

static void read_kind(gg_kind kind, uint64_t seed, int cases) {
    test_rng rng = test_rng_make(seed);
    char folder[] = "/tmp/reach_gltf_XXXXXX";
    assert_non_null(mkdtemp(folder));
    char bin_path[256], gltf_path[256];
    snprintf(bin_path, sizeof bin_path, "%s/walk data.bin", folder);
    snprintf(gltf_path, sizeof gltf_path, "%s/walk.%s", folder, kind == GG_GLB ? "glb" : "gltf");
    for (int i = 0; i < cases; ++i) {
        gg_file g;
        gg_make(&g, &rng);
        gg_bytes file = gg_write(&g, kind, bin_path, "walk data.bin");
        FILE *out = fopen(gltf_path, "wb");
        fwrite(file.data, 1, file.length, out);
        fclose(out);
        reach_gltf_character c;
        char error[512];
        reach_status st = reach_gltf_read_file(gltf_path, -1, 0, &c, error, sizeof error);
        if (st != REACH_OK) fail_msg("reading failed: %s", error);
        ASSERT_NEAR(c.clips[0].frame_rate, 30, 0, "sampled at 30 per second by default");
        check_character(&g, &c);
        reach_gltf_free(&c);
        /* Keys at random times are not evenly spaced: at their own rate means 30 per second. */
        st = reach_gltf_read_file(gltf_path, -1, REACH_GLTF_KEY_RATE, &c, error, sizeof error);
        if (st != REACH_OK) fail_msg("reading at the keys' rate failed: %s", error);
        ASSERT_NEAR(c.clips[0].frame_rate, 30, 0, "uneven keys sampled at 30 per second");
        reach_gltf_free(&c);
        /* From memory too, at another rate. */
        if (kind != GG_EXTERNAL_BIN) {
            st = reach_gltf_read(file.data, file.length, NULL, 0, 50, &c, error, sizeof error);
            if (st != REACH_OK) fail_msg("reading from memory failed: %s", error);
            ASSERT_NEAR(c.clips[0].frame_rate, 50, 0, "sampled at the rate asked");
            check_character(&g, &c);
            reach_gltf_free(&c);
        }
        free(file.data);
    }
    remove(bin_path);
    remove(gltf_path);
    rmdir(folder);
}

static void test_gltf_with_data_uri(void **state) {
    (void)state;
    read_kind(GG_DATA_URI, 2530, test_scaled(100));
}

static void test_gltf_with_external_bin(void **state) {
    (void)state;
    read_kind(GG_EXTERNAL_BIN, 2531, test_scaled(50));
}

static void test_glb(void **state) {
    (void)state;
    read_kind(GG_GLB, 2532, test_scaled(100));
}

/* Without skins: every node of the scene, the mesh node too; a matrix as rest. */
static void test_no_skin_matrix(void **state) {
    (void)state;
    const char *text = "{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"name\":\"root\","
                       "\"children\":[1],\"matrix\":[0,1,0,0,-1,0,0,0,0,0,1,0,1,2,3,1]},{\"translation\":[2,0,0]}]}";
    reach_gltf_character c;
    char error[256];
    reach_status st = reach_gltf_read((const unsigned char *)text, strlen(text), NULL, -1, 0, &c, error, sizeof error);
    if (st != REACH_OK) fail_msg("%s", error);
    assert_int_equal(c.rig.bone_count, 2);
    assert_string_equal(c.rig.bone_names[1], "node_1");
    assert_int_equal(c.clip_count, 0);
    reach_transform world[2];
    reach_forward_kinematics(&c.rig.skeleton, c.rig.rest, world);
    /* The matrix turns x onto y a quarter turn about z: (2, 0, 0) goes to (0, 2, 0). */
    ASSERT_VEC3_NEAR(world[1].translation, reach_vec3_make(1, 4, 3), 1e-6, "the child through the matrix");
    reach_gltf_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gltf_with_data_uri),
        cmocka_unit_test(test_gltf_with_external_bin),
        cmocka_unit_test(test_glb),
        cmocka_unit_test(test_no_skin_matrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
