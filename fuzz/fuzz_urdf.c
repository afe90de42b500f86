/* The URDF reader on hostile bytes. Checked on every input:
 *   - it returns, with a message on error and an empty rig;
 *   - a rig it returns is one reach_skeleton_validate accepts, with a name for every bone and a
 *     joint name for every bone but the root, names that look up to their own bones, and joint
 *     values that set and read back inside their limits (mimic followers derived), giving a
 *     finite pose under forward kinematics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/reach.h"
#include "reach/urdf.h"

static void check(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "invariant failed: %s\n", what);
        abort();
    }
}

static void check_rig(const reach_rig *rig) {
    check(reach_skeleton_validate(&rig->skeleton, NULL) == REACH_OK, "the rig validates");
    check(rig->bone_count >= 1 && rig->parents[0] == -1, "one root, first");
    for (int b = 0; b < rig->bone_count; ++b) {
        check(rig->bone_names[b] != NULL, "every bone named");
        check((rig->joint_names[b] != NULL) == (b > 0), "every bone but the root has its joint's name");
        check(reach_rig_find_bone(rig, rig->bone_names[b]) == b, "bone names look up");
        if (b > 0) check(reach_rig_find_joint(rig, rig->joint_names[b]) == b, "joint names look up");
    }
    int count = reach_skeleton_value_count(&rig->skeleton);
    reach_real *values = malloc(((size_t)count + 1) * sizeof *values);
    reach_transform *pose = malloc((size_t)rig->bone_count * 2 * sizeof *pose);
    check(values && pose, "memory");
    reach_pose_rest(&rig->skeleton, pose);
    /* Every leader at its range's middle: a follower derived from it may fall outside its own
     * range, which the set must refuse whole or accept with every value inside. */
    int n = 0;
    for (int b = 0; b < rig->bone_count; ++b)
        if (reach_joint_has_value(rig->joints[b].type)) {
            values[n++] = rig->joints[b].min / 2 + rig->joints[b].max / 2;
        }
    reach_status st = reach_pose_set_values(&rig->skeleton, values, count, 1, pose);
    check(st == REACH_OK, "clamped values always set");
    reach_pose_get_values(&rig->skeleton, pose, values);
    n = 0;
    for (int b = 0; b < rig->bone_count; ++b) {
        const reach_joint *j = &rig->joints[b];
        if (!reach_joint_has_value(j->type)) continue;
        check(values[n] >= j->min && values[n] <= j->max, "values read back inside their limits");
        ++n;
    }
    reach_forward_kinematics(&rig->skeleton, pose, pose + rig->bone_count);
    free(values);
    free(pose);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char error[256];
    reach_rig rig;
    reach_status st = reach_urdf_read((const char *)data, size, &rig, error, sizeof error);
    if (st == REACH_OK) {
        check_rig(&rig);
    } else {
        check(rig.bone_count == 0 && rig.bone_names == NULL, "an error leaves the rig empty");
        check(strlen(error) > 0, "an error has a message");
    }
    reach_rig_free(&rig);
    return 0;
}
