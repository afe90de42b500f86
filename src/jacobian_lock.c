/* Joint limits inside a Jacobian step. A joint that the step would carry past a limit moves just
 * to it: that motion is fixed, the blocked direction leaves J, and the method solves again for
 * what the fixed motions leave of the error, so the other joints take up the rest. Without this
 * the projection onto the limits after the step would undo part of a step whose other joints
 * counted on it, and the step could raise the error at every length (a stall). The fixed motions
 * can do that too, pushing the end away faster than the free joints bring it back: the solve
 * then locks only the joints that sit on a limit the step pushes against. */
#include "jacobian_problem.h"
#include "limits_internal.h"
#include "linalg.h"

/* Adds J's columns first .. first + n − 1 times f (n entries) to y (rows). */
static void add_columns_times(const jac_problem *p, const reach_real *jacobian, int first, const reach_real *f, int n,
                              reach_real sign, reach_real *y) {
    for (int r = 0; r < p->rows; ++r) {
        const reach_real *row = jacobian + r * p->columns + first;
        reach_real sum = 0;
        for (int i = 0; i < n; ++i)
            sum += row[i] * f[i];
        y[r] += sign * sum;
    }
}

/* J lost w wᵀ from J Jᵀ: keep the DLS Gram matrix current where it is J Jᵀ (rows <= columns), a
 * rank-one update instead of a new product; otherwise have it formed again. */
static void downdate_gram(const jac_problem *p, jac_workspace *ws, const reach_real *w) {
    if (!ws->gram_valid) return;
    if (p->rows > p->columns)
        ws->gram_valid = 0;
    else
        reach__gram_downdate(ws->gram, p->rows, w);
}

/* Removes the world direction d (unit) from a rotational bone's three columns, J ← J (I − d dᵀ):
 * the method can then no longer turn the bone along d. */
static void remove_column_direction(const jac_problem *p, jac_workspace *ws, int first, reach_vec3 d) {
    reach_real *removed = ws->row_work;
    for (int r = 0; r < p->rows; ++r) {
        reach_real *row = ws->jacobian + r * p->columns + first;
        reach_real along = row[0] * d.x + row[1] * d.y + row[2] * d.z;
        row[0] -= along * d.x;
        row[1] -= along * d.y;
        row[2] -= along * d.z;
        removed[r] = along;
    }
    downdate_gram(p, ws, removed);
}

/* Zeroes column c of J. */
static void remove_column(const jac_problem *p, jac_workspace *ws, int c) {
    reach_real *removed = ws->row_work;
    for (int r = 0; r < p->rows; ++r) {
        removed[r] = ws->jacobian[r * p->columns + c];
        ws->jacobian[r * p->columns + c] = 0;
    }
    downdate_gram(p, ws, removed);
}

static void remove_vector_direction(reach_real *x, reach_vec3 d) {
    reach_real along = x[0] * d.x + x[1] * d.y + x[2] * d.z;
    x[0] -= along * d.x;
    x[1] -= along * d.y;
    x[2] -= along * d.z;
}

/* Fixes a rotational bone's turn along d (unit) to amount: the task error loses what that turn
 * does, and d leaves the bone's columns. */
static void fix_direction(const jac_problem *p, jac_workspace *ws, int c, reach_vec3 d, reach_real amount) {
    reach_real f[3] = {amount * d.x, amount * d.y, amount * d.z};
    add_columns_times(p, ws->jacobian, c, f, 3, -1, ws->task_error);
    remove_column_direction(p, ws, c, d);
    for (int i = 0; i < 3; ++i)
        ws->fixed[c + i] += f[i];
}

/* How far inside a limit a joint still sits on it: the projection onto the limits leaves a
 * cone's swing and twist a few roundings inside (the angles are read back through atan2), and a
 * hinge or prismatic value read from a pose (not clamped by the solve) can land an ulp or two
 * inside too. */
#define EDGE_SLACK         (64 * REACH_REAL_EPSILON * REACH_PI)
#define VALUE_SLACK(limit) (64 * REACH_REAL_EPSILON * reach_max(1, reach_fabs(limit)))

/* A hinge or prismatic joint: value + k · step past a limit; blocked only: on the limit the step
 * pushes against (to VALUE_SLACK), its motion then nil. A hinge whose range is a whole turn has
 * no limit: its angle wraps across the ends (jacobian_state.c), and locking it there would stop
 * it at a seam that is no limit. */
static int lock_value_joint(const jac_problem *p, const jac_state *state, const reach_joint *joint, int c, reach_real k,
                            int blocked_only, jac_workspace *ws) {
    if (ws->locked[c] || reach__hinge_wraps(joint)) return 0;
    /* Prismatic columns move L per unit (normalised units). */
    reach_real unit = joint->type == REACH_JOINT_PRISMATIC ? p->length : 1;
    reach_real value = state->values[c], change = k * ws->step[c] * unit;
    /* Where the step takes the value, or, blocked only, how near the limit counts. */
    reach_real reach = blocked_only ? (change > 0 ? VALUE_SLACK(joint->max) : -VALUE_SLACK(joint->min)) : change;
    reach_real room;
    if (change > 0 && value + reach > joint->max)
        room = reach_max(0, joint->max - value);
    else if (change < 0 && value + reach < joint->min)
        room = reach_min(0, joint->min - value);
    else
        return 0;
    if (blocked_only) room = 0;
    ws->locked[c] = JAC_LOCKED;
    ws->fixed[c] = room / (k * unit);
    add_columns_times(p, ws->jacobian, c, &ws->fixed[c], 1, -1, ws->task_error);
    remove_column(p, ws, c);
    return 1;
}

/* A cone bone: its swing widened past the cone's edge, or its twist turned out of range, by
 * k · step to first order; blocked only: on the edge or twist limit the step turns it against,
 * its motion then nil. The blocked direction leaves its columns; the rest of its turn stays
 * free, so it can slide along the cone's edge. */
static int lock_cone_joint(const jac_problem *p, const jac_state *state, int bone, const reach_joint *joint, int c,
                           reach_real k, int blocked_only, jac_workspace *ws) {
    jac_cone_gauge gauge;
    reach__jac_cone_gauge(p, state, bone, &gauge);
    reach_vec3 omega = reach_vec3_scale(reach_vec3_make(ws->step[c], ws->step[c + 1], ws->step[c + 2]), k);
    /* What the step adds to the swing and twist, or, blocked only, how near the limit counts. */
    reach_real widening = reach_vec3_dot(omega, gauge.widening), twisting = reach_vec3_dot(omega, gauge.twist_axis);
    reach_real swing_reach = blocked_only ? EDGE_SLACK : widening;
    reach_real twist_reach = blocked_only ? (twisting > 0 ? EDGE_SLACK : -EDGE_SLACK) : twisting;
    int newly_locked = 0;
    if (!(ws->locked[c] & JAC_SWING_LOCKED) && widening > 0 && gauge.swing + swing_reach > joint->cone_angle) {
        ws->locked[c] |= JAC_SWING_LOCKED;
        ws->lock_axes[c] = gauge.widening;
        reach_real room = blocked_only ? 0 : reach_max(0, joint->cone_angle - gauge.swing);
        fix_direction(p, ws, c, gauge.widening, room / k);
        ++newly_locked;
    }
    if (joint->has_twist && !(ws->locked[c] & JAC_TWIST_LOCKED)) {
        reach_real room = 0;
        int past = 0;
        if (twisting > 0 && gauge.twist + twist_reach > joint->twist_max) {
            room = reach_max(0, joint->twist_max - gauge.twist);
            past = 1;
        } else if (twisting < 0 && gauge.twist + twist_reach < joint->twist_min) {
            room = reach_min(0, joint->twist_min - gauge.twist);
            past = 1;
        }
        if (past) {
            ws->locked[c] |= JAC_TWIST_LOCKED;
            ws->lock_axes[c + 1] = gauge.twist_axis;
            if (blocked_only) room = 0;
            fix_direction(p, ws, c, gauge.twist_axis, room / k);
            ++newly_locked;
        }
    }
    return newly_locked;
}

void reach__jac_unlock(const jac_problem *p, const jac_state *state, jac_workspace *ws) {
    for (int c = 0; c < p->columns; ++c) {
        ws->locked[c] = 0;
        ws->fixed[c] = 0;
    }
    for (int r = 0; r < p->rows; ++r)
        ws->task_error[r] = state->error[r];
}

int reach__jac_lock_limits(const jac_problem *p, const jac_state *state, jac_workspace *ws, int blocked_only) {
    /* The step will be scaled by k to keep every joint within REACH_JACOBIAN_MAX_STEP: judge the
     * joints by where that scaled step takes them, and fix their motion so that it reaches the
     * limit once scaled. Blocked only: the joints that sit on a limit the step pushes against,
     * no other. */
    reach_real largest = reach__max_abs(ws->step, p->columns);
    if (!(largest > 0)) return 0;
    reach_real k = largest > REACH_JACOBIAN_MAX_STEP ? REACH_JACOBIAN_MAX_STEP / largest : 1;
    int newly_locked = 0;
    for (int m = 0; m < p->moving_count; ++m) {
        int bone = p->moving[m];
        int c = p->first_column[bone];
        const reach_joint *joint = &p->joints[bone].joint;
        if (reach_joint_has_value(joint->type))
            newly_locked += lock_value_joint(p, state, joint, c, k, blocked_only, ws);
        else if (joint->type == REACH_JOINT_CONE)
            newly_locked += lock_cone_joint(p, state, bone, joint, c, k, blocked_only, ws);
    }
    return newly_locked;
}

void reach__jac_remove_locked(const jac_problem *p, const jac_workspace *ws, reach_real *x) {
    for (int c = 0; c < p->columns; ++c) {
        unsigned char lock = ws->locked[c];
        if (!lock) continue;
        if (p->column_axis[c] == JAC_JOINT_AXIS) {
            x[c] = 0;
            continue;
        }
        if (lock & JAC_SWING_LOCKED) remove_vector_direction(x + c, ws->lock_axes[c]);
        if (lock & JAC_TWIST_LOCKED) remove_vector_direction(x + c, ws->lock_axes[c + 1]);
    }
}
