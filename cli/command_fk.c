#include <stdlib.h>

#include "commands.h"
#include "json_read.h"
#include "request.h"
#include "result.h"

static const char *const fk_fields[] = {"rig", "joints", "frame", NULL};

cJSON *cli_fk_request(const cJSON *json, cli_error *err) {
    cli_rig rig;
    if (!jr_object(json, "request", err) || !jr_check_fields(json, "", fk_fields, err)) return NULL;
    const cJSON *rig_json = jr_get(json, "rig");
    if (!rig_json) {
        cli_fail(err, "rig: required field is missing");
        return NULL;
    }
    if (!cli_rig_read(rig_json, &rig, err)) return NULL;
    reach_transform *pose = malloc((size_t)rig.bone_count * sizeof *pose);
    cJSON *result = cJSON_CreateObject();
    int ok = pose && result ? cli_pose_read(json, &rig, pose, err) : cli_fail(err, "out of memory");
    if (ok && !cJSON_AddStringToObject(result, "status", "ok")) ok = cli_fail(err, "out of memory");
    ok = ok && cli_result_add_pose(result, &rig, pose, err);
    free(pose);
    cli_rig_free(&rig);
    if (ok) return result;
    cJSON_Delete(result);
    return NULL;
}
