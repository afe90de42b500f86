/** @file
 * reach — the Jacobian family of IK solvers: transpose, pseudoinverse, damped least squares and
 * selectively damped least squares, on any chain or tree of a skeleton.
 *
 * Contract (solver.h has the shape every iterative solver shares):
 *   - the unknowns are the degrees of freedom of the bones on the paths from the solve's root
 *     bone to each effector (a ball or cone 3, a hinge or prismatic joint 1, fixed none); an
 *     effector's own joint counts when it has an orientation target or slides; a mimic
 *     follower (skeleton.h) has no column of its own: its leader's carries its motion times the
 *     multiplier, and every follower of a moving leader moves with it, inside its range;
 *   - every step is bounded (no joint moves more than REACH_JACOBIAN_MAX_STEP in an iteration)
 *     and taken only if it lowers the weighted error, so singular poses never give NaN;
 *   - every pose written lies inside every joint limit; a hinge whose range is a whole turn
 *     wraps and is no limit;
 *   - with settings.restarts, random restarts inside the limits drawn from settings.seed: the
 *     same inputs give the same bits; the best attempt is returned;
 *   - the solve is warm started from the pose; a pose that already reaches inside its limits
 *     is left exactly as it was (0 iterations).
 * The methods, the normalisation, limit locking, the null space toward the rest pose, the
 * pseudoinverse's fallback and measured reach rates: docs/jacobian.md. */
#ifndef REACH_JACOBIAN_H
#define REACH_JACOBIAN_H

#include "solver.h"

REACH_EXTERN_C_BEGIN

/** The largest change of any joint in one iteration, rad (prismatic: times the chain length):
 * π/4, the bound Buss and Kim use for SDLS. */
#define REACH_JACOBIAN_MAX_STEP REACH_R(0.78539816339744831)
/** How many times a step that does not lower the error is halved before the attempt stalls. */
#define REACH_JACOBIAN_LINE_SEARCH 6

/** Bytes of scratch memory reach_jacobian_solve and reach_jacobian_matrix need for this skeleton
 * and this many targets; 0 when the skeleton pointer is NULL or a count is negative. */
REACH_API size_t reach_jacobian_scratch_size(const reach_skeleton *skeleton, int target_count);

/** Solves for the targets from the pose (see solver.h for the common contract); settings NULL
 * for the defaults (reach_solver_default_settings), as for FABRIK and CCD. Validates
 * everything first: the skeleton, each target (bone in range and below the root bone, finite
 * position, non-zero orientation when used, weight > 0 and finite), the settings (max_iterations
 * >= 0, tolerances and damping >= 0 and finite, restarts >= 0, a known method, root_bone in
 * range) and the pose (finite, non-zero rotations). Errors: REACH_ERROR_INVALID_ARGUMENT,
 * REACH_ERROR_NOT_FINITE, REACH_ERROR_BAD_QUATERNION, REACH_ERROR_BAD_PARENT,
 * REACH_ERROR_BAD_JOINT, REACH_ERROR_BAD_CHAIN (an effector not below the root bone, or
 * effectors in different hierarchies), REACH_ERROR_OUT_OF_RANGE (coordinates whose differences
 * overflow), REACH_ERROR_BUFFER_TOO_SMALL. On any error the pose and *result are untouched.
 * result may be NULL. No targets: REACH_OK and nothing moves (solver.h). */
REACH_API reach_status reach_jacobian_solve(const reach_skeleton *skeleton, const reach_target *targets,
                                            int target_count, const reach_solver_settings *settings,
                                            reach_transform *pose, void *scratch, size_t scratch_size,
                                            reach_solve_result *result);

/** The shape of the Jacobian for these targets below root_bone (-1: the effectors' common root),
 * as described at the top of this header. Scratch as for reach_jacobian_solve. Errors, with *rows
 * and *columns untouched: those reach_jacobian_solve gives for the skeleton, targets, root_bone
 * and scratch, and NULL rows or columns or no targets, which make no Jacobian
 * (REACH_ERROR_INVALID_ARGUMENT). */
REACH_API reach_status reach_jacobian_dimensions(const reach_skeleton *skeleton, const reach_target *targets,
                                                 int target_count, int root_bone, int *rows, int *columns,
                                                 void *scratch, size_t scratch_size);

/** The Jacobian itself at a pose, in rig units and unweighted: matrix (rows × columns, row-major,
 * as reach_jacobian_dimensions reports) gets ∂(effector position)/∂θ (rig units per radian or per
 * rig unit) and ∂(effector rotation vector)/∂θ (radians per radian, or 0 for prismatic joints).
 * column_bones (optional, one per column) receives the bone each column moves. Scratch as for
 * reach_jacobian_solve. Errors, with matrix and column_bones untouched: those of
 * reach_jacobian_dimensions, a NULL pose or matrix (REACH_ERROR_INVALID_ARGUMENT), and NaN or
 * infinity (REACH_ERROR_NOT_FINITE) or a zero rotation (REACH_ERROR_BAD_QUATERNION) in the pose. */
REACH_API reach_status reach_jacobian_matrix(const reach_skeleton *skeleton, const reach_target *targets,
                                             int target_count, int root_bone, const reach_transform *pose,
                                             reach_real *matrix, int *column_bones, void *scratch, size_t scratch_size);

/** "transpose", "pseudoinverse", "dls" or "sdls"; "unknown" for any other value. */
REACH_API const char *reach_jacobian_method_name(reach_jacobian_method method);

REACH_EXTERN_C_END

#endif
