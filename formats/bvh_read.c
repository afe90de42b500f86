/* reach_bvh_read: the HIERARCHY into a rig, the MOTION into a clip. A hand-written tokenizer:
 * BVH is whitespace-separated words, one frame per line, and no library of Debian's reads it. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_internal.h"
#include "file_text.h"
#include "reach/bvh.h"
#include "rig_build.h"

const char *const bvh_channel_names[BVH_CHANNEL_KINDS] = {"Xposition", "Yposition", "Zposition",
                                                          "Xrotation", "Yrotation", "Zrotation"};

/* Offsets and positions beyond this many rig units are refused: no character is that large, and
 * sums of them along a deep chain stay far inside float's range. */
#define MAX_COORDINATE 1e9
#define PI             3.14159265358979323846

typedef struct token {
    const char *text;
    size_t length;
    int line;
} token;

typedef struct bvh_bone {
    char *name;
    int parent;
    int end_site;
    int has_offset, has_channels, has_end_site;
    double offset[3];
    int channel_count;
    unsigned char channels[BVH_CHANNEL_KINDS];
    int line;
} bvh_bone;

typedef struct parser {
    const char *at, *end;
    int line;
    bvh_bone *bones;
    int bone_count, bone_capacity;
    long channel_total;
    char *error;
    size_t error_size;
} parser;

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* The next word, or a token of length 0 at the end of the text. */
static token next(parser *p) {
    while (p->at < p->end && is_space(*p->at)) {
        if (*p->at == '\n') ++p->line;
        ++p->at;
    }
    token t = {p->at, 0, p->line};
    while (p->at < p->end && !is_space(*p->at))
        ++p->at;
    t.length = (size_t)(p->at - t.text);
    return t;
}

static int is_word(token t, const char *word) {
    return t.length == strlen(word) && memcmp(t.text, word, t.length) == 0;
}

/* A token for a message: at most 40 bytes of it, printable. */
static const char *shown(token t, char *buffer, size_t size) {
    size_t n = t.length < size - 1 ? t.length : size - 1;
    if (n > 40) n = 40;
    for (size_t i = 0; i < n; ++i)
        buffer[i] = t.text[i] >= 32 && t.text[i] < 127 ? t.text[i] : '?';
    buffer[n] = '\0';
    return t.length == 0 ? "the end of the file" : buffer;
}

static reach_status expect(parser *p, const char *word, const char *where) {
    token t = next(p);
    if (is_word(t, word)) return REACH_OK;
    char buffer[48];
    formats_error(p->error, p->error_size, "line %d: expected '%s' %s, found '%s'", t.line, word, where,
                  shown(t, buffer, sizeof buffer));
    return REACH_ERROR_INVALID_ARGUMENT;
}

static reach_status number(parser *p, token t, double *value) {
    char buffer[64], shown_buffer[48];
    if (t.length == 0) {
        formats_error(p->error, p->error_size, "line %d: the file ends where a number should be", t.line);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (t.length >= sizeof buffer || memchr(t.text, '\0', t.length)) {
        formats_error(p->error, p->error_size, "line %d: '%s' is not a number", t.line,
                      shown(t, shown_buffer, sizeof shown_buffer));
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    memcpy(buffer, t.text, t.length);
    buffer[t.length] = '\0';
    char *stop;
    double x = strtod(buffer, &stop);
    if (stop != buffer + t.length) {
        formats_error(p->error, p->error_size, "line %d: '%s' is not a number", t.line, buffer);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (!isfinite(x)) {
        formats_error(p->error, p->error_size, "line %d: '%s' is not a finite number", t.line, buffer);
        return REACH_ERROR_NOT_FINITE;
    }
    *value = x;
    return REACH_OK;
}

/* A number; a position (an OFFSET or a position channel) also within MAX_COORDINATE. */
static reach_status channel_value(parser *p, token t, int is_position, double *value) {
    reach_status st = number(p, t, value);
    if (st == REACH_OK && is_position && fabs(*value) > MAX_COORDINATE) {
        formats_error(p->error, p->error_size, "line %d: %g is beyond the %g a coordinate may reach", t.line, *value,
                      MAX_COORDINATE);
        st = REACH_ERROR_INVALID_ARGUMENT;
    }
    return st;
}

static bvh_bone *add_bone(parser *p, int parent, int line) {
    if (p->bone_count == p->bone_capacity) {
        int capacity = p->bone_capacity ? 2 * p->bone_capacity : 64;
        bvh_bone *grown = realloc(p->bones, (size_t)capacity * sizeof *grown);
        if (!grown) return NULL;
        p->bones = grown;
        p->bone_capacity = capacity;
    }
    bvh_bone *bone = &p->bones[p->bone_count++];
    memset(bone, 0, sizeof *bone);
    bone->parent = parent;
    bone->line = line;
    return bone;
}

static reach_status joint_name(parser *p, bvh_bone *bone) {
    token t = next(p);
    if (t.length == 0 || t.length > REACH_BVH_MAX_NAME || memchr(t.text, '\0', t.length) || is_word(t, "{")) {
        formats_error(p->error, p->error_size, "line %d: a joint needs a name (1 to %d bytes) after ROOT or JOINT",
                      t.line, REACH_BVH_MAX_NAME);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    bone->name = malloc(t.length + 1);
    if (!bone->name) {
        formats_error(p->error, p->error_size, "out of memory");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    memcpy(bone->name, t.text, t.length);
    bone->name[t.length] = '\0';
    return REACH_OK;
}

static reach_status end_site_name(parser *p, bvh_bone *bone) {
    const char *parent = p->bones[bone->parent].name;
    size_t n = strlen(parent);
    bone->name = malloc(n + 5);
    if (!bone->name) {
        formats_error(p->error, p->error_size, "out of memory");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    memcpy(bone->name, parent, n);
    memcpy(bone->name + n, "_end", 5);
    return REACH_OK;
}

static reach_status channels(parser *p, bvh_bone *bone, int line) {
    if (bone->end_site || bone->has_channels) {
        formats_error(p->error, p->error_size, "line %d: %s", line,
                      bone->end_site ? "an End Site has no CHANNELS" : "a second CHANNELS for one joint");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    bone->has_channels = 1;
    token t = next(p);
    /* At least one channel per joint: that bounds the clip's transforms by the motion's bytes. */
    if (t.length != 1 || t.text[0] < '1' || t.text[0] > '6') {
        char buffer[48];
        formats_error(p->error, p->error_size, "line %d: CHANNELS takes a count from 1 to 6, not '%s'", t.line,
                      shown(t, buffer, sizeof buffer));
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    bone->channel_count = t.text[0] - '0';
    int seen = 0;
    for (int k = 0; k < bone->channel_count; ++k) {
        token c = next(p);
        int kind = 0;
        while (kind < BVH_CHANNEL_KINDS && !is_word(c, bvh_channel_names[kind]))
            ++kind;
        if (kind == BVH_CHANNEL_KINDS || (seen & (1 << kind))) {
            char buffer[48];
            formats_error(p->error, p->error_size, "line %d: '%s' is %s", c.line, shown(c, buffer, sizeof buffer),
                          kind == BVH_CHANNEL_KINDS ? "no channel (Xposition ... Zrotation)"
                                                    : "a channel the joint already has");
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        seen |= 1 << kind;
        bone->channels[k] = (unsigned char)kind;
    }
    p->channel_total += bone->channel_count;
    return REACH_OK;
}

/* The tree, without recursion: the open joints are a stack held to REACH_BVH_MAX_DEPTH. */
static reach_status hierarchy(parser *p) {
    int stack[REACH_BVH_MAX_DEPTH];
    int depth = 0;
    reach_status st = expect(p, "HIERARCHY", "at the start");
    for (;;) {
        if (st != REACH_OK) return st;
        token t = next(p);
        char buffer[48];
        if (t.length == 0) {
            formats_error(p->error, p->error_size, "line %d: the file ends before MOTION", t.line);
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        int root = is_word(t, "ROOT"), end = is_word(t, "End");
        if (root || is_word(t, "JOINT") || end) {
            if (root != (depth == 0)) {
                formats_error(p->error, p->error_size, "line %d: %s", t.line,
                              root ? "ROOT inside a joint: a '}' is missing" : "a JOINT or End Site outside ROOT");
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            if (depth == REACH_BVH_MAX_DEPTH) {
                formats_error(p->error, p->error_size, "line %d: joints nested deeper than %d", t.line,
                              REACH_BVH_MAX_DEPTH);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            int parent = depth ? stack[depth - 1] : -1;
            if (parent >= 0 && p->bones[parent].end_site) {
                formats_error(p->error, p->error_size, "line %d: an End Site has no children", t.line);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            if (end && p->bones[parent].has_end_site) {
                formats_error(p->error, p->error_size, "line %d: a second End Site for joint '%s'", t.line,
                              p->bones[parent].name);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            bvh_bone *bone = add_bone(p, parent, t.line);
            if (!bone) {
                formats_error(p->error, p->error_size, "out of memory");
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            if (end) {
                bone->end_site = 1;
                p->bones[parent].has_end_site = 1;
                st = expect(p, "Site", "after End");
                if (st == REACH_OK) st = end_site_name(p, bone);
            } else {
                st = joint_name(p, bone);
            }
            if (st == REACH_OK) st = expect(p, "{", "after a joint's name");
            stack[depth++] = p->bone_count - 1;
        } else if (is_word(t, "OFFSET") && depth > 0) {
            bvh_bone *bone = &p->bones[stack[depth - 1]];
            if (bone->has_offset) {
                formats_error(p->error, p->error_size, "line %d: a second OFFSET for one joint", t.line);
                return REACH_ERROR_INVALID_ARGUMENT;
            }
            bone->has_offset = 1;
            for (int k = 0; k < 3 && st == REACH_OK; ++k)
                st = channel_value(p, next(p), 1, &bone->offset[k]);
        } else if (is_word(t, "CHANNELS") && depth > 0) {
            st = channels(p, &p->bones[stack[depth - 1]], t.line);
        } else if (is_word(t, "}") && depth > 0) {
            const bvh_bone *bone = &p->bones[stack[--depth]];
            if (!bone->has_offset || (!bone->end_site && !bone->has_channels)) {
                formats_error(p->error, p->error_size, "line %d: joint '%s' (line %d) closes without %s", t.line,
                              bone->name, bone->line, bone->has_offset ? "CHANNELS" : "an OFFSET");
                return REACH_ERROR_INVALID_ARGUMENT;
            }
        } else if (is_word(t, "MOTION") && depth == 0 && p->bone_count > 0) {
            return REACH_OK;
        } else if (is_word(t, "MOTION")) {
            if (depth > 0)
                formats_error(p->error, p->error_size,
                              "line %d: MOTION while joint '%s' (line %d) is open: a '}' is missing", t.line,
                              p->bones[stack[depth - 1]].name, p->bones[stack[depth - 1]].line);
            else
                formats_error(p->error, p->error_size, "line %d: MOTION before any ROOT", t.line);
            return REACH_ERROR_INVALID_ARGUMENT;
        } else {
            formats_error(p->error, p->error_size, "line %d: '%s' is not expected here", t.line,
                          shown(t, buffer, sizeof buffer));
            return REACH_ERROR_INVALID_ARGUMENT;
        }
    }
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Bones are found by name: two of one name (an End Site's `<parent>_end` too) are refused. */
static reach_status unique_names(parser *p) {
    char **names = malloc((size_t)p->bone_count * sizeof *names);
    if (!names) {
        formats_error(p->error, p->error_size, "out of memory");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < p->bone_count; ++i)
        names[i] = p->bones[i].name;
    qsort(names, (size_t)p->bone_count, sizeof *names, compare_names);
    reach_status st = REACH_OK;
    for (int i = 1; i < p->bone_count && st == REACH_OK; ++i) {
        if (strcmp(names[i - 1], names[i]) != 0) continue;
        formats_error(p->error, p->error_size, "two joints named '%s'", names[i]);
        st = REACH_ERROR_INVALID_ARGUMENT;
    }
    free(names);
    return st;
}

static reach_status build_rig(const parser *p, reach_rig *rig) {
    int n = p->bone_count;
    if (formats_rig_allocate(rig, n) != REACH_OK) return REACH_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < n; ++i) {
        const bvh_bone *bone = &p->bones[i];
        rig->bone_names[i] = malloc(strlen(bone->name) + 1);
        if (!rig->bone_names[i]) return REACH_ERROR_INVALID_ARGUMENT;
        strcpy(rig->bone_names[i], bone->name);
        rig->parents[i] = bone->parent;
        rig->rest[i] = reach_transform_make(
            reach_quat_identity(),
            reach_vec3_make((reach_real)bone->offset[0], (reach_real)bone->offset[1], (reach_real)bone->offset[2]));
        rig->joints[i] = bone->end_site ? reach_joint_fixed() : reach_joint_ball();
    }
    return REACH_OK;
}

/* "Frames: N" and "Frame Time: T", N checked against the bytes left before the clip is made. */
static reach_status motion_header(parser *p, int *frames, double *frame_time) {
    reach_status st = expect(p, "Frames:", "after MOTION");
    if (st != REACH_OK) return st;
    token t = next(p);
    long long count = 0;
    int digits = t.length > 0;
    for (size_t i = 0; i < t.length && digits; ++i) {
        digits = t.text[i] >= '0' && t.text[i] <= '9';
        if (digits && count <= INT_MAX) count = count * 10 + (t.text[i] - '0');
    }
    char buffer[48];
    if (!digits || count < 1 || count > INT_MAX) {
        formats_error(p->error, p->error_size, "line %d: Frames: '%s' is not a frame count from 1 to %d", t.line,
                      shown(t, buffer, sizeof buffer), INT_MAX);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    st = expect(p, "Frame", "after the frame count");
    if (st == REACH_OK) st = expect(p, "Time:", "after Frame");
    if (st != REACH_OK) return st;
    t = next(p);
    st = number(p, t, frame_time);
    if (st != REACH_OK) return st;
    if (!(*frame_time > 0) || !isfinite(1 / *frame_time) || !isfinite((reach_real)(1 / *frame_time))) {
        formats_error(p->error, p->error_size, "line %d: Frame Time: %g is not a time above 0", t.line, *frame_time);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    /* Each value takes a byte and a separator at the least. Every joint has at least one
     * channel and at most one End Site, so the clip's frames × bones is bounded too: no more
     * transforms than bytes. */
    size_t left = (size_t)(p->end - p->at);
    size_t per_frame = (size_t)p->channel_total;
    if (per_frame == 0 || (size_t)count > (left + 1) / 2 / per_frame) {
        formats_error(p->error, p->error_size,
                      "line %d: Frames: %lld of %ld values each need more than the %zu bytes left in the file", t.line,
                      count, p->channel_total, left);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    *frames = (int)count;
    return REACH_OK;
}

typedef struct dquat {
    double x, y, z, w;
} dquat;

static dquat dquat_mul(dquat a, dquat b) {
    dquat q = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
               a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return q;
}

/* One joint's local transform from its values, the rotation in double then rounded once. */
static reach_transform joint_pose(const bvh_bone *bone, const double *values) {
    double position[3] = {bone->offset[0], bone->offset[1], bone->offset[2]};
    dquat q = {0, 0, 0, 1};
    for (int k = 0; k < bone->channel_count; ++k) {
        int kind = bone->channels[k];
        if (kind < BVH_XROTATION) {
            position[kind] = values[k];
            continue;
        }
        double half = values[k] * (PI / 360);
        dquat turn = {0, 0, 0, cos(half)};
        double s = sin(half);
        if (kind == BVH_XROTATION) turn.x = s;
        if (kind == BVH_YROTATION) turn.y = s;
        if (kind == BVH_ZROTATION) turn.z = s;
        q = dquat_mul(q, turn);
    }
    reach_quat rotation =
        reach_quat_normalize_safe(reach_quat_make((reach_real)q.x, (reach_real)q.y, (reach_real)q.z, (reach_real)q.w));
    return reach_transform_make(
        rotation, reach_vec3_make((reach_real)position[0], (reach_real)position[1], (reach_real)position[2]));
}

/* Every frame on a line of its own, with exactly the values the CHANNELS call for. */
static reach_status frames(parser *p, reach_clip *clip) {
    for (int f = 0; f < clip->frame_count; ++f) {
        reach_transform *pose = reach_clip_frame(clip, f);
        int line = -1;
        long read = 0;
        for (int b = 0; b < p->bone_count; ++b) {
            const bvh_bone *bone = &p->bones[b];
            double values[BVH_CHANNEL_KINDS];
            for (int k = 0; k < bone->channel_count; ++k) {
                token t = next(p);
                if (line < 0) line = t.line;
                if (t.length == 0 || t.line != line) {
                    formats_error(p->error, p->error_size,
                                  t.length == 0 ? "line %d: the file ends in frame %d after %ld of its %ld values"
                                                : "line %d: frame %d has %ld values, the CHANNELS call for %ld",
                                  line, f, read, p->channel_total);
                    return REACH_ERROR_INVALID_ARGUMENT;
                }
                reach_status st = channel_value(p, t, bone->channels[k] < BVH_XROTATION, &values[k]);
                if (st != REACH_OK) return st;
                ++read;
            }
            pose[b] = joint_pose(bone, values);
        }
    }
    token t = next(p);
    if (t.length > 0) {
        formats_error(p->error, p->error_size, "line %d: values after the %d frames that Frames: gives", t.line,
                      clip->frame_count);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    return REACH_OK;
}

reach_status reach_bvh_read(const char *text, size_t length, reach_rig *rig, reach_clip *clip, char *error,
                            size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if (rig) memset(rig, 0, sizeof *rig);
    if (clip) memset(clip, 0, sizeof *clip);
    if (!rig || !clip || (!text && length > 0)) {
        formats_error(error, error_size, "no text, rig or clip given");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    parser p;
    memset(&p, 0, sizeof p);
    p.at = text;
    p.end = text + length;
    p.line = 1;
    p.error = error;
    p.error_size = error_size;
    int frame_count = 0;
    double frame_time = 0;
    reach_status st = hierarchy(&p);
    if (st == REACH_OK) st = unique_names(&p);
    if (st == REACH_OK) st = motion_header(&p, &frame_count, &frame_time);
    if (st == REACH_OK) {
        st = build_rig(&p, rig);
        if (st == REACH_OK) st = reach_clip_create(clip, p.bone_count, frame_count, (reach_real)(1 / frame_time));
        if (st != REACH_OK) formats_error(error, error_size, "out of memory");
    }
    if (st == REACH_OK) st = frames(&p, clip);
    for (int i = 0; i < p.bone_count; ++i)
        free(p.bones[i].name);
    free(p.bones);
    if (st != REACH_OK) {
        reach_rig_free(rig);
        reach_clip_free(clip);
    }
    return st;
}

reach_status reach_bvh_read_file(const char *path, reach_rig *rig, reach_clip *clip, char *error, size_t error_size) {
    if (rig) memset(rig, 0, sizeof *rig);
    if (clip) memset(clip, 0, sizeof *clip);
    if (!path || !rig || !clip) {
        formats_error(error, error_size, "no path, rig or clip given");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    char *text;
    size_t length;
    reach_status st = formats_read_text(path, &text, &length, error, error_size);
    if (st != REACH_OK) return st;
    st = reach_bvh_read(text, length, rig, clip, error, error_size);
    free(text);
    if (st != REACH_OK) formats_prefix_path(path, error, error_size);
    return st;
}
