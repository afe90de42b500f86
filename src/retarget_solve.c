/* Retargeting's solve of a frame, part by part (see docs/retarget.md): the carried pose already
 * puts most of the body near its targets, so each chain is solved on its own from the body the
 * chains before it left: the trunk for the head, then each leg and arm from its hip or shoulder.
 * A character's limb goes by the analytic two-bone solve (its bend plane the carried one), its
 * end turned by its own joint; a chain of hinges (a robot's), or a limb the analytic solve leaves
 * beyond tolerance (a joint limit), by a Jacobian over that chain alone. Only a frame still
 * beyond the retargeting's reach tolerance goes to the whole-body solve. */
#include <string.h>

#include "character_internal.h"
#include "internal.h"
#include "reach/jacobian.h"
#include "reach/limits.h"
#include "reach/two_bone.h"
#include "retarget_internal.h"

/* Iterations a chain's Jacobian may take: it starts near its answer. */
#define CHAIN_ITERATIONS 24

static int is_trunk_role(int role) {
    return role == REACH_ROLE_HIPS || role == REACH_ROLE_SPINE || role == REACH_ROLE_CHEST ||
           role == REACH_ROLE_UPPER_CHEST || role == REACH_ROLE_NECK || role == REACH_ROLE_LEFT_SHOULDER ||
           role == REACH_ROLE_RIGHT_SHOULDER;
}

/* The first bone of the chain that moves `bone`'s part: the bone just below the nearest trunk
 * role above `from` (a leg's upper bone, or a robot's hip yaw link above it); -1 when none. */
static int chain_root(const reach_skeleton *s, const reach_humanoid *roles, int from) {
    int below = from;
    for (int b = s->parents[from]; b >= 0; below = b, b = s->parents[b])
        if (is_trunk_role(reach__retarget_role_of(roles, b))) return below;
    return -1;
}

void reach__retarget_find_chains(reach_retarget *r) {
    const reach_skeleton *s = &r->target.skeleton;
    const reach_humanoid *roles = &r->target.roles;
    for (int limb = 0; limb < 4; limb++)
        r->chain_root[limb] = chain_root(s, roles, roles->bones[reach__limb_role(limb, 0)]);
    /* The trunk's chain: from the hips' child toward the head, down to the head. */
    int head = roles->bones[REACH_ROLE_HEAD], hips = roles->bones[REACH_ROLE_HIPS], below = -1;
    for (int b = head; b >= 0 && b != hips; b = s->parents[b])
        below = b;
    r->trunk_root = below != head && below >= 0 && s->parents[below] == hips ? below : -1;
}

/* Sets `bone`'s local rotation so its world rotation is `want`, as near as its joint allows. */
static void turn_bone_to(const reach_skeleton *s, const reach_transform *world, reach_transform *local, int bone,
                         reach_quat want) {
    int parent = s->parents[bone];
    reach_quat above = parent >= 0 ? world[parent].rotation : reach_quat_identity();
    reach_quat rotation = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(above), want));
    reach_joint joint = reach_skeleton_joint(s, bone);
    reach_joint_project_rotation(&joint, s->rest[bone].rotation, rotation, &local[bone].rotation);
}

/* A chain's Jacobian from `root` down to the part's bone, the part's target alone. */
static reach_status solve_chain(reach_retarget *r, int root, int bone, const reach_body_target *part, int rotation,
                                reach_real tolerance, int *iterations) {
    reach_target target = reach_target_position(bone, part->position);
    target.use_orientation = rotation;
    target.orientation = reach_quat_normalize_safe(part->rotation);
    reach_solver_settings js = reach_solver_default_settings();
    js.max_iterations = CHAIN_ITERATIONS;
    js.tolerance = tolerance;
    js.angle_tolerance = r->settings.body.angle_tolerance;
    js.jacobian_method = REACH_JACOBIAN_DLS;
    js.root_bone = root;
    reach_solve_result result;
    reach_status status = reach_jacobian_solve(&r->target.skeleton, &target, 1, &js, r->work, r->chain_scratch,
                                               r->chain_scratch_size, &result);
    if (status == REACH_OK) *iterations += result.iterations;
    return status;
}

/* The turn about a hinge's axis k (world) that brings a limb's end to distance d from its root:
 * with u = mid - root and v = end - mid, |u + R v|² = d² asks u · R v = (d² - |u|² - |v|²) / 2,
 * that is c0 + A cos φ + B sin φ = W with v split along k and across it. Of the two turns, the
 * one the hinge's limits allow, the smaller when both do. */
static reach_real hinge_bend(reach_vec3 u, reach_vec3 v, reach_vec3 k, reach_real d, reach_real angle,
                             const reach_joint *joint) {
    reach_vec3 along = reach_vec3_scale(k, reach_vec3_dot(v, k)), across = reach_vec3_sub(v, along);
    reach_real c0 = reach_vec3_dot(u, along), a = reach_vec3_dot(u, across),
               b = reach_vec3_dot(u, reach_vec3_cross(k, across));
    reach_real want = (d * d - reach_vec3_length_sq(u) - reach_vec3_length_sq(v)) / 2;
    reach_real size = reach_sqrt(a * a + b * b);
    if (!(size > 0)) return angle;
    reach_real centre = reach_atan2(b, a), spread = reach_acos(reach_clamp((want - c0) / size, -1, 1));
    reach_real best = angle, best_turn = REACH_R(1e30);
    for (int sign = -1; sign <= 1; sign += 2) {
        reach_real turn = centre + (reach_real)sign * spread;
        while (turn > REACH_PI)
            turn -= 2 * REACH_PI;
        while (turn < -REACH_PI)
            turn += 2 * REACH_PI;
        reach_real to = angle + turn;
        /* Outside the limits counts as a turn longer than any inside. */
        reach_real cost = reach_fabs(turn) + (to < joint->min || to > joint->max ? 4 * REACH_PI : 0);
        if (cost < best_turn) {
            best_turn = cost;
            best = reach_clamp(to, joint->min, joint->max);
        }
    }
    return best;
}

/* A character's limb analytically: its middle joint bent so that the end lies at the target's
 * distance from the root (about its hinge, or by the two-bone solve in the carried bend plane for
 * a ball), then the upper bone swung onto the target; each bone kept inside its joint. 0 when the
 * limb is not three bones in a row. r->solve_world is brought up to date. */
static int bend_limb(reach_retarget *r, int limb, const reach_body_target *part) {
    const reach_skeleton *s = &r->target.skeleton;
    reach_transform *world = r->solve_world, *local = r->work;
    int upper = r->target.roles.bones[reach__limb_role(limb, 0)],
        middle = r->target.roles.bones[reach__limb_role(limb, 1)],
        end = r->target.roles.bones[reach__limb_role(limb, 2)];
    if (s->parents[middle] != upper || s->parents[end] != middle) return 0;
    reach_joint joint = reach_skeleton_joint(s, middle);
    reach_vec3 root = world[upper].translation;
    if (joint.type == REACH_JOINT_HINGE) {
        reach_quat rest = s->rest[middle].rotation;
        reach_real angle =
            reach_quat_twist_angle(reach_quat_mul(reach_quat_conjugate(rest), local[middle].rotation), joint.axis);
        reach_vec3 k = reach_vec3_normalize_safe(reach_quat_rotate(world[middle].rotation, joint.axis), joint.axis);
        angle = hinge_bend(reach_vec3_sub(world[middle].translation, root),
                           reach_vec3_sub(world[end].translation, world[middle].translation), k,
                           reach_vec3_distance(part->position, root), angle, &joint);
        local[middle].rotation = reach_quat_mul(rest, reach_quat_from_axis_angle(joint.axis, angle));
        reach_forward_kinematics(s, local, world);
        reach_vec3 from = reach_vec3_normalize_safe(reach_vec3_sub(world[end].translation, root), reach_vec3_zero());
        reach_vec3 to = reach_vec3_normalize_safe(reach_vec3_sub(part->position, root), from);
        if (reach_vec3_length_sq(from) > 0)
            turn_bone_to(s, world, local, upper,
                         reach_quat_mul(reach_quat_shortest_arc(from, to), world[upper].rotation));
        reach_forward_kinematics(s, local, world);
        return 1;
    }
    reach_two_bone_input in;
    memset(&in, 0, sizeof in);
    in.root = root;
    in.mid = world[middle].translation;
    in.end = world[end].translation;
    in.target = part->position;
    reach_two_bone_output out;
    if (reach_two_bone_solve(&in, NULL, &out) != REACH_OK) return 0;
    reach_quat upper_world = reach_quat_mul(out.root_rotation, world[upper].rotation);
    reach_quat middle_world =
        reach_quat_mul(out.mid_rotation, reach_quat_mul(out.root_rotation, world[middle].rotation));
    turn_bone_to(s, world, local, upper, upper_world);
    world[upper].rotation = reach_quat_mul(world[s->parents[upper]].rotation, local[upper].rotation);
    turn_bone_to(s, world, local, middle, middle_world);
    reach_forward_kinematics(s, local, world);
    return 1;
}

/* The largest distance from a part's joint to its position target, and angle to its rotation. */
static void residuals(const reach_retarget *r, const reach_full_body_targets *targets, reach_real *distance,
                      reach_real *angle) {
    *distance = *angle = 0;
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++) {
        const reach_body_target *b = &targets->parts[p];
        const reach_transform *w = &r->solve_world[r->target.roles.bones[reach__body_part_role(p)]];
        if (b->use_position) *distance = reach_max(*distance, reach_vec3_distance(w->translation, b->position));
        if (b->use_rotation)
            *angle = reach_max(*angle, reach_quat_angle_between(w->rotation, reach_quat_normalize_safe(b->rotation)));
    }
}

reach_status reach__retarget_solve(reach_retarget *r, const reach_full_body_targets *targets,
                                   reach_full_body_result *out) {
    const reach_skeleton *s = &r->target.skeleton;
    const reach_humanoid *roles = &r->target.roles;
    reach_real tolerance = r->settings.body.tolerance * r->height;
    int iterations = 0;
    reach_status status = REACH_OK;
    reach_forward_kinematics(s, r->work, r->solve_world);
    /* The trunk carries the head; the hands keep their targets, placed from the carried shoulders,
     * whatever the trunk's turn does to the shoulders (the source's hands relative to its hips). */
    const reach_body_target *head = &targets->parts[REACH_BODY_HEAD];
    int head_bone = roles->bones[REACH_ROLE_HEAD];
    if (r->trunk_root >= 0 && reach_vec3_distance(r->solve_world[head_bone].translation, head->position) > tolerance) {
        if ((status = solve_chain(r, r->trunk_root, head_bone, head, 0, tolerance, &iterations)) != REACH_OK)
            return status;
        reach_forward_kinematics(s, r->work, r->solve_world);
    }
    for (int limb = 0; limb < 4; limb++) {
        const reach_body_target *part = &targets->parts[REACH_BODY_LEFT_HAND + limb];
        int end = roles->bones[reach__limb_role(limb, 2)];
        /* A part that counts more is held closer: a planted foot must not creep a tolerance a frame. */
        reach_real near = part->weight > 1 ? tolerance / part->weight : tolerance;
        if (!r->robot) bend_limb(r, limb, part);
        /* A robot's foot takes its rotation in its chain (an ankle of two hinges cannot alone). */
        int rotation = r->robot && part->use_rotation;
        int off = reach_vec3_distance(r->solve_world[end].translation, part->position) > near ||
                  (rotation &&
                   reach_quat_angle_between(r->solve_world[end].rotation, reach_quat_normalize_safe(part->rotation)) >
                       r->settings.body.angle_tolerance);
        if (off && r->chain_root[limb] >= 0) {
            status = solve_chain(r, r->chain_root[limb], end, part, rotation, near, &iterations);
            if (status != REACH_OK) return status;
            reach_forward_kinematics(s, r->work, r->solve_world);
        }
        if (part->use_rotation && !rotation) {
            turn_bone_to(s, r->solve_world, r->work, end, part->rotation);
            reach_forward_kinematics(s, r->work, r->solve_world);
        }
    }
    if (head->use_rotation) {
        turn_bone_to(s, r->solve_world, r->work, head_bone, head->rotation);
        reach_forward_kinematics(s, r->work, r->solve_world);
    }
    reach_pose_apply_mimic(s, r->work);
    reach_full_body_result result = {iterations, 0, 0, 0};
    residuals(r, targets, &result.residual, &result.angle_residual);
    result.reached = result.residual <= tolerance && result.angle_residual <= r->settings.body.angle_tolerance;
    *out = result;
    return REACH_OK;
}
