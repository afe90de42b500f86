/* The named rig every reader fills: freeing it, names to indices, joint values by name. */
#include <stdlib.h>
#include <string.h>

#include "reach/rig.h"

void reach_rig_free(reach_rig *rig) {
    if (!rig) return;
    for (int i = 0; i < rig->bone_count; ++i) {
        if (rig->bone_names) free(rig->bone_names[i]);
        if (rig->joint_names) free(rig->joint_names[i]);
    }
    free(rig->bone_names);
    free(rig->joint_names);
    free(rig->parents);
    free(rig->rest);
    free(rig->joints);
    memset(rig, 0, sizeof *rig);
}

static int find_name(char *const *names, int count, const char *name) {
    if (!names || !name) return -1;
    for (int i = 0; i < count; ++i)
        if (names[i] && strcmp(names[i], name) == 0) return i;
    return -1;
}

int reach_rig_find_bone(const reach_rig *rig, const char *name) {
    return rig ? find_name(rig->bone_names, rig->bone_count, name) : -1;
}

int reach_rig_find_joint(const reach_rig *rig, const char *name) {
    return rig ? find_name(rig->joint_names, rig->bone_count, name) : -1;
}

int reach_rig_value_index(const reach_rig *rig, const char *joint_name) {
    int bone = reach_rig_find_joint(rig, joint_name);
    if (bone < 0 || !reach_joint_has_value(rig->joints[bone].type)) return -1;
    int index = 0;
    for (int i = 0; i < bone; ++i)
        index += reach_joint_has_value(rig->joints[i].type);
    return index;
}

const char *reach_rig_value_name(const reach_rig *rig, int index) {
    if (!rig || index < 0) return NULL;
    for (int i = 0; i < rig->bone_count; ++i) {
        if (!reach_joint_has_value(rig->joints[i].type)) continue;
        if (index-- == 0) return rig->joint_names[i];
    }
    return NULL;
}

reach_status reach_rig_set_values_by_name(const reach_rig *rig, const char *const *names, const reach_real *values,
                                          int count, int clamp, reach_real *values_scratch, reach_transform *local,
                                          int *bad_name) {
    if (bad_name) *bad_name = -1;
    if (!rig || !local || count < 0 || (count > 0 && (!names || !values))) return REACH_ERROR_INVALID_ARGUMENT;
    int value_count = reach_skeleton_value_count(&rig->skeleton);
    if (value_count > 0 && !values_scratch) return REACH_ERROR_INVALID_ARGUMENT;
    reach_pose_get_values(&rig->skeleton, local, values_scratch);
    for (int k = 0; k < count; ++k) {
        int index = reach_rig_value_index(rig, names[k]);
        int bone = reach_rig_find_joint(rig, names[k]);
        int repeated = 0;
        for (int before = 0; before < k && index >= 0; ++before)
            repeated |= strcmp(names[before], names[k]) == 0;
        if (index < 0 || rig->joints[bone].mimic || repeated) {
            if (bad_name) *bad_name = k;
            return REACH_ERROR_INVALID_ARGUMENT;
        }
        values_scratch[index] = values[k];
    }
    return reach_pose_set_values(&rig->skeleton, values_scratch, value_count, clamp, local);
}
