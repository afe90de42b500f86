/* Small dense linear algebra for the Jacobian solvers: a thin SVD and what is built on it.
 * Private to the library (hidden symbols); the tests reach it through this header.
 *
 * Matrices are row-major, element (i, j) of an r × c matrix a is a[i * c + j], except the SVD's
 * singular vectors, which are stored one after another. Sizes are those of
 * IK Jacobians (a few rows per target, a few columns per joint), so everything is O(r c min(r, c))
 * per sweep with no blocking and no allocation. */
#ifndef REACH_LINALG_H
#define REACH_LINALG_H

#include "reach/config.h"

/* The thin singular value decomposition a = U · diag(s) · Vᵀ of an r × c matrix (r, c >= 1),
 * with k = min(r, c): s holds k values, descending and >= 0; the singular vectors are stored one
 * after another, u_i = u + i·r (k of length r) and v_i = v + i·c (k of length c), so u and v are
 * U and V stored by columns. The u_i are orthonormal, and so are the v_i, also where a is rank
 * deficient (vectors for zero singular values complete the basis). One-sided Jacobi (Hestenes): plane rotations
 * orthogonalise the columns of a (or of aᵀ when r < c, so that the fewer columns are the ones rotated), which keeps
 * small singular values accurate relative to the large ones. a may not alias the outputs. Returns the number of sweeps
 * it took; a finite a always converges well within the cap. */
int reach__svd(const reach_real *a, int rows, int cols, reach_real *u, reach_real *s, reach_real *v);

/* x = Σ_i f(s_i) (u_iᵀ b) v_i over the thin SVD above (x has c entries, b has r), with the
 * damped-least-squares filter f(σ) = σ / (σ² + λ²) for σ > cutoff and f(σ) = 0 otherwise.
 * λ = 0 gives the pseudoinverse solution x = a⁺ b with singular values at or below cutoff
 * treated as zero; λ > 0 solves (aᵀa + λ²I) x = aᵀ b. */
void reach__svd_damped_solve(int rows, int cols, const reach_real *u, const reach_real *s, const reach_real *v,
                             const reach_real *b, reach_real damping, reach_real cutoff, reach_real *x);

/* The damped normal equations of an r × c matrix a, in the smaller of their two forms,
 * n = min(r, c): when r <= c, (a aᵀ + λ²I) y = b and x = aᵀ y; otherwise (aᵀa + λ²I) x = aᵀ b.
 * Both give the damped least-squares solution x = aᵀ(a aᵀ + λ²I)⁻¹ b that reach__svd_damped_solve
 * gives with that damping, at a fraction of the cost of an SVD.
 *
 * reach__normal_gram writes g = a aᵀ or aᵀa (n × n, row-major, lower triangle only). */
void reach__normal_gram(const reach_real *a, int rows, int cols, reach_real *g);

/* g ← g − w wᵀ (lower triangle, n × n): the Gram matrix a aᵀ after a loses a rank-one part whose
 * column image is w (a column zeroed, or a direction projected out of its columns). */
void reach__gram_downdate(reach_real *g, int n, const reach_real *w);

/* The factors of g + λ²I = L D Lᵀ (λ² = damping_sq, L unit lower triangular, D diagonal) into l:
 * L's strict lower triangle, row-major n × n, with the reciprocals 1 / D_ii on the diagonal (the
 * solves multiply by them); g and l may not alias. Returns 0 when g + λ²I is not positive
 * definite to working precision (λ² too small for a's rank, or g not finite); l is then not
 * usable. */
int reach__ldl_damped(const reach_real *g, int n, reach_real damping_sq, reach_real *l);

/* x (c entries) = aᵀ(a aᵀ + λ²I)⁻¹ b (b has r entries) with l from reach__ldl_damped; work
 * holds r entries. */
void reach__damped_normal_solve(const reach_real *a, int rows, int cols, const reach_real *l, const reach_real *b,
                                reach_real *work, reach_real *x);

/* reach__damped_normal_solve of b into x and of c into y in one pass, each with the bits it would
 * have on its own; c (rows entries) may be overwritten, work holds rows entries. */
void reach__damped_normal_solve_two(const reach_real *a, int rows, int cols, const reach_real *l, const reach_real *b,
                                    reach_real *work, reach_real *c, reach_real *x, reach_real *y);

/* y = a x (a is r × c). */
void reach__mat_mul_vec(const reach_real *a, int rows, int cols, const reach_real *x, reach_real *y);

/* y = aᵀ x (a is r × c, x has r entries, y has c). */
void reach__mat_t_mul_vec(const reach_real *a, int rows, int cols, const reach_real *x, reach_real *y);

/* Σ a_i b_i */
reach_real reach__dot(const reach_real *a, const reach_real *b, int n);

/* The largest |x_i| (0 for n = 0). */
reach_real reach__max_abs(const reach_real *x, int n);

#endif
