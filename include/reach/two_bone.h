/** @file
 * reach — analytic two-bone IK in 2-D and 3-D.
 *
 * A two-bone limb is three joints: root (shoulder, hip), mid (elbow, knee) and end (wrist,
 * ankle). The solvers take the joints' current positions, so the bone lengths are whatever the
 * limb has now, and return new positions: the end as close to the target as the limb allows,
 * the mid joint on the side the caller asks for. The joint is placed without trigonometry: it
 * lies on the intersection of the circle of radius L1 around the root and the circle of radius
 * L2 around the end, a distance a = (d² + L1² − L2²) / 2d along the root→target line and
 * h = √(L1² − a²) off it.
 *
 * Reach range: the end can be anywhere at distance [|L1 − L2|, L1 + L2] from the root. A target
 * outside it gives the closest pose: the limb straight toward the target when it is too far,
 * folded toward it when it is too near. A target exactly at the root keeps the limb's current
 * direction. `reached` says whether the end is within the tolerance of the target; `residual`
 * is the distance that remains.
 *
 * All functions validate first and write their output only on success: NaN or infinity in any
 * input, a zero-length bone or a bad option returns an error and leaves *out as it was. `options`
 * may be NULL for the defaults (reach_two_bone_default_settings). */
#ifndef REACH_TWO_BONE_H
#define REACH_TWO_BONE_H

#include "vecmath.h"
#include "status.h"

REACH_EXTERN_C_BEGIN

typedef struct reach_two_bone_settings {
    /** Blend from the current pose (0) to the solved pose (1), applied to the bones' rotations
     * (and stretch), so a partial weight keeps the bone lengths. Range [0, 1]. Default 1. */
    reach_real weight;
    /** Soft IK: within this distance (rig units) of full extension the end eases toward the
     * target instead of snapping straight. With chain length L = L1 + L2, s = soft_distance and
     * target distance d > L − s, the end is placed at distance
     *     L − s + s·(1 − exp(−(d − (L − s)) / s)),
     * which is continuous with its first derivative and stays below L. A soft distance above L
     * counts as L (the easing starts at the root). 0 turns it off. Default 0. */
    reach_real soft_distance;
    /** Stretch: the bones may lengthen, together and by the same ratio, up to this factor to
     * reach a target beyond L (with soft IK on, to make up the softening). 1 turns it off.
     * Must be >= 1. Default 1. */
    reach_real max_stretch;
    /** Distance at which the target counts as reached, in rig units; 0 means 1e-4 × chain length.
     * Default 0. */
    reach_real tolerance;
    /** Nonzero: fill the rotation outputs. Zero skips that work (they are left as identity).
     * Default 1. */
    int rotations;
} reach_two_bone_settings;

REACH_API reach_two_bone_settings reach_two_bone_default_settings(void);

/* ---- 3-D -------------------------------------------------------------------------------- */

typedef struct reach_two_bone_input {
    reach_vec3 root, mid, end; /**< current joint positions, any one frame (usually world) */
    reach_vec3 target;         /**< where the end joint should go */
    /** The pole (hint): a point the mid joint bends toward. The mid joint lands in the plane of
     * root, target and pole, on the pole's side. If the pole lies on the root→target line,
     * the current bend plane is kept, and if the limb is straight along that line as well,
     * a fixed perpendicular of it is used: never NaN. */
    reach_vec3 pole;
    int use_pole; /**< 0: ignore pole, keep the current bend plane */
} reach_two_bone_input;

typedef struct reach_two_bone_output {
    reach_vec3 mid, end; /**< solved joint positions; the root does not move */
    /** World-space corrections, valid when options.rotations is set: root_rotation turns the
     * upper bone about the root; mid_rotation then turns the lower bone about the mid joint.
     * New world rotation of the upper bone = root_rotation · old; of the lower bone =
     * mid_rotation · root_rotation · old. Each is the smallest swing that does the job. */
    reach_quat root_rotation, mid_rotation;
    reach_real upper_length, lower_length; /**< the bones' lengths after stretch */
    reach_real residual;                   /**< distance from the end to the target */
    int reached;                           /**< residual <= tolerance */
} reach_two_bone_output;

REACH_API reach_status reach_two_bone_solve(const reach_two_bone_input *in, const reach_two_bone_settings *options,
                                            reach_two_bone_output *out);

/* ---- 2-D -------------------------------------------------------------------------------- */

/** Which side of the root→target line the mid joint lies on. */
typedef enum reach_bend {
    REACH_BEND_CCW = 1, /**< to the left, counter-clockwise from root→target */
    REACH_BEND_CW = -1  /**< to the right, clockwise */
} reach_bend;

typedef struct reach_two_bone_2d_input {
    reach_vec2 root, mid, end; /**< current joint positions */
    reach_vec2 target;
    reach_bend bend;
} reach_two_bone_2d_input;

typedef struct reach_two_bone_2d_output {
    reach_vec2 mid, end;
    reach_vec2 mid_mirror; /**< the other solution: mid reflected across the root→end line */
    /** Rotation corrections as unit complex numbers (cos θ, sin θ), counter-clockwise positive:
     * root_rotation turns the upper bone, mid_rotation then the lower bone. */
    reach_vec2 root_rotation, mid_rotation;
    reach_real upper_length, lower_length;
    reach_real residual;
    int reached;
} reach_two_bone_2d_output;

REACH_API reach_status reach_two_bone_solve_2d(const reach_two_bone_2d_input *in,
                                               const reach_two_bone_settings *options, reach_two_bone_2d_output *out);

/* ---- bone rotations under arbitrary parents --------------------------------------------- */

/** The three joints of a limb in an animation hierarchy: the world transform of the root's
 * parent, which may scale non-uniformly or mirror, and each joint's local transform. */
typedef struct reach_two_bone_rig_input {
    reach_affine parent_world;
    reach_transform root_local, mid_local, end_local;
    reach_vec3 target; /**< world */
    reach_vec3 pole;   /**< world; see reach_two_bone_input */
    int use_pole;
    /** Optional world rotation for the end joint. Without it the end keeps the world rotation
     * it had. Under a scaled parent the rotation part is matched; under a mirrored parent the
     * end's x and y axes are. */
    reach_quat end_orientation;
    int use_end_orientation;
} reach_two_bone_rig_input;

typedef struct reach_two_bone_rig_output {
    /** New local rotations; the local translations do not change (unless stretched, below). */
    reach_quat root_rotation, mid_rotation, end_rotation;
    /** Local translations of mid and end: the input's, scaled when max_stretch > 1 stretched. */
    reach_vec3 mid_translation, end_translation;
    reach_vec3 mid, end; /**< world positions after the solve */
    reach_real residual; /**< world distance from end to target */
    int reached;
} reach_two_bone_rig_output;

/** Solves in the space of the root's parent, where the bones keep their lengths whatever the
 * parent's scale, so forward kinematics of the new local rotations puts the end on the solved
 * position exactly (to rounding) under translated, rotated, scaled and mirrored parents.
 * A singular parent transform is an error (REACH_ERROR_INVALID_ARGUMENT). */
REACH_API reach_status reach_two_bone_solve_rig(const reach_two_bone_rig_input *in,
                                                const reach_two_bone_settings *options, reach_two_bone_rig_output *out);

REACH_EXTERN_C_END

#endif
