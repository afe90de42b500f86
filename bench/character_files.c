/* The files the files suite reads, made in memory: a 60-joint character (hips, a five-bone
 * spine, two arms with five fingers each, two legs) moving through a clip of gentle turns, as
 * BVH (reach's writer) and as GLB (written here: nodes, a skin of every joint and an animation
 * of every joint's rotation and the hips' translation, floats in the binary chunk). */
#include "character_files.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "reach/bvh.h"

/* Parents and offsets (centimetres, y up): built limb by limb. */
typedef struct skeleton_plan {
    int parent[BENCH_FILE_JOINTS];
    double offset[BENCH_FILE_JOINTS][3];
    int count;
} skeleton_plan;

static int add(skeleton_plan *p, int parent, double x, double y, double z) {
    int j = p->count++;
    p->parent[j] = parent;
    p->offset[j][0] = x, p->offset[j][1] = y, p->offset[j][2] = z;
    return j;
}

static void plan_skeleton(skeleton_plan *p) {
    p->count = 0;
    int hips = add(p, -1, 0, 95, 0), at = hips;
    for (int k = 0; k < 5; k++)
        at = add(p, at, 0, 12, 0);
    int chest = 3;
    for (int side = -1; side <= 1; side += 2) {
        int arm = add(p, chest, side * 4, 10, 0);
        arm = add(p, arm, side * 12, 0, 0);
        arm = add(p, arm, side * 28, 0, 0);
        int hand = add(p, arm, side * 25, 0, 0);
        for (int finger = 0; finger < 5; finger++) {
            int joints = finger == 0 ? 3 : 4, knuckle = hand;
            for (int k = 0; k < joints; k++)
                knuckle = add(p, knuckle, side * (k == 0 ? 8 : 3), 0, finger * 2 - 4);
        }
    }
    for (int side = -1; side <= 1; side += 2) {
        int leg = add(p, hips, side * 9, -6, 0);
        leg = add(p, leg, 0, -42, 0);
        leg = add(p, leg, 0, -40, 0);
        add(p, leg, 0, -8, 14);
    }
}

/* Joint j's turn at frame f (x, y, z, w): a slow sway about an axis of its own. */
static void frame_rotation(int j, int f, double *q) {
    double angle = 0.3 * sin(0.05 * f + j), axis[3] = {sin(j), cos(2.0 * j), 0.5};
    double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    for (int k = 0; k < 3; k++)
        q[k] = axis[k] / n * sin(angle / 2);
    q[3] = cos(angle / 2);
}

static void make_rig(const skeleton_plan *p, reach_rig *rig, int frames, reach_clip *clip) {
    memset(rig, 0, sizeof *rig);
    rig->bone_count = p->count;
    rig->bone_names = bench_calloc((size_t)p->count, sizeof *rig->bone_names);
    rig->joint_names = bench_calloc((size_t)p->count, sizeof *rig->joint_names);
    rig->parents = bench_calloc((size_t)p->count, sizeof *rig->parents);
    rig->rest = bench_calloc((size_t)p->count, sizeof *rig->rest);
    rig->joints = bench_calloc((size_t)p->count, sizeof *rig->joints);
    for (int j = 0; j < p->count; j++) {
        rig->bone_names[j] = bench_calloc(16, 1);
        snprintf(rig->bone_names[j], 16, "joint_%d", j);
        rig->parents[j] = p->parent[j];
        rig->rest[j] = reach_transform_make(
            reach_quat_identity(),
            reach_vec3_make((reach_real)p->offset[j][0], (reach_real)p->offset[j][1], (reach_real)p->offset[j][2]));
        rig->joints[j] = reach_joint_ball();
    }
    rig->skeleton = (reach_skeleton){p->count, rig->parents, rig->rest, rig->joints};
    reach_clip_create(clip, p->count, frames, 30);
    for (int f = 0; f < frames; f++) {
        reach_transform *local = reach_clip_frame(clip, f);
        for (int j = 0; j < p->count; j++) {
            double q[4];
            frame_rotation(j, f, q);
            local[j] = reach_transform_make(
                reach_quat_make((reach_real)q[0], (reach_real)q[1], (reach_real)q[2], (reach_real)q[3]),
                rig->rest[j].translation);
        }
        local[0].translation.x = (reach_real)(0.5 * f);
    }
}

bench_file bench_character_bvh(int frames) {
    skeleton_plan plan;
    plan_skeleton(&plan);
    reach_rig rig;
    reach_clip clip;
    make_rig(&plan, &rig, frames, &clip);
    bench_file file = {NULL, 0, plan.count, frames};
    char error[256];
    if (reach_bvh_write(&rig, &clip, &file.bytes, &file.length, error, sizeof error) != REACH_OK) file.bytes = NULL;
    reach_rig_free(&rig);
    reach_clip_free(&clip);
    return file;
}

/* ---- GLB ----------------------------------------------------------------------------- */

typedef struct buffer {
    char *data;
    size_t length, capacity;
} buffer;

static void put(buffer *b, const void *data, size_t n) {
    if (b->length + n > b->capacity) {
        b->capacity = (b->length + n) * 2 + 1024;
        char *grown = realloc(b->data, b->capacity);
        if (!grown) {
            fprintf(stderr, "reach-bench: out of memory\n");
            exit(1);
        }
        b->data = grown;
    }
    memcpy(b->data + b->length, data, n);
    b->length += n;
}

static void print(buffer *b, const char *format, ...) {
    char text[512];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(text, sizeof text, format, args);
    va_end(args);
    put(b, text, (size_t)n);
}

static void put_float(buffer *b, double x) {
    float f = (float)x;
    put(b, &f, sizeof f);
}

bench_file bench_character_glb(int frames) {
    skeleton_plan p;
    plan_skeleton(&p);
    buffer json = {0}, bin = {0};
    /* Binary: the key times, then each joint's rotations, then the hips' translations. */
    for (int f = 0; f < frames; f++)
        put_float(&bin, f / 30.0);
    for (int j = 0; j < p.count; j++)
        for (int f = 0; f < frames; f++) {
            double q[4];
            frame_rotation(j, f, q);
            for (int k = 0; k < 4; k++)
                put_float(&bin, q[k]);
        }
    for (int f = 0; f < frames; f++) {
        put_float(&bin, p.offset[0][0] + 0.5 * f);
        put_float(&bin, p.offset[0][1]);
        put_float(&bin, p.offset[0][2]);
    }
    print(&json, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    for (int j = 0; j < p.count; j++) {
        print(&json, "%s{\"name\":\"joint_%d\",\"translation\":[%g,%g,%g]", j ? "," : "", j, p.offset[j][0],
              p.offset[j][1], p.offset[j][2]);
        int children = 0;
        for (int c = j + 1; c < p.count; c++)
            if (p.parent[c] == j) print(&json, "%s%d", children++ ? "," : ",\"children\":[", c);
        print(&json, "%s}", children ? "]" : "");
    }
    print(&json, "],\"skins\":[{\"joints\":[");
    for (int j = 0; j < p.count; j++)
        print(&json, "%s%d", j ? "," : "", j);
    print(&json, "]}],\"animations\":[{\"name\":\"sway\",\"channels\":[");
    for (int j = 0; j <= p.count; j++)
        print(&json, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"%s\"}}", j ? "," : "", j,
              j < p.count ? j : 0, j < p.count ? "rotation" : "translation");
    print(&json, "],\"samplers\":[");
    for (int j = 0; j <= p.count; j++)
        print(&json, "%s{\"input\":0,\"output\":%d}", j ? "," : "", j + 1);
    size_t times = (size_t)frames * 4, rotations = (size_t)frames * 16;
    print(&json,
          "]}],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%d,\"type\":\"SCALAR\","
          "\"min\":[0],\"max\":[%g]}",
          frames, (frames - 1) / 30.0);
    for (int j = 0; j <= p.count; j++)
        print(&json, ",{\"bufferView\":0,\"byteOffset\":%zu,\"componentType\":5126,\"count\":%d,\"type\":\"%s\"}",
              times + (size_t)(j < p.count ? j : p.count) * rotations, frames, j < p.count ? "VEC4" : "VEC3");
    print(&json, "],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu}],\"buffers\":[{\"byteLength\":%zu}]}",
          bin.length, bin.length);
    while (json.length % 4)
        put(&json, " ", 1);
    buffer glb = {0};
    uint32_t header[5] = {0x46546C67u, 2, (uint32_t)(12 + 8 + json.length + 8 + bin.length), (uint32_t)json.length,
                          0x4E4F534Au};
    put(&glb, header, sizeof header);
    put(&glb, json.data, json.length);
    uint32_t chunk[2] = {(uint32_t)bin.length, 0x004E4942u};
    put(&glb, chunk, sizeof chunk);
    put(&glb, bin.data, bin.length);
    free(json.data);
    free(bin.data);
    return (bench_file){glb.data, glb.length, p.count, frames};
}
