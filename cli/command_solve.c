#include <stdlib.h>

#include "commands.h"
#include "json_read.h"
#include "request.h"
#include "result.h"
#include "solvers.h"

/* Orientation and aim targets leave an angle. */
static int has_orientation_target(const cli_request *request) {
    for (int i = 0; i < request->target_count; i++)
        if (request->targets[i].goal.use_orientation || request->targets[i].use_look_at) return 1;
    return 0;
}

static int add_outcome(cJSON *result, const cli_request *request, const reach_solve_result *outcome) {
    return cJSON_AddStringToObject(result, "status", "ok") &&
           cJSON_AddBoolToObject(result, "reached", outcome->reached) &&
           cJSON_AddNumberToObject(result, "iterations", outcome->iterations) &&
           cJSON_AddNumberToObject(result, "residual", (double)outcome->residual) &&
           (!has_orientation_target(request) ||
            cJSON_AddNumberToObject(result, "angle_residual", (double)outcome->angle_residual)) &&
           (!request->solver->applies_limits || cJSON_AddBoolToObject(result, "limited", outcome->limited));
}

static cJSON *solve(cli_request *request, cli_error *err) {
    cJSON *warnings = cJSON_CreateArray();
    cJSON *result = cJSON_CreateObject();
    reach_solve_result outcome = {0, 0, 0, 0, 0};
    int ok =
        warnings && result ? request->solver->solve(request, &outcome, warnings, err) : cli_fail(err, "out of memory");
    if (ok && !add_outcome(result, request, &outcome)) ok = cli_fail(err, "out of memory writing the result");
    ok = ok && cli_result_add_pose(result, request->rig, request->pose, err);
    if (ok && cJSON_GetArraySize(warnings) > 0) {
        ok = cJSON_AddItemToObject(result, "warnings", warnings) || cli_fail(err, "out of memory");
        if (ok) warnings = NULL;
    }
    cJSON_Delete(warnings);
    if (ok) return result;
    cJSON_Delete(result);
    return NULL;
}

cJSON *cli_solve_request(const cJSON *json, const cli_rig *shared_rig, cli_error *err) {
    if (!jr_object(json, "request", err)) return NULL;
    cli_rig own_rig;
    const cli_rig *rig = shared_rig;
    const cJSON *rig_json = jr_get(json, "rig");
    if (rig_json) {
        if (!cli_rig_read(rig_json, &own_rig, err)) return NULL;
        rig = &own_rig;
    } else if (!rig) {
        cli_fail(err, "rig: required field is missing");
        return NULL;
    }
    cli_request request;
    cJSON *result = NULL;
    if (cli_request_read(json, rig, &request, err)) {
        result = solve(&request, err);
        cli_request_free(&request);
    }
    if (rig == &own_rig) cli_rig_free(&own_rig);
    return result;
}
