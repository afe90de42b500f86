/* What FABRIK and CCD share: carving caller scratch, checking a solve's inputs, the set of bones
 * that move (the union of the paths from the solve's root to every effector), goals for the
 * targets, residuals, and the best-fit rotation. Private; never installed. */
#ifndef REACH_FABRIK_INTERNAL_H
#define REACH_FABRIK_INTERNAL_H

#include <stddef.h>

#include "limits_internal.h"
#include "packed_vec3.h"
#include "reach/solver.h"

/* Coordinates beyond this would overflow reach_real when squared and summed. */
#ifdef REACH_DOUBLE
#define REACH__COORDINATE_LIMIT 1e150
#else
#define REACH__COORDINATE_LIMIT 1e18f
#endif

/* Squared lengths strictly between these take a plain square root and division; outside, the
 * scaled routines (reach_vec3_normalize_safe), which neither underflow nor overflow. */
#ifdef REACH_DOUBLE
#define REACH__SQUARE_FLOOR   1e-290
#define REACH__SQUARE_CEILING 1e300
#else
#define REACH__SQUARE_FLOOR   1e-30f
#define REACH__SQUARE_CEILING 1e37f
#endif

/* Length and unit vectors the plain way where the squares are in range (the common case),
 * else by the scaled routines. */
static inline reach_real reach__length(reach_vec3 v) {
    reach_real s = reach_vec3_dot(v, v);
    return s > REACH__SQUARE_FLOOR && s < REACH__SQUARE_CEILING ? reach_sqrt(s) : reach_vec3_length_robust(v);
}

static inline reach_vec3 reach__unit(reach_vec3 v, reach_vec3 fallback) {
    reach_real s = reach_vec3_dot(v, v);
    return s > REACH__SQUARE_FLOOR && s < REACH__SQUARE_CEILING ? reach_vec3_scale(v, 1 / reach_sqrt(s))
                                                                : reach_vec3_normalize_safe(v, fallback);
}

/* reach__unit on packed vectors (packed_vec3.h), the same bits. */
static inline packed_vec3 reach__packed_unit(packed_vec3 v, packed_vec3 fallback) {
    reach_real s = packed_length_sq(v);
    if (s > REACH__SQUARE_FLOOR && s < REACH__SQUARE_CEILING) return packed_scale(v, 1 / reach_sqrt(s));
    reach_vec3 unit, other;
    packed_store(&unit, v);
    packed_store(&other, fallback);
    unit = reach_vec3_normalize_safe(unit, other);
    return packed_load(&unit);
}

/* Squared norms within this of 1 (a product of unit quaternions, a few roundings off) take one
 * Newton step from 1 for 1/√s, (3 − s) / 2: its error, 3/8 (s − 1)², is below a fifth of a unit
 * in the last place there, and it spares the square root and the division on the dependent
 * chains of forward kinematics and rotation recovery. */
#ifdef REACH_DOUBLE
#define REACH__NEAR_UNIT 0x1p-27
#else
#define REACH__NEAR_UNIT 0x1p-12f
#endif

/* 1/√s for a quaternion's squared norm s into *inv; 0 when s is beyond the plain range (then
 * the scaled normalisation takes over). */
static inline int reach__quat_inverse_norm(reach_real s, reach_real *inv) {
    if (reach_fabs(s - 1) < REACH__NEAR_UNIT)
        *inv = (3 - s) / 2;
    else if (s > REACH__SQUARE_FLOOR && s < REACH__SQUARE_CEILING)
        *inv = 1 / reach_sqrt(s);
    else
        return 0;
    return 1;
}

static inline reach_quat reach__quat_unit(reach_quat q) {
    reach_real inv;
    if (!reach__quat_inverse_norm(reach_quat_dot(q, q), &inv)) return reach_quat_normalize_safe(q);
    return reach_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

/* reach__quat_unit on a packed quaternion, the same bits. */
static inline packed_quat reach__packed_quat_unit(packed_quat q) {
    reach_real inv;
    if (reach__quat_inverse_norm(packed_quat_dot(q, q), &inv)) return packed_quat_scale(q, inv);
    reach_quat unit;
    packed_quat_store(&unit, q);
    unit = reach_quat_normalize_safe(unit);
    return packed_quat_load(&unit);
}

/* The default tolerance, as a fraction of the moving chain's length. */
#define REACH__DEFAULT_TOLERANCE_RATIO REACH_R(1e-4)

/* Nothing closer than a few units in the last place of the coordinates can be promised: the
 * tolerance is at least this times the largest coordinate in play. */
#define REACH__TOLERANCE_FLOOR (16 * REACH_REAL_EPSILON)

/* An iteration that changes the (weighted) error by less than this fraction of the tolerance
 * (per unit of target weight) has stalled. */
#define REACH__STALL_RATIO REACH_R(1e-3)

/* The change in error below which an iteration has stalled: `floor`, or the rounding noise of
 * errors this large, whichever is more (an error of 10 in float wobbles by about 1e-6). */
static inline reach_real reach__stall_threshold(reach_real floor, reach_real before, reach_real after) {
    return reach_max(floor, 32 * REACH_REAL_EPSILON * reach_max(before, after));
}

/* A joint counts as satisfied when reach_joint_limit_error is at most this. */
#define REACH__LIMIT_SLACK (64 * REACH_REAL_EPSILON)

/* CCD weighs an orientation error as points this fraction of the chain's length out along the
 * effector's axes: large enough that joints above an end that cannot turn freely help it turn,
 * small enough that the position still converges. */
#define REACH__ORIENTATION_LEVER REACH_R(0.2)

/* FABRIK with tight limits can wander without getting nearer. When this many iterations have
 * not brought the error below this fraction of its best, the solve hands over to CCD sweeps. */
#define REACH__POLISH_PATIENCE 4
#define REACH__POLISH_PROGRESS REACH_R(0.99)

/* ---- scratch ---------------------------------------------------------------------------- */

/* Hands out aligned pieces of the caller's scratch. With base NULL it only counts, so the size
 * query and the solve run the same layout code and cannot disagree. */
typedef struct reach__arena {
    unsigned char *base;
    size_t used;
} reach__arena;

#define REACH__ARENA_ALIGN 16

reach__arena reach__arena_make(void *base);
void *reach__arena_take(reach__arena *arena, size_t count, size_t size);
/* Bytes to ask the caller for: what the layout used plus room to align an unaligned base. */
size_t reach__arena_need(const reach__arena *arena);

/* ---- the solve's state ------------------------------------------------------------------ */

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
    unsigned char *is_active;     /* [bone_count] */
    unsigned char *free_tip;      /* [bone_count]: an effector whose own rotation nothing asks for */
    reach_real *weight;           /* [bone_count]: sum of target weights at or below the bone */
    reach_transform *local;       /* [bone_count]: working copy of the pose */
    reach_vec3 *pos;              /* [bone_count]: world joint positions of active bones */
    reach_quat *rot;              /* [bone_count]: world rotations of active bones */
    reach_quat *goal_rot;         /* [bone_count]: wanted world rotation of effectors */
    reach_vec3 *goal;             /* [target_count]: where each target pulls its bone this iteration */
    unsigned char *meet_anchored; /* [target_count]: a meeting pair's goal is fixed by other pulls */
    /* FABRIK's backward pass: Σ weight · proposed joint position and world rotation per bone. */
    reach_vec3 *sum_pos;    /* [bone_count] */
    reach_quat *sum_rot;    /* [bone_count] */
    reach_real *sum_weight; /* [bone_count] */
    /* CCD's sweep: each target's bone (and meeting partner), kept current as joints turn. */
    reach_vec3 *effector;     /* [target_count] */
    reach_quat *effector_rot; /* [target_count] */
    reach_vec3 *partner;      /* [target_count] */
    reach_quat *kept_rot;     /* [bone_count]: a pose to fall back to, the restart's (chains with
                                 hinges) or CCD's before a guarded hand-off (balls and cones only,
                                 so never both in one solve) */
    reach_real *link_length;  /* [bone_count]: |local translation| of each active bone */
    reach_vec3 *link_before;  /* [bone_count]: free chain: each link in world space where the
                                 rotations last held, for reach__ik_sync_rotations (which leaves
                                 unit vectors there) */
    int free_chain;           /* one position target on a chain of freely turning joints */
    int lone_chain;           /* one position target (no orientation) at the end of a chain of
                                 three or more moving links: where the bridge from the root applies */
    int ccd_hands_off;        /* CCD's own solve of a lone target on ball and cone joints (or a
                                 free chain), whose end does not slide, with no cap on its steps:
                                 some iterations are FABRIK's (reach__ccd_sweep) */
    int ccd_guarded;          /* ... cones bound the chain: only near the edge of the reach, and
                                 only while FABRIK's iterations reach or halve the error */
    int handing_off;          /* a guarded hand-off has begun */
    int kicked;               /* the driver has bent the chain off the line to a target */
    int slow_iterations;      /* set by the driver: how many iterations in a row did not halve
                                 the error (reach__ik_crawling) */
    int rotations_stale;      /* positions moved without their rotations (reach__ik_sync_rotations) */
    int arc_start;            /* FABRIK from the rest pose: its first iteration on a free chain
                                 lays the chain on the arc to its target first when the rest is
                                 straight (reach__ik_lay_on_arc) */
    reach_real chain_length;  /* sum of the active bones' link lengths */
    reach_real tolerance;     /* distance that counts as reached */
    reach_real angle_tolerance;
    int start_as_solved;  /* the starting pose's moving bones satisfy their joints, their
                                 rotations of unit length: a pose that reaches is then kept */
    reach_real lever;     /* CCD: orientation points sit this far out along the axes */
    reach_real max_step;  /* CCD: largest turn of one joint in one step; 0 none */
    int slides_prismatic; /* CCD steps slide prismatic joints (not in FABRIK's polish) */
} reach__ik;

/* Bytes of scratch a FABRIK or CCD solve needs (0 for a NULL skeleton or a negative count). */
size_t reach__ik_scratch_size(const reach_skeleton *skeleton, int target_count);

/* The whole solve FABRIK and CCD share: check, lay out the scratch, start, run the loop (see
 * reach__ik_run) and write the pose. fabrik_rules: FABRIK's contract applies, whichever sweep
 * runs: settings.fabrik_move_root is honoured and prismatic joints keep their offsets (CCD
 * slides them, except as FABRIK's polish). */
reach_status reach__ik_solve(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                             const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                             size_t scratch_size, reach_solve_result *result, int (*iterate)(reach__ik *ik),
                             int (*polish)(reach__ik *ik), int fabrik_rules);

/* Nonzero for a ball joint, or a cone that allows every swing and twist. */
int reach__joint_turns_freely(const reach_joint *joint);

/* A bone's joint type, read in place (a skeleton without joints has ball joints everywhere). */
static inline reach_joint_type reach__joint_type(const reach_skeleton *skeleton, int bone) {
    return skeleton->joints ? skeleton->joints[bone].type : REACH_JOINT_BALL;
}

/* Nonzero when the solve is one position target (no orientation) on a chain whose moving joints
 * above the end all turn freely: FABRIK then iterates on positions alone (fabrik_chain.c). */
int reach__ik_is_free_chain(const reach__ik *ik);

/* Lays a free chain at its rest pose that lies straight (every joint, in the bones' own frames)
 * along the circular arc of its length from the root's joint at `root` to `target`, a chord
 * shorter than the chain: ik->pos only. Returns 0, changing nothing, when the chain is not
 * straight or the arc is undetermined (fabrik_arc.c). */
int reach__ik_lay_on_arc(reach__ik *ik, reach_vec3 root, reach_vec3 target);

/* One FABRIK iteration on such a chain: moves ik->pos only and marks the rotations stale. */
int reach__fabrik_chain_iterate(reach__ik *ik);

/* One FABRIK iteration on any solve (fabrik.c); CCD takes one where its sweeps cannot do well:
 * a lone target out of reach, or one its sweeps crawl toward. */
int reach__fabrik_iterate(reach__ik *ik);

/* Nonzero when the solve is one position target at least the chain's length from the root:
 * FABRIK's iteration then lays the chain straight toward it. */
int reach__ik_target_out_of_reach(const reach__ik *ik);
/* Whether CCD's sweeps on a chain of cones may hand over to FABRIK's iterations now: a lone
 * target near the edge of the reach, no hand-off begun or given up, no kick (ccd.c). */
int reach__ccd_may_hand_off(const reach__ik *ik);

/* A solve crawls when this many iterations running have each left more than half the error of
 * the one before: near the edge of a chain's reach FABRIK's passes and CCD's sweeps do so for
 * hundreds of iterations. */
#define REACH__CRAWL_ITERATIONS 2

/* Counts an iteration's error `now` against the one before (*last) into *slow, the iterations
 * running that did not halve it; returns whether the solve crawls. FABRIK's driver and the 2-D
 * solver keep the count the same way. */
static inline int reach__crawl_step(int *slow, reach_real *last, reach_real now) {
    *slow = now > REACH_R(0.5) * *last ? *slow + 1 : 0;
    *last = now;
    return *slow >= REACH__CRAWL_ITERATIONS;
}

/* Whether the driver's last iterations crawled (reach__crawl_step). */
static inline int reach__ik_crawling(const reach__ik *ik) { return ik->slow_iterations >= REACH__CRAWL_ITERATIONS; }

/* The apex of the triangle the bridge from the root closes: sides `run` from the root and `last`
 * from the far joint, d apart (d > 0, |run − last| <= d <= run + last). *foot is how far along
 * the root→far line the apex lies from the root, *height how far off it. Computed from the
 * shorter side's end, so that a long straight run does not swamp the closing link's rounding.
 * The 3-D and 2-D bridges share it. */
static inline void reach__bridge_apex(reach_real d, reach_real run, reach_real last, reach_real *foot,
                                      reach_real *height) {
    reach_real near = reach_min(run, last), far = reach_max(run, last);
    reach_real x = reach_clamp((d * d + (near - far) * (near + far)) / (d + d), -near, near);
    *height = reach_sqrt(reach_max(0, (near - x) * (near + x)));
    *foot = run > last ? d - x : x; /* measured from far's end: from the root instead */
}

/* The bridge from the root (fabrik_bridge.c), on a lone chain (ik->lone_chain) after FABRIK's
 * backward pass. Joint j of the chain is ik->pos[ik->active[j]] (joint 0 the root's, which does
 * not move), and link j the bone between joints j − 1 and j. The bridge finds the first joint
 * k the backward pass left that links 1 … k can reach from `root`, links 1 … k − 1 straight (the
 * run) and link k closing the triangle; it rewrites joints 0 … k − 1 so and returns 1. From k on
 * the chain lies as the backward pass left it, ending on the target, so the forward pass that
 * follows reaches in this iteration. Joints that the links up to them cannot reach, or onto
 * which no triangle closes (the run would have to fold back, or the closing link is longer than
 * the run and the gap together), are passed over. Returns 0, moving nothing, where the first
 * that fits is the second (the passes' own closing step covers k = 2) or none does. */
int reach__ik_root_bridge(reach__ik *ik, reach_vec3 root);

/* Recovers local and world rotations from moved positions, once: each bone turns by the smallest
 * swing that points it at its child's new joint; the end keeps its wanted world rotation. Does
 * nothing unless the rotations are stale. */
void reach__ik_sync_rotations(reach__ik *ik);

/* One CCD sweep, tips to root (ccd.c); FABRIK polishes with it. Returns nonzero when a range
 * clamped. */
int reach__ccd_sweep(reach__ik *ik);

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
 * and angle taken once. */
int reach__ik_assess(const reach__ik *ik, reach_real *residual, reach_real *angle_residual, reach_real *error);

/* The iteration loop: calls iterate(ik) (one iteration; returns nonzero when a joint range
 * clamped) until every target is within tolerance, settings->max_iterations is reached, or the
 * solve stalls. A stalled solve moves the root when may_move_root (FABRIK's option); else bends
 * a chain stuck on the line to a target it could reach (twice at most); else, once, goes on
 * with `polish` (may be NULL) as its iteration; else stops. */
reach_solve_result reach__ik_run(reach__ik *ik, const reach_solver_settings *settings, int (*iterate)(reach__ik *ik),
                                 int (*polish)(reach__ik *ik), int may_move_root);

/* Nonzero when `ancestor` is `bone` or lies on the path from bone up to its skeleton root. */
static inline int reach__is_ancestor(const reach_skeleton *skeleton, int ancestor, int bone) {
    /* Parents come before their children: walk up while above `ancestor`'s index. */
    while (bone > ancestor)
        bone = skeleton->parents[bone];
    return bone == ancestor;
}

/* ---- best-fit rotation ------------------------------------------------------------------ */

/* Accumulates weighted vector pairs for the rotation R that best takes every `from` to its
 * `to`: maximise Σ w · to·(R from) (Wahba's problem, solved with Horn's quaternion method). */
typedef struct reach__fit {
    double m[3][3]; /* Σ w · from · toᵀ */
    double scale;   /* Σ w |from| |to|, to size the tie-breaking pull toward the prior */
} reach__fit;

void reach__fit_reset(reach__fit *fit);
void reach__fit_add(reach__fit *fit, reach_vec3 from, reach_vec3 to, reach_real weight);
/* The best rotation; where the pairs leave it undetermined (one pair, parallel pairs) the one
 * nearest `prior`. */
reach_quat reach__fit_solve(const reach__fit *fit, reach_quat prior);

#endif
