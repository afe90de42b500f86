/* The two-bone batch suite: reach_two_bone_solve_batch on structure-of-arrays input, 1 000 limbs
 * per call (the arrays stay in cache) and 1 000 000 (they stream from memory), the same batches
 * forced onto the scalar path, and the large batch split over 1 and 2 threads (batch_threads.c).
 * The arrays start on 64-byte boundaries, as include/reach/two_bone_batch.h advises; the small batch is
 * also timed with every array 16 bytes past such a boundary, all that malloc promises.
 * A --quick run leaves the large batch out (it takes minutes in a sanitizer build) and checks
 * the thread split on the small one.
 *
 * The limbs come from limbs.h, with poles, under reach's default options. Before anything is
 * timed, every limb of the batch is compared with reach_two_bone_solve on that limb alone (the
 * test suite's tolerance), and the threaded batch must give the single thread's bits. The plain
 * reference solver is timed here too, on the small batch's own limbs and in turn with the
 * batches, so that the small batch's speed-ups compare the same work in the same stretch of
 * time (the million-limb batch's divides by that same in-cache figure). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_threads.h"
#include "bench.h"
#include "limbs.h"
#include "reference_two_bone.h"
#include "reach/reach.h"
#include "reach/testing.h"
#include "suites.h"

#define SMALL_COUNT 1000
#define LARGE_COUNT 1000000
#define SEED        0xba7c4ed5eedu

/* The test suite's tolerance for batch against single solves (tests/test_two_bone_batch.c):
 * 16 × 1e-5 chain lengths in float, 16 × 1e-10 in double. It holds for reachable targets. For
 * the others the limb is straight or folded, where one of the two paths places the mid joint
 * off the root–target line by up to about √(2ε) of its bone (README.md, "Batch"); the limit
 * there is the one the two-bone suite allows the plain solver, 8√ε. */
#ifdef REACH_DOUBLE
#define AGREEMENT_LIMIT (16 * 1e-10)
#else
#define AGREEMENT_LIMIT (16 * 1e-5)
#endif
#define UNREACHABLE_AGREEMENT_LIMIT (8 * sqrt((double)REACH_REAL_EPSILON))

/* ---- structure of arrays ---------------------------------------------------------------- */

enum { IN_ARRAYS = 15, OUT_ARRAYS = 6 }; /* root, mid, end, target, pole; out mid, out end */

typedef struct limb_arrays {
    int count;
    double *chain;            /* upper + lower length, for the checks */
    unsigned char *reachable; /* the target is inside the reach range */
    reach_real *block;        /* one allocation holding every coordinate array and the residuals */
    reach_real *in[IN_ARRAYS];
    reach_real *out[OUT_ARRAYS];
    reach_real *residual;
    unsigned char *reached;
} limb_arrays;

#define ARRAY_ALIGNMENT 64

/* count limbs; each coordinate array starts offset_bytes (a multiple of the element size) past
 * a 64-byte boundary. */
static void make_arrays(limb_arrays *a, int count, size_t offset_bytes, uint64_t seed) {
    size_t n = (size_t)count, offset = offset_bytes / sizeof(reach_real);
    const size_t per_line = ARRAY_ALIGNMENT / sizeof(reach_real);
    size_t stride = (n + offset + per_line - 1) / per_line * per_line;
    a->count = count;
    a->chain = bench_calloc(n, sizeof *a->chain);
    a->reachable = bench_calloc(n, sizeof *a->reachable);
    a->block = bench_aligned_calloc(ARRAY_ALIGNMENT, (IN_ARRAYS + OUT_ARRAYS + 1) * stride * sizeof(reach_real));
    reach_real *next = a->block + offset;
    for (int k = 0; k < IN_ARRAYS; k++, next += stride)
        a->in[k] = next;
    for (int k = 0; k < OUT_ARRAYS; k++, next += stride)
        a->out[k] = next;
    a->residual = next;
    a->reached = bench_calloc(n, sizeof *a->reached);
    bench_random r = {seed};
    for (int i = 0; i < count; i++) {
        limb_shape s = limb_random_shape(&r);
        reach_two_bone_input in = limb_random_input(&r, s);
        const reach_vec3 points[5] = {in.root, in.mid, in.end, in.target, in.pole};
        for (int p = 0; p < 5; p++) {
            a->in[3 * p][i] = points[p].x;
            a->in[3 * p + 1][i] = points[p].y;
            a->in[3 * p + 2][i] = points[p].z;
        }
        a->chain[i] = s.upper + s.lower;
        a->reachable[i] = (unsigned char)s.reachable;
    }
}

static void free_arrays(limb_arrays *a) {
    free(a->chain);
    free(a->reachable);
    free(a->block);
    free(a->reached);
}

static reach_const_vec3_soa in_view(const limb_arrays *a, int point) {
    reach_const_vec3_soa v = {a->in[3 * point], a->in[3 * point + 1], a->in[3 * point + 2]};
    return v;
}

/* The batch the passes solve: every input with poles, positions, residuals and reached flags
 * out (per-limb status only in the checks). */
static reach_two_bone_batch batch_of(const limb_arrays *a) {
    reach_two_bone_batch b;
    memset(&b, 0, sizeof b);
    b.count = a->count;
    b.root = in_view(a, 0);
    b.mid = in_view(a, 1);
    b.end = in_view(a, 2);
    b.target = in_view(a, 3);
    b.pole = in_view(a, 4);
    reach_vec3_soa mid = {a->out[0], a->out[1], a->out[2]}, end = {a->out[3], a->out[4], a->out[5]};
    b.out_mid = mid;
    b.out_end = end;
    b.out_residual = a->residual;
    b.out_reached = a->reached;
    return b;
}

static reach_two_bone_input limb_input(const limb_arrays *a, int i) {
    reach_two_bone_input in;
    reach_vec3 *points[5] = {&in.root, &in.mid, &in.end, &in.target, &in.pole};
    for (int p = 0; p < 5; p++)
        *points[p] = reach_vec3_make(a->in[3 * p][i], a->in[3 * p + 1][i], a->in[3 * p + 2][i]);
    in.use_pole = 1;
    return in;
}

static reach_vec3 out_point(const limb_arrays *a, int point, int i) {
    return reach_vec3_make(a->out[3 * point][i], a->out[3 * point + 1][i], a->out[3 * point + 2][i]);
}

/* ---- passes ------------------------------------------------------------------------------- */

typedef enum batch_path { PATH_SIMD, PATH_SCALAR, PATH_THREADS } batch_path;

typedef struct batch_pass {
    const limb_arrays *arrays;
    batch_path path;
    int threads;
    reach_two_bone_settings options;
    long failures; /* calls that did not return REACH_OK */
} batch_pass;

/* The plain reference on the same limbs, one at a time from an array of structures (as a plain
 * solver takes them). */
typedef struct reference_pass {
    reach_two_bone_input *inputs;
    reference_two_bone_result *outputs;
    int count;
} reference_pass;

static void pass_reference(void *data) {
    reference_pass *pass = data;
    for (int i = 0; i < pass->count; i++)
        reference_two_bone_solve(&pass->inputs[i], &pass->outputs[i]);
}

static void pass_batch(void *data) {
    batch_pass *pass = data;
    reach_two_bone_batch b = batch_of(pass->arrays);
    reach_status st = pass->path == PATH_SIMD     ? reach_two_bone_solve_batch(&b, &pass->options)
                      : pass->path == PATH_SCALAR ? reach_two_bone_solve_batch_scalar(&b, &pass->options)
                                                  : batch_solve_threads(&b, &pass->options, pass->threads);
    pass->failures += st != REACH_OK;
}

/* ---- checks ------------------------------------------------------------------------------- */

/* The worst differences between the batch and single solves, in chain lengths; NaN when a
 * status differs, or a reached flag does away from the threshold. */
typedef struct agreement {
    double reachable, unreachable;
} agreement;

/* Solves the batch on `path` once with per-limb status, then compares every limb with
 * reach_two_bone_solve alone: joints and residuals. */
static agreement batch_agreement(limb_arrays *a, batch_path path, const reach_two_bone_settings *options) {
    unsigned char *status = bench_calloc((size_t)a->count, 1);
    reach_two_bone_batch b = batch_of(a);
    b.out_status = status;
    reach_status st =
        path == PATH_SIMD ? reach_two_bone_solve_batch(&b, options) : reach_two_bone_solve_batch_scalar(&b, options);
    agreement worst = {0, 0};
    if (st != REACH_OK) worst.reachable = NAN;
    reach_two_bone_settings single = *options;
    single.rotations = 0;
    for (int i = 0; i < a->count && !isnan(worst.reachable); i++) {
        reach_two_bone_input in = limb_input(a, i);
        reach_two_bone_output out;
        reach_status limb_status = reach_two_bone_solve(&in, &single, &out);
        double chain = a->chain[i];
        /* The flags may differ only where the residual sits on the tolerance (1e-4 chains). */
        int at_threshold = fabs((double)out.residual - 1e-4 * chain) <= AGREEMENT_LIMIT * chain;
        if (limb_status != status[i] || (a->reached[i] != out.reached && !at_threshold)) {
            worst.reachable = NAN;
            break;
        }
        if (limb_status != REACH_OK) continue;
        double gap = fmax(bench_distance(out_point(a, 0, i), out.mid), bench_distance(out_point(a, 1, i), out.end));
        gap = fmax(gap, fabs((double)a->residual[i] - (double)out.residual)) / chain;
        double *kind = a->reachable[i] ? &worst.reachable : &worst.unreachable;
        *kind = isnan(gap) ? NAN : fmax(*kind, gap); /* fmax alone would drop a NaN */
    }
    free(status);
    return worst;
}

static void check_agreement(bench_run *run, agreement worst, const char *what) {
    char message[200];
    snprintf(message, sizeof message,
             "%s agrees with reach_two_bone_solve within %.3g chain lengths, reachable targets (worst %.3g)", what,
             AGREEMENT_LIMIT, worst.reachable);
    bench_check(run, worst.reachable <= AGREEMENT_LIMIT, message);
    snprintf(message, sizeof message, "%s agrees within %.3g chain lengths, unreachable targets (worst %.3g)", what,
             UNREACHABLE_AGREEMENT_LIMIT, worst.unreachable);
    bench_check(run, worst.unreachable <= UNREACHABLE_AGREEMENT_LIMIT, message);
}

/* The outputs as one block of bytes per array, to compare two solves bit for bit. */
static int same_outputs(const limb_arrays *a, const limb_arrays *b) {
    size_t bytes = (size_t)a->count * sizeof(reach_real);
    for (int k = 0; k < OUT_ARRAYS; k++)
        if (memcmp(a->out[k], b->out[k], bytes) != 0) return 0;
    return memcmp(a->residual, b->residual, bytes) == 0 && memcmp(a->reached, b->reached, (size_t)a->count) == 0;
}

/* The threaded split gives exactly the single call's outputs: solve both, compare the bits. */
static int threads_match(limb_arrays *a, const reach_two_bone_settings *options, int threads) {
    limb_arrays copy = *a;
    for (int k = 0; k < OUT_ARRAYS; k++)
        copy.out[k] = bench_calloc((size_t)a->count, sizeof(reach_real));
    copy.residual = bench_calloc((size_t)a->count, sizeof(reach_real));
    copy.reached = bench_calloc((size_t)a->count, 1);
    reach_two_bone_batch one = batch_of(a), split = batch_of(&copy);
    int ok = reach_two_bone_solve_batch(&one, options) == REACH_OK &&
             batch_solve_threads(&split, options, threads) == REACH_OK && same_outputs(a, &copy);
    for (int k = 0; k < OUT_ARRAYS; k++)
        free(copy.out[k]);
    free(copy.residual);
    free(copy.reached);
    return ok;
}

/* The checks, on the small batch and the large one (NULL in a --quick run). */
static void run_checks(bench_run *run, limb_arrays *small, limb_arrays *large, const reach_two_bone_settings *options) {
    agreement simd = batch_agreement(small, PATH_SIMD, options);
    agreement scalar = batch_agreement(small, PATH_SCALAR, options);
    check_agreement(run, simd, "the batch of 1 000");
    check_agreement(run, scalar, "the scalar batch");
    if (large) {
        agreement simd_large = batch_agreement(large, PATH_SIMD, options);
        check_agreement(run, simd_large, "the batch of 1 000 000");
        simd.reachable = fmax(simd.reachable, simd_large.reachable);
        simd.unreachable = fmax(simd.unreachable, simd_large.unreachable);
    }
    bench_check(run, threads_match(large ? large : small, options, 2),
                "the batch split over 2 threads gives the same bits");
    bench_record_value(run, "two_bone/accuracy/batch_agreement", "chain lengths", simd.reachable);
    bench_record_value(run, "two_bone/accuracy/batch_unreachable_agreement", "chain lengths", simd.unreachable);
    bench_record_value(run, "two_bone/accuracy/batch_scalar_agreement", "chain lengths",
                       fmax(scalar.reachable, scalar.unreachable));
}

/* ---- the suite ---------------------------------------------------------------------------- */

/* Whether the run wants any figure of this suite: it shares the two_bone prefix, and its
 * million limbs take a second to build. */
static int suite_wanted(const bench_run *run) {
    static const char *const names[] = {"two_bone/batch", "two_bone/batch_scalar", "two_bone/threads",
                                        "two_bone/bytes/batch", "two_bone/accuracy/batch"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (bench_wants(run, names[i])) return 1;
    return 0;
}

void bench_suite_two_bone_batch(bench_run *run) {
    if (!suite_wanted(run)) return;
    int quick = bench_is_quick(run);
    limb_arrays small, small_offset, large;
    make_arrays(&small, SMALL_COUNT, 0, SEED);
    make_arrays(&small_offset, SMALL_COUNT, 16, SEED);
    if (!quick) make_arrays(&large, LARGE_COUNT, 0, SEED + 1);
    reach_two_bone_settings options = reach_two_bone_default_settings();
    run_checks(run, &small, quick ? NULL : &large, &options);

    check_agreement(run, batch_agreement(&small_offset, PATH_SIMD, &options), "the batch of 16-byte-aligned arrays");

    batch_pass simd_small = {&small, PATH_SIMD, 1, options, 0}, simd_large = {&large, PATH_SIMD, 1, options, 0};
    batch_pass simd_offset = {&small_offset, PATH_SIMD, 1, options, 0};
    batch_pass scalar_small = {&small, PATH_SCALAR, 1, options, 0};
    batch_pass scalar_large = {&large, PATH_SCALAR, 1, options, 0};
    batch_pass one_thread = {&large, PATH_THREADS, 1, options, 0}, two_threads = {&large, PATH_THREADS, 2, options, 0};
    reference_pass reference = {bench_calloc(SMALL_COUNT, sizeof(reach_two_bone_input)),
                                bench_calloc(SMALL_COUNT, sizeof(reference_two_bone_result)), SMALL_COUNT};
    for (int i = 0; i < SMALL_COUNT; i++)
        reference.inputs[i] = limb_input(&small, i);
    const bench_timed timed[] = {
        {"two_bone/batch/reference/1000", "solves/s", pass_reference, &reference, SMALL_COUNT},
        {"two_bone/batch/1000", "solves/s", pass_batch, &simd_small, SMALL_COUNT},
        {"two_bone/batch_scalar/1000", "solves/s", pass_batch, &scalar_small, SMALL_COUNT},
        {"two_bone/batch/1000/align16", "solves/s", pass_batch, &simd_offset, SMALL_COUNT},
        /* the large batch, not in a --quick run */
        {"two_bone/batch/1000000", "solves/s", pass_batch, &simd_large, LARGE_COUNT},
        {"two_bone/batch_scalar/1000000", "solves/s", pass_batch, &scalar_large, LARGE_COUNT},
        {"two_bone/threads/1", "solves/s", pass_batch, &one_thread, LARGE_COUNT},
        {"two_bone/threads/2", "solves/s", pass_batch, &two_threads, LARGE_COUNT},
    };
    int timed_count = quick ? 4 : (int)(sizeof timed / sizeof timed[0]);
    bench_time(run, timed, timed_count);
    long failures = 0;
    for (int i = 0; i < timed_count; i++)
        if (timed[i].pass == pass_batch) failures += ((const batch_pass *)timed[i].data)->failures;
    bench_check(run, failures == 0, "every batch returns REACH_OK");
    bench_consume((double)small.out[0][SMALL_COUNT - 1] + (double)reference.outputs[SMALL_COUNT - 1].end.x);
    free(reference.inputs);
    free(reference.outputs);

    /* What the caller's arrays hold per limb: 15 input and 6 output coordinates, the residual
     * and the reached flag (the library itself keeps nothing per limb). */
    bench_record_value(run, "two_bone/bytes/batch", "bytes/limb",
                       (double)((IN_ARRAYS + OUT_ARRAYS + 1) * sizeof(reach_real) + 1));
    bench_ratio(run, "two_bone/speedup/batch", "two_bone/batch/1000", "two_bone/batch/reference/1000");
    bench_ratio(run, "two_bone/speedup/batch_1000000", "two_bone/batch/1000000", "two_bone/batch/reference/1000");
    bench_ratio(run, "two_bone/speedup/batch_scalar", "two_bone/batch_scalar/1000", "two_bone/batch/reference/1000");
    bench_ratio(run, "two_bone/speedup/simd", "two_bone/batch/1000", "two_bone/batch_scalar/1000");
    bench_ratio(run, "two_bone/speedup/threads", "two_bone/threads/2", "two_bone/threads/1");
    bench_ratio(run, "two_bone/speedup/alignment", "two_bone/batch/1000", "two_bone/batch/1000/align16");
    free_arrays(&small);
    free_arrays(&small_offset);
    if (!quick) {
        bench_consume((double)large.out[4][LARGE_COUNT - 1]);
        free_arrays(&large);
    }
}
