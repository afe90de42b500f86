#include "dh_reference.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

dh_robot dh_ur5(void) {
    dh_robot r = {"standard",
                  6,
                  {0, -0.425, -0.39225, 0, 0, 0},
                  {PI / 2, 0, 0, PI / 2, -PI / 2, 0},
                  {0.089159, 0, 0, 0.10915, 0.09465, 0.0823},
                  {0},
                  "rrrrrr",
                  {0},
                  {0}};
    for (int i = 0; i < r.rows; i++) {
        r.min[i] = -2 * PI;
        r.max[i] = 2 * PI;
    }
    return r;
}

dh_robot dh_panda(void) {
    dh_robot r = {"modified",
                  8,
                  {0, 0, 0, 0.0825, -0.0825, 0, 0.088, 0},
                  {0, -PI / 2, PI / 2, PI / 2, -PI / 2, PI / 2, PI / 2, 0},
                  {0.333, 0, 0.316, 0, 0.384, 0, 0, 0.107},
                  {0},
                  "rrrrrrrf",
                  {-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973},
                  {2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973}};
    return r;
}

dh_robot dh_offsets_arm(const char *convention) {
    dh_robot r = {convention,
                  5,
                  {0.1, 0.4, 0, 0.05, 0.2},
                  {PI / 2, 0, -PI / 2, 0.3, 0},
                  {0.3, 0, 0.2, 0.1, 0.05},
                  {0.2, -PI / 2, 0, 0.4, 0.1},
                  "rrpfr",
                  {-3, -2, 0, 0, -1},
                  {3, 2, 0.5, 0, 1}};
    return r;
}

int dh_value_count(const dh_robot *robot) {
    int n = 0;
    for (int i = 0; i < robot->rows; i++)
        n += robot->type[i] != 'f';
    return n;
}

static const char *type_name(char type) { return type == 'r' ? "revolute" : type == 'p' ? "prismatic" : "fixed"; }

void dh_rig_json(const dh_robot *robot, char *buf, size_t size) {
    size_t used = (size_t)snprintf(buf, size, "{'dh':{'convention':'%s','joints':[", robot->convention);
    for (int i = 0; i < robot->rows && used < size; i++) {
        char range[128] = "";
        if (robot->type[i] != 'f')
            snprintf(range, sizeof range, ",'min':%.17g,'max':%.17g", robot->min[i], robot->max[i]);
        used += (size_t)snprintf(buf + used, size - used,
                                 "%s{'a':%.17g,'alpha':%.17g,'d':%.17g,'theta':%.17g,'type':'%s'%s}", i > 0 ? "," : "",
                                 robot->a[i], robot->alpha[i], robot->d[i], robot->theta[i], type_name(robot->type[i]),
                                 range);
    }
    if (used < size) snprintf(buf + used, size - used, "]}}");
}

static void mat_mul(const double a[16], const double b[16], double out[16]) {
    double c[16];
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 4; k++) {
            c[r * 4 + k] = 0;
            for (int j = 0; j < 4; j++)
                c[r * 4 + k] += a[r * 4 + j] * b[j * 4 + k];
        }
    memcpy(out, c, sizeof c);
}

/* The textbook matrices: the standard convention's Rot_z(θ) Trans_z(d) Trans_x(a) Rot_x(α)
 * multiplied out, and the modified (Craig) one's Rot_x(α) Trans_x(a) Rot_z(θ) Trans_z(d). */
static void row_matrix(int modified, double a, double alpha, double d, double theta, double m[16]) {
    double ct = cos(theta), st = sin(theta), ca = cos(alpha), sa = sin(alpha);
    if (!modified) {
        const double s[16] = {ct, -st * ca, st * sa, a * ct, st, ct * ca, -ct * sa, a * st, 0, sa, ca, d, 0, 0, 0, 1};
        memcpy(m, s, sizeof s);
    } else {
        const double c[16] = {ct, -st, 0, a, st * ca, ct * ca, -sa, -d * sa, st * sa, ct * sa, ca, d * ca, 0, 0, 0, 1};
        memcpy(m, c, sizeof c);
    }
}

void dh_reference_fk(const dh_robot *robot, const double *q, double position[3], double rotation[9]) {
    double t[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    int modified = strcmp(robot->convention, "modified") == 0;
    int value = 0;
    for (int i = 0; i < robot->rows; i++) {
        double m[16];
        double theta = robot->theta[i], d = robot->d[i];
        if (robot->type[i] == 'r') theta += q[value++];
        if (robot->type[i] == 'p') d += q[value++];
        row_matrix(modified, robot->a[i], robot->alpha[i], d, theta, m);
        mat_mul(t, m, t);
    }
    for (int r = 0; r < 3; r++) {
        position[r] = t[r * 4 + 3];
        for (int c = 0; c < 3; c++)
            rotation[r * 3 + c] = t[r * 4 + c];
    }
}

void dh_quat_matrix(const double quat[4], double m[9]) {
    double x = quat[0], y = quat[1], z = quat[2], w = quat[3];
    const double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
                         2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                         2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
    memcpy(m, r, sizeof r);
}
