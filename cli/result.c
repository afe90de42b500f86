#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_write.h"
#include "utf8.h"

/* Why a text could not be written, as a message. */
static int text_failure(cli_json_write_status status, cli_error *err) {
    switch (status) {
    case CLI_JSON_NOT_FINITE: return cli_fail(err, "the result is not finite (the input is too large to compute with)");
    case CLI_JSON_INVALID: return cli_fail(err, "the result holds an item that is no JSON value");
    case CLI_JSON_WRITTEN:
    case CLI_JSON_NO_MEMORY: break;
    }
    return cli_fail(err, "out of memory writing the result");
}

static void put_reals(cli_text *text, const reach_real *values, int count) {
    cli_text_raw(text, "[", 1);
    for (int i = 0; i < count; i++) {
        if (i > 0) cli_text_raw(text, ",", 1);
        cli_text_number(text, (double)values[i]);
    }
    cli_text_raw(text, "]", 1);
}

/* field is the text before the value: a comma if any, the key and the colon. */
static void put_vec3(cli_text *text, const char *field, reach_vec3 v) {
    reach_real values[3] = {v.x, v.y, v.z};
    cli_text_raw(text, field, strlen(field));
    put_reals(text, values, 3);
}

static void put_quat(cli_text *text, const char *field, reach_quat q) {
    reach_real values[4] = {q.x, q.y, q.z, q.w};
    cli_text_raw(text, field, strlen(field));
    put_reals(text, values, 4);
}

static void put_bones(cli_text *text, const cli_rig *rig, const reach_transform *pose, const reach_transform *world) {
    cli_text_raw(text, "[", 1);
    for (int i = 0; i < rig->bone_count; i++) {
        cli_text_raw(text, i > 0 ? ",{\"name\":" : "{\"name\":", i > 0 ? 9 : 8);
        cli_text_string(text, rig->names[i]);
        put_vec3(text, ",\"position\":", pose[i].translation);
        put_quat(text, ",\"rotation\":", pose[i].rotation);
        put_vec3(text, ",\"world_position\":", world[i].translation);
        put_quat(text, ",\"world_rotation\":", world[i].rotation);
        cli_text_raw(text, "}", 1);
    }
    cli_text_raw(text, "]", 1);
}

/* Adds the text under key as an item that is written as it is (cJSON's raw item), and empties
 * it for the next; fails as writing the text failed. */
static int add_text(cJSON *result, const char *key, cli_text *text, cli_error *err) {
    if (text->status != CLI_JSON_WRITTEN) return text_failure(text->status, err);
    text->length = 0;
    return cJSON_AddRawToObject(result, key, text->data) != NULL || text_failure(CLI_JSON_NO_MEMORY, err);
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

/* The pose's hundreds of numbers are written straight to text (added as raw items), not built
 * into a tree of cJSON items first: building, writing and freeing those took about a third of
 * a 10-bone request. */
int cli_result_add_pose(cJSON *result, const cli_rig *rig, const reach_transform *pose, cli_error *err) {
    int value_count = reach_skeleton_value_count(&rig->skeleton);
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    reach_real *values = malloc((size_t)(value_count > 0 ? value_count : 1) * sizeof *values);
    int ok = world && values ? 1 : text_failure(CLI_JSON_NO_MEMORY, err);
    cli_text text = {NULL, 0, 0, CLI_JSON_WRITTEN};
    if (ok) {
        reach_forward_kinematics(&rig->skeleton, pose, world);
        reach_pose_get_values(&rig->skeleton, pose, values);
        values_in_range(rig, values);
        put_bones(&text, rig, pose, world);
        ok = add_text(result, "bones", &text, err);
        put_reals(&text, values, value_count);
        ok = ok && add_text(result, "joints", &text, err);
        ok = ok && (!rig->joint_names || add_joint_names(result, rig));
    }
    free(text.data);
    free(world);
    free(values);
    return ok;
}

int cli_result_print(FILE *out, const cJSON *result, cli_error *err) {
    char *text = NULL;
    size_t length = 0;
    cli_json_write_status status = cli_json_write(result, &text, &length);
    if (status != CLI_JSON_WRITTEN) return text_failure(status, err);
    /* A result that did not reach the output (a full disk) is a failure: the exit status must not
     * say it was written. */
    text[length++] = '\n';
    errno = 0;
    int written = fwrite(text, 1, length, out) == length;
    written = fflush(out) == 0 && written && !ferror(out);
    free(text);
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
