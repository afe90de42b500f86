/* The limits of the rig two-bone solve's short path (solve_rig_ordinary in two_bone_rig.c),
 * which the batch's vector kernels (two_bone_rig_batch_kernel.h) must decline alike: one copy, so
 * that the two cannot drift apart. */
#ifndef REACH_TWO_BONE_RIG_ORDINARY_H
#define REACH_TWO_BONE_RIG_ORDINARY_H

#include "internal.h"

/* Squares taken by plain square roots and reciprocals: rotations' squares (unit or nearly unit in
 * rigs) and the world lengths, far from the ends of the range (NaN and infinity fail). Outside,
 * the robust routes. */
#define RIG_MIN_PLAIN_SQUARE REACH_R(0x1p-100)
#define RIG_MAX_PLAIN_SQUARE REACH_R(0x1p+100)

/* The parent's determinants the short path takes: far enough from the ends of the range that
 * the adjugate's products and its reciprocal neither overflow nor lose bits to underflow, and
 * any NaN or infinity in the parent's map fails the test. */
#define RIG_MIN_DETERMINANT REACH_R(0x1p-40)
#define RIG_MAX_DETERMINANT REACH_R(0x1p+40)

/* Squared lengths (bones, the target's and the pole's distances from the root, in the parent's
 * units) the short path takes: plain squares and their reciprocals stay far inside the range
 * (NaN and infinity fail). */
#define RIG_MIN_SQUARE REACH_R(0x1p-40)
#define RIG_MAX_SQUARE REACH_R(0x1p+40)

/* A side of the target line counts as clear when it is at least a tenth of its vector's length
 * off the line (reach_two_bone_solve's short path asks the same). */
#define RIG_CLEAR_SIDE_SQUARE_RATIO REACH_R(0.01)

/* A limb must span at least this many units in the last place of its coordinates (as
 * reach_two_bone_solve asks), with one more for the roundings of the test itself. */
#define RIG_RESOLUTION_ULPS 65

/* An arc's c = l² + from·to (from and to of length l) below this times l²: the two are nearly
 * opposite, and the axis from × s is off by eps·l/|s| of its length from the rounding of the sum
 * s, so the short construction's inverse turn (which takes |from × s|² + c² = 2l²c for granted)
 * would not be the turn the normalised quaternion makes. The per-call solve takes such arcs by
 * arc_near_half_turn; the vector kernels hand the limb to it. */
#define RIG_NEAR_HALF_TURN_RATIO REACH_R(0x1p-11)

#endif
