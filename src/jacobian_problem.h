/* The Jacobian solvers' private model: which bones move, the columns they give, the scratch
 * memory layout, the error and Jacobian at a pose, and the solver state (a pose plus the hinge and
 * prismatic values that generate it). Shared by the jacobian_*.c files; hidden symbols. */
#ifndef REACH_JACOBIAN_PROBLEM_H
#define REACH_JACOBIAN_PROBLEM_H

#include "reach/jacobian.h"

/* A column's motion: a rotation about world axis 0, 1 or 2 (ball and cone joints), or the bone's
 * own joint axis (hinge and prismatic). */
#define JAC_JOINT_AXIS (-1)

/* What the steps read of a moving bone's joint, worked out once per solve. */
typedef struct jac_joint {
    /* The bone's joint; a leader's range narrowed to what keeps its followers inside theirs. */
    reach_joint joint;
    reach_vec3 axis; /* the joint's axis, unit */
    reach_quat rest; /* the bone's rest rotation, unit */
    /* rest · (axis, 0): a hinge at angle a turns the bone to cos(a/2) rest + sin(a/2) rest_turn,
     * which is rest · (axis sin(a/2), cos(a/2)) without the product each time. */
    reach_quat rest_turn;
    int axis_is_z; /* the axis is exactly +z, as in every Denavit–Hartenberg joint */
} jac_joint;

typedef struct jac_problem {
    const reach_skeleton *skeleton;
    const reach_target *targets;
    int target_count;
    int root_bone;
    int rows, columns;
    int moving_count;
    int has_cones;     /* some moving bone has a cone joint */
    int *moving;       /* the bones that move, in bone order */
    int *first_column; /* per bone: its first column, -1 when it does not move */
    int *column_bone;  /* per column */
    int *column_axis;  /* per column: 0..2 or JAC_JOINT_AXIS */
    /* Mimic followers of moving leaders: they have no column; each is written from its leader's
     * value, and its motion goes into its leader's column. */
    int *followers; /* those bones, in bone order */
    int follower_count;
    int *follower_column;     /* per bone: its leader's column, -1 when it is no such follower */
    jac_joint *joints;        /* per bone, filled for the moving bones */
    reach_quat *orientations; /* per target: its orientation, unit */
    reach_real length;        /* L: what lengths are divided by (1 when the chain has none) */
    reach_real max_weight;    /* the heaviest target's weight: what weights are divided by */
    reach_real tolerance;     /* position tolerance, rig units */
    reach_real angle_tolerance;
    /* What the orientation rows of the error and of J are multiplied by: 1, but less while a solve
     * places the effectors first (jacobian_solve.c, "position first"). */
    reach_real rotation_weight;
} jac_problem;

/* One candidate solution: the full local pose, its world transforms, and per column the joint
 * value (hinge angle or prismatic offset; unused for ball columns). */
typedef struct jac_state {
    reach_transform *local;
    reach_transform *world;
    reach_real *values;
    reach_real *error;   /* normalised, weighted error rows at this state */
    reach_real error_sq; /* |error|² */
    reach_real residual, angle_residual;
    int reached;
    int limited;
} jac_state;

/* Per column of the step: what a limit blocks. A hinge or prismatic column is locked outright; a
 * cone bone's first column carries the flags of the world directions its turn is fixed along. */
#define JAC_LOCKED       1u
#define JAC_SWING_LOCKED 1u /* the direction that widens the swing (lock_axes[c]) */
#define JAC_TWIST_LOCKED 2u /* the bone's own axis, which turns the twist (lock_axes[c + 1]) */

/* Which factorisation of J a step left behind, for the null-space projection. */
typedef enum jac_factor {
    JAC_FACTOR_NONE,   /* the transpose method: none */
    JAC_FACTOR_SVD,    /* u, s, v */
    JAC_FACTOR_NORMAL, /* gram: the damped normal equations' Gram matrix (linalg.h) */
} jac_factor;

typedef struct jac_workspace {
    jac_state current, trial, best;
    reach_real *jacobian; /* rows × columns, normalised and weighted */
    reach_real *u, *s, *v;
    reach_real *gram, *ldl; /* min(rows, columns)² each: J Jᵀ or JᵀJ, and its L D Lᵀ factors */
    int gram_valid;         /* gram is that of jacobian as it stands */
    jac_factor factor;
    reach_real *step; /* the method's step toward the targets */
    /* step plus the null-space motion toward rest, when has_relaxed; while a step is worked out,
     * the rest-pose goal (jacobian_step.c rest_goal) */
    reach_real *relaxed_step;
    int has_relaxed;
    reach_real *null_step, *gradient, *row_temp, *row_work;
    int null_projected;     /* null_step holds the null-space goal projected by the last step's solve */
    unsigned char *locked;  /* per column */
    reach_vec3 *lock_axes;  /* per column, for cone bones: the blocked world directions */
    reach_real *fixed;      /* per column: the motion of locked joints up to their limits */
    reach_real *task_error; /* per row: the error less what the fixed motions do */
} jac_workspace;

/* Scratch bytes for a skeleton and a target count (alignment slack included). */
size_t reach__jac_scratch_bytes(const reach_skeleton *skeleton, int target_count);

/* Checks the targets and works out the moving bones, columns, rows and L into problem, whose
 * arrays are carved from scratch (which must hold reach__jac_scratch_bytes). ws may be NULL
 * when only the problem is wanted. */
reach_status reach__jac_setup(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                              int root_bone, void *scratch, size_t scratch_size, jac_problem *problem,
                              jac_workspace *ws);

/* Checks that every bone's local transform is finite with a non-zero rotation. */
reach_status reach__jac_check_pose(const reach_skeleton *skeleton, const reach_transform *pose);

/* The rotation vector (axis · angle, angle in [0, π]) of a quaternion (any non-zero length). */
reach_vec3 reach__jac_rotation_vector(reach_quat q);

/* Forward kinematics of state->local, then the error rows, residuals and reached flag. */
void reach__jac_evaluate(const jac_problem *problem, jac_state *state);

/* The Jacobian at state->world into matrix (rows × columns). normalised: position rows divided
 * by L, prismatic columns multiplied by L, rows scaled by their target's weight and orientation
 * rows by the problem's rotation_weight, as the error rows are; otherwise rig units,
 * unweighted. */
void reach__jac_build(const jac_problem *problem, const jac_state *state, int normalised, reach_real *matrix);

/* ---- state (jacobian_state.c) ---- */

/* Reads the pose into state: joint values mapped into the limits, every moving bone projected
 * onto its joint and limits. */
void reach__jac_state_from_pose(const jac_problem *problem, const reach_transform *pose, jac_state *state);

/* to = from moved by scale · step (normalised units, one entry per column), clamped and
 * projected into the joint limits. from->world must be current. */
void reach__jac_state_step(const jac_problem *problem, const jac_state *from, const reach_real *step, reach_real scale,
                           jac_state *to);

/* Random joint values inside the limits for every moving bone. */
void reach__jac_state_randomise(const jac_problem *problem, uint64_t *rng, jac_state *state);

/* `from` bent off `line` (a world direction): every hinge turned a little toward the end of its
 * range with more room, every ball and cone turned a little about one axis across the line,
 * within the limits; `step` (columns long) is the work space. The Jacobian of a chain lying on
 * the line to its target has no column that moves the end along that line: no step helps
 * there, and a bent chain can go on. */
void reach__jac_state_kick(const jac_problem *problem, const jac_state *from, reach_vec3 line, reach_real *step,
                           jac_state *to);

/* Copies the pose, values and evaluation of one state into another. */
void reach__jac_state_copy(const jac_problem *problem, const jac_state *from, jac_state *to);

/* The null-space goal per column (normalised units): the change that would take each moving
 * joint to its rest pose, hinge and prismatic rest values kept inside their limits. */
void reach__jac_rest_direction(const jac_problem *problem, const jac_state *state, reach_real *direction);

/* Where a cone bone stands against its limits: the swing of its axis off the cone's centre, the
 * world direction of turn that widens it (zero when the swing is 0 or π), and the twist about
 * the axis with the world direction that increases it (the bone's axis). */
typedef struct jac_cone_gauge {
    reach_real swing;
    reach_vec3 widening;
    reach_real twist;
    reach_vec3 twist_axis;
} jac_cone_gauge;

void reach__jac_cone_gauge(const jac_problem *problem, const jac_state *state, int bone, jac_cone_gauge *gauge);

/* ---- limits within a step (jacobian_lock.c) ---- */

/* No joint locked, nothing fixed, the task error the state's error. */
void reach__jac_unlock(const jac_problem *problem, const jac_state *state, jac_workspace *ws);

/* Locks the joints that ws->step (the whole step, fixed motions included) would carry past a
 * limit: their motion up to the limit goes into ws->fixed and out of ws->task_error, and the
 * blocked directions out of ws->jacobian. blocked_only: only the joints sitting on a limit the
 * step pushes against (their fixed motion nil). Returns how many were newly locked. */
int reach__jac_lock_limits(const jac_problem *problem, const jac_state *state, jac_workspace *ws, int blocked_only);

/* Takes out of a column-space vector the directions that are locked. */
void reach__jac_remove_locked(const jac_problem *problem, const jac_workspace *ws, reach_real *x);

/* ---- steps (jacobian_step.c) ---- */

/* The step from state for the method, with limit locking (blocked_only as for
 * reach__jac_lock_limits), bounded by REACH_JACOBIAN_MAX_STEP, into ws->step; with null-space
 * motion also that step plus the motion toward rest into ws->relaxed_step (ws->has_relaxed).
 * Uses ws->jacobian (built here) and the SVD buffers. Returns 0 when no finite non-zero step
 * exists. */
int reach__jac_compute_step(const jac_problem *problem, const reach_solver_settings *settings, const jac_state *state,
                            jac_workspace *ws, int blocked_only);

#endif
