/** @file
 * reach — FABRIK: forward and backward reaching inverse kinematics, on a skeleton's chains and
 * trees (several effectors, closed loops through REACH_TARGET_MEET) with joint limits, in 2-D on
 * plain arrays of points (the way back from solved positions to rotations on a tree,
 * reach_tree_apply_positions, is in skeleton.h).
 *
 * Contract (solver.h has the shape every iterative solver shares):
 *   - the solved pose keeps every bone length and satisfies every joint limit: the forward pass
 *     builds every position by forward kinematics from rotations its joints allow, so the
 *     residual reported is the true one;
 *   - prismatic joints keep their offsets (FABRIK turns bones; CCD and the Jacobian slide them);
 *   - a target out of reach ends with the chain aimed straight at it as nearly as the limits
 *     allow, or with settings.fabrik_move_root, with the root moved toward it;
 *   - a result short of its targets has `limited` set when a joint sits at an end of its range
 *     or, for a target the bones could span, when restricting joints (hinges, cones, fixed)
 *     hold the chain in a nearest pose that is not the target.
 * How the passes work, and what reach adds to them (the arc start, the closing step, the
 * bridge from the root, the CCD polish, restarts from the middle of the ranges), with measured
 * rates: docs/solvers.md. */
#ifndef REACH_FABRIK_H
#define REACH_FABRIK_H

#include "solver.h"

REACH_EXTERN_C_BEGIN

/* ---- 3-D, on a skeleton ----------------------------------------------------------------- */

/** Bytes of scratch reach_fabrik_solve needs for this skeleton and target count; any alignment.
 * 0 for a NULL skeleton or a negative count. */
REACH_API size_t reach_fabrik_scratch_size(const reach_skeleton *skeleton, int target_count);

/** Solves the targets by moving the bones from settings.root_bone (or the top of the effectors'
 * hierarchy) down to every target's bone; nothing else in the pose changes.
 *   targets   REACH_TARGET_POSITION (an orientation is honoured through the effector's joint
 *             limit: the effector takes that world rotation, clamped by its joint) and
 *             REACH_TARGET_MEET; weights decide between targets that conflict
 *   settings  NULL for the defaults. Used: max_iterations, tolerance (0: 1e-4 × the total length
 *             of the moving bones), angle_tolerance, root_bone, fabrik_move_root
 *   pose      local transforms, read as the starting pose and written on success
 *   result    iterations run (0 when the starting pose is already within tolerance), the
 *             largest distance left over the targets, the largest angle left over orientation
 *             targets, whether all were reached, and whether a joint's range was clamped in the
 *             final pass. May be NULL.
 * Out of reach: the chain ends pointing straight at the target (or as near as its limits allow).
 * With settings.fabrik_move_root, when the solve stops short the root bone's local translation
 * moves by the weighted mean of what the effectors still lack, and solving resumes.
 * Joints: ball, hinge and cone turn; prismatic joints keep their current offset and fixed joints
 * their rest rotation (use the Jacobian solvers to slide prismatic joints).
 * Errors, with the pose untouched: NULL pointers or a negative count or iteration cap
 * (REACH_ERROR_INVALID_ARGUMENT), a skeleton reach_skeleton_validate rejects, NaN or infinity
 * anywhere (REACH_ERROR_NOT_FINITE), zero quaternions (REACH_ERROR_BAD_QUATERNION), a target bone
 * out of range, a zero or negative weight, a meeting target whose two bones are the same
 * (REACH_ERROR_INVALID_ARGUMENT), an effector not below the root (REACH_ERROR_BAD_CHAIN),
 * coordinates beyond about 1e18 (float) or 1e150 (double) (REACH_ERROR_OUT_OF_RANGE), and too
 * little scratch (REACH_ERROR_BUFFER_TOO_SMALL). */
REACH_API reach_status reach_fabrik_solve(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                          const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                                          size_t scratch_size, reach_solve_result *result);

/* ---- 2-D, on points --------------------------------------------------------------------- */

/** A planar chain of bone_count bones through bone_count + 1 joints. Angles are radians,
 * counter-clockwise positive. */
typedef struct reach_fabrik_2d_chain {
    int bone_count;            /**< >= 1 */
    reach_vec2 *joints;        /**< bone_count + 1 points, root first: the starting pose, overwritten
                                   with the solution. joints[0] stays put unless the root may move */
    const reach_real *lengths; /**< bone_count lengths > 0 (bone i joins joints i and i + 1) */
    /** Angle limits, NULL for none: bone i's direction may turn from bone i-1's direction (for
     * bone 0, from base_direction) by an angle in [min_angle[i], max_angle[i]] within [-π, π]. */
    const reach_real *min_angle;
    const reach_real *max_angle;
    reach_vec2 base_direction; /**< what bone 0's limits are measured from; non-zero when limited */
} reach_fabrik_2d_chain;

/** Pulls the last joint to target. settings: NULL for the defaults; used are max_iterations,
 * tolerance (0: 1e-4 × chain length) and fabrik_move_root (the root slides toward an
 * unreachable target until the end touches it). The output keeps every length and limit;
 * result (may be NULL) as for reach_fabrik_solve. Errors leave joints untouched: NaN or infinity
 * (REACH_ERROR_NOT_FINITE), a length that is not positive (REACH_ERROR_ZERO_LENGTH), NULL joints
 * or lengths, only one of the limit arrays, limits with min > max or outside [-π, π], or a zero
 * base_direction when limited (REACH_ERROR_INVALID_ARGUMENT), coordinates beyond about 1e18
 * (float) or 1e150 (double) (REACH_ERROR_OUT_OF_RANGE). The joints need not start at the
 * lengths apart: a forward pass puts them there before the first iteration. Like the 3-D
 * solver, each forward pass places the first bone so that the next one can close onto where the
 * backward pass left the rest of the chain (the analytic two-bone step), an unlimited chain
 * whose passes crawl takes the bridge from the root, and a solve that stalls or wanders goes on
 * with CCD sweeps (see reach_fabrik_solve). */
REACH_API reach_status reach_fabrik_solve_2d(const reach_fabrik_2d_chain *chain, reach_vec2 target,
                                             const reach_solver_settings *settings, reach_solve_result *result);

REACH_EXTERN_C_END

#endif
