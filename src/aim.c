/* Aim one bone: the turn that puts a ray through a point, the roll toward a pole, the blend,
 * and the cone and twist limit (see include/reach/aim.h). */
#include "aim_internal.h"
#include "internal.h"
#include "settings_internal.h"
#include "reach/limits.h"

reach_aim_settings reach_aim_default_settings(void) {
    reach_aim_settings s;
    s.forward = reach_vec3_make(0, 0, 1);
    s.up = reach_vec3_make(0, 1, 0);
    s.offset = reach_vec3_zero();
    s.keep_up = 1;
    s.twist_angle = 0;
    s.weight = 1;
    s.limited = 0;
    s.cone_angle = REACH_PI;
    s.twist_min = -REACH_PI;
    s.twist_max = REACH_PI;
    s.tolerance = REACH_R(1e-4);
    s.made_by_defaults = REACH__SETTINGS_TAG;
    return s;
}

/* Below this sine between up and forward the up axis cannot say which way is up. */
#define AIM_UP_MIN_SINE REACH_R(1e-3)

reach_status reach__aim_check_settings(const reach_aim_settings *s, reach_vec3 *unit_forward, reach_vec3 *unit_up) {
    if (s->made_by_defaults != REACH__SETTINGS_TAG) return REACH_ERROR_SETTINGS_NOT_INITIALIZED;
    if (!reach_vec3_is_finite(s->forward) || !reach_vec3_is_finite(s->up) || !reach_vec3_is_finite(s->offset) ||
        !reach_is_finite(s->twist_angle) || !reach_is_finite(s->weight) || !reach_is_finite(s->cone_angle) ||
        !reach_is_finite(s->twist_min) || !reach_is_finite(s->twist_max) || !reach_is_finite(s->tolerance))
        return REACH_ERROR_NOT_FINITE;
    if (!(s->weight >= 0 && s->weight <= 1) || !(s->tolerance >= 0)) return REACH_ERROR_INVALID_ARGUMENT;
    reach_vec3 zero = reach_vec3_zero();
    reach_vec3 f = reach_vec3_normalize_safe(s->forward, zero);
    if (reach_vec3_length_sq(f) == 0) return REACH_ERROR_INVALID_ARGUMENT;
    reach_vec3 u = reach_vec3_normalize_safe(s->up, zero);
    if (s->keep_up && (reach_vec3_length_sq(u) == 0 || reach_vec3_length(reach_vec3_cross(f, u)) < AIM_UP_MIN_SINE))
        return REACH_ERROR_INVALID_ARGUMENT;
    if (s->limited && (!(s->cone_angle >= 0 && s->cone_angle <= REACH_PI) || !(s->twist_min >= -REACH_PI) ||
                       !(s->twist_min <= s->twist_max) || !(s->twist_max <= REACH_PI)))
        return REACH_ERROR_BAD_JOINT;
    *unit_forward = f;
    *unit_up = u;
    return REACH_OK;
}

/* The point on the local ray offset + s·forward (s > 0) at distance d from the joint; the forward
 * axis itself when the ray never comes that far from the joint going forward. */
static reach_vec3 ray_point_at_distance(reach_vec3 forward, reach_vec3 offset, reach_real d) {
    reach_real along = reach_vec3_dot(offset, forward);
    reach_vec3 across = reach_vec3_reject(offset, forward);
    reach_real disc = d * d - reach_vec3_length_sq(across);
    if (!(disc >= 0)) return forward;
    reach_real s = -along + reach_sqrt(disc);
    if (!(s > 0)) return forward;
    return reach_vec3_mad(offset, forward, s);
}

int reach__aim_turn(reach_quat rotation, reach_vec3 joint, reach_vec3 target, reach_vec3 forward, reach_vec3 offset,
                    reach_vec3 up, reach_quat *out, reach_vec3 *axis) {
    reach_vec3 to_target = reach_vec3_sub(target, joint);
    reach_real d = reach_vec3_length_robust(to_target);
    if (!(d > 0)) {
        *out = rotation;
        *axis = reach_quat_rotate(rotation, forward);
        return 0;
    }
    reach_vec3 goal = reach_vec3_normalize_safe(to_target, forward);
    reach_vec3 local_point = ray_point_at_distance(forward, offset, d);
    reach_vec3 from = reach_vec3_normalize_safe(reach_quat_rotate(rotation, local_point), goal);
    reach_quat turn = reach_quat_shortest_arc(from, goal);
    if (reach_vec3_dot(from, goal) < 0) {
        /* More than a quarter turn: first a quarter turn about from × goal, then the rest. The
         * smallest turn's quaternion has w = 1 + from·goal, which rounding in the unit vectors
         * swamps near a half turn (float: 3e-3 rad off at 179 degrees); the rest is well
         * conditioned. Straight behind, from × goal says nothing: the quarter turn is then about
         * the up axis, as a head turns round rather than over. */
        reach_vec3 about = reach_vec3_cross(from, goal);
        if (reach_vec3_length(about) <= 64 * REACH_REAL_EPSILON) {
            about = reach_vec3_reject(reach_quat_rotate(rotation, up), from);
            about = reach_vec3_normalize_safe(about, reach_vec3_any_perpendicular(from));
        } else {
            about = reach_vec3_normalize_safe(about, reach_vec3_any_perpendicular(from));
        }
        reach_quat quarter = reach_quat_from_axis_angle(about, REACH_PI / 2);
        reach_vec3 mid = reach_vec3_normalize_safe(reach_quat_rotate(quarter, from), goal);
        turn = reach_quat_mul(reach_quat_shortest_arc(mid, goal), quarter);
    }
    *out = reach_quat_normalize_safe(reach_quat_mul(turn, rotation));
    *axis = goal;
    return 1;
}

reach_real reach__aim_roll(reach_quat rotation, reach_vec3 axis, reach_vec3 up, reach_vec3 pole) {
    reach_vec3 u = reach_vec3_reject(reach_quat_rotate(rotation, up), axis);
    reach_vec3 p = reach_vec3_reject(pole, axis);
    reach_real nu = reach_vec3_length(u), np = reach_vec3_length(p);
    /* Either along the aim: the roll is undefined there; keep the smallest turn's. */
    if (!(nu > AIM_UP_MIN_SINE) || !(np > AIM_UP_MIN_SINE * reach_vec3_length(pole))) return 0;
    return reach_atan2(reach_vec3_dot(axis, reach_vec3_cross(u, p)), reach_vec3_dot(u, p));
}

reach_real reach__aim_error(reach_quat rotation, reach_vec3 joint, reach_vec3 target, reach_vec3 forward,
                            reach_vec3 offset) {
    reach_vec3 origin = reach_vec3_add(joint, reach_quat_rotate(rotation, offset));
    reach_vec3 way = reach_vec3_sub(target, origin);
    reach_real scale = reach_vec3_max_abs(way);
    if (!(scale > 0)) return 0;
    way = reach_vec3_scale(way, 1 / scale);
    reach_vec3 f = reach_quat_rotate(rotation, forward);
    return reach_atan2(reach_vec3_length(reach_vec3_cross(f, way)), reach_vec3_dot(f, way));
}

/* The nearest rotation to `rotation` whose turn away from `reference` stays inside the cone about
 * forward and the twist range: the swing's angle clamped (keeping the way it swings, so the
 * forward axis ends on the rim nearest where it pointed) and the twist clamped. */
static int clamp_to_limit(reach_quat rotation, reach_quat reference, reach_vec3 forward, const reach_aim_settings *s,
                          reach_quat *out) {
    reach_quat delta = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(reference), rotation));
    reach_quat swing, twist;
    reach_quat_swing_twist(delta, forward, &swing, &twist);
    if (swing.w < 0) swing = reach_quat_neg(swing);
    int clamped = 0;
    reach_real swing_angle = reach_quat_angle(swing);
    if (swing_angle > s->cone_angle) {
        reach_vec3 about = reach_vec3_normalize_safe(reach_vec3_make(swing.x, swing.y, swing.z),
                                                     reach_vec3_any_perpendicular(forward));
        swing = reach_quat_from_axis_angle(about, s->cone_angle);
        clamped = 1;
    }
    reach_real twist_angle = reach_quat_twist_angle(twist, forward);
    reach_real allowed = reach_angle_clamp(twist_angle, s->twist_min, s->twist_max);
    if (allowed != twist_angle) {
        twist = reach_quat_from_axis_angle(forward, allowed);
        clamped = 1;
    }
    *out = clamped ? reach_quat_normalize_safe(reach_quat_mul(reference, reach_quat_mul(swing, twist))) : rotation;
    return clamped;
}

reach_status reach_aim_solve(const reach_aim_input *in, const reach_aim_settings *settings, reach_aim_output *out) {
    REACH_CHECK_ARG(in && out);
    reach_aim_settings s = settings ? *settings : reach_aim_default_settings();
    reach_vec3 forward, up;
    reach_status status = reach__aim_check_settings(&s, &forward, &up);
    if (status != REACH_OK) return status;
    if (!reach_quat_is_finite(in->joint.rotation) || !reach_vec3_is_finite(in->joint.translation) ||
        !reach_vec3_is_finite(in->target) || !reach_vec3_is_finite(in->pole) || !reach_quat_is_finite(in->reference))
        return REACH_ERROR_NOT_FINITE;
    if (!reach_vec3_is_finite(reach_vec3_sub(in->target, in->joint.translation))) return REACH_ERROR_OUT_OF_RANGE;
    if (reach_quat_dot(in->joint.rotation, in->joint.rotation) == 0 ||
        (s.limited && reach_quat_dot(in->reference, in->reference) == 0))
        return REACH_ERROR_BAD_QUATERNION;
    if (s.keep_up && reach_vec3_max_abs(in->pole) == 0) return REACH_ERROR_INVALID_ARGUMENT;

    reach_quat current = reach_quat_normalize_safe(in->joint.rotation);
    reach_quat aimed;
    reach_vec3 axis;
    if (reach__aim_turn(current, in->joint.translation, in->target, forward, s.offset, up, &aimed, &axis)) {
        reach_real roll = s.keep_up ? reach__aim_roll(aimed, axis, up, in->pole) : 0;
        if (roll + s.twist_angle != 0)
            aimed = reach_quat_normalize_safe(
                reach_quat_mul(reach_quat_from_axis_angle(axis, roll + s.twist_angle), aimed));
    }
    if (s.weight < 1) aimed = reach_quat_normalize_safe(reach_quat_slerp(current, aimed, s.weight));
    int limited = 0;
    if (s.limited) limited = clamp_to_limit(aimed, reach_quat_normalize_safe(in->reference), forward, &s, &aimed);

    out->rotation = aimed;
    out->correction = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(current), aimed));
    out->error = reach__aim_error(aimed, in->joint.translation, in->target, forward, s.offset);
    out->reached = out->error <= s.tolerance;
    out->limited = limited;
    return REACH_OK;
}
