/* Hostile FBX files, each named, each a clean error with the character left empty: an empty file,
 * files that are not FBX (BVH, glTF, OBJ text, random bytes), the binary header followed by
 * garbage or by nothing, a valid file truncated at many places, an infinite coordinate, the
 * binary FBX assimp 5.2 writes (which it cannot read back), and a missing file. */
#include <unistd.h>

#include "fbx_generate.h"
#include "reach/fbx.h"

static char folder[] = "/tmp/reach_fbx_hostile_XXXXXX";
static char *valid; /* an ASCII FBX assimp wrote from skinned_gltf */
static size_t valid_length;

static int setup(void **state) {
    (void)state;
    if (!mkdtemp(folder)) return -1;
    valid = skinned_arm_fbx(folder, &valid_length);
    return valid ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    free(valid);
    return rmdir(folder);
}

/* The bytes are refused with a message containing `expected`, the character left empty. */
static void refused(const void *data, size_t length, const char *expected) {
    reach_fbx_character c;
    memset(&c, 0x5a, sizeof c);
    char error[512];
    reach_status st = reach_fbx_read(data, length, 0, &c, error, sizeof error);
    if (st == REACH_OK) fail_msg("read, expected an error containing '%s'", expected);
    if (!strstr(error, expected)) fail_msg("error '%s' does not contain '%s'", error, expected);
    assert_int_equal(c.rig.bone_count, 0);
    assert_null(c.rig.bone_names);
    assert_null(c.clips);
    assert_int_equal(c.clip_count, 0);
}

static void test_the_valid_file_reads(void **state) {
    (void)state;
    reach_fbx_character c;
    char error[512];
    if (reach_fbx_read((const unsigned char *)valid, valid_length, 0, &c, error, sizeof error) != REACH_OK)
        fail_msg("%s", error);
    assert_int_equal(c.rig.bone_count, 4);
    reach_fbx_free(&c);
}

static void test_empty(void **state) {
    (void)state;
    refused("", 0, "an empty file");
}

static void test_not_fbx(void **state) {
    (void)state;
    const char *bvh = "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n}\n"
                      "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n";
    refused(bvh, strlen(bvh), "not an FBX file");
    refused(skinned_gltf, strlen(skinned_gltf), "not an FBX file");
    const char *obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    refused(obj, strlen(obj), "not an FBX file");
}

static void test_garbage(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2570);
    unsigned char bytes[4096];
    for (int i = 0; i < test_scaled(200); ++i) {
        size_t length = 1 + test_rng_next(&rng) % sizeof bytes;
        for (size_t k = 0; k < length; ++k)
            bytes[k] = (unsigned char)test_rng_next(&rng);
        refused(bytes, length, "not an FBX file");
    }
}

/* The binary magic, then random bytes: assimp's tokenizer refuses them. */
static void test_binary_header_then_garbage(void **state) {
    (void)state;
    static const char magic[] = "Kaydara FBX Binary  \0\x1a\0\xe8\x1c\0\0";
    test_rng rng = test_rng_make(2571);
    unsigned char bytes[2048];
    refused(magic, sizeof magic - 1, "assimp cannot read it");
    refused(magic, 21, "assimp cannot read it");
    for (int i = 0; i < test_scaled(100); ++i) {
        size_t length = sizeof magic - 1 + test_rng_next(&rng) % (sizeof bytes - sizeof magic);
        memcpy(bytes, magic, sizeof magic - 1);
        for (size_t k = sizeof magic - 1; k < length; ++k)
            bytes[k] = (unsigned char)test_rng_next(&rng);
        refused(bytes, length, "assimp cannot read it");
    }
}

/* Cut at a hundred places through the file, up to its last closing brace: every cut leaves a
 * brace open. Cut before its FBXHeaderExtension, what is left (comments) is not yet FBX. */
static void test_truncated(void **state) {
    (void)state;
    size_t last_brace = valid_length;
    while (last_brace > 0 && valid[last_brace - 1] != '}')
        --last_brace;
    const char *header = strstr(valid, "FBXHeaderExtension");
    assert_non_null(header);
    size_t header_end = (size_t)(header - valid) + strlen("FBXHeaderExtension");
    int cuts = test_scaled(100) < 10 ? 10 : test_scaled(100);
    for (int k = 0; k < cuts; ++k) {
        size_t length = 1 + (last_brace - 2) * (size_t)k / (size_t)cuts;
        refused(valid, length, length < header_end ? "not an FBX file" : "assimp cannot read it");
    }
}

static void test_infinite_coordinate(void **state) {
    (void)state;
    const char *place = "\"Lcl Translation\", \"Lcl Translation\", \"\", \"A\", 0, 150, 0";
    char *at = strstr(valid, place);
    if (!at) fail_msg("the shoulder's translation is not where the test looks");
    char *changed = malloc(valid_length + 8);
    size_t head = (size_t)(at - valid) + strlen(place) - 6;
    memcpy(changed, valid, head);
    memcpy(changed + head, " 1e999", 6); /* "0, 150" becomes "0, 1e999": 2 bytes longer */
    memcpy(changed + head + 6, valid + head + 4, valid_length - head - 4);
    refused(changed, valid_length + 2, "not finite");
    free(changed);
}

/* assimp 5.2's own binary FBX: its reader refuses what its writer wrote, cleanly. */
static void test_binary_fbx_assimp_cannot_read(void **state) {
    (void)state;
    char gltf[512], fbx[512];
    snprintf(gltf, sizeof gltf, "%s/binary.gltf", folder);
    snprintf(fbx, sizeof fbx, "%s/binary.fbx", folder);
    write_bytes(gltf, skinned_gltf, strlen(skinned_gltf));
    const struct aiScene *scene = aiImportFile(gltf, 0);
    assert_non_null(scene);
    assert_int_equal(aiExportScene(scene, "fbx", fbx, 0), aiReturn_SUCCESS);
    aiReleaseImport(scene);
    reach_fbx_character c;
    char error[512];
    reach_status st = reach_fbx_read_file(fbx, 0, &c, error, sizeof error);
    if (st == REACH_OK) {
        /* A later assimp reads it: then it must be the arm. */
        assert_int_equal(c.rig.bone_count, 4);
        reach_fbx_free(&c);
    } else {
        assert_non_null(strstr(error, "binary.fbx: assimp cannot read it"));
        assert_int_equal(c.rig.bone_count, 0);
    }
    remove(gltf);
    remove(fbx);
}

static void test_missing_file_and_bad_arguments(void **state) {
    (void)state;
    reach_fbx_character c;
    char error[512];
    assert_int_equal(reach_fbx_read_file("/nonexistent/hero.fbx", 0, &c, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(error, "/nonexistent/hero.fbx"));
    assert_int_equal(reach_fbx_read((const unsigned char *)valid, valid_length, -1, &c, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_fbx_read(NULL, 5, 0, &c, error, sizeof error), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_fbx_read((const unsigned char *)valid, valid_length, 0, NULL, error, sizeof error),
                     REACH_ERROR_INVALID_ARGUMENT);
    reach_fbx_free(NULL);
    assert_true(reach_fbx_available());
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_valid_file_reads),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_not_fbx),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_binary_header_then_garbage),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_infinite_coordinate),
        cmocka_unit_test(test_binary_fbx_assimp_cannot_read),
        cmocka_unit_test(test_missing_file_and_bad_arguments),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
