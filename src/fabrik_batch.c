/* Batch FABRIK: chains of one shape as structure of arrays, solved in lock-step by a kernel
 * instantiated per instruction set and chosen at run time (see fabrik_batch.h). */
#include <float.h>
#include <string.h>

#include "batch_slice.h"
#include "geometry.h"
#include "internal.h"
#include "robust.h"
#include "solve_constants.h"
#include "reach/fabrik_batch.h"
#include "reach/testing.h"

/* No fused multiply-add anywhere in this file: every kernel must round as the scalar one does,
 * and a kernel whose instruction set has FMA would otherwise fuse a * b + c where the scalar
 * path on a machine without it cannot. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define FB_X86 1
#elif defined(__GNUC__) && defined(__aarch64__)
#include <arm_neon.h>
#define FB_NEON 1
#elif defined(__GNUC__) && defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define FB_WASM 1
#endif

#ifdef REACH_DOUBLE
typedef long long fb_lane_int;
#define FB_LARGEST    DBL_MAX
#define FB_LIMIT      REACH__COORDINATE_LIMIT /* the single-chain solver's */
#define FB_MIN_LENGTH 1e-140
#define FB_MIN_SQUARE 0x1p-900
#else
typedef int fb_lane_int;
#define FB_LARGEST    FLT_MAX
#define FB_LIMIT      REACH__COORDINATE_LIMIT
#define FB_MIN_LENGTH 1e-12f
#define FB_MIN_SQUARE 0x1p-100f
#endif
/* Squares below FB_MIN_SQUARE count as zero: the shortest bone's square (FB_MIN_LENGTH squared)
 * stays far above it, and far above the subnormals, where a square root loses precision. */

/* As reach_fabrik_solve: the default tolerance per chain length, its floor per coordinate, the
 * change in error (per tolerance) below which an iteration has stalled, and the rounding noise
 * of an error (per error) that does not count as a change either. */
#define FB_DEFAULT_TOLERANCE_RATIO REACH_DEFAULT_TOLERANCE_RATIO
#define FB_TOLERANCE_FLOOR         REACH__TOLERANCE_FLOOR
#define FB_STALL_RATIO             REACH__STALL_RATIO
#define FB_NOISE_RATIO             (32 * REACH_REAL_EPSILON)
/* A gap this little beyond two bones' length still lays them straight toward it. */
#define FB_STRAIGHT_SLACK (1 + REACH__STRAIGHT_SLACK)
/* A hint nearer the line than this share of its distance counts as on it. */
#define FB_LINE_RATIO_SQUARED ((64 * REACH_REAL_EPSILON) * (64 * REACH_REAL_EPSILON))
/* A warm bone within this share of its length keeps its place. */
#define FB_SETTLED_SLACK (64 * REACH_REAL_EPSILON)
/* A stalled chain is bent at most this often, by this much in all over its bones, and no bone
 * by more than the cap (reach_fabrik_solve's values). */
#define FB_MAX_KICKS           REACH__MAX_KICKS
#define FB_KICK_TOTAL_ANGLE    REACH__KICK_TOTAL_ANGLE
#define FB_KICK_MAX_BONE_ANGLE REACH__KICK_MAX_BONE_ANGLE
/* Iterations over which the error must halve, or the chain goes on with CCD sweeps between
 * FABRIK's passes. */
#define FB_CRAWL_WINDOW 8
/* Unit directions whose cross product's square is below this count as parallel: a CCD turn
 * between them would be rounding. */
#define FB_PARALLEL_SINE_SQUARED ((64 * REACH_REAL_EPSILON) * (64 * REACH_REAL_EPSILON))

typedef struct fb_job {
    const reach_fabrik_batch *batch;
    size_t stride;
    int bones;
    int max_iterations;
    int cold;
    reach_real tolerance;
    reach_vec3 direction; /* unit */
    reach_real kick_angle;
} fb_job;

#define FB_NAME fb_solve_scalar
#define FB_TARGET
#define FB_BYTES 0
#define FB_SQRT  reach_sqrt
#include "fabrik_batch_kernel.h"

#if FB_X86
#define FB_NAME   fb_solve_sse2
#define FB_TARGET __attribute__((target("sse2")))
#define FB_BYTES  16
#ifdef REACH_DOUBLE
#define FB_SQRT(v) ((__typeof__(v))_mm_sqrt_pd((__m128d)(v)))
#else
#define FB_SQRT(v) ((__typeof__(v))_mm_sqrt_ps((__m128)(v)))
#endif
#include "fabrik_batch_kernel.h"

#define FB_NAME   fb_solve_avx2
#define FB_TARGET __attribute__((target("avx2")))
#define FB_BYTES  32
#ifdef REACH_DOUBLE
#define FB_SQRT(v) ((__typeof__(v))_mm256_sqrt_pd((__m256d)(v)))
#else
#define FB_SQRT(v) ((__typeof__(v))_mm256_sqrt_ps((__m256)(v)))
#endif
#include "fabrik_batch_kernel.h"

#define FB_NAME   fb_solve_avx512
#define FB_TARGET __attribute__((target("avx512f")))
#define FB_BYTES  64
#ifdef REACH_DOUBLE
#define FB_SQRT(v) ((__typeof__(v))_mm512_sqrt_pd((__m512d)(v)))
#else
#define FB_SQRT(v) ((__typeof__(v))_mm512_sqrt_ps((__m512)(v)))
#endif
#include "fabrik_batch_kernel.h"
#endif

#if FB_NEON
#define FB_NAME fb_solve_neon
#define FB_TARGET
#define FB_BYTES 16
#ifdef REACH_DOUBLE
#define FB_SQRT(v) ((__typeof__(v))vsqrtq_f64((float64x2_t)(v)))
#else
#define FB_SQRT(v) ((__typeof__(v))vsqrtq_f32((float32x4_t)(v)))
#endif
#include "fabrik_batch_kernel.h"
#endif

#if FB_WASM
#define FB_NAME fb_solve_wasm
#define FB_TARGET
#define FB_BYTES 16
#ifdef REACH_DOUBLE
#define FB_SQRT(v) ((__typeof__(v))wasm_f64x2_sqrt((v128_t)(v)))
#else
#define FB_SQRT(v) ((__typeof__(v))wasm_f32x4_sqrt((v128_t)(v)))
#endif
#include "fabrik_batch_kernel.h"
#endif

typedef void (*fb_kernel_fn)(const fb_job *, size_t, reach_status *);

typedef struct fb_kernel {
    const char *name;
    int width; /* chains per call */
    fb_kernel_fn solve;
} fb_kernel;

/* Widest first; the scalar kernel last. */
static const fb_kernel fb_kernels[] = {
#if FB_X86
    {"avx512", (int)(64 / sizeof(reach_real)), fb_solve_avx512},
    {"avx2", (int)(32 / sizeof(reach_real)), fb_solve_avx2},
    {"sse2", (int)(16 / sizeof(reach_real)), fb_solve_sse2},
#elif FB_NEON
    {"neon", (int)(16 / sizeof(reach_real)), fb_solve_neon},
#elif FB_WASM
    {"wasm-simd", (int)(16 / sizeof(reach_real)), fb_solve_wasm},
#endif
    {"scalar", 1, fb_solve_scalar},
};
#define FB_KERNEL_COUNT ((int)(sizeof fb_kernels / sizeof fb_kernels[0]))

/* Whether this machine runs the kernel. Asked each call: the query reads a flag the compiler's
 * runtime set at start-up, and keeping no state of our own keeps the library free of globals. */
static int fb_kernel_runs(const fb_kernel *kernel) {
#if FB_X86
    if (strcmp(kernel->name, "avx512") == 0) return __builtin_cpu_supports("avx512f");
    if (strcmp(kernel->name, "avx2") == 0) return __builtin_cpu_supports("avx2");
#endif
    (void)kernel;
    return 1;
}

reach_fabrik_batch_settings reach_fabrik_batch_default_settings(void) {
    reach_fabrik_batch_settings o;
    o.max_iterations = 64;
    o.tolerance = 0;
    o.cold_start = 0;
    o.cold_direction = reach_vec3_make(0, 1, 0);
    return o;
}

static int fb_soa_complete(reach_const_vec3_soa v) { return v.x && v.y && v.z; }

static reach_status fb_check(const reach_fabrik_batch *b, const reach_fabrik_batch_settings *o) {
    REACH_CHECK_ARG(b && b->count >= 0 && b->bone_count >= 1 && (b->stride == 0 || b->stride >= b->count));
    REACH_CHECK_ARG(o->max_iterations >= 0);
    if (!reach_is_finite(o->tolerance)) return REACH_ERROR_NOT_FINITE;
    REACH_CHECK_ARG(o->tolerance >= 0);
    /* Checked on a warm start too: there it is the direction a joint on top of the one below
     * it, or a stalled chain whose target is on its root, turns toward. Zero is only a cold
     * start's error: a warm one falls back to +y. */
    if (!reach_vec3_is_finite(o->cold_direction)) return REACH_ERROR_NOT_FINITE;
    if (o->cold_start) REACH_CHECK_ARG(reach_vec3_max_abs(o->cold_direction) > 0);
    if (b->count == 0) return REACH_OK;
    reach_const_vec3_soa joints = {b->joints.x, b->joints.y, b->joints.z};
    REACH_CHECK_ARG(b->lengths && fb_soa_complete(b->root) && fb_soa_complete(b->target) && fb_soa_complete(joints));
    return REACH_OK;
}

static reach_status fb_run(const reach_fabrik_batch *batch, const reach_fabrik_batch_settings *options,
                           const char *isa) {
    reach_fabrik_batch_settings o = options ? *options : reach_fabrik_batch_default_settings();
    reach_status st = fb_check(batch, &o);
    if (st != REACH_OK) return st;
    int first = 0;
    while (first < FB_KERNEL_COUNT &&
           !(isa ? strcmp(fb_kernels[first].name, isa) == 0 : fb_kernel_runs(&fb_kernels[first])))
        ++first;
    REACH_CHECK_ARG(first < FB_KERNEL_COUNT && fb_kernel_runs(&fb_kernels[first]));

    fb_job job;
    job.batch = batch;
    job.stride = (size_t)(batch->stride ? batch->stride : batch->count);
    job.bones = batch->bone_count;
    job.max_iterations = o.max_iterations;
    job.cold = o.cold_start != 0;
    job.tolerance = o.tolerance;
    /* Scaled before normalising, so a tiny or huge direction neither underflows nor overflows. */
    job.direction = reach_vec3_normalize_safe(o.cold_direction, reach_vec3_make(0, 1, 0));
    job.kick_angle = reach_min(FB_KICK_MAX_BONE_ANGLE, FB_KICK_TOTAL_ANGLE / (reach_real)(batch->bone_count + 1));

    /* The chosen kernel over whole groups, then each narrower one over what is left: every
     * kernel gives the same bits, so the split does not show. */
    reach_status first_error = REACH_OK;
    size_t i = 0, count = (size_t)batch->count;
    for (int k = first; k < FB_KERNEL_COUNT; ++k) {
        if (!fb_kernel_runs(&fb_kernels[k])) continue;
        size_t width = (size_t)fb_kernels[k].width;
        for (; i + width <= count; i += width)
            fb_kernels[k].solve(&job, i, &first_error);
    }
    return first_error;
}

reach_status reach_fabrik_solve_batch(const reach_fabrik_batch *batch, const reach_fabrik_batch_settings *options) {
    return fb_run(batch, options, NULL);
}

reach_status reach_fabrik_solve_batch_isa(const reach_fabrik_batch *batch, const reach_fabrik_batch_settings *options,
                                          const char *isa) {
    REACH_CHECK_ARG(isa);
    return fb_run(batch, options, isa);
}

reach_fabrik_batch reach_fabrik_batch_slice(const reach_fabrik_batch *batch, int first, int count) {
    reach_fabrik_batch s = *batch;
    s.count = count;
    s.stride = batch->stride ? batch->stride : batch->count;
    s.lengths = reach__advance_const(batch->lengths, first);
    s.root = reach__slice_const(batch->root, first);
    s.target = reach__slice_const(batch->target, first);
    s.joints = reach__slice(batch->joints, first);
    s.out_residual = reach__advance(batch->out_residual, first);
    s.out_iterations = batch->out_iterations ? batch->out_iterations + first : NULL;
    s.out_reached = batch->out_reached ? batch->out_reached + first : NULL;
    s.out_status = batch->out_status ? batch->out_status + first : NULL;
    return s;
}
