/* The small dense linear algebra under the Jacobian solvers: the one-sided Jacobi SVD (exact small
 * cases, then reconstruction, orthonormality and ordering over thousands of random matrices of
 * every shape, rank and scale), the damped / pseudoinverse solve built on it, and the damped
 * normal equations by Cholesky. */
#include <math.h>
#include <string.h>

#include "test_support.h"
#include "../src/linalg.h"

#define MAX_DIM   12
#define SVD_CASES 3000

/* Relative accuracy expected of a backward-stable factorisation at these sizes. */
#ifdef REACH_DOUBLE
#define SVD_TOL 1e-13
#else
#define SVD_TOL 2e-6
#endif

typedef struct svd_result {
    int rows, cols, k;
    reach_real u[MAX_DIM * MAX_DIM], s[MAX_DIM], v[MAX_DIM * MAX_DIM];
} svd_result;

static svd_result svd_of(const reach_real *a, int rows, int cols) {
    svd_result r;
    memset(&r, 0, sizeof r);
    r.rows = rows;
    r.cols = cols;
    r.k = rows < cols ? rows : cols;
    int sweeps = reach__svd(a, rows, cols, r.u, r.s, r.v);
    assert_true(sweeps >= 1 && sweeps < 60);
    return r;
}

static double frobenius(const reach_real *a, int count) {
    double sum = 0;
    for (int i = 0; i < count; ++i)
        sum += (double)a[i] * (double)a[i];
    return sqrt(sum);
}

/* |A − U S Vᵀ| / |A| (absolute when A is zero). */
static double reconstruction_error(const reach_real *a, const svd_result *r) {
    double error = 0;
    for (int i = 0; i < r->rows; ++i)
        for (int j = 0; j < r->cols; ++j) {
            double sum = 0;
            for (int l = 0; l < r->k; ++l)
                sum += (double)r->u[l * r->rows + i] * (double)r->s[l] * (double)r->v[l * r->cols + j];
            double d = sum - (double)a[i * r->cols + j];
            error += d * d;
        }
    double scale = frobenius(a, r->rows * r->cols);
    return sqrt(error) / (scale > 0 ? scale : 1);
}

/* The largest |x_iᵀ x_j − δ_ij| over k vectors of length n stored one after another. */
static double orthonormality_error(const reach_real *x, int n, int k) {
    double worst = 0;
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) {
            double dot = 0;
            for (int l = 0; l < n; ++l)
                dot += (double)x[i * n + l] * (double)x[j * n + l];
            worst = fmax(worst, fabs(dot - (i == j)));
        }
    return worst;
}

static void check_factorisation(const reach_real *a, const svd_result *r, const char *what) {
    double tol = SVD_TOL * (r->rows + r->cols);
    if (!(reconstruction_error(a, r) <= tol))
        fail_msg("%s: U S Vᵀ differs from A by %g", what, reconstruction_error(a, r));
    if (!(orthonormality_error(r->u, r->rows, r->k) <= tol)) fail_msg("%s: U not orthonormal", what);
    if (!(orthonormality_error(r->v, r->cols, r->k) <= tol)) fail_msg("%s: V not orthonormal", what);
    for (int i = 0; i < r->k; ++i) {
        if (!(r->s[i] >= 0)) fail_msg("%s: negative singular value", what);
        if (i > 0 && r->s[i] > r->s[i - 1]) fail_msg("%s: singular values out of order", what);
    }
}

/* ---- exact cases ------------------------------------------------------------------------ */

static void test_svd_diagonal(void **state) {
    (void)state;
    const reach_real a[9] = {3, 0, 0, 0, -2, 0, 0, 0, 1};
    svd_result r = svd_of(a, 3, 3);
    check_factorisation(a, &r, "diag(3, -2, 1)");
    ASSERT_NEAR(r.s[0], 3, TEST_LENGTH_TOL, "s0");
    ASSERT_NEAR(r.s[1], 2, TEST_LENGTH_TOL, "s1");
    ASSERT_NEAR(r.s[2], 1, TEST_LENGTH_TOL, "s2");
}

static void test_svd_two_by_two(void **state) {
    (void)state;
    /* AᵀA = [[25, 20], [20, 25]] has eigenvalues 45 and 5. */
    const reach_real a[4] = {3, 0, 4, 5};
    svd_result r = svd_of(a, 2, 2);
    check_factorisation(a, &r, "[[3,0],[4,5]]");
    ASSERT_NEAR(r.s[0], sqrt(45.0), TEST_LENGTH_TOL * 8, "s0");
    ASSERT_NEAR(r.s[1], sqrt(5.0), TEST_LENGTH_TOL * 8, "s1");
}

static void test_svd_rank_one(void **state) {
    (void)state;
    /* (1, 2)ᵀ (1, 2, 2): σ = |(1, 2)| · |(1, 2, 2)| = √5 · 3, and one zero. */
    const reach_real a[6] = {1, 2, 2, 2, 4, 4};
    svd_result r = svd_of(a, 2, 3);
    check_factorisation(a, &r, "rank one");
    ASSERT_NEAR(r.s[0], 3 * sqrt(5.0), TEST_LENGTH_TOL * 8, "s0");
    ASSERT_NEAR(r.s[1], 0, TEST_LENGTH_TOL * 8, "s1");
    /* u_0 = ±(1, 2)/√5 */
    ASSERT_NEAR(fabs((double)r.u[0]), 1 / sqrt(5.0), TEST_LENGTH_TOL * 8, "u0x");
    ASSERT_NEAR(fabs((double)r.u[1]), 2 / sqrt(5.0), TEST_LENGTH_TOL * 8, "u0y");
}

static void test_svd_zero_and_vectors(void **state) {
    (void)state;
    const reach_real zero[6] = {0};
    svd_result r = svd_of(zero, 3, 2);
    check_factorisation(zero, &r, "zero 3x2");
    assert_true(r.s[0] == 0 && r.s[1] == 0);

    const reach_real row[4] = {1, -2, 2, 4}; /* |row| = 5 */
    r = svd_of(row, 1, 4);
    check_factorisation(row, &r, "1x4");
    ASSERT_NEAR(r.s[0], 5, TEST_LENGTH_TOL * 8, "row norm");
    r = svd_of(row, 4, 1);
    check_factorisation(row, &r, "4x1");
    ASSERT_NEAR(r.s[0], 5, TEST_LENGTH_TOL * 8, "column norm");

    const reach_real one[1] = {-7};
    r = svd_of(one, 1, 1);
    ASSERT_NEAR(r.s[0], 7, 0, "1x1");
    ASSERT_NEAR(r.u[0] * r.v[0], -1, TEST_LENGTH_TOL, "1x1 sign");
}

static void test_svd_repeated_columns(void **state) {
    (void)state;
    /* Two equal columns and a zero one: rank 1 with σ = √2 · |column|. */
    const reach_real a[12] = {1, 1, 0, 2, 2, 0, -2, -2, 0, 4, 4, 0};
    svd_result r = svd_of(a, 4, 3);
    check_factorisation(a, &r, "repeated columns");
    ASSERT_NEAR(r.s[0], sqrt(2.0) * 5, TEST_LENGTH_TOL * 8, "s0");
    ASSERT_NEAR(r.s[1], 0, TEST_LENGTH_TOL * 8, "s1");
    ASSERT_NEAR(r.s[2], 0, TEST_LENGTH_TOL * 8, "s2");
}

/* ---- random matrices -------------------------------------------------------------------- */

/* A random rows × cols matrix: full rank, or of a chosen lower rank (a product of two random
 * factors), at a random scale from 1e-6 to 1e6, sometimes with a column scaled down to 1e-9. */
static void random_matrix(test_rng *rng, int rows, int cols, reach_real *a) {
    int k = rows < cols ? rows : cols;
    int rank = (int)(test_rng_next(rng) % (uint64_t)(k + 1));
    double scale = pow(10.0, test_uniform_double(rng, -6, 6));
    if (rank == k) {
        for (int i = 0; i < rows * cols; ++i)
            a[i] = (reach_real)(scale * test_uniform_double(rng, -1, 1));
    } else {
        double left[MAX_DIM * MAX_DIM], right[MAX_DIM * MAX_DIM];
        for (int i = 0; i < rows * rank; ++i)
            left[i] = test_uniform_double(rng, -1, 1);
        for (int i = 0; i < rank * cols; ++i)
            right[i] = test_uniform_double(rng, -1, 1);
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) {
                double sum = 0;
                for (int l = 0; l < rank; ++l)
                    sum += left[i * rank + l] * right[l * cols + j];
                a[i * cols + j] = (reach_real)(scale * sum);
            }
    }
    if (test_rng_next(rng) % 4 == 0) {
        int j = (int)(test_rng_next(rng) % (uint64_t)cols);
        for (int i = 0; i < rows; ++i)
            a[i * cols + j] *= REACH_R(1e-9);
    }
}

static void test_svd_random(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5fd);
    for (int t = 0; t < SVD_CASES; ++t) {
        int rows = 1 + (int)(test_rng_next(&rng) % MAX_DIM), cols = 1 + (int)(test_rng_next(&rng) % MAX_DIM);
        reach_real a[MAX_DIM * MAX_DIM];
        random_matrix(&rng, rows, cols, a);
        svd_result r = svd_of(a, rows, cols);
        check_factorisation(a, &r, "random");
        /* Σ σ² is |A|² (the Frobenius norm is invariant under U and V). */
        double sum = 0;
        for (int i = 0; i < r.k; ++i)
            sum += (double)r.s[i] * (double)r.s[i];
        double norm = frobenius(a, rows * cols);
        ASSERT_NEAR(sqrt(sum), norm, SVD_TOL * (rows + cols) * norm, "Σσ² = |A|²");
    }
}

/* ---- solves ----------------------------------------------------------------------------- */

static void mat_t_mul_double(const reach_real *a, int rows, int cols, const double *x, double *y) {
    for (int j = 0; j < cols; ++j) {
        y[j] = 0;
        for (int i = 0; i < rows; ++i)
            y[j] += (double)a[i * cols + j] * x[i];
    }
}

/* The residual of the normal equations (AᵀA + λ²I) x = Aᵀ b, relative to |A|² |x| + |A| |b|. */
static double normal_equations_error(const reach_real *a, int rows, int cols, const reach_real *x, const reach_real *b,
                                     double damping) {
    double ax_minus_b[MAX_DIM], lhs[MAX_DIM];
    for (int i = 0; i < rows; ++i) {
        double sum = 0;
        for (int j = 0; j < cols; ++j)
            sum += (double)a[i * cols + j] * (double)x[j];
        ax_minus_b[i] = sum - (double)b[i];
    }
    mat_t_mul_double(a, rows, cols, ax_minus_b, lhs);
    double error = 0, xs = 0, bs = 0;
    for (int j = 0; j < cols; ++j) {
        double r = lhs[j] + damping * damping * (double)x[j];
        error += r * r;
        xs += (double)x[j] * (double)x[j];
    }
    for (int i = 0; i < rows; ++i)
        bs += (double)b[i] * (double)b[i];
    double na = frobenius(a, rows * cols);
    double scale = na * na * sqrt(xs) + na * sqrt(bs) + damping * damping * sqrt(xs);
    return sqrt(error) / (scale > 0 ? scale : 1);
}

static void test_pseudoinverse_and_damped_solves(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x501e);
    for (int t = 0; t < SVD_CASES; ++t) {
        int rows = 1 + (int)(test_rng_next(&rng) % MAX_DIM), cols = 1 + (int)(test_rng_next(&rng) % MAX_DIM);
        reach_real a[MAX_DIM * MAX_DIM], b[MAX_DIM], x[MAX_DIM];
        random_matrix(&rng, rows, cols, a);
        for (int i = 0; i < rows; ++i)
            b[i] = test_uniform(&rng, -1, 1);
        svd_result r = svd_of(a, rows, cols);
        /* Least squares: x = A⁺b satisfies AᵀA x = Aᵀ b and lies in A's row space (the minimum
         * norm solution), so it is orthogonal to every right singular vector with σ = 0. */
        reach_real cutoff = r.s[0] * REACH_R(1e-4);
        reach__svd_damped_solve(rows, cols, r.u, r.s, r.v, b, 0, cutoff, x);
        int well_conditioned = 1;
        for (int i = 0; i < r.k; ++i)
            if (r.s[i] > 0 && r.s[i] <= cutoff * 10) well_conditioned = 0;
        if (well_conditioned)
            ASSERT_NEAR(normal_equations_error(a, rows, cols, x, b, 0), 0, SVD_TOL * 1e4, "pseudoinverse");
        for (int i = 0; i < r.k; ++i) {
            if (r.s[i] > cutoff) continue;
            double along = 0, size = 0;
            for (int j = 0; j < cols; ++j) {
                along += (double)r.v[i * cols + j] * (double)x[j];
                size += (double)x[j] * (double)x[j];
            }
            ASSERT_NEAR(along, 0, SVD_TOL * 1e3 * (sqrt(size) + 1), "minimum norm");
        }
        /* Damped least squares solves (AᵀA + λ²I) x = Aᵀb whatever the rank. */
        double damping = (double)r.s[0] * test_uniform_double(&rng, 1e-3, 1) + 1e-30;
        reach__svd_damped_solve(rows, cols, r.u, r.s, r.v, b, (reach_real)damping, 0, x);
        ASSERT_NEAR(normal_equations_error(a, rows, cols, x, b, damping), 0, SVD_TOL * 1e3, "damped");
    }
}

/* The damped normal equations by Cholesky (L D Lᵀ) give the damped least-squares solution
 * whatever the shape and rank, and agree with the SVD's; two right-hand sides solved together
 * give the bits of two solves. */
static void test_damped_normal_equations(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xc401);
    for (int t = 0; t < SVD_CASES; ++t) {
        int rows = 1 + (int)(test_rng_next(&rng) % MAX_DIM), cols = 1 + (int)(test_rng_next(&rng) % MAX_DIM);
        int n = rows < cols ? rows : cols;
        reach_real a[MAX_DIM * MAX_DIM], b[MAX_DIM], x[MAX_DIM], by_svd[MAX_DIM], work[MAX_DIM];
        reach_real gram[MAX_DIM * MAX_DIM], factor[MAX_DIM * MAX_DIM];
        random_matrix(&rng, rows, cols, a);
        for (int i = 0; i < rows; ++i)
            b[i] = test_uniform(&rng, -1, 1);
        svd_result r = svd_of(a, rows, cols);
        /* λ from 1 % of the largest singular value up: g + λ²I is then well conditioned enough
         * for any precision. */
        double damping = (double)r.s[0] * test_uniform_double(&rng, 1e-2, 1) + 1e-15;
        reach__normal_gram(a, rows, cols, gram);
        assert_true(reach__ldl_damped(gram, n, (reach_real)(damping * damping), factor));
        reach__damped_normal_solve(a, rows, cols, factor, b, work, x);
        ASSERT_NEAR(normal_equations_error(a, rows, cols, x, b, damping), 0, SVD_TOL * 1e2, "damped, Cholesky");
        /* Two right-hand sides in one pass: each with the bits of its own solve. */
        reach_real c[MAX_DIM], c_again[MAX_DIM], y[MAX_DIM], x_two[MAX_DIM], y_two[MAX_DIM];
        for (int i = 0; i < rows; ++i)
            c[i] = c_again[i] = test_uniform(&rng, -1, 1);
        reach__damped_normal_solve(a, rows, cols, factor, c, work, y);
        reach__damped_normal_solve_two(a, rows, cols, factor, b, work, c_again, x_two, y_two);
        assert_memory_equal(x_two, x, (size_t)cols * sizeof *x);
        assert_memory_equal(y_two, y, (size_t)cols * sizeof *y);
        reach__svd_damped_solve(rows, cols, r.u, r.s, r.v, b, (reach_real)damping, 0, by_svd);
        double difference = 0, size = 0;
        for (int j = 0; j < cols; ++j) {
            difference = fmax(difference, fabs((double)x[j] - (double)by_svd[j]));
            size = fmax(size, fabs((double)by_svd[j]));
        }
        ASSERT_NEAR(difference, 0, SVD_TOL * 1e4 * (size + 1), "Cholesky against SVD");
    }
}

/* Exact cases: the Gram matrix of both forms, the factor, and a singular matrix without damping
 * refused. */
static void test_normal_gram_and_ldl_exact(void **state) {
    (void)state;
    const reach_real wide[6] = {1, 2, 3, 4, 5, 6}; /* 2 × 3: a aᵀ = [14 32; 32 77] */
    reach_real g[9], l[9];
    reach__normal_gram(wide, 2, 3, g);
    ASSERT_NEAR(g[0], 14, 0, "g00");
    ASSERT_NEAR(g[2], 32, 0, "g10");
    ASSERT_NEAR(g[3], 77, 0, "g11");
    reach__normal_gram(wide, 3, 2, g); /* 3 × 2 (rows 12, 34, 56): aᵀa = [35 44; 44 56] */
    ASSERT_NEAR(g[0], 35, 0, "tall g00");
    ASSERT_NEAR(g[2], 44, 0, "tall g10");
    ASSERT_NEAR(g[3], 56, 0, "tall g11");
    const reach_real spd[4] = {4, 0, 2, 5}; /* [4 2; 2 5] = L D Lᵀ, L = [1 0; 0.5 1], D = diag(4, 4) */
    assert_true(reach__ldl_damped(spd, 2, 0, l));
    ASSERT_NEAR(l[0], 0.25, 0, "1 / d0");
    ASSERT_NEAR(l[2], 0.5, 0, "l10");
    ASSERT_NEAR(l[3], 0.25, 0, "1 / d1");
    assert_true(reach__ldl_damped(spd, 2, 5, l)); /* [9 2; 2 10] */
    ASSERT_NEAR(l[0], 1.0 / 9, TEST_LENGTH_TOL, "damped 1 / d0");
    ASSERT_NEAR(l[2], 2.0 / 9, TEST_LENGTH_TOL, "damped l10");
    ASSERT_NEAR(l[3], 1 / (10 - 4.0 / 9), TEST_LENGTH_TOL, "damped 1 / d1");
    /* A pivot below 1 / the largest real has no finite reciprocal: refused, as singular. */
    const reach_real half_singular[4] = {1, 0, 0, 0}; /* diag(1, 0) */
#ifdef REACH_DOUBLE
    const reach_real below_inverse_of_max = 1e-310;
#else
    const reach_real below_inverse_of_max = 1e-41f;
#endif
    assert_false(reach__ldl_damped(half_singular, 2, below_inverse_of_max, l));
    assert_true(reach__ldl_damped(half_singular, 2, REACH_R(1e-30), l));
    const reach_real singular[4] = {1, 0, 1, 1}; /* [1 1; 1 1] */
    assert_false(reach__ldl_damped(singular, 2, 0, l));
    assert_true(reach__ldl_damped(singular, 2, REACH_R(0.25), l));
}

static void test_cutoff_drops_small_singular_values(void **state) {
    (void)state;
    const reach_real a[4] = {2, 0, 0, REACH_R(1e-5)};
    const reach_real b[2] = {4, 1};
    svd_result r = svd_of(a, 2, 2);
    reach_real x[2];
    reach__svd_damped_solve(2, 2, r.u, r.s, r.v, b, 0, REACH_R(1e-3), x);
    ASSERT_NEAR(x[0], 2, TEST_LENGTH_TOL, "kept direction");
    ASSERT_NEAR(x[1], 0, TEST_LENGTH_TOL, "dropped direction");
    reach__svd_damped_solve(2, 2, r.u, r.s, r.v, b, 0, 0, x);
    ASSERT_NEAR(x[1] * REACH_R(1e-5), 1, TEST_LENGTH_TOL * 100, "inverted without cutoff");
}

static void test_products(void **state) {
    (void)state;
    const reach_real a[6] = {1, 2, 3, 4, 5, 6}; /* 2 × 3 */
    const reach_real x[3] = {1, 0, -1}, y[2] = {1, -1};
    reach_real ax[2], aty[3];
    reach__mat_mul_vec(a, 2, 3, x, ax);
    reach__mat_t_mul_vec(a, 2, 3, y, aty);
    ASSERT_NEAR(ax[0], -2, 0, "Ax[0]");
    ASSERT_NEAR(ax[1], -2, 0, "Ax[1]");
    ASSERT_NEAR(aty[0], -3, 0, "Aᵀy[0]");
    ASSERT_NEAR(aty[1], -3, 0, "Aᵀy[1]");
    ASSERT_NEAR(aty[2], -3, 0, "Aᵀy[2]");
    ASSERT_NEAR(reach__dot(a, a, 6), 91, 0, "dot");
    const reach_real mixed[3] = {-4, 3, REACH_R(0.5)};
    ASSERT_NEAR(reach__max_abs(mixed, 3), 4, 0, "max abs");
    ASSERT_NEAR(reach__max_abs(mixed, 0), 0, 0, "max abs of nothing");
}

/* An entry for the six-row products: any scale, signed zeros, subnormals and huge values, never
 * NaN or infinite (the solvers do not pass those). */
static reach_real product_entry(test_rng *rng) {
    switch (test_rng_next(rng) % 8) {
    case 0: return 0;
    case 1: return -REACH_R(0.0);
    case 2: return test_uniform(rng, -1, 1) * REACH_R(1e-40); /* subnormal in float */
    case 3: return test_uniform(rng, -1, 1) * REACH_R(1e18);
    default: return test_uniform(rng, -2, 2);
    }
}

/* The six-row products (Jacobians of one 6-D target) give the bits of the general paths the other
 * sizes take: Ax row by row reach__dot's, Aᵀw column by column the sum from 0 over the rows; zero
 * and one columns included. */
static void test_six_row_products_keep_the_bits(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x51c5);
    reach_real a[6 * 9], x[9], y[6];
    for (int round = 0; round < test_scaled(20000); ++round) {
        int cols = (int)(test_rng_next(&rng) % 10);
        for (int i = 0; i < 6 * cols; ++i)
            a[i] = product_entry(&rng);
        for (int j = 0; j < cols; ++j)
            x[j] = product_entry(&rng);
        reach__mat_mul_vec(a, 6, cols, x, y);
        for (int r = 0; r < 6; ++r) {
            reach_real expected = reach__dot(a + r * cols, x, cols);
            if (memcmp(&expected, &y[r], sizeof expected) != 0)
                fail_msg("Ax, round %d, %d columns, row %d: %a, reach__dot %a", round, cols, r, (double)y[r],
                         (double)expected);
        }
        /* Aᵀw against the general path's sum: from 0, row after row. Every tenth round one
         * column of −0 against a positive w, whose products are all −0 (the sum is +0). */
        reach_real w[6], atw[9];
        for (int r = 0; r < 6; ++r)
            w[r] = round % 10 == 0 ? test_uniform(&rng, REACH_R(0.5), 1) : product_entry(&rng);
        if (round % 10 == 0 && cols > 0)
            for (int r = 0; r < 6; ++r)
                a[r * cols] = -REACH_R(0.0);
        reach__mat_t_mul_vec(a, 6, cols, w, atw);
        for (int c = 0; c < cols; ++c) {
            reach_real expected = 0;
            for (int r = 0; r < 6; ++r)
                expected += a[r * cols + c] * w[r];
            if (memcmp(&expected, &atw[c], sizeof expected) != 0)
                fail_msg("Aᵀw, round %d, %d columns, column %d: %a, the general sum %a", round, cols, c, (double)atw[c],
                         (double)expected);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_six_row_products_keep_the_bits),
        cmocka_unit_test(test_svd_diagonal),
        cmocka_unit_test(test_svd_two_by_two),
        cmocka_unit_test(test_svd_rank_one),
        cmocka_unit_test(test_svd_zero_and_vectors),
        cmocka_unit_test(test_svd_repeated_columns),
        cmocka_unit_test(test_svd_random),
        cmocka_unit_test(test_pseudoinverse_and_damped_solves),
        cmocka_unit_test(test_damped_normal_equations),
        cmocka_unit_test(test_normal_gram_and_ldl_exact),
        cmocka_unit_test(test_cutoff_drops_small_singular_values),
        cmocka_unit_test(test_products),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
