/* A rig as the contract's version-1 bone list, {"bones": [{"name", "parent", "position",
 * "rotation", "joint"}, ...]}, which rig_bones.c reads back: parents before children (the rig's
 * order), a ball joint left out (the default), limits as the joint has them. */
#include <string.h>

#include "json_write.h"
#include "rig_write.h"

static cJSON *numbers(const double *values, int count) {
    cJSON *array = cJSON_CreateArray();
    for (int k = 0; k < count; k++)
        cJSON_AddItemToArray(array, cJSON_CreateNumber(values[k]));
    return array;
}

static cJSON *vec3(reach_vec3 v) {
    double values[3] = {(double)v.x, (double)v.y, (double)v.z};
    return numbers(values, 3);
}

static cJSON *joint_json(const reach_joint *j) {
    cJSON *joint = cJSON_CreateObject();
    cJSON_AddStringToObject(joint, "type", cli_joint_type_name(j->type));
    if (j->type == REACH_JOINT_FIXED) return joint;
    cJSON_AddItemToObject(joint, "axis", vec3(j->axis));
    if (j->type == REACH_JOINT_CONE) {
        cJSON_AddNumberToObject(joint, "angle", (double)j->cone_angle);
        if (j->has_twist) {
            double twist[2] = {(double)j->twist_min, (double)j->twist_max};
            cJSON_AddItemToObject(joint, "twist", numbers(twist, 2));
        }
        return joint;
    }
    cJSON_AddNumberToObject(joint, "min", (double)j->min);
    cJSON_AddNumberToObject(joint, "max", (double)j->max);
    return joint;
}

/* What a bone list cannot say: a mimic coupling, a name given twice or empty. */
static int check_writable(const reach_rig *rig, cli_error *err) {
    for (int b = 0; b < rig->bone_count; b++) {
        if (!rig->bone_names[b][0]) return cli_fail(err, "bone %d has no name, which a bones rig needs", b);
        if (rig->joints[b].mimic)
            return cli_fail(err, "bone '%s' mimics another joint, which a version-1 bones rig cannot say",
                            rig->bone_names[b]);
        for (int before = 0; before < b; before++)
            if (strcmp(rig->bone_names[before], rig->bone_names[b]) == 0)
                return cli_fail(err, "two bones are named '%s'; a bones rig needs every name once", rig->bone_names[b]);
    }
    return 1;
}

int cli_rig_write_bones(const reach_rig *rig, char **text, size_t *length, cli_error *err) {
    *text = NULL;
    *length = 0;
    if (!check_writable(rig, err)) return 0;
    cJSON *root = cJSON_CreateObject();
    cJSON *bones = cJSON_AddArrayToObject(root, "bones");
    for (int b = 0; b < rig->bone_count; b++) {
        const reach_transform *rest = &rig->rest[b];
        cJSON *bone = cJSON_CreateObject();
        cJSON_AddItemToArray(bones, bone);
        cJSON_AddStringToObject(bone, "name", rig->bone_names[b]);
        if (rig->parents[b] < 0)
            cJSON_AddNullToObject(bone, "parent");
        else
            cJSON_AddStringToObject(bone, "parent", rig->bone_names[rig->parents[b]]);
        cJSON_AddItemToObject(bone, "position", vec3(rest->translation));
        double rotation[4] = {(double)rest->rotation.x, (double)rest->rotation.y, (double)rest->rotation.z,
                              (double)rest->rotation.w};
        cJSON_AddItemToObject(bone, "rotation", numbers(rotation, 4));
        if (rig->joints[b].type != REACH_JOINT_BALL) cJSON_AddItemToObject(bone, "joint", joint_json(&rig->joints[b]));
    }
    cli_json_write_status status = cli_json_write(root, text, length);
    cJSON_Delete(root);
    if (status == CLI_JSON_WRITTEN) return 1;
    return cli_fail(err, status == CLI_JSON_NOT_FINITE ? "the rig holds a number that is not finite"
                                                       : "out of memory writing the rig");
}
