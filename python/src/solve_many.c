/* Rig.solve_many: one request solved for many target positions on one rig, in one call with
 * the GIL released. The request is read once; for each row only its targets' positions change
 * before the CLI's request handling solves it, so each row's result is what `reach solve`
 * prints for that request. */
#include "rig_object.h"

#include <stdlib.h>

#include "commands.h"
#include "input.h"
#include "json_read.h"

typedef struct many_run {
    const cli_rig *rig;
    const char *text;
    size_t length;
    int target_count, rows, value_count;
    const double *positions; /* rows × target_count × 3 */
    double *joints, *residual;
    unsigned char *reached;
    int *iterations;
    cli_error error;
} many_run;

/* The position arrays of the template's targets, which each row overwrites. */
static int find_positions(const cJSON *json, int count, cJSON **positions, cli_error *err) {
    const cJSON *targets = jr_get(json, "targets");
    if (!cJSON_IsArray(targets) || cJSON_GetArraySize(targets) != count)
        return cli_fail(err, "targets: expected an array of %d targets", count);
    for (int t = 0; t < count; t++) {
        cJSON *position = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(targets, t), "position");
        if (!cJSON_IsArray(position) || cJSON_GetArraySize(position) != 3)
            return cli_fail(err, "targets[%d].position: expected [x, y, z]", t);
        positions[t] = position;
    }
    return 1;
}

static int read_row(const cJSON *result, many_run *run, int row) {
    const cJSON *joints = jr_get(result, "joints");
    cJSON *parsed = joints && cJSON_IsRaw(joints) ? cJSON_Parse(joints->valuestring) : NULL;
    const cJSON *values = parsed ? parsed : joints;
    if (!cJSON_IsArray(values) || cJSON_GetArraySize(values) != run->value_count) {
        cJSON_Delete(parsed);
        return cli_fail(&run->error, "row %d: the result has no joint values", row);
    }
    int v = 0;
    const cJSON *value;
    cJSON_ArrayForEach(value, values) run->joints[(size_t)row * (size_t)run->value_count + (size_t)v++] =
        value->valuedouble;
    cJSON_Delete(parsed);
    run->residual[row] = jr_get(result, "residual")->valuedouble;
    run->reached[row] = cJSON_IsTrue(jr_get(result, "reached")) ? 1 : 0;
    run->iterations[row] = jr_get(result, "iterations")->valueint;
    return 1;
}

static int run_many(many_run *run) {
    cJSON *json = cli_parse_json(run->text, run->length, 1, &run->error);
    cJSON **positions = malloc((size_t)(run->target_count > 0 ? run->target_count : 1) * sizeof *positions);
    int ok = json && (positions || cli_fail(&run->error, "out of memory")) && jr_object(json, "request", &run->error) &&
             find_positions(json, run->target_count, positions, &run->error);
    for (int row = 0; ok && row < run->rows; row++) {
        for (int t = 0; t < run->target_count; t++)
            for (int axis = 0; axis < 3; axis++)
                cJSON_SetNumberValue(
                    cJSON_GetArrayItem(positions[t], axis),
                    run->positions[((size_t)row * (size_t)run->target_count + (size_t)t) * 3 + (size_t)axis]);
        cli_error error = {""};
        cJSON *result = cli_solve_request(json, run->rig, &error);
        ok = result ? read_row(result, run, row) : cli_fail(&run->error, "row %d: %s", row, error.message);
        cJSON_Delete(result);
    }
    free(positions);
    cJSON_Delete(json);
    return ok;
}

/* solve_many(template_text, target_count, positions, joints, residual, reached, iterations) */
PyObject *reach_py_solve_many(PyObject *self, PyObject *args) {
    many_run run = {&((rig_object *)self)->rig, NULL, 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, {""}};
    Py_ssize_t length;
    PyObject *objects[5];
    if (!PyArg_ParseTuple(args, "y#iiOOOOO", &run.text, &length, &run.target_count, &run.rows, &objects[0], &objects[1],
                          &objects[2], &objects[3], &objects[4]))
        return NULL;
    if (run.target_count < 1 || run.rows < 0) {
        PyErr_SetString(reach_py_error, "solve_many needs at least one target and rows >= 0");
        return NULL;
    }
    run.length = (size_t)length;
    run.value_count = reach_skeleton_value_count(&run.rig->skeleton);
    static const char *const names[] = {"positions", "joints", "residual", "reached", "iterations"};
    static const char *const formats[] = {"d", "d", "d", "B", "i"};
    Py_ssize_t items[] = {(Py_ssize_t)run.rows * run.target_count * 3, (Py_ssize_t)run.rows * run.value_count, run.rows,
                          run.rows, run.rows};
    Py_buffer views[5];
    for (int i = 0; i < 5; i++)
        if (!reach_py_array(objects[i], names[i], formats[i], items[i], i > 0, &views[i])) {
            while (i-- > 0)
                PyBuffer_Release(&views[i]);
            return NULL;
        }
    run.positions = views[0].buf;
    run.joints = views[1].buf;
    run.residual = views[2].buf;
    run.reached = views[3].buf;
    run.iterations = views[4].buf;
    int ok;
    Py_BEGIN_ALLOW_THREADS ok = run_many(&run);
    Py_END_ALLOW_THREADS for (int i = 0; i < 5; i++) PyBuffer_Release(&views[i]);
    if (!ok) {
        return reach_py_raise(run.error.message);
    }
    Py_RETURN_NONE;
}
