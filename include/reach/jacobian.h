/** @file
 * reach — the Jacobian family of IK solvers: transpose, pseudoinverse, damped least squares and
 * selectively damped least squares, on any chain or tree of a skeleton.
 *
 * The unknowns are the degrees of freedom of the bones that move: every bone on the path from
 * the solve's root bone (settings.root_bone) down to each effector, the root included. An
 * effector bone's own joint counts too when it has an orientation target or is prismatic (its
 * rotation cannot move its own joint). Per moving bone, in bone order:
 *   ball, cone   3 columns: rotations about the world x, y and z axes through the bone's joint
 *   hinge        1 column: its angle (rad)
 *   prismatic    1 column: its offset (rig units)
 *   fixed        none
 *   mimic        none: a follower (skeleton.h) moves with its leader, whose column carries the
 *                follower's motion times the multiplier. The leader moves whenever a follower
 *                lies on a path, on the path or not, and its range is narrowed to the values that
 *                keep its followers inside theirs (where the ranges meet; else the followers are
 *                clamped). Every follower of a moving leader is rewritten with it.
 * Rows, per target in order: 3 for the effector's joint position and, with use_orientation, 3
 * for its world rotation (the rotation vector). A REACH_TARGET_MEET target's rows are those of
 * its effector minus those of its meet_bone.
 *
 * One iteration linearises the targets' errors e (target minus effector: positions, and the
 * rotation vector of target · effector⁻¹) and picks joint changes Δθ from the Jacobian J:
 *   REACH_JACOBIAN_TRANSPOSE      Δθ = α Jᵀe, with α = |Jᵀe|² / |JJᵀe|², the step that best
 *                                 reduces the linearised error along Jᵀe
 *   REACH_JACOBIAN_PSEUDOINVERSE  Δθ = J⁺e through an SVD; singular values below a relative
 *                                 cutoff count as zero
 *   REACH_JACOBIAN_DLS            Δθ = Jᵀ(JJᵀ + λ²I)⁻¹e (by Cholesky, L D Lᵀ, no SVD);
 *                                 settings.damping > 0 fixes λ (rig
 *                                 units), 0 adapts it: λ² = min(|e|²/4, 0.01) plus a small
 *                                 floor (Levenberg–Marquardt style, |e| normalised as below):
 *                                 damped far away, tiny near a solution so that the last
 *                                 steps are Gauss–Newton steps
 *   REACH_JACOBIAN_SDLS           Buss and Kim's selectively damped least squares: each
 *                                 singular direction's step is clamped by how far it would move
 *                                 the effectors per unit of error it removes
 * The solver works on normalised quantities: lengths are divided by the moving chain's length
 * L (the sum of the moving bones' rest translations and prismatic ranges), so position rows,
 * rotation rows, hinge angles and prismatic offsets / L are all of order one. Rows are scaled by
 * the target's weight over the heaviest target's, so only the ratios of the weights count (a lone
 * target solves alike at any weight).
 *
 * Every step is bounded: no joint moves more than REACH_JACOBIAN_MAX_STEP radians (prismatic
 * joints: that times L) in one iteration, whatever the conditioning of J, so singular poses give
 * bounded steps and never NaN. A step is taken only if it lowers the weighted error; otherwise it
 * is halved, up to REACH_JACOBIAN_LINE_SEARCH times, and an attempt that cannot improve has
 * stalled.
 *
 * Joint limits: a joint that a step would carry past a limit moves only up to it, the blocked
 * direction leaves J (a hinge's or prismatic joint's column; a cone's widening turn; a twist
 * range's turn about the bone), and the step is solved again for what is left of the error, so
 * the other joints take up the motion. When that step moved a joint up to a limit and lowers
 * the error at no length (the fixed motions can push the end away faster than the free joints
 * bring it back), it is solved again with only the joints locked that sit on a limit it pushes
 * against. Every step is then clamped into the limits (hinge and
 * prismatic ranges; cone and twist limits through reach_joint_project_rotation). With
 * settings.null_space, where J has more columns than rows, the pseudoinverse, DLS and SDLS also
 * move the redundant degrees of freedom, in J's null space (to first order invisible to the
 * targets; with the adaptive DLS damping, nearly so, the difference fading with the error),
 * toward the rest pose; hinge and prismatic joints aim at their rest value kept a tenth
 * of their range inside the limits. That motion is capped at twice the current
 * (normalised) error, so it fades out as the solve converges, and a step with it that does not
 * lower the error is retried without it. The transpose method ignores null_space.
 *
 * Robustness: settings.max_iterations caps the iterations of the whole solve. With
 * settings.restarts > 0, an attempt that stalls (or stops improving by half over eight
 * iterations) is followed by a restart from random joint values inside the limits (random
 * rotations for ball and cone joints, projected onto their limits), drawn from settings.seed, so
 * the same inputs always give the same result. The best attempt is returned. A chain lying
 * straight on the line to a target within its reach, where no step lowers the error, is bent off
 * that line (at most twice a solve) and goes on, as in FABRIK and CCD.
 *
 * The solve is warm started from the pose. Hinge bones are read as the angle about their axis
 * (any swing off the axis is dropped) mapped into their limits, and written back as
 * rest · rotation(axis, angle); prismatic bones likewise along their axis. Bones that do not move
 * are left exactly as they were, and so is the whole pose when it already reaches inside its
 * limits (0 iterations). */
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
