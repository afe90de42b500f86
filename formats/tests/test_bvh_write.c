/* Writing BVH: BVH → BVH keeps the rig (names, parents, End Sites, offsets) and every frame's
 * world positions, for generated humanoids (random channel orders, position channels on some
 * joints) and the real files of ../shared/data/bvh; a rig without a clip is written as its rest;
 * a clip that does not fit the rig, or holds NaN, is refused with nothing written; a rig of 50 000
 * bones is written (in time linear in the bones) and read back whole. */
#include "gltf_generate.h" /* its byte buffer */
#include "rig_compare.h"
#include "reach/bvh.h"

#define HEIGHT_TOL 1e-6

/* Writes rig and clip, reads them back, and compares. */
static void round_trip(const reach_rig *rig, const reach_clip *clip) {
    char *text;
    size_t length;
    char error[512];
    reach_status st = reach_bvh_write(rig, clip, &text, &length, error, sizeof error);
    if (st != REACH_OK) fail_msg("writing failed: %s", error);
    assert_int_equal(strlen(text), length);
    reach_rig again;
    reach_clip motion;
    st = reach_bvh_read(text, length, &again, &motion, error, sizeof error);
    if (st != REACH_OK) fail_msg("reading back failed: %s", error);
    assert_int_equal(again.bone_count, rig->bone_count);
    assert_int_equal(motion.frame_count, clip->frame_count);
    ASSERT_NEAR(motion.frame_rate, clip->frame_rate, 1e-6 * clip->frame_rate, "the frame rate");
    /* Depth first is file order for a rig read from BVH: bones keep their places. */
    for (int b = 0; b < rig->bone_count; ++b) {
        assert_string_equal(again.bone_names[b], rig->bone_names[b]);
        assert_int_equal(again.parents[b], rig->parents[b]);
        assert_int_equal(again.joints[b].type, rig->joints[b].type);
        ASSERT_VEC3_NEAR(again.rest[b].translation, rig->rest[b].translation, 0, "the OFFSET");
    }
    double tolerance = HEIGHT_TOL * rig_rest_height(rig);
    reach_transform *world = malloc(2 * (size_t)rig->bone_count * sizeof *world);
    for (int f = 0; f < clip->frame_count; ++f) {
        reach_forward_kinematics(&rig->skeleton, reach_clip_frame(clip, f), world);
        reach_forward_kinematics(&again.skeleton, reach_clip_frame(&motion, f), world + rig->bone_count);
        for (int b = 0; b < rig->bone_count; ++b)
            ASSERT_VEC3_NEAR(world[rig->bone_count + b].translation, world[b].translation, tolerance,
                             rig->bone_names[b]);
    }
    free(world);
    free(text);
    reach_rig_free(&again);
    reach_clip_free(&motion);
}

static void test_generated_round_trips(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2520);
    for (int i = 0; i < test_scaled(300); ++i) {
        gen_bvh g;
        gen_make(&g, &rng, (gen_names)(i % 3), 10);
        char *text = gen_text(&g, i % 2, i % 3 == 0);
        reach_rig rig;
        reach_clip clip;
        char error[512];
        if (reach_bvh_read(text, strlen(text), &rig, &clip, error, sizeof error) != REACH_OK) fail_msg("%s", error);
        round_trip(&rig, &clip);
        reach_rig_free(&rig);
        reach_clip_free(&clip);
        free(text);
        gen_free(&g);
    }
}

/* Rotations at and near Y = ±90° (where Z and X turn about one axis) still round-trip. */
static void test_gimbal_lock(void **state) {
    (void)state;
    const char *text = "HIERARCHY\nROOT r\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Yrotation "
                       "Zrotation Xrotation\n JOINT a\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Xrotation Yrotation "
                       "Zrotation\n  End Site\n  {\n   OFFSET 3 4 5\n  }\n }\n}\nMOTION\nFrames: 4\nFrame Time: "
                       "0.1\n0 0 0 90 30 40 10 90 20\n1 2 3 -90 -30 40 5 -90 7\n0 0 0 89.9999 1 2 3 90.00001 4\n0 "
                       "0 0 180 180 180 -180 0 180\n";
    reach_rig rig;
    reach_clip clip;
    char error[256];
    assert_int_equal(reach_bvh_read(text, strlen(text), &rig, &clip, error, sizeof error), REACH_OK);
    round_trip(&rig, &clip);
    reach_rig_free(&rig);
    reach_clip_free(&clip);
}

static void test_real_files_round_trip(void **state) {
    (void)state;
    const char *names[] = {"cmu_12_01_walk.bvh", "pybvh_standard_skeleton.bvh", "pybvh_test2.bvh"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k) {
        char path[1024];
        shared_bvh_path(path, sizeof path, names[k]);
        reach_rig rig;
        reach_clip clip;
        char error[512];
        if (reach_bvh_read_file(path, &rig, &clip, error, sizeof error) != REACH_OK) fail_msg("%s", error);
        round_trip(&rig, &clip);
        reach_rig_free(&rig);
        reach_clip_free(&clip);
    }
}

/* A hostile-sized rig: 50 000 bones, a root and chains of CHAIN bones under it, with two frames
 * of random motion. Its writing (and reading) once took time growing with the square of the
 * bones; each bone's name, parent, offset and world position at every frame is checked. */
#define MANY_BONES 50000
#define CHAIN      5

static void test_many_bones_round_trip(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2522);
    gg_bytes t = {0};
    gg_printf(&t, "HIERARCHY\nROOT b0\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation "
                  "Yrotation Xrotation\n");
    for (int b = 1; b < MANY_BONES; ++b) {
        gg_printf(&t, "JOINT b%d\n{\nOFFSET %.3f %.3f %.3f\nCHANNELS 3 Zrotation Yrotation Xrotation\n", b,
                  (double)test_uniform(&rng, -10, 10), (double)test_uniform(&rng, -10, 10),
                  (double)test_uniform(&rng, -10, 10));
        /* A chain's last bone closes the whole chain. */
        if (b % CHAIN == 0)
            for (int k = 0; k < CHAIN; ++k)
                gg_printf(&t, "}\n");
    }
    for (int k = 0; k < (MANY_BONES - 1) % CHAIN; ++k)
        gg_printf(&t, "}\n");
    gg_printf(&t, "}\nMOTION\nFrames: 2\nFrame Time: 0.04\n");
    for (int f = 0; f < 2; ++f) {
        for (int v = 0; v < 3 + 3 * MANY_BONES; ++v)
            gg_printf(&t, "%s%.3f", v ? " " : "", (double)test_uniform(&rng, v < 3 ? -100 : -180, v < 3 ? 100 : 180));
        gg_printf(&t, "\n");
    }
    reach_rig rig;
    reach_clip clip;
    char error[512];
    if (reach_bvh_read((const char *)t.data, t.length, &rig, &clip, error, sizeof error) != REACH_OK)
        fail_msg("%s", error);
    assert_int_equal(rig.bone_count, MANY_BONES);
    for (int b = 1; b < MANY_BONES; ++b)
        assert_int_equal(rig.parents[b], (b - 1) % CHAIN == 0 ? 0 : b - 1);
    round_trip(&rig, &clip);
    reach_rig_free(&rig);
    reach_clip_free(&clip);
    free(t.data);
}

static void test_rest_without_clip(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2521);
    gen_bvh g;
    gen_make(&g, &rng, GEN_PLAIN, 1);
    char *source = gen_text(&g, 0, 0);
    reach_rig rig;
    reach_clip clip;
    char error[512];
    assert_int_equal(reach_bvh_read(source, strlen(source), &rig, &clip, error, sizeof error), REACH_OK);
    char *written;
    size_t length;
    assert_int_equal(reach_bvh_write(&rig, NULL, &written, &length, error, sizeof error), REACH_OK);
    reach_rig again;
    reach_clip rest;
    assert_int_equal(reach_bvh_read(written, length, &again, &rest, error, sizeof error), REACH_OK);
    assert_int_equal(rest.frame_count, 1);
    for (int b = 0; b < rig.bone_count; ++b) {
        const reach_transform *x = &reach_clip_frame(&rest, 0)[b];
        ASSERT_VEC3_NEAR(x->translation, rig.rest[b].translation, 0, "at rest");
        ASSERT_NEAR(reach_quat_angle(x->rotation), 0, 1e-6, "no rotation at rest");
    }
    free(written);
    free(source);
    reach_rig_free(&again);
    reach_clip_free(&rest);
    reach_clip_free(&clip);
    reach_rig_free(&rig);
    gen_free(&g);
}

static void test_bad_input_writes_nothing(void **state) {
    (void)state;
    const char *text = "HIERARCHY\nROOT r\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n}\nMOTION\n"
                       "Frames: 2\nFrame Time: 0.1\n1 2 3\n4 5 6\n";
    reach_rig rig;
    reach_clip clip;
    char error[256];
    assert_int_equal(reach_bvh_read(text, strlen(text), &rig, &clip, error, sizeof error), REACH_OK);
    char *written = (char *)error;
    size_t length = 7;
    clip.frames[1].translation.y = (reach_real)NAN;
    assert_int_equal(reach_bvh_write(&rig, &clip, &written, &length, error, sizeof error), REACH_ERROR_NOT_FINITE);
    assert_null(written);
    assert_int_equal(length, 0);
    assert_non_null(strstr(error, "frame 1, bone 0"));
    clip.frames[1].translation.y = 0;
    clip.bone_count = 2;
    assert_int_equal(reach_bvh_write(&rig, &clip, &written, &length, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error, "the rig has 1 bones"));
    clip.bone_count = 1;
    clip.frames[0].rotation = reach_quat_make(0, 0, 0, 0);
    assert_int_equal(reach_bvh_write(&rig, &clip, &written, &length, error, sizeof error), REACH_ERROR_BAD_QUATERNION);
    assert_int_equal(reach_bvh_write(NULL, &clip, &written, &length, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_bvh_write_file("/nonexistent-folder/x.bvh", &rig, NULL, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error, "cannot be written"));
    reach_rig_free(&rig);
    reach_clip_free(&clip);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_round_trips),    cmocka_unit_test(test_gimbal_lock),
        cmocka_unit_test(test_real_files_round_trip),    cmocka_unit_test(test_rest_without_clip),
        cmocka_unit_test(test_bad_input_writes_nothing), cmocka_unit_test(test_many_bones_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
