/* Fuzzes FABRIK: the 3-D solver on fuzzed skeletons (the shared contract in fuzz_check.h), and
 * the 2-D solver on fuzzed point chains. 2-D invariants: an error leaves the joints untouched;
 * success gives finite joints the lengths apart (a forward pass always runs), the root in place unless it may move,
 * every bone's turn inside its angle limits, and the true residual. */
#include "fuzz_check.h"

#define MAX_2D_BONES 12

#ifdef REACH_DOUBLE
#define SMALLEST_NORMAL DBL_MIN
#else
#define SMALLEST_NORMAL FLT_MIN
#endif

/* How far a 2-D result may be off: a relative tolerance on lengths and angles, plus the
 * rounding of the joints' coordinates (which can dwarf the bones). */
#ifdef REACH_DOUBLE
#define REL_2D_TOL 1e-9
#else
#define REL_2D_TOL 1e-4
#endif

static double max_coordinate(const reach_vec2 *joints, int count) {
    double m = 0;
    for (int i = 0; i < count; ++i)
        m = fmax(m, fmax(fabs((double)joints[i].x), fabs((double)joints[i].y)));
    return m;
}

/* The angle from a to b, each scaled first so that neither huge nor subnormal bones overflow or
 * underflow in the products. */
static double turn_angle(double ax, double ay, double bx, double by) {
    double ma = fmax(fabs(ax), fabs(ay)), mb = fmax(fabs(bx), fabs(by));
    ax /= ma;
    ay /= ma;
    bx /= mb;
    by /= mb;
    return atan2(ax * by - ay * bx, ax * bx + ay * by);
}

/* How far an angle lies outside [lo, hi] going around the circle (-pi and pi are one angle). */
static double outside_range(double angle, double lo, double hi) {
    double best = INFINITY;
    for (int k = -1; k <= 1; ++k) {
        double a = angle + 2 * 3.14159265358979323846 * k;
        best = fmin(best, a < lo ? lo - a : (a > hi ? a - hi : 0));
    }
    return best;
}

static void check_2d(fuzz_input *in) {
    reach_vec2 joints[MAX_2D_BONES + 1], before[MAX_2D_BONES + 1];
    reach_real lengths[MAX_2D_BONES], lo[MAX_2D_BONES], hi[MAX_2D_BONES];
    uint8_t flags = fuzz_byte(in);
    int n = 1 + (int)fuzz_byte(in) % MAX_2D_BONES;
    int raw = (flags & 3) == 0;
    for (int i = 0; i <= n; ++i) {
        reach_real x = raw ? fuzz_real(in) : fuzz_finite(in), y = raw ? fuzz_real(in) : fuzz_finite(in);
        joints[i] = reach_vec2_make(x, y);
    }
    for (int i = 0; i < n; ++i) {
        lengths[i] = raw ? fuzz_real(in) : reach_fabs(fuzz_finite(in));
        reach_real a = fuzz_angle(in, -REACH_PI, REACH_PI), b = fuzz_angle(in, -REACH_PI, REACH_PI);
        lo[i] = raw ? fuzz_real(in) : reach_min(a, b);
        hi[i] = raw ? fuzz_real(in) : reach_max(a, b);
    }
    int use_limits = (flags >> 2) & 1;
    reach_fabrik_2d_chain chain = {n, joints, lengths, use_limits ? lo : NULL, use_limits ? hi : NULL, {0, 0}};
    reach_real base_x = fuzz_finite(in), base_y = fuzz_finite(in);
    chain.base_direction = reach_vec2_make(base_x, base_y);
    reach_real target_x = raw ? fuzz_real(in) : fuzz_finite(in), target_y = raw ? fuzz_real(in) : fuzz_finite(in);
    reach_vec2 target = reach_vec2_make(target_x, target_y);
    reach_solver_settings s = reach_solver_default_settings();
    s.max_iterations = (int)fuzz_byte(in) % 65 - (raw ? 2 : 0);
    s.tolerance = (flags & 8) ? (raw ? fuzz_real(in) : reach_fabs(fuzz_finite(in))) : 0;
    s.fabrik_move_root = (flags >> 4) & 1;

    memcpy(before, joints, sizeof joints);
    reach_solve_result result;
    reach_status st = reach_fabrik_solve_2d(&chain, target, &s, &result);
    if (st != REACH_OK) {
        FUZZ_REQUIRE(memcmp(before, joints, sizeof joints) == 0);
        return;
    }
    FUZZ_REQUIRE(result.iterations >= 0 && result.iterations <= s.max_iterations);
    FUZZ_REQUIRE(reach_is_finite(result.residual) && result.residual >= 0);
    double coordinates = fmax(max_coordinate(joints, n + 1), max_coordinate(before, n + 1));
    /* Below the smallest normal number, coordinates are spaced by eps times it. */
    double rounding = 16 * (double)REACH_REAL_EPSILON * fmax(coordinates, SMALLEST_NORMAL);
    double chain_length = 0;
    for (int i = 0; i < n; ++i)
        chain_length += (double)lengths[i];
    for (int i = 0; i <= n; ++i)
        FUZZ_REQUIRE(reach_vec2_is_finite(joints[i]));
    if (!s.fabrik_move_root) FUZZ_REQUIRE(memcmp(&joints[0], &before[0], sizeof joints[0]) == 0);
    /* Each turn is measured from the bone before; it is measurable only when both bones stand
     * well above the coordinates' rounding (a subnormal bone has no direction to measure). */
    double dx_prev = (double)chain.base_direction.x, dy_prev = (double)chain.base_direction.y;
    double prev_length = hypot(dx_prev, dy_prev);
    for (int i = 0; i < n; ++i) {
        double dx = (double)joints[i + 1].x - (double)joints[i].x, dy = (double)joints[i + 1].y - (double)joints[i].y;
        double length = hypot(dx, dy);
        if (!(fabs(length - (double)lengths[i]) <= REL_2D_TOL * chain_length + rounding))
            fprintf(stderr, "bone %d of %d: length %.17g, should be %.17g (chain %.17g, coordinates %g)\n", i, n,
                    length, (double)lengths[i], chain_length, coordinates);
        FUZZ_REQUIRE(fabs(length - (double)lengths[i]) <= REL_2D_TOL * chain_length + rounding);
        int measurable = length > 1e3 * rounding && length > 1e-3 * (double)lengths[i];
        if (use_limits && measurable && prev_length > 0) {
            double turn = turn_angle(dx_prev, dy_prev, dx, dy);
            double slack = REL_2D_TOL + 4 * rounding / length + 4 * rounding / prev_length;
            double outside = outside_range(turn, (double)lo[i], (double)hi[i]);
            if (!(outside <= slack))
                fprintf(stderr, "bone %d of %d: turn %.9g outside [%.9g, %.9g], lengths %g %g\n", i, n, turn,
                        (double)lo[i], (double)hi[i], length, prev_length);
            FUZZ_REQUIRE(outside <= slack);
        }
        dx_prev = dx;
        dy_prev = dy;
        prev_length = measurable ? length : 0;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    if (fuzz_byte(&in) & 1) {
        check_2d(&in);
        return 0;
    }
    fuzz_rig rig;
    fuzz_rig_make(&rig, &in);
    fuzz_solve_and_check(&rig, reach_fabrik_solve, reach_fabrik_scratch_size, 1, &in);
    return 0;
}
