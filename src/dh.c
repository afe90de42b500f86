/* Denavit–Hartenberg tables to skeletons (see dh.h for the conventions and the bone layout). */
#include <stdio.h>

#include "internal.h"
#include "reach/dh.h"

reach_dh_row reach_dh_default_row(void) {
    reach_dh_row row;
    row.a = 0;
    row.alpha = 0;
    row.d = 0;
    row.theta = 0;
    row.type = REACH_DH_REVOLUTE;
    row.min = -REACH_PI;
    row.max = REACH_PI;
    row.name = NULL;
    return row;
}

int reach_dh_bone_count(const reach_dh_table *table) {
    return table && table->row_count >= 1 ? table->row_count + 1 : 0;
}

static reach_status check_row(const reach_dh_row *row) {
    if (!reach_is_finite(row->a) || !reach_is_finite(row->alpha) || !reach_is_finite(row->d) ||
        !reach_is_finite(row->theta) || !reach_is_finite(row->min) || !reach_is_finite(row->max))
        return REACH_ERROR_NOT_FINITE;
    switch (row->type) {
    case REACH_DH_FIXED: return REACH_OK;
    case REACH_DH_REVOLUTE:
        if (row->min < -2 * REACH_PI || row->max > 2 * REACH_PI) return REACH_ERROR_BAD_JOINT;
        break;
    case REACH_DH_PRISMATIC: break;
    default: return REACH_ERROR_INVALID_ARGUMENT;
    }
    return row->min <= row->max ? REACH_OK : REACH_ERROR_BAD_JOINT;
}

static reach_transform rot_x(reach_real angle) {
    return reach_transform_make(reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), angle), reach_vec3_zero());
}
static reach_transform rot_z(reach_real angle) {
    return reach_transform_make(reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), angle), reach_vec3_zero());
}
static reach_transform trans_x(reach_real length) {
    return reach_transform_make(reach_quat_identity(), reach_vec3_make(length, 0, 0));
}
static reach_transform trans_z(reach_real length) {
    return reach_transform_make(reach_quat_identity(), reach_vec3_make(0, 0, length));
}

/* Rot_z(θ) · Trans_z(d): the part of a row at its joint, which the joint value extends. */
static reach_transform joint_part(const reach_dh_row *row) {
    return reach_transform_mul(rot_z(row->theta), trans_z(row->d));
}

/* Trans_x(a) · Rot_x(α): the standard convention's link after the joint. */
static reach_transform standard_link(const reach_dh_row *row) {
    return reach_transform_mul(trans_x(row->a), rot_x(row->alpha));
}

/* Rot_x(α) · Trans_x(a): the modified convention's link before the joint. */
static reach_transform modified_link(const reach_dh_row *row) {
    return reach_transform_mul(rot_x(row->alpha), trans_x(row->a));
}

static reach_joint row_joint(const reach_dh_row *row) {
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    switch (row->type) {
    case REACH_DH_REVOLUTE: return reach_joint_hinge(z, row->min, row->max);
    case REACH_DH_PRISMATIC: return reach_joint_prismatic(z, row->min, row->max);
    default: return reach_joint_fixed();
    }
}

reach_status reach_dh_build(const reach_dh_table *table, int *parents, reach_transform *rest, reach_joint *joints,
                            int capacity, reach_skeleton *skeleton, int *bad_row) {
    REACH_CHECK_ARG(table && skeleton && capacity >= 0 && (capacity == 0 || (parents && rest && joints)));
    if (table->row_count < 1 || !table->rows) return REACH_ERROR_INVALID_ARGUMENT;
    if (table->convention != REACH_DH_STANDARD && table->convention != REACH_DH_MODIFIED)
        return REACH_ERROR_INVALID_ARGUMENT;
    int n = table->row_count;
    for (int i = 0; i < n; ++i) {
        reach_status st = check_row(&table->rows[i]);
        if (st != REACH_OK) {
            if (bad_row) *bad_row = i;
            return st;
        }
    }
    if (capacity < n + 1) return REACH_ERROR_BUFFER_TOO_SMALL;

    const reach_dh_row *rows = table->rows;
    int standard = table->convention == REACH_DH_STANDARD;
    for (int i = 0; i < n; ++i) {
        parents[i] = i - 1;
        joints[i] = row_joint(&rows[i]);
        if (standard)
            rest[i] =
                i == 0 ? joint_part(&rows[0]) : reach_transform_mul(standard_link(&rows[i - 1]), joint_part(&rows[i]));
        else
            rest[i] = reach_transform_mul(modified_link(&rows[i]), joint_part(&rows[i]));
    }
    parents[n] = n - 1;
    joints[n] = reach_joint_fixed();
    rest[n] = standard ? standard_link(&rows[n - 1]) : reach_transform_identity();

    skeleton->bone_count = n + 1;
    skeleton->parents = parents;
    skeleton->rest = rest;
    skeleton->joints = joints;
    return REACH_OK;
}

const char *reach_dh_bone_name(const reach_dh_table *table, int bone, char *buffer, size_t size) {
    int bones = reach_dh_bone_count(table);
    if (bone < 0 || bone >= bones) return "";
    if (bone == bones - 1) return table->tool_name ? table->tool_name : "tool";
    if (table->rows[bone].name) return table->rows[bone].name;
    if (!buffer || size == 0) return "";
    snprintf(buffer, size, "joint%d", bone + 1);
    return buffer;
}
