/* The skeleton model: joints, validation, forward kinematics, joint values, chains, and the way
 * back from solved positions to local rotations. */
#include "internal.h"
#include "half_angle.h"
#include "packed_vec3.h"
#include "quadrant_atan.h"
#include "skeleton_check.h"
#include "reach/skeleton.h"

/* ---- joints ----------------------------------------------------------------------------- */

static reach_joint joint_make(reach_joint_type type, reach_vec3 axis) {
    reach_joint j;
    j.type = type;
    j.axis = axis;
    j.min = 0;
    j.max = 0;
    j.cone_angle = REACH_PI;
    j.has_twist = 0;
    j.twist_min = -REACH_PI;
    j.twist_max = REACH_PI;
    j.mimic = 0;
    j.mimic_leader = 0;
    j.mimic_multiplier = 1;
    j.mimic_offset = 0;
    return j;
}

reach_joint reach_joint_ball(void) { return joint_make(REACH_JOINT_BALL, reach_vec3_make(0, 1, 0)); }
reach_joint reach_joint_fixed(void) { return joint_make(REACH_JOINT_FIXED, reach_vec3_make(0, 1, 0)); }

reach_joint reach_joint_hinge(reach_vec3 axis, reach_real min, reach_real max) {
    reach_joint j = joint_make(REACH_JOINT_HINGE, axis);
    j.min = min;
    j.max = max;
    return j;
}

reach_joint reach_joint_cone(reach_vec3 axis, reach_real cone_angle) {
    reach_joint j = joint_make(REACH_JOINT_CONE, axis);
    j.cone_angle = cone_angle;
    return j;
}

reach_joint reach_joint_cone_twist(reach_vec3 axis, reach_real cone_angle, reach_real twist_min, reach_real twist_max) {
    reach_joint j = reach_joint_cone(axis, cone_angle);
    j.has_twist = 1;
    j.twist_min = twist_min;
    j.twist_max = twist_max;
    return j;
}

reach_joint reach_joint_prismatic(reach_vec3 axis, reach_real min, reach_real max) {
    reach_joint j = joint_make(REACH_JOINT_PRISMATIC, axis);
    j.min = min;
    j.max = max;
    return j;
}

reach_joint reach_joint_mimic(reach_joint joint, int leader, reach_real multiplier, reach_real offset) {
    joint.mimic = 1;
    joint.mimic_leader = leader;
    joint.mimic_multiplier = multiplier;
    joint.mimic_offset = offset;
    return joint;
}

reach_joint reach_skeleton_joint(const reach_skeleton *skeleton, int bone) {
    return skeleton->joints ? skeleton->joints[bone] : reach_joint_ball();
}

/* ---- validation ------------------------------------------------------------------------- */

static reach_status check_joint(const reach_joint *j) {
    switch (j->type) {
    case REACH_JOINT_BALL:
    case REACH_JOINT_FIXED: return REACH_OK;
    case REACH_JOINT_HINGE:
    case REACH_JOINT_CONE:
    case REACH_JOINT_PRISMATIC: break;
    default: return REACH_ERROR_BAD_JOINT;
    }
    if (!reach_vec3_is_finite(j->axis) || !reach_is_finite(j->min) || !reach_is_finite(j->max) ||
        !reach_is_finite(j->cone_angle) || !reach_is_finite(j->twist_min) || !reach_is_finite(j->twist_max))
        return REACH_ERROR_NOT_FINITE;
    if (reach_fabs(reach_vec3_length(j->axis) - 1) > REACH__AXIS_UNIT_SLACK) return REACH_ERROR_BAD_JOINT;
    if (j->type == REACH_JOINT_CONE) {
        if (j->cone_angle < 0 || j->cone_angle > REACH_PI) return REACH_ERROR_BAD_JOINT;
        if (j->has_twist && (j->twist_min > j->twist_max || j->twist_min < -REACH_PI || j->twist_max > REACH_PI))
            return REACH_ERROR_BAD_JOINT;
        return REACH_OK;
    }
    if (j->min > j->max) return REACH_ERROR_BAD_JOINT;
    if (j->type == REACH_JOINT_HINGE && (j->min < -2 * REACH_PI || j->max > 2 * REACH_PI)) return REACH_ERROR_BAD_JOINT;
    return REACH_OK;
}

/* A follower of a hinge or prismatic leader elsewhere that follows no one (chains of followers
 * are resolved by whoever builds the skeleton, as the URDF reader does). */
static reach_status check_mimic(const reach_skeleton *skeleton, int bone) {
    const reach_joint *j = &skeleton->joints[bone];
    if (!j->mimic) return REACH_OK;
    if (!reach_is_finite(j->mimic_multiplier) || !reach_is_finite(j->mimic_offset)) return REACH_ERROR_NOT_FINITE;
    int leader = j->mimic_leader;
    if (!reach_joint_has_value(j->type) || leader < 0 || leader >= skeleton->bone_count || leader == bone)
        return REACH_ERROR_BAD_JOINT;
    const reach_joint *lead = &skeleton->joints[leader];
    if (!reach_joint_has_value(lead->type) || lead->mimic) return REACH_ERROR_BAD_JOINT;
    return REACH_OK;
}

reach_status reach__skeleton_check_joint(const reach_skeleton *skeleton, int bone) {
    reach_status st = check_joint(&skeleton->joints[bone]);
    return st == REACH_OK ? check_mimic(skeleton, bone) : st;
}

reach_status reach_skeleton_validate(const reach_skeleton *skeleton, int *bad_bone) {
    REACH_CHECK_ARG(skeleton && skeleton->bone_count >= 0);
    REACH_CHECK_ARG(skeleton->bone_count == 0 || (skeleton->parents && skeleton->rest));
    for (int i = 0; i < skeleton->bone_count; ++i) {
        reach_status st = reach__skeleton_check_bone(skeleton, i);
        if (st != REACH_OK) {
            if (bad_bone) *bad_bone = i;
            return st;
        }
    }
    return REACH_OK;
}

/* ---- poses and forward kinematics ------------------------------------------------------- */

void reach_pose_rest(const reach_skeleton *skeleton, reach_transform *local) {
    for (int i = 0; i < skeleton->bone_count; ++i)
        local[i] = skeleton->rest[i];
}

/* reach_transform_mul on packed vectors (packed_vec3.h): the same bits in fewer instructions,
 * for the solvers evaluate poses over and over. */
void reach_forward_kinematics(const reach_skeleton *skeleton, const reach_transform *local, reach_transform *world) {
    /* The bone before, kept in registers: down a chain it is the parent, and the next bone need
     * not wait for it to be stored and read back. */
    packed_quat rotation = packed_quat_make(packed_zero(), 1);
    packed_vec3 translation = packed_zero();
    for (int i = 0; i < skeleton->bone_count; ++i) {
        int parent = skeleton->parents[i];
        if (parent < 0) {
            world[i] = local[i];
            rotation = packed_quat_load(&local[i].rotation);
            translation = packed_load(&local[i].translation);
            continue;
        }
        if (parent != i - 1) {
            rotation = packed_quat_load(&world[parent].rotation);
            translation = packed_load(&world[parent].translation);
        }
        translation = packed_add(packed_quat_rotate(rotation, packed_load(&local[i].translation)), translation);
        rotation = packed_quat_mul(rotation, packed_quat_load(&local[i].rotation));
        packed_store(&world[i].translation, translation);
        packed_quat_store(&world[i].rotation, rotation);
    }
}

/* ---- joint values ----------------------------------------------------------------------- */

/* Axes pass validation within a little of unit length (they may be typed by hand): use them
 * made unit, so a value means the same angle or distance whatever the slack. One whose squared
 * length rounds to one (every Denavit–Hartenberg joint's +z) is taken as it is: a rounding from
 * unit at most. */
static reach_vec3 unit_axis_of(const reach_joint *joint) {
    if (reach_vec3_dot(joint->axis, joint->axis) == 1) return joint->axis;
    return reach_vec3_normalize_safe(joint->axis, joint->axis);
}

/* A rotation of everyday size (no coordinate beyond 2^16, one at least 2^-16): its products stay
 * far from overflow and underflow. */
static int of_everyday_size(reach_quat q) {
    reach_real m = reach_max(reach_max(reach_fabs(q.x), reach_fabs(q.y)), reach_max(reach_fabs(q.z), reach_fabs(q.w)));
    return m >= REACH_R(0x1p-16) && m <= REACH_R(0x1p16);
}

/* How far past an end of its range a hinge's angle read from a rotation may land and still count
 * as that end: a few roundings of an angle up to a turn. */
#define HINGE_END_SLACK (64 * REACH_REAL_EPSILON * 2 * REACH_PI)

/* How far an angle lies outside a joint's range (0 inside). */
static reach_real outside_range(reach_real angle, const reach_joint *joint) {
    return reach_max(reach_max(joint->min - angle, angle - joint->max), 0);
}

/* A rotation's angle is only known up to whole turns; report it in the joint's range where a
 * turn puts it there (a range such as [0, 3.75] reaches past pi). A value set on an end of its
 * range reads back a rounding or so off it, possibly past it, and past an end beyond pi by a
 * whole turn: within HINGE_END_SLACK it reads as that end, so values read back always lie in
 * their range and set again unclamped. Of the angle and a turn either way, the one nearest the
 * range is taken: in a range a hair short of a whole turn both ends are within the slack of a
 * value read on either, and the turn that landed within it first read the minimum back as the
 * maximum (a rotation up to the hair away). */
static reach_real hinge_angle_in_range(reach_real angle, const reach_joint *joint) {
    reach_real best = angle;
    const reach_real turns[2] = {angle + 2 * REACH_PI, angle - 2 * REACH_PI};
    for (int i = 0; i < 2; ++i) {
        reach_real outside = outside_range(turns[i], joint);
        if (outside <= HINGE_END_SLACK && outside < outside_range(best, joint)) best = turns[i];
    }
    if (best > joint->max && best <= joint->max + HINGE_END_SLACK) return joint->max;
    if (best < joint->min && best >= joint->min - HINGE_END_SLACK) return joint->min;
    return best;
}

int reach_skeleton_value_count(const reach_skeleton *skeleton) {
    int n = 0;
    if (!skeleton->joints) return 0;
    for (int i = 0; i < skeleton->bone_count; ++i)
        n += reach_joint_has_value(skeleton->joints[i].type);
    return n;
}

/* The value of bone i's hinge or prismatic joint in a pose, as it stands. */
static reach_real bone_value(const reach_skeleton *skeleton, const reach_transform *local, int i) {
    const reach_joint *j = &skeleton->joints[i];
    reach_quat rest = skeleton->rest[i].rotation;
    if (j->type == REACH_JOINT_HINGE) {
        /* The twist angle, 2 atan2(v · axis, w) of rest⁻¹ · local, is the same for any positive
         * scale of either rotation: rotations of everyday size need not be made unit first
         * (three roots and fourteen divisions a hinge, most of the read). */
        reach_quat q = local[i].rotation;
        if (!of_everyday_size(rest) || !of_everyday_size(q)) {
            rest = reach_quat_normalize_safe(rest);
            q = reach_quat_normalize_safe(q);
        }
        reach_quat delta = reach_quat_mul(reach_quat_conjugate(rest), q);
        return hinge_angle_in_range(reach__twist_angle(delta, unit_axis_of(j)), j);
    }
    reach_quat rest_inverse = reach_quat_conjugate(reach_quat_normalize_safe(rest));
    reach_vec3 offset = reach_vec3_sub(local[i].translation, skeleton->rest[i].translation);
    return reach_vec3_dot(reach_quat_rotate(rest_inverse, offset), unit_axis_of(j));
}

/* A follower's value from its leader's, before the follower's own limits. */
static reach_real mimic_value(const reach_joint *follower, reach_real leader_value) {
    return follower->mimic_multiplier * leader_value + follower->mimic_offset;
}

/* Where bone's value sits in a joint-value vector. */
static int value_index(const reach_skeleton *skeleton, int bone) {
    int n = 0;
    for (int i = 0; i < bone; ++i)
        n += reach_joint_has_value(skeleton->joints[i].type);
    return n;
}

void reach_pose_get_values(const reach_skeleton *skeleton, const reach_transform *local, reach_real *values) {
    if (!skeleton->joints) return;
    int n = 0;
    for (int i = 0; i < skeleton->bone_count; ++i) {
        const reach_joint *j = &skeleton->joints[i];
        if (!reach_joint_has_value(j->type)) continue;
        if (j->mimic) {
            reach_real lead = bone_value(skeleton, local, j->mimic_leader);
            values[n++] = reach_clamp(mimic_value(j, lead), j->min, j->max);
        } else {
            values[n++] = bone_value(skeleton, local, i);
        }
    }
}

/* Bone i's local transform at value v of its hinge or prismatic joint. */
static void set_bone_value(const reach_skeleton *skeleton, int i, reach_real v, reach_transform *local) {
    const reach_joint *j = &skeleton->joints[i];
    reach_transform rest = skeleton->rest[i];
    if (j->type == REACH_JOINT_HINGE) {
        /* The half angle's cosine and sine as the Jacobian solvers write hinges: polynomials
         * within a turn either way (114 → 93 ns for a Panda's seven). */
        reach_real c, s;
        reach__half_angle_cos_sin(v, &c, &s);
        reach_vec3 axis = unit_axis_of(j);
        reach_quat turn = reach_quat_make(axis.x * s, axis.y * s, axis.z * s, c);
        local[i].rotation = reach_quat_mul(rest.rotation, turn);
        local[i].translation = rest.translation;
    } else {
        local[i].rotation = rest.rotation;
        local[i].translation = reach_vec3_mad(rest.translation, reach_quat_rotate(rest.rotation, unit_axis_of(j)), v);
    }
}

/* The value set_values gives bone i (its entry n): its own, or a follower's derived from its
 * leader's entry; clamped when clamp is nonzero. */
static reach_real value_to_set(const reach_skeleton *skeleton, const reach_real *values, int i, int n, int clamp) {
    const reach_joint *j = &skeleton->joints[i];
    reach_real v = values[n];
    if (j->mimic) {
        const reach_joint *lead = &skeleton->joints[j->mimic_leader];
        reach_real lead_value = values[value_index(skeleton, j->mimic_leader)];
        if (clamp) lead_value = reach_clamp(lead_value, lead->min, lead->max);
        v = mimic_value(j, lead_value);
    }
    /* A product that overflowed is past an end: clamped to it like any other value. */
    return clamp && !isnan(v) ? reach_clamp(v, j->min, j->max) : v;
}

reach_status reach_pose_set_values(const reach_skeleton *skeleton, const reach_real *values, int count, int clamp,
                                   reach_transform *local) {
    REACH_CHECK_ARG(skeleton && local && (count == 0 || values));
    if (count != reach_skeleton_value_count(skeleton)) return REACH_ERROR_INVALID_ARGUMENT;
    /* Check everything before writing anything, so a bad value leaves the pose whole. Leaders
     * first: a follower's derived value is only worth checking once its leader's is good. */
    for (int pass = 0; pass < 2; ++pass) {
        int n = 0;
        for (int i = 0; i < skeleton->bone_count && n < count; ++i) {
            const reach_joint *j = &skeleton->joints[i];
            if (!reach_joint_has_value(j->type)) continue;
            int index = n++;
            if ((j->mimic != 0) != (pass == 1)) continue;
            reach_real v = value_to_set(skeleton, values, i, index, clamp);
            if (!reach_is_finite(v)) return REACH_ERROR_NOT_FINITE;
            if (v < j->min || v > j->max) return REACH_ERROR_INVALID_ARGUMENT;
        }
    }
    int n = 0;
    for (int i = 0; i < skeleton->bone_count && n < count; ++i) {
        if (!reach_joint_has_value(skeleton->joints[i].type)) continue;
        int index = n++;
        set_bone_value(skeleton, i, value_to_set(skeleton, values, i, index, clamp), local);
    }
    return REACH_OK;
}

void reach_pose_apply_mimic(const reach_skeleton *skeleton, reach_transform *local) {
    if (!skeleton->joints) return;
    for (int i = 0; i < skeleton->bone_count; ++i) {
        const reach_joint *j = &skeleton->joints[i];
        if (!j->mimic || !reach_joint_has_value(j->type)) continue;
        reach_real v = mimic_value(j, bone_value(skeleton, local, j->mimic_leader));
        if (!isnan(v)) set_bone_value(skeleton, i, reach_clamp(v, j->min, j->max), local);
    }
}

/* ---- chains ----------------------------------------------------------------------------- */

reach_status reach_chain_find(const reach_skeleton *skeleton, int root_bone, int tip_bone, int *bones, int capacity,
                              int *count) {
    REACH_CHECK_ARG(skeleton && count && capacity >= 0 && (capacity == 0 || bones));
    if (root_bone < 0 || root_bone >= skeleton->bone_count || tip_bone < 0 || tip_bone >= skeleton->bone_count)
        return REACH_ERROR_BAD_CHAIN;
    int length = 1;
    int bone = tip_bone;
    while (bone != root_bone) {
        int parent = skeleton->parents[bone];
        /* Parents precede children, so walking up always ends (a parent that does not is refused,
         * as reach_skeleton_validate refuses it); a root reached first means the tip does not
         * descend from root_bone. */
        if (parent < -1 || parent >= bone) return REACH_ERROR_BAD_PARENT;
        if (parent < 0) return REACH_ERROR_BAD_CHAIN;
        bone = parent;
        ++length;
    }
    if (length > capacity) {
        *count = length;
        return REACH_ERROR_BUFFER_TOO_SMALL;
    }
    bone = tip_bone;
    for (int k = length - 1; k >= 0; --k) {
        bones[k] = bone;
        bone = skeleton->parents[bone];
    }
    *count = length;
    return REACH_OK;
}

static reach_status check_chain_links(const reach_skeleton *skeleton, const int *chain, int count) {
    for (int k = 0; k < count; ++k) {
        if (chain[k] < 0 || chain[k] >= skeleton->bone_count) return REACH_ERROR_BAD_CHAIN;
        int parent = skeleton->parents[chain[k]];
        if (parent < -1 || parent >= chain[k]) return REACH_ERROR_BAD_PARENT;
        if (k > 0 && skeleton->parents[chain[k]] != chain[k - 1]) return REACH_ERROR_BAD_CHAIN;
    }
    return REACH_OK;
}

reach_status reach_chain_apply_positions(const reach_skeleton *skeleton, const int *chain, int count,
                                         const reach_vec3 *positions, reach_transform *local, reach_transform *world) {
    REACH_CHECK_ARG(skeleton && chain && positions && local && world && count >= 1);
    reach_status st = check_chain_links(skeleton, chain, count);
    if (st != REACH_OK) return st;
    for (int k = 0; k < count; ++k)
        if (!reach_vec3_is_finite(positions[k])) return REACH_ERROR_NOT_FINITE;

    int tip = chain[count - 1];
    reach_quat tip_world_rotation = world[tip].rotation;
    for (int k = 0; k + 1 < count; ++k) {
        int bone = chain[k], next = chain[k + 1];
        int parent = skeleton->parents[bone];
        reach_quat parent_rotation = parent < 0 ? reach_quat_identity() : world[parent].rotation;
        /* Swing the bone from where its child joint is now to where the solver put it. */
        reach_vec3 old_dir = reach_quat_rotate(world[bone].rotation, local[next].translation);
        reach_vec3 new_dir = reach_vec3_sub(positions[k + 1], world[bone].translation);
        reach_vec3 from = reach_vec3_normalize_safe(old_dir, reach_vec3_zero());
        reach_vec3 to = reach_vec3_normalize_safe(new_dir, from);
        reach_quat swing = reach_vec3_length_sq(from) > 0 ? reach_quat_shortest_arc(from, to) : reach_quat_identity();
        reach_quat bone_world = reach_quat_normalize_safe(reach_quat_mul(swing, world[bone].rotation));
        local[bone].rotation =
            reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(parent_rotation), bone_world));
        world[bone].rotation = bone_world;
        world[next] = reach_transform_mul(world[bone], local[next]);
    }
    /* The tip keeps its world rotation: its local rotation absorbs what its parents turned. */
    if (count > 1) {
        int parent = skeleton->parents[tip];
        local[tip].rotation =
            reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(world[parent].rotation), tip_world_rotation));
        world[tip].rotation = tip_world_rotation;
    }
    return REACH_OK;
}
