/* The Jacobian solvers' model of a solve: scratch layout, the bones and columns that move, the
 * error at a pose and the Jacobian there; and the public queries built on them. */
#include <stddef.h>

#include "internal.h"
#include "arena.h"
#include "jacobian_problem.h"
#include "quadrant_atan.h"

/* ---- scratch layout --------------------------------------------------------------------- */

/* The arena every solver family lays its scratch out on (arena.h); counts never go below 0. */
static void *arena_take(reach__arena *a, int count, size_t item) {
    return reach__arena_take(a, (size_t)(count > 0 ? count : 0), item);
}

/* Columns when every bone moves: the most any solve on this skeleton can have. */
static int max_columns(const reach_skeleton *skeleton) {
    int columns = 0;
    for (int i = 0; i < skeleton->bone_count; ++i) {
        reach_joint_type type = reach_skeleton_joint(skeleton, i).type;
        columns += (type == REACH_JOINT_BALL || type == REACH_JOINT_CONE) ? 3 : reach_joint_has_value(type);
    }
    return columns;
}

static void carve_state(reach__arena *a, int bones, int columns, int rows, jac_state *state) {
    state->local = arena_take(a, bones, sizeof(reach_transform));
    state->world = arena_take(a, bones, sizeof(reach_transform));
    state->values = arena_take(a, columns, sizeof(reach_real));
    state->error = arena_take(a, rows, sizeof(reach_real));
}

/* The one layout both the size query and the solve use. on_path: per-bone marks for setup. */
static void carve(reach__arena *a, const reach_skeleton *skeleton, int target_count, jac_problem *p, jac_workspace *ws,
                  unsigned char **on_path) {
    int bones = skeleton->bone_count;
    int columns = max_columns(skeleton);
    int rows = 6 * target_count;
    int k = rows < columns ? rows : columns;
    p->moving = arena_take(a, bones, sizeof(int));
    p->first_column = arena_take(a, bones, sizeof(int));
    p->column_bone = arena_take(a, columns, sizeof(int));
    p->column_axis = arena_take(a, columns, sizeof(int));
    p->followers = arena_take(a, bones, sizeof(int));
    p->follower_column = arena_take(a, bones, sizeof(int));
    p->joints = arena_take(a, bones, sizeof(jac_joint));
    p->orientations = arena_take(a, target_count, sizeof(reach_quat));
    *on_path = arena_take(a, bones, 1);
    carve_state(a, bones, columns, rows, &ws->current);
    carve_state(a, bones, columns, rows, &ws->trial);
    carve_state(a, bones, columns, rows, &ws->best);
    ws->jacobian = arena_take(a, rows * columns, sizeof(reach_real));
    ws->u = arena_take(a, rows * k, sizeof(reach_real));
    ws->s = arena_take(a, k, sizeof(reach_real));
    ws->v = arena_take(a, columns * k, sizeof(reach_real));
    ws->gram = arena_take(a, k * k, sizeof(reach_real));
    ws->ldl = arena_take(a, k * k, sizeof(reach_real));
    ws->step = arena_take(a, columns, sizeof(reach_real));
    ws->relaxed_step = arena_take(a, columns, sizeof(reach_real));
    ws->null_step = arena_take(a, columns, sizeof(reach_real));
    ws->gradient = arena_take(a, columns, sizeof(reach_real));
    ws->row_temp = arena_take(a, rows, sizeof(reach_real));
    ws->row_work = arena_take(a, rows, sizeof(reach_real));
    ws->locked = arena_take(a, columns, 1);
    ws->lock_axes = arena_take(a, columns, sizeof(reach_vec3));
    ws->fixed = arena_take(a, columns, sizeof(reach_real));
    ws->task_error = arena_take(a, rows, sizeof(reach_real));
}

size_t reach__jac_scratch_bytes(const reach_skeleton *skeleton, int target_count) {
    reach__arena a = reach__arena_make(NULL);
    jac_problem p;
    jac_workspace ws;
    unsigned char *on_path;
    carve(&a, skeleton, target_count, &p, &ws, &on_path);
    return reach__arena_need(&a);
}

size_t reach_jacobian_scratch_size(const reach_skeleton *skeleton, int target_count) {
    if (!skeleton || skeleton->bone_count < 0 || target_count < 0) return 0;
    return reach__jac_scratch_bytes(skeleton, target_count);
}

/* ---- validation ------------------------------------------------------------------------- */

static reach_status check_jacobian_target(const reach_skeleton *skeleton, const reach_target *t) {
    int bones = skeleton->bone_count;
    if (t->kind != REACH_TARGET_POSITION && t->kind != REACH_TARGET_MEET) return REACH_ERROR_INVALID_ARGUMENT;
    if (t->bone < 0 || t->bone >= bones) return REACH_ERROR_INVALID_ARGUMENT;
    if (t->kind == REACH_TARGET_MEET && (t->meet_bone < 0 || t->meet_bone >= bones || t->meet_bone == t->bone))
        return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(t->weight)) return REACH_ERROR_NOT_FINITE;
    if (!(t->weight > 0)) return REACH_ERROR_INVALID_ARGUMENT;
    if (t->kind == REACH_TARGET_MEET) return REACH_OK;
    if (!reach_vec3_is_finite(t->position)) return REACH_ERROR_NOT_FINITE;
    if (t->use_orientation) {
        if (!reach_quat_is_finite(t->orientation)) return REACH_ERROR_NOT_FINITE;
        if (!(reach_quat_dot(t->orientation, t->orientation) > 0)) return REACH_ERROR_BAD_QUATERNION;
    }
    return REACH_OK;
}

reach_status reach__jac_check_pose(const reach_skeleton *skeleton, const reach_transform *pose) {
    for (int i = 0; i < skeleton->bone_count; ++i) {
        if (!reach_quat_is_finite(pose[i].rotation) || !reach_vec3_is_finite(pose[i].translation))
            return REACH_ERROR_NOT_FINITE;
        if (!(reach_quat_dot(pose[i].rotation, pose[i].rotation) > 0)) return REACH_ERROR_BAD_QUATERNION;
    }
    return REACH_OK;
}

/* ---- which bones move ------------------------------------------------------------------- */

static int top_root(const reach_skeleton *skeleton, int bone) {
    while (skeleton->parents[bone] >= 0)
        bone = skeleton->parents[bone];
    return bone;
}

/* Marks the path from effector up to the root bone; bones strictly above the effector move, the
 * effector itself when its own joint changes what is targeted. 0 when the root is not above. */
static int mark_jacobian_path(jac_problem *p, unsigned char *on_path, int effector, int own_joint_matters) {
    const int *parents = p->skeleton->parents;
    on_path[effector] = 1;
    if (own_joint_matters) p->first_column[effector] = 1;
    int bone = effector;
    while (bone != p->root_bone) {
        bone = parents[bone];
        if (bone < 0) return 0;
        on_path[bone] = 1;
        p->first_column[bone] = 1;
    }
    return 1;
}

static int is_prismatic(const reach_skeleton *skeleton, int bone) {
    return reach_skeleton_joint(skeleton, bone).type == REACH_JOINT_PRISMATIC;
}

static int is_follower(const reach_skeleton *skeleton, int bone) {
    return skeleton->joints && skeleton->joints[bone].mimic;
}

/* A marked mimic follower moves with its leader: the leader is marked to get the column. */
static void mark_leaders(jac_problem *p) {
    const reach_skeleton *skeleton = p->skeleton;
    for (int bone = 0; bone < skeleton->bone_count; ++bone)
        if (p->first_column[bone] > 0 && is_follower(skeleton, bone))
            p->first_column[skeleton->joints[bone].mimic_leader] = 1;
}

static void cache_joint(jac_problem *p, int bone) {
    const reach_skeleton *skeleton = p->skeleton;
    jac_joint *cached = &p->joints[bone];
    cached->joint = reach_skeleton_joint(skeleton, bone);
    cached->axis = reach_vec3_normalize_safe(cached->joint.axis, reach_vec3_make(0, 1, 0));
    cached->rest = reach_quat_normalize_safe(skeleton->rest[bone].rotation);
    cached->axis_is_z = cached->axis.x == 0 && cached->axis.y == 0 && cached->axis.z == 1;
    cached->rest_turn =
        reach_quat_mul(cached->rest, reach_quat_make(cached->axis.x, cached->axis.y, cached->axis.z, 0));
}

/* The followers of moving leaders, and each leader's range narrowed to the values that keep its
 * followers inside theirs (value_f = m value_l + o). Where no value of the leader can (ranges
 * that do not meet), the leader keeps its own and the followers are clamped into theirs. */
static void list_followers(jac_problem *p) {
    const reach_skeleton *skeleton = p->skeleton;
    p->follower_count = 0;
    for (int bone = 0; bone < skeleton->bone_count; ++bone) {
        p->follower_column[bone] = -1;
        if (!is_follower(skeleton, bone)) continue;
        int leader = skeleton->joints[bone].mimic_leader;
        if (p->first_column[leader] < 0) continue;
        p->followers[p->follower_count++] = bone;
        p->follower_column[bone] = p->first_column[leader];
        cache_joint(p, bone);
        const reach_joint *f = &p->joints[bone].joint;
        reach_joint *lead = &p->joints[leader].joint;
        if (f->mimic_multiplier == 0) continue;
        reach_real a = (f->min - f->mimic_offset) / f->mimic_multiplier;
        reach_real b = (f->max - f->mimic_offset) / f->mimic_multiplier;
        reach_real lo = reach_max(lead->min, reach_min(a, b)), hi = reach_min(lead->max, reach_max(a, b));
        if (lo <= hi) {
            lead->min = lo;
            lead->max = hi;
        }
    }
}

/* Lists the moving bones (marked in first_column) and numbers their columns. */
static void assign_columns(jac_problem *p) {
    const reach_skeleton *skeleton = p->skeleton;
    p->moving_count = 0;
    p->has_cones = 0;
    p->columns = 0;
    mark_leaders(p);
    for (int bone = 0; bone < skeleton->bone_count; ++bone) {
        reach_joint_type type = reach_skeleton_joint(skeleton, bone).type;
        int marked = p->first_column[bone] > 0;
        p->first_column[bone] = -1;
        if (!marked || type == REACH_JOINT_FIXED || is_follower(skeleton, bone)) continue;
        p->moving[p->moving_count++] = bone;
        p->first_column[bone] = p->columns;
        cache_joint(p, bone);
        int rotational = type == REACH_JOINT_BALL || type == REACH_JOINT_CONE;
        p->has_cones |= type == REACH_JOINT_CONE;
        for (int axis = 0; axis < (rotational ? 3 : 1); ++axis) {
            p->column_bone[p->columns] = bone;
            p->column_axis[p->columns] = rotational ? axis : JAC_JOINT_AXIS;
            ++p->columns;
        }
    }
    list_followers(p);
}

/* L: the sum of the rest translations below the root on the effectors' paths, plus the reach of
 * the moving prismatic joints. */
static reach_real chain_length(const jac_problem *p, const unsigned char *on_path) {
    const reach_skeleton *skeleton = p->skeleton;
    reach_real length = 0;
    for (int bone = 0; bone < skeleton->bone_count; ++bone) {
        if (!on_path[bone]) continue;
        if (bone != p->root_bone) length += reach_vec3_length_robust(skeleton->rest[bone].translation);
        reach_joint j = reach_skeleton_joint(skeleton, bone);
        if (j.type == REACH_JOINT_PRISMATIC && p->first_column[bone] >= 0)
            length += reach_max(reach_fabs(j.min), reach_fabs(j.max));
    }
    return length;
}

reach_status reach__jac_setup(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                              int root_bone, void *scratch, size_t scratch_size, jac_problem *p, jac_workspace *ws) {
    REACH_CHECK_ARG(skeleton && targets && target_count >= 1 && (scratch || scratch_size == 0));
    reach_status st = reach_skeleton_validate(skeleton, NULL);
    if (st != REACH_OK) return st;
    if (root_bone < -1 || root_bone >= skeleton->bone_count) return REACH_ERROR_INVALID_ARGUMENT;
    for (int t = 0; t < target_count; ++t) {
        st = check_jacobian_target(skeleton, &targets[t]);
        if (st != REACH_OK) return st;
    }
    if (scratch_size < reach__jac_scratch_bytes(skeleton, target_count)) return REACH_ERROR_BUFFER_TOO_SMALL;

    jac_workspace unused;
    unsigned char *on_path;
    reach__arena a = reach__arena_make(scratch);
    carve(&a, skeleton, target_count, p, ws ? ws : &unused, &on_path);

    p->skeleton = skeleton;
    p->targets = targets;
    p->target_count = target_count;
    p->root_bone = root_bone >= 0 ? root_bone : top_root(skeleton, targets[0].bone);
    p->rows = 0;
    for (int bone = 0; bone < skeleton->bone_count; ++bone) {
        on_path[bone] = 0;
        p->first_column[bone] = 0;
    }
    for (int t = 0; t < target_count; ++t) {
        const reach_target *target = &targets[t];
        int orient = target->use_orientation != 0;
        p->orientations[t] = reach_quat_normalize_safe(target->orientation);
        if (!mark_jacobian_path(p, on_path, target->bone, orient || is_prismatic(skeleton, target->bone)))
            return REACH_ERROR_BAD_CHAIN;
        if (target->kind == REACH_TARGET_MEET &&
            !mark_jacobian_path(p, on_path, target->meet_bone, orient || is_prismatic(skeleton, target->meet_bone)))
            return REACH_ERROR_BAD_CHAIN;
        p->rows += orient ? 6 : 3;
    }
    assign_columns(p);
    reach_real length = chain_length(p, on_path);
    if (!reach_is_finite(length)) return REACH_ERROR_OUT_OF_RANGE;
    p->length = length > 0 ? length : 1;
    /* Weights are relative (solver.h): the heaviest target weighs 1, so the damping and the
     * step's bounds, tuned for unit rows, mean the same whatever scale the caller picked. */
    p->max_weight = 0;
    for (int t = 0; t < target_count; ++t)
        p->max_weight = reach_max(p->max_weight, targets[t].weight);
    p->tolerance = REACH_DEFAULT_TOLERANCE_RATIO * p->length;
    p->angle_tolerance = REACH_R(1e-4);
    p->rotation_weight = 1;
    return REACH_OK;
}

/* ---- error and Jacobian ----------------------------------------------------------------- */

reach_vec3 reach__jac_rotation_vector(reach_quat q) {
    /* Scale-free: q need not be exactly unit. */
    if (q.w < 0) q = reach_quat_neg(q);
    reach_vec3 v = reach_vec3_make(q.x, q.y, q.z);
    reach_real s = reach_vec3_length(v);
    if (!(s > 0)) return reach_vec3_zero();
    return reach_vec3_scale(v, 2 * reach__quadrant_atan2(s, q.w) / s);
}

static reach_quat goal_rotation(const jac_problem *p, int t, const reach_transform *world) {
    const reach_target *target = &p->targets[t];
    return target->kind == REACH_TARGET_MEET ? world[target->meet_bone].rotation : p->orientations[t];
}

static void put3(reach_real *rows, reach_vec3 v) {
    rows[0] = v.x;
    rows[1] = v.y;
    rows[2] = v.z;
}

void reach__jac_evaluate(const jac_problem *p, jac_state *state) {
    reach_forward_kinematics(p->skeleton, state->local, state->world);
    const reach_transform *world = state->world;
    reach_real inverse_length = 1 / p->length;
    int row = 0;
    state->residual = 0;
    state->angle_residual = 0;
    state->reached = 1;
    for (int t = 0; t < p->target_count; ++t) {
        const reach_target *target = &p->targets[t];
        reach_transform effector = world[target->bone];
        reach_vec3 goal = target->kind == REACH_TARGET_MEET ? world[target->meet_bone].translation : target->position;
        reach_vec3 offset = reach_vec3_sub(goal, effector.translation);
        reach_real distance;
        if (reach_vec3_is_finite(offset)) {
            distance = reach_vec3_length_robust(offset);
        } else {
            /* Coordinates that overflowed (a prismatic joint whose range runs to the end of
             * reach_real, slid there) are as far as can be, an infinite error, not a length (the
             * robust length reads a vector with a NaN as zero): no such state is ever taken as
             * better, nor reported reached. */
            offset = reach_vec3_make((reach_real)HUGE_VAL, 0, 0);
            distance = (reach_real)HUGE_VAL;
        }
        state->residual = reach_max(state->residual, distance);
        if (!(distance <= p->tolerance)) state->reached = 0;
        reach_real weight = target->weight / p->max_weight;
        put3(state->error + row, reach_vec3_scale(offset, weight * inverse_length));
        row += 3;
        if (!target->use_orientation) continue;
        reach_quat turn = reach_quat_mul(goal_rotation(p, t, world), reach_quat_conjugate(effector.rotation));
        reach_vec3 omega = reach__jac_rotation_vector(turn);
        reach_real angle = reach_vec3_length(omega);
        state->angle_residual = reach_max(state->angle_residual, angle);
        if (!(angle <= p->angle_tolerance)) state->reached = 0;
        put3(state->error + row, reach_vec3_scale(omega, weight * p->rotation_weight));
        row += 3;
    }
    state->error_sq = 0;
    for (int r = 0; r < row; ++r)
        state->error_sq += state->error[r] * state->error[r];
}

typedef struct column_scales {
    reach_real position;  /* multiplies position rows */
    reach_real prismatic; /* multiplies prismatic columns */
    reach_real weight;
    reach_real rotation; /* multiplies orientation rows */
} column_scales;

/* Adds k_linear · linear and k_angular · angular (rows 3..5 only with orientation) to column c. */
static inline void add_column(reach_real *matrix, int columns, int row, int c, int orientation, reach_vec3 linear,
                              reach_real k_linear, reach_vec3 angular, reach_real k_angular) {
    reach_real *at = matrix + row * columns + c;
    at[0] += k_linear * linear.x;
    at[columns] += k_linear * linear.y;
    at[2 * columns] += k_linear * linear.z;
    if (!orientation) return;
    at[3 * columns] += k_angular * angular.x;
    at[4 * columns] += k_angular * angular.y;
    at[5 * columns] += k_angular * angular.z;
}

/* A joint's axis in the world, the bone's world rotation q applied to it. About +z (every DH joint)
 * that is the third column of q's matrix, a third of the work of a general rotation. */
static inline reach_vec3 world_axis(reach_quat q, const jac_joint *joint) {
    if (joint->axis_is_z)
        return reach_vec3_make(2 * (q.x * q.z + q.w * q.y), 2 * (q.y * q.z - q.w * q.x),
                               1 - 2 * (q.x * q.x + q.y * q.y));
    return reach_quat_rotate(q, joint->axis);
}

/* A mimic follower's motion into its leader's column: value_f = m value_l + o moves the follower
 * m times (a slide's column per L of slide, as the leader's own) for each unit of the column. */
static void add_follower_motion(const jac_problem *p, const jac_state *state, int bone, reach_vec3 tip, int orientation,
                                column_scales scale, reach_real k_linear, reach_real k_angular, reach_real *matrix,
                                int row) {
    const jac_joint *joint = &p->joints[bone];
    int column = p->follower_column[bone];
    reach_real rate = joint->joint.mimic_multiplier;
    if (p->joints[p->column_bone[column]].joint.type == REACH_JOINT_PRISMATIC) rate *= scale.prismatic;
    reach_vec3 axis = world_axis(state->world[bone].rotation, joint);
    if (joint->joint.type == REACH_JOINT_PRISMATIC) {
        add_column(matrix, p->columns, row, column, orientation, axis, k_linear * rate, reach_vec3_zero(), 0);
    } else {
        reach_vec3 lever = reach_vec3_sub(tip, state->world[bone].translation);
        add_column(matrix, p->columns, row, column, orientation, reach_vec3_cross(axis, lever), k_linear * rate, axis,
                   k_angular * rate);
    }
}

/* Adds (sign = ±1) the columns of every moving bone above and at effector to the target's rows. */
static void add_effector_rows(const jac_problem *p, const jac_state *state, int effector, reach_real sign,
                              int orientation, column_scales scale, reach_real *matrix, int row) {
    const reach_skeleton *skeleton = p->skeleton;
    const reach_transform *world = state->world;
    reach_vec3 tip = world[effector].translation;
    int columns = p->columns;
    reach_real k_linear = sign * scale.weight * scale.position, k_angular = sign * scale.weight * scale.rotation;
    for (int bone = effector;; bone = skeleton->parents[bone]) {
        int first = p->first_column[bone];
        if (first >= 0) {
            const jac_joint *joint = &p->joints[bone];
            reach_vec3 lever = reach_vec3_sub(tip, world[bone].translation);
            if (joint->joint.type == REACH_JOINT_PRISMATIC) {
                reach_vec3 axis = world_axis(world[bone].rotation, joint);
                add_column(matrix, columns, row, first, orientation, axis, k_linear * scale.prismatic,
                           reach_vec3_zero(), 0);
            } else if (joint->joint.type == REACH_JOINT_HINGE) {
                /* d(tip)/dθ = a × (tip − joint) */
                reach_vec3 axis = world_axis(world[bone].rotation, joint);
                add_column(matrix, columns, row, first, orientation, reach_vec3_cross(axis, lever), k_linear, axis,
                           k_angular);
            } else {
                /* Turns about the world axes: e_x × lever = (0, −lever.z, lever.y), and so on. */
                add_column(matrix, columns, row, first, orientation, reach_vec3_make(0, -lever.z, lever.y), k_linear,
                           reach_vec3_make(1, 0, 0), k_angular);
                add_column(matrix, columns, row, first + 1, orientation, reach_vec3_make(lever.z, 0, -lever.x),
                           k_linear, reach_vec3_make(0, 1, 0), k_angular);
                add_column(matrix, columns, row, first + 2, orientation, reach_vec3_make(-lever.y, lever.x, 0),
                           k_linear, reach_vec3_make(0, 0, 1), k_angular);
            }
        } else if (p->follower_column[bone] >= 0) {
            add_follower_motion(p, state, bone, tip, orientation, scale, k_linear, k_angular, matrix, row);
        }
        if (bone == p->root_bone) break;
    }
}

void reach__jac_build(const jac_problem *p, const jac_state *state, int normalised, reach_real *matrix) {
    for (int i = 0; i < p->rows * p->columns; ++i)
        matrix[i] = 0;
    int row = 0;
    for (int t = 0; t < p->target_count; ++t) {
        const reach_target *target = &p->targets[t];
        column_scales scale = {1, 1, 1, 1};
        if (normalised) {
            scale.rotation = p->rotation_weight;
            scale.position = 1 / p->length;
            scale.prismatic = p->length;
            scale.weight = target->weight / p->max_weight;
        }
        int orientation = target->use_orientation != 0;
        add_effector_rows(p, state, target->bone, 1, orientation, scale, matrix, row);
        if (target->kind == REACH_TARGET_MEET)
            add_effector_rows(p, state, target->meet_bone, -1, orientation, scale, matrix, row);
        row += orientation ? 6 : 3;
    }
}

/* ---- public queries --------------------------------------------------------------------- */

reach_status reach_jacobian_dimensions(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                       int root_bone, int *rows, int *columns, void *scratch, size_t scratch_size) {
    REACH_CHECK_ARG(rows && columns);
    jac_problem p;
    reach_status st = reach__jac_setup(skeleton, targets, target_count, root_bone, scratch, scratch_size, &p, NULL);
    if (st != REACH_OK) return st;
    *rows = p.rows;
    *columns = p.columns;
    return REACH_OK;
}

reach_status reach_jacobian_matrix(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                   int root_bone, const reach_transform *pose, reach_real *matrix, int *column_bones,
                                   void *scratch, size_t scratch_size) {
    REACH_CHECK_ARG(pose && matrix);
    jac_problem p;
    jac_workspace ws;
    reach_status st = reach__jac_setup(skeleton, targets, target_count, root_bone, scratch, scratch_size, &p, &ws);
    if (st != REACH_OK) return st;
    st = reach__jac_check_pose(skeleton, pose);
    if (st != REACH_OK) return st;
    reach_forward_kinematics(skeleton, pose, ws.current.world);
    reach__jac_build(&p, &ws.current, 0, matrix);
    if (column_bones)
        for (int c = 0; c < p.columns; ++c)
            column_bones[c] = p.column_bone[c];
    return REACH_OK;
}
