/* The state of one FABRIK or CCD solve, laid out on the caller's scratch, and what every method
 * does with it: the bones that move (the union of the paths from the solve's root to every
 * effector), goals for the targets, residuals, forward kinematics and keeping the rotations in
 * step with the positions. Each method keeps its own working arrays in its own part of the
 * state (`fabrik`, `ccd`); the driver and the hub that composes the methods keep theirs
 * (`handoff`). Private; never installed. */
#ifndef REACH_IK_STATE_H
#define REACH_IK_STATE_H

#include <stddef.h>

#include "arena.h"
#include "limits_internal.h"
#include "robust.h"
#include "solve_constants.h"
#include "reach/solver.h"

/* A joint counts as satisfied when reach_joint_limit_error is at most this. */
#define REACH__LIMIT_SLACK (64 * REACH_REAL_EPSILON)

/* FABRIK's working arrays: Σ weight · proposed joint position and world rotation per bone, from
 * the backward pass. */
typedef struct reach__fabrik_state {
    reach_vec3 *sum_pos;    /* [bone_count] */
    reach_quat *sum_rot;    /* [bone_count] */
    reach_real *sum_weight; /* [bone_count] */
    int arc_start;          /* a solve from the rest pose: its first iteration on a free chain lays the
                               chain on the arc to its target first when the rest is straight
                               (reach__ik_lay_on_arc) */
} reach__fabrik_state;

/* CCD weighs an orientation error as points this fraction of the chain's length out along the
 * effector's axes: large enough that joints above an end that cannot turn freely help it turn,
 * small enough that the position still converges. */
#define REACH__ORIENTATION_LEVER REACH_R(0.2)

/* CCD's working arrays (set up with the shared state: FABRIK polishes with CCD's sweeps): each target's bone (and
 * meeting partner), kept current as joints turn. */
typedef struct reach__ccd_state {
    reach_vec3 *effector;     /* [target_count] */
    reach_quat *effector_rot; /* [target_count] */
    reach_vec3 *partner;      /* [target_count] */
    reach_real lever;         /* orientation points sit this far out along the effector's axes */
    reach_real max_step;      /* largest turn of one joint in one step; 0 none */
    int slides_prismatic;     /* steps slide prismatic joints (not when a sweep polishes FABRIK) */
} reach__ccd_state;

/* CCD's hand-off to FABRIK's iterations (ik_methods.c): on a lone target whose end does not
 * slide, with no cap on the steps. */
typedef struct reach__handoff {
    int allowed; /* a free chain, or (guarded) a lone target on ball and cone joints */
    int guarded; /* ... cones bound the chain: only near the edge of the reach, and only while
                    FABRIK's iterations reach or halve the error */
    int active;  /* a guarded hand-off has begun */
} reach__handoff;

typedef struct reach__ik {
    const reach_skeleton *skeleton;
    const reach_target *targets;
    int target_count;
    int root;                     /* the first bone that moves */
    reach_quat above_root;        /* world rotation of the root's parent (identity for a skeleton root) */
    reach_vec3 above_origin;      /* world position of the root's parent's joint (origin for a skeleton root) */
    int active_count;             /* bones that move, ascending (parents first) */
    int *active;                  /* [bone_count], first active_count used */
    int *child_start;             /* [bone_count + 1]: active children of b are children[child_start[b] ..] */
    int *children;                /* [bone_count] */
    unsigned char *is_active;     /* [bone_count]: marks of the general build of the moving set */
    unsigned char *free_tip;      /* [bone_count]: an effector whose own rotation nothing asks for */
    reach_real *weight;           /* [bone_count]: sum of target weights at or below the bone */
    reach_transform *local;       /* [bone_count]: working copy of the pose */
    reach_vec3 *pos;              /* [bone_count]: world joint positions of active bones */
    reach_quat *rot;              /* [bone_count]: world rotations of active bones */
    reach_quat *goal_rot;         /* [bone_count]: wanted world rotation of effectors */
    reach_vec3 *goal;             /* [target_count]: where each target pulls its bone this iteration */
    unsigned char *meet_anchored; /* [target_count]: a meeting pair's goal is fixed by other pulls */
    reach_quat *kept_rot;         /* [bone_count]: a pose to fall back to, the restart's (chains with
                                     hinges) or the guarded hand-off's (balls and cones only, so
                                     never both in one solve) */
    reach_real *link_length;      /* [bone_count]: |local translation| of each active bone */
    reach_vec3 *kept_pos;         /* [bone_count]: positions to fall back to within one FABRIK
                                     iteration (fabrik.c) */
    int free_chain;               /* one position target on a chain of freely turning joints */
    int lone_target;              /* one position target, with no orientation */
    int lone_chain;               /* one position target (no orientation) at the end of a chain of
                                     three or more moving links: where the bridge from the root applies */
    int kicked;                   /* the driver has bent the chain off the line to a target */
    int slow_iterations;          /* set by the driver: how many iterations in a row did not halve
                                     the error (reach__ik_crawling) */
    int rotations_stale;          /* positions moved without their rotations (reach__ik_sync_rotations) */
    reach_real chain_length;      /* sum of the active bones' link lengths */
    reach_real tolerance;         /* distance that counts as reached */
    reach_real angle_tolerance;
    int start_as_solved; /* the starting pose's moving bones satisfy their joints, their
                            rotations of unit length: a pose that reaches is then kept */
    reach__fabrik_state fabrik;
    reach__ccd_state ccd;
    reach__handoff handoff;
} reach__ik;

/* Lays out the per-bone and per-target arrays on the arena (base NULL: counting only). */
void reach__ik_layout(reach__ik *ik, reach__arena *arena, int bone_count, int target_count);

/* Checks everything a solve reads, writing nothing; *root receives the solve's root bone. */
reach_status reach__ik_check(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                             const reach_solver_settings *settings, const reach_transform *pose, int *root);

/* Fills *ik (laid out on the caller's scratch) with the working copy of the pose, the active
 * bones, weights, tolerance and the world transforms of the active bones. Writes only the
 * scratch; REACH_ERROR_OUT_OF_RANGE when coordinates are too large to compute with. */
reach_status reach__ik_start(reach__ik *ik, const reach_skeleton *skeleton, const reach_target *targets,
                             int target_count, const reach_solver_settings *settings, const reach_transform *pose,
                             int root);

/* Nonzero for a ball joint, or a cone that allows every swing and twist. */
int reach__joint_turns_freely(const reach_joint *joint);

/* A bone's joint type, read in place (a skeleton without joints has ball joints everywhere). */
static inline reach_joint_type reach__joint_type(const reach_skeleton *skeleton, int bone) {
    return skeleton->joints ? skeleton->joints[bone].type : REACH_JOINT_BALL;
}

/* Active children of a bone. */
static inline int reach__ik_child_count(const reach__ik *ik, int bone) {
    return ik->child_start[bone + 1] - ik->child_start[bone];
}

/* Nonzero when the solve is one position target at least the chain's length from the root:
 * FABRIK's iteration then lays the chain straight toward it. */
int reach__ik_target_out_of_reach(const reach__ik *ik);

/* A solve crawls when this many iterations running have each left more than half the error of
 * the one before: near the edge of a chain's reach FABRIK's passes and CCD's sweeps do so for
 * hundreds of iterations. */
#define REACH__CRAWL_ITERATIONS 2

/* Counts an iteration's error `now` against the one before (*last) into *slow, the iterations
 * running that did not halve it; returns whether the solve crawls. The driver and the 2-D
 * solver keep the count the same way. */
static inline int reach__crawl_step(int *slow, reach_real *last, reach_real now) {
    *slow = now > REACH_R(0.5) * *last ? *slow + 1 : 0;
    *last = now;
    return *slow >= REACH__CRAWL_ITERATIONS;
}

/* Whether the driver's last iterations crawled (reach__crawl_step). */
static inline int reach__ik_crawling(const reach__ik *ik) { return ik->slow_iterations >= REACH__CRAWL_ITERATIONS; }

/* Recovers local and world rotations from moved positions, once: each bone turns by the smallest
 * swing that points it at its child's new joint; the end keeps its wanted world rotation. Does
 * nothing unless the rotations are stale (ik_rotations.c). */
void reach__ik_sync_rotations(reach__ik *ik);

/* Forward kinematics for the active bones from their working local transforms. */
void reach__ik_forward(reach__ik *ik);

/* The moving bones' rotations into kept_rot, and back (with the world transforms). */
static inline void reach__ik_keep_rotations(reach__ik *ik) {
    for (int k = 0; k < ik->active_count; ++k)
        ik->kept_rot[ik->active[k]] = ik->local[ik->active[k]].rotation;
}

static inline void reach__ik_restore_rotations(reach__ik *ik) {
    for (int k = 0; k < ik->active_count; ++k)
        ik->local[ik->active[k]].rotation = ik->kept_rot[ik->active[k]];
    reach__ik_forward(ik);
}

/* Where each target pulls this iteration: its position, or for a meeting pair the point where
 * the two joints meet: the root's joint when one of them is the root, else where the position
 * targets on either end pull it (weighted), else the midpoint of the two (not anchored). */
void reach__ik_update_goals(reach__ik *ik);

/* Where the position targets on `bone` hold its joint (their weighted mean), else where it is. */
reach_vec3 reach__ik_held_or_current(const reach__ik *ik, int bone);

/* The residuals of the current positions and rotations. Returns nonzero when every target is
 * within tolerance. */
int reach__ik_measure(const reach__ik *ik, reach_real *residual, reach_real *angle_residual);

/* Distance between target j's bone and what it should reach (a position or the meeting
 * partner's joint), and the angle from its wanted orientation (0 when it has none). Inline:
 * the loop takes them after every iteration. */
static inline reach_real reach__ik_target_distance(const reach__ik *ik, int j) {
    const reach_target *t = &ik->targets[j];
    reach_vec3 other = t->kind == REACH_TARGET_MEET ? ik->pos[t->meet_bone] : t->position;
    return reach__length(reach_vec3_sub(ik->pos[t->bone], other));
}

static inline reach_real reach__ik_target_angle(const reach__ik *ik, int j) {
    const reach_target *t = &ik->targets[j];
    if (t->kind != REACH_TARGET_POSITION || !t->use_orientation) return 0;
    return reach_quat_angle_between(ik->rot[t->bone], ik->goal_rot[t->bone]);
}

/* Σ weight · (distance + chain length · angle): one number that falls as the solve improves. */
reach_real reach__ik_weighted_error(const reach__ik *ik);

/* reach__ik_measure and reach__ik_weighted_error (into *error) at once, each target's distance
 * and angle taken once. Inline for one position target with no orientation (every FABRIK
 * iteration's convergence test on a chain): its sums and maxima of one term each are that term,
 * the same numbers as reach__ik_assess_targets's loop. */
int reach__ik_assess_targets(const reach__ik *ik, reach_real *residual, reach_real *angle_residual, reach_real *error);

static inline int reach__ik_assess(const reach__ik *ik, reach_real *residual, reach_real *angle_residual,
                                   reach_real *error) {
    if (!ik->lone_target) return reach__ik_assess_targets(ik, residual, angle_residual, error);
    reach_real d = reach__ik_target_distance(ik, 0);
    *residual = d;
    *angle_residual = 0;
    *error = ik->targets[0].weight * d;
    return d <= ik->tolerance && 0 <= ik->angle_tolerance;
}

/* Nonzero when `ancestor` is `bone` or lies on the path from bone up to its skeleton root. */
static inline int reach__is_ancestor(const reach_skeleton *skeleton, int ancestor, int bone) {
    /* Parents come before their children: walk up while above `ancestor`'s index. */
    while (bone > ancestor)
        bone = skeleton->parents[bone];
    return bone == ancestor;
}

#endif
