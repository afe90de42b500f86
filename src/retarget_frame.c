/* Retargeting, one frame (see include/reach/retarget.h): rotations carried over in world terms,
 * the hips placed and scaled, planted feet held, then the full-body solve on the target. */
#include <string.h>

#include "character_internal.h"
#include "internal.h"
#include "reach/limits.h"
#include "retarget_internal.h"

/* The elbow or knee a hand's or foot's hint comes from. */
static const int hint_role[REACH_BODY_PART_COUNT] = {-1,
                                                     -1,
                                                     REACH_ROLE_LEFT_LOWER_ARM,
                                                     REACH_ROLE_RIGHT_LOWER_ARM,
                                                     REACH_ROLE_LEFT_LOWER_LEG,
                                                     REACH_ROLE_RIGHT_LOWER_LEG};

/* Weights against the head and hands: the hips and feet carry the body, and a planted foot must not
 * be dragged by a hand out of reach. */
#define SUPPORT_WEIGHT REACH_R(3.0)
#define PLANTED_WEIGHT REACH_R(10.0)
/* The most a limb is asked to stretch, of its length: a straight limb is where the solve's
 * convergence is slowest and its bend direction undefined. */
#define FULL_REACH REACH_R(0.995)

static reach_status check_source_pose(int count, const reach_transform *pose) {
    for (int b = 0; b < count; b++) {
        if (!reach_quat_is_finite(pose[b].rotation) || !reach_vec3_is_finite(pose[b].translation))
            return REACH_ERROR_NOT_FINITE;
        if (!(reach_quat_dot(pose[b].rotation, pose[b].rotation) > 0)) return REACH_ERROR_BAD_QUATERNION;
    }
    return REACH_OK;
}

/* Step 1: each role's bone turns from its aligned rest as the source's turns from its rest, in
 * world terms: W = A · (S · S0⁻¹) · A⁻¹ · align · T0. Bones without a role keep their rest. */
static void carry(reach_retarget *r) {
    const retarget_body *s = &r->source;
    retarget_body *t = &r->target;
    reach_quat inverse_axes = reach_quat_conjugate(r->axes);
    for (int b = 0; b < t->skeleton.bone_count; b++) {
        int parent = t->skeleton.parents[b];
        reach_transform local = t->skeleton.rest[b];
        int role = r->bone_role[b];
        int from = role >= 0 ? s->roles.bones[role] : -1;
        if (from >= 0) {
            reach_quat turn = reach_quat_mul(reach_quat_normalize_safe(s->world[from].rotation),
                                             reach_quat_conjugate(s->rest_world[from].rotation));
            reach_quat world = reach_quat_mul(reach_quat_mul(reach_quat_mul(r->axes, turn), inverse_axes),
                                              reach_quat_mul(r->align[role], t->rest_world[b].rotation));
            reach_quat parent_world = parent >= 0 ? t->world[parent].rotation : reach_quat_identity();
            local.rotation = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(parent_world), world));
        }
        r->carried[b] = local;
        t->world[b] = parent >= 0 ? reach_transform_mul(t->world[parent], local) : local;
    }
}

/* Step 2: the hips' place in the target: the source's height above its standing feet (its foot
 * joints' height when planted) and its travel from its rest place, scaled by the legs. */
static reach_vec3 hips_place(const reach_retarget *r, reach_real source_ground, reach_real source_stand) {
    const retarget_body *s = &r->source, *t = &r->target;
    reach_vec3 hips = s->world[s->roles.bones[REACH_ROLE_HIPS]].translation;
    reach_vec3 travel =
        reach_vec3_reject(reach_vec3_sub(hips, s->rest_world[s->roles.bones[REACH_ROLE_HIPS]].translation), s->up);
    reach_vec3 home = reach_vec3_reject(t->rest_world[t->roles.bones[REACH_ROLE_HIPS]].translation, t->up);
    reach_real target_stand = reach_min(t->foot_rest[0], t->foot_rest[1]);
    reach_real height =
        r->target_ground + target_stand + (reach_vec3_dot(hips, s->up) - source_ground - source_stand) * r->leg_scale;
    return reach_vec3_add(reach_vec3_add(home, reach_vec3_scale(reach_quat_rotate(r->axes, travel), r->leg_scale)),
                          reach_vec3_scale(t->up, height));
}

/* The source's foot joints' lowest height above its ground so far: where they stand when planted
 * (a clip's rest pose may hold its feet pointed, so the rest cannot say). */
static reach_real source_stand(const reach_retarget *r, reach_real source_ground) {
    const retarget_body *s = &r->source;
    reach_real stand = r->frames > 0 ? r->source_stand : REACH_R(1e30);
    for (int side = 0; side < 2; side++) {
        int foot = s->roles.bones[side ? REACH_ROLE_RIGHT_FOOT : REACH_ROLE_LEFT_FOOT];
        stand = reach_min(stand, reach_vec3_dot(s->world[foot].translation, s->up) - source_ground);
    }
    return reach_max(stand, 0);
}

/* Moves the carried pose's roots so that the hips stand at `place`. */
static void shift_body(reach_retarget *r, reach_vec3 place) {
    retarget_body *t = &r->target;
    reach_vec3 shift = reach_vec3_sub(place, t->world[t->roles.bones[REACH_ROLE_HIPS]].translation);
    for (int b = 0; b < t->skeleton.bone_count; b++) {
        if (t->skeleton.parents[b] < 0) r->carried[b].translation = reach_vec3_add(r->carried[b].translation, shift);
        t->world[b].translation = reach_vec3_add(t->world[b].translation, shift);
    }
}

static reach_real lowest_joint(const retarget_body *b) {
    reach_real lowest = reach_vec3_dot(b->world[0].translation, b->up);
    for (int i = 1; i < b->skeleton.bone_count; i++)
        lowest = reach_min(lowest, reach_vec3_dot(b->world[i].translation, b->up));
    return lowest;
}

/* What a frame changes between frames, committed only when the frame succeeds. */
typedef struct contact_state {
    int planted[2];
    reach_vec3 anchor[2], release[2];
    reach_real release_left[2];
} contact_state;

/* The feet's targets under the contacts: a planted source foot holds the target's where it was
 * planted, on the ground; a lifted one fades from its anchor; none goes below its rest height. */
static void place_feet(const reach_retarget *r, reach_real source_ground, reach_real stand, reach_real dt,
                       reach_full_body_targets *targets, contact_state *c) {
    const retarget_body *s = &r->source, *t = &r->target;
    for (int side = 0; side < 2; side++) {
        reach_body_target *foot = &targets->parts[REACH_BODY_LEFT_FOOT + side];
        reach_real floor = r->target_ground + t->foot_rest[side];
        reach_vec3 position = foot->position;
        reach_real below = floor - reach_vec3_dot(position, t->up);
        if (below > 0) position = reach_vec3_add(position, reach_vec3_scale(t->up, below));
        reach_vec3 source_foot =
            s->world[s->roles.bones[reach__body_part_role(REACH_BODY_LEFT_FOOT + side)]].translation;
        reach_real lift = reach_vec3_dot(source_foot, s->up) - source_ground - stand;
        reach_real speed = r->frames > 0 ? reach_vec3_distance(source_foot, r->last_foot[side]) / dt : 0;
        int planted = r->settings.keep_contacts && lift <= r->settings.contact_height * s->leg &&
                      speed <= r->settings.contact_speed * s->leg;
        c->planted[side] = planted;
        c->anchor[side] = r->anchor[side];
        c->release[side] = r->release[side];
        c->release_left[side] = r->release_left[side];
        if (planted) {
            if (!r->planted[side]) {
                /* Landing: where the foot is now (a lifted foot's fading offset kept), on the ground. */
                reach_vec3 at = position;
                if (c->release_left[side] > 0 && r->settings.release_time > 0)
                    at = reach_vec3_add(
                        at, reach_vec3_scale(c->release[side], c->release_left[side] / r->settings.release_time));
                reach_real off = floor - reach_vec3_dot(at, t->up);
                c->anchor[side] = reach_vec3_add(at, reach_vec3_scale(t->up, off));
            }
            c->release_left[side] = 0;
            foot->position = c->anchor[side];
            foot->weight = PLANTED_WEIGHT;
            continue;
        }
        if (r->planted[side]) {
            c->release[side] = reach_vec3_sub(r->anchor[side], position);
            c->release_left[side] = r->settings.release_time;
        }
        if (c->release_left[side] > 0 && r->settings.release_time > 0) {
            position = reach_vec3_add(
                position, reach_vec3_scale(c->release[side], c->release_left[side] / r->settings.release_time));
            below = floor - reach_vec3_dot(position, t->up);
            if (below > 0) position = reach_vec3_add(position, reach_vec3_scale(t->up, below));
            c->release_left[side] = reach_max(c->release_left[side] - dt, 0);
        }
        foot->position = position;
    }
}

/* Step 3's targets: the head and feet where the source's are relative to its hips, scaled by the
 * trunk and the legs; the hands where the source's are relative to its shoulders (upper arm
 * joints), scaled by the arms, from the carried pose's shoulders; rotations and elbow and knee
 * hints from the carried pose. */
static const int shoulder_role[REACH_BODY_PART_COUNT] = {-1, -1, REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_RIGHT_UPPER_ARM,
                                                         -1, -1};

static void make_body_targets(const reach_retarget *r, reach_vec3 hips, reach_full_body_targets *targets) {
    const retarget_body *s = &r->source, *t = &r->target;
    *targets = reach_full_body_no_targets();
    reach_vec3 source_hips = s->world[s->roles.bones[REACH_ROLE_HIPS]].translation;
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++) {
        reach_body_target *target = &targets->parts[p];
        int bone = t->roles.bones[reach__body_part_role(p)];
        int foot = p == REACH_BODY_LEFT_FOOT || p == REACH_BODY_RIGHT_FOOT;
        reach_vec3 from = hips, source_from = source_hips;
        reach_real scale = foot ? r->leg_scale : r->trunk_scale;
        if (shoulder_role[p] >= 0) {
            from = t->world[t->roles.bones[shoulder_role[p]]].translation;
            source_from = s->world[s->roles.bones[shoulder_role[p]]].translation;
            scale = r->arm_scale;
        }
        reach_vec3 relative =
            reach_vec3_sub(s->world[s->roles.bones[reach__body_part_role(p)]].translation, source_from);
        relative = reach_vec3_scale(reach_quat_rotate(r->axes, relative), scale);
        /* An arm stretched further than the target's can reach stops just short of straight. */
        reach_real length = reach_vec3_length(relative);
        if (shoulder_role[p] >= 0 && length > FULL_REACH * t->arm)
            relative = reach_vec3_scale(relative, FULL_REACH * t->arm / length);
        target->use_position = 1;
        target->position = reach_vec3_add(from, relative);
        /* A robot's hands and head have too few joints to take any rotation: placed only. */
        target->use_rotation = !r->robot || p == REACH_BODY_HIPS || foot;
        target->rotation = t->world[bone].rotation;
        target->weight = p == REACH_BODY_HIPS || foot ? SUPPORT_WEIGHT : 1;
        if (hint_role[p] >= 0) {
            target->use_hint = 0;
            target->hint = t->world[t->roles.bones[hint_role[p]]].translation;
        }
    }
}

/* The hips lowered, with everything placed from them (head, hands, the carried pose), as far as
 * the feet's targets need to be within the legs' reach; the feet stay. */
static void lower_to_reach(reach_retarget *r, reach_full_body_targets *targets) {
    retarget_body *t = &r->target;
    reach_real drop = 0;
    for (int side = 0; side < 2; side++) {
        reach_vec3 hip =
            t->world[t->roles.bones[side ? REACH_ROLE_RIGHT_UPPER_LEG : REACH_ROLE_LEFT_UPPER_LEG]].translation;
        reach_vec3 d = reach_vec3_sub(targets->parts[REACH_BODY_LEFT_FOOT + side].position, hip);
        reach_real along = reach_vec3_dot(d, t->up), reach = FULL_REACH * t->leg;
        reach_real across = reach_vec3_length_sq(d) - along * along;
        if (reach_vec3_length_sq(d) <= reach * reach) continue;
        /* (along + drop)² + across = reach², the foot below the hip. */
        reach_real need = across < reach * reach ? -reach_sqrt(reach * reach - across) - along : -along;
        drop = reach_max(drop, need);
    }
    if (!(drop > 0)) return;
    reach_vec3 down = reach_vec3_scale(t->up, -drop);
    for (int p = REACH_BODY_HIPS; p <= REACH_BODY_RIGHT_HAND; p++)
        targets->parts[p].position = reach_vec3_add(targets->parts[p].position, down);
    shift_body(r, targets->parts[REACH_BODY_HIPS].position);
}

/* The solve's start: a character starts from the carried pose; a robot from its last frame eased
 * toward the carried pose brought into its hinges (that pose itself on a clip's first frame), its
 * roots where the carried pose puts them. */
static void start_pose(reach_retarget *r) {
    const reach_skeleton *t = &r->target.skeleton;
    if (!r->robot) {
        memcpy(r->work, r->carried, sizeof(reach_transform) * (size_t)t->bone_count);
        return;
    }
    reach__retarget_project_hinges(r);
    if (r->frames == 0)
        memcpy(r->work, r->projected, sizeof(reach_transform) * (size_t)t->bone_count);
    else
        reach__retarget_hinge_start(r);
}

/* The largest distance of the head, a hand or a foot from its target, of the target's height
 * (r->solve_world holding the answer's world transforms). */
static reach_real key_point_miss(const reach_retarget *r, const reach_full_body_targets *targets) {
    reach_real miss = 0;
    for (int p = REACH_BODY_HEAD; p < REACH_BODY_PART_COUNT; p++) {
        reach_vec3 at = r->solve_world[r->target.roles.bones[reach__body_part_role(p)]].translation;
        miss = reach_max(miss, reach_vec3_distance(at, targets->parts[p].position));
    }
    return r->height > 0 ? miss / r->height : miss;
}

reach_status reach_retarget_frame(reach_retarget *r, const reach_transform *source_pose, reach_real dt,
                                  reach_transform *target_pose, reach_retarget_result *result) {
    REACH_CHECK_ARG(r && source_pose && target_pose);
    reach_status status = check_source_pose(r->source.skeleton.bone_count, source_pose);
    if (status != REACH_OK) return status;
    if (r->frames > 0) {
        if (!reach_is_finite(dt)) return REACH_ERROR_NOT_FINITE;
        if (!(dt > 0)) return REACH_ERROR_INVALID_ARGUMENT;
    }
    reach_forward_kinematics(&r->source.skeleton, source_pose, r->source.world);
    reach_real source_ground =
        r->frames > 0 || r->settings.source_ground_given ? r->source_ground : lowest_joint(&r->source);
    carry(r);
    reach_real stand = source_stand(r, source_ground);
    reach_vec3 hips = hips_place(r, source_ground, stand);
    shift_body(r, hips);
    reach_full_body_targets targets;
    make_body_targets(r, hips, &targets);
    contact_state contacts;
    place_feet(r, source_ground, stand, dt, &targets, &contacts);
    lower_to_reach(r, &targets);
    start_pose(r);
    reach_full_body_result body;
    status = reach__retarget_solve(r, &targets, &body);
    if (status != REACH_OK) return status;
    reach_real miss = key_point_miss(r, &targets);
    if (miss > r->settings.reach_tolerance) {
        /* What the chains alone left beyond tolerance: the whole body, hips and all, from there. */
        int chain_iterations = body.iterations;
        status = reach_full_body_solve(&r->target.skeleton, &r->target.roles, &targets, &r->settings.body, r->work,
                                       r->body_scratch, r->body_scratch_size, &body);
        if (status != REACH_OK) return status;
        body.iterations += chain_iterations;
        reach_forward_kinematics(&r->target.skeleton, r->work, r->solve_world);
        miss = key_point_miss(r, &targets);
    }

    int bones = r->target.skeleton.bone_count;
    memcpy(target_pose, r->work, (size_t)bones * sizeof *target_pose);
    memcpy(r->previous, r->work, (size_t)bones * sizeof *r->previous);
    r->source_ground = source_ground;
    r->source_stand = stand;
    for (int side = 0; side < 2; side++) {
        r->planted[side] = contacts.planted[side];
        r->anchor[side] = contacts.anchor[side];
        r->release[side] = contacts.release[side];
        r->release_left[side] = contacts.release_left[side];
        r->last_foot[side] =
            r->source.world[r->source.roles.bones[reach__body_part_role(REACH_BODY_LEFT_FOOT + side)]].translation;
    }
    r->frames++;
    if (result) {
        result->planted[0] = contacts.planted[0];
        result->planted[1] = contacts.planted[1];
        result->body = body;
        result->key_point_miss = miss;
        result->reached = miss <= r->settings.reach_tolerance;
    }
    return REACH_OK;
}
