/* Batch two-bone IK: structure-of-arrays in, SIMD kernels chosen at run time, the scalar
 * solver for every lane that needs care (see two_bone_batch.h). */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "batch_slice.h"
#include "internal.h"
#include "reach/two_bone_batch.h"
#include "reach/testing.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define BATCH_X86 1
#elif defined(__GNUC__) && defined(__aarch64__)
#include <arm_neon.h>
#define BATCH_NEON 1
#elif defined(__GNUC__) && defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define BATCH_WASM 1
#endif

/* Squared lengths the vector path accepts: bones, target and pole distances from 2^-20 to 2^20
 * (float) or 2^-200 to 2^200 (double). Products of up to four such lengths, as the kernel
 * forms, then neither overflow nor leave the normal range. Lanes outside go to the scalar
 * solver, which rescales. */
#ifdef REACH_DOUBLE
typedef long long batch_lane_int;
#define BATCH_MIN_SQUARE 0x1p-400
#define BATCH_MAX_SQUARE 0x1p+400
#define BATCH_LARGEST    DBL_MAX
#else
typedef int batch_lane_int;
#define BATCH_MIN_SQUARE 0x1p-40f
#define BATCH_MAX_SQUARE 0x1p+40f
#define BATCH_LARGEST    FLT_MAX
#endif
/* Batches whose coordinate arrays (21 per limb) hold at least this many bytes stream their
 * outputs past the caches: about the last-level cache of the machine the figures come from
 * (36 MB), where streaming was a third slower for batches of 100 000 limbs (9 MB), a tenth
 * slower at 300 000, even at 400 000 to 500 000 (the halves of a million-limb batch split over
 * two threads) and an eighth faster at a million (a fifth with arrays off the vector alignment,
 * which the kernel's first limbs going alone restores). */
#define BATCH_STREAM_BYTES ((size_t)32 << 20)
#define BATCH_STREAM_LIMBS ((int)(BATCH_STREAM_BYTES / (21 * sizeof(reach_real))))
/* A bend side shorter than this fraction of its vector is left to the scalar solver, which
 * knows the fallbacks (pole on the target line, knee straight). */
#define BATCH_SIDE_RATIO REACH_R(1e-3)
/* Must match the scalar solver's LIMB_RESOLUTION_ULPS. */
#define BATCH_RESOLUTION_ULPS 64

static reach_vec3 load3(reach_const_vec3_soa a, int i) { return reach_vec3_make(a.x[i], a.y[i], a.z[i]); }

static void store3(reach_vec3_soa a, int i, reach_vec3 v) {
    a.x[i] = v.x;
    a.y[i] = v.y;
    a.z[i] = v.z;
}

/* One limb through the scalar solver. A limb it rejects keeps its current pose, and the first
 * such error is kept in *first_error. */
static void solve_lane(const reach_two_bone_batch *b, int i, const reach_two_bone_settings *opt,
                       reach_status *first_error) {
    reach_two_bone_input in;
    in.root = load3(b->root, i);
    in.mid = load3(b->mid, i);
    in.end = load3(b->end, i);
    in.target = load3(b->target, i);
    in.use_pole = b->pole.x != NULL;
    in.pole = in.use_pole ? load3(b->pole, i) : in.root;
    reach_two_bone_settings lane_opt = *opt;
    lane_opt.rotations = 0;
    reach_two_bone_output out;
    reach_status st = reach_two_bone_solve(&in, &lane_opt, &out);
    if (st != REACH_OK) {
        if (*first_error == REACH_OK) *first_error = st;
        out.mid = in.mid;
        out.end = in.end;
        /* The current end's distance, or "as far as can be" where that is not a number: a
         * caller reading only residuals must not take a rejected limb for a perfect one. */
        out.residual = reach_vec3_length_robust(reach_vec3_sub(in.target, in.end));
        if (!reach_is_finite(out.residual)) out.residual = BATCH_LARGEST;
        out.reached = 0;
    }
    store3(b->out_mid, i, out.mid);
    store3(b->out_end, i, out.end);
    if (b->out_residual) b->out_residual[i] = out.residual;
    if (b->out_reached) b->out_reached[i] = (unsigned char)out.reached;
    if (b->out_status) b->out_status[i] = (unsigned char)st;
}

static void solve_scalar(const reach_two_bone_batch *b, const reach_two_bone_settings *opt, reach_status *first_error) {
    for (int i = 0; i < b->count; ++i)
        solve_lane(b, i, opt, first_error);
}

#if BATCH_X86
#define KERNEL_NAME   solve_sse2
#define KERNEL_TARGET __attribute__((target("sse2")))
#define KERNEL_BYTES  16
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v)      ((__typeof__(v))_mm_sqrt_pd((__m128d)(v)))
#define KERNEL_MASK_BITS(m) _mm_movemask_pd((__m128d)(m))
#define KERNEL_STREAM(p, v) _mm_stream_pd(p, (__m128d)(v))
#define KERNEL_MIN(a, b)    _mm_min_pd((__m128d)(a), (__m128d)(b))
#define KERNEL_MAX(a, b)    _mm_max_pd((__m128d)(a), (__m128d)(b))
#else
#define KERNEL_MIN(a, b)         _mm_min_ps((__m128)(a), (__m128)(b))
#define KERNEL_MAX(a, b)         _mm_max_ps((__m128)(a), (__m128)(b))
#define KERNEL_SQRT(v)           ((__typeof__(v))_mm_sqrt_ps((__m128)(v)))
#define KERNEL_RSQRT_ESTIMATE(v) ((__typeof__(v))_mm_rsqrt_ps((__m128)(v)))
#define KERNEL_NEWTON_STEPS      1
#define KERNEL_MASK_BITS(m)      _mm_movemask_ps((__m128)(m))
#define KERNEL_STREAM(p, v)      _mm_stream_ps(p, (__m128)(v))
#endif
#define KERNEL_STREAM_FENCE() _mm_sfence()
#include "two_bone_batch_kernel.h"

#define KERNEL_NAME   solve_avx2
#define KERNEL_TARGET __attribute__((target("avx2,fma")))
#define KERNEL_BYTES  32
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v)      ((__typeof__(v))_mm256_sqrt_pd((__m256d)(v)))
#define KERNEL_MASK_BITS(m) _mm256_movemask_pd((__m256d)(m))
#define KERNEL_STREAM(p, v) _mm256_stream_pd(p, (__m256d)(v))
#define KERNEL_MIN(a, b)    _mm256_min_pd((__m256d)(a), (__m256d)(b))
#define KERNEL_MAX(a, b)    _mm256_max_pd((__m256d)(a), (__m256d)(b))
#else
#define KERNEL_MIN(a, b)         _mm256_min_ps((__m256)(a), (__m256)(b))
#define KERNEL_MAX(a, b)         _mm256_max_ps((__m256)(a), (__m256)(b))
#define KERNEL_SQRT(v)           ((__typeof__(v))_mm256_sqrt_ps((__m256)(v)))
#define KERNEL_RSQRT_ESTIMATE(v) ((__typeof__(v))_mm256_rsqrt_ps((__m256)(v)))
#define KERNEL_NEWTON_STEPS      1
#define KERNEL_MASK_BITS(m)      _mm256_movemask_ps((__m256)(m))
#define KERNEL_STREAM(p, v)      _mm256_stream_ps(p, (__m256)(v))
#endif
#define KERNEL_STREAM_FENCE() _mm_sfence()
#include "two_bone_batch_kernel.h"

#define KERNEL_NAME   solve_avx512
#define KERNEL_TARGET __attribute__((target("avx512f")))
#define KERNEL_BYTES  64
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v)              ((__typeof__(v))_mm512_sqrt_pd((__m512d)(v)))
#define KERNEL_RSQRT_ESTIMATE(v)    ((__typeof__(v))_mm512_rsqrt14_pd((__m512d)(v)))
#define KERNEL_NEWTON_STEPS         2
#define KERNEL_MIN(a, b)            _mm512_min_pd((__m512d)(a), (__m512d)(b))
#define KERNEL_MAX(a, b)            _mm512_max_pd((__m512d)(a), (__m512d)(b))
#define KERNEL_MASK                 __mmask8
#define KERNEL_CMP(a, b, p)         _mm512_cmp_pd_mask((__m512d)(a), (__m512d)(b), p)
#define KERNEL_BLEND(m, a, b)       _mm512_mask_blend_pd(m, (__m512d)(b), (__m512d)(a))
#define KERNEL_STORE_WHERE(p, m, a) _mm512_mask_storeu_pd(p, m, (__m512d)(a))
#define KERNEL_STORE_FLAGS(p, m)                                                                                       \
    _mm_storel_epi64((__m128i *)(void *)(p), _mm512_cvtepi64_epi8(_mm512_maskz_mov_epi64(m, _mm512_set1_epi64(1))))
#define KERNEL_STREAM(p, v) _mm512_stream_pd(p, (__m512d)(v))
#else
#define KERNEL_SQRT(v)              ((__typeof__(v))_mm512_sqrt_ps((__m512)(v)))
#define KERNEL_RSQRT_ESTIMATE(v)    ((__typeof__(v))_mm512_rsqrt14_ps((__m512)(v)))
#define KERNEL_NEWTON_STEPS         1
#define KERNEL_MIN(a, b)            _mm512_min_ps((__m512)(a), (__m512)(b))
#define KERNEL_MAX(a, b)            _mm512_max_ps((__m512)(a), (__m512)(b))
#define KERNEL_MASK                 __mmask16
#define KERNEL_CMP(a, b, p)         _mm512_cmp_ps_mask((__m512)(a), (__m512)(b), p)
#define KERNEL_BLEND(m, a, b)       _mm512_mask_blend_ps(m, (__m512)(b), (__m512)(a))
#define KERNEL_STORE_WHERE(p, m, a) _mm512_mask_storeu_ps(p, m, (__m512)(a))
#define KERNEL_STORE_FLAGS(p, m)                                                                                       \
    _mm_storeu_si128((__m128i *)(void *)(p), _mm512_cvtepi32_epi8(_mm512_maskz_mov_epi32(m, _mm512_set1_epi32(1))))
#define KERNEL_STREAM(p, v) _mm512_stream_ps(p, (__m512)(v))
#endif
#define KERNEL_STREAM_FENCE() _mm_sfence()
#include "two_bone_batch_kernel.h"
#endif

#if BATCH_NEON
#define KERNEL_NAME solve_neon
#define KERNEL_TARGET
#define KERNEL_BYTES 16
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v) ((__typeof__(v))vsqrtq_f64((float64x2_t)(v)))
#else
#define KERNEL_SQRT(v) ((__typeof__(v))vsqrtq_f32((float32x4_t)(v)))
#endif
#include "two_bone_batch_kernel.h"
#endif

#if BATCH_WASM
#define KERNEL_NAME solve_wasm
#define KERNEL_TARGET
#define KERNEL_BYTES 16
#ifdef REACH_DOUBLE
#define KERNEL_SQRT(v) ((__typeof__(v))wasm_f64x2_sqrt((v128_t)(v)))
#else
#define KERNEL_SQRT(v) ((__typeof__(v))wasm_f32x4_sqrt((v128_t)(v)))
#endif
#include "two_bone_batch_kernel.h"
#endif

typedef void (*batch_kernel)(const reach_two_bone_batch *, const reach_two_bone_settings *, reach_status *);

/* The kernels built for this target, widest first, and whether this machine runs each. The
 * question is asked each call: it is a load of a flag the compiler's runtime filled in at
 * start-up, and keeping no state of our own keeps the library free of globals. */
typedef struct batch_isa {
    const char *name;
    batch_kernel kernel;
} batch_isa;

static const batch_isa batch_isas[] = {
#if BATCH_X86
    {"avx512", solve_avx512},
    {"avx2", solve_avx2},
    {"sse2", solve_sse2},
#elif BATCH_NEON
    {"neon", solve_neon},
#elif BATCH_WASM
    {"wasm-simd", solve_wasm},
#endif
    {"scalar", solve_scalar},
};

int reach__batch_isa_runs(const char *name) {
#if BATCH_X86
    if (strcmp(name, "avx512") == 0) return __builtin_cpu_supports("avx512f");
    if (strcmp(name, "avx2") == 0) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    (void)name;
    return 1;
}

static int machine_runs(const batch_isa *isa) { return reach__batch_isa_runs(isa->name); }

static const batch_isa *pick_isa(void) {
    const batch_isa *isa = batch_isas;
    while (!machine_runs(isa))
        ++isa; /* the last, scalar, always runs */
    return isa;
}

const char *reach_batch_isa(void) { return pick_isa()->name; }

static reach_status check_batch(const reach_two_bone_batch *b) {
    if (b->count < 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (b->count == 0) return REACH_OK;
    int poles = b->pole.x != NULL;
    if (!b->root.x || !b->root.y || !b->root.z || !b->mid.x || !b->mid.y || !b->mid.z || !b->end.x || !b->end.y ||
        !b->end.z || !b->target.x || !b->target.y || !b->target.z || !b->out_mid.x || !b->out_mid.y || !b->out_mid.z ||
        !b->out_end.x || !b->out_end.y || !b->out_end.z || (poles && (!b->pole.y || !b->pole.z)))
        return REACH_ERROR_INVALID_ARGUMENT;
    return REACH_OK;
}

/* Solves the batch on `kernel`, or on the scalar path where the options need it. */
static reach_status run(const reach_two_bone_batch *batch, const reach_two_bone_settings *options,
                        batch_kernel kernel) {
    REACH_CHECK_ARG(batch);
    reach_status st = check_batch(batch);
    if (st != REACH_OK) return st;
    reach_two_bone_settings opt = options ? *options : reach_two_bone_default_settings();
    st = reach__two_bone_check_settings(&opt);
    if (st != REACH_OK) return st;
    /* The vector path does the plain solve; soft IK, stretch and blending go through the
     * scalar solver, lane by lane. */
    int plain = opt.soft_distance == 0 && opt.max_stretch == 1 && opt.weight == 1;
    reach_status first_error = REACH_OK;
    (plain ? kernel : solve_scalar)(batch, &opt, &first_error);
    return first_error;
}

reach_status reach_two_bone_solve_batch(const reach_two_bone_batch *batch, const reach_two_bone_settings *options) {
    return run(batch, options, pick_isa()->kernel);
}

reach_status reach_two_bone_solve_batch_scalar(const reach_two_bone_batch *batch,
                                               const reach_two_bone_settings *options) {
    return run(batch, options, solve_scalar);
}

reach_status reach_two_bone_solve_batch_isa(const reach_two_bone_batch *batch, const reach_two_bone_settings *options,
                                            const char *isa) {
    REACH_CHECK_ARG(isa);
    for (size_t k = 0; k < sizeof batch_isas / sizeof batch_isas[0]; ++k)
        if (strcmp(batch_isas[k].name, isa) == 0)
            return machine_runs(&batch_isas[k]) ? run(batch, options, batch_isas[k].kernel)
                                                : REACH_ERROR_INVALID_ARGUMENT;
    return REACH_ERROR_INVALID_ARGUMENT;
}

reach_two_bone_batch reach_two_bone_batch_slice(const reach_two_bone_batch *batch, int first, int count) {
    reach_two_bone_batch s = *batch;
    s.count = count;
    s.root = reach__slice_const(batch->root, first);
    s.mid = reach__slice_const(batch->mid, first);
    s.end = reach__slice_const(batch->end, first);
    s.target = reach__slice_const(batch->target, first);
    s.pole = reach__slice_const(batch->pole, first);
    s.out_mid = reach__slice(batch->out_mid, first);
    s.out_end = reach__slice(batch->out_end, first);
    s.out_residual = reach__advance(batch->out_residual, first);
    s.out_reached = batch->out_reached ? batch->out_reached + first : NULL;
    s.out_status = batch->out_status ? batch->out_status + first : NULL;
    return s;
}
