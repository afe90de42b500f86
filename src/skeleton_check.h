/* One bone of a skeleton checked as reach_skeleton_validate checks it, inline: the solvers check
 * every bone of the skeleton on every solve, in the pass that checks the pose. Private; never
 * installed. */
#ifndef REACH_SKELETON_CHECK_H
#define REACH_SKELETON_CHECK_H

#include "packed_vec3.h"
#include "reach/skeleton.h"

/* Joint axes may be written by hand in a file: allow a little slack around unit length. */
#define REACH__AXIS_UNIT_SLACK REACH_R(1e-3)

/* The joint's own checks (type, axis, limits, mimicry) for a bone whose joint is not a plain
 * ball (skeleton.c). */
reach_status reach__skeleton_check_joint(const reach_skeleton *skeleton, int bone);

/* REACH_OK, or what is wrong with bone i: its parent, its rest transform (finite, a unit
 * rotation: forward kinematics uses rotations as given), its joint. A ball joint that follows
 * no one, the common case, has nothing more to check. */
static inline reach_status reach__skeleton_check_bone(const reach_skeleton *skeleton, int i) {
    int parent = skeleton->parents[i];
    const reach_transform *rest = &skeleton->rest[i];
    if (parent < -1 || parent >= i) return REACH_ERROR_BAD_PARENT;
    if (!packed_transform_is_finite(rest)) return REACH_ERROR_NOT_FINITE;
    if (!(reach_fabs(reach_quat_dot(rest->rotation, rest->rotation) - 1) <= 2 * REACH__AXIS_UNIT_SLACK))
        return REACH_ERROR_BAD_QUATERNION;
    const reach_joint *joint = skeleton->joints ? &skeleton->joints[i] : NULL;
    if (joint && (joint->type != REACH_JOINT_BALL || joint->mimic)) return reach__skeleton_check_joint(skeleton, i);
    return REACH_OK;
}

#endif
