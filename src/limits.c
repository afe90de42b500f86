/* Joint limits: projecting a rotation onto what a joint allows, measuring how far outside it is,
 * and the positional form that aims a bone as nearly as its joint allows. */
#include <stddef.h>

#include "limits_internal.h"

#define TWO_PI REACH__TWO_PI

/* Bone vectors this much shorter than their length across an axis count as lying along it. */
#define ALONG_AXIS_RATIO REACH_R(1e-4)

/* A vector's part across an axis shorter than this share of it is rounding, not a direction. */
#define ACROSS_RATIO (16 * REACH_REAL_EPSILON)

static reach_vec3 unit_axis(const reach_joint *joint) {
    return reach_vec3_normalize_safe(joint->axis, reach_vec3_make(0, 1, 0));
}

/* ---- angles ----------------------------------------------------------------------------- */

reach_real reach__wrap_angle(reach_real angle) {
    reach_real a = angle - TWO_PI * reach_floor((angle + REACH_PI) / TWO_PI);
    return a <= -REACH_PI ? a + TWO_PI : (a > REACH_PI ? a - TWO_PI : a);
}

reach_real reach__angle_clamp(reach_real angle, reach_real lo, reach_real hi, int *clamped) {
    *clamped = 0;
    if (!reach_is_finite(angle)) {
        *clamped = 1;
        return lo;
    }
    if (angle >= lo && angle <= hi) return angle;
    /* Shift by whole turns into [lo, lo + 2π): inside the range there, or between its ends. */
    reach_real a = angle - TWO_PI * reach_floor((angle - lo) / TWO_PI);
    if (a < lo) a = lo; /* rounding left it a hair below lo: it is lo, not the far side of hi */
    if (a >= lo && a <= hi) return a;
    /* A range of a whole turn or more holds every angle: a is past hi only by a rounding of the
     * shift, and the end returned below is the same rotation, not a limit reached. */
    *clamped = !reach__covers_turn(lo, hi);
    return (a - hi <= lo + TWO_PI - a) ? hi : lo;
}

reach_real reach_angle_clamp(reach_real angle, reach_real lo, reach_real hi) {
    int clamped;
    return reach__angle_clamp(angle, lo, hi, &clamped);
}

/* ---- swing and twist -------------------------------------------------------------------- */

void reach_quat_swing_twist(reach_quat q, reach_vec3 axis, reach_quat *swing, reach_quat *twist) {
    /* The twist keeps q's component along the axis: (axis (q.xyz · axis), q.w), normalised. */
    reach_real p = q.x * axis.x + q.y * axis.y + q.z * axis.z;
    reach_quat t = reach_quat_make(axis.x * p, axis.y * p, axis.z * p, q.w);
    t = reach_quat_dot(t, t) > 0 ? reach_quat_normalize_safe(t) : reach_quat_identity();
    if (twist) *twist = t;
    if (swing) *swing = reach_quat_normalize_safe(reach_quat_mul(q, reach_quat_conjugate(t)));
}

/* A swing (rotation about an axis perpendicular to `axis`) with its angle capped at max_angle,
 * keeping the direction it swings toward. */
static reach_quat cap_swing(reach_quat swing, reach_real max_angle, int *clamped) {
    if (swing.w < 0) swing = reach_quat_neg(swing);
    reach_vec3 v = reach_vec3_make(swing.x, swing.y, swing.z);
    reach_real s = reach_vec3_length(v);
    *clamped = 0;
    if (!(s > 0) || 2 * reach_atan2(s, swing.w) <= max_angle) return swing;
    *clamped = 1;
    return reach_quat_from_axis_angle(reach_vec3_scale(v, 1 / s), max_angle);
}

/* ---- projections ------------------------------------------------------------------------ */

int reach_joint_project_delta(const reach_joint *joint, reach_quat delta, reach_quat *out) {
    reach_quat d = reach_quat_normalize_safe(delta);
    reach_vec3 axis = unit_axis(joint);
    int clamped = 0;
    switch (joint->type) {
    case REACH_JOINT_BALL: *out = d; return 0;
    case REACH_JOINT_HINGE: {
        reach_real angle = reach__angle_clamp(reach_quat_twist_angle(d, axis), joint->min, joint->max, &clamped);
        *out = reach_quat_from_axis_angle(axis, angle);
        return clamped;
    }
    case REACH_JOINT_CONE: {
        reach_quat swing, twist;
        int twist_clamped = 0;
        reach_quat_swing_twist(d, axis, &swing, &twist);
        swing = cap_swing(swing, joint->cone_angle, &clamped);
        if (joint->has_twist) {
            reach_real angle = reach__angle_clamp(reach_quat_twist_angle(twist, axis), joint->twist_min,
                                                  joint->twist_max, &twist_clamped);
            twist = reach_quat_from_axis_angle(axis, angle);
        }
        *out = reach_quat_normalize_safe(reach_quat_mul(swing, twist));
        return clamped || twist_clamped;
    }
    case REACH_JOINT_PRISMATIC:
    case REACH_JOINT_FIXED: break;
    }
    *out = reach_quat_identity();
    return 0;
}

int reach_joint_project_rotation(const reach_joint *joint, reach_quat rest_rotation, reach_quat local_rotation,
                                 reach_quat *out) {
    reach_quat rest = reach_quat_normalize_safe(rest_rotation);
    reach_quat delta = reach_quat_mul(reach_quat_conjugate(rest), reach_quat_normalize_safe(local_rotation));
    reach_quat projected;
    int clamped = reach_joint_project_delta(joint, delta, &projected);
    *out = reach_quat_normalize_safe(reach_quat_mul(rest, projected));
    return clamped;
}

/* The prismatic offset of a local translation: its rest-frame component along the axis. */
static reach_real prismatic_offset(const reach_joint *joint, const reach_transform *rest, reach_vec3 translation) {
    return reach__prismatic_offset(reach_quat_normalize_safe(rest->rotation), rest->translation, unit_axis(joint),
                                   translation);
}

static reach_vec3 prismatic_translation(const reach_joint *joint, const reach_transform *rest, reach_real offset) {
    reach_quat rest_rotation = reach_quat_normalize_safe(rest->rotation);
    return reach_vec3_mad(rest->translation, reach_quat_rotate(rest_rotation, unit_axis(joint)), offset);
}

int reach_joint_project_local(const reach_joint *joint, const reach_transform *rest, reach_transform *local) {
    int clamped = reach_joint_project_rotation(joint, rest->rotation, local->rotation, &local->rotation);
    if (joint->type == REACH_JOINT_FIXED) {
        local->translation = rest->translation;
    } else if (joint->type == REACH_JOINT_PRISMATIC) {
        int offset_clamped = 0;
        reach_real offset = prismatic_offset(joint, rest, local->translation);
        if (offset < joint->min || offset > joint->max) offset_clamped = 1;
        local->translation = prismatic_translation(joint, rest, reach_clamp(offset, joint->min, joint->max));
        clamped = clamped || offset_clamped;
    }
    return clamped;
}

/* ---- measuring -------------------------------------------------------------------------- */

/* How far outside [lo, hi] an angle is, around the circle. */
static reach_real angle_outside(reach_real angle, reach_real lo, reach_real hi) {
    int clamped;
    reach_real nearest = reach__angle_clamp(angle, lo, hi, &clamped);
    return clamped ? reach_fabs(reach__wrap_angle(angle - nearest)) : 0;
}

static reach_real swing_angle(reach_quat swing) { return reach_quat_angle(swing); }

reach_real reach_joint_limit_error(const reach_joint *joint, const reach_transform *rest,
                                   const reach_transform *local) {
    if (joint->type == REACH_JOINT_BALL) return 0;
    reach_quat rest_rotation = reach_quat_normalize_safe(rest->rotation);
    reach_quat delta = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(rest_rotation), local->rotation));
    reach_vec3 axis = unit_axis(joint);
    reach_quat swing, twist;
    if (joint->type == REACH_JOINT_HINGE || joint->type == REACH_JOINT_CONE)
        reach_quat_swing_twist(delta, axis, &swing, &twist);
    switch (joint->type) {
    case REACH_JOINT_BALL: return 0;
    case REACH_JOINT_HINGE:
        return reach_max(swing_angle(swing),
                         angle_outside(reach_quat_twist_angle(twist, axis), joint->min, joint->max));
    case REACH_JOINT_CONE: {
        reach_real error = reach_max(0, swing_angle(swing) - joint->cone_angle);
        if (joint->has_twist)
            error = reach_max(error,
                              angle_outside(reach_quat_twist_angle(twist, axis), joint->twist_min, joint->twist_max));
        return error;
    }
    case REACH_JOINT_PRISMATIC: {
        reach_real offset = prismatic_offset(joint, rest, local->translation);
        reach_vec3 on_axis = prismatic_translation(joint, rest, offset);
        reach_real off_axis = reach_vec3_length_robust(reach_vec3_sub(local->translation, on_axis));
        reach_real outside = reach_max(joint->min - offset, offset - joint->max);
        return reach_max(reach_max(reach_quat_angle(delta), off_axis), reach_max(outside, 0));
    }
    case REACH_JOINT_FIXED:
        return reach_max(reach_quat_angle(delta),
                         reach_vec3_length_robust(reach_vec3_sub(local->translation, rest->translation)));
    }
    return 0;
}

reach_real reach_pose_limit_error(const reach_skeleton *skeleton, const reach_transform *local, int *worst_bone) {
    reach_real worst = 0;
    int worst_index = -1;
    for (int i = 0; skeleton->joints && i < skeleton->bone_count; ++i) {
        reach_real error = reach_joint_limit_error(&skeleton->joints[i], &skeleton->rest[i], &local[i]);
        if (error > worst) {
            worst = error;
            worst_index = i;
        }
    }
    if (worst_bone) *worst_bone = worst_index;
    return worst;
}

/* ---- aiming ----------------------------------------------------------------------------- */

/* Hinge: the bone's direction turns in the plane across the axis, so the nearest allowed
 * direction is the nearest allowed angle: θ* = atan2(a·(b⊥ × d⊥), b⊥·d⊥), then clamped. */
static int aim_hinge(const reach_joint *joint, reach_quat current_delta, reach_vec3 bone, reach_vec3 direction,
                     reach_quat *delta) {
    reach_vec3 axis = unit_axis(joint);
    reach_vec3 bone_across = reach_vec3_reject(bone, axis);
    reach_vec3 direction_across = reach_vec3_reject(direction, axis);
    reach_real wanted;
    if (reach_vec3_length(bone_across) > ALONG_AXIS_RATIO && reach_vec3_length(direction_across) > ALONG_AXIS_RATIO)
        wanted = reach_atan2(reach_vec3_dot(axis, reach_vec3_cross(bone_across, direction_across)),
                             reach_vec3_dot(bone_across, direction_across));
    else /* the direction does not depend on the angle, or asks nothing of it: stay */
        wanted = reach_quat_twist_angle(current_delta, axis);
    int clamped;
    reach_real angle = reach__angle_clamp(wanted, joint->min, joint->max, &clamped);
    *delta = reach_quat_from_axis_angle(axis, angle);
    return clamped;
}

/* The unit vector across the unit `axis` toward v, square to it; `fallback` where v lies along
 * the axis. Rejecting a vector within a rounding of the axis leaves only rounding, which points
 * anywhere, along the axis as well: that part is rejected once more, and a remainder too short
 * to be more than rounding counts as none. */
static reach_vec3 across_axis(reach_vec3 v, reach_vec3 axis, reach_vec3 fallback) {
    reach_vec3 across = reach_vec3_reject(v, axis);
    if (!(reach_vec3_length(across) > ACROSS_RATIO * reach_vec3_length(v))) return fallback;
    return reach_vec3_normalize_safe(reach_vec3_reject(across, axis), fallback);
}

/* Cone with the bone along its axis (sign s = ±1): the bone points along s·(swing · a), so the
 * swing must take a to s·direction, with that direction pulled back into the cone. */
static int aim_cone_along_axis(const reach_joint *joint, reach_quat current_delta, reach_real sign,
                               reach_vec3 direction, reach_quat *delta) {
    reach_vec3 axis = unit_axis(joint);
    reach_vec3 wanted = reach_vec3_scale(direction, sign);
    int clamped = 0, twist_clamped = 0;
    if (reach_atan2(reach_vec3_length(reach_vec3_cross(axis, wanted)), reach_vec3_dot(axis, wanted)) >
        joint->cone_angle) {
        reach_quat current_swing;
        reach_quat_swing_twist(current_delta, axis, &current_swing, NULL);
        reach_vec3 fallback =
            across_axis(reach_quat_rotate(current_swing, axis), axis, reach_vec3_any_perpendicular(axis));
        reach_vec3 across = across_axis(wanted, axis, fallback);
        wanted = reach_vec3_add(reach_vec3_scale(axis, reach_cos(joint->cone_angle)),
                                reach_vec3_scale(across, reach_sin(joint->cone_angle)));
        clamped = 1;
    }
    reach_quat twist;
    reach_quat_swing_twist(current_delta, axis, NULL, &twist);
    if (joint->has_twist) {
        reach_real angle =
            reach__angle_clamp(reach_quat_twist_angle(twist, axis), joint->twist_min, joint->twist_max, &twist_clamped);
        twist = reach_quat_from_axis_angle(axis, angle);
    }
    *delta = reach_quat_normalize_safe(reach_quat_mul(reach_quat_shortest_arc(axis, wanted), twist));
    return clamped || twist_clamped;
}

int reach_joint_aim(const reach_joint *joint, reach_quat parent_rotation, reach_quat rest_rotation, reach_quat current,
                    reach_vec3 bone_vector, reach_vec3 direction, reach_quat *out) {
    reach_quat rest = reach_quat_normalize_safe(rest_rotation);
    reach_quat frame = reach_quat_normalize_safe(reach_quat_mul(reach_quat_normalize_safe(parent_rotation), rest));
    reach_quat current_delta =
        reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(rest), reach_quat_normalize_safe(current)));
    /* Work in the bone's rest frame, where the joint's axis and limits live. */
    reach_vec3 bone = reach_vec3_normalize_safe(bone_vector, reach_vec3_zero());
    reach_vec3 wanted =
        reach_vec3_normalize_safe(reach_quat_rotate(reach_quat_conjugate(frame), direction), reach_vec3_zero());
    reach_quat delta;
    int clamped;
    if (reach_vec3_length_sq(bone) == 0 || reach_vec3_length_sq(wanted) == 0) {
        clamped = reach_joint_project_delta(joint, current_delta, &delta);
    } else if (joint->type == REACH_JOINT_HINGE) {
        clamped = aim_hinge(joint, current_delta, bone, wanted, &delta);
    } else {
        reach_vec3 axis = unit_axis(joint);
        reach_real along = reach_vec3_dot(bone, axis);
        if (joint->type == REACH_JOINT_CONE && reach_vec3_length(reach_vec3_reject(bone, axis)) <= ALONG_AXIS_RATIO) {
            clamped = aim_cone_along_axis(joint, current_delta, along < 0 ? -1 : 1, wanted, &delta);
        } else {
            /* The smallest swing that points the bone along `wanted`, then the joint's projection. */
            reach_vec3 now = reach_quat_rotate(current_delta, bone);
            reach_quat free = reach_quat_mul(reach_quat_shortest_arc(now, wanted), current_delta);
            clamped = reach_joint_project_delta(joint, free, &delta);
        }
    }
    *out = reach_quat_normalize_safe(reach_quat_mul(rest, delta));
    return clamped;
}
