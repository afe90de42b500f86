/** @file
 * reach — what the iterative solvers (FABRIK, CCD, the Jacobian family) share: targets,
 * settings and the result.
 *
 * Every iterative solver has the same shape:
 *
 *     size_t need = reach_X_scratch_size(&skeleton, target_count);
 *     ... give it `need` bytes of memory you own (any alignment: the solvers align their pieces) ...
 *     reach_status st = reach_X_solve(&skeleton, targets, target_count, &settings,
 *                                     pose, scratch, need, &result);
 *
 * `pose` holds one local transform per bone: read as the starting pose (warm start) and, on
 * success, overwritten with the solved pose. On any error the pose is left exactly as it was.
 * With no targets (target_count 0, targets may then be NULL) there is nothing to reach: after
 * checking the skeleton (a bone at least), settings, pose and scratch, every solver returns
 * REACH_OK with the pose as it was, 0 iterations and reached set.
 * Solvers never allocate, keep no state between calls, and give the same bits for the same
 * inputs, so they are safe to call from many threads on different data. */
#ifndef REACH_SOLVER_H
#define REACH_SOLVER_H

#include <stddef.h>
#include <stdint.h>

#include "skeleton.h"

REACH_EXTERN_C_BEGIN

typedef enum reach_target_kind {
    /** Pull the effector bone's joint to `position` (and its frame to `orientation`). */
    REACH_TARGET_POSITION = 0,
    /** Closed loop: the effector bone's joint and the joint of `meet_bone` must coincide, both
     * chains moving (a hand on a held object, a four-bar linkage). */
    REACH_TARGET_MEET
} reach_target_kind;

typedef struct reach_target {
    reach_target_kind kind;
    int bone;               /**< the effector bone */
    reach_vec3 position;    /**< world; REACH_TARGET_POSITION */
    reach_quat orientation; /**< world rotation of the effector bone, when use_orientation */
    int use_orientation;
    int meet_bone;     /**< REACH_TARGET_MEET: the bone whose joint the effector must meet */
    reach_real weight; /**< relative importance when targets conflict; > 0. Default 1 */
} reach_target;

/** A position target with weight 1 and no orientation. */
REACH_API reach_target reach_target_position(int bone, reach_vec3 position);

/** A closed-loop target: bone's joint and other_bone's joint must meet. Weight 1. */
REACH_API reach_target reach_target_meet(int bone, int other_bone);

typedef enum reach_jacobian_method {
    REACH_JACOBIAN_TRANSPOSE = 0,
    REACH_JACOBIAN_PSEUDOINVERSE,
    REACH_JACOBIAN_DLS, /**< damped least squares */
    REACH_JACOBIAN_SDLS /**< selectively damped least squares (Buss and Kim) */
} reach_jacobian_method;

typedef struct reach_solver_settings {
    int max_iterations;         /**< iteration cap; default 64 */
    reach_real tolerance;       /**< position distance that counts as reached, rig units;
                                   0 means 1e-4 × the moving chain's length. Default 0 */
    reach_real angle_tolerance; /**< orientation error that counts as reached, rad; default 1e-4 */
    /** The first bone the solver may move; every effector must descend from it. -1: the root
     * of the effectors' common hierarchy. Default -1. */
    int root_bone;

    /** FABRIK: when a target is out of reach, move the chain's root toward it (a movable base) instead of stretching
     * the chain straight. Default 0. */
    int fabrik_move_root;

    /** CCD: the largest rotation a joint may make in one step, rad; 0: no cap. Default 0. */
    reach_real ccd_max_step;

    /** Jacobian family. */
    reach_jacobian_method jacobian_method; /**< default REACH_JACOBIAN_DLS (reaches most on robot arms) */
    reach_real damping;                    /**< DLS damping λ, rig units; 0: adaptive. Default 0 */
    int null_space;                        /**< pull redundant DOF toward the rest pose; default 1 */
    int restarts;                          /**< random restarts inside the limits when stalled; default 0 */
    uint64_t seed;                         /**< for restarts, so results stay deterministic */

    /** Set by reach_solver_default_settings; leave it alone. Settings without it (a zeroed
     * struct) are refused with REACH_ERROR_SETTINGS_NOT_INITIALIZED. */
    uint32_t made_by_defaults;
} reach_solver_settings;

/** The defaults; every solve's settings start here (a NULL settings pointer means these). */
REACH_API reach_solver_settings reach_solver_default_settings(void);

typedef struct reach_solve_result {
    int iterations;            /**< iterations run (all restarts counted) */
    reach_real residual;       /**< largest remaining distance over the position targets */
    reach_real angle_residual; /**< largest remaining angle over the orientation targets, rad */
    int reached;               /**< every target within its tolerance */
    int limited;               /**< joint limits were active at the solution */
} reach_solve_result;

REACH_EXTERN_C_END

#endif
