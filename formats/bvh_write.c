/* reach_bvh_write: a rig and clip as BVH text. Joints depth first (the order the motion's values
 * follow), rotations as Z, Y, X Euler angles in degrees (R = Rz · Ry · Rx). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"
#include "file_text.h"
#include "reach/bvh.h"

#define PI 3.14159265358979323846

/* Enough digits that reading the text back gives the same reach_real. */
#ifdef REACH_DOUBLE
#define DIGITS 17
#else
#define DIGITS 9
#endif

typedef struct text_buffer {
    char *data;
    size_t length, capacity;
    int failed;
} text_buffer;

static void put(text_buffer *t, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(text_buffer *t, const char *format, ...) {
    if (t->failed) return;
    for (;;) {
        va_list args;
        va_start(args, format);
        int n = vsnprintf(t->data ? t->data + t->length : NULL, t->data ? t->capacity - t->length : 0, format, args);
        va_end(args);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if (t->data && (size_t)n < t->capacity - t->length) {
            t->length += (size_t)n;
            return;
        }
        size_t capacity = t->capacity ? t->capacity : 4096;
        while (capacity - t->length <= (size_t)n)
            capacity *= 2;
        char *grown = realloc(t->data, capacity);
        if (!grown) {
            t->failed = 1;
            return;
        }
        t->data = grown;
        t->capacity = capacity;
    }
}

typedef struct writer {
    const reach_rig *rig;
    const reach_transform *frames; /* frame_count × bone_count */
    int frame_count;
    reach_real frame_rate;
    int *order;         /* bones depth first */
    int *depth;         /* per bone */
    int *end_site;      /* per bone */
    int *with_position; /* per bone */
    text_buffer text;
} writer;

static int same_vec3(reach_vec3 a, reach_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static int is_end_site(const writer *w, int bone, const int *child_count) {
    const reach_rig *rig = w->rig;
    int parent = rig->parents[bone];
    if (parent < 0 || child_count[bone] > 0) return 0;
    size_t n = strlen(rig->bone_names[parent]);
    if (strncmp(rig->bone_names[bone], rig->bone_names[parent], n) != 0 || strcmp(rig->bone_names[bone] + n, "_end"))
        return 0;
    for (int f = 0; f < w->frame_count; ++f)
        if (!same_vec3(w->frames[(size_t)f * (size_t)rig->bone_count + (size_t)bone].translation,
                       rig->rest[bone].translation))
            return 0;
    return 1;
}

/* Depth-first order, each bone's children in index order; depths checked against the reader's.
 * Children are listed once per bone (first_child[b] .. first_child[b + 1] in children, by
 * index), so the whole is linear in the bone count. */
static reach_status plan(writer *w, char *error, size_t error_size) {
    const reach_rig *rig = w->rig;
    int n = rig->bone_count;
    int *child_count = calloc((size_t)n, sizeof *child_count);
    int *first_child = malloc(((size_t)n + 1) * sizeof *first_child);
    int *children = malloc((size_t)n * sizeof *children);
    int *stack = malloc((size_t)n * sizeof *stack);
    if (!child_count || !first_child || !children || !stack) {
        free(child_count);
        free(first_child);
        free(children);
        free(stack);
        formats_error(error, error_size, "out of memory");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    for (int b = 0; b < n; ++b) {
        w->depth[b] = rig->parents[b] < 0 ? 0 : w->depth[rig->parents[b]] + 1;
        if (rig->parents[b] >= 0) ++child_count[rig->parents[b]];
    }
    first_child[0] = 0;
    for (int b = 0; b < n; ++b)
        first_child[b + 1] = first_child[b] + child_count[b];
    /* stack serves as each bone's next free place in children while they are listed. */
    memcpy(stack, first_child, (size_t)n * sizeof *stack);
    for (int b = 0; b < n; ++b)
        if (rig->parents[b] >= 0) children[stack[rig->parents[b]]++] = b;
    reach_status st = REACH_OK;
    int placed = 0, top = 0;
    for (int b = n - 1; b >= 0; --b)
        if (rig->parents[b] < 0) stack[top++] = b;
    while (top > 0) {
        int b = stack[--top];
        w->order[placed++] = b;
        if (w->depth[b] >= REACH_BVH_MAX_DEPTH) st = REACH_ERROR_INVALID_ARGUMENT;
        for (int k = first_child[b + 1] - 1; k >= first_child[b]; --k)
            stack[top++] = children[k];
    }
    for (int b = 0; b < n; ++b) {
        w->end_site[b] = is_end_site(w, b, child_count);
        w->with_position[b] = rig->parents[b] < 0;
        for (int f = 0; f < w->frame_count && !w->with_position[b]; ++f)
            w->with_position[b] =
                !same_vec3(w->frames[(size_t)f * (size_t)n + (size_t)b].translation, rig->rest[b].translation);
    }
    free(child_count);
    free(first_child);
    free(children);
    free(stack);
    if (st != REACH_OK)
        formats_error(error, error_size, "the rig nests bones deeper than %d, more than BVH readers take",
                      REACH_BVH_MAX_DEPTH);
    return st;
}

/* A name as one BVH word: white space becomes '_', an empty name `bone_<index>`. */
static void put_name(text_buffer *t, const char *name, int bone) {
    if (!name[0]) {
        put(t, "bone_%d", bone);
        return;
    }
    for (const char *c = name; *c; ++c)
        put(t, "%c", (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r' || *c == '\v' || *c == '\f') ? '_' : *c);
}

static void indent(text_buffer *t, int depth) {
    for (int i = 0; i < depth; ++i)
        put(t, "\t");
}

static void hierarchy(writer *w) {
    const reach_rig *rig = w->rig;
    text_buffer *t = &w->text;
    put(t, "HIERARCHY\n");
    int n = rig->bone_count;
    for (int k = 0; k < n; ++k) {
        int b = w->order[k], d = w->depth[b];
        indent(t, d);
        if (w->end_site[b]) {
            put(t, "End Site\n");
        } else {
            put(t, "%s ", rig->parents[b] < 0 ? "ROOT" : "JOINT");
            put_name(t, rig->bone_names[b], b);
            put(t, "\n");
        }
        indent(t, d);
        put(t, "{\n");
        indent(t, d + 1);
        reach_vec3 offset = rig->rest[b].translation;
        put(t, "OFFSET %.*g %.*g %.*g\n", DIGITS, (double)offset.x, DIGITS, (double)offset.y, DIGITS, (double)offset.z);
        if (!w->end_site[b]) {
            indent(t, d + 1);
            if (w->with_position[b])
                put(t, "CHANNELS 6 %s %s %s ", bvh_channel_names[BVH_XPOSITION], bvh_channel_names[BVH_YPOSITION],
                    bvh_channel_names[BVH_ZPOSITION]);
            else
                put(t, "CHANNELS 3 ");
            put(t, "%s %s %s\n", bvh_channel_names[BVH_ZROTATION], bvh_channel_names[BVH_YROTATION],
                bvh_channel_names[BVH_XROTATION]);
        }
        /* Close every bone whose subtree ends here. */
        int next_depth = k + 1 < n ? w->depth[w->order[k + 1]] : 0;
        for (int close = d; close >= next_depth; --close) {
            indent(t, close);
            put(t, "}\n");
        }
    }
}

/* Z, Y, X angles in degrees of R = Rz(z) · Ry(y) · Rx(x). */
static void euler_zyx(reach_quat q, double angles[3]) {
    double x = q.x, y = q.y, z = q.z, w = q.w;
    double norm = sqrt(x * x + y * y + z * z + w * w);
    x /= norm, y /= norm, z /= norm, w /= norm;
    double r00 = 1 - 2 * (y * y + z * z), r10 = 2 * (x * y + w * z), r20 = 2 * (x * z - w * y);
    double r21 = 2 * (y * z + w * x), r22 = 1 - 2 * (x * x + y * y);
    double r01 = 2 * (x * y - w * z), r11 = 1 - 2 * (x * x + z * z);
    double cos_y = sqrt(r00 * r00 + r10 * r10);
    angles[1] = atan2(-r20, cos_y);
    if (cos_y > 1e-12) {
        angles[0] = atan2(r10, r00);
        angles[2] = atan2(r21, r22);
    } else {
        /* Y at ±90°: Z and X turn about one axis; all of it is put on Z. */
        angles[0] = atan2(-r01, r11);
        angles[2] = 0;
    }
    for (int k = 0; k < 3; ++k)
        angles[k] *= 180 / PI;
}

static void motion(writer *w) {
    const reach_rig *rig = w->rig;
    text_buffer *t = &w->text;
    put(t, "MOTION\nFrames: %d\nFrame Time: %.17g\n", w->frame_count, 1 / (double)w->frame_rate);
    for (int f = 0; f < w->frame_count; ++f) {
        const reach_transform *pose = w->frames + (size_t)f * (size_t)rig->bone_count;
        const char *separator = "";
        for (int k = 0; k < rig->bone_count; ++k) {
            int b = w->order[k];
            if (w->end_site[b]) continue;
            if (w->with_position[b]) {
                reach_vec3 p = pose[b].translation;
                put(t, "%s%.*g %.*g %.*g", separator, DIGITS, (double)p.x, DIGITS, (double)p.y, DIGITS, (double)p.z);
                separator = " ";
            }
            double angles[3];
            euler_zyx(pose[b].rotation, angles);
            put(t, "%s%.*g %.*g %.*g", separator, DIGITS, angles[0], DIGITS, angles[1], DIGITS, angles[2]);
            separator = " ";
        }
        put(t, "\n");
    }
}

/* The rig checked, and the clip against it: same bones, at least a frame, finite transforms
 * with rotations that are not zero. */
static reach_status check_input(const reach_rig *rig, const reach_clip *clip, char *error, size_t error_size) {
    int bad = -1;
    if (!rig || rig->bone_count < 1 || !rig->bone_names || reach_skeleton_validate(&rig->skeleton, &bad) != REACH_OK) {
        formats_error(error, error_size, "the rig is not a valid skeleton (bone %d)", bad);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (!clip) return REACH_OK;
    if (clip->bone_count != rig->bone_count || clip->frame_count < 1 || !clip->frames ||
        !reach_is_finite(clip->frame_rate) || !(clip->frame_rate > 0)) {
        formats_error(error, error_size, "the clip has %d bones, %d frames at %g per second: the rig has %d bones",
                      clip->bone_count, clip->frame_count, (double)clip->frame_rate, rig->bone_count);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    size_t count = (size_t)clip->frame_count * (size_t)clip->bone_count;
    for (size_t i = 0; i < count; ++i) {
        const reach_transform *x = &clip->frames[i];
        if (!reach_quat_is_finite(x->rotation) || !reach_vec3_is_finite(x->translation)) {
            formats_error(error, error_size, "frame %zu, bone %zu: not finite", i / (size_t)clip->bone_count,
                          i % (size_t)clip->bone_count);
            return REACH_ERROR_NOT_FINITE;
        }
        if (reach_quat_dot(x->rotation, x->rotation) == 0) {
            formats_error(error, error_size, "frame %zu, bone %zu: a zero rotation", i / (size_t)clip->bone_count,
                          i % (size_t)clip->bone_count);
            return REACH_ERROR_BAD_QUATERNION;
        }
    }
    return REACH_OK;
}

reach_status reach_bvh_write(const reach_rig *rig, const reach_clip *clip, char **text, size_t *length, char *error,
                             size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if (!text || !length) {
        formats_error(error, error_size, "nowhere to put the text");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    *text = NULL;
    *length = 0;
    reach_status st = check_input(rig, clip, error, error_size);
    if (st != REACH_OK) return st;
    writer w;
    memset(&w, 0, sizeof w);
    w.rig = rig;
    w.frames = clip ? clip->frames : rig->rest;
    w.frame_count = clip ? clip->frame_count : 1;
    w.frame_rate = clip ? clip->frame_rate : 30;
    size_t n = (size_t)rig->bone_count;
    w.order = malloc(n * sizeof *w.order);
    w.depth = malloc(n * sizeof *w.depth);
    w.end_site = malloc(n * sizeof *w.end_site);
    w.with_position = malloc(n * sizeof *w.with_position);
    if (!w.order || !w.depth || !w.end_site || !w.with_position) {
        formats_error(error, error_size, "out of memory");
        st = REACH_ERROR_INVALID_ARGUMENT;
    }
    if (st == REACH_OK) st = plan(&w, error, error_size);
    if (st == REACH_OK) {
        hierarchy(&w);
        motion(&w);
        if (w.text.failed) {
            formats_error(error, error_size, "out of memory");
            st = REACH_ERROR_INVALID_ARGUMENT;
        }
    }
    free(w.order);
    free(w.depth);
    free(w.end_site);
    free(w.with_position);
    if (st != REACH_OK) {
        free(w.text.data);
        return st;
    }
    *text = w.text.data;
    *length = w.text.length;
    return REACH_OK;
}

reach_status reach_bvh_write_file(const char *path, const reach_rig *rig, const reach_clip *clip, char *error,
                                  size_t error_size) {
    if (!path) {
        formats_error(error, error_size, "no path given");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    char *text;
    size_t length;
    reach_status st = reach_bvh_write(rig, clip, &text, &length, error, error_size);
    if (st != REACH_OK) return st;
    st = formats_write_file(path, text, length, error, error_size);
    free(text);
    return st;
}
