/* The iteration loop FABRIK and CCD share: iterate until every target is within tolerance, the
 * cap is reached, or the solve stalls; when it stalls, move the root (FABRIK's option) or bend a
 * chain that is stuck on the line to its target. */
#include "fabrik_internal.h"

/* A chain lying exactly along the line to its target cannot leave that line: FABRIK only moves
 * joints along lines through them, and CCD's rotations about joints on the line leave a point
 * on it where it is. When a solve stalls short of a target it could reach, it bends the chain
 * this much in total, spread over its bones, at most this many times. */
#define KICK_TOTAL_ANGLE    REACH_R(1.5)
#define KICK_MAX_BONE_ANGLE REACH_R(0.3)
#define MAX_KICKS           2

static int driver_child_count(const reach__ik *ik, int bone) {
    return ik->child_start[bone + 1] - ik->child_start[bone];
}
/* ---- when it stalls --------------------------------------------------------------------- */

/* seed 003's option: translate the root by the weighted mean of what the position targets
 * still lack. Returns 0 when there is nothing worth moving. */
static int move_root(reach__ik *ik) {
    reach_vec3 sum = reach_vec3_zero();
    reach_real weight = 0;
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        if (t->kind != REACH_TARGET_POSITION) continue;
        sum = reach_vec3_mad(sum, reach_vec3_sub(t->position, ik->pos[t->bone]), t->weight);
        weight += t->weight;
    }
    if (!(weight > 0)) return 0;
    reach_vec3 offset = reach_vec3_scale(sum, 1 / weight);
    if (!(reach_vec3_length(offset) > REACH_R(0.5) * ik->tolerance)) return 0;
    reach_vec3 local_offset = reach_quat_rotate(reach_quat_conjugate(ik->above_root), offset);
    ik->local[ik->root].translation = reach_vec3_add(ik->local[ik->root].translation, local_offset);
    reach__ik_forward(ik);
    return 1;
}

/* The first position target that is out of tolerance yet within the length of the bones
 * between it and the root, or -1. */
static int reachable_but_missed(const reach__ik *ik) {
    const reach_skeleton *sk = ik->skeleton;
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        if (t->kind != REACH_TARGET_POSITION || reach__ik_target_distance(ik, j) <= ik->tolerance) continue;
        reach_real length = 0;
        for (int b = t->bone; b != ik->root; b = sk->parents[b])
            length += reach_vec3_length(ik->local[b].translation);
        if (reach_vec3_distance(t->position, ik->pos[ik->root]) < length) return j;
    }
    return -1;
}

/* Bends every moving bone a little about one axis across the line from the root to target j,
 * inside the joints' limits, so a chain stuck on that line leaves it. */
static void kick(reach__ik *ik, int j) {
    reach_vec3 root = ik->pos[ik->root];
    reach_vec3 line = reach_vec3_sub(ik->targets[j].position, root);
    line = reach_vec3_normalize_safe(
        line, reach_vec3_normalize_safe(reach_vec3_sub(ik->pos[ik->targets[j].bone], root), reach_vec3_make(0, 1, 0)));
    reach_vec3 axis = reach_vec3_any_perpendicular(line);
    reach_real angle = reach_min(KICK_MAX_BONE_ANGLE, KICK_TOTAL_ANGLE / (reach_real)ik->active_count);
    for (int k = 0; k < ik->active_count; ++k) {
        int b = ik->active[k];
        if (driver_child_count(ik, b) == 0) continue;
        reach_vec3 bone_axis = reach_quat_rotate(reach_quat_conjugate(ik->rot[b]), axis);
        reach_quat bent = reach_quat_mul(ik->local[b].rotation, reach_quat_from_axis_angle(bone_axis, angle));
        reach_joint joint = reach_skeleton_joint(ik->skeleton, b);
        reach_joint_project_rotation(&joint, ik->skeleton->rest[b].rotation, bent, &ik->local[b].rotation);
    }
    reach__ik_forward(ik);
}

/* ---- the loop --------------------------------------------------------------------------- */

static reach_real total_weight(const reach__ik *ik) {
    reach_real total = 0;
    for (int j = 0; j < ik->target_count; ++j)
        total += ik->targets[j].weight;
    return total;
}

reach_solve_result reach__ik_run(reach__ik *ik, const reach_solver_settings *settings, int (*iterate)(reach__ik *ik),
                                 int (*polish)(reach__ik *ik), int may_move_root) {
    reach_solve_result r = {0, 0, 0, 0, 0};
    reach_real stall = REACH__STALL_RATIO * ik->tolerance * total_weight(ik);
    reach_real previous = reach__ik_weighted_error(ik);
    int kicks = 0, since_best = 0;
    reach_real best = previous;
    /* A starting pose outside its joints' limits is solved at least once, so what comes out is
     * inside them, even when it already reaches. */
    while (r.iterations < settings->max_iterations &&
           !(reach__ik_measure(ik, &r.residual, &r.angle_residual) && (r.iterations > 0 || ik->start_inside_limits))) {
        ++r.iterations;
        r.limited = iterate(ik);
        reach_real error = reach__ik_weighted_error(ik);
        if (error < REACH__POLISH_PROGRESS * best) {
            best = error;
            since_best = 0;
        } else {
            ++since_best;
        }
        if (polish && iterate != polish &&
            (since_best >= REACH__POLISH_PATIENCE || 2 * r.iterations >= settings->max_iterations)) {
            /* Wandering without getting nearer, or half the budget gone: the polish, which only
             * ever moves downhill, gets the rest. */
            iterate = polish;
            previous = error;
            continue;
        }
        if (reach_fabs(previous - error) > reach__stall_threshold(stall, previous, error)) {
            previous = error;
            continue;
        }
        /* Stalled. A remedy changes the pose, so it needs an iteration after it. */
        if (r.iterations >= settings->max_iterations) break;
        int missed = reachable_but_missed(ik);
        if (may_move_root && move_root(ik)) {
            /* resumes from the moved root */
        } else if (missed >= 0 && kicks < MAX_KICKS) {
            kick(ik, missed);
            ++kicks;
        } else if (polish && iterate != polish) {
            iterate = polish;
        } else {
            break;
        }
        previous = reach__ik_weighted_error(ik);
    }
    r.reached = reach__ik_measure(ik, &r.residual, &r.angle_residual);
    return r;
}
