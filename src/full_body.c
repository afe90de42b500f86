/* Full-body humanoid IK (see include/reach/full_body.h): the skeleton is set below three
 * prismatic bones (x, y, z) so that the hips' translation is three more unknowns, and the
 * Jacobian (damped least squares with joint limits and the null space pulled toward the rest
 * pose) solves every target at once; elbow and knee hints then turn each limb about the line
 * from its root to its end, and a look-at aims the head. Why the Jacobian: docs/character.md. */
#include <string.h>

#include "arena.h"
#include "character_internal.h"
#include "internal.h"
#include "settings_internal.h"
#include "reach/aim.h"
#include "reach/full_body.h"
#include "reach/jacobian.h"
#include "reach/limits.h"

/* The three prismatic bones that carry the hips' translation. */
#define SLIDES 3
/* Their range, in heights: far more than any pose asks, small enough that the Jacobian's length
 * scale (which counts the ranges) stays near the body's. */
#define SLIDE_RANGE REACH_R(2.0)

reach_full_body_targets reach_full_body_no_targets(void) {
    reach_full_body_targets t;
    memset(&t, 0, sizeof t);
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++)
        t.parts[p].rotation = reach_quat_identity();
    return t;
}

reach_full_body_settings reach_full_body_default_settings(void) {
    reach_full_body_settings s;
    s.head_forward = reach_vec3_make(0, 0, 1);
    s.head_up = reach_vec3_make(0, 1, 0);
    s.max_iterations = 64;
    s.tolerance = REACH_R(1e-4);
    s.angle_tolerance = REACH_R(1e-3);
    s.made_by_defaults = REACH__SETTINGS_TAG;
    return s;
}

static const int part_role[REACH_BODY_PART_COUNT] = {REACH_ROLE_HIPS,      REACH_ROLE_HEAD,
                                                     REACH_ROLE_LEFT_HAND, REACH_ROLE_RIGHT_HAND,
                                                     REACH_ROLE_LEFT_FOOT, REACH_ROLE_RIGHT_FOOT};

int reach__body_part_role(int part) { return part_role[part]; }

/* Upper bone, middle bone, end bone of the arms and legs, in reach_body_part order from the left hand. */
static const int limb_roles[4][3] = {{REACH_ROLE_LEFT_UPPER_ARM, REACH_ROLE_LEFT_LOWER_ARM, REACH_ROLE_LEFT_HAND},
                                     {REACH_ROLE_RIGHT_UPPER_ARM, REACH_ROLE_RIGHT_LOWER_ARM, REACH_ROLE_RIGHT_HAND},
                                     {REACH_ROLE_LEFT_UPPER_LEG, REACH_ROLE_LEFT_LOWER_LEG, REACH_ROLE_LEFT_FOOT},
                                     {REACH_ROLE_RIGHT_UPPER_LEG, REACH_ROLE_RIGHT_LOWER_LEG, REACH_ROLE_RIGHT_FOOT}};

int reach__limb_role(int limb, int joint) { return limb_roles[limb][joint]; }

/* The working copy: the skeleton under the slides, its pose, and the Jacobian's scratch. */
typedef struct body_layout {
    int *parents;
    reach_transform *rest, *pose, *world;
    reach_joint *joints;
    reach_target *targets;
    void *jacobian_scratch;
    size_t jacobian_size;
} body_layout;

static reach_skeleton extended_shape(int bone_count) {
    reach_skeleton s = {bone_count + SLIDES, NULL, NULL, NULL};
    return s;
}

/* The Jacobian's scratch for the extended skeleton: computed once a solve (it walks the whole
 * layout of the Jacobian's workspace). */
static size_t jacobian_size_for(int bone_count) {
    reach_skeleton shape = extended_shape(bone_count);
    return reach_jacobian_scratch_size(&shape, REACH_BODY_PART_COUNT);
}

static size_t lay_out(reach__arena *arena, int bone_count, size_t jacobian_size, body_layout *out) {
    int m = bone_count + SLIDES;
    out->parents = (int *)reach__arena_take(arena, (size_t)m, sizeof(int));
    out->rest = (reach_transform *)reach__arena_take(arena, (size_t)m, sizeof(reach_transform));
    out->pose = (reach_transform *)reach__arena_take(arena, (size_t)m, sizeof(reach_transform));
    out->world = (reach_transform *)reach__arena_take(arena, (size_t)m, sizeof(reach_transform));
    out->joints = (reach_joint *)reach__arena_take(arena, (size_t)m, sizeof(reach_joint));
    out->targets = (reach_target *)reach__arena_take(arena, REACH_BODY_PART_COUNT, sizeof(reach_target));
    out->jacobian_size = jacobian_size;
    out->jacobian_scratch = reach__arena_take(arena, out->jacobian_size, 1);
    return reach__arena_need(arena);
}

size_t reach_full_body_scratch_size(const reach_skeleton *skeleton) {
    if (!skeleton || skeleton->bone_count < 0) return 0;
    reach__arena arena = reach__arena_make(NULL);
    body_layout layout;
    return lay_out(&arena, skeleton->bone_count, jacobian_size_for(skeleton->bone_count), &layout);
}

static reach_status check_targets(const reach_full_body_targets *t) {
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++) {
        const reach_body_target *b = &t->parts[p];
        if ((b->use_position && !reach_vec3_is_finite(b->position)) ||
            (b->use_hint && !reach_vec3_is_finite(b->hint)) || (b->use_rotation && !reach_quat_is_finite(b->rotation)))
            return REACH_ERROR_NOT_FINITE;
        if (b->use_rotation && !(reach_quat_dot(b->rotation, b->rotation) > 0)) return REACH_ERROR_BAD_QUATERNION;
        if (!reach_is_finite(b->weight)) return REACH_ERROR_NOT_FINITE;
        if (b->weight < 0) return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (t->use_look_at && !reach_vec3_is_finite(t->look_at)) return REACH_ERROR_NOT_FINITE;
    return REACH_OK;
}

static reach_status check_body_settings(const reach_full_body_settings *s) {
    if (s->made_by_defaults != REACH__SETTINGS_TAG) return REACH_ERROR_SETTINGS_NOT_INITIALIZED;
    if (!reach_vec3_is_finite(s->head_forward) || !reach_vec3_is_finite(s->head_up) || !reach_is_finite(s->tolerance) ||
        !reach_is_finite(s->angle_tolerance))
        return REACH_ERROR_NOT_FINITE;
    if (s->max_iterations < 0 || !(s->tolerance >= 0) || !(s->angle_tolerance >= 0) ||
        reach_vec3_max_abs(s->head_forward) == 0 || reach_vec3_max_abs(s->head_up) == 0)
        return REACH_ERROR_INVALID_ARGUMENT;
    return REACH_OK;
}

static reach_status check_body_pose(const reach_skeleton *skeleton, const reach_transform *pose) {
    for (int b = 0; b < skeleton->bone_count; b++) {
        if (!reach_quat_is_finite(pose[b].rotation) || !reach_vec3_is_finite(pose[b].translation))
            return REACH_ERROR_NOT_FINITE;
        if (!(reach_quat_dot(pose[b].rotation, pose[b].rotation) > 0)) return REACH_ERROR_BAD_QUATERNION;
    }
    return REACH_OK;
}

/* The body's size: hips to head plus hips to a sole, at rest. */
static reach_real body_height(const reach_skeleton *skeleton, const reach_humanoid *h, reach_transform *world) {
    reach_forward_kinematics(skeleton, skeleton->rest, world);
    reach_vec3 hips = world[h->bones[REACH_ROLE_HIPS]].translation;
    return reach_vec3_distance(world[h->bones[REACH_ROLE_HEAD]].translation, hips) +
           reach_vec3_distance(world[h->bones[REACH_ROLE_LEFT_FOOT]].translation, hips);
}

/* The skeleton under the slides, and the pose with the slides at zero. */
static void extend(const reach_skeleton *skeleton, const reach_transform *pose, reach_real range,
                   const body_layout *l) {
    for (int k = 0; k < SLIDES; k++) {
        reach_vec3 axis = reach_vec3_make(k == 0, k == 1, k == 2);
        l->parents[k] = k - 1;
        l->rest[k] = reach_transform_identity();
        l->joints[k] = reach_joint_prismatic(axis, -range, range);
        l->pose[k] = reach_transform_identity();
    }
    for (int b = 0; b < skeleton->bone_count; b++) {
        int parent = skeleton->parents[b];
        l->parents[b + SLIDES] = parent >= 0 ? parent + SLIDES : SLIDES - 1;
        l->rest[b + SLIDES] = skeleton->rest[b];
        l->joints[b + SLIDES] = reach_skeleton_joint(skeleton, b);
        l->pose[b + SLIDES] = pose[b];
        l->pose[b + SLIDES].rotation = reach_quat_normalize_safe(pose[b].rotation);
    }
}

/* Turns a limb (upper bone, its end bone below) about the line from its root joint to its end
 * joint so that its middle joint faces the hint, keeping the end's world rotation; as far toward
 * that as the upper bone's joint allows (the turn halved until it does). */
static void turn_toward_hint(const reach_skeleton *ext, const body_layout *l, int upper, int middle, int end,
                             reach_vec3 hint) {
    reach_forward_kinematics(ext, l->pose, l->world);
    reach_vec3 root = l->world[upper].translation, mid = l->world[middle].translation, tip = l->world[end].translation;
    reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(tip, root), reach_vec3_zero());
    reach_vec3 bend = reach_vec3_reject(reach_vec3_sub(mid, root), axis);
    reach_vec3 want = reach_vec3_reject(reach_vec3_sub(hint, root), axis);
    reach_real scale = reach_vec3_distance(tip, root) * REACH_R(1e-3);
    if (reach_vec3_length(bend) < scale || reach_vec3_length(want) < scale) return;
    reach_real angle = reach_atan2(reach_vec3_dot(axis, reach_vec3_cross(bend, want)), reach_vec3_dot(bend, want));
    reach_quat end_world = l->world[end].rotation;
    reach_quat parent_world = l->world[l->parents[upper]].rotation;
    reach_joint joint = l->joints[upper];
    for (int attempt = 0; attempt < 8; attempt++, angle *= REACH_R(0.5)) {
        reach_quat turned = reach_quat_mul(reach_quat_from_axis_angle(axis, angle), l->world[upper].rotation);
        reach_quat local = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(parent_world), turned));
        reach_quat allowed;
        if (reach_joint_project_rotation(&joint, l->rest[upper].rotation, local, &allowed) &&
            reach_quat_angle_between(allowed, local) > REACH_R(1e-5))
            continue;
        reach_quat upper_before = l->pose[upper].rotation;
        l->pose[upper].rotation = local;
        reach_forward_kinematics(ext, l->pose, l->world);
        /* The end keeps its world rotation: a turn its own joint cannot follow is too far. */
        reach_quat end_local = reach_quat_normalize_safe(
            reach_quat_mul(reach_quat_conjugate(l->world[l->parents[end]].rotation), end_world));
        reach_joint end_joint = l->joints[end];
        reach_quat end_allowed;
        if (reach_joint_project_rotation(&end_joint, l->rest[end].rotation, end_local, &end_allowed) &&
            reach_quat_angle_between(end_allowed, end_local) > REACH_R(1e-5)) {
            l->pose[upper].rotation = upper_before;
            reach_forward_kinematics(ext, l->pose, l->world);
            continue;
        }
        l->pose[end].rotation = end_allowed;
        return;
    }
}

/* A start for the hips when the targets ask for a body turned or moved well away from the pose
 * (a cold solve, or a jump): the mean turn from the targeted parts' rotations to their targets
 * turns the hips, and the slides carry the targeted parts' mean position onto their targets'.
 * Warm frames, whose targets are near, keep the pose as it is. */
#define RESTART_TURN  REACH_R(0.35)
#define RESTART_SHIFT REACH_R(0.1)

static int place_body_hips(const reach_humanoid *h, const reach_full_body_targets *t, reach_real height,
                           reach_real range, const reach_skeleton *ext, const body_layout *l) {
    reach_quat sum = reach_quat_make(0, 0, 0, 0);
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++) {
        if (!t->parts[p].use_rotation) continue;
        reach_quat now = l->world[h->bones[part_role[p]] + SLIDES].rotation;
        reach_quat turn = reach_quat_mul(reach_quat_normalize_safe(t->parts[p].rotation), reach_quat_conjugate(now));
        if (reach_quat_dot(turn, sum) < 0) turn = reach_quat_neg(turn);
        sum = reach_quat_make(sum.x + turn.x, sum.y + turn.y, sum.z + turn.z, sum.w + turn.w);
    }
    reach_quat turn = reach_quat_normalize_safe(sum);
    int hips = h->bones[REACH_ROLE_HIPS] + SLIDES;
    reach_vec3 pivot = l->world[hips].translation;
    reach_vec3 shift = reach_vec3_zero();
    int positions = 0;
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++) {
        if (!t->parts[p].use_position) continue;
        reach_vec3 now = reach_vec3_sub(l->world[h->bones[part_role[p]] + SLIDES].translation, pivot);
        shift = reach_vec3_add(
            shift, reach_vec3_sub(t->parts[p].position, reach_vec3_add(pivot, reach_quat_rotate(turn, now))));
        positions++;
    }
    if (positions > 0) shift = reach_vec3_scale(shift, 1 / (reach_real)positions);
    if (reach_quat_angle(turn) < RESTART_TURN && reach_vec3_length(shift) < RESTART_SHIFT * height) return 0;
    reach_quat parent = l->world[l->parents[hips]].rotation;
    l->pose[hips].rotation = reach_quat_normalize_safe(
        reach_quat_mul(reach_quat_conjugate(parent), reach_quat_mul(turn, l->world[hips].rotation)));
    reach_real moves[3] = {shift.x, shift.y, shift.z};
    for (int k = 0; k < SLIDES; k++) {
        reach_real v = reach_clamp(moves[k], -range, range);
        l->pose[k].translation = reach_vec3_make(k == 0 ? v : 0, k == 1 ? v : 0, k == 2 ? v : 0);
    }
    reach_forward_kinematics(ext, l->pose, l->world);
    return 1;
}

/* Sets local rotation `bone` so that its world rotation is `world_rotation`, as near as its
 * joint allows, from its parent's world rotation; the world transforms are left as they were. */
static void set_local_rotation(const body_layout *l, int bone, reach_quat world_rotation) {
    reach_quat parent = l->world[l->parents[bone]].rotation;
    reach_quat local = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(parent), world_rotation));
    reach_joint joint = l->joints[bone];
    reach_joint_project_rotation(&joint, l->rest[bone].rotation, local, &l->pose[bone].rotation);
}

/* The same, and brings the world transforms up to date. */
static void set_world_rotation(const reach_skeleton *ext, const body_layout *l, int bone, reach_quat world_rotation) {
    set_local_rotation(l, bone, world_rotation);
    reach_forward_kinematics(ext, l->pose, l->world);
}

static int is_above(const int *parents, int ancestor, int bone) {
    for (int b = parents[bone]; b >= 0; b = parents[b])
        if (b == ancestor) return 1;
    return 0;
}

/* Turns the head, hands and feet to their target rotations by their own joints (which does not
 * move their joints), then brings the world transforms up to date once: none of these bones
 * lies above another in a humanoid, so each one's parent is where the last forward kinematics
 * left it; a map that puts one above another gets forward kinematics in between. */
static void set_end_rotations(const reach_humanoid *h, const reach_full_body_targets *t, const reach_skeleton *ext,
                              const body_layout *l) {
    int set[REACH_BODY_PART_COUNT], count = 0;
    for (int p = REACH_BODY_HEAD; p < REACH_BODY_PART_COUNT; p++) {
        if (!t->parts[p].use_rotation) continue;
        int bone = h->bones[part_role[p]] + SLIDES;
        for (int k = 0; k < count; k++)
            if (is_above(l->parents, set[k], bone)) {
                reach_forward_kinematics(ext, l->pose, l->world);
                count = 0;
                break;
            }
        set_local_rotation(l, bone, reach_quat_normalize_safe(t->parts[p].rotation));
        set[count++] = bone;
    }
    reach_forward_kinematics(ext, l->pose, l->world);
}

static reach_real interior_angle(const body_layout *l, int upper, int middle, int end) {
    reach_vec3 a = reach_vec3_sub(l->world[upper].translation, l->world[middle].translation);
    reach_vec3 b = reach_vec3_sub(l->world[end].translation, l->world[middle].translation);
    return reach_atan2(reach_vec3_length(reach_vec3_cross(a, b)), reach_vec3_dot(a, b));
}

/* A cold start for a limb with a target, by the law of cosines: the middle joint bent to the
 * angle the distance asks for (whichever way about its joint brings it nearer), the upper bone
 * swung to carry the end onto the target, the end turned to its rotation; each inside its joint. */
static void place_limb(const reach_skeleton *ext, const body_layout *l, int upper, int middle, int end,
                       const reach_body_target *target) {
    if (target->use_position) {
        reach_real a = reach_vec3_distance(l->world[middle].translation, l->world[upper].translation);
        reach_real b = reach_vec3_distance(l->world[end].translation, l->world[middle].translation);
        reach_real d = reach_vec3_distance(target->position, l->world[upper].translation);
        if (a > 0 && b > 0) {
            d = reach_clamp(d, reach_fabs(a - b), a + b);
            reach_real want = reach_acos(reach_clamp((a * a + b * b - d * d) / (2 * a * b), -1, 1));
            reach_real turn = interior_angle(l, upper, middle, end) - want;
            reach_joint joint = l->joints[middle];
            reach_vec3 axis = reach_quat_rotate(l->world[middle].rotation, joint.axis);
            if (joint.type != REACH_JOINT_HINGE)
                axis = reach_vec3_normalize_safe(
                    reach_vec3_cross(reach_vec3_sub(l->world[upper].translation, l->world[middle].translation),
                                     reach_vec3_sub(l->world[end].translation, l->world[middle].translation)),
                    reach_vec3_any_perpendicular(
                        reach_vec3_sub(l->world[end].translation, l->world[middle].translation)));
            reach_quat start = l->world[middle].rotation;
            set_world_rotation(ext, l, middle, reach_quat_mul(reach_quat_from_axis_angle(axis, turn), start));
            reach_real first = reach_fabs(interior_angle(l, upper, middle, end) - want);
            reach_quat kept = l->pose[middle].rotation;
            set_world_rotation(ext, l, middle, reach_quat_mul(reach_quat_from_axis_angle(axis, -turn), start));
            if (first < reach_fabs(interior_angle(l, upper, middle, end) - want)) {
                l->pose[middle].rotation = kept;
                reach_forward_kinematics(ext, l->pose, l->world);
            }
        }
        reach_vec3 from = reach_vec3_sub(l->world[end].translation, l->world[upper].translation);
        reach_vec3 to = reach_vec3_sub(target->position, l->world[upper].translation);
        from = reach_vec3_normalize_safe(from, reach_vec3_zero());
        to = reach_vec3_normalize_safe(to, from);
        if (reach_vec3_length_sq(from) > 0)
            set_world_rotation(ext, l, upper,
                               reach_quat_mul(reach_quat_shortest_arc(from, to), l->world[upper].rotation));
    }
    if (target->use_rotation) set_world_rotation(ext, l, end, reach_quat_normalize_safe(target->rotation));
}

static void place_limbs(const reach_humanoid *h, const reach_full_body_targets *t, const reach_skeleton *ext,
                        const body_layout *l) {
    for (int limb = 0; limb < 4; limb++) {
        const int *r = limb_roles[limb];
        place_limb(ext, l, h->bones[r[0]] + SLIDES, h->bones[r[1]] + SLIDES, h->bones[r[2]] + SLIDES,
                   &t->parts[REACH_BODY_LEFT_HAND + limb]);
    }
}

/* Polishes after a stall that lays the limbs out again. */
#define RESEEDS 4

/* The Jacobian's targets; with positions_only, the head's, hands' and feet's rotations are left
 * out (their own joints turn them afterwards). */
static int make_targets(const reach_humanoid *h, const reach_full_body_targets *t, const body_layout *l,
                        int positions_only) {
    int count = 0;
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++) {
        const reach_body_target *b = &t->parts[p];
        int rotation = b->use_rotation && (p == REACH_BODY_HIPS || !positions_only);
        if (!b->use_position && !rotation) continue;
        int bone = h->bones[part_role[p]] + SLIDES;
        reach_target target = reach_target_position(bone, b->position);
        if (!b->use_position) {
            /* A rotation alone: the position target is wherever the joint is (the solve moves it
             * only as far as the other targets ask, as the weight below says). */
            target.position = l->world[bone].translation;
            target.weight = REACH_R(1e-3);
        }
        if (b->weight > 0) target.weight *= b->weight;
        target.use_orientation = rotation;
        target.orientation = reach_quat_normalize_safe(b->rotation);
        l->targets[count++] = target;
    }
    return count;
}

/* The largest distance and angle left to the position and rotation targets, from l->world. */
/* The bones that turn to look, in the extended skeleton, root first: the neck (and any bone
 * between it and the head, as a CMU Neck1) with the head, as a person looks, unless the head has
 * a position target (turning the neck would move it) or no neck within LOOK_CHAIN bones. */
#define LOOK_CHAIN 4

static int look_chain(const reach_humanoid *h, const reach_full_body_targets *t, const int *parents,
                      int chain[LOOK_CHAIN]) {
    int head = h->bones[REACH_ROLE_HEAD] + SLIDES, neck = h->bones[REACH_ROLE_NECK];
    chain[0] = head;
    if (neck < 0 || t->parts[REACH_BODY_HEAD].use_position) return 1;
    int up[LOOK_CHAIN], count = 0;
    for (int bone = head; count < LOOK_CHAIN; bone = parents[bone]) {
        up[count++] = bone;
        if (bone == neck + SLIDES) {
            for (int k = 0; k < count; k++)
                chain[k] = up[count - 1 - k];
            return count;
        }
    }
    return 1;
}

static void body_residuals(const reach_humanoid *h, const reach_full_body_targets *t, const body_layout *l,
                           reach_real *residual, reach_real *angle_residual) {
    *residual = *angle_residual = 0;
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++) {
        const reach_body_target *b = &t->parts[p];
        const reach_transform *w = &l->world[h->bones[part_role[p]] + SLIDES];
        if (b->use_position) *residual = reach_max(*residual, reach_vec3_distance(w->translation, b->position));
        if (b->use_rotation)
            *angle_residual = reach_max(*angle_residual,
                                        reach_quat_angle_between(w->rotation, reach_quat_normalize_safe(b->rotation)));
    }
}

reach_status reach_full_body_solve(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                   const reach_full_body_targets *targets, const reach_full_body_settings *settings,
                                   reach_transform *pose, void *scratch, size_t scratch_size,
                                   reach_full_body_result *result) {
    REACH_CHECK_ARG(skeleton && humanoid && targets && pose && scratch);
    reach_full_body_settings s = settings ? *settings : reach_full_body_default_settings();
    reach_status status = check_body_settings(&s);
    if (status != REACH_OK) return status;
    if ((status = reach_skeleton_validate(skeleton, NULL)) != REACH_OK) return status;
    if ((status = reach_humanoid_validate(skeleton, humanoid, NULL)) != REACH_OK) return status;
    if ((status = check_targets(targets)) != REACH_OK) return status;
    if ((status = check_body_pose(skeleton, pose)) != REACH_OK) return status;
    size_t jacobian_size = jacobian_size_for(skeleton->bone_count);
    reach__arena sizing = reach__arena_make(NULL);
    body_layout l;
    if (scratch_size < lay_out(&sizing, skeleton->bone_count, jacobian_size, &l)) return REACH_ERROR_BUFFER_TOO_SMALL;

    reach__arena arena = reach__arena_make(scratch);
    lay_out(&arena, skeleton->bone_count, jacobian_size, &l);
    reach_real height = body_height(skeleton, humanoid, l.world);
    extend(skeleton, pose, SLIDE_RANGE * height, &l);
    reach_skeleton ext = {skeleton->bone_count + SLIDES, l.parents, l.rest, l.joints};
    reach_forward_kinematics(&ext, l.pose, l.world);
    if (!targets->parts[REACH_BODY_HIPS].use_position &&
        place_body_hips(humanoid, targets, height, SLIDE_RANGE * height, &ext, &l)) {
        place_limbs(humanoid, targets, &ext, &l);
    }

    reach_solver_settings js = reach_solver_default_settings();
    js.max_iterations = s.max_iterations;
    js.tolerance = s.tolerance * height;
    js.angle_tolerance = s.angle_tolerance;
    js.jacobian_method = REACH_JACOBIAN_DLS;
    js.root_bone = 0;
    reach_solve_result jr = {0, 0, 0, 1, 0};
    /* Positions first: a third of the rows (the Jacobian's cost grows with their square), the
     * head's, hands' and feet's rotations then set by their own joints, which do not move their
     * joints' positions. Only when that misses does the whole problem go to the Jacobian. */
    int count = make_targets(humanoid, targets, &l, 1);
    if (count > 0) {
        status = reach_jacobian_solve(&ext, l.targets, count, &js, l.pose, l.jacobian_scratch, l.jacobian_size, &jr);
        if (status != REACH_OK) return status;
    }
    reach_forward_kinematics(&ext, l.pose, l.world);
    set_end_rotations(humanoid, targets, &ext, &l);
    reach_real residual, angle_residual;
    body_residuals(humanoid, targets, &l, &residual, &angle_residual);
    int done = residual <= js.tolerance && angle_residual <= js.angle_tolerance;
    count = done ? 0 : make_targets(humanoid, targets, &l, 0);
    /* Whether l.world is the pose's forward kinematics still (the result needs it). */
    int fresh = count == 0;
    for (int attempt = 0; count > 0 && attempt < RESEEDS + 1; attempt++) {
        if (attempt > 0) {
            /* Stalled against the limits: the limbs laid out again by the law of cosines from
             * where the hips and spine now are, and polished again. */
            reach_forward_kinematics(&ext, l.pose, l.world);
            place_limbs(humanoid, targets, &ext, &l);
        }
        reach_solve_result attempt_result;
        status = reach_jacobian_solve(&ext, l.targets, count, &js, l.pose, l.jacobian_scratch, l.jacobian_size,
                                      &attempt_result);
        if (status != REACH_OK) return status;
        jr.iterations += attempt_result.iterations;
        if (attempt_result.reached) break;
    }

    for (int limb = 0; limb < 4; limb++) {
        const reach_body_target *b = &targets->parts[REACH_BODY_LEFT_HAND + limb];
        if (!b->use_hint) continue;
        fresh = 0;
        const int *r = limb_roles[limb];
        turn_toward_hint(&ext, &l, humanoid->bones[r[0]] + SLIDES, humanoid->bones[r[1]] + SLIDES,
                         humanoid->bones[r[2]] + SLIDES, b->hint);
    }
    if (targets->use_look_at && !targets->parts[REACH_BODY_HEAD].use_rotation) {
        if (!fresh) reach_forward_kinematics(&ext, l.pose, l.world);
        fresh = 0; /* the look turns the neck and head but leaves the bones below them */
        reach_aim_chain_settings aim = reach_aim_chain_default_settings();
        aim.aim.forward = s.head_forward;
        aim.aim.up = s.head_up;
        int chain[LOOK_CHAIN];
        int looking = look_chain(humanoid, targets, l.parents, chain);
        int head = chain[looking - 1];
        reach_vec3 up = reach_quat_rotate(l.world[humanoid->bones[REACH_ROLE_HIPS] + SLIDES].rotation,
                                          reach_quat_rotate(l.rest[head].rotation, s.head_up));
        if (reach_aim_chain_solve(&ext, chain, looking, targets->look_at, up, &aim, l.pose, l.world, NULL) !=
            REACH_OK) {
            aim.aim.keep_up = 0; /* an up along forward: look without keeping it */
            reach_aim_chain_solve(&ext, chain, looking, targets->look_at, up, &aim, l.pose, l.world, NULL);
        }
    }

    /* The slides' offsets go into the root bones' translations. */
    reach_vec3 slide = reach_vec3_make(l.pose[0].translation.x, l.pose[1].translation.y, l.pose[2].translation.z);
    for (int b = 0; b < skeleton->bone_count; b++) {
        pose[b] = l.pose[b + SLIDES];
        if (skeleton->parents[b] < 0) pose[b].translation = reach_vec3_add(pose[b].translation, slide);
    }
    if (result) {
        reach_full_body_result r = {jr.iterations, residual, angle_residual, 1};
        if (!fresh) {
            reach_forward_kinematics(&ext, l.pose, l.world);
            body_residuals(humanoid, targets, &l, &r.residual, &r.angle_residual);
        }
        r.reached = r.residual <= s.tolerance * height && r.angle_residual <= s.angle_tolerance;
        *result = r;
    }
    return REACH_OK;
}
