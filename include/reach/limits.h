/** @file
 * reach — joint limits: what a joint allows, and the closest allowed rotation to any other.
 *
 * A joint (see skeleton.h) limits a bone's local transform relative to its rest transform.
 * The rotation away from rest is the "delta", acting in the bone's rest frame:
 *     local rotation = rest rotation · delta        delta = rest⁻¹ · local
 * Every limit is stated on the swing-twist decomposition of the delta about the joint axis a,
 *     delta = swing · twist
 * where twist turns about a and swing about an axis perpendicular to a. The projections:
 *   ball       anything is allowed: unchanged
 *   hinge      the twist about a only (the swing is dropped), its angle clamped to [min, max]
 *   cone       the swing's angle clamped to cone_angle, keeping the direction it swings toward;
 *              with has_twist, the twist angle clamped to [twist_min, twist_max]
 *   prismatic  no rotation (identity delta); the offset along a clamped to [min, max]
 *   fixed      no rotation, no offset
 * Angles outside a range are clamped to the nearer end of the range measured around the circle
 * (a hinge allowed [-0.5, 0.5] and asked for 3.0 rad goes to 0.5, asked for -3.0 to -0.5). A
 * range of a whole turn or more (max - min >= 2π, as the ±π of a hinge that turns freely) holds
 * every angle: it never clamps, and the Jacobian solvers let such a hinge's angle wrap across its
 * ends; only a narrower range is a limit.
 *
 * The "limited" flags below mean that one of those ranges clamped a value; removing the swing of
 * a hinge or the rotation of a fixed joint is what those joints are, not a limit being hit.
 *
 * Everything here is pure, allocation-free and safe on any finite input. */
#ifndef REACH_LIMITS_H
#define REACH_LIMITS_H

#include "skeleton.h"

REACH_EXTERN_C_BEGIN

/** q = swing · twist about the unit axis: twist turns about axis, swing about a perpendicular
 * of it. When q is a half turn about a perpendicular axis the twist is undefined; it is then the
 * identity. Either output may be NULL. */
REACH_API void reach_quat_swing_twist(reach_quat q, reach_vec3 axis, reach_quat *swing, reach_quat *twist);

/** The angle in [lo, hi] nearest to `angle` going around the circle (2π-periodic). An angle that
 * is inside the range, or inside after adding or removing whole turns, comes back unchanged;
 * with hi - lo >= 2π every angle is. Requires lo <= hi. */
REACH_API reach_real reach_angle_clamp(reach_real angle, reach_real lo, reach_real hi);

/** Projects a delta rotation (rest⁻¹ · local) onto what the joint allows and writes it to *out.
 * Returns nonzero when a range (hinge angle, cone angle, twist) clamped the rotation. */
REACH_API int reach_joint_project_delta(const reach_joint *joint, reach_quat delta, reach_quat *out);

/** The same on a local rotation: *out = rest · project(rest⁻¹ · local). Inputs need not be
 * normalised (zero quaternions count as the identity); the output is a unit quaternion. */
REACH_API int reach_joint_project_rotation(const reach_joint *joint, reach_quat rest_rotation,
                                           reach_quat local_rotation, reach_quat *out);

/** Projects a whole local transform, rotation and translation. For a prismatic joint the offset
 * along the axis is clamped and the translation put back on the axis line; for a fixed joint the
 * translation becomes the rest translation; other joints keep their translation.
 * Returns nonzero when a range clamped. */
REACH_API int reach_joint_project_local(const reach_joint *joint, const reach_transform *rest, reach_transform *local);

/** How far a local transform lies outside what its joint allows: the largest of the angle
 * (radians) by which a rotation range is exceeded, the angle of any rotation the joint does not
 * have (a hinge's swing, a prismatic or fixed joint's rotation), and for prismatic and fixed
 * joints the distance (rig units) of the translation from what is allowed. 0 when allowed. */
REACH_API reach_real reach_joint_limit_error(const reach_joint *joint, const reach_transform *rest,
                                             const reach_transform *local);

/** The largest reach_joint_limit_error over the bones of a pose; *worst_bone (if not NULL)
 * receives that bone, or -1 when every joint is satisfied exactly. */
REACH_API reach_real reach_pose_limit_error(const reach_skeleton *skeleton, const reach_transform *local,
                                            int *worst_bone);

/** The positional form, for solvers that move joint positions (FABRIK): the local rotation the
 * joint allows that points the bone as nearly as it can along a world direction.
 *   parent_rotation  world rotation of the bone's parent (the identity for a root bone)
 *   rest_rotation    the bone's rest rotation
 *   current          the bone's current local rotation: where the joint leaves the twist about
 *                    the bone free (ball, cone without twist limits), the result is the smallest
 *                    swing away from it, so the twist it had is kept
 *   bone_vector      the point that should aim, in the bone's own frame: usually its child's
 *                    local translation (the vector from the bone's joint to the child's joint)
 *   direction        the world direction to aim along; any non-zero length. A zero direction or
 *                    a zero bone_vector keeps the current rotation (projected onto the joint)
 * A hinge gives the exact nearest direction, and so does a cone whose axis lies along
 * bone_vector (the usual rig); a cone whose axis is across the bone projects the smallest swing
 * toward `direction` instead, which is close but not always the nearest.
 * Writes the new local rotation (unit) to *out; returns nonzero when a range clamped. */
REACH_API int reach_joint_aim(const reach_joint *joint, reach_quat parent_rotation, reach_quat rest_rotation,
                              reach_quat current, reach_vec3 bone_vector, reach_vec3 direction, reach_quat *out);

REACH_EXTERN_C_END

#endif
