/* Three robot arms from their published Denavit–Hartenberg tables (dh.h), and the seeded pose
 * sets the Jacobian suite and the Orocos KDL comparison both solve:
 *   ur5     Universal Robots UR5, standard DH, every joint ±360°
 *   iiwa14  KUKA LBR iiwa 14 R820, standard DH, plain flange (d7 = 0.126 m), the maker's ranges
 *   panda   Franka Emika Panda, modified (Craig) DH with the flange as a fixed eighth row, the
 *           maker's ranges
 * A pose set is `count` problems under TRAC-IK's protocol (its ik_tests): the goal is the tool's
 * world pose for random joint values inside the limits (so it is reachable), and every solve
 * starts with each joint at the middle of its range. */
#ifndef REACH_BENCH_ROBOTS_H
#define REACH_BENCH_ROBOTS_H

#include <stdint.h>

#include "reach/reach.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BENCH_ROBOT_COUNT    3
#define BENCH_ROBOT_MAX_ROWS 8
#define BENCH_ROBOT_MAX_DOF  7
/* Problems per robot: a full run and a --quick one. */
#define BENCH_ROBOT_POSES       1000
#define BENCH_ROBOT_QUICK_POSES 12

/* Holds pointers into itself (the table's rows, the skeleton's arrays): build it in place and
 * do not copy it. */
typedef struct bench_robot {
    const char *name;  /* as in figure names: "ur5", "iiwa14", "panda" */
    const char *title; /* as people write it: "UR5", "LBR iiwa 14", "Panda" */
    uint64_t seed;     /* of its pose set */
    reach_dh_row rows[BENCH_ROBOT_MAX_ROWS];
    reach_dh_table table;
    int parents[BENCH_ROBOT_MAX_ROWS + 1];
    reach_transform rest[BENCH_ROBOT_MAX_ROWS + 1];
    reach_joint joints[BENCH_ROBOT_MAX_ROWS + 1];
    reach_skeleton skeleton;
    int dof;                                                   /* joint values (revolute rows) */
    int tool;                                                  /* the flange bone, the effector */
    double min[BENCH_ROBOT_MAX_DOF], max[BENCH_ROBOT_MAX_DOF]; /* joint ranges, rad */
} bench_robot;

/* Builds robot `which` (0 to BENCH_ROBOT_COUNT − 1); returns 0 when reach_dh_build rejects it. */
int bench_robot_build(bench_robot *robot, int which);

/* Sets pose (bone_count transforms) to the rest pose with these joint values; 0 on failure. */
int bench_robot_set_values(const bench_robot *robot, const double *values, reach_transform *pose);

/* Whether joint values lie within the limits, up to slack (rad). A hinge angle read back from a
 * pose is known only modulo 2π, so any turn of it inside the range counts. */
int bench_robot_within_limits(const bench_robot *robot, const double *values, double slack);

typedef struct bench_robot_poses {
    int count, dof;
    double *goal_values;    /* count × dof: the joint values that make each goal */
    double *start_values;   /* count × dof: where each solve starts (the middle of the ranges) */
    reach_transform *goals; /* count: the tool's world pose for the goal values (reach's FK) */
} bench_robot_poses;

/* The robot's pose set of `count` problems from its seed: the same problems for every caller. */
void bench_robot_poses_make(bench_robot_poses *poses, const bench_robot *robot, int count);
void bench_robot_poses_free(bench_robot_poses *poses);

#ifdef __cplusplus
}
#endif

#endif
