/* The pieces of a reader's result every character reader builds the same way. */
#include "rig_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

reach_status formats_rig_allocate(reach_rig *rig, int bone_count) {
    size_t n = (size_t)bone_count;
    rig->bone_count = bone_count;
    rig->bone_names = calloc(n, sizeof *rig->bone_names);
    rig->joint_names = calloc(n, sizeof *rig->joint_names);
    rig->parents = malloc(n * sizeof *rig->parents);
    rig->rest = malloc(n * sizeof *rig->rest);
    rig->joints = malloc(n * sizeof *rig->joints);
    rig->skeleton.bone_count = bone_count;
    rig->skeleton.parents = rig->parents;
    rig->skeleton.rest = rig->rest;
    rig->skeleton.joints = rig->joints;
    return rig->bone_names && rig->joint_names && rig->parents && rig->rest && rig->joints
               ? REACH_OK
               : REACH_ERROR_INVALID_ARGUMENT;
}

char *formats_copy_name(const char *name, const char *prefix, int index) {
    char fallback[48];
    if (!name || !name[0]) {
        snprintf(fallback, sizeof fallback, "%s_%d", prefix, index);
        name = fallback;
    }
    char *copy = malloc(strlen(name) + 1);
    if (copy) strcpy(copy, name);
    return copy;
}

void formats_free_clips(reach_clip *clips, char **names, int count) {
    for (int a = 0; a < count; ++a) {
        reach_clip_free(&clips[a]);
        free(names[a]);
    }
    free(clips);
    free(names);
}
