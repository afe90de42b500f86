/* cos(θ/2) and sin(θ/2) for a hinge's angle θ: the Jacobian solvers write every hinge's rotation
 * from its angle at every trial step, seven times a step on a robot arm, and the library's sine
 * and cosine were a tenth of such a solve. For |θ| ≤ π (|θ/2| ≤ π/2) they are polynomials in
 * (θ/2)², fitted on Chebyshev nodes (float: 1e-10 and 4e-9; double: 1e-18 and 1e-19); with the
 * evaluation's roundings, float results are within 1.2e-7 of libm's (every float angle checked:
 * two units in the last place) and double within 2.2e-16. Wider angles (a hinge whose range is
 * ±2π) take libm's. θ = 0 gives exactly (1, 0). */
#ifndef REACH_HALF_ANGLE_H
#define REACH_HALF_ANGLE_H

#include <stddef.h>

#include "reach/vecmath.h"

/* Coefficients of p and q below, highest power first, as pairs (q's padded with leading zeros):
 * one loop evaluates both, its two chains of waits side by side. */
#ifdef REACH_DOUBLE
static const double reach__half_angle_pq[][2] = {
    {2.7314447669863993e-15, -1.5218638369243575e-16}, {-7.6439702967985721e-13, 4.7778779252458455e-14},
    {1.6058977312464088e-10, -1.1470712272749466e-11}, {-2.5052107616996183e-8, 2.0876756602875464e-9},
    {2.7557319219163233e-6, -2.7557319221569562e-7},   {-1.9841269841254974e-4, 2.4801587301579852e-5},
    {8.3333333333333159e-3, -1.388888888888888e-3},    {-1.6666666666666667e-1, 4.1666666666666667e-2}};
#else
static const float reach__half_angle_pq[][2] = {{-2.40801904e-8f, 0},
                                                {2.75364636e-6f, -2.65460658e-7f},
                                                {-1.98410866e-4f, 2.47860824e-5f},
                                                {8.33333277e-3f, -1.38888126e-3f},
                                                {-1.66666667e-1f, 4.16666661e-2f}};
#endif

static inline void reach__half_angle_cos_sin(reach_real angle, reach_real *cosine, reach_real *sine) {
    reach_real x = REACH_R(0.5) * angle;
    if (!(reach_fabs(x) <= REACH_R(1.5707963))) {
        *cosine = reach_cos(x);
        *sine = reach_sin(x);
        return;
    }
    /* sin x = x + x·u·p(u) and cos x = (1 − u/2) + u²·q(u), u = x². 1 − u/2 is exact, so near a
     * quarter turn, where cos x is small, its error is u's rounding: small against one, as a
     * rotation needs, though not against cos x itself. */
    reach_real u = x * x, p = 0, q = 0;
    for (size_t i = 0; i < sizeof reach__half_angle_pq / sizeof reach__half_angle_pq[0]; ++i) {
        p = p * u + reach__half_angle_pq[i][0];
        q = q * u + reach__half_angle_pq[i][1];
    }
    *sine = x + x * (u * p);
    *cosine = (1 - REACH_R(0.5) * u) + (u * u) * q;
}

#endif
