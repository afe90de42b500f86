/* The Jacobian solve: validate, then iterate steps with a backtracking line search, restarting
 * from random joint values when an attempt stalls, and return the best pose found. */
#include "internal.h"
#include "jacobian_problem.h"
#include "settings_internal.h"
#include "reach/limits.h"

/* An attempt whose error has not halved over this many iterations has stalled. */
#define STALL_WINDOW 8
/* At most this many kicks (reach__jac_state_kick) in one solve, as in FABRIK and CCD. */
#define MAX_KICKS 2

/* Position first: DLS starts with the orientation rows weighted by a tenth (and, off the limits,
 * no pull toward rest: below), and gives them their full weight once every effector is within
 * POSITION_FIRST_RESIDUAL of L of its target (or its tolerance, if larger), or when that first
 * phase stalls (a target out of reach, say). From TRAC-IK's start at the middle of the ranges the
 * orientation error is often near π, and weighted in full it steers the first steps, which settle
 * the arm's branch (elbow up or down, wrist flipped): on the bench's 1 000 poses each, DLS then
 * stalled short of the goal on 14 % of the UR5's (typically its arm stretched out, the position
 * beyond the branch's reach) and 17 % of the Panda's. Placing the effector first picks the branch
 * by the position, and the orientation is then met within that branch: the UR5 reaches 85.7 →
 * 88.5 %, the Panda 83.0 → 85.5 %, the iiwa 98.6 → 98.3 %, in 1 to 4 % more iterations on the
 * poses reached (from random starts, 89 → 91 %, 55 → 57 % and 75 → 76 %). Weights of 0.2 and 0.05,
 * thresholds of 0.01 and 0.03, a switch as soon as the position error is below the orientation
 * error, or a growing damping at the start instead (Levenberg–Marquardt's λ from 1 or 10 down by
 * thirds) all reached less on the UR5 or the Panda. */
#define POSITION_FIRST_ROTATION_WEIGHT REACH_R(0.1)
#define POSITION_FIRST_RESIDUAL        REACH_R(0.003)

static int places_position_first(const jac_problem *p, const reach_solver_settings *settings) {
    if (settings->jacobian_method != REACH_JACOBIAN_DLS) return 0;
    for (int t = 0; t < p->target_count; ++t)
        if (p->targets[t].use_orientation) return 1;
    return 0;
}

/* The end of the position-first phase: the orientation rows at full weight, and the states the
 * solve compares weighed again alike. */
static void weigh_orientation_in_full(jac_problem *p, jac_workspace *ws, const jac_state *best) {
    p->rotation_weight = 1;
    reach__jac_evaluate(p, &ws->current);
    if (best == &ws->best) reach__jac_evaluate(p, &ws->best);
}

/* The topmost moving bone on the path from `bone` to the skeleton's root (-1 when none moves):
 * its joint is where the path turns about. */
static int pivot_of(const jac_problem *p, int bone) {
    int pivot = -1;
    for (int b = bone; b >= 0; b = p->skeleton->parents[b])
        if (p->first_column[b] >= 0) pivot = b;
    return pivot;
}

/* Whether the joints from `bone` up to `pivot` lie on one line (to a thousandth of their links'
 * length): then every turn of the path moves its end across that line, never along it. */
static int path_is_straight(const jac_problem *p, const jac_state *state, int bone, int pivot, reach_real links) {
    const reach_skeleton *sk = p->skeleton;
    reach_vec3 origin = state->world[pivot].translation, farthest = origin;
    for (int b = bone; b != pivot; b = sk->parents[b])
        if (reach_vec3_distance(state->world[b].translation, origin) > reach_vec3_distance(farthest, origin))
            farthest = state->world[b].translation;
    reach_vec3 along = reach_vec3_normalize_safe(reach_vec3_sub(farthest, origin), reach_vec3_zero());
    for (int b = bone; b != pivot; b = sk->parents[b])
        if (reach_vec3_length_robust(reach_vec3_reject(reach_vec3_sub(state->world[b].translation, origin), along)) >
            REACH_R(1e-3) * links)
            return 0;
    return 1;
}

/* The line to bend a chain off when no step helps though a target could be met: a path lying
 * straight, its target not met though within its links' reach (or a meeting pair on one such
 * path not together). A straight path moves its end only across its own line, so a stall there
 * means the error lies along it. The line runs from the path's pivot to the target. Returns 0
 * when there is none: a stall elsewhere (at the limits, in a fold) is the restarts' to deal
 * with. */
static int stuck_on_a_line(const jac_problem *p, const jac_state *state, reach_vec3 *line) {
    const reach_skeleton *sk = p->skeleton;
    for (int t = 0; t < p->target_count; ++t) {
        const reach_target *target = &p->targets[t];
        reach_vec3 end = state->world[target->bone].translation;
        int meet = target->kind == REACH_TARGET_MEET;
        reach_vec3 goal = meet ? state->world[target->meet_bone].translation : target->position;
        if (reach_vec3_distance(end, goal) <= p->tolerance) continue;
        int pivot = pivot_of(p, target->bone);
        if (pivot < 0) continue;
        reach_real links = 0;
        for (int b = target->bone; b != pivot; b = sk->parents[b])
            links += reach_vec3_length_robust(state->local[b].translation);
        if (!(links > 0) || !path_is_straight(p, state, target->bone, pivot, links)) continue;
        if (meet && pivot_of(p, target->meet_bone) >= 0 &&
            !path_is_straight(p, state, target->meet_bone, pivot_of(p, target->meet_bone), links))
            continue;
        *line = reach_vec3_sub(goal, meet ? end : state->world[pivot].translation);
        if (meet || reach_vec3_length_robust(*line) < links) return 1;
    }
    return 0;
}

/* Whether the pose is what the solver would write for it: every moving bone inside its joint's
 * limits and turned by a rotation of unit length (reach__quat_is_unit). */
static int pose_as_solved(const jac_problem *p, const reach_transform *pose) {
    /* Mimic followers are rewritten from their leaders: the solver's pose is the one to give. */
    if (p->follower_count > 0) return 0;
    for (int m = 0; m < p->moving_count; ++m) {
        int bone = p->moving[m];
        if (!reach__quat_is_unit(pose[bone].rotation)) return 0;
        if (reach_joint_limit_error(&p->joints[bone].joint, &p->skeleton->rest[bone], &pose[bone]) >
            64 * REACH_REAL_EPSILON)
            return 0;
    }
    return 1;
}

/* Whether the path from `end` up to the root has no length in this pose: every bone on it below
 * the root sits on its parent's joint, and no slide on it moves. (The pose's translations, not
 * the rest pose's: a bone keeps the length it is given.) */
static int path_has_no_length(const jac_problem *p, const reach_transform *local, int end) {
    const reach_skeleton *sk = p->skeleton;
    for (int b = end; b >= 0 && b != p->root_bone; b = sk->parents[b]) {
        reach_vec3 offset = local[b].translation;
        if (offset.x != 0 || offset.y != 0 || offset.z != 0) return 0;
        reach_joint joint = reach_skeleton_joint(sk, b);
        if (p->first_column[b] >= 0 && joint.type == REACH_JOINT_PRISMATIC && (joint.min != 0 || joint.max != 0))
            return 0;
    }
    return 1;
}

/* Whether no pose can move any target: every target asks for a position alone (or two ends to
 * meet) and every path to them has no length. A restart would then only repeat the first
 * attempt's stall (a chain of zero-length bones ran its 50 restarts to the same answer). */
static int nothing_can_move(const jac_problem *p, const reach_transform *local) {
    for (int t = 0; t < p->target_count; ++t) {
        const reach_target *target = &p->targets[t];
        if (target->use_orientation || !path_has_no_length(p, local, target->bone)) return 0;
        if (target->kind == REACH_TARGET_MEET && !path_has_no_length(p, local, target->meet_bone)) return 0;
    }
    return 1;
}

static reach_status check_jacobian_settings(const reach_solver_settings *s) {
    if (s->max_iterations < 0 || s->restarts < 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(s->tolerance) || !reach_is_finite(s->angle_tolerance) || !reach_is_finite(s->damping))
        return REACH_ERROR_NOT_FINITE;
    if (s->tolerance < 0 || s->angle_tolerance < 0 || s->damping < 0) return REACH_ERROR_INVALID_ARGUMENT;
    switch (s->jacobian_method) {
    case REACH_JACOBIAN_TRANSPOSE:
    case REACH_JACOBIAN_PSEUDOINVERSE:
    case REACH_JACOBIAN_DLS:
    case REACH_JACOBIAN_SDLS: return REACH_OK;
    default: return REACH_ERROR_INVALID_ARGUMENT;
    }
}

static int better(const jac_state *a, const jac_state *b) {
    return (a->reached && !b->reached) || (a->reached == b->reached && a->error_sq < b->error_sq);
}

/* Moves to trial when it is better than current; returns whether it did. */
static int accept_trial(jac_workspace *ws) {
    if (!better(&ws->trial, &ws->current)) return 0;
    jac_state taken = ws->trial;
    ws->trial = ws->current;
    ws->current = taken;
    return 1;
}

/* Takes the step with the motion toward rest if that lowers the error; otherwise the method's
 * step alone, halving it (up to `halvings` times) until the error drops. The motion toward rest
 * is only first-order harmless: where the method's step barely lowers the error (a target across
 * the chain's reach) its second-order effect can win at every scale, and it must not stall the
 * solve. */
static int take_step(const jac_problem *p, jac_workspace *ws, int halvings) {
    if (ws->has_relaxed) {
        reach__jac_state_step(p, &ws->current, ws->relaxed_step, 1, &ws->trial);
        if (accept_trial(ws)) return 1;
    }
    reach_real scale = 1;
    for (int attempt = 0; attempt <= halvings; ++attempt, scale *= REACH_R(0.5)) {
        reach__jac_state_step(p, &ws->current, ws->step, scale, &ws->trial);
        if (accept_trial(ws)) return 1;
    }
    return 0;
}

/* Whether the last step moved a locked joint up to its limit (and not only held one there). */
static int has_fixed_motion(const jac_problem *p, const jac_workspace *ws) {
    for (int c = 0; c < p->columns; ++c)
        if (ws->fixed[c] != 0) return 1;
    return 0;
}

/* A move with the settings' method: its step (halved up to `halvings` times), and, where that
 * step moved a joint up to a limit and still failed, the step with only the joints locked that
 * sit on a limit it pushes against. The fixed motions of joints locked at their limits can push
 * the end away faster than the free joints bring it back, at every length; usually the second
 * step lowers the error, and where the free joints left all push into limits too, neither moves
 * (the restarts' case). */
static int move(const jac_problem *p, const reach_solver_settings *settings, jac_workspace *ws, int halvings) {
    if (reach__jac_compute_step(p, settings, &ws->current, ws, 0) && take_step(p, ws, halvings)) return 1;
    return has_fixed_motion(p, ws) && reach__jac_compute_step(p, settings, &ws->current, ws, 1) &&
           take_step(p, ws, halvings);
}

/* What the pseudoinverse falls back on where its full step does not lower the error: DLS's step,
 * with the adaptive damping. A singular value far below the largest but above the cutoff makes
 * the undamped step huge along its direction (hundreds of radians where σ is 1e-4 of the
 * largest); that direction descends, but only over steps far shorter than the bound and its
 * halvings reach, so the attempt stopped, or crawled, at poses that are no minimum. The damped
 * step descends there (docs/jacobian.md, "The pseudoinverse's fallback"). */
static reach_solver_settings pseudoinverse_fallback(const reach_solver_settings *settings) {
    reach_solver_settings fallback = *settings;
    fallback.jacobian_method = REACH_JACOBIAN_DLS;
    fallback.damping = 0;
    return fallback;
}

static int pose_is_finite(const reach_transform *pose, int count) {
    for (int i = 0; i < count; ++i)
        if (!reach_quat_is_finite(pose[i].rotation) || !reach_vec3_is_finite(pose[i].translation)) return 0;
    return 1;
}

/* No targets: nothing to reach, so nothing moves, as in FABRIK and CCD; everything else is
 * checked as they check it (skeleton, settings, pose, then scratch), so that bad input is the
 * same error whatever the count. */
static reach_status solve_nothing(const reach_skeleton *skeleton, const reach_solver_settings *settings,
                                  const reach_transform *pose, const void *scratch, size_t scratch_size,
                                  reach_solve_result *result) {
    reach_status st = reach_skeleton_validate(skeleton, NULL);
    if (st != REACH_OK) return st;
    if (skeleton->bone_count == 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (settings->root_bone < -1 || settings->root_bone >= skeleton->bone_count) return REACH_ERROR_INVALID_ARGUMENT;
    st = reach__jac_check_pose(skeleton, pose);
    if (st != REACH_OK) return st;
    if (scratch_size < reach_jacobian_scratch_size(skeleton, 0)) return REACH_ERROR_BUFFER_TOO_SMALL;
    REACH_CHECK_ARG(scratch);
    if (result) {
        reach_solve_result nothing = {0, 0, 0, 1, 0};
        *result = nothing;
    }
    return REACH_OK;
}

reach_status reach_jacobian_solve(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                  const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                                  size_t scratch_size, reach_solve_result *result) {
    REACH_CHECK_ARG(skeleton && pose && target_count >= 0 && (target_count == 0 || targets));
    /* NULL means the defaults, as for FABRIK and CCD. */
    reach_solver_settings resolved;
    reach_status settings_status = reach__solver_settings_resolve(settings, &resolved);
    if (settings_status != REACH_OK) return settings_status;
    settings = &resolved;
    reach_status st = check_jacobian_settings(settings);
    if (st != REACH_OK) return st;
    if (target_count == 0) return solve_nothing(skeleton, settings, pose, scratch, scratch_size, result);
    jac_problem p;
    jac_workspace ws;
    st = reach__jac_setup(skeleton, targets, target_count, settings->root_bone, scratch, scratch_size, &p, &ws);
    if (st != REACH_OK) return st;
    st = reach__jac_check_pose(skeleton, pose);
    if (st != REACH_OK) return st;
    if (settings->tolerance > 0) p.tolerance = settings->tolerance;
    p.angle_tolerance = settings->angle_tolerance;

    if (places_position_first(&p, settings)) p.rotation_weight = POSITION_FIRST_ROTATION_WEIGHT;
    const reach_real placed = reach_max(POSITION_FIRST_RESIDUAL * p.length, p.tolerance);
    reach__jac_state_from_pose(&p, pose, &ws.current);
    if (!reach_is_finite(ws.current.error_sq)) return REACH_ERROR_OUT_OF_RANGE;

    const reach_solver_settings fallback = pseudoinverse_fallback(settings);
    /* While the effectors are placed first, no pull toward rest in the null space unless a joint
     * sits at a limit: with the orientation rows at a tenth, their directions count half as null
     * space under the damping, and away from the limits the pull only fought the orientation (from
     * the middle of the ranges the Panda took 19 % more iterations on the poses reached), while at
     * a limit it keeps the redundant joints off it (without it, from random starts, DLS reached
     * 71 % of the iiwa's poses and 52 % of the Panda's instead of 76 % and 57 %). */
    reach_solver_settings placing = *settings;
    placing.null_space = 0;
    uint64_t rng = settings->seed;
    int restarts_left = nothing_can_move(&p, ws.current.local) ? 0 : settings->restarts;
    int iterations = 0, attempt_iterations = 0, kicks = 0;
    reach_real checkpoint = ws.current.error_sq;
    /* Within an attempt the current state only ever improves (a trial is taken only when it is
     * better), so the best is the current one until a restart leaves it: copied then, not at
     * every iteration. */
    const jac_state *best = &ws.current;
    while (!best->reached && iterations < settings->max_iterations) {
        if (p.rotation_weight != 1 && ws.current.residual <= placed) {
            weigh_orientation_in_full(&p, &ws, best);
            attempt_iterations = 0;
            checkpoint = ws.current.error_sq;
        }
        ++iterations;
        ++attempt_iterations;
        /* The pseudoinverse: its full step, else DLS's step, else its own step halved (a second
         * SVD, only where both fail). */
        int moved = settings->jacobian_method == REACH_JACOBIAN_PSEUDOINVERSE
                        ? move(&p, settings, &ws, 0) || move(&p, &fallback, &ws, REACH_JACOBIAN_LINE_SEARCH) ||
                              move(&p, settings, &ws, REACH_JACOBIAN_LINE_SEARCH)
                        : move(&p, p.rotation_weight != 1 && !ws.current.limited ? &placing : settings, &ws,
                               REACH_JACOBIAN_LINE_SEARCH);
        if (best != &ws.current && better(&ws.current, best)) best = &ws.current;
        int stalled = !moved;
        if (attempt_iterations % STALL_WINDOW == 0) {
            /* |e| halves ⇔ |e|² quarters. */
            if (ws.current.error_sq > REACH_R(0.25) * checkpoint) stalled = 1;
            checkpoint = ws.current.error_sq;
        }
        if (!stalled || best->reached) continue;
        if (p.rotation_weight != 1) {
            /* Placing the effectors first has gone as far as it can. */
            weigh_orientation_in_full(&p, &ws, best);
            attempt_iterations = 0;
            checkpoint = ws.current.error_sq;
            continue;
        }
        reach_vec3 line;
        if (!moved && kicks < MAX_KICKS && stuck_on_a_line(&p, &ws.current, &line)) {
            /* Stuck though a target is within reach: a chain on the line to its target. The
             * best pose so far is kept; the bent one goes on. */
            if (best == &ws.current) {
                reach__jac_state_copy(&p, &ws.current, &ws.best);
                best = &ws.best;
            }
            reach__jac_state_kick(&p, &ws.current, line, ws.step, &ws.trial);
            jac_state kicked = ws.trial;
            ws.trial = ws.current;
            ws.current = kicked;
            ++kicks;
            attempt_iterations = 0;
            checkpoint = ws.current.error_sq;
            if (better(&ws.current, best)) best = &ws.current;
            continue;
        }
        if (restarts_left == 0) {
            if (!moved) break; /* nowhere left to go */
            continue;
        }
        --restarts_left;
        if (best == &ws.current) {
            reach__jac_state_copy(&p, &ws.current, &ws.best);
            best = &ws.best;
        }
        reach__jac_state_randomise(&p, &rng, &ws.current);
        attempt_iterations = 0;
        checkpoint = ws.current.error_sq;
        if (better(&ws.current, best)) best = &ws.current;
    }

    /* Never hand back a non-finite pose (the steps are bounded, so this is only a guard), nor a
     * residual that overflowed: targets that far apart are out of range. */
    if (!pose_is_finite(best->local, skeleton->bone_count) || !reach_is_finite(best->residual))
        return REACH_ERROR_OUT_OF_RANGE;
    /* A pose that already reached inside its limits, its rotations unit, stays bit for bit, as
     * in FABRIK and CCD; any other comes back inside the limits and made unit. */
    if (iterations > 0 || !pose_as_solved(&p, pose))
        for (int i = 0; i < skeleton->bone_count; ++i)
            pose[i] = best->local[i];
    if (result) {
        result->iterations = iterations;
        result->residual = best->residual;
        result->angle_residual = best->angle_residual;
        result->reached = best->reached;
        result->limited = best->limited;
    }
    return REACH_OK;
}

const char *reach_jacobian_method_name(reach_jacobian_method method) {
    switch (method) {
    case REACH_JACOBIAN_TRANSPOSE: return "transpose";
    case REACH_JACOBIAN_PSEUDOINVERSE: return "pseudoinverse";
    case REACH_JACOBIAN_DLS: return "dls";
    case REACH_JACOBIAN_SDLS: return "sdls";
    default: return "unknown";
    }
}
