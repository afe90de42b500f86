/* Fuzzes the batch two-bone solver: structure-of-arrays batches of ordinary limbs with bad
 * lanes mixed in (NaN, infinities, zero-length bones, coincident points, 1e±30, subnormals),
 * with and without poles, with fuzzed options, solved into separate outputs and in place.
 * Invariants:
 *   - bad options are an error that writes nothing;
 *   - each lane's status is what reach_two_bone_solve says for that limb alone, and the call
 *     returns the first bad lane's error;
 *   - a bad lane repeats its current mid and end bit for bit and is not reached, so an
 *     in-place batch leaves it untouched;
 *   - the scalar batch path equals reach_two_bone_solve bit for bit;
 *   - the vector path agrees with it within the tolerance the tests document (two_bone_batch.h), and
 *     solving in place gives the same bits as solving into separate outputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_rig.h"
#include "reach/testing.h"

#define MAX_LANES 40

/* root, mid, end, target, pole: x, y, z each. */
enum { POINTS = 5, INPUTS = 3 * POINTS };

typedef struct lanes {
    reach_real in[INPUTS][MAX_LANES];
    reach_real out[6][MAX_LANES]; /* mid, end: x, y, z each */
    reach_real residual[MAX_LANES];
    unsigned char reached[MAX_LANES], status[MAX_LANES];
} lanes;

static reach_two_bone_batch batch_of(lanes *l, int count, int poles, int in_place) {
    reach_two_bone_batch b;
    memset(&b, 0, sizeof b);
    b.count = count;
    reach_const_vec3_soa *points[POINTS] = {&b.root, &b.mid, &b.end, &b.target, &b.pole};
    for (int k = 0; k < (poles ? POINTS : POINTS - 1); ++k) {
        points[k]->x = l->in[3 * k];
        points[k]->y = l->in[3 * k + 1];
        points[k]->z = l->in[3 * k + 2];
    }
    reach_real *const *mid = in_place ? (reach_real *const[]){l->in[3], l->in[4], l->in[5]}
                                      : (reach_real *const[]){l->out[0], l->out[1], l->out[2]};
    reach_real *const *end = in_place ? (reach_real *const[]){l->in[6], l->in[7], l->in[8]}
                                      : (reach_real *const[]){l->out[3], l->out[4], l->out[5]};
    b.out_mid = (reach_vec3_soa){mid[0], mid[1], mid[2]};
    b.out_end = (reach_vec3_soa){end[0], end[1], end[2]};
    b.out_residual = l->residual;
    b.out_reached = l->reached;
    b.out_status = l->status;
    return b;
}

static reach_vec3 lane_point(const lanes *l, int point, int i) {
    return reach_vec3_make(l->in[3 * point][i], l->in[3 * point + 1][i], l->in[3 * point + 2][i]);
}

static reach_vec3 lane_out(const lanes *l, int which, int i) {
    return reach_vec3_make(l->out[3 * which][i], l->out[3 * which + 1][i], l->out[3 * which + 2][i]);
}

static reach_two_bone_input lane_input(const lanes *l, int i, int poles) {
    reach_two_bone_input in;
    in.root = lane_point(l, 0, i);
    in.mid = lane_point(l, 1, i);
    in.end = lane_point(l, 2, i);
    in.target = lane_point(l, 3, i);
    in.use_pole = poles;
    in.pole = poles ? lane_point(l, 4, i) : in.root;
    return in;
}

/* A limb from the byte grid (bones up to a few units near the origin), every number raw, or
 * an ordinary limb with one thing made bad or degenerate. */
static void fuzz_lane(lanes *l, int i, fuzz_input *in) {
    uint8_t how = fuzz_byte(in), where = fuzz_byte(in);
    int raw = (how & 7) == 7;
    for (int k = 0; k < INPUTS; ++k)
        l->in[k][i] = raw ? fuzz_real(in) : fuzz_finite(in);
    int point = where % POINTS, axis = (where >> 3) % 3;
    switch ((how >> 3) & 7) {
    case 1: l->in[3 * point + axis][i] = fuzz_real(in); break; /* one number anything */
    case 2:                                                    /* end on mid: a zero-length bone */
        for (int k = 0; k < 3; ++k)
            l->in[6 + k][i] = l->in[3 + k][i];
        break;
    case 3: /* the target on the root */
        for (int k = 0; k < 3; ++k)
            l->in[9 + k][i] = l->in[k][i];
        break;
    case 4: /* the pole on the root-target line */
        for (int k = 0; k < 3; ++k)
            l->in[12 + k][i] = 2 * l->in[9 + k][i] - l->in[k][i];
        break;
    case 5: /* far from the origin: bones near the coordinates' resolution */
        for (int k = 0; k < INPUTS; ++k)
            l->in[k][i] += REACH_R(1e30) * (reach_real)(where % 3);
        break;
    default: break;
    }
}

static double magnitude(reach_two_bone_input in) {
    reach_vec3 p[5] = {in.root, in.mid, in.end, in.target, in.pole};
    double m = 0;
    for (int k = 0; k < 5; ++k)
        m = fmax(m, fmax(fabs((double)p[k].x), fmax(fabs((double)p[k].y), fabs((double)p[k].z))));
    return m;
}

static double distance(reach_vec3 a, reach_vec3 b) {
    double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
    return fuzz_norm3(dx, dy, dz);
}

/* two_bone_batch.h: the vector path gives the scalar solver's answer within the test suite's tolerance,
 * 16 × TEST_REACH_TOL (1e-5 float, 1e-10 double) relative to the chain, the mid joint looser by
 * its conditioning near full extension (tests/test_two_bone_batch.c), plus here the rounding
 * of coordinates far larger than the limb. */
#ifdef REACH_DOUBLE
#define REACH_TOL 1e-10
#else
#define REACH_TOL 1e-5
#endif

static void check_against_scalar(const lanes *l, int count, int poles, const reach_two_bone_settings *opt,
                                 int bit_exact) {
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input in = lane_input(l, i, poles);
        reach_two_bone_output out;
        reach_status st = reach_two_bone_solve(&in, opt, &out);
        FUZZ_REQUIRE(l->status[i] == (unsigned char)st);
        reach_vec3 mid = lane_out(l, 0, i), end = lane_out(l, 1, i);
        if (st != REACH_OK) {
            FUZZ_REQUIRE(memcmp(&mid, &in.mid, sizeof mid) == 0 && memcmp(&end, &in.end, sizeof end) == 0);
            FUZZ_REQUIRE(l->reached[i] == 0);
            continue;
        }
        FUZZ_REQUIRE(reach_vec3_is_finite(mid) && reach_vec3_is_finite(end) && reach_is_finite(l->residual[i]));
        if (bit_exact) {
            FUZZ_REQUIRE(memcmp(&mid, &out.mid, sizeof mid) == 0 && memcmp(&end, &out.end, sizeof end) == 0);
            FUZZ_REQUIRE(memcmp(&l->residual[i], &out.residual, sizeof out.residual) == 0);
            FUZZ_REQUIRE(l->reached[i] == (unsigned char)out.reached);
            continue;
        }
        double chain = distance(in.mid, in.root) + distance(in.end, in.mid);
        /* Past about 1e150 (double) the distances here overflow: nothing to measure there. */
        if (!isfinite(chain) || !(chain > 0)) continue;
        double rounding = 64 * (double)REACH_REAL_EPSILON * magnitude(in);
        double tol = 16 * REACH_TOL * chain + rounding;
        reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(out.end, in.root), reach_vec3_make(1, 0, 0));
        double h = (double)reach_vec3_length_robust(reach_vec3_reject(reach_vec3_sub(out.mid, in.root), axis));
        double floor_h = sqrt((double)REACH_REAL_EPSILON) * chain;
        /* Both the height (eps·L²/h) and the foot (eps·L²/d, for a target distance d) of the
         * mid joint are ill-conditioned; two correct solvers differ by that much. */
        double d = distance(in.target, in.root);
        double eps = (double)REACH_REAL_EPSILON; /* chain / max(...) below: no overflow */
        double mid_tol =
            tol + 16 * eps * chain * (chain / fmax(h, floor_h)) + 16 * eps * chain * (chain / fmax(d, eps * chain));
        if (!(distance(mid, out.mid) <= mid_tol && distance(end, out.end) <= tol))
            fprintf(stderr, "lane %d: batch mid off by %g (tolerance %g), end by %g (tolerance %g)\n", i,
                    distance(mid, out.mid), mid_tol, distance(end, out.end), tol);
        FUZZ_REQUIRE(distance(mid, out.mid) <= mid_tol && distance(end, out.end) <= tol);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    static lanes l, copy;
    memset(&l, 0, sizeof l);
    uint8_t flags = fuzz_byte(&in);
    int count = (int)fuzz_byte(&in) % (MAX_LANES + 1);
    int poles = flags & 1;
    for (int i = 0; i < count; ++i)
        fuzz_lane(&l, i, &in);
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    if (flags & 2) opt.weight = (flags & 4) ? fuzz_real(&in) : (reach_real)fuzz_byte(&in) / 255;
    if (flags & 8) opt.soft_distance = (flags & 4) ? fuzz_real(&in) : reach_fabs(fuzz_finite(&in));
    if (flags & 16) opt.max_stretch = (flags & 4) ? fuzz_real(&in) : 1 + reach_fabs(fuzz_finite(&in));
    if (flags & 32) opt.tolerance = (flags & 4) ? fuzz_real(&in) : reach_fabs(fuzz_finite(&in));

    /* Outputs start as garbage: a rejected batch must not touch them. */
    memset(l.out, 0x5a, sizeof l.out);
    memset(l.residual, 0x5a, sizeof l.residual);
    memset(l.reached, 0x5a, sizeof l.reached);
    memset(l.status, 0x5a, sizeof l.status);
    copy = l;
    reach_two_bone_batch b = batch_of(&l, count, poles, 0);
    reach_status st = reach_two_bone_solve_batch(&b, &opt);
    reach_two_bone_output probe;
    reach_two_bone_input limb = {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {1, 1, 0}, {0, 0, 0}, 0};
    if (reach_two_bone_solve(&limb, &opt, &probe) != REACH_OK) {
        /* The options themselves are bad: every lane would fail the same way. */
        FUZZ_REQUIRE(st != REACH_OK && memcmp(&l, &copy, sizeof l) == 0);
        return 0;
    }
    reach_status first = REACH_OK;
    for (int i = 0; i < count && first == REACH_OK; ++i) {
        reach_two_bone_input limb_i = lane_input(&l, i, poles);
        first = reach_two_bone_solve(&limb_i, &opt, &probe);
    }
    FUZZ_REQUIRE(st == first);
    check_against_scalar(&l, count, poles, &opt, 0);

    /* The scalar path, bit for bit. */
    lanes scalar = copy;
    reach_two_bone_batch bs = batch_of(&scalar, count, poles, 0);
    FUZZ_REQUIRE(reach_two_bone_solve_batch_scalar(&bs, &opt) == first);
    check_against_scalar(&scalar, count, poles, &opt, 1);

    /* In place: the same bits as into separate outputs; bad lanes untouched. */
    lanes inplace = copy;
    reach_two_bone_batch bi = batch_of(&inplace, count, poles, 1);
    FUZZ_REQUIRE(reach_two_bone_solve_batch(&bi, &opt) == first);
    for (int k = 0; k < 6; ++k)
        FUZZ_REQUIRE(memcmp(inplace.in[3 + k], l.out[k], (size_t)count * sizeof(reach_real)) == 0);
    return 0;
}
