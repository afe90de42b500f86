/* Turns fuzzer bytes into the numbers IK inputs are made of. Most come from a table of the
 * values that break numerical code (NaN, infinities, zero, subnormals, 1e±30, huge), the rest
 * are raw bit patterns, so the fuzzer reaches both the special cases and everything between. */
#ifndef REACH_FUZZ_INPUT_H
#define REACH_FUZZ_INPUT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reach/reach.h"

typedef struct fuzz_input {
    const uint8_t *data;
    size_t size;
} fuzz_input;

static inline uint8_t fuzz_byte(fuzz_input *in) {
    if (in->size == 0) return 0;
    uint8_t b = in->data[0];
    in->data++;
    in->size--;
    return b;
}

static inline reach_real fuzz_real(fuzz_input *in) {
    static const double special[] = {0.0,   -0.0,     1.0,       -1.0,  0.5,    2.0,    1e-6,  1e6,
                                     1e-30, 1e30,     -1e30,     1e-45, 1e-310, 3.4e38, 1e300, -1e300,
                                     NAN,   INFINITY, -INFINITY, 1e-3,  0.1,    10.0,   100.0, -0.1};
    uint8_t selector = fuzz_byte(in);
    if (selector < 128) {
        /* A small grid of ordinary values: the bulk of sensible rigs. */
        return (reach_real)((double)(selector % 32) * 0.125 - 2.0);
    }
    if (selector < 200) return (reach_real)special[selector % (sizeof special / sizeof special[0])];
    reach_real raw = 0;
    uint8_t bytes[sizeof(reach_real)];
    for (size_t i = 0; i < sizeof bytes; ++i)
        bytes[i] = fuzz_byte(in);
    memcpy(&raw, bytes, sizeof raw);
    return raw;
}

static inline reach_vec3 fuzz_vec3(fuzz_input *in) {
    reach_real x = fuzz_real(in), y = fuzz_real(in), z = fuzz_real(in);
    return reach_vec3_make(x, y, z);
}

static inline reach_quat fuzz_quat(fuzz_input *in) {
    reach_real x = fuzz_real(in), y = fuzz_real(in), z = fuzz_real(in), w = fuzz_real(in);
    return reach_quat_make(x, y, z, w);
}

/* A rotation, then a translation: read in that order (the order in which a function's arguments
 * are evaluated is unspecified, so every read is its own statement). */
static inline reach_transform fuzz_transform(fuzz_input *in) {
    reach_quat q = fuzz_quat(in);
    reach_vec3 t = fuzz_vec3(in);
    return reach_transform_make(q, t);
}

/* A rig two-bone limb of raw values, every field read in turn. */
static inline reach_two_bone_rig_input fuzz_rig_limb(fuzz_input *in) {
    reach_two_bone_rig_input limb;
    limb.parent_world.linear.col[0] = fuzz_vec3(in);
    limb.parent_world.linear.col[1] = fuzz_vec3(in);
    limb.parent_world.linear.col[2] = fuzz_vec3(in);
    limb.parent_world.translation = fuzz_vec3(in);
    limb.root_local = fuzz_transform(in);
    limb.mid_local = fuzz_transform(in);
    limb.end_local = fuzz_transform(in);
    limb.target = fuzz_vec3(in);
    limb.pole = fuzz_vec3(in);
    limb.use_pole = fuzz_byte(in) & 1;
    limb.end_orientation = fuzz_quat(in);
    limb.use_end_orientation = fuzz_byte(in) & 1;
    return limb;
}

/* The length of (x, y, z) in double, scaled first so that neither huge nor tiny components
 * overflow or underflow on the way (the checks measure double builds' extremes too). */
static inline double fuzz_norm3(double x, double y, double z) {
    double m = fmax(fabs(x), fmax(fabs(y), fabs(z)));
    if (!(m > 0) || !isfinite(m)) return m;
    x /= m;
    y /= m;
    z /= m;
    return m * sqrt(x * x + y * y + z * z);
}

/* Stops the run with a message the fuzzer shows with the crashing input. */
#define FUZZ_REQUIRE(condition)                                                                                        \
    do {                                                                                                               \
        if (!(condition)) {                                                                                            \
            fprintf(stderr, "invariant failed: %s (%s:%d)\n", #condition, __FILE__, __LINE__);                         \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

#endif
