/** @file
 * reach — CCD: cyclic coordinate descent on a skeleton's chains and trees, with joint limits
 * applied at every step.
 *
 * Contract (solver.h has the shape every iterative solver shares):
 *   - each iteration sweeps the moving bones from the tips to the root, turning (or, for a
 *     prismatic joint, sliding) each by what best brings the effectors below it onto their
 *     targets, clamped by its joint at once: every iteration ends inside every limit;
 *   - orientation targets and meeting targets (REACH_TARGET_MEET) as in fabrik.h;
 *   - settings.ccd_max_step caps one joint's turn in one step (0: no cap);
 *   - `limited` as in fabrik.h.
 * The analytic closing step near the root, the hand-off to FABRIK's iterations near the edge
 * of the reach and out of it, and measured rates: docs/solvers.md. */
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
