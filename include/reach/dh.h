/** @file
 * reach — robot arms from a Denavit–Hartenberg table.
 *
 * A table of N rows becomes a chain of N + 1 bones: bone i (0-based) carries row i's joint, named
 * "joint<i+1>" unless the row names it, and bone N is the end frame (the flange), a fixed bone
 * named "tool" unless the table names it. Bone 0 is the root; its parent frame is the robot's base
 * frame, which is the world. Each row's transform, with q its joint value:
 *   standard  T_i = Rot_z(θ_i) · Trans_z(d_i) · Trans_x(a_i) · Rot_x(α_i)
 *   modified  T_i = Rot_x(α_i) · Trans_x(a_i) · Rot_z(θ_i) · Trans_z(d_i)   (Craig: a row's a and α
 *             are those that precede its joint)
 * where a revolute row turns θ_i = theta + q and a prismatic row slides d_i = d + q (theta and d
 * are the offsets the joint value adds to); a fixed row has no value. The tool bone's world
 * transform is T_1 · T_2 ⋯ T_N.
 *
 * In the skeleton every joint turns or slides along its bone's local z axis:
 *   standard  bone i's rest = Trans_x(a_{i-1}) · Rot_x(α_{i-1}) · Rot_z(θ_i) · Trans_z(d_i)
 *             (the previous row's a, α; none for bone 0), tool rest = Trans_x(a_N) · Rot_x(α_N)
 *   modified  bone i's rest = Rot_x(α_i) · Trans_x(a_i) · Rot_z(θ_i) · Trans_z(d_i), tool rest = identity
 * so a revolute row is a hinge about z with the row's [min, max] (radians) and a prismatic row a
 * prismatic joint along z with [min, max] (rig units, offsets from d). The joint values of a pose
 * are then reach_pose_get_values / reach_pose_set_values, one per revolute or prismatic row in
 * row order. (A revolute range wider than [-π, π] is allowed: get_values reports hinge angles in
 * (-π, π], which are the same rotations.) */
#ifndef REACH_DH_H
#define REACH_DH_H

#include <stddef.h>

#include "skeleton.h"

REACH_EXTERN_C_BEGIN

typedef enum reach_dh_convention {
    REACH_DH_STANDARD = 0,
    REACH_DH_MODIFIED /**< Craig's */
} reach_dh_convention;

typedef enum reach_dh_joint_type { REACH_DH_REVOLUTE = 0, REACH_DH_PRISMATIC, REACH_DH_FIXED } reach_dh_joint_type;

typedef struct reach_dh_row {
    reach_real a;     /**< link length, rig units */
    reach_real alpha; /**< link twist, rad */
    reach_real d;     /**< link offset, rig units (a prismatic joint's value adds to it) */
    reach_real theta; /**< joint angle offset, rad (a revolute joint's value adds to it) */
    reach_dh_joint_type type;
    reach_real min, max; /**< the joint value's range: rad (revolute, within [-2π, 2π]) or rig units */
    const char *name;    /**< NULL: "joint<row number from 1>" */
} reach_dh_row;

typedef struct reach_dh_table {
    reach_dh_convention convention;
    int row_count;
    const reach_dh_row *rows;
    const char *tool_name; /**< NULL: "tool" */
} reach_dh_table;

/** A revolute row with no offsets and the range [-π, π], unnamed. */
REACH_API reach_dh_row reach_dh_default_row(void);

/** Bones the table builds: row_count + 1 (0 when table is NULL or row_count < 1). */
REACH_API int reach_dh_bone_count(const reach_dh_table *table);

/** Builds the chain into caller-owned arrays of capacity bones each and points *skeleton at them.
 * Checks first: at least one row, finite numbers, a known convention and joint type, min <= max,
 * revolute ranges within [-2π, 2π] (REACH_ERROR_INVALID_ARGUMENT, REACH_ERROR_NOT_FINITE,
 * REACH_ERROR_BAD_JOINT; *bad_row, if not NULL, gets the offending row), and capacity >=
 * reach_dh_bone_count (REACH_ERROR_BUFFER_TOO_SMALL). Nothing is written on error. */
REACH_API reach_status reach_dh_build(const reach_dh_table *table, int *parents, reach_transform *rest,
                                      reach_joint *joints, int capacity, reach_skeleton *skeleton, int *bad_row);

/** The name of bone `bone` of the built chain, as described above. Never NULL: a row's own name,
 * the tool name, or "joint<n>" written into buffer (size bytes; a short buffer truncates, and a
 * NULL buffer gives ""). An out-of-range bone gives "". */
REACH_API const char *reach_dh_bone_name(const reach_dh_table *table, int bone, char *buffer, size_t size);

REACH_EXTERN_C_END

#endif
