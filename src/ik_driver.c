/* The driver FABRIK and CCD share: the solve from checking its inputs to writing the pose, and
 * the iteration loop in it: iterate until every target is within tolerance, the cap is reached,
 * or the solve stalls; when it stalls, move the root (FABRIK's option), bend a chain that is
 * stuck on the line to its target, take the method's own remedy or its polish. */
#include "ik_driver.h"
#include "settings_internal.h"

/* A hinge the bend (see solve_constants.h) turns by less than this share of it turns toward its roomier end instead. */
#define KICK_HINGE_SHARE REACH_R(0.1)

/* ---- when it stalls --------------------------------------------------------------------- */

/* The movable-root option: translate the root by the weighted mean of what the position targets
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

/* The first target that is out of tolerance yet could be met: a position target within the
 * length of the bones between it and the root, or a meeting pair not yet together. -1 when
 * there is none. */
static int reachable_but_missed(const reach__ik *ik) {
    const reach_skeleton *sk = ik->skeleton;
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        if (reach__ik_target_distance(ik, j) <= ik->tolerance) continue;
        if (t->kind == REACH_TARGET_MEET) return j;
        reach_real length = 0;
        for (int b = t->bone; b != ik->root; b = sk->parents[b])
            length += reach_vec3_length(ik->local[b].translation);
        if (reach_vec3_distance(t->position, ik->pos[ik->root]) < length) return j;
    }
    return -1;
}

/* The angle of a hinge's local rotation, within its range. */
static reach_real hinge_angle(const reach_joint *joint, reach_quat rest, reach_quat local) {
    reach_vec3 axis = reach_vec3_normalize_safe(joint->axis, reach_vec3_make(0, 1, 0));
    reach_quat delta = reach_quat_mul(reach_quat_conjugate(reach_quat_normalize_safe(rest)), local);
    return reach_angle_clamp(reach_quat_twist_angle(delta, axis), joint->min, joint->max);
}

/* Bends every moving bone a little about one axis across the line of target j (from the root to
 * its position, or between a meeting pair), inside the joints' limits, so a chain stuck on that
 * line leaves it. A hinge the bend cannot turn (its axis along the bend's, or its angle at the
 * end of its range the bend pushes against) turns instead toward the end of its range with more
 * room: a straight knee that only bends one way bends that way. */
static void kick(reach__ik *ik, int j) {
    const reach_target *t = &ik->targets[j];
    reach_vec3 from = t->kind == REACH_TARGET_MEET ? ik->pos[t->bone] : ik->pos[ik->root];
    reach_vec3 to = t->kind == REACH_TARGET_MEET ? ik->pos[t->meet_bone] : t->position;
    reach_vec3 line = reach_vec3_normalize_safe(
        reach_vec3_sub(to, from),
        reach_vec3_normalize_safe(reach_vec3_sub(ik->pos[t->bone], ik->pos[ik->root]), reach_vec3_make(0, 1, 0)));
    reach_vec3 axis = reach_vec3_any_perpendicular(line);
    reach_real angle = reach_min(REACH__KICK_MAX_BONE_ANGLE, REACH__KICK_TOTAL_ANGLE / (reach_real)ik->active_count);
    for (int k = 0; k < ik->active_count; ++k) {
        int b = ik->active[k];
        if (reach__ik_child_count(ik, b) == 0) continue;
        reach_joint joint = reach_skeleton_joint(ik->skeleton, b);
        reach_quat rest = ik->skeleton->rest[b].rotation, before = ik->local[b].rotation;
        reach_vec3 bone_axis = reach_quat_rotate(reach_quat_conjugate(ik->rot[b]), axis);
        reach_quat bent = reach_quat_mul(before, reach_quat_from_axis_angle(bone_axis, angle));
        reach_joint_project_rotation(&joint, rest, bent, &ik->local[b].rotation);
        if (joint.type != REACH_JOINT_HINGE) continue;
        reach_real now = hinge_angle(&joint, rest, before);
        if (reach_fabs(hinge_angle(&joint, rest, ik->local[b].rotation) - now) >= KICK_HINGE_SHARE * angle) continue;
        reach_real turned = joint.max - now >= now - joint.min ? now + angle : now - angle;
        reach_vec3 hinge_axis = reach_vec3_normalize_safe(joint.axis, reach_vec3_make(0, 1, 0));
        ik->local[b].rotation = reach_quat_normalize_safe(
            reach_quat_mul(reach_quat_normalize_safe(rest),
                           reach_quat_from_axis_angle(hinge_axis, reach_clamp(turned, joint.min, joint.max))));
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

/* How many iterations the attempt that began at `first` has left, of the `max` in all. */
static int attempt_budget(int first, int max) { return max - first; }

/* One attempt from the current pose: iterate until every target is within tolerance, the cap
 * is reached, or the solve stalls with no remedy left. Counts on in r->iterations. */
static void run_attempt(reach__ik *ik, const reach__ik_method *method, const reach_solver_settings *settings,
                        reach_solve_result *r, int may_move_root) {
    int (*iterate)(reach__ik * ik) = method->iterate, (*polish)(reach__ik * ik) = method->polish;
    reach_real stall = REACH__STALL_RATIO * ik->tolerance * total_weight(ik);
    reach_real previous, error;
    int reached = reach__ik_assess(ik, &r->residual, &r->angle_residual, &previous);
    int kicks = 0, since_best = 0, first = r->iterations;
    reach_real best = previous, last = previous;
    ik->slow_iterations = 0;
    /* A starting pose outside its joints' limits is solved at least once, so what comes out is
     * inside them, even when it already reaches. Every change to the pose is assessed once, right
     * after it: the residuals for this test, the weighted error for progress and stalls. */
    while (r->iterations < settings->max_iterations && !(reached && (r->iterations > 0 || ik->start_as_solved))) {
        ++r->iterations;
        r->limited = iterate(ik);
        reached = reach__ik_assess(ik, &r->residual, &r->angle_residual, &error);
        reach__crawl_step(&ik->slow_iterations, &last, error);
        if (error < REACH__POLISH_PROGRESS * best) {
            best = error;
            since_best = 0;
        } else {
            ++since_best;
        }
        if (polish && iterate != polish &&
            (since_best >= REACH__POLISH_PATIENCE ||
             2 * (r->iterations - first) >= attempt_budget(first, settings->max_iterations))) {
            /* Wandering without getting nearer, or half the budget gone: the polish, which only
             * ever moves downhill, gets the rest. */
            reach__ik_sync_rotations(ik);
            reached = reach__ik_assess(ik, &r->residual, &r->angle_residual, &previous);
            iterate = polish;
            continue;
        }
        if (reach_fabs(previous - error) > reach__stall_threshold(stall, previous, error)) {
            previous = error;
            continue;
        }
        /* Stalled. A remedy changes the pose, so it needs an iteration after it. */
        if (r->iterations >= settings->max_iterations) break;
        int missed = reachable_but_missed(ik);
        reach__ik_sync_rotations(ik);
        if (may_move_root && move_root(ik)) {
            /* resumes from the moved root */
        } else if (missed >= 0 && kicks < REACH__MAX_KICKS) {
            kick(ik, missed);
            ++kicks;
            ik->kicked = 1;
        } else if (method->begin_fallback && method->begin_fallback(ik)) {
            /* the method's own remedy, carried out by its next iterations */
        } else if (polish && iterate != polish) {
            iterate = polish;
        } else {
            break;
        }
        reached = reach__ik_assess(ik, &r->residual, &r->angle_residual, &previous);
    }
    reach__ik_sync_rotations(ik);
}

/* Nonzero when a moving hinge has a range short of the whole circle: then the middle of the
 * joints' ranges is a shape worth starting again from. */
static int has_hinge(const reach__ik *ik) {
    for (int k = 0; k < ik->active_count; ++k) {
        reach_joint joint = reach_skeleton_joint(ik->skeleton, ik->active[k]);
        if (joint.type == REACH_JOINT_HINGE && joint.max - joint.min < 2 * REACH_PI - REACH_R(1e-3)) return 1;
    }
    return 0;
}

/* The restart shape: every moving hinge at the middle of its range, cones at their centre
 * (twist at the middle of its range), balls at rest; the chain folds the way its limits let it
 * fold, away from the ends of one-sided ranges where a greedy step cannot tell which way to go. */
static void middle_of_ranges(reach__ik *ik) {
    const reach_skeleton *sk = ik->skeleton;
    for (int k = 0; k < ik->active_count; ++k) {
        int b = ik->active[k];
        reach_joint joint = reach_skeleton_joint(sk, b);
        reach_quat rest = reach_quat_normalize_safe(sk->rest[b].rotation);
        reach_vec3 axis = reach_vec3_normalize_safe(joint.axis, reach_vec3_make(0, 1, 0));
        reach_quat delta = reach_quat_identity();
        if (joint.type == REACH_JOINT_HINGE)
            delta = reach_quat_from_axis_angle(axis, (joint.min + joint.max) / 2);
        else if (joint.type == REACH_JOINT_CONE && joint.has_twist)
            delta = reach_quat_from_axis_angle(axis, (joint.twist_min + joint.twist_max) / 2);
        else if (joint.type == REACH_JOINT_PRISMATIC)
            continue;
        ik->local[b].rotation = reach_quat_normalize_safe(reach_quat_mul(rest, delta));
    }
    reach__ik_forward(ik);
}

/* Nonzero when a moving joint sits at an end of one of its ranges: a hinge angle, a cone's
 * swing or twist, a prismatic offset. A solve that stops there short of its targets was held
 * by the limits even where no clamp fired in its last pass (a one-sided knee left straight). */
static int at_a_limit(const reach__ik *ik) {
    const reach_skeleton *sk = ik->skeleton;
    const reach_real slack = REACH_R(1e-5);
    for (int k = 0; k < ik->active_count; ++k) {
        int b = ik->active[k];
        reach_joint joint = reach_skeleton_joint(sk, b);
        reach_vec3 axis = reach_vec3_normalize_safe(joint.axis, reach_vec3_make(0, 1, 0));
        reach_quat delta = reach_quat_normalize_safe(reach_quat_mul(
            reach_quat_conjugate(reach_quat_normalize_safe(sk->rest[b].rotation)), ik->local[b].rotation));
        reach_quat swing, twist;
        reach_quat_swing_twist(delta, axis, &swing, &twist);
        reach_real angle = reach_quat_twist_angle(twist, axis);
        switch (joint.type) {
        case REACH_JOINT_HINGE:
            if (joint.max - joint.min < 2 * REACH_PI - slack &&
                (reach_fabs(angle - joint.min) <= slack || reach_fabs(angle - joint.max) <= slack))
                return 1;
            break;
        case REACH_JOINT_CONE:
            if (joint.cone_angle < REACH_PI && reach_quat_angle(swing) >= joint.cone_angle - slack) return 1;
            if (joint.has_twist &&
                (reach_fabs(angle - joint.twist_min) <= slack || reach_fabs(angle - joint.twist_max) <= slack))
                return 1;
            break;
        case REACH_JOINT_PRISMATIC: {
            reach_real value = reach__prismatic_offset(reach_quat_normalize_safe(sk->rest[b].rotation),
                                                       sk->rest[b].translation, axis, ik->local[b].translation);
            reach_real room = slack * reach_max(1, reach_max(reach_fabs(joint.min), reach_fabs(joint.max)));
            if (joint.max > joint.min && (value <= joint.min + room || value >= joint.max - room)) return 1;
            break;
        }
        default: break;
        }
    }
    return 0;
}

/* Nonzero when a moving bone with moving children has a joint that restricts its rotation. */
static int restricted(const reach__ik *ik) {
    for (int k = 0; k < ik->active_count; ++k) {
        int b = ik->active[k];
        if (reach__ik_child_count(ik, b) == 0) continue;
        reach_joint joint = reach_skeleton_joint(ik->skeleton, b);
        if (!reach__joint_turns_freely(&joint)) return 1;
    }
    return 0;
}

static reach_solve_result run_attempts(reach__ik *ik, const reach__ik_method *method,
                                       const reach_solver_settings *settings) {
    int may_move_root = method->may_move_root && settings->fabrik_move_root;
    reach_solve_result r = {0, 0, 0, 0, 0};
    run_attempt(ik, method, settings, &r, may_move_root);
    r.reached = reach__ik_measure(ik, &r.residual, &r.angle_residual);
    if (!r.reached && r.iterations < settings->max_iterations && !may_move_root && reachable_but_missed(ik) >= 0 &&
        has_hinge(ik)) {
        /* Stopped short of a target within reach with hinges in the chain: once more from the
         * middle of every range, keeping whichever pose comes nearer. */
        reach_real kept = reach__ik_weighted_error(ik);
        int kept_limited = r.limited;
        reach__ik_keep_rotations(ik);
        middle_of_ranges(ik);
        run_attempt(ik, method, settings, &r, may_move_root);
        if (!(reach__ik_weighted_error(ik) < kept)) {
            reach__ik_restore_rotations(ik);
            r.limited = kept_limited;
        }
        r.reached = reach__ik_measure(ik, &r.residual, &r.angle_residual);
    }
    /* Short of the targets, say whether the joints held the pose there: a range at its end, or,
     * short of a target the bones could span, joints that restrict the chain (a hinge turns about
     * one axis only; such chains have nearest poses that are not the target, where every small
     * move goes away from it). A chain of free joints that stops short says limited 0. */
    if (!r.reached && !r.limited) r.limited = at_a_limit(ik) || (reachable_but_missed(ik) >= 0 && restricted(ik));
    return r;
}

/* ---- the solve -------------------------------------------------------------------------- */

size_t reach__ik_scratch_size(const reach_skeleton *skeleton, int target_count) {
    if (!skeleton || skeleton->bone_count < 0 || target_count < 0) return 0;
    reach__ik ik;
    reach__arena arena = reach__arena_make(NULL);
    reach__ik_layout(&ik, &arena, skeleton->bone_count, target_count);
    return reach__arena_need(&arena);
}

reach_status reach__ik_solve(const reach__ik_method *method, const reach_skeleton *skeleton,
                             const reach_target *targets, int target_count, const reach_solver_settings *settings,
                             reach_transform *pose, void *scratch, size_t scratch_size, reach_solve_result *result) {
    reach_solver_settings s;
    reach_status st = reach__solver_settings_resolve(settings, &s);
    if (st != REACH_OK) return st;
    int root;
    st = reach__ik_check(skeleton, targets, target_count, &s, pose, &root);
    if (st != REACH_OK) return st;
    /* The layout only places pointers, so it serves the size check too (the need it reports is
     * reach__ik_scratch_size's). */
    reach__ik ik;
    reach__arena arena = reach__arena_make(scratch);
    reach__ik_layout(&ik, &arena, skeleton->bone_count, target_count);
    if (scratch_size < reach__arena_need(&arena)) return REACH_ERROR_BUFFER_TOO_SMALL;
    REACH_CHECK_ARG(scratch);
    st = reach__ik_start(&ik, skeleton, targets, target_count, &s, pose, root);
    if (st != REACH_OK) return st;
    if (method->prepare) method->prepare(&ik, &s);
    reach_solve_result r = run_attempts(&ik, method, &s);
    /* Only the moving bones changed, and nothing did when no iteration ran: a pose that already
     * reaches stays bit for bit, frame after frame. */
    for (int k = 0; r.iterations > 0 && k < ik.active_count; ++k)
        pose[ik.active[k]] = ik.local[ik.active[k]];
    if (result) *result = r;
    return REACH_OK;
}
