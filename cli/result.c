#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

static cJSON *number_array(const reach_real *values, int count) {
    cJSON *array = cJSON_CreateArray();
    for (int i = 0; array && i < count; i++) {
        cJSON *number = cJSON_CreateNumber((double)values[i]);
        if (!number || !cJSON_AddItemToArray(array, number)) {
            cJSON_Delete(number);
            cJSON_Delete(array);
            return NULL;
        }
    }
    return array;
}

static int add_numbers(cJSON *obj, const char *key, const reach_real *values, int count) {
    cJSON *array = number_array(values, count);
    if (array && cJSON_AddItemToObject(obj, key, array)) return 1;
    cJSON_Delete(array);
    return 0;
}

static int add_vec3(cJSON *obj, const char *key, reach_vec3 v) {
    reach_real values[3] = {v.x, v.y, v.z};
    return add_numbers(obj, key, values, 3);
}

static int add_quat(cJSON *obj, const char *key, reach_quat q) {
    reach_real values[4] = {q.x, q.y, q.z, q.w};
    return add_numbers(obj, key, values, 4);
}

static int add_bones(cJSON *result, const cli_rig *rig, const reach_transform *pose, const reach_transform *world) {
    cJSON *bones = cJSON_AddArrayToObject(result, "bones");
    if (!bones) return 0;
    for (int i = 0; i < rig->bone_count; i++) {
        cJSON *bone = cJSON_CreateObject();
        if (!bone || !cJSON_AddItemToArray(bones, bone)) {
            cJSON_Delete(bone);
            return 0;
        }
        if (!cJSON_AddStringToObject(bone, "name", rig->names[i]) || !add_vec3(bone, "position", pose[i].translation) ||
            !add_quat(bone, "rotation", pose[i].rotation) || !add_vec3(bone, "world_position", world[i].translation) ||
            !add_quat(bone, "world_rotation", world[i].rotation))
            return 0;
    }
    return 1;
}

/* How far outside its range a joint value read back from a pose may lie and still count as at
 * the limit, in units of the size of what it was read from (at least 1): a few roundings, as far
 * as reading an angle back from a rotation, or an offset back from a translation (whose size is
 * the bone's rest offset plus the value), may take a value the solver left on the limit.
 * Anything further out is a value outside its range, printed as it is. */
#define LIMIT_ROUNDINGS (64 * REACH_REAL_EPSILON)

static reach_real onto_limit(reach_real value, reach_real limit, reach_real size) {
    return fabs(value - limit) <= LIMIT_ROUNDINGS * fmax(1, fmax(fabs(limit), size)) ? limit : value;
}

/* reach_pose_get_values reports hinge angles in (-pi, pi]. A range that reaches past pi (a
 * rig may allow up to [-2pi, 2pi]) can hold the same rotation one turn on, and that is the value
 * to print. A value a rounding outside its range (a joint the solver stopped at its limit, read
 * back from the pose) is printed as the limit. Printed joints then lie in their ranges and read
 * back as a starting pose. */
static void values_in_range(const cli_rig *rig, reach_real *values) {
    int n = 0;
    for (int bone = 0; bone < rig->bone_count; bone++) {
        const reach_joint *joint = &rig->joints[bone];
        if (!reach_joint_has_value(joint->type)) continue;
        reach_real *value = &values[n++];
        if (joint->type == REACH_JOINT_HINGE) {
            if (*value < joint->min && *value + 2 * REACH_PI <= joint->max) *value += 2 * REACH_PI;
            if (*value > joint->max && *value - 2 * REACH_PI >= joint->min) *value -= 2 * REACH_PI;
        }
        /* A prismatic offset is the difference of two translations of the rest offset's size. */
        reach_real size =
            joint->type == REACH_JOINT_PRISMATIC ? reach_vec3_length_robust(rig->rest[bone].translation) : 0;
        if (*value < joint->min) *value = onto_limit(*value, joint->min, size);
        if (*value > joint->max) *value = onto_limit(*value, joint->max, size);
    }
}

/* "joint_names", parallel to "joints": rigs from files name their joints. */
static int add_joint_names(cJSON *result, const cli_rig *rig) {
    cJSON *names = cJSON_AddArrayToObject(result, "joint_names");
    if (!names) return 0;
    for (int bone = 0; bone < rig->bone_count; bone++) {
        if (!reach_joint_has_value(rig->joints[bone].type)) continue;
        cJSON *name = cJSON_CreateString(cli_rig_joint_name(rig, bone));
        if (!name || !cJSON_AddItemToArray(names, name)) {
            cJSON_Delete(name);
            return 0;
        }
    }
    return 1;
}

int cli_result_add_pose(cJSON *result, const cli_rig *rig, const reach_transform *pose, cli_error *err) {
    int value_count = reach_skeleton_value_count(&rig->skeleton);
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    reach_real *values = malloc((size_t)(value_count > 0 ? value_count : 1) * sizeof *values);
    int ok = world && values;
    if (ok) {
        reach_forward_kinematics(&rig->skeleton, pose, world);
        reach_pose_get_values(&rig->skeleton, pose, values);
        values_in_range(rig, values);
        ok = add_bones(result, rig, pose, world) && add_numbers(result, "joints", values, value_count) &&
             (!rig->joint_names || add_joint_names(result, rig));
    }
    free(world);
    free(values);
    return ok || cli_fail(err, "out of memory writing the result");
}

static int all_finite(const cJSON *item) {
    if (cJSON_IsNumber(item) && !isfinite(item->valuedouble)) return 0;
    for (const cJSON *child = item->child; child; child = child->next)
        if (!all_finite(child)) return 0;
    return 1;
}

int cli_result_print(FILE *out, const cJSON *result, cli_error *err) {
    if (!all_finite(result)) return cli_fail(err, "the result is not finite (the input is too large to compute with)");
    char *text = cJSON_PrintUnformatted(result);
    if (!text) return cli_fail(err, "out of memory writing the result");
    /* A result that did not reach the output (a full disk) is a failure: the exit status must not
     * say it was written. */
    errno = 0;
    int written = fprintf(out, "%s\n", text) >= 0;
    written = fflush(out) == 0 && written && !ferror(out);
    cJSON_free(text);
    if (!written) return cli_fail(err, "cannot write the result: %s", errno ? strerror(errno) : "write error");
    return 1;
}

/* The message on one line: control characters from names in the input become '?'. */
static void print_one_line(FILE *diagnostics, const char *message) {
    for (const char *c = message; *c; c++)
        fputc((unsigned char)*c < 0x20 ? '?' : *c, diagnostics);
    fputc('\n', diagnostics);
}

void cli_print_error(FILE *out, FILE *diagnostics, int line, const char *raw_message) {
    char message[CLI_MESSAGE_SIZE];
    snprintf(message, sizeof message, "%s", raw_message);
    cli_utf8_clean(message);
    cJSON *error = cJSON_CreateObject();
    char *text = NULL;
    if (error && cJSON_AddStringToObject(error, "status", "error") &&
        cJSON_AddStringToObject(error, "message", message) &&
        (line <= 0 || cJSON_AddNumberToObject(error, "line", line)))
        text = cJSON_PrintUnformatted(error);
    fprintf(out, "%s\n", text ? text : "{\"status\":\"error\",\"message\":\"out of memory\"}");
    fflush(out);
    cJSON_free(text);
    cJSON_Delete(error);
    if (line > 0)
        fprintf(diagnostics, "reach: line %d: ", line);
    else
        fputs("reach: ", diagnostics);
    print_one_line(diagnostics, message);
}
