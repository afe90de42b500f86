/* Writing glTF: generated humanoids (Mixamo, CMU and plain names, random channel orders, position
 * channels on some joints, End Sites) read from BVH, written as .gltf (buffer embedded or beside)
 * and .glb, read back by reach: every bone's world position at rest, at every frame and at
 * times between frames within 1e-6 of the height, against the source rig and against the
 * generator's own forward kinematics; BVH → glTF → BVH keeps End Sites and every frame; the skin's
 * inverse bind matrices undo the rest pose; the GLB's layout; bad input is refused with nothing
 * written; and assimp (the `assimp` program, when installed) opens the files with every joint and
 * the animation. */
#include <unistd.h>

#include "bvh_generate.h"
#include "reach/bvh.h"
#include "reach/gltf.h"
#include "rig_compare.h"

#define HEIGHT_TOL 1e-6
#define FRAMES     10

typedef struct source {
    gen_bvh g;
    reach_rig rig;
    reach_clip clip;
} source;

static void source_make(source *s, test_rng *rng, int i, int frames) {
    gen_make(&s->g, rng, (gen_names)(i % 3), frames);
    char *text = gen_text(&s->g, 0, 0);
    char error[512];
    if (reach_bvh_read(text, strlen(text), &s->rig, &s->clip, error, sizeof error) != REACH_OK) fail_msg("%s", error);
    free(text);
}

static void source_free(source *s) {
    reach_rig_free(&s->rig);
    reach_clip_free(&s->clip);
    gen_free(&s->g);
}

static void make_folder(char *folder) {
    if (!mkdtemp(folder)) fail_msg("no temporary folder");
}

/* Written in memory and read back at the clip's own rate: given, or found from the keys. */
static void write_and_read(const source *s, reach_gltf_layout layout, int key_rate, reach_gltf_character *out) {
    unsigned char *document, *bin;
    size_t length, bin_length;
    char error[512];
    const char *name = "walk";
    reach_status st = reach_gltf_write(&s->rig, &s->clip, &name, 1, layout, "walk.bin", &document, &length, &bin,
                                       &bin_length, error, sizeof error);
    if (st != REACH_OK) fail_msg("writing failed: %s", error);
    assert_true(layout == REACH_GLTF_SEPARATE ? bin != NULL : bin == NULL);
    char folder[] = "/tmp/reach_gltf_write_XXXXXX";
    if (layout == REACH_GLTF_SEPARATE) {
        make_folder(folder);
        char path[128];
        snprintf(path, sizeof path, "%s/walk.bin", folder);
        FILE *file = fopen(path, "wb");
        assert_non_null(file);
        assert_int_equal(fwrite(bin, 1, bin_length, file), bin_length);
        fclose(file);
    }
    st = reach_gltf_read(document, length, layout == REACH_GLTF_SEPARATE ? folder : NULL, -1,
                         key_rate ? REACH_GLTF_KEY_RATE : s->clip.frame_rate, out, error, sizeof error);
    if (st != REACH_OK) fail_msg("reading back failed: %s", error);
    if (layout == REACH_GLTF_SEPARATE) {
        char path[128];
        snprintf(path, sizeof path, "%s/walk.bin", folder);
        remove(path);
        rmdir(folder);
    }
    free(document);
    free(bin);
}

/* The character read back against the generator's forward kinematics (3×3 matrices in double
 * straight from the BVH channels), frame by frame. */
static void against_generator(const gen_bvh *g, const reach_gltf_character *c) {
    double expected[GEN_MAX_JOINTS][3];
    reach_transform world[GEN_MAX_JOINTS];
    for (int f = -1; f < g->frames; ++f) {
        gen_world_positions(g, f, expected);
        reach_forward_kinematics(&c->rig.skeleton, f < 0 ? c->rig.rest : reach_clip_frame(&c->clips[0], f), world);
        for (int j = 0; j < g->count; ++j) {
            int b = reach_rig_find_bone(&c->rig, g->joints[j].name);
            if (b < 0) fail_msg("no bone '%s'", g->joints[j].name);
            reach_vec3 e =
                reach_vec3_make((reach_real)expected[j][0], (reach_real)expected[j][1], (reach_real)expected[j][2]);
            ASSERT_VEC3_NEAR(world[b].translation, e, HEIGHT_TOL * g->height, g->joints[j].name);
        }
    }
}

/* Each inverse bind matrix times its bone's world rest transform is the identity. */
static void inverse_binds_undo_rest(const reach_gltf_character *c, double tolerance) {
    int n = c->rig.bone_count;
    reach_transform *world = malloc((size_t)n * sizeof *world);
    reach_forward_kinematics(&c->rig.skeleton, c->rig.rest, world);
    for (int b = 0; b < n; ++b) {
        const reach_real *m = c->inverse_bind + 16 * b;
        reach_mat3 r = reach_mat3_from_quat(world[b].rotation);
        reach_vec3 p = world[b].translation;
        for (int axis = 0; axis < 3; ++axis) {
            reach_vec3 column = r.col[axis];
            reach_vec3 back = reach_vec3_make(m[0] * column.x + m[4] * column.y + m[8] * column.z,
                                              m[1] * column.x + m[5] * column.y + m[9] * column.z,
                                              m[2] * column.x + m[6] * column.y + m[10] * column.z);
            reach_vec3 unit = reach_vec3_make(axis == 0, axis == 1, axis == 2);
            ASSERT_VEC3_NEAR(back, unit, 1e-6, "an inverse bind matrix's rotation");
        }
        reach_vec3 origin =
            reach_vec3_make(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12], m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                            m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14]);
        ASSERT_VEC3_NEAR(origin, reach_vec3_make(0, 0, 0), tolerance, "an inverse bind matrix's translation");
    }
    free(world);
}

static void test_bvh_to_gltf_keeps_every_frame(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2560);
    for (int i = 0; i < test_scaled(150); ++i) {
        source s;
        source_make(&s, &rng, i, FRAMES);
        reach_gltf_layout layout = (reach_gltf_layout)(i % 3);
        reach_gltf_character c;
        write_and_read(&s, layout, i % 2, &c);
        double tolerance = HEIGHT_TOL * rig_rest_height(&s.rig);
        assert_int_equal(c.clip_count, 1);
        assert_string_equal(c.clip_names[0], "walk");
        assert_false(c.scale_folded);
        rig_assert_same_pose(&s.rig, NULL, &c.rig, NULL, tolerance);
        rig_assert_same_motion(&s.rig, &s.clip, &c.rig, &c.clips[0], tolerance);
        against_generator(&s.g, &c);
        inverse_binds_undo_rest(&c, tolerance);
        reach_gltf_free(&c);
        source_free(&s);
    }
}

/* Read back at three times the rate: the frames between keys are the source clip sampled there
 * (translations linear, rotations slerped the short way, as glTF's LINEAR says). */
static void test_times_between_frames(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2561);
    for (int i = 0; i < test_scaled(60); ++i) {
        source s;
        source_make(&s, &rng, i, FRAMES);
        /* Turns of at most 60° a frame, so the short way is never in doubt. */
        for (int f = 1; f < s.clip.frame_count; ++f)
            for (int b = 0; b < s.rig.bone_count; ++b) {
                reach_transform *x = &reach_clip_frame(&s.clip, f)[b];
                x->rotation = reach_quat_slerp(reach_clip_frame(&s.clip, f - 1)[b].rotation, x->rotation, REACH_R(0.3));
            }
        unsigned char *document;
        size_t length;
        char error[512];
        assert_int_equal(reach_gltf_write(&s.rig, &s.clip, NULL, 1, REACH_GLTF_BINARY, NULL, &document, &length, NULL,
                                          NULL, error, sizeof error),
                         REACH_OK);
        reach_gltf_character c;
        reach_real rate = s.clip.frame_rate * 3;
        if (reach_gltf_read(document, length, NULL, -1, rate, &c, error, sizeof error) != REACH_OK)
            fail_msg("%s", error);
        assert_string_equal(c.clip_names[0], "animation_0");
        assert_int_equal(c.clips[0].frame_count, 3 * (s.clip.frame_count - 1) + 1);
        reach_transform *pose = malloc((size_t)s.rig.bone_count * sizeof *pose);
        double tolerance = HEIGHT_TOL * rig_rest_height(&s.rig);
        for (int f = 0; f < c.clips[0].frame_count; ++f) {
            assert_int_equal(reach_clip_sample(&s.clip, (reach_real)(f / (double)rate), REACH_CLIP_SLERP, pose),
                             REACH_OK);
            rig_assert_same_pose(&s.rig, pose, &c.rig, reach_clip_frame(&c.clips[0], f), tolerance);
        }
        free(pose);
        free(document);
        reach_gltf_free(&c);
        source_free(&s);
    }
}

/* BVH → glTF → BVH: the rig (End Sites included) and every frame's world positions kept. */
static void test_bvh_gltf_bvh(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2562);
    for (int i = 0; i < test_scaled(150); ++i) {
        source s;
        source_make(&s, &rng, i, FRAMES);
        reach_gltf_character c;
        write_and_read(&s, (reach_gltf_layout)(i % 3), 1, &c);
        char *text;
        size_t length;
        char error[512];
        if (reach_bvh_write(&c.rig, &c.clips[0], &text, &length, error, sizeof error) != REACH_OK)
            fail_msg("%s", error);
        reach_rig rig;
        reach_clip clip;
        if (reach_bvh_read(text, length, &rig, &clip, error, sizeof error) != REACH_OK) fail_msg("%s", error);
        double tolerance = HEIGHT_TOL * rig_rest_height(&s.rig);
        rig_assert_same_motion(&s.rig, &s.clip, &rig, &clip, tolerance);
        for (int b = 0; b < s.rig.bone_count; ++b) {
            int again = reach_rig_find_bone(&rig, s.rig.bone_names[b]);
            assert_int_equal(rig.joints[again].type, s.rig.joints[b].type); /* End Sites stay fixed */
        }
        free(text);
        reach_rig_free(&rig);
        reach_clip_free(&clip);
        reach_gltf_free(&c);
        source_free(&s);
    }
}

/* A rig alone (no clips), and two clips with their names. */
static void test_rest_only_and_two_clips(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2563);
    source s;
    source_make(&s, &rng, 0, 4);
    unsigned char *document;
    size_t length;
    char error[512];
    reach_gltf_character c;
    assert_int_equal(reach_gltf_write(&s.rig, NULL, NULL, 0, REACH_GLTF_EMBEDDED, NULL, &document, &length, NULL, NULL,
                                      error, sizeof error),
                     REACH_OK);
    assert_int_equal(reach_gltf_read(document, length, NULL, -1, 0, &c, error, sizeof error), REACH_OK);
    assert_int_equal(c.clip_count, 0);
    rig_assert_same_pose(&s.rig, NULL, &c.rig, NULL, HEIGHT_TOL * s.g.height);
    reach_gltf_free(&c);
    free(document);

    reach_clip clips[2] = {s.clip, s.clip};
    clips[1].frame_count = 2;
    clips[1].frame_rate = 10;
    const char *names[2] = {"idle", NULL};
    assert_int_equal(reach_gltf_write(&s.rig, clips, names, 2, REACH_GLTF_EMBEDDED, NULL, &document, &length, NULL,
                                      NULL, error, sizeof error),
                     REACH_OK);
    assert_int_equal(reach_gltf_read(document, length, NULL, -1, 10, &c, error, sizeof error), REACH_OK);
    assert_int_equal(c.clip_count, 2);
    assert_string_equal(c.clip_names[0], "idle");
    assert_string_equal(c.clip_names[1], "animation_1");
    assert_int_equal(c.clips[1].frame_count, 2);
    for (int f = 0; f < 2; ++f)
        rig_assert_same_pose(&s.rig, reach_clip_frame(&clips[1], f), &c.rig, reach_clip_frame(&c.clips[1], f),
                             HEIGHT_TOL * s.g.height);
    reach_gltf_free(&c);
    free(document);
    source_free(&s);
}

static uint32_t u32_at(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The GLB's header and chunks as the specification lays them out. */
static void test_glb_layout(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2564);
    source s;
    source_make(&s, &rng, 1, 3);
    unsigned char *glb;
    size_t length;
    char error[512];
    assert_int_equal(reach_gltf_write(&s.rig, &s.clip, NULL, 1, REACH_GLTF_BINARY, NULL, &glb, &length, NULL, NULL,
                                      error, sizeof error),
                     REACH_OK);
    assert_true(length > 28 && length % 4 == 0);
    assert_int_equal(u32_at(glb), 0x46546C67u);
    assert_int_equal(u32_at(glb + 4), 2);
    assert_int_equal(u32_at(glb + 8), length);
    uint32_t json_length = u32_at(glb + 12);
    assert_int_equal(json_length % 4, 0);
    assert_int_equal(u32_at(glb + 16), 0x4E4F534Au);
    assert_int_equal(glb[20], '{');
    size_t bin = 20 + (size_t)json_length;
    assert_int_equal(u32_at(glb + bin + 4), 0x004E4942u);
    assert_int_equal(bin + 8 + u32_at(glb + bin), length);
    free(glb);
    source_free(&s);
}

static int file_exists(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file) fclose(file);
    return file != NULL;
}

static char *file_text(const char *path) {
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[n] = '\0';
    return text;
}

/* Files: a .gltf with its buffer beside it under a name that needs escaping in a URI, a .glb, and
 * an embedded .gltf, each read back from its path; no temporary left behind. */
static void test_files(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2565);
    source s;
    source_make(&s, &rng, 2, 5);
    char folder[] = "/tmp/reach_gltf_files_XXXXXX";
    make_folder(folder);
    const char *names[] = {"walk cycle.gltf", "walk.glb", "walk.GLTF"};
    for (int k = 0; k < 3; ++k) {
        char path[256], error[512];
        snprintf(path, sizeof path, "%s/%s", folder, names[k]);
        if (reach_gltf_write_file(path, &s.rig, &s.clip, NULL, 1, k == 0, error, sizeof error) != REACH_OK)
            fail_msg("%s", error);
        char temporary[300];
        snprintf(temporary, sizeof temporary, "%s.tmp", path);
        assert_false(file_exists(temporary));
        if (k == 0) assert_non_null(strstr(file_text(path), "\"uri\":\"walk%20cycle.bin\""));
        if (k == 2) assert_non_null(strstr(file_text(path), "\"uri\":\"data:application/octet-stream;base64,"));
        reach_gltf_character c;
        if (reach_gltf_read_file(path, -1, s.clip.frame_rate, &c, error, sizeof error) != REACH_OK)
            fail_msg("%s", error);
        rig_assert_same_motion(&s.rig, &s.clip, &c.rig, &c.clips[0], HEIGHT_TOL * s.g.height);
        reach_gltf_free(&c);
        remove(path);
    }
    char bin[256];
    snprintf(bin, sizeof bin, "%s/walk cycle.bin", folder);
    assert_true(file_exists(bin));
    remove(bin);
    assert_int_equal(rmdir(folder), 0);
    source_free(&s);
}

/* Bad input: a clip of another rig, a NaN, a zero rotation, a rate of 0, a key time past float32's
 * range, a name that is no glTF file, a folder that is not there. Each is a clear error, and the file at the path is
 * left as it was (or absent), with no temporary beside it. */
static void test_bad_input_writes_nothing(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2566);
    source s;
    source_make(&s, &rng, 0, 3);
    char folder[] = "/tmp/reach_gltf_bad_XXXXXX";
    make_folder(folder);
    char path[256], temporary[300], error[512];
    snprintf(path, sizeof path, "%s/kept.glb", folder);
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    FILE *file = fopen(path, "wb");
    fputs("what was there", file);
    fclose(file);

    reach_clip bad = s.clip;
    bad.bone_count = s.rig.bone_count - 1;
    assert_int_equal(reach_gltf_write_file(path, &s.rig, &bad, NULL, 1, 0, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error, "bones"));
    bad = s.clip;
    bad.frame_rate = 0;
    assert_int_equal(reach_gltf_write_file(path, &s.rig, &bad, NULL, 1, 0, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    /* A rate so small that the last key's time is past float32's range. */
    bad.frame_rate = (reach_real)1e-40;
    assert_int_equal(reach_gltf_write_file(path, &s.rig, &bad, NULL, 1, 0, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error, "beyond float32's range"));
    reach_transform *x = &reach_clip_frame(&s.clip, 1)[2];
    reach_transform kept = *x;
    x->translation.y = (reach_real)NAN;
    assert_int_equal(reach_gltf_write_file(path, &s.rig, &s.clip, NULL, 1, 0, error, sizeof error),
                     REACH_ERROR_NOT_FINITE);
    assert_non_null(strstr(error, "frame 1, bone 2"));
    x->translation = kept.translation;
    x->rotation = reach_quat_make(0, 0, 0, 0);
    assert_int_equal(reach_gltf_write_file(path, &s.rig, &s.clip, NULL, 1, 0, error, sizeof error),
                     REACH_ERROR_BAD_QUATERNION);
    *x = kept;
    assert_string_equal(file_text(path), "what was there");
    assert_false(file_exists(temporary));

    char other[256];
    snprintf(other, sizeof other, "%s/walk.fbx", folder);
    assert_int_equal(reach_gltf_write_file(other, &s.rig, &s.clip, NULL, 1, 0, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error, ".gltf or .glb"));
    assert_false(file_exists(other));
    snprintf(other, sizeof other, "%s/absent/walk.gltf", folder);
    assert_int_equal(reach_gltf_write_file(other, &s.rig, &s.clip, NULL, 1, 1, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error, "cannot be written"));

    unsigned char *document = (unsigned char *)"untouched";
    size_t length = 7;
    assert_int_equal(reach_gltf_write(&s.rig, &s.clip, NULL, 1, REACH_GLTF_SEPARATE, NULL, &document, &length, NULL,
                                      NULL, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_gltf_write(&s.rig, &s.clip, NULL, -1, REACH_GLTF_BINARY, NULL, &document, &length, NULL,
                                      NULL, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_null(document);
    remove(path);
    assert_int_equal(rmdir(folder), 0);
    source_free(&s);
}

/* What `assimp info` says of a file: its whole output, or NULL when the program is not there. */
static char *assimp_info(const char *path) {
    if (system("command -v assimp > /dev/null 2>&1") != 0) return NULL;
    char command[512];
    snprintf(command, sizeof command, "assimp info '%s' 2>&1", path);
    FILE *pipe = popen(command, "r");
    assert_non_null(pipe);
    size_t capacity = 1 << 20, n = 0;
    char *text = malloc(capacity);
    size_t got;
    while ((got = fread(text + n, 1, capacity - 1 - n, pipe)) > 0)
        n += got;
    text[n] = '\0';
    int status = pclose(pipe);
    if (status != 0) fail_msg("assimp info %s failed:\n%s", path, text);
    return text;
}

/* The number after a label of `assimp info`'s summary ("Bones:              26"), or -1. */
static int info_count(const char *info, const char *label) {
    const char *at = strstr(info, label);
    int count = -1;
    if (at && sscanf(at + strlen(label), "%d", &count) != 1) count = -1;
    return count;
}

/* assimp's own reader opens what reach writes (.gltf embedded and beside, .glb): every joint is a
 * node of its scene and the animation is there. */
static void test_assimp_opens_written_files(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2567);
    char folder[] = "/tmp/reach_gltf_write_assimp_XXXXXX";
    make_folder(folder);
    for (int i = 0; i < test_scaled(6); ++i) {
        source s;
        source_make(&s, &rng, i, FRAMES);
        char path[256], error[512];
        snprintf(path, sizeof path, "%s/character.%s", folder, i % 3 == 2 ? "glb" : "gltf");
        if (reach_gltf_write_file(path, &s.rig, &s.clip, NULL, 1, i % 3 == 1, error, sizeof error) != REACH_OK)
            fail_msg("%s", error);
        char *info = assimp_info(path);
        if (!info) {
            print_message("skipped: the assimp program (Debian's assimp-utils) is not installed\n");
            remove(path);
            rmdir(folder);
            source_free(&s);
            skip();
        }
        if (info_count(info, "Animations:") != 1) fail_msg("assimp finds no animation:\n%s", info);
        if (info_count(info, "Bones:") != s.rig.bone_count) fail_msg("assimp counts other bones:\n%s", info);
        if (info_count(info, "Animation Channels:") != s.rig.bone_count)
            fail_msg("assimp finds other channels:\n%s", info);
        for (int b = 0; b < s.rig.bone_count; ++b) {
            char node[256];
            snprintf(node, sizeof node, "\u2574%s\n", s.rig.bone_names[b]); /* "├╴Hips" */
            if (!strstr(info, node)) fail_msg("assimp's node tree lacks '%s':\n%s", s.rig.bone_names[b], info);
        }
        free(info);
        remove(path);
        if (i % 3 == 1) {
            snprintf(path, sizeof path, "%s/character.bin", folder);
            remove(path);
        }
        source_free(&s);
    }
    assert_int_equal(rmdir(folder), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bvh_to_gltf_keeps_every_frame),
        cmocka_unit_test(test_times_between_frames),
        cmocka_unit_test(test_bvh_gltf_bvh),
        cmocka_unit_test(test_rest_only_and_two_clips),
        cmocka_unit_test(test_glb_layout),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_bad_input_writes_nothing),
        cmocka_unit_test(test_assimp_opens_written_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
