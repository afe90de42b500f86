/* The set-up every method of the reach__ik family shares: checking every input before anything
 * is written, the bones that move and the shape of the solve, weights, goals and residuals. */
#include <string.h>

#include "geometry.h"
#include "ik_state.h"
#include "skeleton_check.h"

void reach__ik_layout(reach__ik *ik, reach__arena *arena, int bone_count, int target_count) {
    size_t n = (size_t)bone_count, t = (size_t)target_count;
    ik->local = (reach_transform *)reach__arena_take(arena, n, sizeof(reach_transform));
    ik->pos = (reach_vec3 *)reach__arena_take(arena, n, sizeof(reach_vec3));
    ik->rot = (reach_quat *)reach__arena_take(arena, n, sizeof(reach_quat));
    ik->goal_rot = (reach_quat *)reach__arena_take(arena, n, sizeof(reach_quat));
    ik->weight = (reach_real *)reach__arena_take(arena, n, sizeof(reach_real));
    ik->goal = (reach_vec3 *)reach__arena_take(arena, t, sizeof(reach_vec3));
    ik->meet_anchored = (unsigned char *)reach__arena_take(arena, t, 1);
    ik->active = (int *)reach__arena_take(arena, n, sizeof(int));
    ik->child_start = (int *)reach__arena_take(arena, n + 1, sizeof(int));
    ik->children = (int *)reach__arena_take(arena, n, sizeof(int));
    ik->is_active = (unsigned char *)reach__arena_take(arena, n, 1);
    ik->free_tip = (unsigned char *)reach__arena_take(arena, n, 1);
    ik->fabrik.sum_pos = (reach_vec3 *)reach__arena_take(arena, n, sizeof(reach_vec3));
    ik->fabrik.sum_rot = (reach_quat *)reach__arena_take(arena, n, sizeof(reach_quat));
    ik->fabrik.sum_weight = (reach_real *)reach__arena_take(arena, n, sizeof(reach_real));
    ik->ccd.effector = (reach_vec3 *)reach__arena_take(arena, t, sizeof(reach_vec3));
    ik->ccd.effector_rot = (reach_quat *)reach__arena_take(arena, t, sizeof(reach_quat));
    ik->ccd.partner = (reach_vec3 *)reach__arena_take(arena, t, sizeof(reach_vec3));
    ik->kept_rot = (reach_quat *)reach__arena_take(arena, n, sizeof(reach_quat));
    ik->link_length = (reach_real *)reach__arena_take(arena, n, sizeof(reach_real));
    ik->kept_pos = (reach_vec3 *)reach__arena_take(arena, n, sizeof(reach_vec3));
}

/* ---- checking --------------------------------------------------------------------------- */

static int topmost_ancestor(const reach_skeleton *skeleton, int bone) {
    while (skeleton->parents[bone] >= 0)
        bone = skeleton->parents[bone];
    return bone;
}

static reach_status check_settings(const reach_solver_settings *s, int bone_count) {
    if (s->max_iterations < 0 || s->root_bone < -1 || s->root_bone >= bone_count) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(s->tolerance) || !reach_is_finite(s->angle_tolerance) || !reach_is_finite(s->ccd_max_step))
        return REACH_ERROR_NOT_FINITE;
    if (s->tolerance < 0 || s->angle_tolerance < 0 || s->ccd_max_step < 0) return REACH_ERROR_INVALID_ARGUMENT;
    return REACH_OK;
}

/* What is wrong with one bone of the pose: a coordinate not finite, or a rotation of no length. */
static inline reach_status check_pose_bone(const reach_transform *t) {
    if (!packed_transform_is_finite(t)) return REACH_ERROR_NOT_FINITE;
    if (!(reach_quat_dot(t->rotation, t->rotation) > 0)) return REACH_ERROR_BAD_QUATERNION;
    return REACH_OK;
}

static reach_status check_target(const reach_target *t, int bone_count) {
    if (t->bone < 0 || t->bone >= bone_count) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(t->weight)) return REACH_ERROR_NOT_FINITE;
    if (!(t->weight > 0)) return REACH_ERROR_INVALID_ARGUMENT;
    if (t->kind == REACH_TARGET_MEET) {
        if (t->meet_bone < 0 || t->meet_bone >= bone_count || t->meet_bone == t->bone)
            return REACH_ERROR_INVALID_ARGUMENT;
        return REACH_OK;
    }
    if (t->kind != REACH_TARGET_POSITION) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_vec3_is_finite(t->position)) return REACH_ERROR_NOT_FINITE;
    if (t->use_orientation) {
        if (!reach_quat_is_finite(t->orientation)) return REACH_ERROR_NOT_FINITE;
        if (!(reach_quat_dot(t->orientation, t->orientation) > 0)) return REACH_ERROR_BAD_QUATERNION;
    }
    return REACH_OK;
}

/* The solve's root: the one asked for, or the top of the first effector's hierarchy. Every
 * effector must lie below it. */
static reach_status find_root(const reach_skeleton *skeleton, const reach_target *targets, int target_count, int asked,
                              int *root) {
    int r = asked;
    if (r < 0) r = target_count > 0 ? topmost_ancestor(skeleton, targets[0].bone) : 0;
    for (int j = 0; j < target_count; ++j) {
        /* The top of the first effector's hierarchy lies above it: no second walk up (each step
         * waits for a parent's index). */
        if (!(j == 0 && asked < 0) && !reach__is_ancestor(skeleton, r, targets[j].bone)) return REACH_ERROR_BAD_CHAIN;
        if (targets[j].kind == REACH_TARGET_MEET && !reach__is_ancestor(skeleton, r, targets[j].meet_bone))
            return REACH_ERROR_BAD_CHAIN;
    }
    *root = r;
    return REACH_OK;
}

/* ---- the moving set --------------------------------------------------------------------- */

/* Marks bone and its ancestors up to the root as moving, adding weight to each. */
static void mark_path(reach__ik *ik, int bone, reach_real weight) {
    for (;;) {
        ik->is_active[bone] = 1;
        ik->weight[bone] += weight;
        if (bone == ik->root) return;
        bone = ik->skeleton->parents[bone];
    }
}

/* One position target: the moving bones are the path from the root to its bone, each the one
 * moving child of the one before, laid out as build_active_set lays out any set (the marks and
 * weights of the bones off the path, which nothing reads, are left). */
static void build_active_path(reach__ik *ik) {
    const reach_skeleton *sk = ik->skeleton;
    int n = sk->bone_count, count = 0;
    reach_real weight = ik->targets[0].weight;
    /* One walk up from the tip (each step waits for the parent's index to load), laid down from
     * the end of the array and moved to its front. */
    for (int b = ik->targets[0].bone;; b = sk->parents[b]) {
        ik->active[n - 1 - count++] = b;
        ik->weight[b] = weight;
        if (b == ik->root) break;
    }
    memmove(ik->active, ik->active + n - count, (size_t)count * sizeof *ik->active);
    ik->active_count = count;
    /* Bone b's row starts after the children of the path's bones before it: row k (the child of
     * the path's k-th bone) starts at every bone after the one before on the path, up to it. */
    int b = 0;
    for (int k = 0; k < count - 1; ++k) {
        for (; b <= ik->active[k]; ++b)
            ik->child_start[b] = k;
        ik->children[k] = ik->active[k + 1];
    }
    for (; b <= n; ++b)
        ik->child_start[b] = count - 1;
}

static void build_active_set(reach__ik *ik) {
    if (ik->target_count == 1 && ik->targets[0].kind == REACH_TARGET_POSITION) {
        build_active_path(ik);
        return;
    }
    const reach_skeleton *sk = ik->skeleton;
    int n = sk->bone_count;
    for (int b = 0; b < n; ++b) {
        ik->is_active[b] = 0;
        ik->weight[b] = 0;
    }
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        mark_path(ik, t->bone, t->weight);
        if (t->kind == REACH_TARGET_MEET) mark_path(ik, t->meet_bone, t->weight);
    }
    ik->active_count = 0;
    for (int b = ik->root; b < n; ++b)
        if (ik->is_active[b]) ik->active[ik->active_count++] = b;
    /* Active children in compressed rows, by counting sort: count per parent, running sums to
     * the end of each parent's row, then place children from the last, which leaves each row
     * ascending and child_start[b] at its start. */
    for (int b = 0; b <= n; ++b)
        ik->child_start[b] = 0;
    for (int k = 0; k < ik->active_count; ++k)
        if (ik->active[k] != ik->root) ++ik->child_start[sk->parents[ik->active[k]]];
    int running = 0;
    for (int b = 0; b < n; ++b) {
        running += ik->child_start[b];
        ik->child_start[b] = running;
    }
    ik->child_start[n] = running;
    for (int k = ik->active_count - 1; k >= 0; --k) {
        int b = ik->active[k];
        if (b != ik->root) ik->children[--ik->child_start[sk->parents[b]]] = b;
    }
}

/* ---- the shape of the solve ------------------------------------------------------------ */

int reach__joint_turns_freely(const reach_joint *joint) {
    return joint->type == REACH_JOINT_BALL ||
           (joint->type == REACH_JOINT_CONE && !joint->has_twist && joint->cone_angle >= REACH_PI);
}

int reach__ik_target_out_of_reach(const reach__ik *ik) {
    if (ik->target_count != 1 || ik->targets[0].kind != REACH_TARGET_POSITION) return 0;
    return reach_vec3_distance(ik->targets[0].position, ik->pos[ik->root]) >= ik->chain_length;
}

/* ---- the solve's state ------------------------------------------------------------------ */

/* What the set-up's pass over the moving bones learns besides their places. */
typedef struct start_tally {
    const reach_transform *pose; /* the caller's */
    int free_joints;             /* every moving joint above the end turns freely */
    reach_real chain_length;     /* the links that move, the root's not counted */
    reach_real extent;           /* the largest coordinate of a joint */
    int in_range;                /* every joint's coordinates within REACH__COORDINATE_LIMIT */
} start_tally;

/* The set-up's needs of moving bone b, the k-th, of its own, before its world transform is
 * taken: its rotation tested for unit length and made unit, whether it is at rest, its link's
 * length. The solvers turn bones; translations of the moving bones start inside their joints (a
 * prismatic offset clamped, a fixed joint at rest) so the output is inside them too. */
static REACH_ALWAYS_INLINE void start_bone(reach__ik *ik, int k, int b, start_tally *tally) {
    const reach_skeleton *skeleton = ik->skeleton;
    const reach_transform *pose = tally->pose;
    /* reach__quat_is_unit and reach__quat_unit on packed numbers (the same bits). */
    packed_quat rotation = packed_quat_load(&ik->local[b].rotation);
    if (!reach__square_is_unit(packed_quat_dot(rotation, rotation))) ik->start_as_solved = 0;
    if (!packed_transform_equal(&pose[b], &skeleton->rest[b])) ik->fabrik.arc_start = 0;
    packed_quat_store(&ik->local[b].rotation, reach__packed_quat_unit(rotation));
    /* A tip whose rotation nothing asks for (reach__ik_start) leaves its parent free in the
     * backward pass. */
    ik->free_tip[b] = ik->child_start[b] == ik->child_start[b + 1];
    if (reach__joint_type(skeleton, b) != REACH_JOINT_BALL) {
        reach_joint joint = skeleton->joints[b];
        if (k + 1 < ik->active_count && !reach__joint_turns_freely(&joint)) tally->free_joints = 0;
        if (reach_joint_limit_error(&joint, &skeleton->rest[b], &pose[b]) > REACH__LIMIT_SLACK) ik->start_as_solved = 0;
        if (joint.type == REACH_JOINT_PRISMATIC || joint.type == REACH_JOINT_FIXED) {
            reach_transform projected = pose[b];
            reach_joint_project_local(&joint, &skeleton->rest[b], &projected);
            ik->local[b].translation = projected.translation;
        }
    }
    /* The root's link does not count: it does not move. */
    ik->link_length[b] = reach__length(ik->local[b].translation);
    if (b != ik->root) tally->chain_length += ik->link_length[b];
}

/* Forward kinematics of the moving bones. Down a chain the parent's rotation and place stay in
 * registers. The product of rotations carried from one bone to the next is not normalised on the
 * way: each bone's rotation is normalised from it off that chain of waits (the product's length
 * strays by a rounding per bone, which reach__packed_quat_unit takes out). For the set-up
 * (`tally`), the same pass first takes each bone's own needs (start_bone), and each bone holds
 * the world rotation it starts with as its wanted one. */
static REACH_ALWAYS_INLINE void forward_kinematics(reach__ik *ik, start_tally *tally) {
    const reach_skeleton *sk = ik->skeleton;
    packed_quat carried = packed_quat_load(&ik->above_root), parent_rot = carried;
    packed_vec3 parent_pos = packed_load(&ik->above_origin);
    int last = sk->parents[ik->root];
    for (int k = 0; k < ik->active_count; ++k) {
        int b = ik->active[k], parent = sk->parents[b];
        if (tally) start_bone(ik, k, b, tally);
        if (b != ik->root && parent != last) {
            carried = parent_rot = packed_quat_load(&ik->rot[parent]);
            parent_pos = packed_load(&ik->pos[parent]);
        }
        parent_pos = packed_add(parent_pos, packed_quat_rotate(parent_rot, packed_load(&ik->local[b].translation)));
        carried = packed_quat_mul(carried, packed_quat_load(&ik->local[b].rotation));
        parent_rot = reach__packed_quat_unit(carried);
        packed_store(&ik->pos[b], parent_pos);
        packed_quat_store(&ik->rot[b], parent_rot);
        if (tally) {
            packed_quat_store(&ik->goal_rot[b], parent_rot);
            reach_real m = packed_max_abs(parent_pos);
            tally->in_range &= m <= REACH__COORDINATE_LIMIT;
            tally->extent = reach_max(tally->extent, m);
        }
        last = b;
    }
}

void reach__ik_forward(reach__ik *ik) { forward_kinematics(ik, NULL); }

/* World transform of the root's parent, composed from the top of the hierarchy down. */
static reach_transform above_root(const reach__ik *ik) {
    reach_transform world = reach_transform_identity();
    int bone = ik->skeleton->parents[ik->root];
    while (bone >= 0) {
        reach_transform local = ik->local[bone];
        local.rotation = reach_quat_normalize_safe(local.rotation);
        world = reach_transform_mul(local, world);
        bone = ik->skeleton->parents[bone];
    }
    return world;
}

/* The largest coordinate in play, for the floor under the tolerance, from that of the moving
 * joints (the set-up's tally); -1 when one is beyond REACH__COORDINATE_LIMIT (or not a
 * number). */
static reach_real extent_in_play(const reach__ik *ik, const start_tally *tally) {
    reach_real e = reach_vec3_max_abs(ik->above_origin);
    if (!(e <= REACH__COORDINATE_LIMIT) || !tally->in_range) return -1;
    e = reach_max(e, tally->extent);
    for (int j = 0; j < ik->target_count; ++j) {
        if (ik->targets[j].kind != REACH_TARGET_POSITION) continue;
        reach_real m = reach_vec3_max_abs(ik->targets[j].position);
        if (!(m <= REACH__COORDINATE_LIMIT)) return -1;
        e = reach_max(e, m);
    }
    return e;
}

reach_status reach__ik_check(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                             const reach_solver_settings *settings, const reach_transform *pose, int *root) {
    REACH_CHECK_ARG(skeleton && settings && pose && target_count >= 0 && (target_count == 0 || targets));
    REACH_CHECK_ARG(skeleton->bone_count >= 0);
    REACH_CHECK_ARG(skeleton->bone_count == 0 || (skeleton->parents && skeleton->rest));
    /* The skeleton (as reach_skeleton_validate checks it) and the pose in one pass over the
     * bones; what is wrong with the pose is told only after the skeleton and the settings pass,
     * in the order the checks were always made. */
    reach_status pose_status = REACH_OK, st;
    for (int i = 0; i < skeleton->bone_count; ++i) {
        if ((st = reach__skeleton_check_bone(skeleton, i)) != REACH_OK) return st;
        if (pose_status == REACH_OK) pose_status = check_pose_bone(&pose[i]);
    }
    if (skeleton->bone_count == 0) return REACH_ERROR_INVALID_ARGUMENT;
    if ((st = check_settings(settings, skeleton->bone_count)) != REACH_OK) return st;
    if (pose_status != REACH_OK) return pose_status;
    for (int j = 0; j < target_count; ++j)
        if ((st = check_target(&targets[j], skeleton->bone_count)) != REACH_OK) return st;
    return find_root(skeleton, targets, target_count, settings->root_bone, root);
}

reach_status reach__ik_start(reach__ik *ik, const reach_skeleton *skeleton, const reach_target *targets,
                             int target_count, const reach_solver_settings *settings, const reach_transform *pose,
                             int root) {
    int n = skeleton->bone_count;
    ik->skeleton = skeleton;
    ik->targets = targets;
    ik->target_count = target_count;
    ik->root = root;
    for (int b = 0; b < n; ++b)
        ik->local[b] = pose[b];
    build_active_set(ik);
    reach_transform above = above_root(ik);
    ik->above_root = reach_quat_normalize_safe(above.rotation);
    ik->above_origin = above.translation;
    /* One pass over the moving bones, root outward: what each needs of its own, then its world
     * transform. */
    ik->start_as_solved = 1;
    ik->fabrik.arc_start = 1;
    start_tally tally = {pose, 1, 0, 0, 1};
    forward_kinematics(ik, &tally);
    reach_real extent = extent_in_play(ik, &tally);
    if (extent < 0) return REACH_ERROR_OUT_OF_RANGE;

    /* Effectors hold the world rotation they start with unless a target asks for another. */
    for (int j = 0; j < target_count; ++j) {
        const reach_target *t = &targets[j];
        if (t->kind == REACH_TARGET_POSITION && t->use_orientation) {
            ik->goal_rot[t->bone] = reach_quat_normalize_safe(t->orientation);
            ik->free_tip[t->bone] = 0;
        }
    }
    ik->chain_length = tally.chain_length;
    ik->lone_target = target_count == 1 && targets[0].kind == REACH_TARGET_POSITION && !targets[0].use_orientation;
    /* One position target on a chain whose moving joints above the end all turn freely: FABRIK
     * then iterates on positions alone (fabrik_chain.c). */
    ik->free_chain = ik->lone_target && ik->active_count >= 2 && tally.free_joints;
    /* One target: the moving bones are the path from the root to its bone, which ends it. */
    ik->lone_chain = ik->lone_target && ik->active_count >= 4;
    ik->slow_iterations = 0;
    ik->handoff.allowed = 0; /* a method's prepare sets the policy */
    ik->handoff.guarded = 0;
    ik->handoff.active = 0;
    ik->ccd.slides_prismatic = 0;
    ik->kicked = 0;
    ik->rotations_stale = 0;
    ik->angle_tolerance = settings->angle_tolerance;
    ik->ccd.lever = ik->chain_length > 0 ? REACH__ORIENTATION_LEVER * ik->chain_length : 1;
    ik->ccd.max_step = settings->ccd_max_step;
    reach_real tolerance =
        settings->tolerance > 0 ? settings->tolerance : REACH_DEFAULT_TOLERANCE_RATIO * ik->chain_length;
    /* Nothing closer than a few units in the last place of the coordinates can be promised. */
    ik->tolerance = reach_max(tolerance, REACH__TOLERANCE_FLOOR * extent);
    reach__ik_update_goals(ik);
    return REACH_OK;
}

/* Where the position targets on `bone` pull it, weighted, added to *sum and *weight. */
static void pull_on(const reach__ik *ik, int bone, reach_vec3 *sum, reach_real *weight) {
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        if (t->kind != REACH_TARGET_POSITION || t->bone != bone) continue;
        *sum = reach_vec3_mad(*sum, t->position, t->weight);
        *weight += t->weight;
    }
}

reach_vec3 reach__ik_held_or_current(const reach__ik *ik, int bone) {
    reach_vec3 sum = reach_vec3_zero();
    reach_real weight = 0;
    pull_on(ik, bone, &sum, &weight);
    return weight > 0 ? reach_vec3_scale(sum, 1 / weight) : ik->pos[bone];
}

/* Where two joints a and b that nothing else holds should meet. Each can get anywhere on the
 * sphere of its last link about its parent's joint without the parent moving; where those two
 * spheres cross, the point of that circle nearest the midpoint of a and b closes the loop with
 * the parents left where they are (a four-bar linkage closes in one step where plain halving
 * creeps near its dead centres). Where they do not cross (or a parent does not move with the
 * solve), the midpoint. */
static reach_vec3 meeting_point(const reach__ik *ik, int a, int b) {
    const reach_skeleton *sk = ik->skeleton;
    reach_vec3 mid = reach_vec3_lerp(ik->pos[a], ik->pos[b], REACH_R(0.5));
    int pa = sk->parents[a], pb = sk->parents[b];
    if (pa < 0 || pb < 0 || !ik->is_active[pa] || !ik->is_active[pb] || pa == pb) return mid;
    reach_vec3 ca = reach__ik_held_or_current(ik, pa), ab = reach_vec3_sub(reach__ik_held_or_current(ik, pb), ca);
    reach_real ra = reach_vec3_length(ik->local[a].translation), rb = reach_vec3_length(ik->local[b].translation);
    reach_real d = reach_vec3_length(ab);
    if (!(d > 0)) return mid;
    reach_vec3 u = reach_vec3_scale(ab, 1 / d);
    /* Spheres apart (or one inside the other): halfway between them on the line of centres. */
    if (d > ra + rb) return reach_vec3_mad(ca, u, ra + (d - ra - rb) / 2);
    if (d < reach_fabs(ra - rb)) return reach_vec3_mad(ca, u, ra >= rb ? (ra + d + rb) / 2 : -(ra + rb - d) / 2);
    reach_real x, h;
    reach__triangle_apex(d * d, d, ra, rb, &x, &h);
    reach_vec3 centre = reach_vec3_mad(ca, u, x);
    reach_vec3 across =
        reach_vec3_normalize_safe(reach_vec3_reject(reach_vec3_sub(mid, centre), u), reach_vec3_any_perpendicular(u));
    return reach_vec3_mad(centre, across, h);
}

void reach__ik_update_goals(reach__ik *ik) {
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        ik->meet_anchored[j] = 0;
        if (t->kind == REACH_TARGET_POSITION) {
            ik->goal[j] = t->position;
            continue;
        }
        if (t->bone == ik->root || t->meet_bone == ik->root) {
            /* The root's joint does not move: the other end comes to it. */
            ik->goal[j] = ik->pos[ik->root];
            ik->meet_anchored[j] = 1;
            continue;
        }
        /* Where the two ends are pulled otherwise (a hand on a held object) is where they
         * meet; with no other pull they meet halfway. */
        reach_vec3 sum = reach_vec3_zero();
        reach_real weight = 0;
        pull_on(ik, t->bone, &sum, &weight);
        pull_on(ik, t->meet_bone, &sum, &weight);
        ik->meet_anchored[j] = weight > 0;
        ik->goal[j] = weight > 0 ? reach_vec3_scale(sum, 1 / weight) : meeting_point(ik, t->bone, t->meet_bone);
    }
}

int reach__ik_assess_targets(const reach__ik *ik, reach_real *residual, reach_real *angle_residual, reach_real *error) {
    reach_real distance = 0, angle = 0, total = 0;
    for (int j = 0; j < ik->target_count; ++j) {
        reach_real d = reach__ik_target_distance(ik, j), a = reach__ik_target_angle(ik, j);
        distance = reach_max(distance, d);
        angle = reach_max(angle, a);
        total += ik->targets[j].weight * (d + ik->chain_length * a);
    }
    *residual = distance;
    *angle_residual = angle;
    *error = total;
    return distance <= ik->tolerance && angle <= ik->angle_tolerance;
}

int reach__ik_measure(const reach__ik *ik, reach_real *residual, reach_real *angle_residual) {
    reach_real error;
    return reach__ik_assess(ik, residual, angle_residual, &error);
}

reach_real reach__ik_weighted_error(const reach__ik *ik) {
    reach_real residual, angle_residual, error;
    reach__ik_assess(ik, &residual, &angle_residual, &error);
    return error;
}
