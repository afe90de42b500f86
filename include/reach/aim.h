/** @file
 * reach — aim and look-at: turn one bone, or a chain of bones, so that an axis points at a point.
 *
 * One bone (reach_aim_solve) is a plain function on values. The bone's local `forward` axis,
 * cast from its `offset` (a point in the bone's frame: the eyes ahead of the head's joint, a
 * muzzle), is turned to pass through the target; the turn about the line from the joint to the
 * target is then chosen so that the bone's local `up` axis leans toward a world `pole` direction
 * (keep_up; without it the smallest turn is taken, which keeps the roll the bone had), plus an
 * extra `twist_angle`. `weight` blends from the current rotation (0) to the aimed one (1). An
 * optional cone and twist limit, stated on the turn away from a reference rotation (the parent's
 * world rotation times the bone's rest rotation, as joint limits are: see limits.h) about the
 * forward axis, keeps the result allowed: a target outside the cone ends at the nearest allowed
 * aim, on the cone's rim toward the target.
 *
 * A chain (reach_aim_chain_solve: spine → neck → head) shares the turn along the chain by
 * weights, keeps each bone inside its skeleton joint's limits, and aims the last bone's axis
 * exactly when the limits allow (else as near as they allow).
 *
 * Degenerate cases keep a defined answer: a target at the ray's origin keeps the forward axis
 * where it is; a target straight behind turns about the up axis (a head turns round rather than
 * over); a pole along the aim keeps the roll of the smallest turn; a target closer to the joint
 * than the offset's distance from the forward line (the ray cannot pass through it) is aimed at
 * from the joint instead. Bad input (NaN or infinity, zero axes, an up axis along forward, a
 * weight or limit out of range, settings not made by their defaults function) returns an error
 * and leaves every output untouched. Nothing here allocates. */
#ifndef REACH_AIM_H
#define REACH_AIM_H

#include <stdint.h>

#include "skeleton.h"

REACH_EXTERN_C_BEGIN

typedef struct reach_aim_settings {
    reach_vec3 forward;     /**< the axis that aims, in the bone's frame (any length > 0); default +Z */
    reach_vec3 up;          /**< the axis kept toward the pole, in the bone's frame; default +Y */
    reach_vec3 offset;      /**< where the aiming ray starts, in the bone's frame; default 0 */
    int keep_up;            /**< nonzero: the up axis leans toward the pole; 0: smallest turn; default 1 */
    reach_real twist_angle; /**< extra roll about the aim line (rad), after the pole; default 0 */
    reach_real weight;      /**< 0 keeps the current rotation, 1 aims fully; [0, 1]; default 1 */
    int limited;            /**< nonzero: apply the cone and twist limit below; default 0 */
    reach_real cone_angle;  /**< forward's largest turn away from the reference's (rad), [0, pi]; default pi */
    reach_real twist_min;   /**< roll about forward relative to the reference (rad), [-pi, twist_max] */
    reach_real twist_max;   /**< ... [twist_min, pi]; defaults -pi and pi */
    reach_real tolerance;   /**< angle (rad) within which the aim counts as reached; default 1e-4 */
    /** Set by reach_aim_default_settings; leave it alone. Settings without it are refused with
     * REACH_ERROR_SETTINGS_NOT_INITIALIZED. */
    uint32_t made_by_defaults;
} reach_aim_settings;

REACH_API reach_aim_settings reach_aim_default_settings(void);

typedef struct reach_aim_input {
    reach_transform joint; /**< the bone's world transform now */
    reach_vec3 target;     /**< the world point to aim at */
    reach_vec3 pole;       /**< world direction the up axis leans toward (keep_up); any length > 0 */
    /** World rotation from which the limit is measured (parent world rotation · rest rotation);
     * read only when settings.limited. */
    reach_quat reference;
} reach_aim_input;

typedef struct reach_aim_output {
    reach_quat rotation; /**< the bone's new world rotation (unit) */
    /** The same as a turn in the bone's own frame: rotation = joint.rotation · correction, so
     * a local rotation becomes local · correction. */
    reach_quat correction;
    reach_real error; /**< angle (rad) between the aimed ray and the way to the target from its origin */
    int reached;      /**< error <= tolerance */
    int limited;      /**< the cone or the twist limit clamped the aim */
} reach_aim_output;

/** Aims one bone. settings may be NULL for the defaults. */
REACH_API reach_status reach_aim_solve(const reach_aim_input *in, const reach_aim_settings *settings,
                                       reach_aim_output *out);

/* ---- chains ----------------------------------------------------------------------------- */

typedef struct reach_aim_chain_settings {
    /** The last bone's axes, pole rule, twist, weight and tolerance (its limited/cone/twist
     * fields are not read: every bone's limit is its skeleton joint). */
    reach_aim_settings aim;
    /** Each bone's share of the turn, root first, `count` values >= 0 with a positive sum; NULL
     * gives each bone the same share. The last bone takes whatever the others left. */
    const reach_real *shares;
    /** Sweeps from the last bone back to the first that take up what the limits left over;
     * default 64, >= 0. What they leave is finished by Gauss-Newton steps on the last bones
     * together, inside their limits (none when 0). */
    int iterations;
    uint32_t made_by_defaults; /**< set by reach_aim_chain_default_settings */
} reach_aim_chain_settings;

REACH_API reach_aim_chain_settings reach_aim_chain_default_settings(void);

/** Aims the last bone of a chain (each bone the parent of the next, as from reach_chain_find) at
 * target, sharing the turn along the chain. world must hold the pose's world transforms; local
 * and world are updated for the chain's bones (run forward kinematics for their other
 * descendants). pole is the world direction for the last bone's up axis. *out (may be NULL)
 * receives the last bone's aim: error, reached, and limited when a joint limit clamped. On error
 * nothing is written. */
REACH_API reach_status reach_aim_chain_solve(const reach_skeleton *skeleton, const int *chain, int count,
                                             reach_vec3 target, reach_vec3 pole,
                                             const reach_aim_chain_settings *settings, reach_transform *local,
                                             reach_transform *world, reach_aim_output *out);

REACH_EXTERN_C_END

#endif
