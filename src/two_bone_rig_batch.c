/* Batch rig two-bone IK: arrays of the per-call structs in, the short path's arithmetic across
 * limbs in SIMD lanes (kernels chosen at run time), the scalar reach_two_bone_solve_rig for
 * every lane that needs care (see two_bone_batch.h). */
#include <float.h>
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "reach/testing.h"
#include "reach/two_bone_batch.h"
#include "two_bone_rig_ordinary.h"

/* No fused multiply-add in this file: a lane must decline exactly where solve_rig_ordinary does,
 * and a fused a·b − c·d would, for one, find a determinant of a few roundings in a parent whose
 * columns repeat (clang contracts by default, and the AVX2 kernel has FMA). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* The vector kernels read a flag's int from the low-addressed bytes of its word and write
 * `reached` there (two_bone_rig_batch_kernel.h): they are built on little-endian targets only,
 * and big-endian ones take the scalar path. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RIG_X86 1
#elif defined(__aarch64__)
#include <arm_neon.h>
#define RIG_NEON 1
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define RIG_WASM 1
#endif
#endif

/* A limb as words of a reach_real's size: the vector path loads it so (a flag is an int in the
 * low bytes of its word). */
#define RIG_WORDS ((int)(sizeof(reach_two_bone_rig_input) / sizeof(reach_real)))
_Static_assert(sizeof(reach_two_bone_rig_input) % sizeof(reach_real) == 0, "a limb is whole words");
_Static_assert(sizeof(int) <= sizeof(reach_real), "a flag fits a word");
#define RIG_OUT_WORDS ((int)(sizeof(reach_two_bone_rig_output) / sizeof(reach_real)))
_Static_assert(sizeof(reach_two_bone_rig_output) % sizeof(reach_real) == 0, "an output is whole words");

#ifdef REACH_DOUBLE
typedef long long rig_lane_int;
#define RIG_FLAG_BITS 0xffffffffLL
#define RIG_LARGEST   DBL_MAX
#else
typedef int rig_lane_int;
#define RIG_FLAG_BITS (-1)
#define RIG_LARGEST   FLT_MAX
#endif

/* A refused limb's outputs: its pose as it stands (the input's rotations and translations, its
 * joints' world positions), the end's distance to the target, or the largest finite number where
 * that is not a number, so that a caller reading only residuals does not take it for solved. */
static void rig_refuse(const reach_two_bone_rig_input *in, reach_two_bone_rig_output *out) {
    out->root_rotation = in->root_local.rotation;
    out->mid_rotation = in->mid_local.rotation;
    out->end_rotation = in->end_local.rotation;
    out->mid_translation = in->mid_local.translation;
    out->end_translation = in->end_local.translation;
    const reach_quat r_root = reach_quat_normalize_safe(in->root_local.rotation);
    const reach_quat upper_frame = reach_quat_mul(r_root, reach_quat_normalize_safe(in->mid_local.rotation));
    const reach_vec3 mid =
        reach_vec3_add(in->root_local.translation, reach_quat_rotate(r_root, in->mid_local.translation));
    const reach_vec3 end = reach_vec3_add(mid, reach_quat_rotate(upper_frame, in->end_local.translation));
    out->mid = reach_affine_point(in->parent_world, mid);
    out->end = reach_affine_point(in->parent_world, end);
    out->residual = reach_vec3_length_robust(reach_vec3_sub(in->target, out->end));
    if (!reach_is_finite(out->residual)) out->residual = RIG_LARGEST;
    out->reached = 0;
}

/* One limb through reach_two_bone_solve_rig with the caller's options; a limb it rejects keeps
 * its pose (refuse), and the first such error is kept in *first_error. */
static void rig_solve_lane(const reach_two_bone_rig_input *in, const reach_two_bone_settings *options,
                           reach_two_bone_rig_output *out, unsigned char *status, reach_status *first_error) {
    reach_status st = reach_two_bone_solve_rig(in, options, out);
    if (st != REACH_OK) {
        if (*first_error == REACH_OK) *first_error = st;
        rig_refuse(in, out);
    }
    if (status) *status = (unsigned char)st;
}

/* A kernel solves `count` limbs; where `vector` is not NULL it marks each limb 1 where the vector
 * path solved it, 0 where it went to the scalar solve (reach_two_bone_solve_rig_batch_lanes). */
typedef void (*rig_kernel)(const reach_two_bone_rig_input *, int, const reach_two_bone_settings *,
                           reach_two_bone_rig_output *, unsigned char *status, reach_status *, unsigned char *vector);

static void rig_solve_scalar(const reach_two_bone_rig_input *in, int count, const reach_two_bone_settings *options,
                             reach_two_bone_rig_output *out, unsigned char *status, reach_status *first_error,
                             unsigned char *vector) {
    for (int i = 0; i < count; ++i)
        rig_solve_lane(in + i, options, out + i, status ? status + i : NULL, first_error);
    if (vector && count > 0) memset(vector, 0, (size_t)count);
}

#if RIG_X86
#define KERNEL_NAME   rig_sse2
#define KERNEL_TARGET __attribute__((target("sse2")))
#define KERNEL_BYTES  16
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v) _mm_sqrt_pd((__m128d)(v))
#else
#define KERNEL_SQRT(v) _mm_sqrt_ps((__m128)(v))
#endif
#include "two_bone_rig_batch_kernel.h"

#define KERNEL_NAME   rig_avx2
#define KERNEL_TARGET __attribute__((target("avx2,fma")))
#define KERNEL_BYTES  32
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v) _mm256_sqrt_pd((__m256d)(v))
#else
#define KERNEL_SQRT(v) _mm256_sqrt_ps((__m256)(v))
#endif
#include "two_bone_rig_batch_kernel.h"

#define KERNEL_NAME   rig_avx512
#define KERNEL_TARGET __attribute__((target("avx512f")))
#define KERNEL_BYTES  64
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v) _mm512_sqrt_pd((__m512d)(v))
#else
#define KERNEL_SQRT(v) _mm512_sqrt_ps((__m512)(v))
#endif
#include "two_bone_rig_batch_kernel.h"
#endif

#if RIG_NEON
#define KERNEL_NAME rig_neon
#define KERNEL_TARGET
#define KERNEL_BYTES 16
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v) vsqrtq_f64((float64x2_t)(v))
#else
#define KERNEL_SQRT(v) vsqrtq_f32((float32x4_t)(v))
#endif
#include "two_bone_rig_batch_kernel.h"
#endif

#if RIG_WASM
#define KERNEL_NAME rig_wasm
#define KERNEL_TARGET
#define KERNEL_BYTES 16
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v) wasm_f64x2_sqrt((v128_t)(v))
#else
#define KERNEL_SQRT(v) wasm_f32x4_sqrt((v128_t)(v))
#endif
#include "two_bone_rig_batch_kernel.h"
#endif

/* The kernels built for this target, widest first, under reach_batch_isa's names. */
typedef struct rig_isa {
    const char *name;
    rig_kernel kernel;
} rig_isa;

static const rig_isa rig_isas[] = {
#if RIG_X86
    {"avx512", rig_avx512},
    {"avx2", rig_avx2},
    {"sse2", rig_sse2},
#elif RIG_NEON
    {"neon", rig_neon},
#elif RIG_WASM
    {"wasm-simd", rig_wasm},
#endif
    {"scalar", rig_solve_scalar},
};

/* Bad options are every limb's error (reach_two_bone_solve_rig checks them first): refused
 * once, writing nothing, as reach_two_bone_solve_batch does. */
static reach_status rig_run(const reach_two_bone_rig_input *in, int count, const reach_two_bone_settings *options,
                            reach_two_bone_rig_output *out, unsigned char *out_status, rig_kernel kernel,
                            unsigned char *vector) {
    REACH_CHECK_ARG(count >= 0 && (count == 0 || (in && out)));
    if (options) {
        const reach_status st = reach__two_bone_check_settings(options);
        if (st != REACH_OK) return st;
    }
    reach_status first_error = REACH_OK;
    /* Options other than the defaults' (but for the tolerance) are the scalar solve's, limb by
     * limb, as reach_two_bone_solve_rig takes them. */
    if (options && !reach__two_bone_settings_ordinary(options)) kernel = rig_solve_scalar;
    kernel(in, count, options, out, out_status, &first_error, vector);
    return first_error;
}

reach_status reach_two_bone_solve_rig_batch(const reach_two_bone_rig_input *in, int count,
                                            const reach_two_bone_settings *options, reach_two_bone_rig_output *out,
                                            unsigned char *out_status) {
    const rig_isa *isa = rig_isas;
    while (!reach__batch_isa_runs(isa->name))
        ++isa; /* the last, scalar, always runs */
    return rig_run(in, count, options, out, out_status, isa->kernel, NULL);
}

reach_status reach_two_bone_solve_rig_batch_lanes(const reach_two_bone_rig_input *in, int count,
                                                  const reach_two_bone_settings *options,
                                                  reach_two_bone_rig_output *out, unsigned char *out_status,
                                                  const char *isa, unsigned char *out_vector) {
    REACH_CHECK_ARG(isa);
    for (size_t k = 0; k < sizeof rig_isas / sizeof rig_isas[0]; ++k)
        if (strcmp(rig_isas[k].name, isa) == 0)
            return reach__batch_isa_runs(isa)
                       ? rig_run(in, count, options, out, out_status, rig_isas[k].kernel, out_vector)
                       : REACH_ERROR_INVALID_ARGUMENT;
    return REACH_ERROR_INVALID_ARGUMENT;
}

reach_status reach_two_bone_solve_rig_batch_isa(const reach_two_bone_rig_input *in, int count,
                                                const reach_two_bone_settings *options, reach_two_bone_rig_output *out,
                                                unsigned char *out_status, const char *isa) {
    return reach_two_bone_solve_rig_batch_lanes(in, count, options, out, out_status, isa, NULL);
}
