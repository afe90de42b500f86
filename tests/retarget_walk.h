/* A walk written by the tests for retargeting: a humanoid (test_humanoid_rigs.h, standing on y = 0
 * facing +z) walks forward, each foot planted for 60 % of a one-second stride and swung on an arc
 * for the rest, arms hanging and swinging against the legs, hips bobbing and swaying and turning a
 * little, the head nodding. Every frame is a full-body solve (warm started from the last) onto
 * those targets, so the planted feet stay where they are to the solver's tolerance; which foot is
 * planted in which frame is known. */
#ifndef RETARGET_WALK_H
#define RETARGET_WALK_H

#include <math.h>

#include "test_humanoid_rigs.h"

#define WALK_MAX_FRAMES 600
#define WALK_STANCE     REACH_R(0.6)

typedef struct walk_clip {
    int frame_count;
    reach_real frame_rate;
    reach_transform poses[WALK_MAX_FRAMES][PART_COUNT];
    int planted[WALK_MAX_FRAMES][2];
} walk_clip;

static unsigned char walk_scratch[256 * 1024];

/* Where foot `side` is at time t: planted on its step's spot, or on its arc to the next. The
 * left foot's stance starts at phase 0, the right's half a stride later. */
static reach_vec3 walk_foot(reach_real t, int side, reach_real x, reach_real rest_height, reach_real stride,
                            reach_real lift, int *planted) {
    reach_real phase = t + (side ? REACH_R(0.5) : 0);
    reach_real cycles = reach_floor(phase);
    reach_real u = phase - cycles;
    /* Each planting puts the foot half a stride ahead of the hips' mean place at mid-stance. */
    reach_real spot = (cycles + WALK_STANCE / 2 - (side ? REACH_R(0.5) : 0)) * stride;
    reach_vec3 p = reach_vec3_make(x, rest_height, spot);
    *planted = u < WALK_STANCE;
    if (!*planted) {
        reach_real s = (u - WALK_STANCE) / (1 - WALK_STANCE);
        reach_real ease = (1 - reach_cos(REACH_R(3.14159265358979) * s)) / 2;
        p.z = spot + stride * ease;
        p.y = rest_height + lift * reach_sin(REACH_R(3.14159265358979) * s);
    }
    return p;
}

/* The walk of `frames` frames at `rate` frames a second on rig (with its roles), whose joints
 * must hold natural limits (reach_humanoid_natural_joints: knees and elbows bend one way only). */
static void walk_clip_make(const humanoid_rig *rig, const reach_humanoid *roles, int frames, reach_real rate,
                           walk_clip *clip) {
    const reach_skeleton *s = &rig->skeleton;
    reach_transform world[PART_COUNT], pose[PART_COUNT];
    reach_forward_kinematics(s, s->rest, world);
    reach_vec3 hips0 = world[roles->bones[REACH_ROLE_HIPS]].translation;
    reach_real leg = hips0.y;
    reach_real stride = REACH_R(0.9) * leg;
    reach_vec3 foot_rest[2], shoulder[2], head0;
    reach_real arm[2];
    for (int side = 0; side < 2; side++) {
        foot_rest[side] = world[roles->bones[side ? REACH_ROLE_RIGHT_FOOT : REACH_ROLE_LEFT_FOOT]].translation;
        shoulder[side] = world[roles->bones[side ? REACH_ROLE_RIGHT_UPPER_ARM : REACH_ROLE_LEFT_UPPER_ARM]].translation;
        reach_vec3 hand = world[roles->bones[side ? REACH_ROLE_RIGHT_HAND : REACH_ROLE_LEFT_HAND]].translation;
        arm[side] = reach_vec3_distance(hand, shoulder[side]);
    }
    head0 = world[roles->bones[REACH_ROLE_HEAD]].translation;
    reach_pose_rest(s, pose);
    clip->frame_count = frames;
    clip->frame_rate = rate;
    size_t need = reach_full_body_scratch_size(s);
    if (need > sizeof walk_scratch) fail_msg("walk scratch %zu", need);
    for (int f = 0; f < frames; f++) {
        reach_real t = (reach_real)f / rate;
        reach_real swing = reach_sin(2 * REACH_R(3.14159265358979) * t);
        reach_full_body_targets targets = reach_full_body_no_targets();
        reach_vec3 hips = reach_vec3_make(
            REACH_R(0.02) * leg * swing,
            hips0.y * REACH_R(0.96) + REACH_R(0.012) * leg * reach_cos(4 * REACH_R(3.14159265358979) * t), stride * t);
        reach_body_target *h = &targets.parts[REACH_BODY_HIPS];
        h->use_position = h->use_rotation = 1;
        h->position = hips;
        h->rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), REACH_R(0.12) * swing);
        for (int side = 0; side < 2; side++) {
            reach_body_target *foot = &targets.parts[REACH_BODY_LEFT_FOOT + side];
            foot->use_position = foot->use_rotation = 1;
            foot->position = walk_foot(t, side, foot_rest[side].x, foot_rest[side].y, stride, REACH_R(0.1) * leg,
                                       &clip->planted[f][side]);
            foot->rotation = reach_quat_identity();
            reach_body_target *hand = &targets.parts[REACH_BODY_LEFT_HAND + side];
            reach_real sign = side ? -1 : 1;
            hand->use_position = 1;
            hand->position = reach_vec3_add(
                hips, reach_vec3_add(reach_vec3_sub(shoulder[side], hips0),
                                     reach_vec3_make(sign * REACH_R(0.1) * arm[side], -REACH_R(0.9) * arm[side],
                                                     -sign * REACH_R(0.3) * arm[side] * swing)));
        }
        reach_body_target *head = &targets.parts[REACH_BODY_HEAD];
        head->use_position = 1;
        head->position = reach_vec3_add(
            hips, reach_vec3_add(reach_vec3_sub(head0, hips0), reach_vec3_make(0, 0, REACH_R(0.02) * leg * swing)));
        if (reach_full_body_solve(s, roles, &targets, NULL, pose, walk_scratch, need, NULL) != REACH_OK)
            fail_msg("walk frame %d", f);
        memcpy(clip->poses[f], pose, sizeof(reach_transform) * (size_t)s->bone_count);
    }
}

#endif
