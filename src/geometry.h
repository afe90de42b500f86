/* Geometry the solvers share: the triangle that closes two links onto a gap, and angles around
 * the circle. Private; never installed. */
#ifndef REACH_GEOMETRY_H
#define REACH_GEOMETRY_H

#include "reach/vecmath.h"

/* A gap this fraction beyond two links' length still lays them straight toward it: rounding,
 * or a linkage at a dead centre, puts a reachable gap just beyond their span. */
#define REACH__STRAIGHT_SLACK REACH_R(1e-3)

/* The apex of the triangle with sides la and lb on a base d long (d² = d2, passed as the caller
 * has it): *foot how far along the base from la's end, *height how far off it:
 * x = (d² + la² − lb²) / 2d, h = √(la² − x²). */
static inline void reach__triangle_apex(reach_real d2, reach_real d, reach_real la, reach_real lb, reach_real *foot,
                                        reach_real *height) {
    reach_real x = (d2 + la * la - lb * lb) / (2 * d);
    *foot = x;
    *height = reach_sqrt(reach_max(0, la * la - x * x));
}

/* The cosine of the angle between sides la and lb of a triangle whose third side is d (the law
 * of cosines, unclamped): (d² − la² − lb²) / (2 la lb). */
static inline reach_real reach__triangle_cosine(reach_real d, reach_real la, reach_real lb) {
    return (d * d - la * la - lb * lb) / (2 * la * lb);
}

/* The apex of the triangle the bridge from the root closes: sides `run` from the root and `last`
 * from the far joint, d apart (d > 0, |run − last| <= d <= run + last). *foot is how far along
 * the root→far line the apex lies from the root, *height how far off it. Computed from the
 * shorter side's end, so that a long straight run does not swamp the closing link's rounding.
 * The 3-D and 2-D bridges share it. */
static inline void reach__bridge_apex(reach_real d, reach_real run, reach_real last, reach_real *foot,
                                      reach_real *height) {
    reach_real near = reach_min(run, last), far = reach_max(run, last);
    reach_real x = reach_clamp((d * d + (near - far) * (near + far)) / (d + d), -near, near);
    *height = reach_sqrt(reach_max(0, (near - x) * (near + x)));
    *foot = run > last ? d - x : x; /* measured from far's end: from the root instead */
}

/* How far apart two angles `gap` apart lie around the circle, in [0, π]. */
static inline reach_real reach__circle_distance(reach_real gap) {
    gap -= 2 * REACH_PI * reach_floor(gap / (2 * REACH_PI));
    return reach_min(gap, 2 * REACH_PI - gap);
}

#endif
