/* BVH read by reach against assimp, an independent reader (aiImportFile, no post-processing):
 * the rest pose from assimp's node transforms, and chosen frames from its animation keys, as
 * world positions of every joint and End Site, to 1e-6 of the height. The real files of
 * ../shared/data/bvh (skipped, saying so, when absent) and generated humanoids with random
 * channel orders and position channels. */
#include <assimp/cimport.h>
#include <assimp/scene.h>

#include "assimp_nodes.h"
#include <unistd.h>

#include "bvh_generate.h"
#include "reach/bvh.h"

#define HEIGHT_TOL 1e-6

typedef struct matrix4 {
    double m[3][4];
} matrix4;

static matrix4 matrix_from_parts(double rotation[3][3], const double translation[3]) {
    matrix4 out;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c)
            out.m[r][c] = rotation[r][c];
        out.m[r][3] = translation[r];
    }
    return out;
}

static matrix4 matrix_mul(matrix4 a, matrix4 b) {
    matrix4 out;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c)
            out.m[r][c] =
                a.m[r][0] * b.m[0][c] + a.m[r][1] * b.m[1][c] + a.m[r][2] * b.m[2][c] + (c == 3 ? a.m[r][3] : 0);
    return out;
}

static matrix4 node_matrix(const struct aiNode *node) {
    const struct aiMatrix4x4 *t = &node->mTransformation;
    double rotation[3][3] = {{t->a1, t->a2, t->a3}, {t->b1, t->b2, t->b3}, {t->c1, t->c2, t->c3}};
    double translation[3] = {t->a4, t->b4, t->c4};
    return matrix_from_parts(rotation, translation);
}

static const struct aiNodeAnim *channel_of(const struct aiAnimation *animation, const struct aiNode *node) {
    for (unsigned c = 0; c < animation->mNumChannels; ++c)
        if (strcmp(animation->mChannels[c]->mNodeName.data, node->mName.data) == 0) return animation->mChannels[c];
    return NULL;
}

/* The node's local matrix at frame f from the animation's keys (f < 0: the node's transform). */
static matrix4 local_at(const struct aiScene *scene, const struct aiNode *node, int f) {
    const struct aiNodeAnim *channel = f >= 0 && scene->mNumAnimations ? channel_of(scene->mAnimations[0], node) : NULL;
    if (!channel) return node_matrix(node);
    const struct aiVectorKey *p =
        &channel->mPositionKeys[(unsigned)f < channel->mNumPositionKeys ? (unsigned)f : channel->mNumPositionKeys - 1];
    assert_true((unsigned)f < channel->mNumRotationKeys);
    const struct aiQuatKey *q = &channel->mRotationKeys[f];
    assert_true(q->mTime == (double)f || channel->mNumRotationKeys == 1);
    double w = q->mValue.w, x = q->mValue.x, y = q->mValue.y, z = q->mValue.z;
    double rotation[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                             {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                             {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    double translation[3] = {p->mValue.x, p->mValue.y, p->mValue.z};
    return matrix_from_parts(rotation, translation);
}

static matrix4 world_at(const struct aiScene *scene, const struct aiNode *node, int f) {
    matrix4 local = local_at(scene, node, f);
    return node->mParent ? matrix_mul(world_at(scene, node->mParent, f), local) : local;
}

/* assimp names an End Site `EndSite_<parent>`; reach names it `<parent>_end`. */
static const struct aiNode *node_of_bone(const struct aiScene *scene, const reach_rig *rig, int bone) {
    char name[2048];
    if (rig->joints[bone].type == REACH_JOINT_FIXED)
        snprintf(name, sizeof name, "EndSite_%s", rig->bone_names[rig->parents[bone]]);
    else
        snprintf(name, sizeof name, "%s", rig->bone_names[bone]);
    return assimp_find_node(scene->mRootNode, name);
}

static void compare_with_assimp(const char *path) {
    reach_rig rig;
    reach_clip clip;
    char error[512];
    reach_status st = reach_bvh_read_file(path, &rig, &clip, error, sizeof error);
    if (st != REACH_OK) fail_msg("%s", error);
    const struct aiScene *scene = aiImportFile(path, 0);
    if (!scene) {
        fail_msg("assimp cannot read %s: %s", path, aiGetErrorString());
        return;
    }
    assert_int_equal(scene->mNumAnimations, 1);
    reach_transform *world = malloc((size_t)rig.bone_count * sizeof *world);
    reach_transform *rest = malloc((size_t)rig.bone_count * sizeof *rest);
    reach_pose_rest(&rig.skeleton, rest);
    reach_forward_kinematics(&rig.skeleton, rest, world);
    double low = 0, high = 0;
    for (int b = 0; b < rig.bone_count; ++b) {
        low = b == 0 || world[b].translation.y < low ? (double)world[b].translation.y : low;
        high = b == 0 || world[b].translation.y > high ? (double)world[b].translation.y : high;
    }
    double tolerance = HEIGHT_TOL * (high - low);
    const int chosen[] = {-1, 0, 1, clip.frame_count / 3, clip.frame_count / 2, clip.frame_count - 1};
    for (size_t k = 0; k < sizeof chosen / sizeof chosen[0]; ++k) {
        int f = chosen[k];
        if (f >= clip.frame_count) continue; /* a one-frame clip has no frame 1 */
        reach_forward_kinematics(&rig.skeleton, f < 0 ? rest : reach_clip_frame(&clip, f), world);
        for (int b = 0; b < rig.bone_count; ++b) {
            const struct aiNode *node = node_of_bone(scene, &rig, b);
            if (!node) {
                fail_msg("assimp has no node for bone '%s'", rig.bone_names[b]);
                return;
            }
            matrix4 expected = world_at(scene, node, f);
            char what[256];
            snprintf(what, sizeof what, "%s, frame %d", rig.bone_names[b], f);
            ASSERT_VEC3_NEAR(world[b].translation,
                             reach_vec3_make((reach_real)expected.m[0][3], (reach_real)expected.m[1][3],
                                             (reach_real)expected.m[2][3]),
                             tolerance, what);
        }
    }
    free(world);
    free(rest);
    aiReleaseImport(scene);
    reach_rig_free(&rig);
    reach_clip_free(&clip);
}

static void compare_real(const char *name) {
    char path[1024];
    shared_bvh_path(path, sizeof path, name);
    compare_with_assimp(path);
}

static void test_cmu_walk(void **state) {
    (void)state;
    compare_real("cmu_12_01_walk.bvh");
}

static void test_pybvh_standard_skeleton(void **state) {
    (void)state;
    compare_real("pybvh_standard_skeleton.bvh");
}

static void test_pybvh_test2(void **state) {
    (void)state;
    compare_real("pybvh_test2.bvh");
}

static void test_generated_humanoids(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2510);
    char path[] = "/tmp/reach_bvh_assimp_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (int i = 0; i < test_scaled(30); ++i) {
        gen_bvh g;
        gen_make(&g, &rng, (gen_names)(i % 3), 8);
        char *text = gen_text(&g, 0, i % 2);
        FILE *file = fopen(path, "wb");
        fputs(text, file);
        fclose(file);
        compare_with_assimp(path);
        free(text);
        gen_free(&g);
    }
    remove(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cmu_walk),
        cmocka_unit_test(test_pybvh_standard_skeleton),
        cmocka_unit_test(test_pybvh_test2),
        cmocka_unit_test(test_generated_humanoids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
