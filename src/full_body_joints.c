/* Natural joint limits per humanoid role, from the rest pose (see include/reach/full_body.h). */
#include "character_internal.h"
#include "internal.h"
#include "reach/full_body.h"

reach_transform reach__bone_world(const reach_skeleton *skeleton, const reach_transform *local, int bone) {
    reach_transform t = local[bone];
    for (int b = skeleton->parents[bone]; b >= 0; b = skeleton->parents[b])
        t = reach_transform_mul(local[b], t);
    return t;
}

static reach_transform rest_world(const reach_skeleton *skeleton, int bone) {
    return reach__bone_world(skeleton, skeleton->rest, bone);
}

static reach_vec3 rest_point(const reach_skeleton *skeleton, int bone) {
    return rest_world(skeleton, bone).translation;
}

/* The role below each role that a bone points to, -1 for none (the bone then points along
 * `fallback_axis`: 0 up, 1 forward). */
static const int role_next[REACH_ROLE_COUNT] = {REACH_ROLE_SPINE,
                                                REACH_ROLE_CHEST,
                                                REACH_ROLE_UPPER_CHEST,
                                                REACH_ROLE_NECK,
                                                REACH_ROLE_HEAD,
                                                -1,
                                                REACH_ROLE_LEFT_UPPER_ARM,
                                                REACH_ROLE_LEFT_LOWER_ARM,
                                                REACH_ROLE_LEFT_HAND,
                                                -1,
                                                REACH_ROLE_RIGHT_UPPER_ARM,
                                                REACH_ROLE_RIGHT_LOWER_ARM,
                                                REACH_ROLE_RIGHT_HAND,
                                                -1,
                                                REACH_ROLE_LEFT_LOWER_LEG,
                                                REACH_ROLE_LEFT_FOOT,
                                                REACH_ROLE_LEFT_TOES,
                                                -1,
                                                REACH_ROLE_RIGHT_LOWER_LEG,
                                                REACH_ROLE_RIGHT_FOOT,
                                                REACH_ROLE_RIGHT_TOES,
                                                -1};

/* Cone half-angle and symmetric twist (rad) per role; a negative cone marks a hinge, whose range
 * is [0, -cone] about the axis that bends the bone forward (elbow) or back (knee). */
typedef struct role_limit {
    reach_real cone, twist;
} role_limit;

static const role_limit role_limits[REACH_ROLE_COUNT] = {
    {0, 0},                         /* hips: free (a ball) */
    {REACH_R(0.35), REACH_R(0.35)}, /* spine */
    {REACH_R(0.35), REACH_R(0.35)}, /* chest */
    {REACH_R(0.35), REACH_R(0.35)}, /* upper chest */
    {REACH_R(0.6), REACH_R(0.7)},   /* neck */
    {REACH_R(0.6), REACH_R(0.7)},   /* head */
    {REACH_R(0.3), REACH_R(0.3)},   /* shoulder (collarbone) */
    {REACH_R(1.75), REACH_R(1.4)},  /* upper arm: wide */
    {REACH_R(-2.6), 0},             /* lower arm: elbow hinge */
    {REACH_R(1.2), REACH_R(1.6)},   /* hand: the forearm's roll lives here */
    {REACH_R(0.3), REACH_R(0.3)},   /* right side */
    {REACH_R(1.75), REACH_R(1.4)},
    {REACH_R(-2.6), 0},
    {REACH_R(1.2), REACH_R(1.6)},
    {REACH_R(1.7), REACH_R(0.7)}, /* upper leg */
    {REACH_R(-2.5), 0},           /* lower leg: knee hinge */
    {REACH_R(0.8), REACH_R(0.5)}, /* foot */
    {REACH_R(0.5), REACH_R(0.2)}, /* toes */
    {REACH_R(1.7), REACH_R(0.7)},
    {REACH_R(-2.5), 0},
    {REACH_R(0.8), REACH_R(0.5)},
    {REACH_R(0.5), REACH_R(0.2)},
};

/* Bones between roles (a CMU hip joint, a second neck bone): a narrow cone. */
#define BETWEEN_CONE REACH_R(0.2)

static int is_knee(int role) { return role == REACH_ROLE_LEFT_LOWER_LEG || role == REACH_ROLE_RIGHT_LOWER_LEG; }

reach_status reach_humanoid_natural_joints(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                           reach_joint *joints) {
    REACH_CHECK_ARG(skeleton && humanoid && joints && skeleton->parents && skeleton->rest);
    if (reach_humanoid_validate(skeleton, humanoid, NULL) != REACH_OK) return REACH_ERROR_BAD_CHAIN;
    const int *bone = humanoid->bones;
    reach_vec3 hips = rest_point(skeleton, bone[REACH_ROLE_HIPS]);
    reach_vec3 up = reach_vec3_normalize_safe(reach_vec3_sub(rest_point(skeleton, bone[REACH_ROLE_HEAD]), hips),
                                              reach_vec3_make(0, 1, 0));
    reach_vec3 left = reach_vec3_sub(rest_point(skeleton, bone[REACH_ROLE_LEFT_UPPER_ARM]),
                                     rest_point(skeleton, bone[REACH_ROLE_RIGHT_UPPER_ARM]));
    left = reach_vec3_normalize_safe(reach_vec3_reject(left, up), reach_vec3_any_perpendicular(up));
    reach_vec3 forward = reach_vec3_cross(left, up);

    /* Bones on the way from the hips to a role first, so that the roles' own limits win. */
    for (int r = 1; r < REACH_ROLE_COUNT; r++) {
        if (bone[r] < 0) continue;
        for (int b = skeleton->parents[bone[r]]; b >= 0 && b != bone[REACH_ROLE_HIPS]; b = skeleton->parents[b]) {
            reach_vec3 d = reach_vec3_sub(rest_point(skeleton, bone[r]), rest_point(skeleton, b));
            reach_quat w = rest_world(skeleton, b).rotation;
            reach_vec3 axis = reach_quat_rotate(reach_quat_conjugate(w), reach_vec3_normalize_safe(d, up));
            joints[b] = reach_joint_cone_twist(axis, BETWEEN_CONE, -BETWEEN_CONE, BETWEEN_CONE);
        }
    }
    for (int r = 0; r < REACH_ROLE_COUNT; r++) {
        int b = bone[r];
        if (b < 0) continue;
        if (r == REACH_ROLE_HIPS) {
            joints[b] = reach_joint_ball();
            continue;
        }
        int next = role_next[r];
        while (next >= 0 && bone[next] < 0)
            next = role_next[next];
        reach_vec3 fallback = (r == REACH_ROLE_HEAD || r == REACH_ROLE_NECK) ? up : forward;
        if (r == REACH_ROLE_LEFT_HAND || r == REACH_ROLE_RIGHT_HAND)
            fallback = reach_vec3_sub(rest_point(skeleton, b), rest_point(skeleton, bone[r - 1]));
        reach_vec3 d = next >= 0 ? reach_vec3_sub(rest_point(skeleton, bone[next]), rest_point(skeleton, b)) : fallback;
        d = reach_vec3_normalize_safe(d, reach_vec3_normalize_safe(fallback, up));
        reach_quat to_bone = reach_quat_conjugate(rest_world(skeleton, b).rotation);
        role_limit limit = role_limits[r];
        if (limit.cone < 0) {
            /* A hinge whose positive angle turns the bone toward forward (elbow) or back (knee). */
            reach_vec3 toward = is_knee(r) ? reach_vec3_neg(forward) : forward;
            reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_cross(d, toward), left);
            joints[b] = reach_joint_hinge(reach_quat_rotate(to_bone, axis), 0, -limit.cone);
        } else {
            joints[b] = reach_joint_cone_twist(reach_quat_rotate(to_bone, d), limit.cone, -limit.twist, limit.twist);
        }
    }
    return REACH_OK;
}
