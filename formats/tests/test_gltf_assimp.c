/* glTF read by reach against assimp (aiImportFile, no post-processing), an independent reader:
 * generated characters as .gltf with a data: URI and as .glb; every bone's world position at rest
 * against assimp's node transforms (scales and all), to 1e-6 of the height, and the animation's
 * channels on the same nodes. */
#include <assimp/cimport.h>
#include <assimp/scene.h>

#include "assimp_nodes.h"
#include <unistd.h>

#include "gltf_generate.h"
#include "reach/gltf.h"

#ifdef REACH_DOUBLE
#define HEIGHT_TOL 1e-6
#else
#define HEIGHT_TOL 1e-5
#endif

/* assimp's world matrix of a node: its transforms multiplied up to the root. */
static void assimp_world_position(const struct aiNode *node, double *p) {
    double m[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
    for (const struct aiNode *at = node; at; at = at->mParent) {
        const struct aiMatrix4x4 *t = &at->mTransformation;
        double a[3][4] = {{t->a1, t->a2, t->a3, t->a4}, {t->b1, t->b2, t->b3, t->b4}, {t->c1, t->c2, t->c3, t->c4}};
        double out[3][4];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                out[r][c] = a[r][0] * m[0][c] + a[r][1] * m[1][c] + a[r][2] * m[2][c] + (c == 3 ? a[r][3] : 0);
        memcpy(m, out, sizeof m);
    }
    for (int r = 0; r < 3; ++r)
        p[r] = m[r][3];
}

static void compare(const char *path, const gg_file *g) {
    reach_gltf_character c;
    char error[512];
    if (reach_gltf_read_file(path, -1, 0, &c, error, sizeof error) != REACH_OK) fail_msg("%s", error);
    const struct aiScene *scene = aiImportFile(path, 0);
    if (!scene) {
        fail_msg("assimp cannot read %s: %s", path, aiGetErrorString());
        return;
    }
    reach_transform world[GG_NODES];
    reach_forward_kinematics(&c.rig.skeleton, c.rig.rest, world);
    int compared = 0;
    for (int b = 0; b < c.rig.bone_count; ++b) {
        if (!g->nodes[c.node_of_bone[b]].name[0]) continue; /* assimp names unnamed nodes its own way */
        const struct aiNode *node = assimp_find_node(scene->mRootNode, c.rig.bone_names[b]);
        if (!node) {
            fail_msg("assimp has no node '%s'", c.rig.bone_names[b]);
            return;
        }
        double p[3];
        assimp_world_position(node, p);
        ASSERT_VEC3_NEAR(world[b].translation, reach_vec3_make((reach_real)p[0], (reach_real)p[1], (reach_real)p[2]),
                         HEIGHT_TOL * g->height, c.rig.bone_names[b]);
        ++compared;
    }
    assert_true(compared >= c.rig.bone_count / 2);
    assert_int_equal(scene->mNumAnimations, 1);
    const struct aiAnimation *animation = scene->mAnimations[0];
    for (unsigned k = 0; k < animation->mNumChannels; ++k) {
        const char *name = animation->mChannels[k]->mNodeName.data;
        int named = 0;
        for (int n = 0; n < GG_NODES; ++n)
            named |= strcmp(g->nodes[n].name, name) == 0;
        if (named) assert_true(reach_rig_find_bone(&c.rig, name) >= 0);
    }
    aiReleaseImport(scene);
    reach_gltf_free(&c);
}

static void test_against_assimp(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2540);
    char folder[] = "/tmp/reach_gltf_assimp_XXXXXX";
    assert_non_null(mkdtemp(folder));
    char path[256];
    for (int i = 0; i < test_scaled(40); ++i) {
        gg_file g;
        gg_make(&g, &rng);
        gg_kind kind = i % 2 ? GG_GLB : GG_DATA_URI;
        snprintf(path, sizeof path, "%s/character.%s", folder, kind == GG_GLB ? "glb" : "gltf");
        gg_bytes file = gg_write(&g, kind, NULL, NULL);
        FILE *out = fopen(path, "wb");
        fwrite(file.data, 1, file.length, out);
        fclose(out);
        free(file.data);
        compare(path, &g);
        remove(path);
    }
    rmdir(folder);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_assimp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
