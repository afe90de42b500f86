/* glTF read by reach against assimp (aiImportFile, no post-processing), an independent reader:
 * generated characters as .gltf with a data: URI and as .glb; every bone's world position at rest
 * against assimp's node transforms (scales and all), to 1e-6 of the height, and at every frame of
 * the animation against assimp's keys (its node animations' translation, rotation and scale keys,
 * interpolated as the file's samplers say: LINEAR, or STEP) on the same nodes. */
#include <math.h>

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

static double key_time(const struct aiNodeAnim *anim, int path, unsigned k) {
    return path == 0   ? anim->mPositionKeys[k].mTime
           : path == 1 ? anim->mRotationKeys[k].mTime
                       : anim->mScalingKeys[k].mTime;
}

/* A key's value: x, y, z (and w for a rotation). */
static void key_value(const struct aiNodeAnim *anim, int path, unsigned k, double *out) {
    if (path == 1) {
        const struct aiQuaternion *q = &anim->mRotationKeys[k].mValue;
        out[0] = q->x, out[1] = q->y, out[2] = q->z, out[3] = q->w;
        return;
    }
    const struct aiVector3D *v = path == 0 ? &anim->mPositionKeys[k].mValue : &anim->mScalingKeys[k].mValue;
    out[0] = v->x, out[1] = v->y, out[2] = v->z;
}

/* A node animation's value at `ticks`: keys held before the first and after the last, STEP holds
 * a key until the next, LINEAR interpolates (rotations slerped the short way). A vector key's or
 * a quaternion key's value is read through `value`. */
static void sample_keys(const struct aiNodeAnim *anim, int path, double ticks, int step, double *out) {
    unsigned count = path == 0 ? anim->mNumPositionKeys : path == 1 ? anim->mNumRotationKeys : anim->mNumScalingKeys;
    double a[4], b[4];
    unsigned hi = 0;
    while (hi < count && key_time(anim, path, hi) <= ticks)
        ++hi;
    /* A time within a float32 key time's rounding is that key (as reach's reader takes it): the
     * clip's frame times are doubles, the file's key times floats. */
    if (hi < count && key_time(anim, path, hi) - ticks <= key_time(anim, path, hi) * 0x1p-23) ++hi;
    if (hi == 0 || hi == count || step) {
        key_value(anim, path, hi == 0 ? 0 : hi - 1, out);
        return;
    }
    key_value(anim, path, hi - 1, a);
    key_value(anim, path, hi, b);
    double t = (ticks - key_time(anim, path, hi - 1)) / (key_time(anim, path, hi) - key_time(anim, path, hi - 1));
    if (path != 1) {
        for (int k = 0; k < 3; ++k)
            out[k] = a[k] + (b[k] - a[k]) * t;
        return;
    }
    gg_slerp(a, b, t, out);
}

/* Whether the generator's sampler on this assimp node's path is STEP: the node found by its name,
 * or by assimp's name for an unnamed node ("nodes[<index>]"). */
static int is_step(const gg_file *g, const char *name, int path) {
    for (int c = 0; c < g->channel_count; ++c) {
        int n = g->channels[c].node;
        char fallback[32];
        snprintf(fallback, sizeof fallback, "nodes[%d]", n);
        if (g->channels[c].path == path && strcmp(g->nodes[n].name[0] ? g->nodes[n].name : fallback, name) == 0)
            return g->channels[c].step;
    }
    return 0;
}

/* assimp's local 3×4 transform of a node at `ticks`: its animation's keys where it has some (the
 * node's own translation, rotation or scale for a path without keys), else (or when ticks < 0)
 * its transform. */
static void assimp_local(const struct aiScene *scene, const gg_file *g, const struct aiNode *node, double ticks,
                         double m[3][4]) {
    const struct aiMatrix4x4 *t = &node->mTransformation;
    double rest[3][4] = {{t->a1, t->a2, t->a3, t->a4}, {t->b1, t->b2, t->b3, t->b4}, {t->c1, t->c2, t->c3, t->c4}};
    memcpy(m, rest, sizeof rest);
    const struct aiAnimation *animation = scene->mAnimations[0];
    const struct aiNodeAnim *anim = NULL;
    for (unsigned k = 0; k < animation->mNumChannels && !anim; ++k)
        if (strcmp(animation->mChannels[k]->mNodeName.data, node->mName.data) == 0) anim = animation->mChannels[k];
    if (!anim || ticks < 0) return;
    struct aiVector3D scaling, position;
    struct aiQuaternion rotation;
    aiDecomposeMatrix(t, &scaling, &rotation, &position);
    double p[4] = {position.x, position.y, position.z, 0}, q[4] = {rotation.x, rotation.y, rotation.z, rotation.w};
    double s[4] = {scaling.x, scaling.y, scaling.z, 0};
    if (anim->mNumPositionKeys) sample_keys(anim, 0, ticks, is_step(g, node->mName.data, 0), p);
    if (anim->mNumRotationKeys) sample_keys(anim, 1, ticks, is_step(g, node->mName.data, 1), q);
    if (anim->mNumScalingKeys) sample_keys(anim, 2, ticks, is_step(g, node->mName.data, 2), s);
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    double x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b)
            m[a][b] = r[a][b] * s[b];
        m[a][3] = p[a];
    }
}

/* assimp's world position of a node at `ticks` (< 0: at rest): the local transforms multiplied
 * up to the root. */
static void assimp_animated_position(const struct aiScene *scene, const gg_file *g, const struct aiNode *node,
                                     double ticks, double *p) {
    double m[3][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
    for (const struct aiNode *at = node; at; at = at->mParent) {
        double a[3][4], out[3][4];
        assimp_local(scene, g, at, ticks, a);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                out[r][c] = a[r][0] * m[0][c] + a[r][1] * m[1][c] + a[r][2] * m[2][c] + (c == 3 ? a[r][3] : 0);
        memcpy(m, out, sizeof m);
    }
    for (int r = 0; r < 3; ++r)
        p[r] = m[r][3];
}

/* Every frame of reach's clip (sampled at 30 per second) against assimp's keys at that time. */
static void compare_frames(const struct aiScene *scene, const reach_gltf_character *c, const gg_file *g) {
    const struct aiAnimation *animation = scene->mAnimations[0];
    double ticks_per_second = animation->mTicksPerSecond > 0 ? animation->mTicksPerSecond : 1;
    const reach_clip *clip = &c->clips[0];
    reach_transform world[GG_NODES];
    for (int f = 0; f < clip->frame_count; ++f) {
        reach_forward_kinematics(&c->rig.skeleton, reach_clip_frame(clip, f), world);
        double ticks = f / (double)clip->frame_rate * ticks_per_second;
        for (int b = 0; b < c->rig.bone_count; ++b) {
            if (!g->nodes[c->node_of_bone[b]].name[0]) continue;
            const struct aiNode *node = assimp_find_node(scene->mRootNode, c->rig.bone_names[b]);
            double p[3];
            assimp_animated_position(scene, g, node, ticks, p);
            ASSERT_VEC3_NEAR(world[b].translation,
                             reach_vec3_make((reach_real)p[0], (reach_real)p[1], (reach_real)p[2]),
                             HEIGHT_TOL * g->height, c->rig.bone_names[b]);
        }
    }
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
        assimp_animated_position(scene, g, node, -1, p);
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
    compare_frames(scene, &c, g);
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
