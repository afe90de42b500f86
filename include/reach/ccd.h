/** @file
 * reach — CCD: cyclic coordinate descent.
 *
 * One iteration sweeps the moving bones from the tips toward the root. At each joint it turns
 * the bone (with everything below it) by the rotation that best brings the effectors below that
 * joint onto their targets, seen from the joint, clamped by the joint's limits right away; so
 * every iteration ends with a pose inside every limit. Sweeps repeat until the targets are within
 * tolerance, the iteration cap is reached, or nothing moves any more.
 *
 * At each joint:
 *   ball, cone  the smallest rotation taking the effector's direction to the target's (with one
 *               effector and no orientation), else the best-fit rotation over all effectors
 *               below; a cone then projects it onto what it allows (limits.h)
 *   hinge       the best angle about the hinge axis, clamped to the hinge's range
 *   prismatic   the best slide along the axis, clamped to its range
 *   fixed       nothing
 * Orientation targets: the effector's frame counts as three more points, 0.2 chain lengths out
 * along each of its axes, that should land on the same points of the target frame, so a joint
 * trades position against orientation error in the same units.
 * A meeting target (REACH_TARGET_MEET) pulls each of its two joints toward where the other one
 * is, so the two chains close on each other.
 * settings.ccd_max_step caps the rotation of one joint in one step (damping: smoother, slower);
 * a cone then projects the capped turn onto what it allows, which can move it a little more.
 * A lone position target on a chain whose root is a ball or cone gets one more step: the bone
 * below the root bends so that the root's own step lands the end on the target (the analytic
 * two-bone step), where plain CCD creeps up on targets near the edge of its reach. A hinge
 * below such a root turns about its axis to the angle its range allows that matches the
 * distance (a straight one-sided knee bends the way it can).
 * On a chain of free joints (ball joints, or cones that allow every swing and twist) with a lone
 * position target, an iteration whose target lies beyond the chain's length, or that follows
 * two that did not halve the error, is FABRIK's (fabrik.h: straight toward the target, or its
 * bridge from the root): sweeps alone never lay such a chain straight, and near the edge of its
 * reach they crawl. Not when the end joint slides, nor under ccd_max_step. On a chain of ball
 * and cone joints with a lone position target between 0.9 of its reach and the reach, FABRIK's
 * iterations take over after 16 sweeps that did not halve the error (or when the sweeps stall
 * with the target at the full reach), unless the solve has kicked the chain, each kept only when
 * it reaches or at least halves the error; the first that does neither is undone and sweeps go
 * on (docs/solvers.md).
 * A stalled solve bends a chain off the line to its target (a meeting pair off the line between
 * them), and one with hinges that stops short starts once more from the middle of every range,
 * keeping the nearer pose; `limited` as in fabrik.h. */
#ifndef REACH_CCD_H
#define REACH_CCD_H

#include "solver.h"

REACH_EXTERN_C_BEGIN

/** Bytes of scratch reach_ccd_solve needs; any alignment. 0 for a NULL skeleton or a negative
 * count. */
REACH_API size_t reach_ccd_scratch_size(const reach_skeleton *skeleton, int target_count);

/** Same contract as reach_fabrik_solve (fabrik.h): settings NULL for the defaults, and used are
 * max_iterations, tolerance (0: 1e-4 × the total length of the moving bones), angle_tolerance,
 * root_bone and ccd_max_step; result may be NULL; every error leaves the pose untouched. Unlike
 * FABRIK, CCD also slides prismatic joints. */
REACH_API reach_status reach_ccd_solve(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                       const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                                       size_t scratch_size, reach_solve_result *result);

REACH_EXTERN_C_END

#endif
