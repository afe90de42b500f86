/* The C batch solvers as a program, for the Python tests to compare the package's numpy batch
 * with, bit for bit: it reads one batch as raw doubles from IN, solves it with the library the
 * CMake build makes (reach_double), and writes every output as raw doubles to OUT.
 *
 *   batch_oracle two_bone IN OUT
 *     IN:  count, weight, soft_distance, max_stretch, tolerance, has_pole, offset[10],
 *          root[3][count], mid[3][count], end[3][count], target[3][count], (pole[3][count])
 *     The two-bone kernel solves its first limbs alone up to the vector alignment, so each
 *     array is placed at the same byte offset from a 64-byte boundary as the caller's was
 *     (offset[]: root, mid, end, target, pole, out_mid, out_end, residual, reached, status).
 *     OUT: mid[3][count], end[3][count], residual, reached, status (each [count]), the return
 *   batch_oracle fabrik IN OUT
 *     IN:  count, bone_count, max_iterations, tolerance, cold_start, cold_direction[3],
 *          lengths[bone_count][count], root[3][count], target[3][count],
 *          joints[3][bone_count + 1][count]
 *     OUT: joints, residual, iterations, reached, status (each [count]), the return */
#define _ISOC11_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/fabrik_batch.h"
#include "reach/two_bone_batch.h"

static double *read_all(const char *path, size_t *count) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    size_t capacity = 1024, n = 0;
    double *data = malloc(capacity * sizeof *data);
    size_t got;
    while (data && (got = fread(data + n, sizeof *data, capacity - n, file)) > 0) {
        n += got;
        if (n == capacity) {
            capacity *= 2;
            double *grown = realloc(data, capacity * sizeof *data);
            if (!grown) free(data);
            data = grown;
        }
    }
    fclose(file);
    *count = n;
    return data;
}

static void put(FILE *out, const double *values, size_t count) { fwrite(values, sizeof *values, count, out); }

static void put_bytes(FILE *out, const unsigned char *values, size_t count) {
    for (size_t i = 0; i < count; i++) {
        double value = values[i];
        put(out, &value, 1);
    }
}

static reach_const_vec3_soa const_rows(const double *data, size_t stride) {
    return (reach_const_vec3_soa){data, data + stride, data + 2 * stride};
}

static reach_vec3_soa rows(double *data, size_t stride) {
    return (reach_vec3_soa){data, data + stride, data + 2 * stride};
}

enum { TB_ARRAYS = 10, TB_HEADER = 6 + TB_ARRAYS };

/* bytes at `offset` bytes past a 64-byte boundary, inside blocks[i] (which the caller frees). */
static void *placed(void **blocks, int i, double offset, size_t bytes, const void *from) {
    blocks[i] = aligned_alloc(64, (bytes + 128) / 64 * 64);
    if (!blocks[i]) return NULL;
    unsigned char *at = (unsigned char *)blocks[i] + ((size_t)offset % 64);
    if (from) memcpy(at, from, bytes);
    return at;
}

static int two_bone(double *in, size_t size, FILE *out) {
    if (size < TB_HEADER) return 0;
    size_t n = (size_t)in[0];
    int has_pole = in[5] != 0;
    if (size != TB_HEADER + (has_pole ? 15 : 12) * n) return 0;
    reach_two_bone_settings settings = reach_two_bone_default_settings();
    settings.weight = in[1];
    settings.soft_distance = in[2];
    settings.max_stretch = in[3];
    settings.tolerance = in[4];
    const double *offsets = in + 6, *arrays = in + TB_HEADER;
    void *blocks[TB_ARRAYS] = {NULL};
    size_t points = 3 * n * sizeof(double);
    double *a[7];
    int ok = 1;
    for (int i = 0; i < 7; i++)
        ok = ok &&
             (a[i] = placed(blocks, i, offsets[i], points, i < (has_pole ? 5 : 4) ? arrays + 3 * n * (size_t)i : NULL));
    double *residual = ok ? placed(blocks, 7, offsets[7], n * sizeof(double), NULL) : NULL;
    unsigned char *reached = residual ? placed(blocks, 8, offsets[8], n, NULL) : NULL;
    unsigned char *statuses = reached ? placed(blocks, 9, offsets[9], n, NULL) : NULL;
    if (statuses) {
        reach_two_bone_batch batch;
        memset(&batch, 0, sizeof batch);
        batch.count = (int)n;
        batch.root = const_rows(a[0], n);
        batch.mid = const_rows(a[1], n);
        batch.end = const_rows(a[2], n);
        batch.target = const_rows(a[3], n);
        if (has_pole) batch.pole = const_rows(a[4], n);
        batch.out_mid = rows(a[5], n);
        batch.out_end = rows(a[6], n);
        batch.out_residual = residual;
        batch.out_reached = reached;
        batch.out_status = statuses;
        double status = reach_two_bone_solve_batch(&batch, &settings);
        put(out, a[5], 3 * n);
        put(out, a[6], 3 * n);
        put(out, residual, n);
        put_bytes(out, reached, n);
        put_bytes(out, statuses, n);
        put(out, &status, 1);
    }
    for (int i = 0; i < TB_ARRAYS; i++)
        free(blocks[i]);
    return statuses != NULL;
}

static int fabrik(double *in, size_t size, FILE *out) {
    if (size < 8) return 0;
    size_t n = (size_t)in[0], bones = (size_t)in[1];
    if (bones < 1 || size != 8 + bones * n + 6 * n + 3 * (bones + 1) * n) return 0;
    reach_fabrik_batch_settings settings = reach_fabrik_batch_default_settings();
    settings.max_iterations = (int)in[2];
    settings.tolerance = in[3];
    settings.cold_start = in[4] != 0;
    settings.cold_direction = (reach_vec3){in[5], in[6], in[7]};
    double *lengths = in + 8, *root = lengths + bones * n, *target = root + 3 * n, *joints = target + 3 * n;
    double *residual = malloc((n + 1) * sizeof *residual);
    int *iterations = malloc((n + 1) * sizeof *iterations);
    unsigned char *flags = malloc(2 * n + 1);
    if (!residual || !iterations || !flags) return 0;
    reach_fabrik_batch batch;
    memset(&batch, 0, sizeof batch);
    batch.count = (int)n;
    batch.bone_count = (int)bones;
    batch.stride = (int)n;
    batch.lengths = lengths;
    batch.root = const_rows(root, n);
    batch.target = const_rows(target, n);
    batch.joints = rows(joints, (bones + 1) * n);
    batch.out_residual = residual;
    batch.out_iterations = iterations;
    batch.out_reached = flags;
    batch.out_status = flags + n;
    double status = reach_fabrik_solve_batch(&batch, &settings);
    put(out, joints, 3 * (bones + 1) * n);
    put(out, residual, n);
    for (size_t i = 0; i < n; i++) {
        double value = iterations[i];
        put(out, &value, 1);
    }
    put_bytes(out, flags, 2 * n);
    put(out, &status, 1);
    free(residual);
    free(iterations);
    free(flags);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: batch_oracle two_bone|fabrik IN OUT\n");
        return 2;
    }
    size_t size = 0;
    double *in = read_all(argv[2], &size);
    FILE *out = fopen(argv[3], "wb");
    int ok = in && out &&
             (strcmp(argv[1], "two_bone") == 0 ? two_bone(in, size, out)
                                               : strcmp(argv[1], "fabrik") == 0 && fabrik(in, size, out));
    if (out && fclose(out) != 0) ok = 0;
    free(in);
    if (!ok) fprintf(stderr, "batch_oracle: bad input or cannot write %s\n", argv[3]);
    return ok ? 0 : 1;
}
