/* Reading BVH: humanoids the test writes (Mixamo, CMU and plain names, random channel orders,
 * position channels on some joints, LF and CRLF, spaces and tabs) against an independent forward
 * kinematics of what was written, at rest and in every frame, to 1e-6 of the height; the rig's
 * names, parents, joints and rest; and the real files in ../shared/data/bvh. */
#include "bvh_generate.h"
#include "reach/bvh.h"

#define HEIGHT_TOL 1e-6

static void check_rig_shape(const gen_bvh *g, const reach_rig *rig, const reach_clip *clip) {
    assert_int_equal(rig->bone_count, g->count);
    assert_int_equal(reach_skeleton_validate(&rig->skeleton, NULL), REACH_OK);
    assert_int_equal(clip->bone_count, g->count);
    assert_int_equal(clip->frame_count, g->frames);
    ASSERT_NEAR(clip->frame_rate, 1 / g->frame_time, 1e-6 / g->frame_time, "frame rate is 1 / Frame Time");
    for (int b = 0; b < g->count; ++b) {
        assert_string_equal(rig->bone_names[b], g->joints[b].name);
        assert_int_equal(rig->parents[b], g->joints[b].parent);
        assert_int_equal(rig->joints[b].type, g->joints[b].end_site ? REACH_JOINT_FIXED : REACH_JOINT_BALL);
        assert_int_equal(reach_rig_find_bone(rig, g->joints[b].name), b);
        assert_true(rig->rest[b].rotation.w == 1 && rig->rest[b].rotation.x == 0);
        ASSERT_VEC3_NEAR(rig->rest[b].translation,
                         reach_vec3_make((reach_real)g->joints[b].offset[0], (reach_real)g->joints[b].offset[1],
                                         (reach_real)g->joints[b].offset[2]),
                         0, "the rest is the OFFSET");
    }
}

static void check_positions(const gen_bvh *g, const reach_rig *rig, const reach_transform *local, int frame) {
    double expected[GEN_MAX_JOINTS][3];
    reach_transform world[GEN_MAX_JOINTS];
    gen_world_positions(g, frame, expected);
    reach_forward_kinematics(&rig->skeleton, local, world);
    for (int b = 0; b < g->count; ++b) {
        reach_vec3 e =
            reach_vec3_make((reach_real)expected[b][0], (reach_real)expected[b][1], (reach_real)expected[b][2]);
        ASSERT_VEC3_NEAR(world[b].translation, e, HEIGHT_TOL * g->height, g->joints[b].name);
    }
}

static void read_generated(test_rng *rng, gen_names names, int crlf, int tabs) {
    gen_bvh g;
    gen_make(&g, rng, names, 12);
    char *text = gen_text(&g, crlf, tabs);
    reach_rig rig;
    reach_clip clip;
    char error[512];
    reach_status st = reach_bvh_read(text, strlen(text), &rig, &clip, error, sizeof error);
    if (st != REACH_OK) fail_msg("reading failed: %s\n%s", error, text);
    check_rig_shape(&g, &rig, &clip);
    reach_transform rest[GEN_MAX_JOINTS];
    reach_pose_rest(&rig.skeleton, rest);
    check_positions(&g, &rig, rest, -1);
    for (int f = 0; f < g.frames; ++f)
        check_positions(&g, &rig, reach_clip_frame(&clip, f), f);
    reach_rig_free(&rig);
    reach_clip_free(&clip);
    free(text);
    gen_free(&g);
}

static void test_mixamo_names(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2501);
    for (int i = 0; i < test_scaled(200); ++i)
        read_generated(&rng, GEN_MIXAMO, 0, 0);
}

static void test_cmu_names_crlf(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2502);
    for (int i = 0; i < test_scaled(200); ++i)
        read_generated(&rng, GEN_CMU, 1, 1);
}

static void test_plain_names_tabs(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2503);
    for (int i = 0; i < test_scaled(200); ++i)
        read_generated(&rng, GEN_PLAIN, 0, 1);
}

/* A hand-written file: the numbers checked by hand. One ROOT with 6 channels (rotations before
 * positions), a child turned 90 degrees about Z then X, an End Site. */
static void test_hand_written(void **state) {
    (void)state;
    const char *text = "HIERARCHY\nROOT root\n{\n OFFSET 1 2 3\n CHANNELS 6 Zrotation Xposition Yposition Zposition "
                       "Xrotation Yrotation\n JOINT arm\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Zrotation Xrotation "
                       "Yrotation\n  End Site\n  {\n   OFFSET 0 5 0\n  }\n }\n}\nMOTION\nFrames: 2\nFrame Time: "
                       "0.5\n0 0 0 0 0 0 0 0 0\n90 7 8 9 0 0 0 90 0\n";
    reach_rig rig;
    reach_clip clip;
    char error[256];
    assert_int_equal(reach_bvh_read(text, strlen(text), &rig, &clip, error, sizeof error), REACH_OK);
    assert_int_equal(rig.bone_count, 3);
    assert_string_equal(rig.bone_names[2], "arm_end");
    ASSERT_NEAR(clip.frame_rate, 2, 1e-6, "2 frames per second");
    ASSERT_NEAR(reach_clip_duration(&clip), 0.5, 1e-6, "two frames half a second apart");
    reach_transform world[3];
    reach_forward_kinematics(&rig.skeleton, reach_clip_frame(&clip, 0), world);
    ASSERT_VEC3_NEAR(world[0].translation, reach_vec3_make(0, 0, 0), 1e-6, "position channels replace the OFFSET");
    ASSERT_VEC3_NEAR(world[2].translation, reach_vec3_make(0, 15, 0), 1e-6, "straight up at frame 0");
    reach_forward_kinematics(&rig.skeleton, reach_clip_frame(&clip, 1), world);
    /* Root: Rz(90) at (7, 8, 9). arm: Rz(90) · Rx(90): its (0, 5, 0) goes to (0, 0, 5) under Rx,
     * then stays under Rz; the arm's (0, 10, 0) under the root's Rz is (-10, 0, 0). */
    ASSERT_VEC3_NEAR(world[1].translation, reach_vec3_make(-3, 8, 9), 1e-5, "arm joint");
    ASSERT_VEC3_NEAR(world[2].translation, reach_vec3_make(-3, 8, 14), 1e-5, "end site");
    reach_rig_free(&rig);
    reach_clip_free(&clip);
}

/* The real files: read whole; structure as ../shared/data/README.md describes it; every frame's
 * world positions finite and each bone at its OFFSET's distance from its parent (the rotations
 * are rigid) wherever the joint has no position channels. */
static void read_real(const char *name, int bones, int frames, double rate) {
    char path[1024];
    shared_bvh_path(path, sizeof path, name);
    reach_rig rig;
    reach_clip clip;
    char error[512];
    reach_status st = reach_bvh_read_file(path, &rig, &clip, error, sizeof error);
    if (st != REACH_OK) fail_msg("%s", error);
    if (bones > 0) assert_int_equal(rig.bone_count, bones);
    if (frames > 0) assert_int_equal(clip.frame_count, frames);
    if (rate > 0) ASSERT_NEAR(clip.frame_rate, rate, 1e-3, "frame rate");
    reach_transform *world = malloc((size_t)rig.bone_count * sizeof *world);
    for (int f = 0; f < clip.frame_count; ++f) {
        reach_forward_kinematics(&rig.skeleton, reach_clip_frame(&clip, f), world);
        for (int b = 1; b < rig.bone_count; ++b) {
            assert_true(reach_vec3_is_finite(world[b].translation));
            reach_vec3 offset = reach_clip_frame(&clip, f)[b].translation;
            ASSERT_NEAR(reach_vec3_distance(world[b].translation, world[rig.parents[b]].translation),
                        reach_vec3_length(offset), 1e-4 * (1 + reach_vec3_length(offset)), rig.bone_names[b]);
        }
    }
    free(world);
    reach_rig_free(&rig);
    reach_clip_free(&clip);
}

static void test_real_cmu_walk(void **state) {
    (void)state;
    /* 38 joints and their End Sites. */
    read_real("cmu_12_01_walk.bvh", 0, 524, 120);
}

static void test_real_pybvh_fixtures(void **state) {
    (void)state;
    read_real("pybvh_standard_skeleton.bvh", 0, 0, 0);
    read_real("pybvh_test2.bvh", 0, 0, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixamo_names),     cmocka_unit_test(test_cmu_names_crlf),
        cmocka_unit_test(test_plain_names_tabs), cmocka_unit_test(test_hand_written),
        cmocka_unit_test(test_real_cmu_walk),    cmocka_unit_test(test_real_pybvh_fixtures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
