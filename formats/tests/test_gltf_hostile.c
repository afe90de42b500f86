/* Hostile glTF and GLB files: each is refused with a message naming what is wrong and leaves
 * the character empty; none reads outside the file's folder; one of 70 000 nodes (with as many
 * joints, channels, samplers and accessors) is read whole, in time linear in its size. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_generate.h"
#include "reach/gltf.h"
#include "test_support.h"

#define ASSET "\"asset\":{\"version\":\"2.0\"}"

static void gltf_fails(const unsigned char *data, size_t length, const char *folder, reach_status status, ...) {
    char error[512];
    reach_gltf_character c;
    memset(&c, 0xab, sizeof c);
    reach_status st = reach_gltf_read(data, length, folder, -1, 0, &c, error, sizeof error);
    if (st != status) fail_msg("status %d (%s), expected %d; message: %s", st, reach_status_string(st), status, error);
    assert_int_equal(c.rig.bone_count, 0);
    assert_null(c.rig.bone_names);
    assert_null(c.clips);
    assert_int_equal(c.clip_count, 0);
    va_list fragments;
    va_start(fragments, status);
    for (const char *f = va_arg(fragments, const char *); f; f = va_arg(fragments, const char *))
        if (!strstr(error, f)) fail_msg("message \"%s\" does not say \"%s\"", error, f);
    va_end(fragments);
}
#define GLTF_FAILS(text, status, ...)                                                                                  \
    gltf_fails((const unsigned char *)(text), strlen(text), "/tmp", status, __VA_ARGS__, (const char *)NULL)

static void test_empty(void **state) {
    (void)state;
    gltf_fails((const unsigned char *)"", 0, NULL, REACH_ERROR_INVALID_ARGUMENT, "empty", (const char *)NULL);
}

static void test_json_that_is_not_gltf(void **state) {
    (void)state;
    GLTF_FAILS("{\"nodes\":[{}]}", REACH_ERROR_INVALID_ARGUMENT, "not glTF 2.0");
    GLTF_FAILS("{\"asset\":{\"version\":\"1.0\"},\"nodes\":[{}]}", REACH_ERROR_INVALID_ARGUMENT, "not glTF 2.0");
    GLTF_FAILS("[1, 2, 3]", REACH_ERROR_INVALID_ARGUMENT, "not glTF 2.0");
    GLTF_FAILS("{\"asset\": {", REACH_ERROR_INVALID_ARGUMENT, "not JSON");
    GLTF_FAILS("{" ASSET "}", REACH_ERROR_INVALID_ARGUMENT, "no nodes");
}

static void test_node_cycles(void **state) {
    (void)state;
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"children\":[1]},{\"children\":[2]},{\"children\":[0]}]}",
               REACH_ERROR_INVALID_ARGUMENT, "a node cycle");
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"children\":[0]}]}", REACH_ERROR_INVALID_ARGUMENT, "nodes[0] is its own child");
}

static void test_child_with_two_parents(void **state) {
    (void)state;
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"children\":[2]},{\"children\":[2]},{}]}", REACH_ERROR_INVALID_ARGUMENT,
               "nodes[2] is a child of two parents (nodes 0 and 1)");
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"children\":[5]}]}", REACH_ERROR_INVALID_ARGUMENT, "nodes[0]",
               "a child that is no node");
}

#define ANIMATED(accessor_count, view_length, buffer)                                                                  \
    "{" ASSET ",\"nodes\":[{\"name\":\"a\"}],\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,"    \
    "\"path\":\"translation\"}}],\"samplers\":[{\"input\":0,\"output\":1}]}],\"accessors\":[{\"bufferView\":0,"        \
    "\"componentType\":5126,\"count\":" accessor_count ",\"type\":\"SCALAR\"},{\"bufferView\":0,\"componentType\":"    \
    "5126,\"count\":1,\"type\":\"VEC3\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":" view_length "}],"            \
    "\"buffers\":[" buffer "]}"
/* 16 zero bytes in base64. */
#define ZEROS16 "{\"byteLength\":16,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAAAAAA==\"}"

static void test_accessor_past_its_buffer(void **state) {
    (void)state;
    /* The accessible case first, so the failures below are the sizes' doing. */
    const char *fine = ANIMATED("1", "16", ZEROS16);
    char error[256];
    reach_gltf_character c;
    reach_status st = reach_gltf_read((const unsigned char *)fine, strlen(fine), NULL, -1, 0, &c, error, sizeof error);
    if (st != REACH_OK) fail_msg("%s", error);
    assert_int_equal(c.clip_count, 1);
    reach_gltf_free(&c);
    GLTF_FAILS(ANIMATED("5", "16", ZEROS16), REACH_ERROR_INVALID_ARGUMENT, "accessors[0]", "runs past its bufferView");
    GLTF_FAILS(ANIMATED("1", "17", ZEROS16), REACH_ERROR_INVALID_ARGUMENT, "runs past its buffer");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":32,\"uri\":\"data:application/octet-stream;base64,AAAA\"}"),
               REACH_ERROR_INVALID_ARGUMENT, "byteLength 32, but only 3 bytes");
    GLTF_FAILS(ANIMATED("100000000000", "16", ZEROS16), REACH_ERROR_INVALID_ARGUMENT, "\"count\" is not an integer");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"data:application/octet-stream;base64,!!!!\"}"),
               REACH_ERROR_INVALID_ARGUMENT, "not valid base64");
}

static void test_uri_outside_the_folder(void **state) {
    (void)state;
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"../secret.bin\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "buffers[0]", "refused");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"data/../../secret.bin\"}"),
               REACH_ERROR_INVALID_ARGUMENT, "refused");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"/etc/passwd\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "refused");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"file:///etc/passwd\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "refused");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"C:\\\\secret.bin\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "refused");
}

/* Percent escapes are decoded before the folder check: an escaped '..' or '/' is refused like the
 * plain one; a malformed escape or an escaped NUL (which would cut the name short) is an error. */
static void test_escaped_uri(void **state) {
    (void)state;
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"%2e%2E/secret.bin\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "refused");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"%2Fetc%2Fpasswd\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "refused");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"data%2F..%2F..%2Fsecret.bin\"}"),
               REACH_ERROR_INVALID_ARGUMENT, "refused");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"walk%00.bin\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "percent escape");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"walk%zz.bin\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "percent escape");
    GLTF_FAILS(ANIMATED("1", "16", "{\"byteLength\":16,\"uri\":\"walk%4\"}"), REACH_ERROR_INVALID_ARGUMENT,
               "percent escape");
}

static size_t glb(unsigned char *out, const char *json, uint32_t declared_total, uint32_t declared_json) {
    size_t n = strlen(json);
    uint32_t header[5] = {0x46546C67u, 2, declared_total, declared_json, 0x4E4F534Au};
    memcpy(out, header, sizeof header);
    memcpy(out + 20, json, n);
    return 20 + n;
}

static void test_truncated_glb(void **state) {
    (void)state;
    const char *json = "{" ASSET ",\"nodes\":[{\"name\":\"a\"}]}";
    unsigned char data[512];
    size_t n = glb(data, json, (uint32_t)(20 + strlen(json)), (uint32_t)strlen(json));
    char error[256];
    reach_gltf_character c;
    assert_int_equal(reach_gltf_read(data, n, NULL, -1, 0, &c, error, sizeof error), REACH_OK);
    assert_int_equal(c.rig.bone_count, 1);
    reach_gltf_free(&c);
    for (size_t cut = 4; cut < n; ++cut) {
        reach_status st = reach_gltf_read(data, cut, NULL, -1, 0, &c, error, sizeof error);
        if (st == REACH_OK) fail_msg("a GLB cut at byte %zu was read", cut);
        assert_null(c.rig.bone_names);
    }
    gltf_fails(data, 12, NULL, REACH_ERROR_INVALID_ARGUMENT, "shorter than its header", (const char *)NULL);
}

static void test_glb_chunk_lengths_past_the_end(void **state) {
    (void)state;
    const char *json = "{" ASSET ",\"nodes\":[{\"name\":\"a\"}]}";
    unsigned char data[512];
    size_t n = glb(data, json, (uint32_t)(20 + strlen(json)), 0xfffffff0u);
    gltf_fails(data, n, NULL, REACH_ERROR_INVALID_ARGUMENT, "JSON chunk runs past the end", (const char *)NULL);
    n = glb(data, json, 0xfffffff0u, (uint32_t)strlen(json));
    gltf_fails(data, n, NULL, REACH_ERROR_INVALID_ARGUMENT, "length is past the end", (const char *)NULL);
    /* A binary chunk that claims more than is there. */
    n = glb(data, json, 0, (uint32_t)strlen(json));
    while (n % 4)
        data[n++] = ' ';
    uint32_t chunk[2] = {4096, 0x004E4942u};
    memcpy(data + n, chunk, sizeof chunk);
    n += sizeof chunk;
    memset(data + n, 0, 8);
    n += 8;
    uint32_t total = (uint32_t)n;
    memcpy(data + 8, &total, 4);
    gltf_fails(data, n, NULL, REACH_ERROR_INVALID_ARGUMENT, "binary chunk runs past the end", (const char *)NULL);
}

static void test_bad_numbers_and_scales(void **state) {
    (void)state;
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"translation\":[1,2]}]}", REACH_ERROR_INVALID_ARGUMENT, "nodes[0]",
               "\"translation\" is not an array of 3 numbers");
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"rotation\":[0,0,0,0]}]}", REACH_ERROR_INVALID_ARGUMENT, "zero length");
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"children\":[1],\"scale\":[1,2,1]},{\"translation\":[0,1,0]}]}",
               REACH_ERROR_INVALID_ARGUMENT, "nodes[0]", "cannot be folded");
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"children\":[1],\"scale\":[-1,-1,-1]},{}]}", REACH_ERROR_INVALID_ARGUMENT,
               "cannot be folded");
    GLTF_FAILS("{" ASSET ",\"nodes\":[{\"matrix\":[1,0,0,0,1,1,0,0,0,0,1,0,0,0,0,1]}]}", REACH_ERROR_INVALID_ARGUMENT,
               "shear");
    /* A non-uniform scale on a leaf moves nothing: read, and dropped. */
    const char *leaf = "{" ASSET ",\"nodes\":[{\"children\":[1]},{\"scale\":[1,2,3]}]}";
    reach_gltf_character c;
    char error[256];
    assert_int_equal(reach_gltf_read((const unsigned char *)leaf, strlen(leaf), NULL, -1, 0, &c, error, sizeof error),
                     REACH_OK);
    reach_gltf_free(&c);
}

/* The many-node file: node 0 the root, its children the odd nodes (listed from the last), each
 * odd node the parent of the even node after it. Node i sits at (i, 1, -i) and its animation
 * moves it to (i, 2 + f, i) at key f. */
#define MANY_NODES 70000
#define MANY_KEYS  2

static int many_parent(int node) { return node == 0 ? -1 : node % 2 ? 0 : node - 1; }

/* A GLB of MANY_NODES nodes, all joints of a skin (inverse binds: translations by the node's
 * index), each with its own translation channel, sampler and output accessor. */
static gg_bytes many_node_glb(void) {
    gg_bytes json = {0}, bin = {0};
    gg_printf(&json, "{" ASSET ",\"nodes\":[");
    for (int i = 0; i < MANY_NODES; ++i) {
        gg_printf(&json, "%s{\"name\":\"n%d\",\"translation\":[%d,1,%d]", i ? "," : "", i, i, -i);
        if (i == 0) {
            gg_printf(&json, ",\"children\":[");
            for (int c = (MANY_NODES - 1) | 1; c > 0; c -= 2)
                if (c < MANY_NODES) gg_printf(&json, "%s%d", c == ((MANY_NODES - 1) | 1) ? "" : ",", c);
            gg_printf(&json, "]");
        } else if (i % 2 && i + 1 < MANY_NODES) {
            gg_printf(&json, ",\"children\":[%d]", i + 1);
        }
        gg_printf(&json, "}");
    }
    gg_printf(&json, "],\"skins\":[{\"inverseBindMatrices\":%d,\"joints\":[", MANY_NODES + 1);
    for (int i = 0; i < MANY_NODES; ++i)
        gg_printf(&json, "%s%d", i ? "," : "", i);
    gg_printf(&json, "]}],\"animations\":[{\"channels\":[");
    for (int i = 0; i < MANY_NODES; ++i)
        gg_printf(&json, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"translation\"}}", i ? "," : "", i, i);
    gg_printf(&json, "],\"samplers\":[");
    for (int i = 0; i < MANY_NODES; ++i)
        gg_printf(&json, "%s{\"input\":0,\"output\":%d}", i ? "," : "", i + 1);
    /* The binary: key times, each node's keys, the inverse binds. */
    gg_printf(&json,
              "]}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%d,\"type\":"
              "\"SCALAR\"}",
              MANY_KEYS);
    for (int k = 0; k < MANY_KEYS; ++k)
        gg_float(&bin, k * 0.5);
    for (int i = 0; i < MANY_NODES; ++i) {
        gg_printf(&json,
                  ",{\"bufferView\":0,\"byteOffset\":%zu,\"componentType\":5126,\"count\":%d,\"type\":"
                  "\"VEC3\"}",
                  bin.length, MANY_KEYS);
        for (int k = 0; k < MANY_KEYS; ++k) {
            gg_float(&bin, i);
            gg_float(&bin, 2 + k);
            gg_float(&bin, i);
        }
    }
    gg_printf(&json,
              ",{\"bufferView\":0,\"byteOffset\":%zu,\"componentType\":5126,\"count\":%d,\"type\":"
              "\"MAT4\"}",
              bin.length, MANY_NODES);
    for (int i = 0; i < MANY_NODES; ++i)
        for (int k = 0; k < 16; ++k)
            gg_float(&bin, k == 12 ? i : k % 5 == 0);
    gg_printf(&json, "],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu}],\"buffers\":[{\"byteLength\":%zu}]}",
              bin.length, bin.length);
    return gg_glb(json, bin);
}

/* Every lookup by index (nodes, children, joints, channels, samplers, accessors) once walked a
 * linked list, so a file this size took about a minute; now it is read in the test's normal run
 * time, and every bone is checked: its node, name, parent, rest, inverse bind and keys. */
static void test_many_nodes(void **state) {
    (void)state;
    gg_bytes glb = many_node_glb();
    reach_gltf_character c;
    char error[512];
    reach_status st = reach_gltf_read(glb.data, glb.length, NULL, -1, REACH_GLTF_KEY_RATE, &c, error, sizeof error);
    free(glb.data);
    if (st != REACH_OK) fail_msg("%s", error);
    assert_int_equal(c.rig.bone_count, MANY_NODES);
    assert_int_equal(c.clip_count, 1);
    assert_int_equal(c.clips[0].frame_count, MANY_KEYS);
    /* Depth first, children in list order: the root, then each odd node from the last with its child. */
    int bone = 1;
    assert_int_equal(c.node_of_bone[0], 0);
    for (int odd = (MANY_NODES - 1) | 1; odd > 0; odd -= 2) {
        if (odd >= MANY_NODES) continue;
        assert_int_equal(c.node_of_bone[bone++], odd);
        if (odd + 1 < MANY_NODES) assert_int_equal(c.node_of_bone[bone++], odd + 1);
    }
    assert_int_equal(bone, MANY_NODES);
    for (int b = 0; b < MANY_NODES; ++b) {
        int node = c.node_of_bone[b];
        char name[32];
        snprintf(name, sizeof name, "n%d", node);
        assert_string_equal(c.rig.bone_names[b], name);
        int parent = c.rig.parents[b];
        assert_int_equal(parent < 0 ? -1 : c.node_of_bone[parent], many_parent(node));
        ASSERT_VEC3_NEAR(c.rig.rest[b].translation, reach_vec3_make((reach_real)node, 1, (reach_real)-node), 0,
                         "the rest translation");
        for (int k = 0; k < 16; ++k)
            assert_true(c.inverse_bind[b * 16 + k] == (reach_real)(k == 12 ? node : k % 5 == 0));
        for (int f = 0; f < MANY_KEYS; ++f)
            ASSERT_VEC3_NEAR(reach_clip_frame(&c.clips[0], f)[b].translation,
                             reach_vec3_make((reach_real)node, (reach_real)(2 + f), (reach_real)node), 0,
                             "the keyed translation");
    }
    reach_gltf_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_json_that_is_not_gltf),
        cmocka_unit_test(test_node_cycles),
        cmocka_unit_test(test_child_with_two_parents),
        cmocka_unit_test(test_accessor_past_its_buffer),
        cmocka_unit_test(test_uri_outside_the_folder),
        cmocka_unit_test(test_escaped_uri),
        cmocka_unit_test(test_truncated_glb),
        cmocka_unit_test(test_glb_chunk_lengths_past_the_end),
        cmocka_unit_test(test_bad_numbers_and_scales),
        cmocka_unit_test(test_many_nodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
