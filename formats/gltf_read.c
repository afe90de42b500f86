/* reach_gltf_read: the node tree checked (one parent each, no cycles), the skin's joints and
 * their ancestors made bones with scales folded into translations, animations sampled into clips. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_text.h"
#include "gltf_internal.h"
#include "reach/gltf.h"
#include "rig_build.h"
#include "trs.h"

/* Sampled clips are held to this many transforms (frames × bones) and frames. */
#define MAX_SAMPLED_TRANSFORMS ((long long)1 << 24)
#define MAX_SAMPLED_FRAMES     1000000

typedef struct gltf_tree {
    gltf_document *doc;
    int node_count;
    gltf_list nodes;
    int *parent;       /* per node */
    int *bone_of_node; /* per node, -1 outside the rig */
    formats_trs *rest; /* per node */
    int bone_count;
    int *node_of_bone;
    int *bone_parent;
    int *has_children; /* per bone */
} gltf_tree;

static reach_status fail(gltf_document *doc, const char *format, int index) {
    formats_error(doc->error, doc->error_size, format, index);
    return REACH_ERROR_INVALID_ARGUMENT;
}

/* A member that is an array of exactly n finite numbers into out; absent leaves out alone. */
static reach_status numbers(gltf_document *doc, const cJSON *object, const char *name, int n, double *out, int node) {
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(object, name);
    if (!array) return REACH_OK;
    if (!cJSON_IsArray(array) || cJSON_GetArraySize(array) != n) {
        formats_error(doc->error, doc->error_size, "nodes[%d]: \"%s\" is not an array of %d numbers", node, name, n);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    int k = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble)) {
            formats_error(doc->error, doc->error_size, "nodes[%d]: \"%s\" holds something not a finite number", node,
                          name);
            return REACH_ERROR_NOT_FINITE;
        }
        out[k++] = item->valuedouble;
    }
    return REACH_OK;
}

static reach_status node_rest(gltf_tree *tree, int i) {
    gltf_document *doc = tree->doc;
    const cJSON *node = tree->nodes.items[i];
    formats_trs *x = &tree->rest[i];
    const formats_trs identity = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    *x = identity;
    if (!cJSON_IsObject(node)) return fail(doc, "nodes[%d] is not an object", i);
    if (cJSON_GetObjectItemCaseSensitive(node, "matrix")) {
        double m[16];
        reach_status st = numbers(doc, node, "matrix", 16, m, i);
        if (st != REACH_OK) return st;
        formats_decomposed split = formats_decompose(m, x);
        if (split == FORMATS_NO_TRANSFORM) return fail(doc, "nodes[%d]: a matrix that is no transform", i);
        if (split == FORMATS_SHEARED)
            return fail(doc, "nodes[%d]: a matrix with shear or a mirror, which a skeleton cannot hold", i);
        return REACH_OK;
    }
    reach_status st = numbers(doc, node, "translation", 3, x->t, i);
    if (st == REACH_OK) st = numbers(doc, node, "rotation", 4, x->r, i);
    if (st == REACH_OK) st = numbers(doc, node, "scale", 3, x->s, i);
    if (st != REACH_OK) return st;
    double length = sqrt(x->r[0] * x->r[0] + x->r[1] * x->r[1] + x->r[2] * x->r[2] + x->r[3] * x->r[3]);
    if (!(length > 1e-6)) return fail(doc, "nodes[%d]: a rotation of zero length", i);
    formats_normalize4(x->r);
    return REACH_OK;
}

/* Parents from children lists: each child in range, not its own, with one parent only; then
 * every node must be reached from a parentless one (otherwise it sits on a cycle). */
static reach_status link_nodes(gltf_tree *tree) {
    gltf_document *doc = tree->doc;
    int n = tree->node_count;
    for (int i = 0; i < n; ++i)
        tree->parent[i] = -1;
    for (int i = 0; i < n; ++i) {
        reach_status st = node_rest(tree, i);
        if (st != REACH_OK) return st;
        const cJSON *children = cJSON_GetObjectItemCaseSensitive(tree->nodes.items[i], "children");
        if (children && !cJSON_IsArray(children)) return fail(doc, "nodes[%d]: children is not an array", i);
        const cJSON *child;
        cJSON_ArrayForEach(child, children) {
            double c = cJSON_IsNumber(child) ? child->valuedouble : -1;
            if (!(c >= 0 && c < n) || c != floor(c)) return fail(doc, "nodes[%d]: a child that is no node", i);
            int k = (int)c;
            if (k == i) return fail(doc, "nodes[%d] is its own child: a node cycle", i);
            if (tree->parent[k] >= 0) {
                formats_error(doc->error, doc->error_size, "nodes[%d] is a child of two parents (nodes %d and %d)", k,
                              tree->parent[k], i);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            tree->parent[k] = i;
        }
    }
    /* With one parent each, following parents from a node either ends at a root or loops. Each
     * walk stops at a node already known to reach a root (state 2), so the whole is linear. */
    int *state = tree->bone_of_node;
    for (int i = 0; i < n; ++i)
        state[i] = 0;
    for (int i = 0; i < n; ++i) {
        int at = i;
        while (at >= 0 && state[at] == 0) {
            state[at] = 1;
            at = tree->parent[at];
        }
        if (at >= 0 && state[at] == 1) return fail(doc, "a node cycle through nodes[%d]", at);
        for (at = i; at >= 0 && state[at] == 1; at = tree->parent[at])
            state[at] = 2;
    }
    return REACH_OK;
}

/* The nodes that become bones: the skin's joints and their ancestors, or (without a skin) every
 * node under the scene's roots. Marked in bone_of_node as 0 (in) or -1 (out). */
static reach_status select_nodes(gltf_tree *tree, int skin, const cJSON **skin_json) {
    gltf_document *doc = tree->doc;
    int n = tree->node_count;
    const cJSON *skins = cJSON_GetObjectItemCaseSensitive(doc->json, "skins");
    int skin_count = cJSON_IsArray(skins) ? cJSON_GetArraySize(skins) : 0;
    for (int i = 0; i < n; ++i)
        tree->bone_of_node[i] = -1;
    *skin_json = NULL;
    if (skin >= 0 && skin >= skin_count) return fail(doc, "skin %d does not exist", skin);
    if (skin_count > 0) {
        *skin_json = cJSON_GetArrayItem(skins, skin < 0 ? 0 : skin);
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(*skin_json, "joints");
        if (!cJSON_IsArray(joints) || cJSON_GetArraySize(joints) < 1) return fail(doc, "skin %d has no joints", skin);
        const cJSON *joint;
        cJSON_ArrayForEach(joint, joints) {
            double j = cJSON_IsNumber(joint) ? joint->valuedouble : -1;
            if (!(j >= 0 && j < n) || j != floor(j)) return fail(doc, "skin %d names a joint that is no node", skin);
            for (int at = (int)j; at >= 0 && tree->bone_of_node[at] < 0; at = tree->parent[at])
                tree->bone_of_node[at] = 0;
        }
        return REACH_OK;
    }
    const cJSON *scenes = cJSON_GetObjectItemCaseSensitive(doc->json, "scenes");
    long long scene = gltf_integer(doc, doc->json, "scene", 0, 1 << 30, 0, "the file");
    const cJSON *roots = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(scenes, (int)scene), "nodes");
    if (scene < 0) return REACH_ERROR_INVALID_ARGUMENT;
    int marked = 0;
    if (cJSON_IsArray(roots)) {
        const cJSON *root;
        cJSON_ArrayForEach(root, roots) {
            double r = cJSON_IsNumber(root) ? root->valuedouble : -1;
            if (!(r >= 0 && r < n) || r != floor(r))
                return fail(doc, "scene %d names a root that is no node", (int)scene);
            if (tree->parent[(int)r] >= 0) return fail(doc, "scene root nodes[%d] has a parent", (int)r);
            tree->bone_of_node[(int)r] = 0;
            ++marked;
        }
    }
    if (marked == 0)
        for (int i = 0; i < n; ++i)
            if (tree->parent[i] < 0) tree->bone_of_node[i] = 0;
    /* Each node is in when an ancestor (or itself) is a marked root. A walk up stops at the first
     * node already decided, and leaves its path decided (-2: out), so the whole is linear. */
    for (int i = 0; i < n; ++i) {
        int at = i;
        while (at >= 0 && tree->bone_of_node[at] == -1)
            at = tree->parent[at];
        int verdict = at >= 0 && tree->bone_of_node[at] == 0 ? 0 : -2;
        for (int k = i; k >= 0 && tree->bone_of_node[k] == -1; k = tree->parent[k])
            tree->bone_of_node[k] = verdict;
    }
    for (int i = 0; i < n; ++i)
        if (tree->bone_of_node[i] == -2) tree->bone_of_node[i] = -1;
    return REACH_OK;
}

/* Bones depth first from the parentless selected nodes, children in their lists' order. */
static reach_status order_bones(gltf_tree *tree) {
    int n = tree->node_count;
    int *stack = malloc((size_t)n * sizeof *stack);
    if (!stack) return fail(tree->doc, "out of memory (%d nodes)", n);
    /* Selected nodes not yet placed are -3, apart from bone numbers. */
    for (int i = 0; i < n; ++i)
        if (tree->bone_of_node[i] == 0) tree->bone_of_node[i] = -3;
    int top = 0;
    for (int i = n - 1; i >= 0; --i)
        if (tree->parent[i] < 0 && tree->bone_of_node[i] == -3) stack[top++] = i;
    tree->bone_count = 0;
    while (top > 0) {
        int node = stack[--top];
        int bone = tree->bone_count++;
        tree->node_of_bone[bone] = node;
        tree->bone_of_node[node] = bone;
        tree->bone_parent[bone] = tree->parent[node] < 0 ? -1 : tree->bone_of_node[tree->parent[node]];
        tree->has_children[bone] = 0;
        if (tree->bone_parent[bone] >= 0) tree->has_children[tree->bone_parent[bone]] = 1;
        /* Pushed in list order, then turned round, so they come off the stack in list order. */
        int first = top;
        const cJSON *child;
        cJSON_ArrayForEach(child, cJSON_GetObjectItemCaseSensitive(tree->nodes.items[node], "children")) {
            if (tree->bone_of_node[(int)child->valuedouble] == -3) stack[top++] = (int)child->valuedouble;
        }
        for (int a = first, b = top - 1; a < b; ++a, --b) {
            int held = stack[a];
            stack[a] = stack[b];
            stack[b] = held;
        }
    }
    free(stack);
    return REACH_OK;
}

typedef struct channel {
    int bone, path; /* path: 0 translation, 1 rotation, 2 scale */
    int step;       /* STEP rather than LINEAR */
    double *times, *values;
    int count;
} channel;

/* One channel's keys read and checked: times ascending, as many outputs as times. */
static reach_status read_channel(gltf_tree *tree, const gltf_list *samplers, const cJSON *item, channel *c, int index) {
    gltf_document *doc = tree->doc;
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(item, "target");
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(target, "path");
    long long node = gltf_integer(doc, target, "node", 0, tree->node_count - 1, -2, "an animation channel's target");
    c->bone = -1;
    if (node == -1) return REACH_ERROR_INVALID_ARGUMENT;
    if (node < 0 || !cJSON_IsString(path) || tree->bone_of_node[node] < 0) return REACH_OK;
    const char *kind = path->valuestring;
    c->path = strcmp(kind, "translation") == 0 ? 0
              : strcmp(kind, "rotation") == 0  ? 1
              : strcmp(kind, "scale") == 0     ? 2
                                               : -1;
    if (c->path < 0) return REACH_OK; /* morph weights move no bone */
    long long s = gltf_integer(doc, item, "sampler", 0, samplers->count - 1, -1, "an animation channel");
    if (s < 0) return fail(doc, "animation %d: a channel without a sampler", index);
    const cJSON *sampler = samplers->items[s];
    const cJSON *interpolation = cJSON_GetObjectItemCaseSensitive(sampler, "interpolation");
    c->step = cJSON_IsString(interpolation) && strcmp(interpolation->valuestring, "STEP") == 0;
    if (cJSON_IsString(interpolation) && !c->step && strcmp(interpolation->valuestring, "LINEAR") != 0)
        return fail(doc, "animation %d: only LINEAR and STEP samplers are read (CUBICSPLINE is not)", index);
    long long input = gltf_integer(doc, sampler, "input", 0, 1 << 30, -1, "a sampler");
    long long output = gltf_integer(doc, sampler, "output", 0, 1 << 30, -1, "a sampler");
    if (input < 0 || output < 0) return fail(doc, "animation %d: a sampler without input or output", index);
    int times = 0, values = 0;
    reach_status st = gltf_read_accessor(doc, (int)input, 1, &c->times, &times);
    if (st == REACH_OK) st = gltf_read_accessor(doc, (int)output, c->path == 1 ? 4 : 3, &c->values, &values);
    if (st != REACH_OK) return st;
    if (times != values) return fail(doc, "animation %d: a sampler with unequal input and output counts", index);
    for (int k = 1; k < times; ++k)
        if (!(c->times[k] > c->times[k - 1])) return fail(doc, "animation %d: key times that do not increase", index);
    if (c->times[0] < 0) return fail(doc, "animation %d: a key before time 0", index);
    c->count = times;
    c->bone = tree->bone_of_node[node];
    return REACH_OK;
}

/* The rate an animation's keys are evenly spaced at: the smallest mean spacing of a channel with
 * two keys or more, when every key of every channel lies within 1 % of that spacing of a multiple
 * of it (from time 0); 0 when they do not, or no channel has two keys. A rate within 1e-7 of a
 * whole number (float key times round it) is that number. */
static double key_rate(const channel *channels, int count) {
    double spacing = 0;
    for (int k = 0; k < count; ++k) {
        const channel *c = &channels[k];
        if (c->bone < 0 || c->count < 2) continue;
        double mean = (c->times[c->count - 1] - c->times[0]) / (c->count - 1);
        if (spacing == 0 || mean < spacing) spacing = mean;
    }
    if (!(spacing > 0)) return 0;
    for (int k = 0; k < count; ++k)
        for (int i = 0; channels[k].bone >= 0 && i < channels[k].count; ++i) {
            double multiple = channels[k].times[i] / spacing;
            if (fabs(multiple - nearbyint(multiple)) > 0.01) return 0;
        }
    double rate = 1 / spacing, whole = nearbyint(rate);
    return fabs(rate - whole) <= 1e-7 * rate ? whole : rate;
}

static reach_status sample_animation(gltf_tree *tree, const cJSON *animation, int index, reach_real chosen_rate,
                                     reach_clip *clip) {
    gltf_document *doc = tree->doc;
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(animation, "channels");
    int count = cJSON_IsArray(items) ? cJSON_GetArraySize(items) : 0;
    channel *channels = calloc((size_t)count + 1, sizeof *channels);
    formats_trs *local = malloc((size_t)tree->bone_count * sizeof *local);
    double *scale = malloc((size_t)tree->bone_count * sizeof *scale);
    gltf_list samplers = {NULL, 0};
    reach_status st = channels && local && scale ? REACH_OK : fail(doc, "out of memory (animation %d)", index);
    if (st == REACH_OK) st = gltf_list_make(doc, cJSON_GetObjectItemCaseSensitive(animation, "samplers"), &samplers);
    double duration = 0;
    channel *next = channels;
    const cJSON *item, *read = count > 0 ? items : NULL;
    cJSON_ArrayForEach(item, read) {
        if (st != REACH_OK) break;
        st = read_channel(tree, &samplers, item, next, index);
        if (st == REACH_OK && next->bone >= 0 && next->times[next->count - 1] > duration)
            duration = next->times[next->count - 1];
        ++next;
    }
    free(samplers.items);
    double keyed = st == REACH_OK && chosen_rate == REACH_GLTF_KEY_RATE ? key_rate(channels, count) : 0;
    /* Key times are float32: a last key a rounding short of a frame's time still gives that frame. */
    double frames = floor(duration * keyed * (1 + 1e-6) + 1e-6) + 1;
    if (keyed > 0 && !(frames <= MAX_SAMPLED_FRAMES && frames * tree->bone_count <= (double)MAX_SAMPLED_TRANSFORMS))
        keyed = 0; /* keys too dense to keep each: sampled at 30 per second instead */
    reach_real rate = keyed > 0 ? (reach_real)keyed : chosen_rate == REACH_GLTF_KEY_RATE ? 30 : chosen_rate;
    double snap = keyed > 0 ? 0.01 / keyed : 0;
    frames = floor(duration * (double)rate * (1 + 1e-6) + 1e-6) + 1;
    if (st == REACH_OK && (frames > MAX_SAMPLED_FRAMES || frames * tree->bone_count > (double)MAX_SAMPLED_TRANSFORMS))
        st = fail(doc, "animation %d lasts too long to sample at this rate", index);
    if (st == REACH_OK) {
        st = reach_clip_create(clip, tree->bone_count, (int)frames, rate);
        if (st != REACH_OK) fail(doc, "out of memory (animation %d)", index);
    }
    for (int f = 0; f < clip->frame_count && st == REACH_OK; ++f) {
        for (int b = 0; b < tree->bone_count; ++b)
            local[b] = tree->rest[tree->node_of_bone[b]];
        for (int k = 0; k < count; ++k) {
            const channel *c = &channels[k];
            if (c->bone < 0) continue;
            formats_trs *x = &local[c->bone];
            formats_sample_keys(c->times, c->values, c->count, c->path == 1 ? 4 : 3, c->step, f / (double)rate, snap,
                                c->path == 0   ? x->t
                                : c->path == 1 ? x->r
                                               : x->s);
        }
        int bad = formats_fold_scales(tree->bone_count, tree->bone_parent, tree->has_children, local,
                                      reach_clip_frame(clip, f), scale);
        if (bad >= 0) {
            formats_error(doc->error, doc->error_size,
                          "animation %d: nodes[%d]'s scale at frame %d cannot be folded (non-uniform, zero or "
                          "negative, with bones below it)",
                          index, tree->node_of_bone[bad], f);
            st = REACH_ERROR_INVALID_ARGUMENT;
        }
    }
    for (int k = 0; k < count && channels; ++k) {
        free(channels[k].times);
        free(channels[k].values);
    }
    free(channels);
    free(local);
    free(scale);
    if (st != REACH_OK) reach_clip_free(clip);
    return st;
}

static reach_status build_rig(gltf_tree *tree, const cJSON *skin, reach_gltf_character *out) {
    gltf_document *doc = tree->doc;
    int n = tree->bone_count;
    reach_rig *rig = &out->rig;
    reach_status allocated = formats_rig_allocate(rig, n);
    out->node_of_bone = malloc((size_t)n * sizeof *out->node_of_bone);
    out->inverse_bind = malloc((size_t)n * 16 * sizeof *out->inverse_bind);
    formats_trs *local = malloc((size_t)n * sizeof *local);
    double *scale = malloc((size_t)n * sizeof *scale);
    reach_status st = REACH_OK;
    if (allocated != REACH_OK || !out->node_of_bone || !out->inverse_bind || !local || !scale)
        st = fail(doc, "out of memory (%d bones)", n);
    for (int b = 0; b < n && st == REACH_OK; ++b) {
        int node = tree->node_of_bone[b];
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(tree->nodes.items[node], "name");
        rig->bone_names[b] = formats_copy_name(cJSON_IsString(name) ? name->valuestring : NULL, "node", node);
        if (!rig->bone_names[b]) st = fail(doc, "out of memory (%d bones)", n);
        rig->parents[b] = tree->bone_parent[b];
        rig->joints[b] = reach_joint_ball();
        out->node_of_bone[b] = node;
        local[b] = tree->rest[node];
        const formats_trs *x = &local[b];
        if (x->s[0] != 1 || x->s[1] != 1 || x->s[2] != 1) out->scale_folded = 1;
        for (int k = 0; k < 16; ++k)
            out->inverse_bind[b * 16 + k] = (reach_real)(k % 5 == 0);
    }
    if (st == REACH_OK) {
        int bad = formats_fold_scales(tree->bone_count, tree->bone_parent, tree->has_children, local, rig->rest, scale);
        if (bad >= 0)
            st = fail(doc,
                      "nodes[%d]: a scale that cannot be folded into translations (non-uniform, zero or negative, "
                      "with bones below it)",
                      tree->node_of_bone[bad]);
    }
    free(local);
    free(scale);
    const cJSON *matrices = cJSON_GetObjectItemCaseSensitive(skin, "inverseBindMatrices");
    if (st != REACH_OK || !matrices) return st;
    const cJSON *joints = cJSON_GetObjectItemCaseSensitive(skin, "joints");
    double *values;
    int count;
    st = gltf_read_accessor(doc, cJSON_IsNumber(matrices) ? (int)matrices->valuedouble : -1, 16, &values, &count);
    if (st != REACH_OK) return st;
    if (count != cJSON_GetArraySize(joints)) {
        free(values);
        return fail(doc, "a skin's inverseBindMatrices count is not its joints' (%d)", cJSON_GetArraySize(joints));
    }
    int j = 0;
    const cJSON *joint;
    cJSON_ArrayForEach(joint, joints) {
        int bone = tree->bone_of_node[(int)joint->valuedouble];
        for (int k = 0; k < 16; ++k)
            out->inverse_bind[bone * 16 + k] = (reach_real)values[j * 16 + k];
        ++j;
    }
    free(values);
    return REACH_OK;
}

static reach_status read_animations(gltf_tree *tree, reach_real rate, reach_gltf_character *out) {
    gltf_document *doc = tree->doc;
    const cJSON *animations = cJSON_GetObjectItemCaseSensitive(doc->json, "animations");
    int count = cJSON_IsArray(animations) ? cJSON_GetArraySize(animations) : 0;
    if (count == 0) return REACH_OK;
    out->clips = calloc((size_t)count, sizeof *out->clips);
    out->clip_names = calloc((size_t)count, sizeof *out->clip_names);
    if (!out->clips || !out->clip_names) return fail(doc, "out of memory (%d animations)", count);
    int a = 0;
    const cJSON *animation;
    cJSON_ArrayForEach(animation, animations) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(animation, "name");
        out->clip_names[a] = formats_copy_name(cJSON_IsString(name) ? name->valuestring : NULL, "animation", a);
        if (!out->clip_names[a]) return fail(doc, "out of memory (%d animations)", count);
        out->clip_count = a + 1;
        reach_status st = sample_animation(tree, animation, a, rate, &out->clips[a]);
        if (st != REACH_OK) return st;
        ++a;
    }
    return REACH_OK;
}

void reach_gltf_free(reach_gltf_character *character) {
    if (!character) return;
    reach_rig_free(&character->rig);
    formats_free_clips(character->clips, character->clip_names, character->clip_count);
    free(character->node_of_bone);
    free(character->inverse_bind);
    memset(character, 0, sizeof *character);
}

reach_status reach_gltf_read(const unsigned char *data, size_t length, const char *folder, int skin,
                             reach_real sample_rate, reach_gltf_character *character, char *error, size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if (character) memset(character, 0, sizeof *character);
    if (!character || (!data && length > 0) ||
        !((sample_rate >= 0 && reach_is_finite(sample_rate)) || sample_rate == REACH_GLTF_KEY_RATE)) {
        formats_error(error, error_size, "no data or no character given, or a sample rate that is no rate");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (sample_rate == 0) sample_rate = 30;
    gltf_document doc;
    memset(&doc, 0, sizeof doc);
    doc.error = error;
    doc.error_size = error_size;
    gltf_tree tree;
    memset(&tree, 0, sizeof tree);
    tree.doc = &doc;
    reach_status st = gltf_open(data ? data : (const unsigned char *)"", length, folder, &doc);
    if (st == REACH_OK) {
        const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(doc.json, "nodes");
        if (cJSON_IsArray(nodes)) st = gltf_list_make(&doc, nodes, &tree.nodes);
        tree.node_count = tree.nodes.count;
        if (st == REACH_OK && tree.node_count == 0) st = fail(&doc, "no nodes: no character%.0d", 0);
    }
    if (st == REACH_OK) {
        size_t n = (size_t)tree.node_count;
        tree.parent = malloc(n * sizeof *tree.parent);
        tree.bone_of_node = malloc(n * sizeof *tree.bone_of_node);
        tree.rest = malloc(n * sizeof *tree.rest);
        tree.node_of_bone = malloc(n * sizeof *tree.node_of_bone);
        tree.bone_parent = malloc(n * sizeof *tree.bone_parent);
        tree.has_children = malloc(n * sizeof *tree.has_children);
        if (!tree.parent || !tree.bone_of_node || !tree.rest || !tree.node_of_bone || !tree.bone_parent ||
            !tree.has_children)
            st = fail(&doc, "out of memory (%d nodes)", tree.node_count);
    }
    const cJSON *skin_json = NULL;
    if (st == REACH_OK) st = link_nodes(&tree);
    if (st == REACH_OK) st = select_nodes(&tree, skin, &skin_json);
    if (st == REACH_OK) st = order_bones(&tree);
    if (st == REACH_OK) st = build_rig(&tree, skin_json, character);
    if (st == REACH_OK) st = read_animations(&tree, sample_rate, character);
    if (st == REACH_OK && reach_skeleton_validate(&character->rig.skeleton, NULL) != REACH_OK)
        st = fail(&doc, "the nodes make no valid skeleton%.0d", 0);
    free(tree.parent);
    free(tree.bone_of_node);
    free(tree.rest);
    free(tree.node_of_bone);
    free(tree.bone_parent);
    free(tree.has_children);
    free(tree.nodes.items);
    gltf_close(&doc);
    if (st != REACH_OK) reach_gltf_free(character);
    return st;
}

reach_status reach_gltf_read_file(const char *path, int skin, reach_real sample_rate, reach_gltf_character *character,
                                  char *error, size_t error_size) {
    if (character) memset(character, 0, sizeof *character);
    if (!path || !character) {
        formats_error(error, error_size, "no path or no character given");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    char *text;
    size_t length;
    reach_status st = formats_read_text(path, &text, &length, error, error_size);
    if (st != REACH_OK) return st;
    /* Buffers are looked up beside the file. */
    size_t folder_length = strlen(path);
    while (folder_length > 0 && path[folder_length - 1] != '/')
        --folder_length;
    char *folder = malloc(folder_length + 2);
    if (!folder) {
        free(text);
        formats_error(error, error_size, "out of memory");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (folder_length == 0)
        strcpy(folder, ".");
    else {
        memcpy(folder, path, folder_length - 1);
        folder[folder_length - 1] = '\0';
        if (folder_length == 1) strcpy(folder, "/");
    }
    st = reach_gltf_read((const unsigned char *)text, length, folder, skin, sample_rate, character, error, error_size);
    free(folder);
    free(text);
    if (st != REACH_OK) formats_prefix_path(path, error, error_size);
    return st;
}
