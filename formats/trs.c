/* Node transforms split, folded and sampled: the pieces the scene readers (glTF, FBX) share. */
#include "trs.h"

#include <math.h>
#include <string.h>

void formats_normalize4(double *q) {
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k)
        q[k] /= n;
}

formats_decomposed formats_decompose(const double *m, formats_trs *out) {
    double col[3][3];
    for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r)
            col[c][r] = m[c * 4 + r];
        out->s[c] = sqrt(col[c][0] * col[c][0] + col[c][1] * col[c][1] + col[c][2] * col[c][2]);
        if (!(out->s[c] > 1e-12) || m[c * 4 + 3] != 0) return FORMATS_NO_TRANSFORM;
        for (int r = 0; r < 3; ++r)
            col[c][r] /= out->s[c];
        out->t[c] = m[12 + c];
    }
    double det = col[0][0] * (col[1][1] * col[2][2] - col[1][2] * col[2][1]) -
                 col[1][0] * (col[0][1] * col[2][2] - col[0][2] * col[2][1]) +
                 col[2][0] * (col[0][1] * col[1][2] - col[0][2] * col[1][1]);
    double shear = fabs(col[0][0] * col[1][0] + col[0][1] * col[1][1] + col[0][2] * col[1][2]) +
                   fabs(col[0][0] * col[2][0] + col[0][1] * col[2][1] + col[0][2] * col[2][2]) +
                   fabs(col[1][0] * col[2][0] + col[1][1] * col[2][1] + col[1][2] * col[2][2]);
    if (m[15] != 1 || det < 0.999 || shear > 1e-4) return FORMATS_SHEARED;
    /* R[r][c] = col[c][r]; Shepperd's method. */
    double r00 = col[0][0], r11 = col[1][1], r22 = col[2][2], trace = r00 + r11 + r22;
    double *q = out->r;
    if (trace > 0) {
        double s = 2 * sqrt(1 + trace);
        q[3] = s / 4, q[0] = (col[1][2] - col[2][1]) / s, q[1] = (col[2][0] - col[0][2]) / s,
        q[2] = (col[0][1] - col[1][0]) / s;
    } else if (r00 > r11 && r00 > r22) {
        double s = 2 * sqrt(1 + r00 - r11 - r22);
        q[3] = (col[1][2] - col[2][1]) / s, q[0] = s / 4, q[1] = (col[1][0] + col[0][1]) / s,
        q[2] = (col[2][0] + col[0][2]) / s;
    } else if (r11 > r22) {
        double s = 2 * sqrt(1 + r11 - r00 - r22);
        q[3] = (col[2][0] - col[0][2]) / s, q[0] = (col[1][0] + col[0][1]) / s, q[1] = s / 4,
        q[2] = (col[2][1] + col[1][2]) / s;
    } else {
        double s = 2 * sqrt(1 + r22 - r00 - r11);
        q[3] = (col[0][1] - col[1][0]) / s, q[0] = (col[2][0] + col[0][2]) / s, q[1] = (col[2][1] + col[1][2]) / s,
        q[2] = s / 4;
    }
    formats_normalize4(q);
    return FORMATS_DECOMPOSED;
}

int formats_fold_scales(int bone_count, const int *bone_parent, const int *has_children, const formats_trs *local,
                        reach_transform *out, double *scale) {
    for (int b = 0; b < bone_count; ++b) {
        const formats_trs *x = &local[b];
        int parent = bone_parent[b];
        double above = parent < 0 ? 1 : scale[parent];
        double s = x->s[0];
        int uniform = s > 0 && fabs(x->s[1] - s) <= 1e-6 * s && fabs(x->s[2] - s) <= 1e-6 * s;
        if (!uniform && has_children[b]) return b;
        scale[b] = above * (uniform ? s : 1);
        double q[4] = {x->r[0], x->r[1], x->r[2], x->r[3]};
        formats_normalize4(q);
        out[b] = reach_transform_make(
            reach_quat_make((reach_real)q[0], (reach_real)q[1], (reach_real)q[2], (reach_real)q[3]),
            reach_vec3_make((reach_real)(above * x->t[0]), (reach_real)(above * x->t[1]),
                            (reach_real)(above * x->t[2])));
        if (!reach_vec3_is_finite(out[b].translation) || !isfinite(scale[b])) return b;
    }
    return -1;
}

void formats_sample_keys(const double *times, const double *values, int count, int width, int step, double time,
                         double snap, double *out) {
    /* hi: the first key after time (binary search: hostile files have many keys). */
    int hi = 0, end = count;
    while (hi < end) {
        int mid = hi + (end - hi) / 2;
        if (times[mid] <= time)
            hi = mid + 1;
        else
            end = mid;
    }
    if (hi == 0 || hi == count || step) {
        int at = hi == 0 ? 0 : hi - 1;
        memcpy(out, values + (size_t)at * (size_t)width, (size_t)width * sizeof *out);
        return;
    }
    int lo = hi - 1;
    /* Key times may be float32 (glTF): a sample within a key's rounding (2^-23 of its time), or
     * within snap of it when sampling at the keys' own rate, is that key, so a clip sampled at the
     * rate it was keyed at gets its keys back exactly. */
    int near = time - times[lo] <= fmax(times[lo] * 0x1p-23, snap)   ? lo
               : times[hi] - time <= fmax(times[hi] * 0x1p-23, snap) ? hi
                                                                     : -1;
    if (near >= 0) {
        memcpy(out, values + (size_t)near * (size_t)width, (size_t)width * sizeof *out);
        return;
    }
    double t = (time - times[lo]) / (times[hi] - times[lo]);
    const double *a = values + (size_t)lo * (size_t)width, *b = values + (size_t)hi * (size_t)width;
    if (width != 4) {
        for (int k = 0; k < width; ++k)
            out[k] = a[k] + (b[k] - a[k]) * t;
        return;
    }
    reach_quat qa = reach_quat_make((reach_real)a[0], (reach_real)a[1], (reach_real)a[2], (reach_real)a[3]);
    reach_quat qb = reach_quat_make((reach_real)b[0], (reach_real)b[1], (reach_real)b[2], (reach_real)b[3]);
    reach_quat q = reach_quat_normalize_safe(
        reach_quat_slerp(reach_quat_normalize_safe(qa), reach_quat_normalize_safe(qb), (reach_real)t));
    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
}
