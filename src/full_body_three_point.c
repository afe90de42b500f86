/* Three-point mode: a head and two hands drive a standing body whose feet keep to the ground and
 * step (see include/reach/full_body.h). The step rules follow the walker's (src/walker_step.c): a
 * foot lifts when it lies too far from its rest place under the body, lands where that place
 * will be half a step later at the present speed, and swings on a sine arc; one foot at a time. */
#include <string.h>

#include "character_internal.h"
#include "internal.h"
#include "settings_internal.h"
#include "reach/full_body.h"

reach_three_point_settings reach_three_point_default_settings(void) {
    reach_three_point_settings s;
    s.ground_height = 0;
    s.step_distance = REACH_R(0.1);
    s.step_turn = REACH_R(0.6);
    s.step_duration = REACH_R(0.3);
    s.step_height = REACH_R(0.05);
    s.body = reach_full_body_default_settings();
    s.made_by_defaults = REACH__SETTINGS_TAG;
    return s;
}

static reach_status check_three_point_settings(const reach_three_point_settings *s) {
    if (s->made_by_defaults != REACH__SETTINGS_TAG || s->body.made_by_defaults != REACH__SETTINGS_TAG)
        return REACH_ERROR_SETTINGS_NOT_INITIALIZED;
    if (!reach_is_finite(s->ground_height) || !reach_is_finite(s->step_distance) || !reach_is_finite(s->step_turn) ||
        !reach_is_finite(s->step_duration) || !reach_is_finite(s->step_height))
        return REACH_ERROR_NOT_FINITE;
    if (!(s->step_distance > 0) || !(s->step_turn > 0) || !(s->step_duration > 0) || !(s->step_height >= 0))
        return REACH_ERROR_INVALID_ARGUMENT;
    return REACH_OK;
}

static const reach_humanoid_role feet[2] = {REACH_ROLE_LEFT_FOOT, REACH_ROLE_RIGHT_FOOT};

/* The turn about +y of a world rotation's image of +z, from the rest's: the foot's heading. */
static reach_real yaw_of(reach_quat rotation, reach_quat rest) {
    reach_vec3 f = reach_quat_rotate(reach_quat_mul(rotation, reach_quat_conjugate(rest)), reach_vec3_make(0, 0, 1));
    return reach_atan2(f.x, f.z);
}

static reach_quat yaw_turn(reach_real yaw) { return reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), yaw); }

static reach_status check_pose_values(const reach_skeleton *skeleton, const reach_transform *pose) {
    for (int b = 0; b < skeleton->bone_count; b++)
        if (!reach_quat_is_finite(pose[b].rotation) || !reach_vec3_is_finite(pose[b].translation))
            return REACH_ERROR_NOT_FINITE;
    return REACH_OK;
}

reach_status reach_three_point_init(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                    const reach_three_point_settings *settings, const reach_transform *pose,
                                    reach_three_point_state *state) {
    REACH_CHECK_ARG(skeleton && humanoid && pose && state);
    reach_three_point_settings s = settings ? *settings : reach_three_point_default_settings();
    reach_status status = check_three_point_settings(&s);
    if (status != REACH_OK) return status;
    if ((status = reach_skeleton_validate(skeleton, NULL)) != REACH_OK) return status;
    if ((status = reach_humanoid_validate(skeleton, humanoid, NULL)) != REACH_OK) return status;
    if ((status = check_pose_values(skeleton, pose)) != REACH_OK) return status;
    reach_three_point_state t;
    memset(&t, 0, sizeof t);
    const int *bone = humanoid->bones;
    reach_real sole = reach__bone_world(skeleton, skeleton->rest, 0).translation.y;
    for (int b = 0; b < skeleton->bone_count; b++)
        sole = reach_min(sole, reach__bone_world(skeleton, skeleton->rest, b).translation.y);
    reach_vec3 hips = reach__bone_world(skeleton, skeleton->rest, bone[REACH_ROLE_HIPS]).translation;
    reach_vec3 head = reach__bone_world(skeleton, skeleton->rest, bone[REACH_ROLE_HEAD]).translation;
    reach_vec3 foot = reach__bone_world(skeleton, skeleton->rest, bone[REACH_ROLE_LEFT_FOOT]).translation;
    t.ankle_height = foot.y - sole;
    t.height = reach_vec3_distance(head, hips) + reach_vec3_distance(foot, hips);
    for (int i = 0; i < 2; i++) {
        reach_transform w = reach__bone_world(skeleton, pose, bone[feet[i]]);
        reach_quat rest = reach__bone_world(skeleton, skeleton->rest, bone[feet[i]]).rotation;
        t.planted[i] = reach_vec3_make(w.translation.x, s.ground_height + t.ankle_height, w.translation.z);
        t.yaw[i] = yaw_of(reach_quat_normalize_safe(w.rotation), rest);
    }
    t.last_head = reach__bone_world(skeleton, pose, bone[REACH_ROLE_HEAD]).translation;
    *state = t;
    return REACH_OK;
}

/* The smallest turn from angle a to angle b, in (-pi, pi]. */
static reach_real angle_difference(reach_real a, reach_real b) {
    return reach_atan2(reach_sin(b - a), reach_cos(b - a));
}

/* Each foot's home: under the head, as the feet stood under it at rest, turned to the heading. */
static void homes(const reach_skeleton *skeleton, const reach_humanoid *h, reach_vec3 head, reach_real yaw,
                  const reach_three_point_state *t, reach_vec3 *home) {
    reach_vec3 rest_head = reach__bone_world(skeleton, skeleton->rest, h->bones[REACH_ROLE_HEAD]).translation;
    for (int i = 0; i < 2; i++) {
        reach_vec3 rest_foot = reach__bone_world(skeleton, skeleton->rest, h->bones[feet[i]]).translation;
        reach_vec3 offset = reach_quat_rotate(yaw_turn(yaw), reach_vec3_sub(rest_foot, rest_head));
        home[i] = reach_vec3_make(head.x + offset.x, 0, head.z + offset.z);
        home[i].y = t->planted[i].y;
    }
}

/* Moves the steps on by dt and lifts a foot that needs to step (one at a time). */
static void step_feet(const reach_three_point_settings *s, const reach_vec3 *home, reach_real heading,
                      reach_vec3 velocity, reach_real dt, reach_three_point_state *t) {
    int stepping = 0;
    for (int i = 0; i < 2; i++) {
        if (t->phase[i] <= 0) continue;
        t->phase[i] += dt / s->step_duration;
        if (t->phase[i] >= 1)
            t->phase[i] = 0;
        else
            stepping = 1;
    }
    if (stepping) return;
    int worst = -1;
    reach_real worst_need = 1;
    for (int i = 0; i < 2; i++) {
        reach_vec3 off = reach_vec3_sub(t->planted[i], home[i]);
        reach_real distance = reach_sqrt(off.x * off.x + off.z * off.z) / (s->step_distance * t->height);
        reach_real turn = reach_fabs(angle_difference(t->yaw[i], heading)) / s->step_turn;
        reach_real need = reach_max(distance, turn);
        if (need > worst_need) {
            worst_need = need;
            worst = i;
        }
    }
    if (worst < 0) return;
    t->lift_from[worst] = t->planted[worst];
    t->lift_yaw[worst] = t->yaw[worst];
    reach_real ahead = s->step_duration;
    t->planted[worst] =
        reach_vec3_make(home[worst].x + velocity.x * ahead, t->planted[worst].y, home[worst].z + velocity.z * ahead);
    t->yaw[worst] = heading;
    t->phase[worst] = reach_min(dt / s->step_duration, REACH_R(0.999));
    t->steps++;
}

/* The feet's weight against the head's and hands' (1): a planted foot is not dragged. */
#define FOOT_WEIGHT 10

/* Where a foot is now: planted, or on its step's arc. */
static reach_body_target foot_target(const reach_three_point_settings *s, const reach_three_point_state *t, int i,
                                     reach_quat rest) {
    reach_body_target target;
    memset(&target, 0, sizeof target);
    target.use_position = target.use_rotation = 1;
    target.weight = FOOT_WEIGHT;
    reach_real p = t->phase[i], yaw = t->yaw[i];
    target.position = t->planted[i];
    if (p > 0) {
        reach_real u = p * p * (3 - 2 * p); /* eased along the ground, a sine arc above it */
        target.position = reach_vec3_lerp(t->lift_from[i], t->planted[i], u);
        target.position.y += s->step_height * t->height * reach_sin(REACH_PI * p);
        yaw = t->lift_yaw[i] + angle_difference(t->lift_yaw[i], t->yaw[i]) * u;
    }
    target.rotation = reach_quat_mul(yaw_turn(yaw), rest);
    return target;
}

static int target_is_finite(const reach_body_target *t) {
    return (!t->use_position || reach_vec3_is_finite(t->position)) &&
           (!t->use_rotation || reach_quat_is_finite(t->rotation)) && (!t->use_hint || reach_vec3_is_finite(t->hint));
}

reach_status reach_three_point_solve(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                     const reach_three_point_settings *settings, const reach_body_target *head,
                                     const reach_body_target *left_hand, const reach_body_target *right_hand,
                                     reach_real dt, reach_three_point_state *state, reach_transform *pose,
                                     void *scratch, size_t scratch_size, reach_full_body_result *result) {
    REACH_CHECK_ARG(skeleton && humanoid && head && left_hand && right_hand && state && pose);
    reach_three_point_settings s = settings ? *settings : reach_three_point_default_settings();
    reach_status status = check_three_point_settings(&s);
    if (status != REACH_OK) return status;
    if (!target_is_finite(head) || !target_is_finite(left_hand) || !target_is_finite(right_hand) ||
        !reach_is_finite(dt))
        return REACH_ERROR_NOT_FINITE;
    if (!head->use_position || !(dt > 0)) return REACH_ERROR_INVALID_ARGUMENT;
    if ((status = reach_skeleton_validate(skeleton, NULL)) != REACH_OK) return status;
    if ((status = reach_humanoid_validate(skeleton, humanoid, NULL)) != REACH_OK) return status;

    reach_three_point_state t = *state;
    reach_real heading = (t.yaw[0] + t.yaw[1]) * REACH_R(0.5);
    if (reach_fabs(angle_difference(t.yaw[0], t.yaw[1])) > REACH_PI / 2) heading = t.yaw[0];
    if (head->use_rotation) {
        reach_vec3 f = reach_quat_rotate(reach_quat_normalize_safe(head->rotation), s.body.head_forward);
        if (f.x * f.x + f.z * f.z > REACH_R(0.01) * reach_vec3_length_sq(f)) heading = reach_atan2(f.x, f.z);
    }
    reach_vec3 velocity = reach_vec3_scale(reach_vec3_sub(head->position, t.last_head), 1 / dt);
    reach_vec3 home[2];
    homes(skeleton, humanoid, head->position, heading, &t, home);
    step_feet(&s, home, heading, velocity, dt, &t);
    t.last_head = head->position;

    reach_full_body_targets targets = reach_full_body_no_targets();
    targets.parts[REACH_BODY_HEAD] = *head;
    targets.parts[REACH_BODY_LEFT_HAND] = *left_hand;
    targets.parts[REACH_BODY_RIGHT_HAND] = *right_hand;
    for (int i = 0; i < 2; i++) {
        reach_quat rest = reach__bone_world(skeleton, skeleton->rest, humanoid->bones[feet[i]]).rotation;
        targets.parts[REACH_BODY_LEFT_FOOT + i] = foot_target(&s, &t, i, rest);
    }
    status = reach_full_body_solve(skeleton, humanoid, &targets, &s.body, pose, scratch, scratch_size, result);
    if (status != REACH_OK) return status;
    *state = t;
    return REACH_OK;
}
