/* `reach walk`: the standard creature (include/reach/walker.h, docs/walker.md) on a standard
 * path and terrain in 3-D. Frame 0 is the creature standing at the path's start; each later
 * frame moves the body to the path's point at frame × dt and updates the walker once. */
#include <stdlib.h>

#include "result.h"
#include "walk.h"

static cJSON *vec3_array(reach_vec3 v) {
    const double values[3] = {(double)v.x, (double)v.y, (double)v.z};
    return cJSON_CreateDoubleArray(values, 3);
}

static int add_vec3(cJSON *obj, const char *key, reach_vec3 v) {
    cJSON *array = vec3_array(v);
    if (array && cJSON_AddItemToObject(obj, key, array)) return 1;
    cJSON_Delete(array);
    return 0;
}

static int add_foot(cJSON *feet, const reach_walker_leg *leg) {
    cJSON *foot = cJSON_CreateObject();
    if (!foot || !cJSON_AddItemToArray(feet, foot)) {
        cJSON_Delete(foot);
        return 0;
    }
    return add_vec3(foot, "position", leg->foot) && cJSON_AddBoolToObject(foot, "planted", leg->planted) &&
           cJSON_AddNumberToObject(foot, "group", leg->def.group) && add_vec3(foot, "hip", leg->hip) &&
           cJSON_AddNumberToObject(foot, "reach", (double)leg->def.reach);
}

/* {"frame", "t", "forced_steps", "body": {"position", "heading"}, "feet": [...]}, as docs/cli.md
 * describes it. The count of forced steps so far says when the gait rule gave way (a feet
 * listing alone cannot tell a forced lift from a turn). */
static cJSON *frame_json(const reach_walker *walker) {
    cJSON *frame = cJSON_CreateObject();
    cJSON *body = NULL, *feet = NULL;
    int ok = frame && cJSON_AddNumberToObject(frame, "frame", (double)walker->frame) &&
             cJSON_AddNumberToObject(frame, "t", (double)walker->time) &&
             cJSON_AddNumberToObject(frame, "forced_steps", (double)walker->forced_steps) &&
             (body = cJSON_AddObjectToObject(frame, "body")) != NULL && add_vec3(body, "position", walker->position) &&
             cJSON_AddNumberToObject(body, "heading", (double)walker->heading) &&
             (feet = cJSON_AddArrayToObject(frame, "feet")) != NULL;
    for (int i = 0; ok && i < walker->leg_count; i++)
        ok = add_foot(feet, &walker->legs[i]);
    if (ok) return frame;
    cJSON_Delete(frame);
    return NULL;
}

static int print_frame(const reach_walker *walker, FILE *out, cli_error *err) {
    cJSON *frame = frame_json(walker);
    if (!frame) return cli_fail(err, "out of memory writing frame %ld", walker->frame);
    int ok = cli_result_print(out, frame, err);
    cJSON_Delete(frame);
    return ok;
}

static int walk(reach_walker *walker, const cli_walk_options *options, FILE *out, cli_error *err) {
    reach_walk_terrain terrain = reach_walk_terrain_default(options->terrain);
    reach_walk_path path = reach_walk_path_default(options->path);
    reach_walker_def def = reach_walker_default_def();
    def.ground = reach_walk_terrain_ground;
    def.ground_user = &terrain;
    reach_walker_leg_def legs[REACH_WALKER_MAX_LEGS];
    reach_vec2 position;
    reach_real heading;
    reach_status status = reach_walker_standard_legs(options->legs, REACH_LEG_TWO_BONE, legs);
    if (status == REACH_OK) status = reach_walk_path_sample(&path, 0, &position, &heading);
    if (status == REACH_OK) status = reach_walker_init(walker, &def, legs, options->legs, position, heading);
    if (status != REACH_OK) return cli_fail(err, "walk: the creature cannot stand: %s", reach_status_string(status));
    if (!print_frame(walker, out, err)) return 0;
    reach_real dt = (reach_real)options->dt;
    for (int frame = 1; frame < options->frames; frame++) {
        status = reach_walk_path_sample(&path, (reach_real)frame * dt, &position, &heading);
        if (status == REACH_OK) status = reach_walker_update(walker, position, heading, dt);
        if (status != REACH_OK) return cli_fail(err, "walk: frame %d: %s", frame, reach_status_string(status));
        if (!print_frame(walker, out, err)) return 0;
    }
    return 1;
}

int cli_walk_run(const cli_walk_options *options, FILE *out, cli_error *err) {
    /* A walker holds room for the most legs there can be: kept off the stack. */
    reach_walker *walker = malloc(sizeof *walker);
    if (!walker) return cli_fail(err, "out of memory");
    int ok = walk(walker, options, out, err);
    free(walker);
    return ok;
}
