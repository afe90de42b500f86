/* The three robot arms and their pose sets (see robots.h). */
#include "robots.h"

#include <math.h>
#include <stdlib.h>

#include "bench.h"
#include "random.h"

#define PI     3.14159265358979323846
#define DEGREE (PI / 180)

/* One arm as published: per row a, α, d (m, rad), the range (rad), and the convention. The
 * Panda's eighth row is its flange, fixed. */
typedef struct robot_spec {
    const char *name, *title;
    uint64_t seed;
    reach_dh_convention convention;
    int rows, revolute_rows;
    double a[BENCH_ROBOT_MAX_ROWS], alpha[BENCH_ROBOT_MAX_ROWS], d[BENCH_ROBOT_MAX_ROWS];
    double min[BENCH_ROBOT_MAX_ROWS], max[BENCH_ROBOT_MAX_ROWS];
} robot_spec;

static const robot_spec specs[BENCH_ROBOT_COUNT] = {
    {"ur5",
     "UR5",
     0x0005,
     REACH_DH_STANDARD,
     6,
     6,
     {0, -0.425, -0.39225, 0, 0, 0},
     {PI / 2, 0, 0, PI / 2, -PI / 2, 0},
     {0.089159, 0, 0, 0.10915, 0.09465, 0.0823},
     {-2 * PI, -2 * PI, -2 * PI, -2 * PI, -2 * PI, -2 * PI},
     {2 * PI, 2 * PI, 2 * PI, 2 * PI, 2 * PI, 2 * PI}},
    {"iiwa14",
     "LBR iiwa 14",
     0x1114,
     REACH_DH_STANDARD,
     7,
     7,
     {0, 0, 0, 0, 0, 0, 0},
     {-PI / 2, PI / 2, PI / 2, -PI / 2, -PI / 2, PI / 2, 0},
     {0.36, 0, 0.42, 0, 0.4, 0, 0.126},
     {-170 * DEGREE, -120 * DEGREE, -170 * DEGREE, -120 * DEGREE, -170 * DEGREE, -120 * DEGREE, -175 * DEGREE},
     {170 * DEGREE, 120 * DEGREE, 170 * DEGREE, 120 * DEGREE, 170 * DEGREE, 120 * DEGREE, 175 * DEGREE}},
    {"panda",
     "Panda",
     0xfa4da,
     REACH_DH_MODIFIED,
     8,
     7,
     {0, 0, 0, 0.0825, -0.0825, 0, 0.088, 0},
     {0, -PI / 2, PI / 2, PI / 2, -PI / 2, PI / 2, PI / 2, 0},
     {0.333, 0, 0.316, 0, 0.384, 0, 0, 0.107},
     {-2.8973, -1.7628, -2.8973, -3.0718, -2.8973, -0.0175, -2.8973, 0},
     {2.8973, 1.7628, 2.8973, -0.0698, 2.8973, 3.7525, 2.8973, 0}},
};

int bench_robot_build(bench_robot *robot, int which) {
    const robot_spec *spec = &specs[which];
    robot->name = spec->name;
    robot->title = spec->title;
    robot->seed = spec->seed;
    for (int i = 0; i < spec->rows; i++) {
        reach_dh_row row = reach_dh_default_row();
        row.a = (reach_real)spec->a[i];
        row.alpha = (reach_real)spec->alpha[i];
        row.d = (reach_real)spec->d[i];
        row.theta = 0;
        row.type = i < spec->revolute_rows ? REACH_DH_REVOLUTE : REACH_DH_FIXED;
        row.min = (reach_real)spec->min[i];
        row.max = (reach_real)spec->max[i];
        robot->rows[i] = row;
        if (i < spec->revolute_rows) {
            /* The range the skeleton holds, which the solvers keep to (rounded to reach_real). */
            robot->min[i] = (double)row.min;
            robot->max[i] = (double)row.max;
        }
    }
    robot->table.convention = spec->convention;
    robot->table.row_count = spec->rows;
    robot->table.rows = robot->rows;
    robot->table.tool_name = NULL;
    reach_status st = reach_dh_build(&robot->table, robot->parents, robot->rest, robot->joints,
                                     BENCH_ROBOT_MAX_ROWS + 1, &robot->skeleton, NULL);
    robot->dof = reach_skeleton_value_count(&robot->skeleton);
    robot->tool = spec->rows;
    return st == REACH_OK && robot->dof == spec->revolute_rows;
}

int bench_robot_set_values(const bench_robot *robot, const double *values, reach_transform *pose) {
    reach_real v[BENCH_ROBOT_MAX_DOF];
    for (int i = 0; i < robot->dof; i++)
        v[i] = (reach_real)values[i];
    reach_pose_rest(&robot->skeleton, pose);
    return reach_pose_set_values(&robot->skeleton, v, robot->dof, 0, pose) == REACH_OK;
}

int bench_robot_within_limits(const bench_robot *robot, const double *values, double slack) {
    for (int i = 0; i < robot->dof; i++) {
        double v = values[i], lo = robot->min[i] - slack, hi = robot->max[i] + slack;
        while (v < lo && v + 2 * PI <= hi)
            v += 2 * PI;
        while (v > hi && v - 2 * PI >= lo)
            v -= 2 * PI;
        if (!(v >= lo && v <= hi)) return 0;
    }
    return 1;
}

static void random_values(const bench_robot *robot, bench_random *r, double *values) {
    for (int i = 0; i < robot->dof; i++) {
        /* Stay inside after rounding to reach_real, which may round an end outward. */
        values[i] = (double)(reach_real)bench_random_uniform(r, robot->min[i], robot->max[i]);
        values[i] = fmin(fmax(values[i], robot->min[i]), robot->max[i]);
    }
}

/* TRAC-IK's start (its ik_tests' "nominal"): every joint at the middle of its range. */
static void middle_values(const bench_robot *robot, double *values) {
    for (int i = 0; i < robot->dof; i++)
        values[i] = (double)(reach_real)(0.5 * (robot->min[i] + robot->max[i]));
}

void bench_robot_poses_make(bench_robot_poses *poses, const bench_robot *robot, int count) {
    size_t values = (size_t)count * (size_t)robot->dof;
    poses->count = count;
    poses->dof = robot->dof;
    poses->goal_values = bench_calloc(values, sizeof *poses->goal_values);
    poses->start_values = bench_calloc(values, sizeof *poses->start_values);
    poses->goals = bench_calloc((size_t)count, sizeof *poses->goals);
    bench_random r = {robot->seed};
    reach_transform pose[BENCH_ROBOT_MAX_ROWS + 1], world[BENCH_ROBOT_MAX_ROWS + 1];
    for (int k = 0; k < count; k++) {
        double *goal = &poses->goal_values[k * robot->dof];
        random_values(robot, &r, goal);
        middle_values(robot, &poses->start_values[k * robot->dof]);
        bench_robot_set_values(robot, goal, pose);
        reach_forward_kinematics(&robot->skeleton, pose, world);
        poses->goals[k] = world[robot->tool];
    }
}

void bench_robot_poses_free(bench_robot_poses *poses) {
    free(poses->goal_values);
    free(poses->start_values);
    free(poses->goals);
}
