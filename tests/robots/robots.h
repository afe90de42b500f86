/* Robot arms for the tests, from their published Denavit–Hartenberg parameters, and an
 * independent forward kinematics that multiplies the textbook DH matrices in double precision.
 * Header-only (static inline) so that test programs include it without a library of their own. */
#ifndef REACH_TEST_ROBOTS_H
#define REACH_TEST_ROBOTS_H

#include <math.h>
#include <string.h>

#include "test_support.h"

#define ROBOT_MAX_ROWS 8
#define ROBOT_PI       3.14159265358979323846
#define ROBOT_DEG      (ROBOT_PI / 180.0)

typedef struct test_robot {
    const char *name;
    reach_dh_row rows[ROBOT_MAX_ROWS];
    reach_dh_table table;
    int parents[ROBOT_MAX_ROWS + 1];
    reach_transform rest[ROBOT_MAX_ROWS + 1];
    reach_joint joints[ROBOT_MAX_ROWS + 1];
    reach_skeleton skeleton;
    int dof;  /* joint values */
    int tool; /* the flange bone */
} test_robot;

static inline reach_dh_row robot_row(double a, double alpha, double d, double theta, reach_dh_joint_type type,
                                     double min, double max) {
    reach_dh_row row = reach_dh_default_row();
    row.a = (reach_real)a;
    row.alpha = (reach_real)alpha;
    row.d = (reach_real)d;
    row.theta = (reach_real)theta;
    row.type = type;
    row.min = (reach_real)min;
    row.max = (reach_real)max;
    return row;
}

static inline void robot_finish(test_robot *r, const char *name, reach_dh_convention convention, int row_count) {
    r->name = name;
    r->table.convention = convention;
    r->table.row_count = row_count;
    r->table.rows = r->rows;
    r->table.tool_name = NULL;
    reach_status st = reach_dh_build(&r->table, r->parents, r->rest, r->joints, ROBOT_MAX_ROWS + 1, &r->skeleton, NULL);
    if (st != REACH_OK) fail_msg("%s: reach_dh_build: %s", name, reach_status_string(st));
    r->dof = reach_skeleton_value_count(&r->skeleton);
    r->tool = row_count;
}

/* Universal Robots UR5, standard DH (the maker's published table); every joint ±360°. */
static inline void robot_ur5(test_robot *r) {
    const double a[6] = {0, -0.425, -0.39225, 0, 0, 0};
    const double d[6] = {0.089159, 0, 0, 0.10915, 0.09465, 0.0823};
    const double alpha[6] = {ROBOT_PI / 2, 0, 0, ROBOT_PI / 2, -ROBOT_PI / 2, 0};
    for (int i = 0; i < 6; ++i)
        r->rows[i] = robot_row(a[i], alpha[i], d[i], 0, REACH_DH_REVOLUTE, -2 * ROBOT_PI, 2 * ROBOT_PI);
    robot_finish(r, "UR5", REACH_DH_STANDARD, 6);
}

/* KUKA LBR iiwa 14 R820, standard DH with the plain flange (d7 = 0.126 m); the maker's ranges. */
static inline void robot_iiwa14(test_robot *r) {
    const double d[7] = {0.36, 0, 0.42, 0, 0.4, 0, 0.126};
    const double alpha[7] = {-ROBOT_PI / 2, ROBOT_PI / 2, ROBOT_PI / 2, -ROBOT_PI / 2, -ROBOT_PI / 2, ROBOT_PI / 2, 0};
    const double range[7] = {170, 120, 170, 120, 170, 120, 175};
    for (int i = 0; i < 7; ++i)
        r->rows[i] = robot_row(0, alpha[i], d[i], 0, REACH_DH_REVOLUTE, -range[i] * ROBOT_DEG, range[i] * ROBOT_DEG);
    robot_finish(r, "iiwa14", REACH_DH_STANDARD, 7);
}

/* Franka Emika Panda, modified (Craig) DH as Franka publishes it, with the flange as a fixed
 * eighth row; the maker's joint ranges. */
static inline void robot_panda(test_robot *r) {
    const double a[8] = {0, 0, 0, 0.0825, -0.0825, 0, 0.088, 0};
    const double d[8] = {0.333, 0, 0.316, 0, 0.384, 0, 0, 0.107};
    const double alpha[8] = {0, -ROBOT_PI / 2, ROBOT_PI / 2, ROBOT_PI / 2, -ROBOT_PI / 2, ROBOT_PI / 2, ROBOT_PI / 2,
                             0};
    const double lo[7] = {-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973};
    const double hi[7] = {2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973};
    for (int i = 0; i < 7; ++i)
        r->rows[i] = robot_row(a[i], alpha[i], d[i], 0, REACH_DH_REVOLUTE, lo[i], hi[i]);
    r->rows[7] = robot_row(a[7], alpha[7], d[7], 0, REACH_DH_FIXED, 0, 0);
    robot_finish(r, "Panda", REACH_DH_MODIFIED, 8);
}

/* ---- independent forward kinematics -------------------------------------------------------- */

typedef struct robot_frame {
    double m[4][4];
} robot_frame;

/* The textbook closed forms of one row's homogeneous matrix. */
static inline robot_frame robot_dh_matrix(reach_dh_convention convention, double a, double alpha, double d,
                                          double theta) {
    double ct = cos(theta), st = sin(theta), ca = cos(alpha), sa = sin(alpha);
    robot_frame f;
    memset(&f, 0, sizeof f);
    if (convention == REACH_DH_STANDARD) {
        double m[4][4] = {
            {ct, -st * ca, st * sa, a * ct}, {st, ct * ca, -ct * sa, a * st}, {0, sa, ca, d}, {0, 0, 0, 1}};
        memcpy(f.m, m, sizeof m);
    } else {
        double m[4][4] = {
            {ct, -st, 0, a}, {st * ca, ct * ca, -sa, -sa * d}, {st * sa, ct * sa, ca, ca * d}, {0, 0, 0, 1}};
        memcpy(f.m, m, sizeof m);
    }
    return f;
}

static inline robot_frame robot_frame_mul(const robot_frame *x, const robot_frame *y) {
    robot_frame f;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            double sum = 0;
            for (int k = 0; k < 4; ++k)
                sum += x->m[i][k] * y->m[k][j];
            f.m[i][j] = sum;
        }
    return f;
}

/* T_1 ⋯ T_N for joint values q (one per revolute or prismatic row), in double. */
static inline robot_frame robot_reference_fk(const test_robot *r, const double *q) {
    robot_frame f;
    memset(&f, 0, sizeof f);
    for (int i = 0; i < 4; ++i)
        f.m[i][i] = 1;
    int value = 0;
    for (int i = 0; i < r->table.row_count; ++i) {
        const reach_dh_row *row = &r->rows[i];
        double theta = row->theta, d = row->d;
        if (row->type == REACH_DH_REVOLUTE) theta += q[value++];
        if (row->type == REACH_DH_PRISMATIC) d += q[value++];
        robot_frame t = robot_dh_matrix(r->table.convention, row->a, row->alpha, d, theta);
        f = robot_frame_mul(&f, &t);
    }
    return f;
}

static inline reach_vec3 robot_frame_position(const robot_frame *f) {
    return reach_vec3_make((reach_real)f->m[0][3], (reach_real)f->m[1][3], (reach_real)f->m[2][3]);
}

/* Column j of the rotation part: where the frame's axis j points. */
static inline reach_vec3 robot_frame_axis(const robot_frame *f, int j) {
    return reach_vec3_make((reach_real)f->m[0][j], (reach_real)f->m[1][j], (reach_real)f->m[2][j]);
}

/* The same as a local → world transform's axis, for comparing with the skeleton. */
static inline reach_vec3 robot_transform_axis(reach_transform t, int j) {
    return reach_quat_rotate(t.rotation, reach_vec3_make(j == 0, j == 1, j == 2));
}

/* Uniform joint values inside the limits, both as reach_real and as double. */
static inline void robot_random_values(const test_robot *r, test_rng *rng, reach_real *values) {
    int n = 0;
    for (int i = 0; i < r->skeleton.bone_count; ++i) {
        reach_joint j = r->joints[i];
        if (reach_joint_has_value(j.type)) values[n++] = test_uniform(rng, j.min, j.max);
    }
}

/* The tool's world transform for joint values, through the skeleton. */
static inline reach_transform robot_tool_pose(const test_robot *r, const reach_real *values) {
    reach_transform local[ROBOT_MAX_ROWS + 1], world[ROBOT_MAX_ROWS + 1];
    reach_pose_rest(&r->skeleton, local);
    reach_status st = reach_pose_set_values(&r->skeleton, values, r->dof, 0, local);
    if (st != REACH_OK) fail_msg("%s: reach_pose_set_values: %s", r->name, reach_status_string(st));
    reach_forward_kinematics(&r->skeleton, local, world);
    return world[r->tool];
}

#endif
