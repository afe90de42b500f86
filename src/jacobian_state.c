/* The Jacobian solvers' state: joint values and the pose they generate, kept inside the limits;
 * steps, random restarts and the direction back to the rest pose. */
#include "half_angle.h"
#include "jacobian_problem.h"
#include "limits_internal.h"
#include "quadrant_atan.h"
#include "reach/limits.h"

static reach_quat parent_world_rotation(const jac_problem *p, const jac_state *state, int bone) {
    int parent = p->skeleton->parents[bone];
    return parent < 0 ? reach_quat_identity() : state->world[parent].rotation;
}

/* A hinge or prismatic bone's local transform from its value (the value already within limits). */
static void write_value(const jac_problem *p, int bone, reach_real value, reach_transform *local) {
    const jac_joint *j = &p->joints[bone];
    if (j->joint.type == REACH_JOINT_HINGE) {
        reach_real c, s;
        reach__half_angle_cos_sin(value, &c, &s);
        local[bone].rotation = reach_quat_make(c * j->rest.x + s * j->rest_turn.x, c * j->rest.y + s * j->rest_turn.y,
                                               c * j->rest.z + s * j->rest_turn.z, c * j->rest.w + s * j->rest_turn.w);
    } else {
        local[bone].rotation = j->rest;
        local[bone].translation =
            reach_vec3_mad(p->skeleton->rest[bone].translation, reach_quat_rotate(j->rest, j->axis), value);
    }
}

/* Brings a value into its joint's range and writes the bone; returns nonzero at a limit. A
 * hinge that wraps goes on across the ends of its range (shifted by whole turns, the same
 * rotation); any other value is clamped. */
static int set_value(const jac_problem *p, int bone, reach_real value, jac_state *state) {
    const reach_joint *joint = &p->joints[bone].joint;
    int wrapping = reach__hinge_wraps(joint);
    value = wrapping ? reach_angle_clamp(value, joint->min, joint->max) : reach_clamp(value, joint->min, joint->max);
    state->values[p->first_column[bone]] = value;
    write_value(p, bone, value, state->local);
    return !wrapping && (value <= joint->min || value >= joint->max);
}

/* Every follower of a moving leader from its leader's value, clamped into its own range (which
 * the leader's narrowed range keeps it inside wherever the ranges meet). */
static void write_followers(const jac_problem *p, jac_state *state) {
    for (int k = 0; k < p->follower_count; ++k) {
        int bone = p->followers[k];
        const reach_joint *joint = &p->joints[bone].joint;
        reach_real lead = state->values[p->follower_column[bone]];
        reach_real value = reach_clamp(joint->mimic_multiplier * lead + joint->mimic_offset, joint->min, joint->max);
        write_value(p, bone, value, state->local);
    }
}

/* A ball or cone bone's new local rotation, projected onto a cone's limits; nonzero if clamped. */
static int set_rotation(const jac_problem *p, int bone, reach_quat rotation, jac_state *state) {
    const jac_joint *j = &p->joints[bone];
    /* A product of unit quaternions: renormalise so that rounding does not build up over steps. */
    reach_real k = 1 / reach_sqrt(reach_quat_dot(rotation, rotation));
    rotation = reach_quat_make(rotation.x * k, rotation.y * k, rotation.z * k, rotation.w * k);
    int limited = 0;
    if (j->joint.type == REACH_JOINT_CONE)
        limited = reach_joint_project_rotation(&j->joint, j->rest, rotation, &rotation);
    state->local[bone].rotation = rotation;
    return limited;
}

static void copy_transforms(const reach_transform *from, reach_transform *to, int count) {
    for (int i = 0; i < count; ++i)
        to[i] = from[i];
}

void reach__jac_state_from_pose(const jac_problem *p, const reach_transform *pose, jac_state *state) {
    const reach_skeleton *skeleton = p->skeleton;
    copy_transforms(pose, state->local, skeleton->bone_count);
    state->limited = 0;
    for (int m = 0; m < p->moving_count; ++m) {
        int bone = p->moving[m];
        const jac_joint *j = &p->joints[bone];
        reach_quat local = reach_quat_normalize_safe(pose[bone].rotation);
        if (j->joint.type == REACH_JOINT_HINGE) {
            reach_real angle = reach__twist_angle(reach_quat_mul(reach_quat_conjugate(j->rest), local), j->axis);
            /* Hinge ranges may pass ±π: take the turn of the angle that lies in the range. */
            state->limited |= set_value(p, bone, reach_angle_clamp(angle, j->joint.min, j->joint.max), state);
        } else if (j->joint.type == REACH_JOINT_PRISMATIC) {
            reach_real along =
                reach__prismatic_offset(j->rest, skeleton->rest[bone].translation, j->axis, pose[bone].translation);
            state->limited |= set_value(p, bone, along, state);
        } else {
            state->limited |= set_rotation(p, bone, local, state);
        }
    }
    write_followers(p, state);
    reach__jac_evaluate(p, state);
}

void reach__jac_state_step(const jac_problem *p, const jac_state *from, const reach_real *step, reach_real scale,
                           jac_state *to) {
    const reach_skeleton *skeleton = p->skeleton;
    copy_transforms(from->local, to->local, skeleton->bone_count);
    to->limited = 0;
    for (int m = 0; m < p->moving_count; ++m) {
        int bone = p->moving[m];
        int c = p->first_column[bone];
        reach_joint_type type = p->joints[bone].joint.type;
        if (type == REACH_JOINT_HINGE) {
            to->limited |= set_value(p, bone, from->values[c] + scale * step[c], to);
        } else if (type == REACH_JOINT_PRISMATIC) {
            to->limited |= set_value(p, bone, from->values[c] + scale * step[c] * p->length, to);
        } else {
            /* Columns turn about world axes: local' = exp(R_parentᵀ ω) · local. */
            reach_vec3 omega = reach_vec3_make(step[c], step[c + 1], step[c + 2]);
            omega = reach_quat_rotate(reach_quat_conjugate(parent_world_rotation(p, from, bone)),
                                      reach_vec3_scale(omega, scale));
            reach_real angle = reach_vec3_length(omega);
            reach_quat turn = angle > 0 ? reach_quat_from_axis_angle(reach_vec3_scale(omega, 1 / angle), angle)
                                        : reach_quat_identity();
            to->limited |= set_rotation(p, bone, reach_quat_mul(turn, from->local[bone].rotation), to);
        }
    }
    write_followers(p, to);
    reach__jac_evaluate(p, to);
}

/* splitmix64: tiny, and the same sequence everywhere. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1]. */
static reach_real random_unit(uint64_t *state) {
    return (reach_real)((double)(next_random(state) >> 11) * (1.0 / 9007199254740992.0));
}

/* A uniformly distributed rotation (Shoemake's subgroup algorithm). */
static reach_quat random_rotation(uint64_t *state) {
    reach_real u1 = random_unit(state), u2 = random_unit(state), u3 = random_unit(state);
    reach_real a = reach_sqrt(1 - u1), b = reach_sqrt(u1);
    reach_real t2 = 2 * REACH_PI * u2, t3 = 2 * REACH_PI * u3;
    return reach_quat_make(a * reach_sin(t2), a * reach_cos(t2), b * reach_sin(t3), b * reach_cos(t3));
}

void reach__jac_state_randomise(const jac_problem *p, uint64_t *rng, jac_state *state) {
    state->limited = 0;
    for (int m = 0; m < p->moving_count; ++m) {
        int bone = p->moving[m];
        const jac_joint *j = &p->joints[bone];
        if (reach_joint_has_value(j->joint.type)) {
            reach_real value = j->joint.min + (j->joint.max - j->joint.min) * random_unit(rng);
            state->limited |= set_value(p, bone, value, state);
        } else {
            state->limited |= set_rotation(p, bone, reach_quat_mul(j->rest, random_rotation(rng)), state);
        }
    }
    write_followers(p, state);
    reach__jac_evaluate(p, state);
}

void reach__jac_state_kick(const jac_problem *p, const jac_state *from, reach_vec3 line, reach_real *step,
                           jac_state *to) {
    /* As FABRIK's kick: 1.5 rad in all, at most 0.3 a bone, all about one axis across the line. */
    reach_real angle = reach_min(REACH_R(0.3), REACH_R(1.5) / (reach_real)p->moving_count);
    reach_vec3 axis = reach_vec3_scale(
        reach_vec3_any_perpendicular(reach_vec3_normalize_safe(line, reach_vec3_make(0, 1, 0))), angle);
    for (int m = 0; m < p->moving_count; ++m) {
        int bone = p->moving[m];
        int c = p->first_column[bone];
        reach_joint_type type = p->joints[bone].joint.type;
        if (type == REACH_JOINT_HINGE) {
            /* Toward the end of the range with more room: a straight one-sided knee bends the
             * way it can. */
            const reach_joint *joint = &p->joints[bone].joint;
            step[c] = joint->max - from->values[c] >= from->values[c] - joint->min ? angle : -angle;
        } else if (type == REACH_JOINT_PRISMATIC) {
            step[c] = 0;
        } else {
            step[c] = axis.x;
            step[c + 1] = axis.y;
            step[c + 2] = axis.z;
        }
    }
    reach__jac_state_step(p, from, step, 1, to);
}

void reach__jac_state_copy(const jac_problem *p, const jac_state *from, jac_state *to) {
    copy_transforms(from->local, to->local, p->skeleton->bone_count);
    copy_transforms(from->world, to->world, p->skeleton->bone_count);
    for (int c = 0; c < p->columns; ++c)
        to->values[c] = from->values[c];
    for (int r = 0; r < p->rows; ++r)
        to->error[r] = from->error[r];
    to->error_sq = from->error_sq;
    to->residual = from->residual;
    to->angle_residual = from->angle_residual;
    to->reached = from->reached;
    to->limited = from->limited;
}

void reach__jac_cone_gauge(const jac_problem *p, const jac_state *state, int bone, jac_cone_gauge *gauge) {
    reach_vec3 axis = p->joints[bone].axis;
    reach_quat rest = p->joints[bone].rest;
    reach_vec3 centre = reach_quat_rotate(reach_quat_mul(parent_world_rotation(p, state, bone), rest), axis);
    reach_vec3 pointing = reach_quat_rotate(state->world[bone].rotation, axis);
    /* A turn ω moves the bone's axis b by ω × b, so c·b falls (the swing widens) at the rate
     * ω·(c × b). */
    reach_vec3 across = reach_vec3_cross(centre, pointing);
    reach_real sine = reach_vec3_length(across);
    gauge->swing = reach_atan2(sine, reach_vec3_dot(centre, pointing));
    gauge->widening = sine > 0 ? reach_vec3_scale(across, 1 / sine) : reach_vec3_zero();
    reach_quat delta =
        reach_quat_mul(reach_quat_conjugate(rest), reach_quat_normalize_safe(state->local[bone].rotation));
    reach_quat twist;
    reach_quat_swing_twist(delta, axis, NULL, &twist);
    /* delta = swing · twist, so a world turn ε b = W ε a multiplies twist by exp(ε a). */
    gauge->twist = reach_quat_twist_angle(twist, axis);
    gauge->twist_axis = pointing;
}

/* Where a hinge or prismatic joint relaxes to: its rest value 0, kept a tenth of the range away
 * from either limit so that relaxing never parks it on one. */
static reach_real relaxed_value(const reach_joint *joint) {
    reach_real margin = REACH_R(0.1) * (joint->max - joint->min);
    return reach_clamp(0, joint->min + margin, joint->max - margin);
}

/* The change that takes a joint's value to where it relaxes: for a hinge that wraps, the shorter
 * way round to its rest angle, which no limit stands in. */
static reach_real relaxing_change(const reach_joint *joint, reach_real value) {
    return reach__hinge_wraps(joint) ? reach__wrap_angle(-value) : relaxed_value(joint) - value;
}

void reach__jac_rest_direction(const jac_problem *p, const jac_state *state, reach_real *direction) {
    for (int m = 0; m < p->moving_count; ++m) {
        int bone = p->moving[m];
        int c = p->first_column[bone];
        const jac_joint *j = &p->joints[bone];
        if (reach_joint_has_value(j->joint.type)) {
            reach_real change = relaxing_change(&j->joint, state->values[c]);
            direction[c] = j->joint.type == REACH_JOINT_PRISMATIC ? change / p->length : change;
        } else {
            /* The world rotation vector that turns the bone back to rest: log(rest · local⁻¹),
             * taken from the parent's frame to the world's. */
            reach_quat back = reach_quat_mul(j->rest, reach_quat_conjugate(state->local[bone].rotation));
            reach_vec3 omega =
                reach_quat_rotate(parent_world_rotation(p, state, bone), reach__jac_rotation_vector(back));
            direction[c] = omega.x;
            direction[c + 1] = omega.y;
            direction[c + 2] = omega.z;
        }
    }
}
