/* The tuning every iterative solver shares (the single-chain driver, the 2-D chain and the batch):
 * when a solve has reached, stalled or should bend off the line. Private; never installed. */
#ifndef REACH_SOLVE_CONSTANTS_H
#define REACH_SOLVE_CONSTANTS_H

#include "reach/vecmath.h"

/* Nothing closer than a few units in the last place of the coordinates can be promised: the
 * tolerance is at least this times the largest coordinate in play. */
#define REACH__TOLERANCE_FLOOR (16 * REACH_REAL_EPSILON)

/* An iteration that changes the (weighted) error by less than this fraction of the tolerance
 * (per unit of target weight) has stalled. */
#define REACH__STALL_RATIO REACH_R(1e-3)

/* The change in error below which an iteration has stalled: `floor`, or the rounding noise of
 * errors this large, whichever is more (an error of 10 in float wobbles by about 1e-6). */
static inline reach_real reach__stall_threshold(reach_real floor, reach_real before, reach_real after) {
    return reach_max(floor, 32 * REACH_REAL_EPSILON * reach_max(before, after));
}

/* A method that can wander without getting nearer (FABRIK under tight limits): when this many
 * iterations have not brought the error below this fraction of its best, the solve turns to
 * its polish (CCD sweeps for FABRIK). */
#define REACH__POLISH_PATIENCE 4
#define REACH__POLISH_PROGRESS REACH_R(0.99)

/* A chain lying exactly along the line to its target cannot leave that line: FABRIK only moves
 * joints along lines through them, and CCD's rotations about joints on the line leave a point
 * on it where it is. When a solve stalls short of a target it could reach, it bends the chain
 * this much in total, spread over its bones, at most this many times. */
#define REACH__KICK_TOTAL_ANGLE    REACH_R(1.5)
#define REACH__KICK_MAX_BONE_ANGLE REACH_R(0.3)
#define REACH__MAX_KICKS           2

#endif
