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

/* Four partial sums of a dot product, lane q over l = q mod 4. In float on x86-64 they are one
 * SSE register (four products and four sums an instruction each); elsewhere four reals. Each
 * lane multiplies, then adds, as the scalar code does, so both give the same bits (the guard is
 * packed_vec3.h's; REACH_NO_PACKED takes the scalar form). */
#if !defined(REACH_DOUBLE) && !defined(REACH_NO_PACKED) && defined(__SSE2__) && defined(__SSE2_MATH__)
#include <emmintrin.h>

typedef __m128 lanes;

static inline lanes lanes_zero(void) { return _mm_setzero_ps(); }
static inline lanes lanes_mad(lanes acc, const reach_real *x, const reach_real *y) {
    return _mm_add_ps(acc, _mm_mul_ps(_mm_loadu_ps(x), _mm_loadu_ps(y)));
}
/* y[0..3] + x[0..3]·s, each lane one multiply and one add */
static inline lanes lanes_load(const reach_real *y) { return _mm_loadu_ps(y); }
static inline void lanes_store(reach_real *y, lanes v) { _mm_storeu_ps(y, v); }
static inline lanes lanes_axpy(lanes y, const reach_real *x, reach_real s) {
    return _mm_add_ps(y, _mm_mul_ps(_mm_loadu_ps(x), _mm_set1_ps(s)));
}
static inline reach_real lanes_sum(lanes acc) {
    float q[4];
    _mm_storeu_ps(q, acc);
    return (q[0] + q[1]) + (q[2] + q[3]);
}
#else
typedef struct lanes {
    reach_real q[4];
} lanes;

static inline lanes lanes_zero(void) {
    lanes zero = {{0, 0, 0, 0}};
    return zero;
}
static inline lanes lanes_mad(lanes acc, const reach_real *x, const reach_real *y) {
    for (int q = 0; q < 4; ++q)
        acc.q[q] += x[q] * y[q];
    return acc;
}
static inline lanes lanes_load(const reach_real *y) {
    lanes v = {{y[0], y[1], y[2], y[3]}};
    return v;
}
static inline void lanes_store(reach_real *y, lanes v) {
    for (int q = 0; q < 4; ++q)
        y[q] = v.q[q];
}
static inline lanes lanes_axpy(lanes y, const reach_real *x, reach_real s) {
    for (int q = 0; q < 4; ++q)
        y.q[q] += x[q] * s;
    return y;
}
static inline reach_real lanes_sum(lanes acc) { return (acc.q[0] + acc.q[1]) + (acc.q[2] + acc.q[3]); }
#endif

/* One 6-D target (a robot's tool) gives 6 rows and a 6 × 6 Gram matrix: with the size known the
 * factorisation and solves compile to straight-line code, and the products below keep a column's
 * entries in registers and run one short loop over the columns. */
#define COMMON_SIZE 6

/* ax for a of COMMON_SIZE rows: the six sums side by side, each from 0 in reach__dot's order (so
 * the same bits, NaN payloads aside), x[j] loaded once for all six. */
static void six_row_mul_vec(const reach_real *a, int cols, const reach_real *x, reach_real *y) {
    reach_real y0 = 0, y1 = 0, y2 = 0, y3 = 0, y4 = 0, y5 = 0;
    for (int j = 0; j < cols; ++j) {
        reach_real xj = x[j];
        y0 += a[j] * xj;
        y1 += a[cols + j] * xj;
        y2 += a[2 * cols + j] * xj;
        y3 += a[3 * cols + j] * xj;
        y4 += a[4 * cols + j] * xj;
        y5 += a[5 * cols + j] * xj;
    }
    y[0] = y0;
    y[1] = y1;
    y[2] = y2;
    y[3] = y3;
    y[4] = y4;
    y[5] = y5;
}

void reach__mat_mul_vec(const reach_real *a, int rows, int cols, const reach_real *x, reach_real *y) {
    if (rows == COMMON_SIZE) {
        six_row_mul_vec(a, cols, x, y);
        return;
    }
    /* Four rows side by side, each sum in reach__dot's order: four chains of additions at once. */
    int i = 0;
    for (; i + 4 <= rows; i += 4) {
        const reach_real *a_0 = a + (size_t)i * (size_t)cols, *a_1 = a_0 + cols, *a_2 = a_1 + cols, *a_3 = a_2 + cols;
        reach_real y0 = 0, y1 = 0, y2 = 0, y3 = 0;
        for (int j = 0; j < cols; ++j) {
            reach_real xj = x[j];
            y0 += a_0[j] * xj;
            y1 += a_1[j] * xj;
            y2 += a_2[j] * xj;
            y3 += a_3[j] * xj;
        }
        y[i] = y0;
        y[i + 1] = y1;
        y[i + 2] = y2;
        y[i + 3] = y3;
    }
    for (; i < rows; ++i)
        y[i] = reach__dot(a + i * cols, x, cols);
}

/* aᵀx for a of COMMON_SIZE rows: one column at a time, x held in registers, each sum from 0 in
 * the general path's order (so the same bits: 0 + p turns a −0 product into +0 as it does). */
static void six_row_t_mul_vec(const reach_real *a, int cols, const reach_real *x, reach_real *y) {
    reach_real x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5];
    for (int j = 0; j < cols; ++j)
        y[j] = 0 + a[j] * x0 + a[cols + j] * x1 + a[2 * cols + j] * x2 + a[3 * cols + j] * x3 + a[4 * cols + j] * x4 +
               a[5 * cols + j] * x5;
}

void reach__mat_t_mul_vec(const reach_real *a, int rows, int cols, const reach_real *x, reach_real *y) {
    if (rows == COMMON_SIZE) {
        six_row_t_mul_vec(a, cols, x, y);
        return;
    }
    for (int j = 0; j < cols; ++j)
        y[j] = 0;
    /* Three rows a pass, four columns at once: each y[j] still adds its rows' products one after
     * another, in order (the same bits), read and written a third as often. */
    int i = 0, body = cols - cols % 4;
    for (; i + 3 <= rows; i += 3) {
        const reach_real *a0 = a + (size_t)i * (size_t)cols, *a1 = a0 + cols, *a2 = a1 + cols;
        reach_real x0 = x[i], x1 = x[i + 1], x2 = x[i + 2];
        int j = 0;
        for (; j < body; j += 4)
            lanes_store(y + j,
                        lanes_axpy(lanes_axpy(lanes_axpy(lanes_load(y + j), a0 + j, x0), a1 + j, x1), a2 + j, x2));
        for (; j < cols; ++j)
            y[j] = y[j] + a0[j] * x0 + a1[j] * x1 + a2[j] * x2;
    }
    for (; i < rows; ++i)
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

/* a aᵀ for a of COMMON_SIZE rows, lower triangle: the sum over columns of each column's outer
 * product, so that every entry of a is loaded once. */
static void six_row_gram(const reach_real *a, int cols, reach_real *g) {
    reach_real g00 = 0, g10 = 0, g11 = 0, g20 = 0, g21 = 0, g22 = 0, g30 = 0, g31 = 0, g32 = 0, g33 = 0, g40 = 0;
    reach_real g41 = 0, g42 = 0, g43 = 0, g44 = 0, g50 = 0, g51 = 0, g52 = 0, g53 = 0, g54 = 0, g55 = 0;
    for (int l = 0; l < cols; ++l) {
        reach_real c0 = a[l], c1 = a[cols + l], c2 = a[2 * cols + l], c3 = a[3 * cols + l], c4 = a[4 * cols + l];
        reach_real c5 = a[5 * cols + l];
        g00 += c0 * c0;
        g10 += c1 * c0;
        g11 += c1 * c1;
        g20 += c2 * c0;
        g21 += c2 * c1;
        g22 += c2 * c2;
        g30 += c3 * c0;
        g31 += c3 * c1;
        g32 += c3 * c2;
        g33 += c3 * c3;
        g40 += c4 * c0;
        g41 += c4 * c1;
        g42 += c4 * c2;
        g43 += c4 * c3;
        g44 += c4 * c4;
        g50 += c5 * c0;
        g51 += c5 * c1;
        g52 += c5 * c2;
        g53 += c5 * c3;
        g54 += c5 * c4;
        g55 += c5 * c5;
    }
    g[0] = g00;
    g[6] = g10;
    g[7] = g11;
    g[12] = g20;
    g[13] = g21;
    g[14] = g22;
    g[18] = g30;
    g[19] = g31;
    g[20] = g32;
    g[21] = g33;
    g[24] = g40;
    g[25] = g41;
    g[26] = g42;
    g[27] = g43;
    g[28] = g44;
    g[30] = g50;
    g[31] = g51;
    g[32] = g52;
    g[33] = g53;
    g[34] = g54;
    g[35] = g55;
}

/* g_ij = a_i · a_j over the rows, which lie contiguous: two rows by two, each sum as four lanes
 * (the tail past a multiple of four added last, in order). A full body's 18 rows of 46 columns
 * spent half their time in the loop's own counting and loads one product at a time. */
static void wide_gram(const reach_real *a, int rows, int cols, reach_real *g) {
    int body = cols - cols % 4;
    for (int i = 0; i < rows; i += 2) {
        const reach_real *a_i = a + (size_t)i * (size_t)cols;
        int pair = i + 1 < rows;
        const reach_real *a_k = pair ? a_i + cols : a_i;
        for (int j = 0; j <= i; j += 2) {
            const reach_real *a_j = a + (size_t)j * (size_t)cols;
            /* Row j + 1 exists wherever it is wanted: for g[i][j + 1] when j + 1 <= i, for
             * g[i + 1][j + 1] when row i + 1 does (the block's upper corner g[i][i + 1] is not). */
            const reach_real *a_m = j + 1 < rows ? a_j + cols : a_j;
            lanes ij = lanes_zero(), im = ij, kj = ij, km = ij;
            for (int l = 0; l < body; l += 4) {
                ij = lanes_mad(ij, a_i + l, a_j + l);
                im = lanes_mad(im, a_i + l, a_m + l);
                kj = lanes_mad(kj, a_k + l, a_j + l);
                km = lanes_mad(km, a_k + l, a_m + l);
            }
            reach_real s_ij = lanes_sum(ij), s_im = lanes_sum(im), s_kj = lanes_sum(kj), s_km = lanes_sum(km);
            for (int l = body; l < cols; ++l) {
                s_ij += a_i[l] * a_j[l];
                s_im += a_i[l] * a_m[l];
                s_kj += a_k[l] * a_j[l];
                s_km += a_k[l] * a_m[l];
            }
            g[i * rows + j] = s_ij;
            if (j + 1 <= i) g[i * rows + j + 1] = s_im;
            if (pair) {
                g[(i + 1) * rows + j] = s_kj;
                g[(i + 1) * rows + j + 1] = s_km;
            }
        }
    }
}

void reach__normal_gram(const reach_real *a, int rows, int cols, reach_real *g) {
    if (rows == COMMON_SIZE && rows <= cols) {
        six_row_gram(a, cols, g);
        return;
    }
    if (rows <= cols) {
        wide_gram(a, rows, cols, g);
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

static inline void gram_downdate_rows(reach_real *g, int n, const reach_real *w) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
            g[i * n + j] -= w[i] * w[j];
}

void reach__gram_downdate(reach_real *g, int n, const reach_real *w) {
    if (n == COMMON_SIZE)
        gram_downdate_rows(g, COMMON_SIZE, w);
    else
        gram_downdate_rows(g, n, w);
}

/* g + λ²I = L D Lᵀ, row by row. The square-root-free form of Cholesky: each row waits on one
 * division where L Lᵀ waits on a root and a division, and a 6 × 6 factorisation is a chain of
 * such waits (on the 7-joint arms it was a tenth of a solve). Row i's entries first hold
 * W_ij = L_ij D_jj, from which both L_ij and D_ii follow; 0 when the pivot D_ii is not
 * positive or too small to invert. */
static inline int ldl_row(const reach_real *g, int n, int i, reach_real damping_sq, reach_real *l) {
    reach_real *l_i = l + i * n;
    int j = 0;
    /* Two entries side by side, each in its own order (the same bits as one at a time), so that
     * two chains of subtractions run at once. */
    for (; j + 1 < i; j += 2) {
        const reach_real *l_j = l + j * n, *l_next = l_j + n;
        reach_real sum = g[i * n + j], next = g[i * n + j + 1];
        for (int k = 0; k < j; ++k) {
            sum -= l_i[k] * l_j[k];
            next -= l_i[k] * l_next[k];
        }
        l_i[j] = sum;
        l_i[j + 1] = next - sum * l_next[j];
    }
    for (; j < i; ++j) {
        const reach_real *l_j = l + j * n;
        reach_real sum = g[i * n + j];
        for (int k = 0; k < j; ++k)
            sum -= l_i[k] * l_j[k];
        l_i[j] = sum;
    }
    reach_real pivot = g[i * n + i] + damping_sq;
    for (int k = 0; k < i; ++k) {
        reach_real w = l_i[k];
        l_i[k] = w * l[k * n + k];
        pivot -= w * l_i[k];
    }
    /* A pivot below 1 / the largest real has no finite reciprocal: as good as singular. */
    reach_real inverse = 1 / pivot;
    if (!(pivot > 0) || !reach_is_finite(inverse)) return 0;
    l_i[i] = inverse;
    return 1;
}

/* The common size row by row with each row's index a constant, so that its loops unroll. */
static int ldl_six(const reach_real *g, reach_real damping_sq, reach_real *l) {
    return ldl_row(g, COMMON_SIZE, 0, damping_sq, l) && ldl_row(g, COMMON_SIZE, 1, damping_sq, l) &&
           ldl_row(g, COMMON_SIZE, 2, damping_sq, l) && ldl_row(g, COMMON_SIZE, 3, damping_sq, l) &&
           ldl_row(g, COMMON_SIZE, 4, damping_sq, l) && ldl_row(g, COMMON_SIZE, 5, damping_sq, l);
}

int reach__ldl_damped(const reach_real *g, int n, reach_real damping_sq, reach_real *l) {
    if (n == COMMON_SIZE) return ldl_six(g, damping_sq, l);
    for (int i = 0; i < n; ++i)
        if (!ldl_row(g, n, i, damping_sq, l)) return 0;
    return 1;
}

/* Row i of the forward substitution L y = x and of the back substitution Lᵀ z = D⁻¹ y, in place
 * (L unit lower triangular, row-major n × n, 1 / D_ii on its diagonal). */
static inline void forward_row(const reach_real *l, int n, int i, reach_real *x) {
    reach_real sum = x[i];
    for (int j = 0; j < i; ++j)
        sum -= l[i * n + j] * x[j];
    x[i] = sum;
}

static inline void back_row(const reach_real *l, int n, int i, reach_real *x) {
    reach_real sum = x[i] * l[i * n + i];
    for (int j = i + 1; j < n; ++j)
        sum -= l[j * n + i] * x[j];
    x[i] = sum;
}

/* Solves L D Lᵀ x = x in place. Row 0 of L y = x leaves x[0] as it is (L's diagonal is one). */
static void ldl_solve(const reach_real *l, int n, reach_real *x) {
    if (n == COMMON_SIZE) {
        forward_row(l, COMMON_SIZE, 1, x);
        forward_row(l, COMMON_SIZE, 2, x);
        forward_row(l, COMMON_SIZE, 3, x);
        forward_row(l, COMMON_SIZE, 4, x);
        forward_row(l, COMMON_SIZE, 5, x);
        back_row(l, COMMON_SIZE, 5, x);
        back_row(l, COMMON_SIZE, 4, x);
        back_row(l, COMMON_SIZE, 3, x);
        back_row(l, COMMON_SIZE, 2, x);
        back_row(l, COMMON_SIZE, 1, x);
        back_row(l, COMMON_SIZE, 0, x);
        return;
    }
    for (int i = 1; i < n; ++i)
        forward_row(l, n, i, x);
    for (int i = n - 1; i >= 0; --i)
        back_row(l, n, i, x);
}

/* Rows i of both substitutions for two right-hand sides at once: two independent chains of
 * waits, interleaved, so the second costs its multiplies and little time. */
static inline void forward_row_two(const reach_real *l, int n, int i, reach_real *x, reach_real *y) {
    reach_real sum_x = x[i], sum_y = y[i];
    for (int j = 0; j < i; ++j) {
        sum_x -= l[i * n + j] * x[j];
        sum_y -= l[i * n + j] * y[j];
    }
    x[i] = sum_x;
    y[i] = sum_y;
}

static inline void back_row_two(const reach_real *l, int n, int i, reach_real *x, reach_real *y) {
    reach_real sum_x = x[i] * l[i * n + i], sum_y = y[i] * l[i * n + i];
    for (int j = i + 1; j < n; ++j) {
        sum_x -= l[j * n + i] * x[j];
        sum_y -= l[j * n + i] * y[j];
    }
    x[i] = sum_x;
    y[i] = sum_y;
}

/* ldl_solve on x and y together; each gets the same bits as on its own (where the compiler does
 * not fuse multiplies and adds differently in the two loops: see docs/reliability.md). */
static void ldl_solve_two(const reach_real *l, int n, reach_real *x, reach_real *y) {
    if (n == COMMON_SIZE) {
        forward_row_two(l, COMMON_SIZE, 1, x, y);
        forward_row_two(l, COMMON_SIZE, 2, x, y);
        forward_row_two(l, COMMON_SIZE, 3, x, y);
        forward_row_two(l, COMMON_SIZE, 4, x, y);
        forward_row_two(l, COMMON_SIZE, 5, x, y);
        back_row_two(l, COMMON_SIZE, 5, x, y);
        back_row_two(l, COMMON_SIZE, 4, x, y);
        back_row_two(l, COMMON_SIZE, 3, x, y);
        back_row_two(l, COMMON_SIZE, 2, x, y);
        back_row_two(l, COMMON_SIZE, 1, x, y);
        back_row_two(l, COMMON_SIZE, 0, x, y);
        return;
    }
    for (int i = 1; i < n; ++i)
        forward_row_two(l, n, i, x, y);
    for (int i = n - 1; i >= 0; --i)
        back_row_two(l, n, i, x, y);
}

void reach__damped_normal_solve(const reach_real *a, int rows, int cols, const reach_real *l, const reach_real *b,
                                reach_real *work, reach_real *x) {
    if (rows <= cols) {
        for (int i = 0; i < rows; ++i)
            work[i] = b[i];
        ldl_solve(l, rows, work);
        reach__mat_t_mul_vec(a, rows, cols, work, x);
    } else {
        reach__mat_t_mul_vec(a, rows, cols, b, x);
        ldl_solve(l, cols, x);
    }
}

void reach__damped_normal_solve_two(const reach_real *a, int rows, int cols, const reach_real *l, const reach_real *b,
                                    reach_real *work, reach_real *c, reach_real *x, reach_real *y) {
    if (rows <= cols) {
        for (int i = 0; i < rows; ++i)
            work[i] = b[i];
        ldl_solve_two(l, rows, work, c);
        reach__mat_t_mul_vec(a, rows, cols, work, x);
        reach__mat_t_mul_vec(a, rows, cols, c, y);
    } else {
        reach__mat_t_mul_vec(a, rows, cols, b, x);
        reach__mat_t_mul_vec(a, rows, cols, c, y);
        ldl_solve_two(l, cols, x, y);
    }
}
