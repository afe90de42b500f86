/** @file
 * reach — the skeleton model every solver shares.
 *
 * A skeleton is a set of caller-owned arrays: each bone's parent index (parents listed before
 * children), its local rest transform (translation from the parent's joint, in the parent's
 * frame, and rotation) and its joint. A pose is an array of local transforms, one per bone;
 * forward kinematics turns it into world transforms. Nothing here allocates.
 *
 * Joints govern a bone's local transform relative to its rest transform. Every joint axis is a
 * unit vector in the bone's own rest frame (the rest rotation applied):
 *   ball       free rotation (three degrees of freedom)
 *   hinge      local rotation = rest rotation · rotation(axis, value), value in [min, max] rad
 *   cone       the rotation away from rest swings `axis` by at most `cone_angle`; with
 *              has_twist, its twist about `axis` stays in [twist_min, twist_max]
 *   prismatic  local translation = rest translation + rest rotation · axis · value,
 *              value in [min, max] rig units; the rotation stays the rest rotation
 *   fixed      the rest transform, always
 * A bone's length is the distance to its child's joint: the child's rest translation.
 *
 * A hinge or prismatic joint may be a mimic follower (URDF's mimic element, which grippers use): its
 * value is always multiplier × (its leader's value) + offset, never a value of its own. The
 * leader is another hinge or prismatic bone, anywhere in the skeleton, that is not itself a
 * follower. reach_pose_set_values derives followers from their leaders, reach_pose_get_values
 * reports them so derived, reach_pose_apply_mimic brings a pose edited by other means back into
 * step, and the Jacobian solvers move a leader's followers with it (the leader's column carries
 * their motion). Forward kinematics reads the pose as given: a pose written by those functions
 * has its followers in place. FABRIK and CCD turn bones by positions and do not know of
 * couplings: they turn a follower on their chain as an independent joint of its kind, so call
 * reach_pose_apply_mimic on their answer to couple it again (docs/urdf.md). */
#ifndef REACH_SKELETON_H
#define REACH_SKELETON_H

#include "vecmath.h"
#include "status.h"

REACH_EXTERN_C_BEGIN

typedef enum reach_joint_type {
    REACH_JOINT_BALL = 0,
    REACH_JOINT_HINGE,
    REACH_JOINT_CONE,
    REACH_JOINT_PRISMATIC,
    REACH_JOINT_FIXED
} reach_joint_type;

typedef struct reach_joint {
    reach_joint_type type;
    reach_vec3 axis;                 /**< unit, bone's rest frame: hinge and prismatic axis, cone centre */
    reach_real min, max;             /**< hinge angle (rad) or prismatic offset (rig units), min <= max */
    reach_real cone_angle;           /**< cone swing half-angle (rad), in [0, pi] */
    int has_twist;                   /**< cone: limit the twist about axis */
    reach_real twist_min, twist_max; /**< cone twist range (rad), within [-pi, pi] */
    int mimic;                       /**< nonzero: a follower of bone mimic_leader (hinge and prismatic) */
    int mimic_leader;                /**< the leader's bone index */
    reach_real mimic_multiplier;     /**< value = mimic_multiplier × leader's value + mimic_offset */
    reach_real mimic_offset;
} reach_joint;

REACH_API reach_joint reach_joint_ball(void);
REACH_API reach_joint reach_joint_fixed(void);
REACH_API reach_joint reach_joint_hinge(reach_vec3 axis, reach_real min, reach_real max);
REACH_API reach_joint reach_joint_cone(reach_vec3 axis, reach_real cone_angle);
REACH_API reach_joint reach_joint_cone_twist(reach_vec3 axis, reach_real cone_angle, reach_real twist_min,
                                             reach_real twist_max);
REACH_API reach_joint reach_joint_prismatic(reach_vec3 axis, reach_real min, reach_real max);
/** joint (a hinge or prismatic joint) made a follower of bone leader. */
REACH_API reach_joint reach_joint_mimic(reach_joint joint, int leader, reach_real multiplier, reach_real offset);

/** Joints with a single scalar value (hinge and prismatic) count as one "joint value" each. */
static inline int reach_joint_has_value(reach_joint_type type) {
    return type == REACH_JOINT_HINGE || type == REACH_JOINT_PRISMATIC;
}

typedef struct reach_skeleton {
    int bone_count;
    const int *parents;          /**< parents[i] in [-1, i); -1 marks a root */
    const reach_transform *rest; /**< local rest transforms */
    const reach_joint *joints;   /**< NULL: every bone is a ball joint */
} reach_skeleton;

/** Checks the arrays: parents in order and in range, finite rest transforms with unit
 * quaternions (|q|² within 2e-3 of 1: forward kinematics uses rotations as given), unit joint
 * axes (to 1e-3; the joint-value functions normalise them), ordered and in-range limits, and
 * mimic followers that are hinges or prismatic joints following another bone's hinge or
 * prismatic joint which is no follower, with finite coupling numbers. On failure, *bad_bone
 * (if not NULL) receives the first offending bone's index. */
REACH_API reach_status reach_skeleton_validate(const reach_skeleton *skeleton, int *bad_bone);

/** The joint of bone i (a ball joint when the skeleton has no joint array). */
REACH_API reach_joint reach_skeleton_joint(const reach_skeleton *skeleton, int bone);

/** Copies the rest transforms into a pose. */
REACH_API void reach_pose_rest(const reach_skeleton *skeleton, reach_transform *local);

/** local → world for every bone. A root bone's world transform is its local transform.
 * Does not validate the skeleton (call reach_skeleton_validate once when you build it). */
REACH_API void reach_forward_kinematics(const reach_skeleton *skeleton, const reach_transform *local,
                                        reach_transform *world);

/* ---- joint values ----------------------------------------------------------------------- */

/** The number of hinge and prismatic joints, mimic followers included: the length of a
 * joint-value vector. */
REACH_API int reach_skeleton_value_count(const reach_skeleton *skeleton);

/** Reads the hinge angles and prismatic offsets of a pose, in bone order. A hinge's angle is the
 * turn of its rotation that lies in its range (within a few roundings of an end: that end), so
 * the values can be set again unclamped. A mimic follower's value is derived from its leader's. */
REACH_API void reach_pose_get_values(const reach_skeleton *skeleton, const reach_transform *local, reach_real *values);

/** Sets the hinge and prismatic bones of a pose from values in bone order (other bones are left
 * as they are). Values outside a joint's limits are an error unless clamp is nonzero, in which
 * case they are clamped. Non-finite values are an error; the pose is untouched on error. count must
 * be reach_skeleton_value_count(skeleton), else REACH_ERROR_INVALID_ARGUMENT. A mimic follower's
 * entry is not read: its value is derived from its leader's (after the leader's clamp), and is
 * held to its own limits as a given value would be (an error, or clamped). */
REACH_API reach_status reach_pose_set_values(const reach_skeleton *skeleton, const reach_real *values, int count,
                                             int clamp, reach_transform *local);

/** Sets every mimic follower of a pose from its leader's value (clamped into the follower's
 * limits); other bones are left as they are. For poses written by other means than the
 * joint-value functions and the Jacobian solvers (FABRIK, CCD, a caller's own edits). */
REACH_API void reach_pose_apply_mimic(const reach_skeleton *skeleton, reach_transform *local);

/* ---- chains ----------------------------------------------------------------------------- */

/** The bones from root_bone down to tip_bone, root first, written to bones[0 .. *count).
 * REACH_ERROR_BAD_CHAIN when tip_bone does not descend from root_bone;
 * REACH_ERROR_BUFFER_TOO_SMALL (with *count set to the size needed) when capacity is short;
 * REACH_ERROR_BAD_PARENT when a parent on the way up is out of range or does not precede its
 * child (what reach_skeleton_validate refuses; the other parents are not read). */
REACH_API reach_status reach_chain_find(const reach_skeleton *skeleton, int root_bone, int tip_bone, int *bones,
                                        int capacity, int *count);

/** The way back from positions to rotations for a chain. positions[k] is the new world position
 * of the joint of chain bone k (k = 0 is the chain's root, which does not move). Each bone but
 * the tip turns by the smallest swing that takes its old direction toward the next joint to the
 * new one, which keeps its twist; the tip keeps its world rotation. Bones are taken to keep
 * their lengths (the positions come from a solver that keeps them); forward kinematics of the
 * result reproduces the directions exactly and the positions to rounding.
 * world must hold the current world transforms of the pose (from reach_forward_kinematics); both
 * local and world are updated for the chain's bones and their descendants stay consistent
 * once forward kinematics runs again. Errors, with local and world untouched: a bone out of range
 * or not the child of the one before it (REACH_ERROR_BAD_CHAIN), a chain bone whose parent is out
 * of range or does not precede it (REACH_ERROR_BAD_PARENT), NaN or infinity in positions
 * (REACH_ERROR_NOT_FINITE), NULL pointers or count < 1 (REACH_ERROR_INVALID_ARGUMENT). */
REACH_API reach_status reach_chain_apply_positions(const reach_skeleton *skeleton, const int *chain, int count,
                                                   const reach_vec3 *positions, reach_transform *local,
                                                   reach_transform *world);

/** The tree form of reach_chain_apply_positions. bones[0 .. count) are any bones,
 * ascending (parents before children); positions[k] is the new world position of bones[k]'s
 * joint. A listed bone whose parent is not listed stays where it is; every other listed bone's
 * joint must be where its listed parent puts it (the solver keeps lengths). Each listed bone
 * turns so that its listed children's joints land on their positions: the smallest swing for
 * one child, which keeps its twist, and the best-fit rotation (least squares over the children,
 * nearest the current rotation) for several. A listed bone without listed children keeps its
 * world rotation. positions are in the skeleton's space, like reach_forward_kinematics's output:
 * under a scaled or mirrored parent, map them in with the inverse of that parent's affine first.
 * world must hold the pose's current world transforms; local and world are updated for the
 * listed bones. Runs in O(count²). Errors (pose untouched): bones out of range or not ascending
 * (REACH_ERROR_BAD_CHAIN), NaN or infinity (REACH_ERROR_NOT_FINITE). */
REACH_API reach_status reach_tree_apply_positions(const reach_skeleton *skeleton, const int *bones, int count,
                                                  const reach_vec3 *positions, reach_transform *local,
                                                  reach_transform *world);

REACH_EXTERN_C_END

#endif
