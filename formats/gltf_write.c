/* reach_gltf_write: a rig and its clips as a glTF 2.0 document (cJSON) and one buffer of
 * little-endian floats. Node i is bone i; one skin holds every bone; each clip is an animation
 * with a rotation sampler per bone (and a translation sampler per bone whose translation moves)
 * over one shared input of key times. How the
 * buffer is stored (embedded, beside, GLB) is gltf_write_layout.c's job. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_text.h"
#include "gltf_write_internal.h"
#include "reach/gltf.h"

#define GLTF_FLOAT          5126
#define GLTF_UNSIGNED_SHORT 5123
#define GLTF_ARRAY_BUFFER   34962

typedef struct writer {
    cJSON *root, *accessors, *views;
    gltf_bytes buffer;
    int beyond_float; /* a value too large for the float32 the buffer holds */
    char *error;
    size_t error_size;
} writer;

int gltf_bytes_append(gltf_bytes *bytes, const void *data, size_t length) {
    if (bytes->failed) return 0;
    if (length > bytes->capacity - bytes->length) {
        size_t capacity = bytes->capacity ? bytes->capacity : 4096;
        while (capacity - bytes->length < length) {
            if (capacity > SIZE_MAX / 2) {
                bytes->failed = 1;
                return 0;
            }
            capacity *= 2;
        }
        unsigned char *grown = realloc(bytes->data, capacity);
        if (!grown) {
            bytes->failed = 1;
            return 0;
        }
        bytes->data = grown;
        bytes->capacity = capacity;
    }
    if (length) memcpy(bytes->data + bytes->length, data, length);
    bytes->length += length;
    return 1;
}

/* A float32 in glTF's byte order (little-endian) whatever the host's. */
static void append_float(writer *w, double value) {
    float f = fabs(value) <= FLT_MAX ? (float)value : 0;
    if (!(fabs(value) <= FLT_MAX)) w->beyond_float = 1;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    unsigned char le[4] = {(unsigned char)(bits & 0xFFu), (unsigned char)((bits >> 8) & 0xFFu),
                           (unsigned char)((bits >> 16) & 0xFFu), (unsigned char)(bits >> 24)};
    gltf_bytes_append(&w->buffer, le, sizeof le);
}

/* A bufferView over the bytes appended since `start`, and an accessor of `count` elements of
 * `type` (components of componentType, 5126 float) on it; its index. */
static int add_accessor_of(writer *w, size_t start, int count, const char *type, int component_type) {
    int view = cJSON_GetArraySize(w->views);
    cJSON *v = cJSON_CreateObject();
    cJSON_AddItemToArray(w->views, v);
    cJSON_AddNumberToObject(v, "buffer", 0);
    cJSON_AddNumberToObject(v, "byteOffset", (double)start);
    cJSON_AddNumberToObject(v, "byteLength", (double)(w->buffer.length - start));
    int index = cJSON_GetArraySize(w->accessors);
    cJSON *a = cJSON_CreateObject();
    cJSON_AddItemToArray(w->accessors, a);
    cJSON_AddNumberToObject(a, "bufferView", view);
    cJSON_AddNumberToObject(a, "componentType", component_type);
    cJSON_AddNumberToObject(a, "count", count);
    cJSON_AddStringToObject(a, "type", type);
    return index;
}

static int add_accessor(writer *w, size_t start, int count, const char *type) {
    return add_accessor_of(w, start, count, type, GLTF_FLOAT);
}

typedef struct quat_d {
    double x, y, z, w;
} quat_d;

static quat_d unit(reach_quat q) {
    double x = (double)q.x, y = (double)q.y, z = (double)q.z, w = (double)q.w;
    double n = sqrt(x * x + y * y + z * z + w * w);
    quat_d u = {x / n, y / n, z / n, w / n};
    return u;
}

/* Column-major 4×4 of a rigid transform. */
static void matrix_of(reach_transform x, double m[16]) {
    quat_d q = unit(x.rotation);
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z, wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    double r[16] = {1 - 2 * (yy + zz),       2 * (xy + wz),           2 * (xz - wy),           0,
                    2 * (xy - wz),           1 - 2 * (xx + zz),       2 * (yz + wx),           0,
                    2 * (xz + wy),           2 * (yz - wx),           1 - 2 * (xx + yy),       0,
                    (double)x.translation.x, (double)x.translation.y, (double)x.translation.z, 1};
    memcpy(m, r, sizeof r);
}

static void multiply(const double a[16], const double b[16], double out[16]) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            double s = 0;
            for (int k = 0; k < 4; ++k)
                s += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = s;
        }
}

/* The inverse of a rigid world matrix: [Rᵀ | -Rᵀ t]. */
static void invert_rigid(const double m[16], double out[16]) {
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            out[c * 4 + r] = m[r * 4 + c];
    for (int r = 0; r < 3; ++r) {
        out[r * 4 + 3] = 0;
        out[12 + r] = -(m[r * 4] * m[12] + m[r * 4 + 1] * m[13] + m[r * 4 + 2] * m[14]);
    }
    out[15] = 1;
}

static cJSON *numbers(const double *values, int count) {
    cJSON *array = cJSON_CreateArray();
    for (int k = 0; k < count; ++k)
        cJSON_AddItemToArray(array, cJSON_CreateNumber(values[k]));
    return array;
}

static void add_nodes(writer *w, const reach_rig *rig) {
    cJSON *nodes = cJSON_AddArrayToObject(w->root, "nodes");
    cJSON *roots = cJSON_CreateArray();
    for (int b = 0; b < rig->bone_count; ++b) {
        cJSON *node = cJSON_CreateObject();
        cJSON_AddItemToArray(nodes, node);
        cJSON_AddStringToObject(node, "name", rig->bone_names[b]);
        reach_vec3 t = rig->rest[b].translation;
        quat_d q = unit(rig->rest[b].rotation);
        double translation[3] = {(double)t.x, (double)t.y, (double)t.z}, rotation[4] = {q.x, q.y, q.z, q.w};
        if (translation[0] != 0 || translation[1] != 0 || translation[2] != 0)
            cJSON_AddItemToObject(node, "translation", numbers(translation, 3));
        if (rotation[3] != 1) cJSON_AddItemToObject(node, "rotation", numbers(rotation, 4));
        cJSON *children = NULL;
        for (int c = b + 1; c < rig->bone_count; ++c) {
            if (rig->parents[c] != b) continue;
            if (!children) children = cJSON_AddArrayToObject(node, "children");
            cJSON_AddItemToArray(children, cJSON_CreateNumber(c));
        }
        if (rig->parents[b] < 0) cJSON_AddItemToArray(roots, cJSON_CreateNumber(b));
    }
    cJSON_AddNumberToObject(w->root, "scene", 0);
    cJSON *scene = cJSON_CreateObject();
    cJSON_AddItemToObject(scene, "nodes", roots);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(w->root, "scenes"), scene);
}

/* Each bone's world rest transform (column-major 4×4, bone after bone). */
static double *world_rest(const reach_rig *rig) {
    double *world = malloc((size_t)rig->bone_count * 16 * sizeof *world);
    for (int b = 0; b < rig->bone_count && world; ++b) {
        double local[16];
        matrix_of(rig->rest[b], local);
        if (rig->parents[b] < 0)
            memcpy(world + 16 * b, local, sizeof local);
        else
            multiply(world + 16 * rig->parents[b], local, world + 16 * b);
    }
    return world;
}

/* One skin over every bone; its inverse bind matrices undo each bone's world rest transform. */
static void add_skin(writer *w, const reach_rig *rig, const double *world) {
    size_t start = w->buffer.length;
    cJSON *joints = cJSON_CreateArray();
    for (int b = 0; b < rig->bone_count; ++b) {
        double inverse[16];
        invert_rigid(world + 16 * b, inverse);
        for (int k = 0; k < 16; ++k)
            append_float(w, inverse[k]);
        cJSON_AddItemToArray(joints, cJSON_CreateNumber(b));
    }
    cJSON *skin = cJSON_CreateObject();
    cJSON_AddItemToObject(skin, "joints", joints);
    cJSON_AddNumberToObject(skin, "inverseBindMatrices", add_accessor(w, start, rig->bone_count, "MAT4"));
    int root = -1;
    for (int b = 0; b < rig->bone_count; ++b)
        if (rig->parents[b] < 0) root = root < 0 ? b : -2;
    if (root >= 0) cJSON_AddNumberToObject(skin, "skeleton", root);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(w->root, "skins"), skin);
}

/* Marks an accessor's bufferView as vertex data (ARRAY_BUFFER), as the validator asks of mesh
 * attributes. */
static void mark_vertex_data(writer *w, int accessor) {
    const cJSON *view = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(w->accessors, accessor), "bufferView");
    if (cJSON_IsNumber(view))
        cJSON_AddNumberToObject(cJSON_GetArrayItem(w->views, view->valueint), "target", GLTF_ARRAY_BUFFER);
}

static void append_u16(writer *w, unsigned value) {
    unsigned char le[2] = {(unsigned char)(value & 0xFFu), (unsigned char)((value >> 8) & 0xFFu)};
    gltf_bytes_append(&w->buffer, le, sizeof le);
}

/* A mesh the skin deforms: a small triangle at each bone, along its x and z axes, bound to it
 * alone. A skin is only drawn (three.js), counted as bones (assimp) or imported with its mesh
 * (Blender) when a mesh uses it; the triangles show each bone's place and turn as it plays. The
 * mesh's node is a scene root outside the skin, so readers of the rig do not see it. */
static void add_marker_mesh(writer *w, const reach_rig *rig, const double *world) {
    double low[3], high[3];
    for (int b = 0; b < rig->bone_count; ++b)
        for (int k = 0; k < 3; ++k) {
            double x = world[16 * b + 12 + k];
            low[k] = b == 0 || x < low[k] ? x : low[k];
            high[k] = b == 0 || x > high[k] ? x : high[k];
        }
    double diagonal = sqrt((high[0] - low[0]) * (high[0] - low[0]) + (high[1] - low[1]) * (high[1] - low[1]) +
                           (high[2] - low[2]) * (high[2] - low[2]));
    double size = diagonal > 0 ? 0.02 * diagonal : 0.05;
    size_t start = w->buffer.length;
    double vertex_low[3] = {0, 0, 0}, vertex_high[3] = {0, 0, 0};
    for (int b = 0; b < rig->bone_count; ++b) {
        const double *m = world + 16 * b;
        for (int corner = 0; corner < 3; ++corner)
            for (int k = 0; k < 3; ++k) {
                double x = m[12 + k] + (corner == 1 ? size * m[k] : corner == 2 ? size * m[8 + k] : 0);
                float stored = (float)x;
                vertex_low[k] = (b == 0 && corner == 0) || stored < vertex_low[k] ? stored : vertex_low[k];
                vertex_high[k] = (b == 0 && corner == 0) || stored > vertex_high[k] ? stored : vertex_high[k];
                append_float(w, x);
            }
    }
    int count = 3 * rig->bone_count;
    int positions = add_accessor(w, start, count, "VEC3");
    cJSON *position_accessor = cJSON_GetArrayItem(w->accessors, positions);
    cJSON_AddItemToObject(position_accessor, "min", numbers(vertex_low, 3));
    cJSON_AddItemToObject(position_accessor, "max", numbers(vertex_high, 3));
    start = w->buffer.length;
    for (int v = 0; v < count; ++v) {
        append_u16(w, (unsigned)(v / 3));
        for (int k = 0; k < 3; ++k)
            append_u16(w, 0);
    }
    int joints = add_accessor_of(w, start, count, "VEC4", GLTF_UNSIGNED_SHORT);
    start = w->buffer.length;
    for (int v = 0; v < count; ++v)
        for (int k = 0; k < 4; ++k)
            append_float(w, k == 0);
    int weights = add_accessor(w, start, count, "VEC4");

    mark_vertex_data(w, positions);
    mark_vertex_data(w, joints);
    mark_vertex_data(w, weights);
    cJSON *primitive = cJSON_CreateObject();
    cJSON *attributes = cJSON_AddObjectToObject(primitive, "attributes");
    cJSON_AddNumberToObject(attributes, "POSITION", positions);
    cJSON_AddNumberToObject(attributes, "JOINTS_0", joints);
    cJSON_AddNumberToObject(attributes, "WEIGHTS_0", weights);
    cJSON *mesh = cJSON_CreateObject();
    cJSON_AddStringToObject(mesh, "name", "bone markers");
    cJSON_AddItemToArray(cJSON_AddArrayToObject(mesh, "primitives"), primitive);
    cJSON_AddItemToArray(cJSON_AddArrayToObject(w->root, "meshes"), mesh);
    cJSON *node = cJSON_CreateObject();
    cJSON_AddStringToObject(node, "name", "bone markers");
    cJSON_AddNumberToObject(node, "mesh", 0);
    cJSON_AddNumberToObject(node, "skin", 0);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(w->root, "nodes"), node);
    cJSON *scene = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(w->root, "scenes"), 0);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(scene, "nodes"), cJSON_CreateNumber(rig->bone_count));
}

static void add_channel(cJSON *animation, int input, int output, int node, const char *path) {
    cJSON *samplers = cJSON_GetObjectItemCaseSensitive(animation, "samplers");
    cJSON *sampler = cJSON_CreateObject();
    cJSON_AddNumberToObject(sampler, "input", input);
    cJSON_AddNumberToObject(sampler, "output", output);
    cJSON_AddStringToObject(sampler, "interpolation", "LINEAR");
    cJSON *channel = cJSON_CreateObject();
    cJSON_AddNumberToObject(channel, "sampler", cJSON_GetArraySize(samplers));
    cJSON *target = cJSON_AddObjectToObject(channel, "target");
    cJSON_AddNumberToObject(target, "node", node);
    cJSON_AddStringToObject(target, "path", path);
    cJSON_AddItemToArray(samplers, sampler);
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(animation, "channels"), channel);
}

/* Whether bone b's translation leaves its rest in some frame: only then does it get a channel (its
 * node's rest, written exactly, holds it otherwise). */
static int translation_moves(const reach_clip *clip, int b, reach_vec3 rest) {
    for (int f = 0; f < clip->frame_count; ++f) {
        reach_vec3 t = clip->frames[(size_t)f * (size_t)clip->bone_count + (size_t)b].translation;
        if (t.x != rest.x || t.y != rest.y || t.z != rest.z) return 1;
    }
    return 0;
}

static reach_status add_animation(writer *w, const reach_clip *clip, const reach_transform *rest, const char *name,
                                  int index) {
    /* Key times as float32 must still increase, or readers refuse the sampler. */
    float previous = -1;
    size_t start = w->buffer.length;
    for (int f = 0; f < clip->frame_count; ++f) {
        double time = f / (double)clip->frame_rate;
        if (!(time <= FLT_MAX)) {
            w->beyond_float = 1; /* reported once the document is built */
            return REACH_OK;
        }
        if (!((float)time > previous)) {
            formats_error(w->error, w->error_size,
                          "clip %d: %d frames at %g per second are too many for glTF's float key times", index,
                          clip->frame_count, (double)clip->frame_rate);
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        previous = (float)time;
        append_float(w, time);
    }
    int input = add_accessor(w, start, clip->frame_count, "SCALAR");
    cJSON *input_accessor = cJSON_GetArrayItem(w->accessors, input);
    double first = 0, last = (double)previous;
    cJSON_AddItemToObject(input_accessor, "min", numbers(&first, 1));
    cJSON_AddItemToObject(input_accessor, "max", numbers(&last, 1));

    cJSON *animation = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(w->root, "animations"), animation);
    char fallback[32];
    snprintf(fallback, sizeof fallback, "animation_%d", index);
    cJSON_AddStringToObject(animation, "name", name ? name : fallback);
    cJSON_AddArrayToObject(animation, "channels");
    cJSON_AddArrayToObject(animation, "samplers");
    size_t bones = (size_t)clip->bone_count;
    for (int b = 0; b < clip->bone_count; ++b) {
        if (translation_moves(clip, b, rest[b].translation)) {
            start = w->buffer.length;
            for (int f = 0; f < clip->frame_count; ++f) {
                reach_vec3 t = clip->frames[(size_t)f * bones + (size_t)b].translation;
                append_float(w, (double)t.x);
                append_float(w, (double)t.y);
                append_float(w, (double)t.z);
            }
            add_channel(animation, input, add_accessor(w, start, clip->frame_count, "VEC3"), b, "translation");
        }
        start = w->buffer.length;
        quat_d before = {0, 0, 0, 1};
        for (int f = 0; f < clip->frame_count; ++f) {
            quat_d q = unit(clip->frames[(size_t)f * bones + (size_t)b].rotation);
            if (q.x * before.x + q.y * before.y + q.z * before.z + q.w * before.w < 0) {
                q.x = -q.x, q.y = -q.y, q.z = -q.z, q.w = -q.w;
            }
            append_float(w, q.x);
            append_float(w, q.y);
            append_float(w, q.z);
            append_float(w, q.w);
            before = q;
        }
        add_channel(animation, input, add_accessor(w, start, clip->frame_count, "VEC4"), b, "rotation");
    }
    return REACH_OK;
}

/* The rig as a valid skeleton, and every clip against it: same bones, frames, a finite rate,
 * finite transforms with rotations that are not zero. */
static reach_status check_input(const reach_rig *rig, const reach_clip *clips, int clip_count, char *error,
                                size_t error_size) {
    int bad = -1;
    if (!rig || rig->bone_count < 1 || !rig->bone_names || reach_skeleton_validate(&rig->skeleton, &bad) != REACH_OK) {
        formats_error(error, error_size, "the rig is not a valid skeleton (bone %d)", bad);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    for (int b = 0; b < rig->bone_count; ++b)
        if (!rig->bone_names[b]) {
            formats_error(error, error_size, "bone %d has no name", b);
            return REACH_ERROR_INVALID_ARGUMENT;
        }
    if (clip_count < 0 || (clip_count > 0 && !clips)) {
        formats_error(error, error_size, "%d clips given", clip_count);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    for (int c = 0; c < clip_count; ++c) {
        const reach_clip *clip = &clips[c];
        if (clip->bone_count != rig->bone_count || clip->frame_count < 1 || !clip->frames ||
            !reach_is_finite(clip->frame_rate) || !(clip->frame_rate > 0)) {
            formats_error(error, error_size, "clip %d has %d bones, %d frames at %g per second: the rig has %d bones",
                          c, clip->bone_count, clip->frame_count, (double)clip->frame_rate, rig->bone_count);
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        size_t count = (size_t)clip->frame_count * (size_t)clip->bone_count;
        for (size_t i = 0; i < count; ++i) {
            const reach_transform *x = &clip->frames[i];
            size_t frame = i / (size_t)clip->bone_count, bone = i % (size_t)clip->bone_count;
            if (!reach_quat_is_finite(x->rotation) || !reach_vec3_is_finite(x->translation)) {
                formats_error(error, error_size, "clip %d, frame %zu, bone %zu: not finite", c, frame, bone);
                return REACH_ERROR_NOT_FINITE;
            }
            if (reach_quat_dot(x->rotation, x->rotation) == 0) {
                formats_error(error, error_size, "clip %d, frame %zu, bone %zu: a zero rotation", c, frame, bone);
                return REACH_ERROR_BAD_QUATERNION;
            }
        }
    }
    return REACH_OK;
}

reach_status gltf_build(const reach_rig *rig, const reach_clip *clips, const char *const *clip_names, int clip_count,
                        cJSON **json, gltf_bytes *buffer, char *error, size_t error_size) {
    *json = NULL;
    memset(buffer, 0, sizeof *buffer);
    reach_status st = check_input(rig, clips, clip_count, error, error_size);
    if (st != REACH_OK) return st;
    writer w;
    memset(&w, 0, sizeof w);
    w.error = error;
    w.error_size = error_size;
    w.root = cJSON_CreateObject();
    if (!w.root) {
        formats_error(error, error_size, "out of memory");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    cJSON *asset = cJSON_AddObjectToObject(w.root, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "reach");
    w.accessors = cJSON_AddArrayToObject(w.root, "accessors");
    w.views = cJSON_AddArrayToObject(w.root, "bufferViews");
    add_nodes(&w, rig);
    double *world = world_rest(rig);
    if (world) {
        add_skin(&w, rig, world);
        add_marker_mesh(&w, rig, world);
        free(world);
    } else {
        formats_error(error, error_size, "out of memory");
        st = REACH_ERROR_INVALID_ARGUMENT;
    }
    if (clip_count > 0) cJSON_AddArrayToObject(w.root, "animations");
    for (int c = 0; c < clip_count && st == REACH_OK; ++c)
        st = add_animation(&w, &clips[c], rig->rest, clip_names ? clip_names[c] : NULL, c);
    if (st == REACH_OK && w.buffer.failed) {
        formats_error(error, error_size, "out of memory");
        st = REACH_ERROR_INVALID_ARGUMENT;
    }
    if (st == REACH_OK && w.beyond_float) {
        formats_error(error, error_size,
                      "a position or key time beyond float32's range (3.4e38), which glTF's buffers hold");
        st = REACH_ERROR_INVALID_ARGUMENT;
    }
    if (st != REACH_OK) {
        cJSON_Delete(w.root);
        free(w.buffer.data);
        return st;
    }
    *json = w.root;
    *buffer = w.buffer;
    return REACH_OK;
}
