/* Denavit–Hartenberg robots for the CLI tests: their published tables, written out as CLI rigs,
 * and an independent forward kinematics that multiplies the textbook 4×4 DH matrices. */
#ifndef REACH_CLI_DH_REFERENCE_H
#define REACH_CLI_DH_REFERENCE_H

#include <stddef.h>

#define DH_MAX_ROWS 8

typedef struct dh_robot {
    const char *convention; /* "standard" or "modified" */
    int rows;
    double a[DH_MAX_ROWS], alpha[DH_MAX_ROWS], d[DH_MAX_ROWS], theta[DH_MAX_ROWS];
    /* 'r' revolute (the value adds to theta), 'p' prismatic (it adds to d), 'f' fixed (none) */
    char type[DH_MAX_ROWS + 1];
    double min[DH_MAX_ROWS], max[DH_MAX_ROWS];
} dh_robot;

/* Universal Robots UR5 (standard DH, the maker's table), every joint ±2π. */
dh_robot dh_ur5(void);
/* Franka Emika Panda (modified DH as Franka publishes it) with the flange as a fixed eighth row;
 * the maker's joint ranges. */
dh_robot dh_panda(void);

/* A small made-up arm that uses what the tables above do not: theta and d offsets, a prismatic
 * row and a fixed row in the middle, in the given convention. */
dh_robot dh_offsets_arm(const char *convention);

/* The joint values the robot takes (its rows that are not fixed). */
int dh_value_count(const dh_robot *robot);

/* {"dh": {"convention", "joints": [...]}} with ' for ", into buf. */
void dh_rig_json(const dh_robot *robot, char *buf, size_t size);

/* The tool's world transform at joint values q (one per non-fixed row): the product of the
 * rows' matrices, as a position and a row-major 3×3 rotation. */
void dh_reference_fk(const dh_robot *robot, const double *q, double position[3], double rotation[9]);

/* The 3×3 rotation matrix of a unit quaternion [x, y, z, w], row-major. */
void dh_quat_matrix(const double quat[4], double rotation[9]);

#endif
