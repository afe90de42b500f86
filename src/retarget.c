/* Retargeting's setup: settings, memory, the measures and rest alignment of both skeletons (see
 * include/reach/retarget.h). The per-frame work is in retarget_frame.c. */
#include <string.h>

#include "arena.h"
#include "reach/jacobian.h"
#include "internal.h"
#include "retarget_internal.h"
#include "settings_internal.h"

reach_retarget_settings reach_retarget_default_settings(void) {
    reach_retarget_settings s;
    memset(&s, 0, sizeof s);
    s.source_up = s.target_up = reach_vec3_make(0, 1, 0);
    s.source_forward = s.target_forward = reach_vec3_make(0, 0, 1);
    s.contact_height = REACH_R(0.06);
    s.contact_speed = REACH_R(0.4);
    s.release_time = REACH_R(0.15);
    s.keep_contacts = 1;
    s.reach_tolerance = REACH_R(0.01);
    s.body = reach_full_body_default_settings();
    /* Half a millimetre on a human: a planted foot's joint then moves under 0.1 % of its leg a
     * frame, and a solve takes a fifth of the iterations the full-body default's tenth of that asks. */
    s.body.tolerance = REACH_R(5e-4);
    s.made_by_defaults = REACH__SETTINGS_TAG;
    return s;
}

size_t reach__retarget_lay_out(const reach_skeleton *source, const reach_skeleton *target, void *memory,
                               reach_retarget **out) {
    reach__arena arena = reach__arena_make(memory);
    size_t ns = (size_t)source->bone_count, nt = (size_t)target->bone_count;
    reach_retarget *r = (reach_retarget *)reach__arena_take(&arena, 1, sizeof(reach_retarget));
    reach_transform *source_arrays = (reach_transform *)reach__arena_take(&arena, 2 * ns, sizeof(reach_transform));
    reach_transform *target_arrays = (reach_transform *)reach__arena_take(&arena, 8 * nt, sizeof(reach_transform));
    int values = reach_skeleton_value_count(target);
    reach_real *value_arrays = (reach_real *)reach__arena_take(&arena, 2 * (size_t)values, sizeof(reach_real));
    reach_joint *joints = (reach_joint *)reach__arena_take(&arena, nt, sizeof(reach_joint));
    int *bone_roles = (int *)reach__arena_take(&arena, nt, sizeof(int));
    size_t body_size = reach_full_body_scratch_size(target);
    void *body = reach__arena_take(&arena, body_size, 1);
    /* Sized for the skeleton's shape alone: the solved skeleton's joints (a fixed root made free) are
     * not known yet. */
    reach_skeleton shape = {target->bone_count, NULL, NULL, NULL};
    size_t chain_size = reach_jacobian_scratch_size(&shape, 1);
    void *chain = reach__arena_take(&arena, chain_size, 1);
    if (memory) {
        memset(r, 0, sizeof *r);
        r->source.rest_world = source_arrays;
        r->source.world = source_arrays + ns;
        r->target.rest_world = target_arrays;
        r->target.world = target_arrays + nt;
        r->carried = target_arrays + 2 * nt;
        r->previous = target_arrays + 3 * nt;
        r->work = target_arrays + 4 * nt;
        r->projected = target_arrays + 5 * nt;
        r->projected_world = target_arrays + 6 * nt;
        r->solve_world = target_arrays + 7 * nt;
        r->value_count = values;
        r->values_last = value_arrays;
        r->values_carried = value_arrays + values;
        r->joints = joints;
        r->bone_role = bone_roles;
        r->body_scratch = body;
        r->body_scratch_size = body_size;
        r->chain_scratch = chain;
        r->chain_scratch_size = chain_size;
        *out = r;
    }
    return reach__arena_need(&arena);
}

size_t reach_retarget_memory_size(const reach_skeleton *source, const reach_skeleton *target) {
    if (!source || !target || source->bone_count < 0 || target->bone_count < 0) return 0;
    return reach__retarget_lay_out(source, target, NULL, NULL);
}

static reach_status check_retarget_settings(const reach_retarget_settings *s) {
    if (s->made_by_defaults != REACH__SETTINGS_TAG || s->body.made_by_defaults != REACH__SETTINGS_TAG)
        return REACH_ERROR_SETTINGS_NOT_INITIALIZED;
    if (!reach_vec3_is_finite(s->source_up) || !reach_vec3_is_finite(s->source_forward) ||
        !reach_vec3_is_finite(s->target_up) || !reach_vec3_is_finite(s->target_forward) ||
        !reach_is_finite(s->contact_height) || !reach_is_finite(s->contact_speed) ||
        !reach_is_finite(s->release_time) || !reach_is_finite(s->source_ground) || !reach_is_finite(s->reach_tolerance))
        return REACH_ERROR_NOT_FINITE;
    if (!(s->contact_height >= 0) || !(s->contact_speed >= 0) || !(s->release_time >= 0) || !(s->reach_tolerance >= 0))
        return REACH_ERROR_INVALID_ARGUMENT;
    /* Up and forward must span a plane. */
    if (reach_vec3_length(reach_vec3_cross(s->source_up, s->source_forward)) <= 0 ||
        reach_vec3_length(reach_vec3_cross(s->target_up, s->target_forward)) <= 0)
        return REACH_ERROR_INVALID_ARGUMENT;
    return REACH_OK;
}

/* The rotation taking canonical x, y, z to a body's left, up and forward (left = up × forward). */
static reach_quat body_frame(reach_vec3 up, reach_vec3 forward) {
    reach_vec3 u = reach_vec3_normalize_safe(up, reach_vec3_make(0, 1, 0));
    reach_vec3 f = reach_vec3_normalize_safe(reach_vec3_reject(forward, u), reach_vec3_any_perpendicular(u));
    reach_mat3 m;
    m.col[0] = reach_vec3_cross(u, f);
    m.col[1] = u;
    m.col[2] = f;
    return reach_quat_from_mat3(m);
}

static reach_vec3 role_rest_point(const retarget_body *b, int role) {
    return b->rest_world[b->roles.bones[role]].translation;
}

static reach_real limb_length(const retarget_body *b, int upper, int lower, int foot) {
    return reach_vec3_distance(role_rest_point(b, upper), role_rest_point(b, lower)) +
           reach_vec3_distance(role_rest_point(b, lower), role_rest_point(b, foot));
}

/* A body's measures from its rest pose; returns the lowest joint's height along up. */
static reach_real measure(retarget_body *b) {
    reach_forward_kinematics(&b->skeleton, b->skeleton.rest, b->rest_world);
    b->leg = (limb_length(b, REACH_ROLE_LEFT_UPPER_LEG, REACH_ROLE_LEFT_LOWER_LEG, REACH_ROLE_LEFT_FOOT) +
              limb_length(b, REACH_ROLE_RIGHT_UPPER_LEG, REACH_ROLE_RIGHT_LOWER_LEG, REACH_ROLE_RIGHT_FOOT)) /
             2;
    b->arm = (limb_length(b, REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_LEFT_LOWER_ARM, REACH_ROLE_LEFT_HAND) +
              limb_length(b, REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_LOWER_ARM, REACH_ROLE_RIGHT_HAND)) /
             2;
    b->trunk = reach_vec3_distance(role_rest_point(b, REACH_ROLE_HIPS), role_rest_point(b, REACH_ROLE_HEAD));
    reach_real lowest = reach_vec3_dot(b->rest_world[0].translation, b->up);
    for (int i = 1; i < b->skeleton.bone_count; i++)
        lowest = reach_min(lowest, reach_vec3_dot(b->rest_world[i].translation, b->up));
    b->foot_rest[0] = reach_vec3_dot(role_rest_point(b, REACH_ROLE_LEFT_FOOT), b->up) - lowest;
    b->foot_rest[1] = reach_vec3_dot(role_rest_point(b, REACH_ROLE_RIGHT_FOOT), b->up) - lowest;
    return lowest;
}

/* The point a role's bone points at, at rest: the joint of the next role down its chain, else its
 * first child's joint; *found 0 when there is none (an end bone without children). */
static const int next_roles[REACH_ROLE_COUNT][4] = {
    [REACH_ROLE_SPINE] = {REACH_ROLE_CHEST, REACH_ROLE_UPPER_CHEST, REACH_ROLE_NECK, REACH_ROLE_HEAD},
    [REACH_ROLE_CHEST] = {REACH_ROLE_UPPER_CHEST, REACH_ROLE_NECK, REACH_ROLE_HEAD, -1},
    [REACH_ROLE_UPPER_CHEST] = {REACH_ROLE_NECK, REACH_ROLE_HEAD, -1, -1},
    [REACH_ROLE_NECK] = {REACH_ROLE_HEAD, -1, -1, -1},
    [REACH_ROLE_LEFT_SHOULDER] = {REACH_ROLE_LEFT_UPPER_ARM, -1, -1, -1},
    [REACH_ROLE_LEFT_UPPER_ARM] = {REACH_ROLE_LEFT_LOWER_ARM, -1, -1, -1},
    [REACH_ROLE_LEFT_LOWER_ARM] = {REACH_ROLE_LEFT_HAND, -1, -1, -1},
    [REACH_ROLE_RIGHT_SHOULDER] = {REACH_ROLE_RIGHT_UPPER_ARM, -1, -1, -1},
    [REACH_ROLE_RIGHT_UPPER_ARM] = {REACH_ROLE_RIGHT_LOWER_ARM, -1, -1, -1},
    [REACH_ROLE_RIGHT_LOWER_ARM] = {REACH_ROLE_RIGHT_HAND, -1, -1, -1},
    [REACH_ROLE_LEFT_UPPER_LEG] = {REACH_ROLE_LEFT_LOWER_LEG, -1, -1, -1},
    [REACH_ROLE_LEFT_LOWER_LEG] = {REACH_ROLE_LEFT_FOOT, -1, -1, -1},
    [REACH_ROLE_LEFT_FOOT] = {REACH_ROLE_LEFT_TOES, -1, -1, -1},
    [REACH_ROLE_RIGHT_UPPER_LEG] = {REACH_ROLE_RIGHT_LOWER_LEG, -1, -1, -1},
    [REACH_ROLE_RIGHT_LOWER_LEG] = {REACH_ROLE_RIGHT_FOOT, -1, -1, -1},
    [REACH_ROLE_RIGHT_FOOT] = {REACH_ROLE_RIGHT_TOES, -1, -1, -1},
};

static reach_vec3 rest_direction(const retarget_body *b, int role) {
    int bone = b->roles.bones[role];
    reach_vec3 from = b->rest_world[bone].translation;
    int to = -1;
    for (int k = 0; k < 4 && to < 0; k++) {
        int next = next_roles[role][k];
        if (next > 0 && b->roles.bones[next] >= 0) to = b->roles.bones[next];
    }
    for (int c = bone + 1; c < b->skeleton.bone_count && to < 0; c++)
        if (b->skeleton.parents[c] == bone) to = c;
    if (to < 0) return reach_vec3_zero();
    return reach_vec3_normalize_safe(reach_vec3_sub(b->rest_world[to].translation, from), reach_vec3_zero());
}

/* The hips' frame at rest: left from the right hip joint to the left, up toward the head. */
static reach_quat hips_frame(const retarget_body *b) {
    reach_vec3 left =
        reach_vec3_sub(role_rest_point(b, REACH_ROLE_LEFT_UPPER_LEG), role_rest_point(b, REACH_ROLE_RIGHT_UPPER_LEG));
    reach_vec3 up = reach_vec3_sub(role_rest_point(b, REACH_ROLE_HEAD), role_rest_point(b, REACH_ROLE_HIPS));
    reach_vec3 l = reach_vec3_normalize_safe(left, reach_vec3_make(1, 0, 0));
    reach_mat3 m;
    m.col[0] = l;
    m.col[1] = reach_vec3_normalize_safe(reach_vec3_reject(up, l), reach_vec3_any_perpendicular(l));
    m.col[2] = reach_vec3_cross(m.col[0], m.col[1]);
    return reach_quat_from_mat3(m);
}

static void align_rest(reach_retarget *r) {
    for (int role = 0; role < REACH_ROLE_COUNT; role++) {
        r->align[role] = reach_quat_identity();
        if (r->source.roles.bones[role] < 0 || r->target.roles.bones[role] < 0) continue;
        if (role == REACH_ROLE_HIPS) {
            r->align[role] = reach_quat_normalize_safe(reach_quat_mul(reach_quat_mul(r->axes, hips_frame(&r->source)),
                                                                      reach_quat_conjugate(hips_frame(&r->target))));
            continue;
        }
        reach_vec3 from = rest_direction(&r->target, role);
        reach_vec3 to = reach_quat_rotate(r->axes, rest_direction(&r->source, role));
        if (role == REACH_ROLE_LEFT_FOOT || role == REACH_ROLE_RIGHT_FOOT) {
            /* A foot points ahead along the ground, whatever its child: a toe or a sole link below. */
            from = reach_vec3_normalize_safe(reach_vec3_reject(from, r->target.up), reach_vec3_zero());
            to = reach_vec3_normalize_safe(reach_vec3_reject(to, r->target.up), reach_vec3_zero());
        }
        if (reach_vec3_length_sq(from) > 0 && reach_vec3_length_sq(to) > 0)
            r->align[role] = reach_quat_shortest_arc(from, to);
    }
}

int reach__retarget_role_of(const reach_humanoid *roles, int bone) {
    for (int role = 0; role < REACH_ROLE_COUNT; role++)
        if (roles->bones[role] == bone) return role;
    return -1;
}

static int has_hinges(const reach_skeleton *s) {
    for (int b = 0; b < s->bone_count; b++)
        if (reach_skeleton_joint(s, b).type == REACH_JOINT_HINGE) return 1;
    return 0;
}

/* Every joint a free ball (or fixed: BVH end sites): a skeleton that says nothing of limits. */
static int all_balls(const reach_skeleton *s) {
    for (int b = 0; b < s->bone_count; b++) {
        reach_joint_type type = reach_skeleton_joint(s, b).type;
        if (type != REACH_JOINT_BALL && type != REACH_JOINT_FIXED) return 0;
    }
    return 1;
}

static reach_status check_roles(const reach_skeleton *skeleton, const reach_humanoid *roles, int side, int *bad_role,
                                int *bad_side) {
    int role = -1;
    reach_status status = reach_humanoid_validate(skeleton, roles, &role);
    if (status != REACH_OK) {
        if (bad_role) *bad_role = role;
        if (bad_side) *bad_side = side;
    }
    return status;
}

reach_status reach_retarget_init(const reach_skeleton *source, const reach_humanoid *source_roles,
                                 const reach_skeleton *target, const reach_humanoid *target_roles,
                                 const reach_retarget_settings *settings, void *memory, size_t memory_size,
                                 reach_retarget **out, int *bad_role, int *bad_side) {
    if (bad_role) *bad_role = -1;
    if (bad_side) *bad_side = -1;
    REACH_CHECK_ARG(source && source_roles && target && target_roles && memory && out);
    reach_retarget_settings s = settings ? *settings : reach_retarget_default_settings();
    reach_status status = check_retarget_settings(&s);
    if (status != REACH_OK) return status;
    if ((status = reach_skeleton_validate(source, NULL)) != REACH_OK) {
        if (bad_side) *bad_side = 0;
        return status;
    }
    if ((status = reach_skeleton_validate(target, NULL)) != REACH_OK) {
        if (bad_side) *bad_side = 1;
        return status;
    }
    if ((status = check_roles(source, source_roles, 0, bad_role, bad_side)) != REACH_OK) return status;
    if ((status = check_roles(target, target_roles, 1, bad_role, bad_side)) != REACH_OK) return status;
    if (memory_size < reach_retarget_memory_size(source, target)) return REACH_ERROR_BUFFER_TOO_SMALL;

    reach_retarget *r;
    reach__retarget_lay_out(source, target, memory, &r);
    r->settings = s;
    r->source.skeleton = *source;
    r->source.roles = *source_roles;
    r->source.up = reach_vec3_normalize_safe(s.source_up, reach_vec3_make(0, 1, 0));
    r->target.roles = *target_roles;
    r->target.up = reach_vec3_normalize_safe(s.target_up, reach_vec3_make(0, 1, 0));
    /* A fixed root is the robot's base: free here, so the body can move and turn as the source's. */
    for (int b = 0; b < target->bone_count; b++) {
        r->joints[b] = reach_skeleton_joint(target, b);
        if (target->parents[b] < 0 && r->joints[b].type == REACH_JOINT_FIXED) r->joints[b] = reach_joint_ball();
    }
    r->target.skeleton = *target;
    for (int b = 0; b < target->bone_count; b++)
        r->bone_role[b] = reach__retarget_role_of(target_roles, b);
    r->target.skeleton.joints = r->joints;
    r->robot = has_hinges(target);
    /* A character with ball joints only (as BVH and glTF give) gets natural limits: a knee or an
     * elbow free to twist about its bone turns the foot or hand away and back between frames. */
    if (all_balls(target)) reach_humanoid_natural_joints(target, target_roles, r->joints);
    r->axes = reach_quat_normalize_safe(reach_quat_mul(
        body_frame(s.target_up, s.target_forward), reach_quat_conjugate(body_frame(s.source_up, s.source_forward))));
    measure(&r->source);
    r->target_ground = measure(&r->target);
    r->source_ground = s.source_ground;
    r->leg_scale = r->source.leg > 0 ? r->target.leg / r->source.leg : 1;
    r->trunk_scale = r->source.trunk > 0 ? r->target.trunk / r->source.trunk : r->leg_scale;
    r->arm_scale = r->source.arm > 0 ? r->target.arm / r->source.arm : r->leg_scale;
    align_rest(r);
    reach__retarget_find_chains(r);
    /* The full-body solve's measure of the body, which its tolerance is a ratio of. */
    r->height = r->target.trunk + reach_vec3_distance(role_rest_point(&r->target, REACH_ROLE_HIPS),
                                                      role_rest_point(&r->target, REACH_ROLE_LEFT_FOOT));
    reach_retarget_restart(r);
    *out = r;
    return REACH_OK;
}

void reach_retarget_restart(reach_retarget *r) {
    if (!r) return;
    r->frames = 0;
    for (int side = 0; side < 2; side++) {
        r->planted[side] = 0;
        r->release_left[side] = 0;
        r->anchor[side] = r->release[side] = r->last_foot[side] = reach_vec3_zero();
    }
    if (!r->settings.source_ground_given) r->source_ground = 0;
}

const reach_skeleton *reach_retarget_target_skeleton(const reach_retarget *r) { return r ? &r->target.skeleton : NULL; }

void reach_retarget_measures(const reach_retarget *r, reach_real *leg_scale, reach_real *source_ground,
                             reach_real *target_ground) {
    if (!r) return;
    if (leg_scale) *leg_scale = r->leg_scale;
    if (source_ground) *source_ground = r->source_ground;
    if (target_ground) *target_ground = r->target_ground;
}
