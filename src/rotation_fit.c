/* The best-fit rotation between weighted vector pairs (Wahba's problem), by Horn's method: the
 * rotation is the unit quaternion that maximises qᵀ N q for a symmetric 4×4 N built from the
 * pairs, i.e. the eigenvector of N's largest eigenvalue. The eigenvector comes from cyclic
 * Jacobi rotations, in double whatever reach_real is, because near-ties between eigenvalues
 * (nearly parallel pairs) need the extra digits. */
#include <math.h>

#include "rotation_fit.h"

/* How strongly the prior holds, relative to the pairs: enough to pick the prior's twist where
 * the pairs leave it free, far too little to move a well-determined fit noticeably. */
#define PRIOR_PULL 1e-6

void reach__fit_reset(reach__fit *fit) {
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            fit->m[a][b] = 0;
    fit->scale = 0;
}

void reach__fit_add(reach__fit *fit, reach_vec3 from, reach_vec3 to, reach_real weight) {
    double f[3] = {(double)from.x, (double)from.y, (double)from.z};
    double t[3] = {(double)to.x, (double)to.y, (double)to.z};
    double w = (double)weight;
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            fit->m[a][b] += w * f[a] * t[b];
    fit->scale += w * sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]) * sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
}

/* Eigen-decomposition of a symmetric 4×4 matrix by cyclic Jacobi rotations; returns the unit
 * eigenvector of the largest eigenvalue in v_out. */
static void largest_eigenvector(double a[4][4], double v_out[4]) {
    double v[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    double norm = 0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            norm += a[i][j] * a[i][j];
    for (int sweep = 0; sweep < 32; ++sweep) {
        double off = 0;
        for (int p = 0; p < 4; ++p)
            for (int q = p + 1; q < 4; ++q)
                off += a[p][q] * a[p][q];
        if (!(off > 1e-30 * norm)) break;
        for (int p = 0; p < 4; ++p) {
            for (int q = p + 1; q < 4; ++q) {
                if (a[p][q] == 0) continue;
                /* The rotation angle that zeroes a[p][q]: t = tan θ, the smaller root of
                 * t² + 2 t cot 2θ - 1 = 0. */
                double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
                double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < 4; ++k) {
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 4; ++k) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 4; ++k) {
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq;
                    v[k][q] = s * vkp + c * vkq;
                }
            }
        }
    }
    int best = 0;
    for (int i = 1; i < 4; ++i)
        if (a[i][i] > a[best][best]) best = i;
    for (int k = 0; k < 4; ++k)
        v_out[k] = v[k][best];
}

reach_quat reach__fit_solve(const reach__fit *fit, reach_quat prior) {
    if (!(fit->scale > 0)) return prior;
    double s[3][3];
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            s[a][b] = fit->m[a][b];
    /* The prior as three more pairs, the axes to their images under it, weighted lightly. */
    double pull = PRIOR_PULL * fit->scale;
    reach_mat3 r = reach_mat3_from_quat(prior);
    for (int a = 0; a < 3; ++a) {
        s[a][0] += pull * (double)r.col[a].x;
        s[a][1] += pull * (double)r.col[a].y;
        s[a][2] += pull * (double)r.col[a].z;
    }
    /* Horn's N in the order (w, x, y, z). */
    double n[4][4] = {
        {s[0][0] + s[1][1] + s[2][2], s[1][2] - s[2][1], s[2][0] - s[0][2], s[0][1] - s[1][0]},
        {s[1][2] - s[2][1], s[0][0] - s[1][1] - s[2][2], s[0][1] + s[1][0], s[2][0] + s[0][2]},
        {s[2][0] - s[0][2], s[0][1] + s[1][0], -s[0][0] + s[1][1] - s[2][2], s[1][2] + s[2][1]},
        {s[0][1] - s[1][0], s[2][0] + s[0][2], s[1][2] + s[2][1], -s[0][0] - s[1][1] + s[2][2]},
    };
    double q[4];
    largest_eigenvector(n, q);
    reach_quat result = reach_quat_normalize_safe(
        reach_quat_make((reach_real)q[1], (reach_real)q[2], (reach_real)q[3], (reach_real)q[0]));
    /* Keep the sign of the prior, so averaging and interpolation downstream stay on one side. */
    return reach_quat_dot(result, prior) < 0 ? reach_quat_neg(result) : result;
}
