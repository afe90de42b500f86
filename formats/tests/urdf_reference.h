/* A plain reference for URDF forward kinematics: 4×4 matrices in double, straight from the
 * format's definition (T_child = T_parent · Trans(xyz) · Rz(yaw) Ry(pitch) Rx(roll) · motion). */
#ifndef REACH_URDF_REFERENCE_H
#define REACH_URDF_REFERENCE_H

#include <math.h>
#include <string.h>

#include "robots.h"

/* The robot tests' 4×4 frame (robots.h), its product the same. */
typedef robot_frame ref_matrix;

static inline ref_matrix ref_identity(void) {
    ref_matrix r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 4; ++i)
        r.m[i][i] = 1;
    return r;
}

static inline ref_matrix ref_mul(const ref_matrix *a, const ref_matrix *b) { return robot_frame_mul(a, b); }

/* Rotation by angle about a unit axis (Rodrigues), with a translation. */
static inline ref_matrix ref_rotation(const double axis[3], double angle) {
    ref_matrix r = ref_identity();
    double c = cos(angle), s = sin(angle), t = 1 - c;
    double x = axis[0], y = axis[1], z = axis[2];
    r.m[0][0] = t * x * x + c;
    r.m[0][1] = t * x * y - s * z;
    r.m[0][2] = t * x * z + s * y;
    r.m[1][0] = t * x * y + s * z;
    r.m[1][1] = t * y * y + c;
    r.m[1][2] = t * y * z - s * x;
    r.m[2][0] = t * x * z - s * y;
    r.m[2][1] = t * y * z + s * x;
    r.m[2][2] = t * z * z + c;
    return r;
}

static inline ref_matrix ref_translation(double x, double y, double z) {
    ref_matrix r = ref_identity();
    r.m[0][3] = x;
    r.m[1][3] = y;
    r.m[2][3] = z;
    return r;
}

/* A joint origin: Trans(xyz) · Rz(yaw) · Ry(pitch) · Rx(roll). */
static inline ref_matrix ref_origin(const double xyz[3], const double rpy[3]) {
    const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1};
    ref_matrix t = ref_translation(xyz[0], xyz[1], xyz[2]);
    ref_matrix rz = ref_rotation(ez, rpy[2]), ry = ref_rotation(ey, rpy[1]), rx = ref_rotation(ex, rpy[0]);
    ref_matrix a = ref_mul(&t, &rz);
    ref_matrix b = ref_mul(&a, &ry);
    return ref_mul(&b, &rx);
}

/* The largest difference between a matrix's rotation and translation and a reach transform's. */
static inline double ref_difference(const ref_matrix *m, reach_transform t) {
    reach_quat q = reach_quat_normalize_safe(t.rotation);
    double x = (double)q.x, y = (double)q.y, z = (double)q.z, w = (double)q.w;
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    double worst = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            worst = fmax(worst, fabs(r[i][j] - m->m[i][j]));
    worst = fmax(worst, fabs((double)t.translation.x - m->m[0][3]));
    worst = fmax(worst, fabs((double)t.translation.y - m->m[1][3]));
    worst = fmax(worst, fabs((double)t.translation.z - m->m[2][3]));
    return worst;
}

#endif
