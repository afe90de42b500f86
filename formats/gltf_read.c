/* reach_gltf_read: the node tree checked (one parent each, no cycles), the skin's joints and
 * their ancestors made bones with scales folded into translations, animations sampled into clips. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_text.h"
#include "gltf_internal.h"
#include "reach/gltf.h"

/* Sampled clips are held to this many transforms (frames × bones) and frames. */
#define MAX_SAMPLED_TRANSFORMS ((long long)1 << 24)
#define MAX_SAMPLED_FRAMES     1000000

typedef struct trs {
    double t[3], r[4], s[3];
} trs;

typedef struct gltf_tree {
    gltf_document *doc;
    int node_count;
    const cJSON *nodes;
    int *parent;       /* per node */
    int *bone_of_node; /* per node, -1 outside the rig */
    trs *rest;         /* per node */
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

static void normalize4(double *q) {
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k)
        q[k] /= n;
}

/* A matrix (column-major) as translation, rotation and per-axis scale; shear, mirrors and zero
 * scales are refused. */
static reach_status decompose(gltf_document *doc, const double *m, trs *out, int node) {
    double col[3][3];
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r)
            col[c][r] = m[c * 4 + r];
        out->s[c] = sqrt(col[c][0] * col[c][0] + col[c][1] * col[c][1] + col[c][2] * col[c][2]);
        if (!(out->s[c] > 1e-12) || m[c * 4 + 3] != 0)
            return fail(doc, "nodes[%d]: a matrix that is no transform", node);
        for (int r = 0; r < 3; ++r)
            col[c][r] /= out->s[c];
        out->t[c] = m[12 + c];
    }
    double det = col[0][0] * (col[1][1] * col[2][2] - col[1][2] * col[2][1]) -
                 col[1][0] * (col[0][1] * col[2][2] - col[0][2] * col[2][1]) +
                 col[2][0] * (col[0][1] * col[1][2] - col[0][2] * col[1][1]);
    double shear = fabs(col[0][0] * col[1][0] + col[0][1] * col[1][1] + col[0][2] * col[1][2]) +
                   fabs(col[0][0] * col[2][0] + col[0][1] * col[2][1] + col[0][2] * col[2][2]) +
                   fabs(col[1][0] * col[2][0] + col[1][1] * col[2][1] + col[1][2] * col[2][2]);
    if (m[15] != 1 || det < 0.999 || shear > 1e-4)
        return fail(doc, "nodes[%d]: a matrix with shear or a mirror, which a skeleton cannot hold", node);
    /* R[r][c] = col[c][r]; Shepperd's method. */
    double r00 = col[0][0], r11 = col[1][1], r22 = col[2][2], trace = r00 + r11 + r22;
    double *q = out->r;
    if (trace > 0) {
        double s = 2 * sqrt(1 + trace);
        q[3] = s / 4, q[0] = (col[1][2] - col[2][1]) / s, q[1] = (col[2][0] - col[0][2]) / s,
        q[2] = (col[0][1] - col[1][0]) / s;
    } else if (r00 > r11 && r00 > r22) {
        double s = 2 * sqrt(1 + r00 - r11 - r22);
        q[3] = (col[1][2] - col[2][1]) / s, q[0] = s / 4, q[1] = (col[1][0] + col[0][1]) / s,
        q[2] = (col[2][0] + col[0][2]) / s;
    } else if (r11 > r22) {
        double s = 2 * sqrt(1 + r11 - r00 - r22);
        q[3] = (col[2][0] - col[0][2]) / s, q[0] = (col[1][0] + col[0][1]) / s, q[1] = s / 4,
        q[2] = (col[2][1] + col[1][2]) / s;
    } else {
        double s = 2 * sqrt(1 + r22 - r00 - r11);
        q[3] = (col[0][1] - col[1][0]) / s, q[0] = (col[2][0] + col[0][2]) / s, q[1] = (col[2][1] + col[1][2]) / s,
        q[2] = s / 4;
    }
    normalize4(q);
    return REACH_OK;
}

static reach_status node_rest(gltf_tree *tree, int i) {
    gltf_document *doc = tree->doc;
    const cJSON *node = cJSON_GetArrayItem(tree->nodes, i);
    trs *x = &tree->rest[i];
    const trs identity = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    *x = identity;
    if (!cJSON_IsObject(node)) return fail(doc, "nodes[%d] is not an object", i);
    if (cJSON_GetObjectItemCaseSensitive(node, "matrix")) {
        double m[16];
        reach_status st = numbers(doc, node, "matrix", 16, m, i);
        return st != REACH_OK ? st : decompose(doc, m, x, i);
    }
    reach_status st = numbers(doc, node, "translation", 3, x->t, i);
    if (st == REACH_OK) st = numbers(doc, node, "rotation", 4, x->r, i);
    if (st == REACH_OK) st = numbers(doc, node, "scale", 3, x->s, i);
    if (st != REACH_OK) return st;
    double length = sqrt(x->r[0] * x->r[0] + x->r[1] * x->r[1] + x->r[2] * x->r[2] + x->r[3] * x->r[3]);
    if (!(length > 1e-6)) return fail(doc, "nodes[%d]: a rotation of zero length", i);
    normalize4(x->r);
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
        const cJSON *children = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(tree->nodes, i), "children");
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
        const cJSON *children = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(tree->nodes, node), "children");
        for (int k = cJSON_GetArraySize(children) - 1; k >= 0; --k) {
            int child = (int)cJSON_GetArrayItem(children, k)->valuedouble;
            if (tree->bone_of_node[child] == -3) stack[top++] = child;
        }
    }
    free(stack);
    return REACH_OK;
}

/* Bones' local transforms from their nodes' TRS, each uniform scale folded into the translations
 * below it. Returns the first bone whose scale cannot be folded (non-uniform, zero or negative,
 * with bones below it), or -1. scale holds a number per bone. */
static int fold_scales(const gltf_tree *tree, const trs *local, reach_transform *out, double *scale) {
    for (int b = 0; b < tree->bone_count; ++b) {
        const trs *x = &local[b];
        int parent = tree->bone_parent[b];
        double above = parent < 0 ? 1 : scale[parent];
        double s = x->s[0];
        int uniform = s > 0 && fabs(x->s[1] - s) <= 1e-6 * s && fabs(x->s[2] - s) <= 1e-6 * s;
        if (!uniform && tree->has_children[b]) return b;
        scale[b] = above * (uniform ? s : 1);
        double q[4] = {x->r[0], x->r[1], x->r[2], x->r[3]};
        normalize4(q);
        out[b] = reach_transform_make(
            reach_quat_make((reach_real)q[0], (reach_real)q[1], (reach_real)q[2], (reach_real)q[3]),
            reach_vec3_make((reach_real)(above * x->t[0]), (reach_real)(above * x->t[1]),
                            (reach_real)(above * x->t[2])));
        if (!reach_vec3_is_finite(out[b].translation) || !isfinite(scale[b])) return b;
    }
    return -1;
}

typedef struct channel {
    int bone, path; /* path: 0 translation, 1 rotation, 2 scale */
    int step;       /* STEP rather than LINEAR */
    double *times, *values;
    int count;
} channel;

/* A sample within `snap` seconds of a key takes that key (see channel_sample). */
static void channel_sample(const channel *c, double time, double snap, double *out) {
    int width = c->path == 1 ? 4 : 3;
    /* hi: the first key after time (binary search: hostile files have many keys). */
    int hi = 0, end = c->count;
    while (hi < end) {
        int mid = hi + (end - hi) / 2;
        if (c->times[mid] <= time)
            hi = mid + 1;
        else
            end = mid;
    }
    if (hi == 0 || hi == c->count || c->step) {
        int at = hi == 0 ? 0 : hi - 1;
        memcpy(out, c->values + (size_t)at * (size_t)width, (size_t)width * sizeof *out);
        return;
    }
    int lo = hi - 1;
    /* Key times are float32: a sample within a key's rounding (2^-23 of its time), or within snap
     * of it when sampling at the keys' own rate, is that key, so a clip sampled at the rate it was
     * keyed at gets its keys back exactly. */
    int near = time - c->times[lo] <= fmax(c->times[lo] * 0x1p-23, snap)   ? lo
               : c->times[hi] - time <= fmax(c->times[hi] * 0x1p-23, snap) ? hi
                                                                           : -1;
    if (near >= 0) {
        memcpy(out, c->values + (size_t)near * (size_t)width, (size_t)width * sizeof *out);
        return;
    }
    double t = (time - c->times[lo]) / (c->times[hi] - c->times[lo]);
    const double *a = c->values + (size_t)lo * (size_t)width, *b = c->values + (size_t)hi * (size_t)width;
    if (c->path != 1) {
        for (int k = 0; k < 3; ++k)
            out[k] = a[k] + (b[k] - a[k]) * t;
        return;
    }
    reach_quat qa = reach_quat_make((reach_real)a[0], (reach_real)a[1], (reach_real)a[2], (reach_real)a[3]);
    reach_quat qb = reach_quat_make((reach_real)b[0], (reach_real)b[1], (reach_real)b[2], (reach_real)b[3]);
    reach_quat q = reach_quat_normalize_safe(
        reach_quat_slerp(reach_quat_normalize_safe(qa), reach_quat_normalize_safe(qb), (reach_real)t));
    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
}

/* One channel's keys read and checked: times ascending, as many outputs as times. */
static reach_status read_channel(gltf_tree *tree, const cJSON *animation, const cJSON *item, channel *c, int index) {
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
    const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(animation, "samplers");
    long long s = gltf_integer(doc, item, "sampler", 0, cJSON_GetArraySize(samplers) - 1, -1, "an animation channel");
    if (s < 0) return fail(doc, "animation %d: a channel without a sampler", index);
    const cJSON *sampler = cJSON_GetArrayItem(samplers, (int)s);
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
    trs *local = malloc((size_t)tree->bone_count * sizeof *local);
    double *scale = malloc((size_t)tree->bone_count * sizeof *scale);
    reach_status st = channels && local && scale ? REACH_OK : fail(doc, "out of memory (animation %d)", index);
    double duration = 0;
    for (int k = 0; k < count && st == REACH_OK; ++k) {
        st = read_channel(tree, animation, cJSON_GetArrayItem(items, k), &channels[k], index);
        if (st == REACH_OK && channels[k].bone >= 0 && channels[k].times[channels[k].count - 1] > duration)
            duration = channels[k].times[channels[k].count - 1];
    }
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
            trs *x = &local[c->bone];
            channel_sample(c, f / (double)rate, snap, c->path == 0 ? x->t : c->path == 1 ? x->r : x->s);
        }
        int bad = fold_scales(tree, local, reach_clip_frame(clip, f), scale);
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

static char *copy_name(const char *name, const char *prefix, int index) {
    char fallback[48];
    if (!name) {
        snprintf(fallback, sizeof fallback, "%s_%d", prefix, index);
        name = fallback;
    }
    char *copy = malloc(strlen(name) + 1);
    if (copy) strcpy(copy, name);
    return copy;
}

static reach_status build_rig(gltf_tree *tree, const cJSON *skin, reach_gltf_character *out) {
    gltf_document *doc = tree->doc;
    int n = tree->bone_count;
    reach_rig *rig = &out->rig;
    rig->bone_count = n;
    rig->bone_names = calloc((size_t)n, sizeof *rig->bone_names);
    rig->joint_names = calloc((size_t)n, sizeof *rig->joint_names);
    rig->parents = malloc((size_t)n * sizeof *rig->parents);
    rig->rest = malloc((size_t)n * sizeof *rig->rest);
    rig->joints = malloc((size_t)n * sizeof *rig->joints);
    out->node_of_bone = malloc((size_t)n * sizeof *out->node_of_bone);
    out->inverse_bind = malloc((size_t)n * 16 * sizeof *out->inverse_bind);
    trs *local = malloc((size_t)n * sizeof *local);
    double *scale = malloc((size_t)n * sizeof *scale);
    reach_status st = REACH_OK;
    if (!rig->bone_names || !rig->joint_names || !rig->parents || !rig->rest || !rig->joints || !out->node_of_bone ||
        !out->inverse_bind || !local || !scale)
        st = fail(doc, "out of memory (%d bones)", n);
    for (int b = 0; b < n && st == REACH_OK; ++b) {
        int node = tree->node_of_bone[b];
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(tree->nodes, node), "name");
        rig->bone_names[b] = copy_name(cJSON_IsString(name) ? name->valuestring : NULL, "node", node);
        if (!rig->bone_names[b]) st = fail(doc, "out of memory (%d bones)", n);
        rig->parents[b] = tree->bone_parent[b];
        rig->joints[b] = reach_joint_ball();
        out->node_of_bone[b] = node;
        local[b] = tree->rest[node];
        const trs *x = &local[b];
        if (x->s[0] != 1 || x->s[1] != 1 || x->s[2] != 1) out->scale_folded = 1;
        for (int k = 0; k < 16; ++k)
            out->inverse_bind[b * 16 + k] = (reach_real)(k % 5 == 0);
    }
    if (st == REACH_OK) {
        int bad = fold_scales(tree, local, rig->rest, scale);
        if (bad >= 0)
            st = fail(doc,
                      "nodes[%d]: a scale that cannot be folded into translations (non-uniform, zero or negative, "
                      "with bones below it)",
                      tree->node_of_bone[bad]);
    }
    free(local);
    free(scale);
    rig->skeleton.bone_count = n;
    rig->skeleton.parents = rig->parents;
    rig->skeleton.rest = rig->rest;
    rig->skeleton.joints = rig->joints;
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
    for (int j = 0; j < count; ++j) {
        int bone = tree->bone_of_node[(int)cJSON_GetArrayItem(joints, j)->valuedouble];
        for (int k = 0; k < 16; ++k)
            out->inverse_bind[bone * 16 + k] = (reach_real)values[j * 16 + k];
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
    for (int a = 0; a < count; ++a) {
        const cJSON *animation = cJSON_GetArrayItem(animations, a);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(animation, "name");
        out->clip_names[a] = copy_name(cJSON_IsString(name) ? name->valuestring : NULL, "animation", a);
        if (!out->clip_names[a]) return fail(doc, "out of memory (%d animations)", count);
        out->clip_count = a + 1;
        reach_status st = sample_animation(tree, animation, a, rate, &out->clips[a]);
        if (st != REACH_OK) return st;
    }
    return REACH_OK;
}

void reach_gltf_free(reach_gltf_character *character) {
    if (!character) return;
    reach_rig_free(&character->rig);
    for (int a = 0; a < character->clip_count; ++a) {
        reach_clip_free(&character->clips[a]);
        free(character->clip_names[a]);
    }
    free(character->clips);
    free(character->clip_names);
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
        tree.nodes = cJSON_GetObjectItemCaseSensitive(doc.json, "nodes");
        tree.node_count = cJSON_IsArray(tree.nodes) ? cJSON_GetArraySize(tree.nodes) : 0;
        if (tree.node_count == 0) st = fail(&doc, "no nodes: no character%.0d", 0);
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
