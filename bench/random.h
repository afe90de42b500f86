/* A small seeded generator (splitmix64) for the suites' inputs: the same numbers on every
 * machine and compiler, so every run measures the same work. */
#ifndef REACH_BENCH_RANDOM_H
#define REACH_BENCH_RANDOM_H

#include <stdint.h>

#include "reach/vecmath.h"

typedef struct bench_random {
    uint64_t state;
} bench_random;

static inline uint64_t bench_random_next(bench_random *r) {
    uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi). The top 53 bits make a double in [0, 1). */
static inline double bench_random_uniform(bench_random *r, double lo, double hi) {
    return lo + (hi - lo) * ((double)(bench_random_next(r) >> 11) * 0x1.0p-53);
}

static inline reach_real bench_random_real(bench_random *r, double lo, double hi) {
    return (reach_real)bench_random_uniform(r, lo, hi);
}

/* Uniform in the cube [-extent, extent)³. */
static inline reach_vec3 bench_random_point(bench_random *r, double extent) {
    return reach_vec3_make(bench_random_real(r, -extent, extent), bench_random_real(r, -extent, extent),
                           bench_random_real(r, -extent, extent));
}

/* Uniform on the unit sphere: z uniform in [-1, 1] and the angle about z uniform (Archimedes). */
static inline reach_vec3 bench_random_direction(bench_random *r) {
    double z = bench_random_uniform(r, -1, 1), angle = bench_random_uniform(r, 0, 6.283185307179586);
    double ring = sqrt(1 - z * z);
    return reach_vec3_make((reach_real)(ring * cos(angle)), (reach_real)(ring * sin(angle)), (reach_real)z);
}

/* A uniformly random rotation: a point of the 4-ball, kept away from the centre, normalised. */
static inline reach_quat bench_random_rotation(bench_random *r) {
    for (;;) {
        double x = bench_random_uniform(r, -1, 1), y = bench_random_uniform(r, -1, 1);
        double z = bench_random_uniform(r, -1, 1), w = bench_random_uniform(r, -1, 1);
        double length_sq = x * x + y * y + z * z + w * w;
        if (length_sq > 1 || length_sq < 1e-2) continue;
        double inv = 1 / sqrt(length_sq);
        return reach_quat_make((reach_real)(x * inv), (reach_real)(y * inv), (reach_real)(z * inv),
                               (reach_real)(w * inv));
    }
}

#endif
