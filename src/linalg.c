/* One-sided Jacobi SVD and the damped solve built on it; the damped normal equations by Cholesky
 * (see linalg.h). */
#include <stddef.h>

#include "linalg.h"

#include "reach/vecmath.h"

/* A finite matrix converges in well under ten sweeps at these sizes; the cap only guards
 * against a pathological rounding cycle. */
#define SVD_MAX_SWEEPS 60

reach_real reach__dot(const reach_real *a, const reach_real *b, int n) {
    reach_real sum = 0;
    for (int i = 0; i < n; ++i)
        sum += a[i] * b[i];
    return sum;
}

reach_real reach__max_abs(const reach_real *x, int n) {
    reach_real m = 0;
    for (int i = 0; i < n; ++i)
        m = reach_max(m, reach_fabs(x[i]));
    return m;
}

void reach__mat_mul_vec(const reach_real *a, int rows, int cols, const reach_real *x, reach_real *y) {
    for (int i = 0; i < rows; ++i)
        y[i] = reach__dot(a + i * cols, x, cols);
}

void reach__mat_t_mul_vec(const reach_real *a, int rows, int cols, const reach_real *x, reach_real *y) {
    for (int j = 0; j < cols; ++j)
        y[j] = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            y[j] += a[i * cols + j] * x[i];
}

/* The SVD works on vectors stored one after another: vector j of length n is w + j * n. */
static reach_real *vec(reach_real *w, int n, int j) { return w + (size_t)j * (size_t)n; }

/* x, y ← c·x − s·y, s·x + c·y. */
static void rotate_pair(reach_real *x, reach_real *y, int n, reach_real c, reach_real s) {
    for (int i = 0; i < n; ++i) {
        reach_real xi = x[i], yi = y[i];
        x[i] = c * xi - s * yi;
        y[i] = s * xi + c * yi;
    }
}

static void swap_vectors(reach_real *x, reach_real *y, int n) {
    for (int i = 0; i < n; ++i) {
        reach_real t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

/* Rotates pairs of the k vectors of w (length n each) until all are mutually orthogonal, applying
 * the same rotations to the k vectors of q (length k, starting as the identity basis): with w and
 * q read as matrices whose columns are these vectors, w_in · q = w_out. The rotation that
 * makes columns p and q orthogonal solves tan 2θ = 2γ / (β − α) with α = |p|², β = |q|², γ = p·q;
 * t = tan θ is taken as the smaller root, which keeps every rotation below 45°. Columns whose
 * squared length is at most negligible_sq are rounding noise: rotating them against large ones
 * cannot make them orthogonal to working precision (and would never stop), so they are left for
 * the caller to treat as zero. */
static int jacobi_orthogonalise(reach_real *w, int n, int k, reach_real *q, reach_real *norms_sq,
                                reach_real negligible_sq) {
    reach_real tolerance = REACH_REAL_EPSILON * (reach_real)n;
    reach_real tolerance_sq = tolerance * tolerance;
    int sweep = 0;
    while (sweep < SVD_MAX_SWEEPS) {
        ++sweep;
        /* Exact lengths once per sweep; within it, each rotation updates them exactly in
         * arithmetic: α' = α − tγ, β' = β + tγ. */
        for (int j = 0; j < k; ++j)
            norms_sq[j] = reach__dot(vec(w, n, j), vec(w, n, j), n);
        int rotated = 0;
        for (int p = 0; p + 1 < k; ++p) {
            for (int r = p + 1; r < k; ++r) {
                reach_real alpha = norms_sq[p], beta = norms_sq[r];
                if (!(alpha > negligible_sq) || !(beta > negligible_sq)) continue;
                reach_real gamma = reach__dot(vec(w, n, p), vec(w, n, r), n);
                /* |γ| > tol·√(αβ), squared to keep square roots out of the common case. */
                if (!(gamma * gamma > tolerance_sq * alpha * beta)) continue;
                reach_real zeta = (beta - alpha) / (2 * gamma);
                reach_real az = reach_fabs(zeta);
                /* sqrt(1 + ζ²) written so that it cannot overflow for huge ζ. */
                reach_real root = az > 1 ? az * reach_sqrt(1 + (1 / az) * (1 / az)) : reach_sqrt(1 + az * az);
                reach_real t = (zeta >= 0 ? 1 : -1) / (az + root);
                reach_real c = 1 / reach_sqrt(1 + t * t);
                reach_real s = c * t;
                rotate_pair(vec(w, n, p), vec(w, n, r), n, c, s);
                rotate_pair(vec(q, k, p), vec(q, k, r), k, c, s);
                norms_sq[p] = alpha - t * gamma;
                norms_sq[r] = beta + t * gamma;
                rotated = 1;
            }
        }
        if (!rotated) break;
    }
    return sweep;
}

/* Replaces vector j of w (k vectors of length n) by a unit vector orthogonal to vectors 0 .. j-1
 * (already orthonormal): the coordinate axis that keeps the most length after Gram–Schmidt
 * against them, orthogonalised twice so that the result is orthogonal to working precision. */
static void complete_basis(reach_real *w, int n, int j) {
    int best_axis = 0;
    reach_real best_norm = -1;
    for (int axis = 0; axis < n; ++axis) {
        /* |e_axis − Σ (w_c · e_axis) w_c|² = 1 − Σ w_c[axis]² for orthonormal w_c. */
        reach_real norm = 1;
        for (int c = 0; c < j; ++c)
            norm -= vec(w, n, c)[axis] * vec(w, n, c)[axis];
        if (norm > best_norm) {
            best_norm = norm;
            best_axis = axis;
        }
    }
    reach_real *x = vec(w, n, j);
    for (int i = 0; i < n; ++i)
        x[i] = i == best_axis ? 1 : 0;
    for (int pass = 0; pass < 2; ++pass) {
        for (int c = 0; c < j; ++c) {
            const reach_real *y = vec(w, n, c);
            reach_real d = reach__dot(y, x, n);
            for (int i = 0; i < n; ++i)
                x[i] -= d * y[i];
        }
    }
    reach_real length = reach_sqrt(reach__dot(x, x, n));
    for (int i = 0; i < n; ++i)
        x[i] /= length;
}

int reach__svd(const reach_real *a, int rows, int cols, reach_real *u, reach_real *s, reach_real *v) {
    /* Rotate the fewer vectors: w holds a's columns (rows >= cols) or its rows, k of length n. */
    int tall = rows >= cols;
    int k = tall ? cols : rows;
    int n = tall ? rows : cols;
    reach_real *w = tall ? u : v;
    reach_real *q = tall ? v : u;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            if (tall)
                vec(w, n, j)[i] = a[i * cols + j];
            else
                vec(w, n, i)[j] = a[i * cols + j];
        }
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j)
            vec(q, k, i)[j] = i == j ? 1 : 0;

    /* Rounding in a rotation leaves about ε·|a| in any vector; below a few times that a vector
     * is noise (|a| is the Frobenius norm, which rotations keep). */
    reach_real frobenius_sq = reach__dot(w, w, n * k);
    reach_real noise = REACH_REAL_EPSILON * (reach_real)n;
    reach_real negligible_sq = noise * noise * frobenius_sq;
    int sweeps = jacobi_orthogonalise(w, n, k, q, s, negligible_sq);

    /* w's vectors are now σ_j times the left (tall) or right (wide) singular vectors. */
    for (int j = 0; j < k; ++j)
        s[j] = reach_sqrt(reach__dot(vec(w, n, j), vec(w, n, j), n));
    /* Descending order, the same permutation on both factors. */
    for (int j = 0; j < k; ++j) {
        int largest = j;
        for (int c = j + 1; c < k; ++c)
            if (s[c] > s[largest]) largest = c;
        if (largest != j) {
            reach_real t = s[j];
            s[j] = s[largest];
            s[largest] = t;
            swap_vectors(vec(w, n, j), vec(w, n, largest), n);
            swap_vectors(vec(q, k, j), vec(q, k, largest), k);
        }
    }
    /* Noise vectors have σ = 0 and are replaced by vectors that complete the orthonormal basis. */
    for (int j = 0; j < k; ++j) {
        if (s[j] * s[j] > negligible_sq && s[j] > 0) {
            reach_real *x = vec(w, n, j);
            for (int i = 0; i < n; ++i)
                x[i] /= s[j];
        } else {
            s[j] = 0;
            complete_basis(w, n, j);
        }
    }
    return sweeps;
}

void reach__svd_damped_solve(int rows, int cols, const reach_real *u, const reach_real *s, const reach_real *v,
                             const reach_real *b, reach_real damping, reach_real cutoff, reach_real *x) {
    int k = rows < cols ? rows : cols;
    for (int j = 0; j < cols; ++j)
        x[j] = 0;
    for (int i = 0; i < k; ++i) {
        if (!(s[i] > cutoff) || !(s[i] > 0)) continue;
        const reach_real *v_i = v + (size_t)i * (size_t)cols;
        reach_real f = s[i] / (s[i] * s[i] + damping * damping);
        reach_real along = f * reach__dot(u + (size_t)i * (size_t)rows, b, rows);
        for (int j = 0; j < cols; ++j)
            x[j] += along * v_i[j];
    }
}

void reach__normal_gram(const reach_real *a, int rows, int cols, reach_real *g) {
    if (rows <= cols) {
        /* g_ij = a_i · a_j over the rows, which lie contiguous. */
        for (int i = 0; i < rows; ++i) {
            const reach_real *a_i = a + (size_t)i * (size_t)cols;
            for (int j = 0; j <= i; ++j) {
                const reach_real *a_j = a + (size_t)j * (size_t)cols;
                reach_real sum = 0;
                for (int l = 0; l < cols; ++l)
                    sum += a_i[l] * a_j[l];
                g[i * rows + j] = sum;
            }
        }
        return;
    }
    /* g = Σ_l (row l)ᵀ (row l), rank one at a time. */
    for (int i = 0; i < cols; ++i)
        for (int j = 0; j <= i; ++j)
            g[i * cols + j] = 0;
    for (int l = 0; l < rows; ++l) {
        const reach_real *a_l = a + (size_t)l * (size_t)cols;
        for (int i = 0; i < cols; ++i) {
            reach_real a_li = a_l[i];
            for (int j = 0; j <= i; ++j)
                g[i * cols + j] += a_li * a_l[j];
        }
    }
}

void reach__gram_downdate(reach_real *g, int n, const reach_real *w) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
            g[i * n + j] -= w[i] * w[j];
}

/* Cholesky–Banachiewicz, row by row: g + λ²I = L Lᵀ, with 1 / L_jj kept on the diagonal so that
 * neither this nor the solves divide more than once per row. */
static inline int cholesky_rows(const reach_real *g, int n, reach_real damping_sq, reach_real *l) {
    for (int i = 0; i < n; ++i) {
        reach_real *l_i = l + i * n;
        for (int j = 0; j < i; ++j) {
            const reach_real *l_j = l + j * n;
            reach_real sum = g[i * n + j];
            for (int k = 0; k < j; ++k)
                sum -= l_i[k] * l_j[k];
            l_i[j] = sum * l_j[j];
        }
        reach_real pivot = g[i * n + i] + damping_sq;
        for (int k = 0; k < i; ++k)
            pivot -= l_i[k] * l_i[k];
        if (!(pivot > 0)) return 0;
        l_i[i] = 1 / reach_sqrt(pivot);
    }
    return 1;
}

/* One 6-D target (a robot's tool) gives n = 6: with the size known the loops compile to
 * straight-line code. */
#define COMMON_SIZE 6

int reach__cholesky_damped(const reach_real *g, int n, reach_real damping_sq, reach_real *l) {
    return n == COMMON_SIZE ? cholesky_rows(g, COMMON_SIZE, damping_sq, l) : cholesky_rows(g, n, damping_sq, l);
}

/* Solves L Lᵀ x = x in place (L lower triangular, row-major n × n, 1 / L_ii on its diagonal). */
static inline void cholesky_solve_rows(const reach_real *l, int n, reach_real *x) {
    for (int i = 0; i < n; ++i) {
        reach_real sum = x[i];
        for (int j = 0; j < i; ++j)
            sum -= l[i * n + j] * x[j];
        x[i] = sum * l[i * n + i];
    }
    for (int i = n - 1; i >= 0; --i) {
        reach_real sum = x[i];
        for (int j = i + 1; j < n; ++j)
            sum -= l[j * n + i] * x[j];
        x[i] = sum * l[i * n + i];
    }
}

static void cholesky_solve(const reach_real *l, int n, reach_real *x) {
    if (n == COMMON_SIZE)
        cholesky_solve_rows(l, COMMON_SIZE, x);
    else
        cholesky_solve_rows(l, n, x);
}

void reach__damped_normal_solve(const reach_real *a, int rows, int cols, const reach_real *l, const reach_real *b,
                                reach_real *work, reach_real *x) {
    if (rows <= cols) {
        for (int i = 0; i < rows; ++i)
            work[i] = b[i];
        cholesky_solve(l, rows, work);
        reach__mat_t_mul_vec(a, rows, cols, work, x);
    } else {
        reach__mat_t_mul_vec(a, rows, cols, b, x);
        cholesky_solve(l, cols, x);
    }
}
