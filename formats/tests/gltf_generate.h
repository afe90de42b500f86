/* glTF files the tests write: the humanoid of bvh_generate.h under an armature node with a
 * rotation and a uniform scale, some joints with scales of their own, some unnamed, a mesh node
 * beside it outside the skin, and an animation (rotations LINEAR or STEP, the hips' translation,
 * the armature's scale); as .gltf with a data: URI, .gltf with an external .bin, or .glb. And an
 * independent forward kinematics of the file's nodes (4×4 TRS matrices in double). */
#ifndef REACH_GLTF_GENERATE_H
#define REACH_GLTF_GENERATE_H

#include <stdarg.h>
#include <stdint.h>

#include "bvh_generate.h"

#define GG_NODES (GEN_HUMANOID_JOINTS + 2) /* armature, joints, mesh node */
#define GG_KEYS  6

typedef struct gg_node {
    char name[64]; /* empty: unnamed */
    double t[3], r[4], s;
    int parent;
} gg_node;

typedef struct gg_channel {
    int node, path; /* 0 translation, 1 rotation, 2 scale */
    int step;
    double times[GG_KEYS];
    double values[GG_KEYS][4];
} gg_channel;

typedef struct gg_file {
    gg_node nodes[GG_NODES];
    gg_channel channels[GG_NODES];
    int channel_count;
    double height;
} gg_file;

static inline double gg_f(double x) { return (double)(float)x; } /* what a float buffer holds */

static inline void gg_random_quat(test_rng *rng, double *q) {
    reach_quat r = test_unit_quat(rng);
    q[0] = gg_f((double)r.x), q[1] = gg_f((double)r.y), q[2] = gg_f((double)r.z), q[3] = gg_f((double)r.w);
}

static inline void gg_make(gg_file *g, test_rng *rng) {
    memset(g, 0, sizeof *g);
    gg_node *armature = &g->nodes[0];
    snprintf(armature->name, sizeof armature->name, "Armature");
    gg_random_quat(rng, armature->r);
    armature->s = test_rng_next(rng) % 2 ? 0.01 : gg_f((double)test_uniform(rng, REACH_R(0.5), 2));
    armature->parent = -1;
    for (int j = 0; j < GEN_HUMANOID_JOINTS; ++j) {
        gg_node *n = &g->nodes[1 + j];
        if (test_rng_next(rng) % 5) snprintf(n->name, sizeof n->name, "%s", gen_humanoid[j].names[j % 3]);
        for (int k = 0; k < 3; ++k)
            n->t[k] = gg_f(gen_humanoid[j].offset[k] * (double)test_uniform(rng, REACH_R(0.8), REACH_R(1.2)));
        gg_random_quat(rng, n->r);
        n->s = test_rng_next(rng) % 4 ? 1 : gg_f((double)test_uniform(rng, REACH_R(0.8), REACH_R(1.25)));
        n->parent = gen_humanoid[j].parent + 1;
        if (gen_humanoid[j].parent < 0) n->parent = 0;
    }
    gg_node *mesh = &g->nodes[GG_NODES - 1];
    snprintf(mesh->name, sizeof mesh->name, "Body");
    mesh->r[3] = 1, mesh->s = 3, mesh->parent = -1;
    /* Animation: rotations on a random half of the joints, the hips' translation, the armature's scale. */
    for (int node = 0; node < GG_NODES - 1; ++node) {
        int paths[3] = {node == 1 ? 0 : -1, node > 0 && test_rng_next(rng) % 2 ? 1 : -1, node == 0 ? 2 : -1};
        for (int p = 0; p < 3; ++p) {
            if (paths[p] < 0) continue;
            gg_channel *c = &g->channels[g->channel_count++];
            c->node = node, c->path = paths[p], c->step = test_rng_next(rng) % 3 == 0;
            double time = gg_f((double)test_uniform(rng, 0, REACH_R(0.2)));
            for (int k = 0; k < GG_KEYS; ++k) {
                c->times[k] = time;
                time = gg_f(time + (double)test_uniform(rng, REACH_R(0.05), REACH_R(0.4)));
                if (c->path == 1) gg_random_quat(rng, c->values[k]);
                if (c->path == 0)
                    for (int a = 0; a < 3; ++a)
                        c->values[k][a] = gg_f(g->nodes[node].t[a] + (double)test_uniform(rng, -10, 10));
                if (c->path == 2) {
                    double s = gg_f(g->nodes[node].s * (double)test_uniform(rng, REACH_R(0.7), REACH_R(1.4)));
                    c->values[k][0] = c->values[k][1] = c->values[k][2] = s;
                }
            }
        }
    }
    g->height = 180 * g->nodes[0].s;
}

/* ---- the file ---------------------------------------------------------------------------- */

typedef struct gg_bytes {
    unsigned char *data;
    size_t length, capacity;
} gg_bytes;

static inline void gg_put(gg_bytes *b, const void *data, size_t n) {
    if (b->length + n > b->capacity) {
        b->capacity = (b->length + n) * 2 + 256;
        b->data = realloc(b->data, b->capacity);
    }
    memcpy(b->data + b->length, data, n);
    b->length += n;
}

static inline void gg_printf(gg_bytes *b, const char *format, ...) {
    char line[1024];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    gg_put(b, line, (size_t)n);
}

static inline void gg_float(gg_bytes *b, double x) {
    float f = (float)x;
    gg_put(b, &f, 4);
}

static inline char *gg_base64(const gg_bytes *b) {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(b->length / 3 * 4 + 8);
    size_t o = 0;
    for (size_t i = 0; i < b->length; i += 3) {
        unsigned v = (unsigned)b->data[i] << 16;
        if (i + 1 < b->length) v |= (unsigned)b->data[i + 1] << 8;
        if (i + 2 < b->length) v |= b->data[i + 2];
        out[o++] = table[v >> 18 & 63];
        out[o++] = table[v >> 12 & 63];
        out[o++] = i + 1 < b->length ? table[v >> 6 & 63] : '=';
        out[o++] = i + 2 < b->length ? table[v & 63] : '=';
    }
    out[o] = '\0';
    return out;
}

/* A GLB of json and bin (both freed here), each chunk padded to 4 bytes. */
static inline gg_bytes gg_glb(gg_bytes json, gg_bytes bin) {
    while (json.length % 4)
        gg_put(&json, " ", 1);
    while (bin.length % 4)
        gg_put(&bin, "", 1);
    gg_bytes glb = {0};
    uint32_t header[5] = {0x46546C67u, 2, (uint32_t)(12 + 8 + json.length + 8 + bin.length), (uint32_t)json.length,
                          0x4E4F534Au};
    gg_put(&glb, header, sizeof header);
    gg_put(&glb, json.data, json.length);
    uint32_t chunk[2] = {(uint32_t)bin.length, 0x004E4942u};
    gg_put(&glb, chunk, sizeof chunk);
    gg_put(&glb, bin.data, bin.length);
    free(json.data);
    free(bin.data);
    return glb;
}

typedef enum gg_kind { GG_DATA_URI, GG_EXTERNAL_BIN, GG_GLB } gg_kind;

/* The file's bytes (the caller frees data); for GG_EXTERNAL_BIN the buffer goes to bin_path and
 * the JSON names it as bin_uri. */
static inline gg_bytes gg_write(const gg_file *g, gg_kind kind, const char *bin_path, const char *bin_uri) {
    gg_bytes bin = {0}, json = {0};
    /* Accessors: per channel, times then values. */
    for (int c = 0; c < g->channel_count; ++c) {
        const gg_channel *ch = &g->channels[c];
        for (int k = 0; k < GG_KEYS; ++k)
            gg_float(&bin, ch->times[k]);
        for (int k = 0; k < GG_KEYS; ++k)
            for (int a = 0; a < (ch->path == 1 ? 4 : 3); ++a)
                gg_float(&bin, ch->values[k][a]);
    }
    gg_printf(&json, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"reach tests\"},\"scene\":0,");
    gg_printf(&json, "\"scenes\":[{\"nodes\":[0,%d]}],\"nodes\":[", GG_NODES - 1);
    for (int i = 0; i < GG_NODES; ++i) {
        const gg_node *n = &g->nodes[i];
        gg_printf(&json, "%s{", i ? "," : "");
        if (n->name[0]) gg_printf(&json, "\"name\":\"%s\",", n->name);
        int children = 0;
        for (int c = 0; c < GG_NODES; ++c)
            if (g->nodes[c].parent == i) gg_printf(&json, "%s%d", children++ ? "," : "\"children\":[", c);
        if (children) gg_printf(&json, "],");
        gg_printf(&json, "\"translation\":[%.9g,%.9g,%.9g],\"rotation\":[%.9g,%.9g,%.9g,%.9g]", n->t[0], n->t[1],
                  n->t[2], n->r[0], n->r[1], n->r[2], n->r[3]);
        if (n->s != 1) gg_printf(&json, ",\"scale\":[%.9g,%.9g,%.9g]", n->s, n->s, n->s);
        gg_printf(&json, "}");
    }
    gg_printf(&json, "],\"skins\":[{\"joints\":[");
    for (int j = 1; j < GG_NODES - 1; ++j)
        gg_printf(&json, "%s%d", j > 1 ? "," : "", j);
    gg_printf(&json, "]}],\"animations\":[{\"name\":\"walk\",\"channels\":[");
    for (int c = 0; c < g->channel_count; ++c)
        gg_printf(&json, "%s{\"sampler\":%d,\"target\":{\"node\":%d,\"path\":\"%s\"}}", c ? "," : "", c,
                  g->channels[c].node,
                  g->channels[c].path == 0   ? "translation"
                  : g->channels[c].path == 1 ? "rotation"
                                             : "scale");
    gg_printf(&json, "],\"samplers\":[");
    for (int c = 0; c < g->channel_count; ++c)
        gg_printf(&json, "%s{\"input\":%d,\"output\":%d,\"interpolation\":\"%s\"}", c ? "," : "", 2 * c, 2 * c + 1,
                  g->channels[c].step ? "STEP" : "LINEAR");
    gg_printf(&json, "]}],\"accessors\":[");
    size_t offset = 0;
    for (int c = 0; c < g->channel_count; ++c) {
        int width = g->channels[c].path == 1 ? 4 : 3;
        gg_printf(&json,
                  "%s{\"bufferView\":0,\"byteOffset\":%zu,\"componentType\":5126,\"count\":%d,\"type\":\"SCALAR\"}",
                  c ? "," : "", offset, GG_KEYS);
        offset += GG_KEYS * 4;
        gg_printf(&json, ",{\"bufferView\":0,\"byteOffset\":%zu,\"componentType\":5126,\"count\":%d,\"type\":\"%s\"}",
                  offset, GG_KEYS, width == 4 ? "VEC4" : "VEC3");
        offset += (size_t)(GG_KEYS * width * 4);
    }
    gg_printf(&json, "],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu}],\"buffers\":[{\"byteLength\":%zu",
              bin.length, bin.length);
    if (kind == GG_DATA_URI) {
        char *text = gg_base64(&bin);
        gg_printf(&json, ",\"uri\":\"data:application/octet-stream;base64,");
        gg_put(&json, text, strlen(text));
        gg_printf(&json, "\"");
        free(text);
    } else if (kind == GG_EXTERNAL_BIN && bin_path) {
        gg_printf(&json, ",\"uri\":\"%s\"", bin_uri);
        FILE *file = fopen(bin_path, "wb");
        fwrite(bin.data, 1, bin.length, file);
        fclose(file);
    }
    gg_printf(&json, "}]}");
    if (kind != GG_GLB) {
        free(bin.data);
        return json;
    }
    return gg_glb(json, bin);
}

/* ---- the oracle -------------------------------------------------------------------------- */

/* Quaternions (x, y, z, w) slerped the short way, made unit. */
static inline void gg_slerp(const double *a, const double *b, double t, double *out) {
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3], sign = d < 0 ? -1 : 1;
    double angle = acos(fmin(1, fabs(d)));
    double wa = angle < 1e-9 ? 1 - t : sin((1 - t) * angle) / sin(angle);
    double wb = angle < 1e-9 ? t : sin(t * angle) / sin(angle);
    double n = 0;
    for (int k = 0; k < 4; ++k) {
        out[k] = wa * a[k] + wb * sign * b[k];
        n += out[k] * out[k];
    }
    for (int k = 0; k < 4; ++k)
        out[k] /= sqrt(n);
}

static inline void gg_sample(const gg_channel *c, double time, double *out) {
    int width = c->path == 1 ? 4 : 3;
    int hi = 0;
    while (hi < GG_KEYS && c->times[hi] <= time)
        ++hi;
    if (hi == 0 || hi == GG_KEYS || c->step) {
        memcpy(out, c->values[hi == 0 ? 0 : hi - 1], (size_t)width * sizeof *out);
        return;
    }
    double t = (time - c->times[hi - 1]) / (c->times[hi] - c->times[hi - 1]);
    const double *a = c->values[hi - 1], *b = c->values[hi];
    if (c->path != 1) {
        for (int k = 0; k < 3; ++k)
            out[k] = a[k] + (b[k] - a[k]) * t;
        return;
    }
    gg_slerp(a, b, t, out);
}

/* World positions of every node at time (time < 0: the rest), by 4×4 matrices with scale. */
static inline void gg_world_positions(const gg_file *g, double time, double (*position)[3]) {
    double world[GG_NODES][3][4];
    for (int i = 0; i < GG_NODES; ++i) {
        gg_node n = g->nodes[i];
        double scale[3] = {n.s, n.s, n.s};
        for (int c = 0; c < g->channel_count && time >= 0; ++c) {
            if (g->channels[c].node != i) continue;
            double v[4];
            gg_sample(&g->channels[c], time, v);
            if (g->channels[c].path == 0) memcpy(n.t, v, sizeof n.t);
            if (g->channels[c].path == 1) memcpy(n.r, v, sizeof n.r);
            if (g->channels[c].path == 2) memcpy(scale, v, sizeof scale);
        }
        double length = sqrt(n.r[0] * n.r[0] + n.r[1] * n.r[1] + n.r[2] * n.r[2] + n.r[3] * n.r[3]);
        double x = n.r[0] / length, y = n.r[1] / length, z = n.r[2] / length, w = n.r[3] / length;
        double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                          {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                          {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
        double local[3][4];
        for (int a = 0; a < 3; ++a) {
            for (int b = 0; b < 3; ++b)
                local[a][b] = r[a][b] * scale[b];
            local[a][3] = n.t[a];
        }
        if (n.parent < 0) {
            memcpy(world[i], local, sizeof local);
        } else {
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 4; ++b)
                    world[i][a][b] = world[n.parent][a][0] * local[0][b] + world[n.parent][a][1] * local[1][b] +
                                     world[n.parent][a][2] * local[2][b] + (b == 3 ? world[n.parent][a][3] : 0);
        }
        for (int a = 0; a < 3; ++a)
            position[i][a] = world[i][a][3];
    }
}

#endif
