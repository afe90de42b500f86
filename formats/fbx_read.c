/* reach_fbx_read through assimp's C API: the scene imported with one node per FBX model (pivots
 * baked), the skins' bones and their ancestors made bones with scales folded into translations
 * (the glTF rule, formats/trs.c), animations sampled into clips. assimp is trusted to parse, not
 * to return sane numbers: every value is checked finite and every name looked up before use. */
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbx_internal.h"
#include "file_text.h"
#include "reach/fbx.h"
#include "rig_build.h"
#include "trs.h"

/* Sampled clips are held to this many transforms (frames × bones) and frames, as glTF's are. */
#define MAX_SAMPLED_TRANSFORMS ((long long)1 << 24)
#define MAX_SAMPLED_FRAMES     1000000

typedef struct named_node {
    const char *name;
    int index;
} named_node;

typedef struct fbx_tree {
    const struct aiScene *scene;
    char *error;
    size_t error_size;
    int node_count; /* below the root */
    const struct aiNode **nodes;
    int *parent;         /* per node, -1 under the root */
    int *bone_of_node;   /* per node, -1 outside the rig */
    named_node *by_name; /* sorted by name, first of equal names first */
    formats_trs *rest;   /* per node */
    formats_trs root;    /* the root's transform, composed onto the top bones */
    int bone_count;
    int *node_of_bone;
    int *bone_parent;
    int *has_children; /* per bone */
} fbx_tree;

static reach_status fail(fbx_tree *tree, const char *format, const char *name) {
    formats_error(tree->error, tree->error_size, format, name);
    return REACH_ERROR_INVALID_ARGUMENT;
}

static int compare_names(const void *a, const void *b) {
    const named_node *x = a, *y = b;
    int order = strcmp(x->name, y->name);
    return order ? order : (x->index > y->index) - (x->index < y->index);
}

/* The first node (in depth-first order) of this name, or -1. */
static int find_node(const fbx_tree *tree, const char *name) {
    int lo = 0, hi = tree->node_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(tree->by_name[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < tree->node_count && strcmp(tree->by_name[lo].name, name) == 0 ? tree->by_name[lo].index : -1;
}

/* A node's transform (assimp's row-major matrix) as TRS. */
static reach_status split_matrix(fbx_tree *tree, const struct aiMatrix4x4 *t, const char *name, formats_trs *out) {
    const double m[16] = {t->a1, t->b1, t->c1, t->d1, t->a2, t->b2, t->c2, t->d2,
                          t->a3, t->b3, t->c3, t->d3, t->a4, t->b4, t->c4, t->d4};
    for (int k = 0; k < 16; ++k)
        if (!isfinite(m[k])) {
            formats_error(tree->error, tree->error_size, "node '%s': a transform that is not finite", name);
            return REACH_ERROR_NOT_FINITE;
        }
    formats_decomposed split = formats_decompose(m, out);
    if (split == FORMATS_NO_TRANSFORM) return fail(tree, "node '%s': a transform with a zero scale", name);
    if (split == FORMATS_SHEARED)
        return fail(tree, "node '%s': a transform with shear or a mirror, which a skeleton cannot hold", name);
    return REACH_OK;
}

/* Every node below the root, depth first (without recursion: nesting is the file's to choose),
 * with its parent and rest, and the names sorted for lookups. */
static reach_status list_nodes(fbx_tree *tree) {
    const struct aiNode *root = tree->scene->mRootNode;
    size_t capacity = 64, count = 0;
    /* The stack holds nodes still to visit with their parents' indices; it never holds more
     * than the nodes listed so far plus the root's children. */
    const struct aiNode **stack = NULL;
    int *stack_parent = NULL;
    size_t top = 0;
    reach_status st = REACH_OK;
    tree->nodes = malloc(capacity * sizeof *tree->nodes);
    tree->parent = malloc(capacity * sizeof *tree->parent);
    if (!tree->nodes || !tree->parent) return fail(tree, "out of memory%s", "");
    size_t stack_capacity = (size_t)root->mNumChildren + 64;
    stack = malloc(stack_capacity * sizeof *stack);
    stack_parent = malloc(stack_capacity * sizeof *stack_parent);
    if (!stack || !stack_parent) st = fail(tree, "out of memory%s", "");
    for (unsigned k = root->mNumChildren; k-- > 0 && st == REACH_OK;) {
        stack[top] = root->mChildren[k];
        stack_parent[top++] = -1;
    }
    while (top > 0 && st == REACH_OK) {
        const struct aiNode *node = stack[--top];
        int parent = stack_parent[top];
        if (count == capacity || count >= (size_t)1 << 28) {
            capacity *= 2;
            const struct aiNode **nodes =
                count < (size_t)1 << 28 ? realloc(tree->nodes, capacity * sizeof *nodes) : NULL;
            if (nodes) tree->nodes = nodes;
            int *parents = nodes ? realloc(tree->parent, capacity * sizeof *parents) : NULL;
            if (parents) tree->parent = parents;
            if (!nodes || !parents) {
                st = fail(tree, "out of memory (too many nodes)%s", "");
                break;
            }
        }
        tree->nodes[count] = node;
        tree->parent[count] = parent;
        int index = (int)count++;
        if (top + node->mNumChildren > stack_capacity) {
            stack_capacity = (top + node->mNumChildren) * 2;
            const struct aiNode **grown = realloc(stack, stack_capacity * sizeof *stack);
            if (grown) stack = grown;
            int *grown_parent = grown ? realloc(stack_parent, stack_capacity * sizeof *stack_parent) : NULL;
            if (grown_parent) stack_parent = grown_parent;
            if (!grown || !grown_parent) {
                st = fail(tree, "out of memory (too many nodes)%s", "");
                break;
            }
        }
        for (unsigned k = node->mNumChildren; k-- > 0;) {
            stack[top] = node->mChildren[k];
            stack_parent[top++] = index;
        }
    }
    free(stack);
    free(stack_parent);
    if (st != REACH_OK) return st;
    if (count == 0) return fail(tree, "no nodes below the root: no character%s", "");
    tree->node_count = (int)count;
    size_t n = count;
    tree->bone_of_node = malloc(n * sizeof *tree->bone_of_node);
    tree->by_name = malloc(n * sizeof *tree->by_name);
    tree->rest = malloc(n * sizeof *tree->rest);
    tree->node_of_bone = malloc(n * sizeof *tree->node_of_bone);
    tree->bone_parent = malloc(n * sizeof *tree->bone_parent);
    tree->has_children = malloc(n * sizeof *tree->has_children);
    if (!tree->bone_of_node || !tree->by_name || !tree->rest || !tree->node_of_bone || !tree->bone_parent ||
        !tree->has_children)
        return fail(tree, "out of memory%s", "");
    for (int i = 0; i < tree->node_count; ++i) {
        tree->by_name[i].name = tree->nodes[i]->mName.data;
        tree->by_name[i].index = i;
        tree->bone_of_node[i] = -1;
    }
    qsort(tree->by_name, n, sizeof *tree->by_name, compare_names);
    st = split_matrix(tree, &root->mTransformation, root->mName.data, &tree->root);
    const double *scale = tree->root.s;
    /* FBX gives its root no transform; one with a non-uniform scale could not be folded. */
    if (st == REACH_OK && (fabs(scale[1] - scale[0]) > 1e-6 * scale[0] || fabs(scale[2] - scale[0]) > 1e-6 * scale[0]))
        return fail(tree, "the root node '%s' has a non-uniform scale", root->mName.data);
    return st;
}

/* The nodes that become bones: every skin's bones and their ancestors, or (without skins) every
 * node; marked in bone_of_node as 0. */
static reach_status select_nodes(fbx_tree *tree) {
    const struct aiScene *scene = tree->scene;
    int skinned = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        for (unsigned b = 0; b < mesh->mNumBones; ++b) {
            const char *name = mesh->mBones[b]->mName.data;
            int node = find_node(tree, name);
            if (node < 0) return fail(tree, "a skin names a bone '%s' that is no node", name);
            for (int at = node; at >= 0 && tree->bone_of_node[at] < 0; at = tree->parent[at])
                tree->bone_of_node[at] = 0;
            skinned = 1;
        }
    }
    if (!skinned)
        for (int i = 0; i < tree->node_count; ++i)
            tree->bone_of_node[i] = 0;
    return REACH_OK;
}

/* Bones in depth-first order (the nodes' own, which lists parents first). */
static void order_bones(fbx_tree *tree) {
    tree->bone_count = 0;
    for (int i = 0; i < tree->node_count; ++i) {
        if (tree->bone_of_node[i] < 0) continue;
        int bone = tree->bone_count++;
        tree->node_of_bone[bone] = i;
        tree->bone_of_node[i] = bone;
        int parent = tree->parent[i];
        tree->bone_parent[bone] = parent < 0 ? -1 : tree->bone_of_node[parent];
        tree->has_children[bone] = 0;
        if (tree->bone_parent[bone] >= 0) tree->has_children[tree->bone_parent[bone]] = 1;
    }
}

/* The root's transform composed onto a top bone's: x becomes root ∘ x. */
static void compose_root(const formats_trs *root, formats_trs *x) {
    reach_quat r =
        reach_quat_make((reach_real)root->r[0], (reach_real)root->r[1], (reach_real)root->r[2], (reach_real)root->r[3]);
    reach_vec3 t =
        reach_quat_rotate(r, reach_vec3_make((reach_real)(root->s[0] * x->t[0]), (reach_real)(root->s[1] * x->t[1]),
                                             (reach_real)(root->s[2] * x->t[2])));
    reach_quat q = reach_quat_mul(
        r, reach_quat_make((reach_real)x->r[0], (reach_real)x->r[1], (reach_real)x->r[2], (reach_real)x->r[3]));
    x->t[0] = root->t[0] + (double)t.x, x->t[1] = root->t[1] + (double)t.y, x->t[2] = root->t[2] + (double)t.z;
    x->r[0] = (double)q.x, x->r[1] = (double)q.y, x->r[2] = (double)q.z, x->r[3] = (double)q.w;
    for (int k = 0; k < 3; ++k)
        x->s[k] *= root->s[0];
}

/* Local transforms (per bone, before folding) into rig or clip transforms; the bad bone or -1. */
static int fold(const fbx_tree *tree, formats_trs *local, reach_transform *out, double *scale) {
    for (int b = 0; b < tree->bone_count; ++b)
        if (tree->bone_parent[b] < 0) compose_root(&tree->root, &local[b]);
    return formats_fold_scales(tree->bone_count, tree->bone_parent, tree->has_children, local, out, scale);
}

static reach_status build_rig(fbx_tree *tree, reach_fbx_character *out) {
    int n = tree->bone_count;
    reach_rig *rig = &out->rig;
    reach_status allocated = formats_rig_allocate(rig, n);
    out->inverse_bind = malloc((size_t)n * 16 * sizeof *out->inverse_bind);
    formats_trs *local = malloc((size_t)n * sizeof *local);
    double *scale = malloc((size_t)n * sizeof *scale);
    reach_status st = REACH_OK;
    if (allocated != REACH_OK || !out->inverse_bind || !local || !scale) st = fail(tree, "out of memory%s", "");
    for (int b = 0; b < n && st == REACH_OK; ++b) {
        const struct aiNode *node = tree->nodes[tree->node_of_bone[b]];
        rig->bone_names[b] = formats_copy_name(node->mName.data, "node", tree->node_of_bone[b]);
        if (!rig->bone_names[b]) st = fail(tree, "out of memory%s", "");
        rig->parents[b] = tree->bone_parent[b];
        rig->joints[b] = reach_joint_ball();
        local[b] = tree->rest[tree->node_of_bone[b]];
        for (int k = 0; k < 16; ++k)
            out->inverse_bind[b * 16 + k] = (reach_real)(k % 5 == 0);
    }
    /* assimp's matrices are floats: a scale within float's rounding of 1 is none. */
    for (int b = 0; b < n && st == REACH_OK; ++b)
        for (int k = 0; k < 3; ++k)
            if (fabs(local[b].s[k] - 1) > 1e-6 || (tree->bone_parent[b] < 0 && fabs(tree->root.s[k] - 1) > 1e-6))
                out->scale_folded = 1;
    if (st == REACH_OK) {
        int bad = fold(tree, local, rig->rest, scale);
        if (bad >= 0)
            st = fail(tree,
                      "node '%s': a scale that cannot be folded into translations (non-uniform, zero or negative, "
                      "with bones below it)",
                      rig->bone_names[bad]);
    }
    free(local);
    free(scale);
    /* Each skinned bone's offset matrix, column-major: meshes last to first, so that where several
     * skins name a bone the first one's stays. */
    for (unsigned m = tree->scene->mNumMeshes; m-- > 0 && st == REACH_OK;) {
        const struct aiMesh *mesh = tree->scene->mMeshes[m];
        for (unsigned k = mesh->mNumBones; k-- > 0;) {
            const struct aiBone *bone = mesh->mBones[k];
            int b = tree->bone_of_node[find_node(tree, bone->mName.data)];
            const struct aiMatrix4x4 *t = &bone->mOffsetMatrix;
            const double column_major[16] = {t->a1, t->b1, t->c1, t->d1, t->a2, t->b2, t->c2, t->d2,
                                             t->a3, t->b3, t->c3, t->d3, t->a4, t->b4, t->c4, t->d4};
            for (int e = 0; e < 16; ++e)
                if (!isfinite(column_major[e]))
                    return fail(tree, "bone '%s': an offset matrix not finite", bone->mName.data);
            for (int e = 0; e < 16; ++e)
                out->inverse_bind[b * 16 + e] = (reach_real)column_major[e];
        }
    }
    return st;
}

/* One animation channel's keys as doubles: times in seconds, values checked finite. */
typedef struct channel {
    int bone;
    int count[3]; /* translation, rotation, scale */
    double *times[3], *values[3];
} channel;

static reach_status read_keys(fbx_tree *tree, const struct aiNodeAnim *anim, double ticks_per_second, channel *c) {
    const unsigned counts[3] = {anim->mNumPositionKeys, anim->mNumRotationKeys, anim->mNumScalingKeys};
    for (int path = 0; path < 3; ++path) {
        int width = path == 1 ? 4 : 3;
        unsigned count = counts[path];
        if (count == 0) continue;
        if (count > MAX_SAMPLED_FRAMES * 16u) return fail(tree, "channel '%s': too many keys", anim->mNodeName.data);
        c->times[path] = malloc(count * sizeof(double));
        c->values[path] = malloc(count * (size_t)width * sizeof(double));
        if (!c->times[path] || !c->values[path])
            return fail(tree, "out of memory (channel '%s')", anim->mNodeName.data);
        for (unsigned k = 0; k < count; ++k) {
            double time, *v = c->values[path] + (size_t)k * (size_t)width;
            if (path == 1) {
                const struct aiQuatKey *key = &anim->mRotationKeys[k];
                time = key->mTime;
                v[0] = key->mValue.x, v[1] = key->mValue.y, v[2] = key->mValue.z, v[3] = key->mValue.w;
            } else {
                const struct aiVectorKey *key = path == 0 ? &anim->mPositionKeys[k] : &anim->mScalingKeys[k];
                time = key->mTime;
                v[0] = key->mValue.x, v[1] = key->mValue.y, v[2] = key->mValue.z;
            }
            c->times[path][k] = time / ticks_per_second;
            int finite = isfinite(c->times[path][k]);
            for (int e = 0; e < width; ++e)
                finite &= isfinite(v[e]) && fabs(v[e]) < 1e30;
            if (!finite) {
                formats_error(tree->error, tree->error_size, "channel '%s': a key not finite", anim->mNodeName.data);
                return REACH_ERROR_NOT_FINITE;
            }
            if (path == 1 && !(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3] > 1e-12))
                return fail(tree, "channel '%s': a rotation of zero length", anim->mNodeName.data);
            if (path == 1) formats_normalize4(v);
            if (k > 0 && c->times[path][k] < c->times[path][k - 1])
                return fail(tree, "channel '%s': key times that go back", anim->mNodeName.data);
        }
        c->count[path] = (int)count;
    }
    return REACH_OK;
}

static reach_status sample_animation(fbx_tree *tree, const struct aiAnimation *animation, reach_real rate,
                                     reach_clip *clip) {
    unsigned count = animation->mNumChannels;
    /* assimp's convention: no rate given means 25 ticks per second. */
    double ticks_per_second = animation->mTicksPerSecond > 0 ? animation->mTicksPerSecond : 25;
    if (!isfinite(ticks_per_second)) return fail(tree, "animation '%s': a rate that is no rate", animation->mName.data);
    channel *channels = calloc((size_t)count + 1, sizeof *channels);
    formats_trs *local = malloc((size_t)tree->bone_count * sizeof *local);
    double *scale = malloc((size_t)tree->bone_count * sizeof *scale);
    reach_status st =
        channels && local && scale ? REACH_OK : fail(tree, "out of memory (animation '%s')", animation->mName.data);
    double duration = 0;
    for (unsigned k = 0; k < count && st == REACH_OK; ++k) {
        const struct aiNodeAnim *anim = animation->mChannels[k];
        int node = find_node(tree, anim->mNodeName.data);
        channels[k].bone = node < 0 ? -1 : tree->bone_of_node[node];
        if (channels[k].bone < 0) continue; /* a channel on a node outside the rig moves no bone */
        st = read_keys(tree, anim, ticks_per_second, &channels[k]);
        for (int path = 0; path < 3 && st == REACH_OK; ++path)
            if (channels[k].count[path] > 0 && channels[k].times[path][channels[k].count[path] - 1] > duration)
                duration = channels[k].times[path][channels[k].count[path] - 1];
    }
    double frames = floor(duration * (double)rate + 1e-6) + 1;
    if (st == REACH_OK && (frames > MAX_SAMPLED_FRAMES || frames * tree->bone_count > (double)MAX_SAMPLED_TRANSFORMS))
        st = fail(tree, "animation '%s' lasts too long to sample at this rate", animation->mName.data);
    if (st == REACH_OK && reach_clip_create(clip, tree->bone_count, (int)frames, rate) != REACH_OK)
        st = fail(tree, "out of memory (animation '%s')", animation->mName.data);
    for (int f = 0; f < clip->frame_count && st == REACH_OK; ++f) {
        for (int b = 0; b < tree->bone_count; ++b)
            local[b] = tree->rest[tree->node_of_bone[b]];
        for (unsigned k = 0; k < count; ++k) {
            const channel *c = &channels[k];
            if (c->bone < 0) continue;
            formats_trs *x = &local[c->bone];
            double *into[3] = {x->t, x->r, x->s};
            for (int path = 0; path < 3; ++path)
                if (c->count[path] > 0)
                    formats_sample_keys(c->times[path], c->values[path], c->count[path], path == 1 ? 4 : 3, 0,
                                        f / (double)rate, 0, into[path]);
        }
        int bad = fold(tree, local, reach_clip_frame(clip, f), scale);
        if (bad >= 0) {
            formats_error(tree->error, tree->error_size,
                          "animation '%s': node '%s''s scale at frame %d cannot be folded (non-uniform, zero or "
                          "negative, with bones below it)",
                          animation->mName.data, tree->nodes[tree->node_of_bone[bad]]->mName.data, f);
            st = REACH_ERROR_INVALID_ARGUMENT;
        }
    }
    for (unsigned k = 0; k < count && channels; ++k)
        for (int path = 0; path < 3; ++path) {
            free(channels[k].times[path]);
            free(channels[k].values[path]);
        }
    free(channels);
    free(local);
    free(scale);
    if (st != REACH_OK) reach_clip_free(clip);
    return st;
}

static reach_status read_animations(fbx_tree *tree, reach_real rate, reach_fbx_character *out) {
    unsigned count = tree->scene->mNumAnimations;
    if (count == 0) return REACH_OK;
    out->clips = calloc(count, sizeof *out->clips);
    out->clip_names = calloc(count, sizeof *out->clip_names);
    if (!out->clips || !out->clip_names) return fail(tree, "out of memory (animations)%s", "");
    for (unsigned a = 0; a < count; ++a) {
        const struct aiAnimation *animation = tree->scene->mAnimations[a];
        out->clip_names[a] = formats_copy_name(animation->mName.data, "animation", (int)a);
        if (!out->clip_names[a]) return fail(tree, "out of memory (animations)%s", "");
        out->clip_count = (int)a + 1;
        reach_status st = sample_animation(tree, animation, rate, &out->clips[a]);
        if (st != REACH_OK) return st;
    }
    return REACH_OK;
}

/* FBX's UnitScaleFactor from the scene's metadata (assimp keeps it there), or 1. */
static reach_real unit_scale_factor(const struct aiScene *scene) {
    const struct aiMetadata *meta = scene->mMetaData;
    for (unsigned k = 0; meta && k < meta->mNumProperties; ++k) {
        if (strcmp(meta->mKeys[k].data, "UnitScaleFactor") != 0 || !meta->mValues[k].mData) continue;
        double value = meta->mValues[k].mType == AI_DOUBLE  ? *(const double *)meta->mValues[k].mData
                       : meta->mValues[k].mType == AI_FLOAT ? (double)*(const float *)meta->mValues[k].mData
                                                            : 1;
        return isfinite(value) && value > 0 ? (reach_real)value : 1;
    }
    return 1;
}

/* FBX begins with the binary magic, or (ASCII) holds FBXHeaderExtension near its start. Other
 * bytes never reach assimp, which would otherwise try every format it knows on them. */
static int looks_like_fbx(const unsigned char *data, size_t length) {
    static const char magic[] = "Kaydara FBX Binary  ";
    if (length >= sizeof magic && memcmp(data, magic, sizeof magic) == 0) return 1;
    static const char header[] = "FBXHeaderExtension";
    size_t window = length < 1024 ? length : 1024;
    for (size_t at = 0; at + sizeof header - 1 <= window; ++at)
        if (memcmp(data + at, header, sizeof header - 1) == 0) return 1;
    return 0;
}

int reach_fbx_available(void) { return 1; }

reach_status fbx_read_scene(const unsigned char *data, size_t length, reach_real sample_rate,
                            reach_fbx_character *character, char *error, size_t error_size) {
    if (length == 0) {
        formats_error(error, error_size, "an empty file: no FBX");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (!looks_like_fbx(data, length) || length > (size_t)FORMATS_MAX_FILE_BYTES) {
        formats_error(error, error_size, "not an FBX file (neither the binary header nor FBXHeaderExtension)");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    struct aiPropertyStore *store = aiCreatePropertyStore();
    if (!store) {
        formats_error(error, error_size, "out of memory");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    /* One node per FBX model, its pivots and pre-rotations baked into its transform and keys. */
    aiSetImportPropertyInteger(store, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
    aiSetImportPropertyInteger(store, AI_CONFIG_IMPORT_FBX_READ_TEXTURES, 0);
    aiSetImportPropertyInteger(store, AI_CONFIG_IMPORT_FBX_READ_MATERIALS, 0);
    aiSetImportPropertyInteger(store, AI_CONFIG_IMPORT_FBX_READ_CAMERAS, 0);
    aiSetImportPropertyInteger(store, AI_CONFIG_IMPORT_FBX_READ_LIGHTS, 0);
    const struct aiScene *scene =
        aiImportFileFromMemoryWithProperties((const char *)data, (unsigned)length, 0, "fbx", store);
    aiReleasePropertyStore(store);
    if (!scene || !scene->mRootNode) {
        formats_error(error, error_size, "assimp cannot read it: %s", scene ? "no nodes" : aiGetErrorString());
        if (scene) aiReleaseImport(scene);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    fbx_tree tree;
    memset(&tree, 0, sizeof tree);
    tree.scene = scene;
    tree.error = error;
    tree.error_size = error_size;
    reach_status st = list_nodes(&tree);
    for (int i = 0; i < tree.node_count && st == REACH_OK; ++i)
        st = split_matrix(&tree, &tree.nodes[i]->mTransformation, tree.nodes[i]->mName.data, &tree.rest[i]);
    if (st == REACH_OK) st = select_nodes(&tree);
    if (st == REACH_OK) {
        order_bones(&tree);
        st = build_rig(&tree, character);
    }
    if (st == REACH_OK) st = read_animations(&tree, sample_rate, character);
    if (st == REACH_OK && reach_skeleton_validate(&character->rig.skeleton, NULL) != REACH_OK)
        st = fail(&tree, "the nodes make no valid skeleton%s", "");
    character->unit_scale_factor = unit_scale_factor(scene);
    free(tree.nodes);
    free(tree.parent);
    free(tree.bone_of_node);
    free(tree.by_name);
    free(tree.rest);
    free(tree.node_of_bone);
    free(tree.bone_parent);
    free(tree.has_children);
    aiReleaseImport(scene);
    return st;
}
