/* The batch solvers on arrays from Python, read and written in place. A vector's array holds
 * its x, y and z rows one after another (a numpy array of shape (3, count)), which is the
 * structure of arrays the batch takes, so no coordinate is copied. The GIL is released while C
 * solves. */
#include "extension.h"

#include "reach/fabrik_batch.h"
#include "reach/two_bone_batch.h"

static reach_const_vec3_soa const_rows(const Py_buffer *view, Py_ssize_t stride) {
    const double *data = view->buf;
    reach_const_vec3_soa soa = {data, data + stride, data + 2 * stride};
    return soa;
}

static reach_vec3_soa rows(const Py_buffer *view, Py_ssize_t stride) {
    double *data = view->buf;
    reach_vec3_soa soa = {data, data + stride, data + 2 * stride};
    return soa;
}

static void release(Py_buffer *views, int count) {
    for (int i = 0; i < count; i++)
        PyBuffer_Release(&views[i]);
}

enum {
    TB_ROOT,
    TB_MID,
    TB_END,
    TB_TARGET,
    TB_OUT_MID,
    TB_OUT_END,
    TB_RESIDUAL,
    TB_REACHED,
    TB_STATUS,
    TB_POLE,
    TB_VIEWS
};

PyObject *reach_py_two_bone_batch(PyObject *module, PyObject *args) {
    (void)module;
    static const char *const names[] = {"root",    "mid",      "end",     "target", "out_mid",
                                        "out_end", "residual", "reached", "status", "pole"};
    PyObject *objects[TB_VIEWS];
    int count, repeats = 0;
    reach_two_bone_settings settings = reach_two_bone_default_settings();
    if (!PyArg_ParseTuple(args, "iOOOOOOOOOOdddd|i", &count, &objects[TB_ROOT], &objects[TB_MID], &objects[TB_END],
                          &objects[TB_TARGET], &objects[TB_OUT_MID], &objects[TB_OUT_END], &objects[TB_RESIDUAL],
                          &objects[TB_REACHED], &objects[TB_STATUS], &objects[TB_POLE], &settings.weight,
                          &settings.soft_distance, &settings.max_stretch, &settings.tolerance, &repeats))
        return NULL;
    if (count < 0) {
        PyErr_SetString(reach_py_error, "count: must be >= 0");
        return NULL;
    }
    Py_buffer views[TB_VIEWS];
    int taken = 0;
    for (; taken < TB_VIEWS; taken++) {
        if (taken == TB_POLE && objects[taken] == Py_None) break;
        int writable = taken >= TB_OUT_MID && taken <= TB_STATUS;
        const char *format = taken == TB_REACHED || taken == TB_STATUS ? "B" : "d";
        Py_ssize_t items = taken == TB_RESIDUAL || taken == TB_REACHED || taken == TB_STATUS ? count : 3 * count;
        if (!reach_py_array(objects[taken], names[taken], format, items, writable, &views[taken])) {
            release(views, taken);
            return NULL;
        }
    }
    reach_two_bone_batch batch = {0};
    batch.count = count;
    batch.root = const_rows(&views[TB_ROOT], count);
    batch.mid = const_rows(&views[TB_MID], count);
    batch.end = const_rows(&views[TB_END], count);
    batch.target = const_rows(&views[TB_TARGET], count);
    if (taken > TB_POLE) batch.pole = const_rows(&views[TB_POLE], count);
    batch.out_mid = rows(&views[TB_OUT_MID], count);
    batch.out_end = rows(&views[TB_OUT_END], count);
    batch.out_residual = views[TB_RESIDUAL].buf;
    batch.out_reached = views[TB_REACHED].buf;
    batch.out_status = views[TB_STATUS].buf;
    reach_status status = REACH_OK;
    double start = reach_py_seconds();
    Py_BEGIN_ALLOW_THREADS for (int i = 0; i < (repeats > 0 ? repeats : 1); i++) status =
        reach_two_bone_solve_batch(&batch, &settings);
    Py_END_ALLOW_THREADS release(views, taken);
    return repeats > 0 ? PyFloat_FromDouble((reach_py_seconds() - start) / repeats) : PyLong_FromLong((long)status);
}

enum { FB_LENGTHS, FB_ROOT, FB_TARGET, FB_JOINTS, FB_RESIDUAL, FB_ITERATIONS, FB_REACHED, FB_STATUS, FB_VIEWS };

PyObject *reach_py_fabrik_batch(PyObject *module, PyObject *args) {
    (void)module;
    static const char *const names[] = {"lengths",  "root",       "target",  "joints",
                                        "residual", "iterations", "reached", "status"};
    PyObject *objects[FB_VIEWS];
    int count, bone_count, repeats = 0;
    reach_fabrik_batch_settings settings = reach_fabrik_batch_default_settings();
    if (!PyArg_ParseTuple(args, "iiOOOOOOOOididdd|i", &count, &bone_count, &objects[FB_LENGTHS], &objects[FB_ROOT],
                          &objects[FB_TARGET], &objects[FB_JOINTS], &objects[FB_RESIDUAL], &objects[FB_ITERATIONS],
                          &objects[FB_REACHED], &objects[FB_STATUS], &settings.max_iterations, &settings.tolerance,
                          &settings.cold_start, &settings.cold_direction.x, &settings.cold_direction.y,
                          &settings.cold_direction.z, &repeats))
        return NULL;
    if (count < 0 || bone_count < 1) {
        PyErr_SetString(reach_py_error, "a batch needs count >= 0 and bone_count >= 1");
        return NULL;
    }
    Py_ssize_t items[FB_VIEWS] = {(Py_ssize_t)bone_count * count,
                                  3 * (Py_ssize_t)count,
                                  3 * (Py_ssize_t)count,
                                  3 * (Py_ssize_t)(bone_count + 1) * count,
                                  count,
                                  count,
                                  count,
                                  count};
    Py_buffer views[FB_VIEWS];
    for (int i = 0; i < FB_VIEWS; i++) {
        const char *format = i == FB_ITERATIONS ? "i" : i == FB_REACHED || i == FB_STATUS ? "B" : "d";
        if (!reach_py_array(objects[i], names[i], format, items[i], i >= FB_JOINTS, &views[i])) {
            release(views, i);
            return NULL;
        }
    }
    /* Joint j of chain i at joints[(plane * (bone_count + 1) + j) * count + i]: a (3, joints,
     * count) array, so each coordinate's plane is the batch's layout with stride = count. */
    reach_fabrik_batch batch = {0};
    batch.count = count;
    batch.bone_count = bone_count;
    batch.stride = count;
    batch.lengths = views[FB_LENGTHS].buf;
    batch.root = const_rows(&views[FB_ROOT], count);
    batch.target = const_rows(&views[FB_TARGET], count);
    batch.joints = rows(&views[FB_JOINTS], (Py_ssize_t)(bone_count + 1) * count);
    batch.out_residual = views[FB_RESIDUAL].buf;
    batch.out_iterations = views[FB_ITERATIONS].buf;
    batch.out_reached = views[FB_REACHED].buf;
    batch.out_status = views[FB_STATUS].buf;
    reach_status status = REACH_OK;
    double start = reach_py_seconds();
    Py_BEGIN_ALLOW_THREADS for (int i = 0; i < (repeats > 0 ? repeats : 1); i++) status =
        reach_fabrik_solve_batch(&batch, &settings);
    Py_END_ALLOW_THREADS release(views, FB_VIEWS);
    return repeats > 0 ? PyFloat_FromDouble((reach_py_seconds() - start) / repeats) : PyLong_FromLong((long)status);
}

PyObject *reach_py_status_string(PyObject *module, PyObject *args) {
    (void)module;
    int code;
    if (!PyArg_ParseTuple(args, "i", &code)) return NULL;
    return PyUnicode_FromString(reach_status_string((reach_status)code));
}
