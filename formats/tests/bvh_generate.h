/* BVH files the tests write: humanoids with Mixamo, CMU or plain names, random offsets, random
 * channel orders, position channels on some joints, random motion; and an independent forward
 * kinematics of what was written (3×3 matrices in double, straight from the channels). */
#ifndef REACH_BVH_GENERATE_H
#define REACH_BVH_GENERATE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define GEN_MAX_JOINTS 64

typedef struct gen_joint {
    char name[64];
    int parent;
    int end_site;
    double offset[3];
    int channel_count;
    int channels[6]; /* 0..2 X/Y/Z position, 3..5 X/Y/Z rotation */
} gen_joint;

typedef struct gen_bvh {
    gen_joint joints[GEN_MAX_JOINTS];
    int count;
    int frames;
    double frame_time;
    int channel_total;
    double *values; /* frames × channel_total, as printed (parsed back) */
    double height;  /* of the rest pose, for tolerances */
} gen_bvh;

typedef enum gen_names { GEN_MIXAMO, GEN_CMU, GEN_PLAIN } gen_names;

typedef struct gen_template {
    const char *names[3]; /* Mixamo, CMU, plain */
    int parent;
    double offset[3];
    int end_site; /* an End Site follows, at offset end */
    double end[3];
} gen_template;

/* A humanoid in centimetres, y up, +z forward. */
static const gen_template gen_humanoid[] = {
    {{"mixamorig:Hips", "Hips", "hips"}, -1, {0, 95, 0}, 0, {0, 0, 0}},
    {{"mixamorig:Spine", "LowerBack", "spine"}, 0, {0, 10, 0}, 0, {0, 0, 0}},
    {{"mixamorig:Spine1", "Spine", "chest"}, 1, {0, 12, -1}, 0, {0, 0, 0}},
    {{"mixamorig:Neck", "Neck", "neck"}, 2, {0, 16, 0}, 0, {0, 0, 0}},
    {{"mixamorig:Head", "Head", "head"}, 3, {0, 9, 1}, 1, {0, 18, 0}},
    {{"mixamorig:LeftShoulder", "LeftShoulder", "left_shoulder"}, 2, {4, 13, 0}, 0, {0, 0, 0}},
    {{"mixamorig:LeftArm", "LeftArm", "left_upper_arm"}, 5, {12, 0, 0}, 0, {0, 0, 0}},
    {{"mixamorig:LeftForeArm", "LeftForeArm", "left_lower_arm"}, 6, {28, 0, 0}, 0, {0, 0, 0}},
    {{"mixamorig:LeftHand", "LeftHand", "left_hand"}, 7, {25, 0, 0}, 1, {9, 0, 0}},
    {{"mixamorig:RightShoulder", "RightShoulder", "right_shoulder"}, 2, {-4, 13, 0}, 0, {0, 0, 0}},
    {{"mixamorig:RightArm", "RightArm", "right_upper_arm"}, 9, {-12, 0, 0}, 0, {0, 0, 0}},
    {{"mixamorig:RightForeArm", "RightForeArm", "right_lower_arm"}, 10, {-28, 0, 0}, 0, {0, 0, 0}},
    {{"mixamorig:RightHand", "RightHand", "right_hand"}, 11, {-25, 0, 0}, 1, {-9, 0, 0}},
    {{"mixamorig:LeftUpLeg", "LeftUpLeg", "left_upper_leg"}, 0, {9, -6, 0}, 0, {0, 0, 0}},
    {{"mixamorig:LeftLeg", "LeftLeg", "left_lower_leg"}, 13, {0, -42, 0}, 0, {0, 0, 0}},
    {{"mixamorig:LeftFoot", "LeftFoot", "left_foot"}, 14, {0, -40, -2}, 0, {0, 0, 0}},
    {{"mixamorig:LeftToeBase", "LeftToeBase", "left_toes"}, 15, {0, -5, 12}, 1, {0, 0, 6}},
    {{"mixamorig:RightUpLeg", "RightUpLeg", "right_upper_leg"}, 0, {-9, -6, 0}, 0, {0, 0, 0}},
    {{"mixamorig:RightLeg", "RightLeg", "right_lower_leg"}, 17, {0, -42, 0}, 0, {0, 0, 0}},
    {{"mixamorig:RightFoot", "RightFoot", "right_foot"}, 18, {0, -40, -2}, 0, {0, 0, 0}},
    {{"mixamorig:RightToeBase", "RightToeBase", "right_toes"}, 19, {0, -5, 12}, 1, {0, 0, 6}},
};
#define GEN_HUMANOID_JOINTS ((int)(sizeof gen_humanoid / sizeof gen_humanoid[0]))

/* A number as the file will hold it: printed with 6 decimals and read back. */
static inline double gen_printed(double x) {
    char buffer[64];
    snprintf(buffer, sizeof buffer, "%.6f", x);
    return strtod(buffer, NULL);
}

static inline void gen_shuffle(test_rng *rng, int *items, int count) {
    for (int i = count - 1; i > 0; --i) {
        int j = (int)(test_rng_next(rng) % (uint64_t)(i + 1));
        int t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* A random humanoid with its motion; bones in file order (an End Site right after its joint's
 * children... as the template lists them, then the End Site last among its children). */
static inline void gen_make(gen_bvh *g, test_rng *rng, gen_names names, int frames) {
    memset(g, 0, sizeof *g);
    int bone_of[GEN_MAX_JOINTS] = {0};
    /* The template is depth-first already except that an End Site must close its joint: each
     * template joint with an End Site is a leaf, so the site follows it directly. */
    for (int t = 0; t < GEN_HUMANOID_JOINTS; ++t) {
        const gen_template *tp = &gen_humanoid[t];
        gen_joint *j = &g->joints[g->count];
        snprintf(j->name, sizeof j->name, "%s", tp->names[names]);
        j->parent = tp->parent < 0 ? -1 : bone_of[tp->parent];
        for (int k = 0; k < 3; ++k)
            j->offset[k] = gen_printed(tp->offset[k] * (double)test_uniform(rng, REACH_R(0.8), REACH_R(1.2)) +
                                       (double)test_uniform(rng, -1, 1));
        int order[6] = {0, 1, 2, 3, 4, 5};
        int with_position = tp->parent < 0 || test_rng_next(rng) % 4 == 0;
        if (with_position) {
            gen_shuffle(rng, order, 6);
            j->channel_count = 6;
        } else {
            gen_shuffle(rng, order + 3, 3);
            j->channel_count = 3;
        }
        memcpy(j->channels, with_position ? order : order + 3, (size_t)j->channel_count * sizeof(int));
        g->channel_total += j->channel_count;
        bone_of[t] = g->count++;
        if (tp->end_site) {
            gen_joint *e = &g->joints[g->count];
            char base[sizeof e->name - 4];
            snprintf(base, sizeof base, "%s", j->name);
            snprintf(e->name, sizeof e->name, "%s_end", base);
            e->parent = bone_of[t];
            e->end_site = 1;
            for (int k = 0; k < 3; ++k)
                e->offset[k] = gen_printed(tp->end[k]);
            ++g->count;
        }
    }
    g->frames = frames;
    g->frame_time = gen_printed(1.0 / (double)(24 + test_rng_next(rng) % 100));
    g->values = malloc((size_t)(frames * g->channel_total) * sizeof *g->values);
    int v = 0;
    for (int f = 0; f < frames; ++f)
        for (int b = 0; b < g->count; ++b)
            for (int k = 0; k < g->joints[b].channel_count; ++k) {
                int kind = g->joints[b].channels[k];
                double x = kind < 3 ? g->joints[b].offset[kind] + (double)test_uniform(rng, -15, 15)
                                    : (double)test_uniform(rng, -180, 180);
                g->values[v++] = gen_printed(x);
            }
    double low = 0, high = 0;
    double world[GEN_MAX_JOINTS][3];
    for (int b = 0; b < g->count; ++b) {
        for (int k = 0; k < 3; ++k)
            world[b][k] = g->joints[b].offset[k] + (g->joints[b].parent >= 0 ? world[g->joints[b].parent][k] : 0);
        low = b == 0 || world[b][1] < low ? world[b][1] : low;
        high = b == 0 || world[b][1] > high ? world[b][1] : high;
    }
    g->height = high - low;
}

static inline void gen_free(gen_bvh *g) { free(g->values); }

/* The path of a real file in ../shared/data/bvh; skips the test, saying so, when it is absent. */
static inline void shared_bvh_path(char *path, size_t size, const char *name) {
    snprintf(path, size, "%s/bvh/%s", REACH_SHARED_DATA, name);
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        print_message("skipped: %s is absent (the shared data folder is not here)\n", path);
        skip();
    }
    fclose(probe);
}

/* The file's text (the caller frees it); crlf writes Windows line ends, tabs indents with tabs. */
static inline char *gen_text(const gen_bvh *g, int crlf, int tabs) {
    static const char *const kinds[6] = {"Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"};
    size_t capacity = 4096 + (size_t)g->count * 256 + (size_t)(g->frames * g->channel_total) * 24;
    char *text = malloc(capacity);
    size_t n = 0;
    const char *eol = crlf ? "\r\n" : "\n";
    int depth[GEN_MAX_JOINTS];
#define GEN_PUT(...) (n += (size_t)snprintf(text + n, capacity - n, __VA_ARGS__))
#define GEN_INDENT(d)                                                                                                  \
    for (int i_ = 0; i_ < (d); ++i_)                                                                                   \
    GEN_PUT("%s", tabs ? "\t" : "  ")
    GEN_PUT("HIERARCHY%s", eol);
    for (int b = 0; b < g->count; ++b) {
        const gen_joint *j = &g->joints[b];
        depth[b] = j->parent < 0 ? 0 : depth[j->parent] + 1;
        GEN_INDENT(depth[b]);
        if (j->end_site)
            GEN_PUT("End Site%s", eol);
        else
            GEN_PUT("%s %s%s", j->parent < 0 ? "ROOT" : "JOINT", j->name, eol);
        GEN_INDENT(depth[b]);
        GEN_PUT("{%s", eol);
        GEN_INDENT(depth[b] + 1);
        GEN_PUT("OFFSET %.6f %.6f %.6f%s", j->offset[0], j->offset[1], j->offset[2], eol);
        if (!j->end_site) {
            GEN_INDENT(depth[b] + 1);
            GEN_PUT("CHANNELS %d", j->channel_count);
            for (int k = 0; k < j->channel_count; ++k)
                GEN_PUT(" %s", kinds[j->channels[k]]);
            GEN_PUT("%s", eol);
        }
        /* Close every joint whose subtree ends here. */
        int next_depth = b + 1 < g->count ? depth[g->joints[b + 1].parent] + 1 : 0;
        for (int d = depth[b]; d >= next_depth; --d) {
            GEN_INDENT(d);
            GEN_PUT("}%s", eol);
        }
    }
    GEN_PUT("MOTION%sFrames: %d%sFrame Time: %.6f%s", eol, g->frames, eol, g->frame_time, eol);
    for (int f = 0; f < g->frames; ++f) {
        for (int c = 0; c < g->channel_total; ++c)
            GEN_PUT(c ? " %.6f" : "%.6f", g->values[f * g->channel_total + c]);
        GEN_PUT("%s", eol);
    }
#undef GEN_PUT
#undef GEN_INDENT
    return text;
}

/* World positions of every joint at frame f (f < 0: the rest pose), by 3×3 matrices. */
static inline void gen_world_positions(const gen_bvh *g, int f, double (*position)[3]) {
    double rotation[GEN_MAX_JOINTS][3][3];
    const double *values = f >= 0 ? g->values + (size_t)f * (size_t)g->channel_total : NULL;
    for (int b = 0; b < g->count; ++b) {
        const gen_joint *j = &g->joints[b];
        double local[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        double t[3] = {j->offset[0], j->offset[1], j->offset[2]};
        for (int k = 0; k < j->channel_count && values; ++k) {
            int kind = j->channels[k];
            double x = values[k];
            if (kind < 3) {
                t[kind] = x;
                continue;
            }
            double a = x * 3.14159265358979323846 / 180, c = cos(a), s = sin(a);
            double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
            int u = (kind - 3 + 1) % 3, w = (kind - 3 + 2) % 3; /* the plane the turn moves */
            e[u][u] = c;
            e[u][w] = -s;
            e[w][u] = s;
            e[w][w] = c;
            double product[3][3];
            for (int r = 0; r < 3; ++r)
                for (int q = 0; q < 3; ++q)
                    product[r][q] = local[r][0] * e[0][q] + local[r][1] * e[1][q] + local[r][2] * e[2][q];
            memcpy(local, product, sizeof local);
        }
        if (values) values += j->channel_count;
        if (j->parent < 0) {
            memcpy(rotation[b], local, sizeof local);
            memcpy(position[b], t, sizeof t);
            continue;
        }
        double(*pr)[3] = rotation[j->parent];
        for (int r = 0; r < 3; ++r) {
            position[b][r] = position[j->parent][r] + pr[r][0] * t[0] + pr[r][1] * t[1] + pr[r][2] * t[2];
            for (int q = 0; q < 3; ++q)
                rotation[b][r][q] = pr[r][0] * local[0][q] + pr[r][1] * local[1][q] + pr[r][2] * local[2][q];
        }
    }
}

#endif
