/* One step of each Jacobian method, with joints at their limits locked out and the redundant
 * degrees of freedom relaxed toward the rest pose in the null space. All in normalised units
 * (see jacobian.h): J is rows × columns, e the error rows, Δθ one entry per column. */
#include "jacobian_problem.h"
#include "linalg.h"

/* Singular values below this fraction of the largest count as zero where a method inverts them
 * (the pseudoinverse) and where the null space is taken. √ε: below it, 1/σ amplifies rounding
 * in J by more than the step could be trusted. */
#ifdef REACH_DOUBLE
#define SINGULAR_RATIO 1.5e-8
#else
#define SINGULAR_RATIO 3.5e-4f
#endif

/* Adaptive DLS: λ² = min(|e|²/4, cap) + floor. The floor keeps the damping from vanishing at a
 * singularity; the cap keeps a far, unreachable target from damping every step to nothing. A
 * quarter of |e|² rather than a half: on the robot arms' 10 000 poses a solve then takes up to
 * 4 % fewer iterations (the Panda 16.1 → 15.5, the iiwa 11.8 → 11.6, the UR5 as many) and reaches
 * as often (within 0.1 %); an eighth and a sixteenth save more on the poses reached but lose
 * some. */
#define DLS_DAMPING_SHARE REACH_R(0.25)
#define DLS_DAMPING_FLOOR REACH_R(1e-6)
#define DLS_DAMPING_CAP   REACH_R(0.01)

/* The null-space goal is this fraction of the way back to rest per iteration. */
#define NULL_SPACE_GAIN REACH_R(0.5)

/* The null-space step is at most this many times the normalised error |e|: its second-order
 * effect on the targets, O(step²), then stays below the error itself as the solve converges.
 * Measured on the 7-joint arms, twice |e| relaxes nearly as far as four times and takes fewer
 * iterations. */
#define NULL_SPACE_ERROR_RATIO REACH_R(2.0)

/* How often a step may be recomputed after locking joints that it pushed past their limits. A
 * cone joint needs the rounds to slide along its edge; on chains of hinges and prismatic joints
 * further rounds cost a factorisation each and, measured on the robot arms, more iterations than
 * they save (the projection onto the limits after the step does the rest). */
#define LOCK_ROUNDS       3
#define VALUE_LOCK_ROUNDS 1

/* Scales x so that no entry exceeds bound in size; returns the largest entry before. */
static reach_real clamp_max_abs(reach_real *x, int n, reach_real bound) {
    reach_real largest = reach__max_abs(x, n);
    if (largest > bound) {
        reach_real k = bound / largest;
        for (int i = 0; i < n; ++i)
            x[i] *= k;
    }
    return largest;
}

static void svd_of_jacobian(const jac_problem *p, jac_workspace *ws) {
    reach__svd(ws->jacobian, p->rows, p->columns, ws->u, ws->s, ws->v);
}

/* k = min(rows, columns): the number of singular triples of the thin SVD. */
static int thin_rank(const jac_problem *p) { return p->rows < p->columns ? p->rows : p->columns; }

/* Δθ = α Jᵀe with α = |Jᵀe|² / |JJᵀe|², the exact minimiser of |e − J Δθ| along Jᵀe. */
static void transpose_step(const jac_problem *p, const reach_real *error, jac_workspace *ws) {
    reach__mat_t_mul_vec(ws->jacobian, p->rows, p->columns, error, ws->gradient);
    reach__mat_mul_vec(ws->jacobian, p->rows, p->columns, ws->gradient, ws->row_temp);
    reach_real along = reach__dot(ws->gradient, ws->gradient, p->columns);
    reach_real across = reach__dot(ws->row_temp, ws->row_temp, p->rows);
    reach_real alpha = across > 0 ? along / across : 0;
    for (int c = 0; c < p->columns; ++c)
        ws->step[c] = alpha * ws->gradient[c];
}

static reach_real dls_damping(const jac_problem *p, const reach_solver_settings *settings, const jac_state *state) {
    if (settings->damping > 0) return settings->damping / p->length;
    return reach_sqrt(reach_min(DLS_DAMPING_SHARE * state->error_sq, DLS_DAMPING_CAP) + DLS_DAMPING_FLOOR);
}

/* The norm of each 3-row block of column j, summed over blocks: how far a unit turn of the
 * joint moves all the effectors together (Buss and Kim's Σ_l ρ_jl). */
static reach_real column_reach(const jac_problem *p, const reach_real *jacobian, int column) {
    reach_real sum = 0;
    for (int block = 0; block < p->rows; block += 3) {
        reach_real x = jacobian[block * p->columns + column];
        reach_real y = jacobian[(block + 1) * p->columns + column];
        reach_real z = jacobian[(block + 2) * p->columns + column];
        sum += reach_sqrt(x * x + y * y + z * z);
    }
    return sum;
}

/* Buss and Kim (2005). For each singular triple (σ_i, u_i, v_i), α_i = u_iᵀe:
 *   N_i = Σ_l |u_i restricted to block l|          what a unit of error in this direction is
 *   M_i = σ_i⁻¹ Σ_j |v_ji| Σ_l ρ_jl                 how far the effectors move for it
 *   γ_i = min(1, N_i / M_i) · γ_max,  φ_i = clamp_max_abs(σ_i⁻¹ α_i v_i, γ_i)
 * and Δθ = clamp_max_abs(Σ φ_i, γ_max), γ_max = REACH_JACOBIAN_MAX_STEP. */
static void sdls_step(const jac_problem *p, const reach_real *error, jac_workspace *ws) {
    int rows = p->rows, columns = p->columns, k = thin_rank(p);
    for (int c = 0; c < columns; ++c) {
        ws->step[c] = 0;
        ws->gradient[c] = column_reach(p, ws->jacobian, c);
    }
    reach_real cutoff = ws->s[0] * REACH_REAL_EPSILON * (reach_real)(rows + columns);
    for (int i = 0; i < k; ++i) {
        reach_real sigma = ws->s[i];
        if (!(sigma > cutoff) || !(sigma > 0)) break; /* descending: the rest are smaller */
        reach_real alpha = 0, n_i = 0;
        for (int block = 0; block < rows; block += 3) {
            const reach_real *u_i = ws->u + i * rows;
            reach_real ux = u_i[block], uy = u_i[block + 1], uz = u_i[block + 2];
            alpha += ux * error[block] + uy * error[block + 1] + uz * error[block + 2];
            n_i += reach_sqrt(ux * ux + uy * uy + uz * uz);
        }
        reach_real m_i = 0;
        for (int c = 0; c < columns; ++c)
            m_i += reach_fabs(ws->v[i * columns + c]) * ws->gradient[c];
        m_i /= sigma;
        reach_real gamma = REACH_JACOBIAN_MAX_STEP * (m_i > n_i ? n_i / m_i : 1);
        reach_real *phi = ws->null_step; /* free until the null-space step is taken */
        for (int c = 0; c < columns; ++c)
            phi[c] = alpha / sigma * ws->v[i * columns + c];
        clamp_max_abs(phi, columns, gamma);
        for (int c = 0; c < columns; ++c)
            ws->step[c] += phi[c];
    }
}

/* The rest-pose goal for the null space, NULL_SPACE_GAIN of the way back, into goal. It is the
 * same in every round of limit locking, so a step takes it once, into ws->relaxed_step (free
 * until the step fills it, after its rounds). */
static void rest_goal(const jac_problem *p, const jac_state *state, reach_real *goal) {
    reach__jac_rest_direction(p, state, goal);
    for (int c = 0; c < p->columns; ++c)
        goal[c] *= NULL_SPACE_GAIN;
}

/* The rest-pose goal less the locked joints' motions, into z. */
static void null_space_goal(const jac_problem *p, const jac_workspace *ws, reach_real *z) {
    for (int c = 0; c < p->columns; ++c)
        z[c] = ws->relaxed_step[c];
    reach__jac_remove_locked(p, ws, z);
}

/* Whether the step's own solve also projects the null-space goal: DLS with the adaptive damping,
 * whose factor the projection reuses (project_out_row_space), on a J with a null space, and only
 * on arms of hinges and slides (a column per moving bone). A round that locks a joint throws its
 * projection away; on arms that costs little, against a solve saved in the round that does not
 * (measured: 3 to 4 % of a solve on the 7-joint arms), but with ball and cone bones the goal takes
 * a rotation's logarithm per bone and cones lock for up to three rounds, and fusing cost 5 % on
 * chains of cones and trees of balls. */
static int projects_with_the_step(const jac_problem *p, const reach_solver_settings *settings) {
    return settings->null_space && !(settings->damping > 0) && p->columns > p->rows && p->columns == p->moving_count;
}

/* DLS by the damped normal equations, factorised by Cholesky (L D Lᵀ): a small square system
 * instead of an SVD. Leaves the Gram matrix and its factor for the null space; where the null
 * space reuses the factor, it also solves for the goal's projection in the same substitutions
 * (the second chain of waits runs alongside the first), into ws->null_step: the same bits as
 * project_out_row_space's (where the compiler fuses no multiply-adds), ready if this is the
 * step's last round of limit locking. Returns 0 when the factorisation fails (the SVD then takes
 * over). */
static int dls_normal_step(const jac_problem *p, const reach_solver_settings *settings, reach_real damping,
                           const reach_real *error, jac_workspace *ws) {
    if (!ws->gram_valid) reach__normal_gram(ws->jacobian, p->rows, p->columns, ws->gram);
    ws->gram_valid = 1;
    if (!reach__ldl_damped(ws->gram, thin_rank(p), damping * damping, ws->ldl)) return 0;
    if (!projects_with_the_step(p, settings)) {
        reach__damped_normal_solve(ws->jacobian, p->rows, p->columns, ws->ldl, error, ws->row_temp, ws->step);
        return 1;
    }
    reach_real *z = ws->null_step;
    null_space_goal(p, ws, z);
    reach__mat_mul_vec(ws->jacobian, p->rows, p->columns, z, ws->row_work);
    reach__damped_normal_solve_two(ws->jacobian, p->rows, p->columns, ws->ldl, error, ws->row_temp, ws->row_work,
                                   ws->step, ws->gradient);
    for (int c = 0; c < p->columns; ++c)
        z[c] -= ws->gradient[c];
    ws->null_projected = 1;
    return 1;
}

/* The method's step for ws->task_error into ws->step, plus the fixed motions of locked joints;
 * records in ws->factor which factorisation of J it left for the null space. */
static void method_step(const jac_problem *p, const reach_solver_settings *settings, const jac_state *state,
                        jac_workspace *ws) {
    const reach_real *error = ws->task_error;
    reach_jacobian_method method = settings->jacobian_method;
    ws->factor = JAC_FACTOR_NONE;
    ws->null_projected = 0;
    if (method == REACH_JACOBIAN_TRANSPOSE) {
        transpose_step(p, error, ws);
    } else if (method == REACH_JACOBIAN_DLS &&
               dls_normal_step(p, settings, dls_damping(p, settings, state), error, ws)) {
        ws->factor = JAC_FACTOR_NORMAL;
    } else {
        svd_of_jacobian(p, ws);
        ws->factor = JAC_FACTOR_SVD;
        if (method == REACH_JACOBIAN_SDLS)
            sdls_step(p, error, ws);
        else
            reach__svd_damped_solve(p->rows, p->columns, ws->u, ws->s, ws->v, error,
                                    method == REACH_JACOBIAN_DLS ? dls_damping(p, settings, state) : 0,
                                    method == REACH_JACOBIAN_DLS ? 0 : ws->s[0] * SINGULAR_RATIO, ws->step);
    }
    for (int c = 0; c < p->columns; ++c)
        ws->step[c] += ws->fixed[c];
}

/* μ² of the projector on J's row space, P = Jᵀ(JJᵀ + μ²I)⁻¹J, where DLS's damping is fixed:
 * directions with σ well above μ count as the row space (P keeps σ²/(σ² + μ²) of them), those
 * below as the null space, like the SVD's cutoff. As small as the precision lets the Cholesky
 * factorisation of JJᵀ + μ²I (entries of order one) tell μ² from rounding. */
#ifdef REACH_DOUBLE
#define NULL_SPACE_DAMPING_SQ 1e-10
#else
#define NULL_SPACE_DAMPING_SQ 1e-7f
#endif

/* z ← (I − P) z, P the projector on J's row space: from the SVD, over the singular vectors with σ
 * above the cutoff; from the Gram matrix DLS left, P = Jᵀ(JJᵀ + λ²I)⁻¹J. With the adaptive
 * damping, λ is the step's own and its factor is reused: P keeps σ²/(σ² + λ²) of each row
 * direction, so up to λ²/(σ² + λ²) of it leaks into the null-space motion, but λ² falls with the
 * error (and the motion is capped by the error), so the leak fades as the solve converges, and a
 * relaxed step is only taken when it lowers the error; no second factorisation. A fixed damping
 * never falls: there the Gram matrix is factorised again with μ², and when that fails there is no
 * null-space motion this iteration. */
static void project_out_row_space(const jac_problem *p, const reach_solver_settings *settings, jac_workspace *ws,
                                  reach_real *z) {
    int columns = p->columns;
    if (ws->factor == JAC_FACTOR_NORMAL) {
        if (settings->damping > 0 && !reach__ldl_damped(ws->gram, thin_rank(p), NULL_SPACE_DAMPING_SQ, ws->ldl)) {
            for (int c = 0; c < columns; ++c)
                z[c] = 0;
            return;
        }
        reach__mat_mul_vec(ws->jacobian, p->rows, columns, z, ws->row_work);
        reach__damped_normal_solve(ws->jacobian, p->rows, columns, ws->ldl, ws->row_work, ws->row_temp, ws->gradient);
        for (int c = 0; c < columns; ++c)
            z[c] -= ws->gradient[c];
        return;
    }
    reach_real cutoff = ws->s[0] * SINGULAR_RATIO;
    for (int i = 0; i < thin_rank(p) && ws->s[i] > cutoff; ++i) {
        const reach_real *v_i = ws->v + i * columns;
        reach_real along = reach__dot(v_i, z, columns);
        for (int c = 0; c < columns; ++c)
            z[c] -= along * v_i[c];
    }
}

/* The rest-pose goal projected on J's null space into ws->null_step (where the step's solve has
 * not done so already), capped by the error so that it fades as the solve converges. */
static void null_space_step(const jac_problem *p, const reach_solver_settings *settings, const jac_state *state,
                            jac_workspace *ws) {
    reach_real *z = ws->null_step;
    if (!ws->null_projected) {
        null_space_goal(p, ws, z);
        project_out_row_space(p, settings, ws, z);
    }
    clamp_max_abs(z, p->columns,
                  reach_min(REACH_JACOBIAN_MAX_STEP, NULL_SPACE_ERROR_RATIO * reach_sqrt(state->error_sq)));
}

static int all_finite(const reach_real *x, int n) {
    for (int i = 0; i < n; ++i)
        if (!reach_is_finite(x[i])) return 0;
    return 1;
}

int reach__jac_compute_step(const jac_problem *p, const reach_solver_settings *settings, const jac_state *state,
                            jac_workspace *ws, int blocked_only) {
    ws->has_relaxed = 0;
    if (p->columns == 0 || p->rows == 0) return 0;
    reach__jac_build(p, state, 1, ws->jacobian);
    ws->gram_valid = 0;
    reach__jac_unlock(p, state, ws);
    /* Redundant degrees of freedom only where J has more columns than rows (a square or tall J
     * has a null space only at a singular pose, where the damping already keeps steps small),
     * and not for the transpose method, which leaves no factorisation to project with. Every
     * null_space_goal runs under this (projects_with_the_step asks the same). */
    int null_space =
        settings->null_space && p->columns > p->rows && settings->jacobian_method != REACH_JACOBIAN_TRANSPOSE;
    if (null_space) rest_goal(p, state, ws->relaxed_step);
    int rounds = p->has_cones ? LOCK_ROUNDS : VALUE_LOCK_ROUNDS;
    for (int round = 0; round <= rounds; ++round) {
        method_step(p, settings, state, ws);
        if (round == rounds || !reach__jac_lock_limits(p, state, ws, blocked_only)) break;
    }
    if (!all_finite(ws->step, p->columns)) return 0;
    int moves = clamp_max_abs(ws->step, p->columns, REACH_JACOBIAN_MAX_STEP) > 0;
    if (null_space && ws->factor != JAC_FACTOR_NONE) {
        null_space_step(p, settings, state, ws);
        if (!all_finite(ws->null_step, p->columns)) return moves;
        for (int c = 0; c < p->columns; ++c)
            ws->relaxed_step[c] = ws->step[c] + ws->null_step[c];
        ws->has_relaxed = clamp_max_abs(ws->relaxed_step, p->columns, REACH_JACOBIAN_MAX_STEP) > 0 &&
                          reach__max_abs(ws->null_step, p->columns) > 0;
        moves |= ws->has_relaxed;
    }
    return moves;
}
