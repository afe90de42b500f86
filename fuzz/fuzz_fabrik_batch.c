/* Fuzzes batch FABRIK (fabrik_batch.h): batches of any count, bone count and stride, each chain
 * well formed with one thing made bad or degenerate (NaN, infinities, subnormals, 1e±30, zero,
 * tiny and huge bones, coincident points, a target on the root or at full stretch, far from the
 * origin) or every number raw; options cold or warm, capped, with tolerances, or raw; batches
 * and options broken outright. Every kernel is run through the force-ISA entry point.
 * Invariants:
 *   - a whole-batch error (bad shape, NULL array, bad options, a kernel this machine lacks)
 *     writes nothing at all;
 *   - each chain's status is the error its own input gives (NaN before anything else), the
 *     call returns the first bad chain's, and a bad chain's joints are left byte for byte, its
 *     residual the largest finite number, not reached, 0 iterations;
 *   - nothing between a row's last chain and the next row (the stride's padding) is written;
 *   - a good chain: joints finite, joint 0 on the root, every bone its length (a few ε of the
 *     chain and of the coordinates; a warm pose taken as keeping its lengths may keep its 64 ε), the residual the end's
 * true distance to the target, reached exactly when the residual is within the tolerance the header defines, iterations
 *     within the cap; a target clearly out of reach gives a straight chain toward it;
 *   - every kernel gives the default kernel's bits, as do two slices solved on their own, and a
 *     call without the optional outputs gives the same joints;
 *   - a cold start reads no joints: other garbage in them gives the same bits;
 *   - solved again warm, a chain that reached and keeps its lengths is left bit for bit with 0
 *     iterations;
 *   - cold along +y with the default tolerance and cap: what the single-chain solver reaches
 *     from the same straight chain (a skeleton of ball joints), the batch reaches or runs to
 *     the cap trying (it never gives up on such a target early). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_rig.h"
#include "reach/testing.h"

#define MAX_CHAINS 40 /* past two AVX-512 groups of float lanes plus every narrower remainder */
#define MAX_BONES  12

#ifdef REACH_DOUBLE
#define LARGEST    DBL_MAX
#define LIMIT      1e150
#define MIN_LENGTH 1e-140
#define TINY       1e-150 /* below this a difference's square underflows */
static const reach_real scales[] = {1, 1, 1, 1e-3, 1e3, 1e-9, 1e9, 1e-100, 1e100, 1e120};
static const reach_real offsets[] = {1e6, 1e12, 1e100, 5e149};
#else
#define LARGEST    FLT_MAX
#define LIMIT      1e18f
#define MIN_LENGTH 1e-12f
#define TINY       1e-18f
static const reach_real scales[] = {1, 1, 1, 1e-3f, 1e3f, 1e-9f, 1e9f, 1e15f};
static const reach_real offsets[] = {1e3f, 1e6f, 1e12f, 4e17f};
#endif
#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Bone lengths are kept to this many ε of the chain plus the coordinates (fabrik_batch.h: "a
 * few ε of the bone relative to the chain"; coordinates far larger than the chain round every
 * joint by ε of themselves). */
#define LENGTH_EPS 16

static const char *const kernels[] = {"avx512", "avx2", "sse2", "neon", "wasm-simd", "scalar"};

/* ---- the arrays of one batch, each allocated to its exact size ---------------------------- */

enum {
    LENGTHS,
    ROOT,
    TARGET = ROOT + 3,
    JOINTS = TARGET + 3,
    RESIDUAL = JOINTS + 3,
    ITERATIONS,
    REACHED,
    STATUS,
    BUFFERS
};

typedef struct arrays {
    int count, bones, stride; /* stride: the real spacing of rows, >= count */
    void *buffer[BUFFERS];
    size_t bytes[BUFFERS];
} arrays;

static void arrays_make(arrays *a, int count, int bones, int stride) {
    a->count = count;
    a->bones = bones;
    a->stride = stride;
    size_t r = sizeof(reach_real), per = (size_t)count, rows = (size_t)stride;
    for (int k = 0; k < BUFFERS; ++k) {
        size_t bytes = per * r;
        if (k == LENGTHS) bytes = (size_t)bones * rows * r;
        if (k >= JOINTS && k < JOINTS + 3) bytes = (size_t)(bones + 1) * rows * r;
        if (k == ITERATIONS) bytes = per * sizeof(int);
        if (k == REACHED || k == STATUS) bytes = per;
        a->bytes[k] = bytes;
        /* Exactly the size: AddressSanitizer sees one element past any array. */
        a->buffer[k] = malloc(bytes > 0 ? bytes : 1);
        FUZZ_REQUIRE(a->buffer[k] != NULL);
    }
}

static void arrays_copy(arrays *dst, const arrays *src) {
    arrays_make(dst, src->count, src->bones, src->stride);
    for (int k = 0; k < BUFFERS; ++k)
        memcpy(dst->buffer[k], src->buffer[k], src->bytes[k]);
}

static void arrays_free(arrays *a) {
    for (int k = 0; k < BUFFERS; ++k)
        free(a->buffer[k]);
}

/* Whether buffers [from, to) hold the same bytes in both. */
static int arrays_same(const arrays *a, const arrays *b, int from, int to) {
    for (int k = from; k < to; ++k)
        if (memcmp(a->buffer[k], b->buffer[k], a->bytes[k]) != 0) return 0;
    return 1;
}

static reach_real *reals(const arrays *a, int k) { return (reach_real *)a->buffer[k]; }
static size_t at(const arrays *a, int row, int i) { return (size_t)row * (size_t)a->stride + (size_t)i; }
static reach_real bone(const arrays *a, int b, int i) { return reals(a, LENGTHS)[at(a, b, i)]; }

static reach_vec3 point(const arrays *a, int which, int i) {
    return reach_vec3_make(reals(a, which)[i], reals(a, which + 1)[i], reals(a, which + 2)[i]);
}

static void set_point(arrays *a, int which, int i, reach_vec3 p) {
    reals(a, which)[i] = p.x;
    reals(a, which + 1)[i] = p.y;
    reals(a, which + 2)[i] = p.z;
}

static reach_vec3 joint(const arrays *a, int j, int i) {
    size_t k = at(a, j, i);
    return reach_vec3_make(reals(a, JOINTS)[k], reals(a, JOINTS + 1)[k], reals(a, JOINTS + 2)[k]);
}

static void set_joint(arrays *a, int j, int i, reach_vec3 p) {
    size_t k = at(a, j, i);
    reals(a, JOINTS)[k] = p.x;
    reals(a, JOINTS + 1)[k] = p.y;
    reals(a, JOINTS + 2)[k] = p.z;
}

/* Whether chain i's joints hold the same bytes in both. */
static int same_joints(const arrays *a, const arrays *b, int i) {
    for (int j = 0; j <= a->bones; ++j) {
        reach_vec3 p = joint(a, j, i), q = joint(b, j, i);
        if (memcmp(&p, &q, sizeof p) != 0) return 0;
    }
    return 1;
}

static reach_fabrik_batch batch_of(arrays *a, int stride_field, int outputs) {
    reach_fabrik_batch b;
    memset(&b, 0, sizeof b);
    b.count = a->count;
    b.bone_count = a->bones;
    b.stride = stride_field;
    b.lengths = reals(a, LENGTHS);
    reach_const_vec3_soa root = {reals(a, ROOT), reals(a, ROOT + 1), reals(a, ROOT + 2)};
    reach_const_vec3_soa target = {reals(a, TARGET), reals(a, TARGET + 1), reals(a, TARGET + 2)};
    reach_vec3_soa joints = {reals(a, JOINTS), reals(a, JOINTS + 1), reals(a, JOINTS + 2)};
    b.root = root;
    b.target = target;
    b.joints = joints;
    if (outputs) {
        b.out_residual = reals(a, RESIDUAL);
        b.out_iterations = (int *)a->buffer[ITERATIONS];
        b.out_reached = (unsigned char *)a->buffer[REACHED];
        b.out_status = (unsigned char *)a->buffer[STATUS];
    }
    return b;
}

/* ---- chains from bytes -------------------------------------------------------------------- */

static reach_real chain_length(const arrays *a, int i) {
    reach_real total = 0; /* in the kernel's order, so the tolerance below is its tolerance */
    for (int b = 0; b < a->bones; ++b)
        total += bone(a, b, i);
    return total;
}

/* A chain at some scale (bones 1/8 to 2 of it, root, target and warm joints on the grid
 * around it), every number raw, or a chain with one thing made bad or degenerate. */
static void fuzz_chain(arrays *a, int i, fuzz_input *in) {
    uint8_t how = fuzz_byte(in), where = fuzz_byte(in), size = fuzz_byte(in);
    int n = a->bones;
    if ((how & 7) == 7) {
        for (int b = 0; b < n; ++b)
            reals(a, LENGTHS)[at(a, b, i)] = fuzz_real(in);
        for (int k = ROOT; k < JOINTS; ++k)
            reals(a, k)[i] = fuzz_real(in);
        for (int j = 0; j <= n; ++j)
            set_joint(a, j, i, fuzz_vec3(in));
        return;
    }
    reach_real scale = scales[size % COUNT_OF(scales)];
    for (int b = 0; b < n; ++b)
        reals(a, LENGTHS)[at(a, b, i)] = scale * REACH_R(0.125) * (reach_real)(1 + fuzz_byte(in) % 16);
    reach_vec3 root = reach_vec3_scale(fuzz_finite_vec3(in), scale);
    set_point(a, ROOT, i, root);
    set_point(a, TARGET, i, reach_vec3_add(root, reach_vec3_scale(fuzz_finite_vec3(in), scale)));
    for (int j = 0; j <= n; ++j)
        set_joint(a, j, i, reach_vec3_add(root, reach_vec3_scale(fuzz_finite_vec3(in), scale)));
    reach_real chain = chain_length(a, i);
    switch ((how >> 3) & 7) {
    case 1: { /* one number anything */
        int k = where % (n + 6 + 3 * (n + 1));
        reach_real *slot = k < n       ? &reals(a, LENGTHS)[at(a, k, i)]
                           : k < n + 6 ? &reals(a, ROOT + (k - n))[i]
                                       : &reals(a, JOINTS + (k - n - 6) % 3)[at(a, (k - n - 6) / 3, i)];
        *slot = fuzz_real(in);
        break;
    }
    case 2: set_point(a, TARGET, i, root); break; /* the target on the root */
    case 3:                                       /* every warm joint on the root, or on one point */
        for (int j = 0; j <= n; ++j)
            set_joint(a, j, i, (where & 1) ? root : point(a, TARGET, i));
        break;
    case 4: { /* one warm joint on the next */
        int j = where % n;
        set_joint(a, j + 1, i, joint(a, j, i));
        break;
    }
    case 5: { /* far from the origin: bones near the coordinates' resolution */
        reach_real offset = offsets[where % COUNT_OF(offsets)] * (reach_real)(1 + (where >> 2) % 3);
        reach_vec3 shift = reach_vec3_make(offset, (where & 32) ? -offset : 0, (where & 64) ? offset : 0);
        set_point(a, ROOT, i, reach_vec3_add(root, shift));
        set_point(a, TARGET, i, reach_vec3_add(point(a, TARGET, i), shift));
        for (int j = 0; j <= n; ++j)
            set_joint(a, j, i, reach_vec3_add(joint(a, j, i), shift));
        break;
    }
    case 6: { /* the target at full stretch along an axis, a hair short or beyond, or half way */
        static const reach_real stretch[] = {1, 1 - REACH_R(1e-4), 1 + REACH_R(1e-4), REACH_R(0.5),
                                             1 - 4 * REACH_REAL_EPSILON};
        reach_real reach = chain * stretch[(where >> 3) % COUNT_OF(stretch)] * ((where & 4) ? -1 : 1);
        reach_vec3 axis = reach_vec3_make(where % 3 == 0, where % 3 == 1, where % 3 == 2);
        set_point(a, TARGET, i, reach_vec3_mad(root, axis, reach));
        if (where & 128) { /* and warm from straight along it */
            reach_real run = 0;
            for (int j = 0; j <= n; ++j) {
                set_joint(a, j, i, reach_vec3_mad(root, axis, reach < 0 ? -run : run));
                if (j < n) run += bone(a, j, i);
            }
        }
        break;
    }
    case 7: { /* one bone far longer or shorter than the rest, near the zero-length ratio */
        static const reach_real factor[] = {1e6f, 1e-5f, 1e-6f, 1e-7f, 1e3f, 0, -1, 1e-30f};
        reals(a, LENGTHS)[at(a, where % n, i)] *= factor[(where >> 4) % COUNT_OF(factor)];
        if (where & 8) set_point(a, TARGET, i, root);
        break;
    }
    default: break;
    }
}

/* ---- what each chain should get ----------------------------------------------------------- */

enum { BAD_FINITE = 1, BAD_ZERO = 2, BAD_RANGE = 4 };

/* The errors chain i's input has (fabrik_batch.h), in reach_real as the kernel sees them. */
static int chain_errors(const arrays *a, int i, int cold) {
    int errors = 0;
    reach_real coords = 0;
    for (int k = ROOT; k < JOINTS; ++k) {
        reach_real v = reals(a, k)[i];
        if (!reach_is_finite(v)) errors |= BAD_FINITE;
        coords = reach_max(coords, reach_fabs(v));
    }
    for (int j = 0; j <= a->bones && !cold; ++j) {
        reach_vec3 p = joint(a, j, i);
        if (!reach_vec3_is_finite(p)) errors |= BAD_FINITE;
        coords = reach_max(coords, reach_vec3_max_abs(p));
    }
    reach_real chain = chain_length(a, i), shortest = LARGEST;
    for (int b = 0; b < a->bones; ++b) {
        reach_real l = bone(a, b, i);
        if (!reach_is_finite(l)) errors |= BAD_FINITE;
        shortest = reach_min(shortest, l);
    }
    if (!(shortest > 0) || shortest < MIN_LENGTH || shortest < chain * REACH_ZERO_LENGTH_RATIO) errors |= BAD_ZERO;
    if (coords > LIMIT || chain > LIMIT) errors |= BAD_RANGE;
    return errors;
}

static int status_fits(int errors, unsigned char status) {
    if (errors == 0) return status == REACH_OK;
    if (errors & BAD_FINITE) return status == REACH_ERROR_NOT_FINITE;
    return ((errors & BAD_ZERO) && status == REACH_ERROR_ZERO_LENGTH) ||
           ((errors & BAD_RANGE) && status == REACH_ERROR_OUT_OF_RANGE);
}

/* The tolerance fabrik_batch.h defines, computed as the kernel computes it. */
static reach_real tolerance_of(const arrays *a, int i, const reach_fabrik_batch_settings *o) {
    reach_real chain = chain_length(a, i);
    reach_real extent = reach_max(reach_vec3_max_abs(point(a, ROOT, i)), reach_vec3_max_abs(point(a, TARGET, i)));
    reach_real tolerance = o->tolerance > 0 ? o->tolerance : chain * REACH_R(1e-4);
    return reach_max(tolerance, (extent + chain) * (16 * REACH_REAL_EPSILON));
}

static double distance(reach_vec3 p, reach_vec3 q) {
    return fuzz_norm3((double)p.x - (double)q.x, (double)p.y - (double)q.y, (double)p.z - (double)q.z);
}

/* Chain i's input and answer, for the report of a failed invariant. */
static void dump_chain(const arrays *in, const arrays *out, int i) {
    reach_vec3 r = point(in, ROOT, i), t = point(in, TARGET, i);
    fprintf(stderr, "chain %d: root (%.9g %.9g %.9g) target (%.9g %.9g %.9g)\n", i, (double)r.x, (double)r.y,
            (double)r.z, (double)t.x, (double)t.y, (double)t.z);
    for (int j = 0; j <= in->bones; ++j) {
        reach_vec3 p = joint(in, j, i), q = joint(out, j, i);
        fprintf(stderr, "  joint %d: (%.9g %.9g %.9g) -> (%.9g %.9g %.9g)", j, (double)p.x, (double)p.y, (double)p.z,
                (double)q.x, (double)q.y, (double)q.z);
        if (j < in->bones) fprintf(stderr, "  bone %.9g", (double)bone(in, j, i));
        fprintf(stderr, "\n");
    }
}

/* Whether chain i's joint 0 is on its root and every bone keeps its length to `ulps` ε of itself
 * as the kernel measures it (its own differences, measured here in double). */
static int bones_within(const arrays *a, int i, double ulps) {
    reach_vec3 root = point(a, ROOT, i), first = joint(a, 0, i);
    if (!(first.x == root.x && first.y == root.y && first.z == root.z)) return 0;
    for (int b = 0; b < a->bones; ++b) {
        reach_vec3 v = reach_vec3_sub(joint(a, b + 1, i), joint(a, b, i));
        double l = (double)bone(a, b, i);
        if (!(fabs(fuzz_norm3((double)v.x, (double)v.y, (double)v.z) - l) <= ulps * (double)REACH_REAL_EPSILON * l))
            return 0;
    }
    return 1;
}

/* Whether a warm start may take chain i's joints as they are (fabrik_batch.h: every bone to 64 ε
 * of itself; one more for the measure's own rounding). Its bones may then stay that far off. */
static int taken_as_settled(const arrays *a, int i, const reach_fabrik_batch_settings *o) {
    return !o->cold_start && bones_within(a, i, 65);
}

/* A good chain's answer: see the invariants at the top. */
static void check_good_chain(const arrays *in, const arrays *out, int i, const reach_fabrik_batch_settings *o) {
    int n = in->bones;
    reach_vec3 root = point(in, ROOT, i), target = point(in, TARGET, i);
    double chain = 0, coords = fmax((double)reach_vec3_max_abs(root), (double)reach_vec3_max_abs(target));
    for (int b = 0; b < n; ++b)
        chain += (double)bone(in, b, i);
    for (int j = 0; j <= n; ++j) {
        reach_vec3 p = joint(out, j, i);
        if (!reach_vec3_is_finite(p)) dump_chain(in, out, i);
        FUZZ_REQUIRE(reach_vec3_is_finite(p));
        coords = fmax(coords, (double)reach_vec3_max_abs(p));
    }
    reach_vec3 first = joint(out, 0, i);
    FUZZ_REQUIRE(first.x == root.x && first.y == root.y && first.z == root.z);
    double slack = LENGTH_EPS * (double)REACH_REAL_EPSILON * (chain + coords);
    int settled = taken_as_settled(in, i, o);
    for (int b = 0; b < n; ++b) {
        double length = distance(joint(out, b + 1, i), joint(out, b, i)), l = (double)bone(in, b, i);
        /* A bone of a warm pose taken as settled may keep its error (a pass keeps a bone's vector
         * where its aim lies on its joint). */
        double allowed = slack + (settled ? 65 * (double)REACH_REAL_EPSILON * l : 0);
        if (!(fabs(length - l) <= allowed))
            fprintf(stderr, "chain %d bone %d of %d: length %.9g, should be %.9g (chain %.9g, coordinates %.9g)\n", i,
                    b, n, length, l, chain, coords);
        FUZZ_REQUIRE(fabs(length - l) <= allowed);
    }
    reach_real residual = reals(out, RESIDUAL)[i];
    double true_residual = distance(joint(out, n, i), target);
    if (!(fabs((double)residual - true_residual) <= 4 * (double)REACH_REAL_EPSILON * true_residual + 2 * TINY))
        fprintf(stderr, "chain %d: residual %.9g, the end is %.9g from the target\n", i, (double)residual,
                true_residual);
    FUZZ_REQUIRE(fabs((double)residual - true_residual) <= 4 * (double)REACH_REAL_EPSILON * true_residual + 2 * TINY);
    unsigned char reached = ((unsigned char *)out->buffer[REACHED])[i];
    FUZZ_REQUIRE(reached == (residual <= tolerance_of(in, i, o)));
    int iterations = ((int *)out->buffer[ITERATIONS])[i];
    FUZZ_REQUIRE(iterations >= 0 && iterations <= o->max_iterations);
    /* Clearly out of reach and solved: straight toward the target, each joint its run along. */
    double gap = distance(target, root);
    if (gap >= chain * (1 + 1e-3) && iterations > 0) {
        double run = 0;
        for (int j = 1; j <= n; ++j) {
            run += (double)bone(in, j - 1, i);
            reach_vec3 p = joint(out, j, i);
            double to_joint = distance(p, root), to_target = distance(target, p);
            /* On the segment's line beyond the joint: |root p| + |p target| = |root target|. */
            if (!(fabs(to_joint - run) <= 2 * slack && fabs(to_joint + to_target - gap) <= 4 * slack))
                fprintf(stderr, "chain %d joint %d: %.9g from the root (run %.9g), %.9g from the target (gap %.9g)\n",
                        i, j, to_joint, run, to_target, gap);
            FUZZ_REQUIRE(fabs(to_joint - run) <= 2 * slack && fabs(to_joint + to_target - gap) <= 4 * slack);
        }
    }
}

/* Whether the single-chain solver reaches chain i's target from the straight chain along +y, as
 * a skeleton of ball joints with the default settings, clear of the tolerance by a rounding
 * margin: the two solvers round differently (a target a few ε of the chain inside the tolerance
 * may be reached by one and missed by the other). */
static int single_chain_reaches(const arrays *a, int i, const reach_fabrik_batch_settings *o) {
    int n = a->bones, parents[MAX_BONES + 1];
    reach_transform rest[MAX_BONES + 1], pose[MAX_BONES + 1];
    for (int k = 0; k <= n; ++k) {
        parents[k] = k - 1;
        rest[k] = reach_transform_identity();
        rest[k].translation = k == 0 ? point(a, ROOT, i) : reach_vec3_make(0, bone(a, k - 1, i), 0);
        pose[k] = rest[k];
    }
    reach_skeleton skeleton = {n + 1, parents, rest, NULL};
    static unsigned char scratch[1 << 14];
    FUZZ_REQUIRE(reach_fabrik_scratch_size(&skeleton, 1) <= sizeof scratch);
    reach_target target = reach_target_position(n, point(a, TARGET, i));
    reach_solve_result result;
    if (reach_fabrik_solve(&skeleton, &target, 1, NULL, pose, scratch, sizeof scratch, &result) != REACH_OK) return 0;
    double chain = 0,
           coords = fmax((double)reach_vec3_max_abs(point(a, ROOT, i)), (double)reach_vec3_max_abs(target.position));
    for (int b = 0; b < n; ++b)
        chain += (double)bone(a, b, i);
    double margin = LENGTH_EPS * (double)REACH_REAL_EPSILON * (chain + coords + chain);
    return result.reached && (double)result.residual <= (double)tolerance_of(a, i, o) - margin;
}

/* The header's promise against the single-chain solver holds for cold starts along +y with the
 * default tolerance and at least the default cap. */
static int compares_with_single_chain(const reach_fabrik_batch_settings *o) {
    reach_fabrik_batch_settings defaults = reach_fabrik_batch_default_settings();
    return o->cold_start && o->cold_direction.x == 0 && o->cold_direction.z == 0 && o->cold_direction.y > 0 &&
           o->tolerance == 0 && o->max_iterations >= defaults.max_iterations;
}

/* Clearly settled: every bone to 32 ε, where the kernel's settled test allows 64 ε and its own
 * rounding of the length is a few ε. */
static int clearly_settled(const arrays *a, int i) { return bones_within(a, i, 32); }

/* ---- the whole batch ------------------------------------------------------------------------ */

/* Kernels this machine runs: an empty batch on it is solved, else refused. */
static int kernel_runs(const char *name) {
    reach_fabrik_batch empty;
    memset(&empty, 0, sizeof empty);
    empty.bone_count = 1;
    return reach_fabrik_solve_batch_isa(&empty, NULL, name) == REACH_OK;
}

/* Ways to break a whole batch (the first is none). */
enum {
    BREAK_NONE,
    BREAK_NULL_BATCH,
    BREAK_NEGATIVE_COUNT,
    BREAK_NO_BONES,
    BREAK_STRIDE_BELOW_COUNT,
    BREAK_NULL_LENGTHS,
    BREAK_NULL_POINT,
    BREAK_UNKNOWN_ISA,
    BREAK_NULL_ISA,
    BREAK_KINDS
};

static reach_status solve_broken(arrays *a, int stride_field, const reach_fabrik_batch_settings *o, int how,
                                 uint8_t which) {
    reach_fabrik_batch b = batch_of(a, stride_field, 1);
    switch (how) {
    case BREAK_NULL_BATCH: return reach_fabrik_solve_batch(NULL, o);
    case BREAK_NEGATIVE_COUNT: b.count = -1 - which; break;
    case BREAK_NO_BONES: b.bone_count = -(int)(which % 3); break;
    case BREAK_STRIDE_BELOW_COUNT: /* 0 means the count: below it is 1 … count − 1, or negative */
        b.stride = b.count > 1 && (which & 128) ? 1 + which % (b.count - 1) : -1 - which % 4;
        break;
    case BREAK_NULL_LENGTHS: b.lengths = NULL; break;
    case BREAK_NULL_POINT: {
        const reach_real **points[] = {&b.root.x, &b.root.y, &b.root.z, &b.target.x, &b.target.y, &b.target.z};
        if (which % 9 < 6)
            *points[which % 9] = NULL;
        else if (which % 9 == 6)
            b.joints.x = NULL;
        else if (which % 9 == 7)
            b.joints.y = NULL;
        else
            b.joints.z = NULL;
        break;
    }
    case BREAK_UNKNOWN_ISA: return reach_fabrik_solve_batch_isa(&b, o, "sse3");
    case BREAK_NULL_ISA: return reach_fabrik_solve_batch_isa(&b, o, NULL);
    default: break;
    }
    return reach_fabrik_solve_batch(&b, o);
}

/* The whole-batch errors the options have: BAD_FINITE for NaN or infinity, BAD_ZERO standing
 * for the others (INVALID_ARGUMENT). */
static int option_errors(const reach_fabrik_batch_settings *o) {
    int errors = 0;
    if (o->max_iterations < 0) errors |= BAD_ZERO;
    if (!reach_is_finite(o->tolerance))
        errors |= BAD_FINITE;
    else if (o->tolerance < 0)
        errors |= BAD_ZERO;
    /* NaN or infinity anywhere in the options; a zero direction only on a cold start (a warm
     * one falls back to +y). */
    if (!reach_vec3_is_finite(o->cold_direction))
        errors |= BAD_FINITE;
    else if (o->cold_start && !(reach_vec3_max_abs(o->cold_direction) > 0))
        errors |= BAD_ZERO;
    return errors;
}

static reach_fabrik_batch_settings fuzz_options(fuzz_input *in) {
    uint8_t flags = fuzz_byte(in);
    reach_fabrik_batch_settings o = reach_fabrik_batch_default_settings();
    int raw = (flags & 7) == 7;
    o.cold_start = (flags >> 3) & 1;
    if (flags & 16) {
        int cap = fuzz_int(in);
        /* Huge caps only cost time: a lane that neither reaches nor stalls runs to the cap. */
        o.max_iterations = raw ? (cap > 4096 ? cap % 4096 : cap) : (int)((unsigned)cap % 70);
    }
    if (flags & 32) o.tolerance = raw ? fuzz_real(in) : reach_fabs(fuzz_finite(in));
    if (flags & 64) o.cold_direction = raw ? fuzz_vec3(in) : fuzz_finite_vec3(in);
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int runs[COUNT_OF(kernels)], probed;
    if (!probed) {
        for (int k = 0; k < COUNT_OF(kernels); ++k)
            runs[k] = kernel_runs(kernels[k]);
        FUZZ_REQUIRE(runs[COUNT_OF(kernels) - 1]); /* the scalar kernel is always there */
        probed = 1;
    }
    fuzz_input in = {data, size};
    int count = fuzz_byte(&in) % (MAX_CHAINS + 1);
    int bones = 1 + fuzz_byte(&in) % MAX_BONES;
    int extra = fuzz_byte(&in) % 8;
    uint8_t broken = fuzz_byte(&in), which = fuzz_byte(&in), split_byte = fuzz_byte(&in);
    int stride = count + (extra > 0 ? extra - 1 : 0), stride_field = extra > 0 ? stride : 0;
    int use_defaults = (broken & 16) != 0;
    int breaking = (broken & 15) < BREAK_KINDS ? broken & 15 : BREAK_NONE;

    arrays input;
    arrays_make(&input, count, bones, stride);
    /* Outputs and the stride's padding start as garbage; NaN in the padding would make any
     * chain that read it bad. */
    for (int k = 0; k < BUFFERS; ++k)
        memset(input.buffer[k], k < RESIDUAL ? 0xff : 0x5a, input.bytes[k]);
    for (int i = 0; i < count; ++i)
        fuzz_chain(&input, i, &in);
    reach_fabrik_batch_settings options = fuzz_options(&in);
    const reach_fabrik_batch_settings *o = use_defaults ? NULL : &options;
    if (use_defaults) options = reach_fabrik_batch_default_settings();

    /* ---- whole-batch errors write nothing ---- */
    arrays solved;
    arrays_copy(&solved, &input);
    int batch_errors = option_errors(&options);
    int arrays_needed = breaking == BREAK_NULL_LENGTHS || breaking == BREAK_NULL_POINT;
    int shape_broken = breaking != BREAK_NONE && (!arrays_needed || count > 0);
    reach_status st = solve_broken(&solved, stride_field, o, breaking, which);
    if (shape_broken || batch_errors) {
        FUZZ_REQUIRE(arrays_same(&solved, &input, 0, BUFFERS));
        if (shape_broken || !(batch_errors & BAD_FINITE))
            FUZZ_REQUIRE(st == REACH_ERROR_INVALID_ARGUMENT ||
                         (shape_broken && (batch_errors & BAD_FINITE) && st == REACH_ERROR_NOT_FINITE));
        else if (!(batch_errors & BAD_ZERO))
            FUZZ_REQUIRE(st == REACH_ERROR_NOT_FINITE);
        else
            FUZZ_REQUIRE(st == REACH_ERROR_NOT_FINITE || st == REACH_ERROR_INVALID_ARGUMENT);
        arrays_free(&solved);
        arrays_free(&input);
        return 0;
    }
    if (breaking != BREAK_NONE) { /* a NULL array in an empty batch: nothing to do, nothing done */
        FUZZ_REQUIRE(arrays_same(&solved, &input, 0, BUFFERS));
        reach_fabrik_batch b = batch_of(&solved, stride_field, 1);
        st = reach_fabrik_solve_batch(&b, o);
    }

    /* FUZZ_VERBOSE=1 with a crashing input: the options it made, to read with the chain's dump. */
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "options%s: cap %d tolerance %.9g cold %d direction (%.9g %.9g %.9g), stride %d\n",
                o ? "" : " (defaults)", options.max_iterations, (double)options.tolerance, options.cold_start,
                (double)options.cold_direction.x, (double)options.cold_direction.y, (double)options.cold_direction.z,
                stride_field);
    /* ---- each chain ---- */
    const unsigned char *status = solved.buffer[STATUS];
    reach_status first = REACH_OK;
    for (int i = 0; i < count; ++i) {
        int errors = chain_errors(&input, i, options.cold_start);
        if (!status_fits(errors, status[i]))
            fprintf(stderr, "chain %d: status %d, its errors %d\n", i, (int)status[i], errors);
        FUZZ_REQUIRE(status_fits(errors, status[i]));
        if (status[i] != REACH_OK) {
            if (first == REACH_OK) first = (reach_status)status[i];
            FUZZ_REQUIRE(same_joints(&solved, &input, i));
            FUZZ_REQUIRE(reals(&solved, RESIDUAL)[i] == LARGEST);
            FUZZ_REQUIRE(((unsigned char *)solved.buffer[REACHED])[i] == 0);
            FUZZ_REQUIRE(((int *)solved.buffer[ITERATIONS])[i] == 0);
            continue;
        }
        check_good_chain(&input, &solved, i, &options);
        if (compares_with_single_chain(&options) && !((unsigned char *)solved.buffer[REACHED])[i] &&
            ((int *)solved.buffer[ITERATIONS])[i] < options.max_iterations &&
            single_chain_reaches(&input, i, &options)) {
            fprintf(stderr, "chain %d: the single-chain solver reaches its target, the batch gave up\n", i);
            dump_chain(&input, &solved, i);
            FUZZ_REQUIRE(0);
        }
    }
    FUZZ_REQUIRE(st == first);
    /* The padding between rows: never written. */
    for (int row = 0; row <= bones; ++row)
        for (int k = 0; k < 3 && stride > count; ++k) {
            size_t from = at(&input, row, count), bytes = (size_t)(stride - count) * sizeof(reach_real);
            FUZZ_REQUIRE(memcmp(reals(&solved, JOINTS + k) + from, reals(&input, JOINTS + k) + from, bytes) == 0);
        }

    /* ---- every kernel, bit for bit ---- */
    for (int k = 0; k < COUNT_OF(kernels); ++k) {
        arrays again;
        arrays_copy(&again, &input);
        reach_fabrik_batch b = batch_of(&again, stride_field, 1);
        reach_status kst = reach_fabrik_solve_batch_isa(&b, o, kernels[k]);
        if (runs[k]) {
            if (!arrays_same(&again, &solved, 0, BUFFERS)) fprintf(stderr, "kernel %s differs\n", kernels[k]);
            FUZZ_REQUIRE(kst == st && arrays_same(&again, &solved, 0, BUFFERS));
        } else {
            FUZZ_REQUIRE(kst == REACH_ERROR_INVALID_ARGUMENT && arrays_same(&again, &input, 0, BUFFERS));
        }
        arrays_free(&again);
    }

    /* ---- two slices, each on its own ---- */
    {
        arrays again;
        arrays_copy(&again, &input);
        reach_fabrik_batch whole = batch_of(&again, stride_field, 1);
        int split = count > 0 ? split_byte % (count + 1) : 0;
        reach_fabrik_batch head = reach_fabrik_batch_slice(&whole, 0, split);
        reach_fabrik_batch tail = reach_fabrik_batch_slice(&whole, split, count - split);
        reach_status head_st = reach_fabrik_solve_batch(&head, o), tail_st = reach_fabrik_solve_batch(&tail, o);
        FUZZ_REQUIRE((head_st != REACH_OK ? head_st : tail_st) == st);
        FUZZ_REQUIRE(arrays_same(&again, &solved, 0, BUFFERS));
        arrays_free(&again);
    }

    /* ---- without the optional outputs: the same joints ---- */
    {
        arrays again;
        arrays_copy(&again, &input);
        reach_fabrik_batch b = batch_of(&again, stride_field, 0);
        FUZZ_REQUIRE(reach_fabrik_solve_batch(&b, o) == st);
        FUZZ_REQUIRE(arrays_same(&again, &solved, 0, RESIDUAL) && arrays_same(&again, &input, RESIDUAL, BUFFERS));
        arrays_free(&again);
    }

    /* ---- a cold start reads no joints ---- */
    if (options.cold_start) {
        arrays again;
        arrays_copy(&again, &input);
        for (int k = JOINTS; k < JOINTS + 3; ++k)
            memset(again.buffer[k], 0x7f, again.bytes[k]);
        arrays garbage;
        arrays_copy(&garbage, &again);
        reach_fabrik_batch b = batch_of(&again, stride_field, 1);
        FUZZ_REQUIRE(reach_fabrik_solve_batch(&b, o) == st);
        FUZZ_REQUIRE(arrays_same(&again, &solved, RESIDUAL, BUFFERS));
        for (int i = 0; i < count; ++i)
            FUZZ_REQUIRE(same_joints(&again, status[i] == REACH_OK ? &solved : &garbage, i));
        arrays_free(&garbage);
        arrays_free(&again);
    }

    /* ---- solved again warm: what reached and keeps its lengths is left as it is ---- */
    {
        reach_fabrik_batch_settings warm = options;
        warm.cold_start = 0;
        arrays again;
        arrays_copy(&again, &solved);
        reach_fabrik_batch b = batch_of(&again, stride_field, 1);
        (void)reach_fabrik_solve_batch(&b, &warm);
        for (int i = 0; i < count; ++i) {
            if (status[i] != REACH_OK || !((unsigned char *)solved.buffer[REACHED])[i] || !clearly_settled(&solved, i))
                continue;
            /* Joints up to a chain's length past the root may lie beyond the coordinate limit. */
            if (((unsigned char *)again.buffer[STATUS])[i] != REACH_OK) continue;
            FUZZ_REQUIRE(same_joints(&again, &solved, i));
            FUZZ_REQUIRE(((int *)again.buffer[ITERATIONS])[i] == 0);
            FUZZ_REQUIRE(memcmp(&reals(&again, RESIDUAL)[i], &reals(&solved, RESIDUAL)[i], sizeof(reach_real)) == 0);
        }
        arrays_free(&again);
    }

    arrays_free(&solved);
    arrays_free(&input);
    return 0;
}
