/* atan2(y, x) for finite y, x >= 0, not both zero: the angle of an orientation error, which the
 * Jacobian solvers read at every trial step, and of a hinge read from its rotation; libm's atan2
 * was a twentieth of a robot arm's solve. The ratio of the smaller to the larger is brought
 * within tan(π/8) (atan t = π/4 + atan((t − 1)/(t + 1)) above it), where atan t = t + t·u·p(u),
 * u = t², and p is fitted on Chebyshev nodes (its own error: float 2.4e-9, double 4.7e-18,
 * relative to t). With the evaluation's roundings the angle is within two and a quarter units in
 * the last place of the exact one, with no bias either side (measured: float 1.9 over every
 * seventh float ratio, 2.2 over tests/test_math.c's pairs, libm's atan2f 1.1; double 1.5 over 5e7
 * random ratios, 2.2 over the test's, libm's 0.5). */
#ifndef REACH_QUADRANT_ATAN_H
#define REACH_QUADRANT_ATAN_H

#include <stddef.h>

#include "reach/vecmath.h"

/* p's coefficients, highest power first. */
#ifdef REACH_DOUBLE
static const double reach__quadrant_atan_p[] = {-0.01917688711906226, 0.03923165829558719,  -0.0508544973794026,
                                                0.0585814891280221,   -0.06664511447381948, 0.07692183190826087,
                                                -0.09090904578123903, 0.11111111015256361,  -0.14285714284666542,
                                                0.1999999999999552,   -0.3333333333333333};
#else
static const float reach__quadrant_atan_p[] = {-0.06451928208121749f, 0.10743731490791084f, -0.1426395559798464f,
                                               0.19999540483648964f, -0.3333333176116852f};
#endif

#define REACH__TAN_PI_8 REACH_R(0.41421356237309504880)

/* π/4 less its rounding to reach_real. */
#ifdef REACH_DOUBLE
#define REACH__PI_4_LOW 3.061616997868383e-17
#else
#define REACH__PI_4_LOW (-2.1855695e-8f)
#endif

static inline reach_real reach__quadrant_atan2(reach_real y, reach_real x) {
    /* Above the diagonal, the angle is π/2 less that of (x, y). */
    int steep = y > x;
    reach_real small = steep ? x : y, large = steep ? y : x;
    reach_real t = small / large, base = 0, base_low = 0;
    if (t > REACH__TAN_PI_8) {
        /* From the ratio, not from small − large and small + large: that sum overflows for
         * pairs near the end of the range. */
        t = (t - 1) / (t + 1);
        /* π/4 in two parts: its rounding alone was an ulp of the angle. */
        base = REACH_PI / 4;
        base_low = REACH__PI_4_LOW;
    }
    reach_real u = t * t, p = 0;
    for (size_t i = 0; i < sizeof reach__quadrant_atan_p / sizeof reach__quadrant_atan_p[0]; ++i)
        p = p * u + reach__quadrant_atan_p[i];
    reach_real low = t * (u * p) + base_low;
    if (!steep) return base + (t + low);
    /* π/2 − angle, π/2 in two parts too (π/2 − base is exact): taking the rounded π/2 biased
     * every angle above the diagonal by a quarter of an ulp or more. */
    return (REACH_PI / 2 - base) + ((2 * REACH__PI_4_LOW - low) - t);
}

/* reach_quat_twist_angle (vecmath.h) with the angle from reach__quadrant_atan2: in (-π, π], the
 * same turn as libm's gives within a few roundings. */
static inline reach_real reach__twist_angle(reach_quat q, reach_vec3 axis) {
    reach_real p = q.x * axis.x + q.y * axis.y + q.z * axis.z, w = q.w;
    /* −q is the same rotation: with w ≥ 0 the half angle lies within [−π/2, π/2]. */
    if (w < 0) {
        p = -p;
        w = -w;
    }
    if (p == 0) return 0;
    reach_real angle = 2 * reach__quadrant_atan2(reach_fabs(p), w);
    if (p > 0) return angle;
    return angle >= REACH_PI ? REACH_PI : -angle;
}

#endif
