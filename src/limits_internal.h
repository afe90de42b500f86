/* Private to the joint-limit code and the solvers that use it. Never installed. */
#ifndef REACH_LIMITS_INTERNAL_H
#define REACH_LIMITS_INTERNAL_H

#include "internal.h"
#include "reach/limits.h"

/* reach_angle_clamp that also says whether the angle had to move (*clamped nonzero). A
 * non-finite angle counts as clamped and comes back as lo. */
reach_real reach__angle_clamp(reach_real angle, reach_real lo, reach_real hi, int *clamped);

#endif
