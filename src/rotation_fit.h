/* The best-fit rotation between weighted vector pairs, which FABRIK, CCD and the tree's
 * positions-to-rotations share. Private; never installed. */
#ifndef REACH_ROTATION_FIT_H
#define REACH_ROTATION_FIT_H

#include "reach/vecmath.h"

/* Accumulates weighted vector pairs for the rotation R that best takes every `from` to its
 * `to`: maximise Σ w · to·(R from) (Wahba's problem, solved with Horn's quaternion method). */
typedef struct reach__fit {
    double m[3][3]; /* Σ w · from · toᵀ */
    double scale;   /* Σ w |from| |to|, to size the tie-breaking pull toward the prior */
} reach__fit;

void reach__fit_reset(reach__fit *fit);
void reach__fit_add(reach__fit *fit, reach_vec3 from, reach_vec3 to, reach_real weight);
/* The best rotation; where the pairs leave it undetermined (one pair, parallel pairs) the one
 * nearest `prior`. */
reach_quat reach__fit_solve(const reach__fit *fit, reach_quat prior);

#endif
