#include "rig.h"

#include <stdlib.h>
#include <string.h>

#include "json_read.h"

int cli_rig_read(const cJSON *json, cli_rig *rig, cli_error *err) {
    memset(rig, 0, sizeof *rig);
    if (!jr_object(json, "rig", err)) return 0;
    const cJSON *bones = jr_get(json, "bones");
    const cJSON *dh = jr_get(json, "dh");
    if (bones && dh) return cli_fail(err, "rig: give either \"bones\" or \"dh\", not both");
    if (!bones && !dh) return cli_fail(err, "rig: expected a \"bones\" array or a \"dh\" table");
    static const char *const fields[] = {"bones", "dh", NULL};
    if (!jr_check_fields(json, "rig", fields, err)) return 0;
    if (bones ? cli_rig_read_bones(bones, rig, err) : cli_rig_read_dh(dh, rig, err)) return 1;
    cli_rig_free(rig);
    return 0;
}

void cli_rig_free(cli_rig *rig) {
    if (rig->names)
        for (int i = 0; i < rig->bone_count; i++)
            free(rig->names[i]);
    free(rig->names);
    free(rig->parents);
    free(rig->rest);
    free(rig->joints);
    memset(rig, 0, sizeof *rig);
}

int cli_rig_find_bone(const cli_rig *rig, const char *name) {
    for (int i = 0; i < rig->bone_count; i++)
        if (rig->names[i] && strcmp(rig->names[i], name) == 0) return i;
    return -1;
}

int cli_rig_allocate(cli_rig *rig, int bone_count, cli_error *err) {
    size_t n = (size_t)bone_count;
    rig->bone_count = bone_count;
    rig->names = calloc(n, sizeof *rig->names);
    rig->parents = malloc(n * sizeof *rig->parents);
    rig->rest = malloc(n * sizeof *rig->rest);
    rig->joints = malloc(n * sizeof *rig->joints);
    if (!rig->names || !rig->parents || !rig->rest || !rig->joints) {
        cli_rig_free(rig);
        return cli_fail(err, "out of memory reading a rig of %d bones", bone_count);
    }
    for (int i = 0; i < bone_count; i++) {
        rig->parents[i] = -1;
        rig->rest[i] = reach_transform_identity();
        rig->joints[i] = reach_joint_ball();
    }
    rig->skeleton.bone_count = bone_count;
    rig->skeleton.parents = rig->parents;
    rig->skeleton.rest = rig->rest;
    rig->skeleton.joints = rig->joints;
    return 1;
}

int cli_rig_validate(const cli_rig *rig, cli_error *err) {
    int bad = 0;
    reach_status status = reach_skeleton_validate(&rig->skeleton, &bad);
    if (status == REACH_OK) return 1;
    return cli_fail(err, "bones[%d]: %s", bad, reach_status_string(status));
}
