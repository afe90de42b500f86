/* reach.two_bone_batch and reach.fabrik_batch: the batch solvers on numpy arrays, read and
 * written in place. A vector's array holds its x, y and z rows one after another (shape
 * (3, count)), which is the structure of arrays the batch takes, so no coordinate is copied.
 *
 * These are the functions Python calls, with no Python wrapper between: a 1 000-limb batch
 * solves in a few microseconds, so the call's fixed cost decides its throughput. Arguments come
 * by vectorcall, arrays are checked through numpy's own struct (type, flags, shape: a few
 * loads each, where the buffer protocol would build a format string per array), outputs the
 * caller did not give are made once, and the GIL is released once around the solve. */
#include "extension.h"

#include <limits.h>
#include <stdio.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "reach/fabrik_batch.h"
#include "reach/two_bone_batch.h"

static PyTypeObject *two_bone_result_type;
static PyTypeObject *fabrik_result_type;

static const char *type_name(int type) { return type == NPY_DOUBLE ? "float64" : type == NPY_INT ? "int32" : "uint8"; }

/* A shape as Python writes a tuple: "(3, 8)", "(8,)". */
static void shape_text(char *text, size_t size, int ndim, const npy_intp *dims) {
    size_t used = (size_t)snprintf(text, size, "(");
    for (int i = 0; i < ndim && used < size; i++)
        used += (size_t)snprintf(text + used, size - used, "%s%zd", i ? ", " : "", (Py_ssize_t)dims[i]);
    if (used < size) snprintf(text + used, size - used, ndim == 1 ? ",)" : ")");
}

/* The data of `object` when it is a numpy array of `type` (native byte order, aligned,
 * C-contiguous, writable if asked) and of shape `dims`; NULL with reach.Error raised otherwise. */
static void *array_data(PyObject *object, const char *name, int type, int ndim, const npy_intp *dims, int writable) {
    if (PyArray_Check(object)) {
        PyArrayObject *array = (PyArrayObject *)object;
        int shaped = PyArray_NDIM(array) == ndim;
        for (int i = 0; shaped && i < ndim; i++)
            shaped = PyArray_DIM(array, i) == dims[i];
        if (shaped && PyArray_TYPE(array) == type && PyArray_ISCARRAY_RO(array) &&
            (!writable || PyArray_ISWRITEABLE(array)))
            return PyArray_DATA(array);
    }
    char expected[96];
    shape_text(expected, sizeof expected, ndim, dims);
    if (!PyArray_Check(object)) {
        PyErr_Format(reach_py_error, "%s: expected a C-contiguous %s%s numpy array of shape %s, got %s", name,
                     writable ? "writable " : "", type_name(type), expected, Py_TYPE(object)->tp_name);
        return NULL;
    }
    PyArrayObject *array = (PyArrayObject *)object;
    char shape[96];
    shape_text(shape, sizeof shape, PyArray_NDIM(array), PyArray_DIMS(array));
    PyErr_Format(reach_py_error, "%s: expected a C-contiguous %s%s numpy array of shape %s, got dtype %S, shape %s%s%s",
                 name, writable ? "writable " : "", type_name(type), expected, (PyObject *)PyArray_DESCR(array), shape,
                 PyArray_ISCARRAY_RO(array) ? "" : ", not C-contiguous (or unaligned or byte-swapped)",
                 writable && !PyArray_ISWRITEABLE(array) ? ", read-only" : "");
    return NULL;
}

/* `given` checked as an output, or a new array when the caller gave none (NULL). Returns a new
 * reference stored in *out, and its data; NULL with an exception raised. */
static void *output(PyObject *given, const char *name, int type, int ndim, const npy_intp *dims, PyObject **out) {
    if (given && given != Py_None) {
        void *data = array_data(given, name, type, ndim, dims, 1);
        if (!data) return NULL;
        Py_INCREF(given);
        *out = given;
        return data;
    }
    *out = PyArray_EMPTY(ndim, (npy_intp *)dims, type, 0);
    return *out ? PyArray_DATA((PyArrayObject *)*out) : NULL;
}

static int real_argument(PyObject *given, const char *name, double *value) {
    if (!given) return 1;
    *value = PyFloat_AsDouble(given);
    if (*value == -1.0 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "%s: expected a number", name);
        return 0;
    }
    return 1;
}

static int count_argument(Py_ssize_t count, const char *what) {
    if (count <= INT_MAX) return 1;
    PyErr_Format(reach_py_error, "%s: at most %d per batch", what, INT_MAX);
    return 0;
}

/* A batch refused as a whole writes nothing, not even its statuses, while one with bad items
 * writes every status. So the first status is marked before the solve: a mark left in place
 * tells a refusal, and the caller's byte is put back (a refused call leaves its arrays as they
 * were). No status code is this large. */
#define UNWRITTEN 0xff

typedef struct marked_status {
    unsigned char *statuses;
    int count;
    unsigned char first; /* the caller's first status, put back on a refusal */
} marked_status;

static marked_status mark(unsigned char *statuses, int count) {
    marked_status marked = {statuses, count, count > 0 ? statuses[0] : 0};
    if (count > 0) statuses[0] = UNWRITTEN;
    return marked;
}

/* The result tuple of `fields` new references (stolen), or, when the batch failed, the
 * exception: reach.BatchError carrying the result when some items had bad input (the message
 * names the first), reach.Error when the whole batch was refused. */
static PyObject *finish(PyTypeObject *type, PyObject **fields, int field_count, reach_status status,
                        marked_status marked, const char *what) {
    PyObject *result = PyStructSequence_New(type);
    if (!result) {
        for (int i = 0; i < field_count; i++)
            Py_DECREF(fields[i]);
        return NULL;
    }
    for (int i = 0; i < field_count; i++)
        PyStructSequence_SET_ITEM(result, i, fields[i]);
    if (status == REACH_OK) return result;
    const unsigned char *statuses = marked.statuses;
    if (marked.count == 0 || statuses[0] == UNWRITTEN) {
        if (marked.count > 0) marked.statuses[0] = marked.first;
        Py_DECREF(result);
        PyErr_Format(reach_py_error, "%s: %s", what, reach_status_string(status));
        return NULL;
    }
    int bad = 0;
    while (bad + 1 < marked.count && statuses[bad] == REACH_OK)
        bad++;
    /* reach.BatchError is the package's Python class: looked up only when it is raised. */
    PyObject *batch_module = PyImport_ImportModule("reach.batch");
    PyObject *error_type = batch_module ? PyObject_GetAttrString(batch_module, "BatchError") : NULL;
    PyObject *message =
        error_type ? PyUnicode_FromFormat("%s %d: %s", what, bad,
                                          reach_status_string(statuses[bad] ? (reach_status)statuses[bad] : status))
                   : NULL;
    PyObject *error = message ? PyObject_CallFunctionObjArgs(error_type, message, result, NULL) : NULL;
    if (error) PyErr_SetObject(error_type, error);
    Py_XDECREF(error);
    Py_XDECREF(message);
    Py_XDECREF(error_type);
    Py_XDECREF(batch_module);
    Py_DECREF(result);
    return NULL;
}

static reach_const_vec3_soa const_rows(const double *data, Py_ssize_t stride) {
    reach_const_vec3_soa soa = {data, data + stride, data + 2 * stride};
    return soa;
}

static reach_vec3_soa rows(double *data, Py_ssize_t stride) {
    reach_vec3_soa soa = {data, data + stride, data + 2 * stride};
    return soa;
}

enum {
    TB_ROOT,
    TB_MID,
    TB_END,
    TB_TARGET,
    TB_POLE,
    TB_OUT_MID,
    TB_OUT_END,
    TB_WEIGHT,
    TB_SOFT_DISTANCE,
    TB_MAX_STRETCH,
    TB_TOLERANCE,
    TB_OUT_RESIDUAL,
    TB_OUT_REACHED,
    TB_OUT_STATUS,
    TB_PARAMETERS
};

static reach_py_parameters two_bone_parameters = {"two_bone_batch",
                                                  TB_PARAMETERS,
                                                  TB_POLE,
                                                  {"root", "mid", "end", "target", "pole", "out_mid", "out_end",
                                                   "weight", "soft_distance", "max_stretch", "tolerance",
                                                   "out_residual", "out_reached", "out_status"},
                                                  {NULL}};

enum { TB_RESULT_MID, TB_RESULT_END, TB_RESULT_RESIDUAL, TB_RESULT_REACHED, TB_RESULT_STATUS, TB_RESULT_FIELDS };

typedef struct two_bone_call {
    reach_two_bone_batch batch;
    reach_two_bone_settings settings;
    PyObject *fields[TB_RESULT_FIELDS]; /* the result's arrays, new references */
} two_bone_call;

/* The call's arguments checked and the batch set up on their arrays; 0 with an exception. */
static int take_two_bone(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, two_bone_call *call) {
    PyObject *given[TB_PARAMETERS];
    if (!reach_py_match_arguments(&two_bone_parameters, args, nargs, kwnames, given)) return 0;
    PyObject *root = given[TB_ROOT];
    npy_intp count =
        PyArray_Check(root) && PyArray_NDIM((PyArrayObject *)root) == 2 ? PyArray_DIM((PyArrayObject *)root, 1) : 0;
    if (!count_argument(count, "limbs")) return 0;
    const npy_intp points[2] = {3, count}, items[1] = {count};
    const double *in[TB_POLE + 1] = {NULL};
    for (int i = TB_ROOT; i <= TB_POLE; i++) {
        if (i == TB_POLE && (!given[i] || given[i] == Py_None)) break;
        in[i] = array_data(given[i], two_bone_parameters.names[i], NPY_DOUBLE, 2, points, 0);
        if (!in[i]) return 0;
    }
    call->settings = reach_two_bone_default_settings();
    if (!real_argument(given[TB_WEIGHT], "weight", &call->settings.weight) ||
        !real_argument(given[TB_SOFT_DISTANCE], "soft_distance", &call->settings.soft_distance) ||
        !real_argument(given[TB_MAX_STRETCH], "max_stretch", &call->settings.max_stretch) ||
        !real_argument(given[TB_TOLERANCE], "tolerance", &call->settings.tolerance))
        return 0;
    static const struct {
        int parameter, type, ndim;
    } outputs[TB_RESULT_FIELDS] = {{TB_OUT_MID, NPY_DOUBLE, 2},
                                   {TB_OUT_END, NPY_DOUBLE, 2},
                                   {TB_OUT_RESIDUAL, NPY_DOUBLE, 1},
                                   {TB_OUT_REACHED, NPY_UBYTE, 1},
                                   {TB_OUT_STATUS, NPY_UBYTE, 1}};
    void *out[TB_RESULT_FIELDS];
    for (int i = 0; i < TB_RESULT_FIELDS; i++) {
        int p = outputs[i].parameter;
        out[i] = output(given[p], two_bone_parameters.names[p], outputs[i].type, outputs[i].ndim,
                        outputs[i].ndim == 2 ? points : items, &call->fields[i]);
        if (!out[i]) {
            while (i-- > 0)
                Py_DECREF(call->fields[i]);
            return 0;
        }
    }
    reach_two_bone_batch batch = {0};
    batch.count = (int)count;
    batch.root = const_rows(in[TB_ROOT], count);
    batch.mid = const_rows(in[TB_MID], count);
    batch.end = const_rows(in[TB_END], count);
    batch.target = const_rows(in[TB_TARGET], count);
    if (in[TB_POLE]) batch.pole = const_rows(in[TB_POLE], count);
    batch.out_mid = rows(out[TB_RESULT_MID], count);
    batch.out_end = rows(out[TB_RESULT_END], count);
    batch.out_residual = out[TB_RESULT_RESIDUAL];
    batch.out_reached = out[TB_RESULT_REACHED];
    batch.out_status = out[TB_RESULT_STATUS];
    call->batch = batch;
    return 1;
}

enum {
    FB_LENGTHS,
    FB_ROOT,
    FB_TARGET,
    FB_JOINTS,
    FB_MAX_ITERATIONS,
    FB_TOLERANCE,
    FB_COLD_START,
    FB_COLD_DIRECTION,
    FB_OUT_RESIDUAL,
    FB_OUT_ITERATIONS,
    FB_OUT_REACHED,
    FB_OUT_STATUS,
    FB_PARAMETERS
};

static reach_py_parameters fabrik_parameters = {"fabrik_batch",
                                                FB_PARAMETERS,
                                                FB_JOINTS,
                                                {"lengths", "root", "target", "joints", "max_iterations", "tolerance",
                                                 "cold_start", "cold_direction", "out_residual", "out_iterations",
                                                 "out_reached", "out_status"},
                                                {NULL}};

enum {
    FB_RESULT_JOINTS,
    FB_RESULT_RESIDUAL,
    FB_RESULT_ITERATIONS,
    FB_RESULT_REACHED,
    FB_RESULT_STATUS,
    FB_RESULT_FIELDS
};

typedef struct fabrik_call {
    reach_fabrik_batch batch;
    reach_fabrik_batch_settings settings;
    PyObject *fields[FB_RESULT_FIELDS];
} fabrik_call;

static int fabrik_settings(PyObject **given, int warm, reach_fabrik_batch_settings *settings) {
    *settings = reach_fabrik_batch_default_settings();
    settings->cold_start = !warm;
    if (given[FB_MAX_ITERATIONS]) {
        long iterations = PyLong_AsLong(given[FB_MAX_ITERATIONS]);
        if (iterations == -1 && PyErr_Occurred()) return 0;
        settings->max_iterations = iterations < INT_MIN ? INT_MIN : iterations > INT_MAX ? INT_MAX : (int)iterations;
    }
    if (!real_argument(given[FB_TOLERANCE], "tolerance", &settings->tolerance)) return 0;
    if (given[FB_COLD_START] && given[FB_COLD_START] != Py_None) {
        int cold = PyObject_IsTrue(given[FB_COLD_START]);
        if (cold < 0) return 0;
        settings->cold_start = cold;
    }
    if (!given[FB_COLD_DIRECTION]) return 1;
    PyObject *direction = PySequence_Fast(given[FB_COLD_DIRECTION], "cold_direction: expected 3 numbers");
    if (!direction) return 0;
    int ok = PySequence_Fast_GET_SIZE(direction) == 3;
    if (!ok) PyErr_SetString(reach_py_error, "cold_direction: expected 3 numbers");
    PyObject **items = PySequence_Fast_ITEMS(direction);
    ok = ok && real_argument(items[0], "cold_direction", &settings->cold_direction.x) &&
         real_argument(items[1], "cold_direction", &settings->cold_direction.y) &&
         real_argument(items[2], "cold_direction", &settings->cold_direction.z);
    Py_DECREF(direction);
    return ok;
}

static int take_fabrik(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, fabrik_call *call) {
    PyObject *given[FB_PARAMETERS];
    if (!reach_py_match_arguments(&fabrik_parameters, args, nargs, kwnames, given)) return 0;
    PyObject *lengths = given[FB_LENGTHS];
    if (!PyArray_Check(lengths) || PyArray_NDIM((PyArrayObject *)lengths) != 2) {
        PyErr_SetString(reach_py_error, "lengths: expected a float64 numpy array of shape (bone_count, count)");
        return 0;
    }
    npy_intp bone_count = PyArray_DIM((PyArrayObject *)lengths, 0), count = PyArray_DIM((PyArrayObject *)lengths, 1);
    if (bone_count < 1) {
        PyErr_SetString(reach_py_error, "lengths: a batch needs bone_count >= 1");
        return 0;
    }
    if (!count_argument(count, "chains") || !count_argument(bone_count + 1, "bones")) return 0;
    const npy_intp length_shape[2] = {bone_count, count}, points[2] = {3, count}, items[1] = {count};
    const npy_intp joint_shape[3] = {3, bone_count + 1, count};
    const double *length_data = array_data(lengths, "lengths", NPY_DOUBLE, 2, length_shape, 0);
    const double *root = length_data ? array_data(given[FB_ROOT], "root", NPY_DOUBLE, 2, points, 0) : NULL;
    const double *target = root ? array_data(given[FB_TARGET], "target", NPY_DOUBLE, 2, points, 0) : NULL;
    if (!target || !fabrik_settings(given, given[FB_JOINTS] && given[FB_JOINTS] != Py_None, &call->settings)) return 0;
    void *out[FB_RESULT_FIELDS];
    static const struct {
        int parameter, type;
    } outputs[FB_RESULT_FIELDS] = {{FB_JOINTS, NPY_DOUBLE},
                                   {FB_OUT_RESIDUAL, NPY_DOUBLE},
                                   {FB_OUT_ITERATIONS, NPY_INT},
                                   {FB_OUT_REACHED, NPY_UBYTE},
                                   {FB_OUT_STATUS, NPY_UBYTE}};
    for (int i = 0; i < FB_RESULT_FIELDS; i++) {
        int p = outputs[i].parameter;
        if (i == FB_RESULT_JOINTS && (!given[p] || given[p] == Py_None)) {
            /* Without joints every chain starts cold: the array is only written. */
            call->fields[i] = PyArray_ZEROS(3, (npy_intp *)joint_shape, NPY_DOUBLE, 0);
            out[i] = call->fields[i] ? PyArray_DATA((PyArrayObject *)call->fields[i]) : NULL;
        } else {
            out[i] = output(given[p], fabrik_parameters.names[p], outputs[i].type, i == FB_RESULT_JOINTS ? 3 : 1,
                            i == FB_RESULT_JOINTS ? joint_shape : items, &call->fields[i]);
        }
        if (!out[i]) {
            while (i-- > 0)
                Py_DECREF(call->fields[i]);
            return 0;
        }
    }
    /* Joint j of chain i at joints[(plane * (bone_count + 1) + j) * count + i]: a (3, joints,
     * count) array, so each coordinate's plane is the batch's layout with stride = count. */
    reach_fabrik_batch batch = {0};
    batch.count = (int)count;
    batch.bone_count = (int)bone_count;
    batch.stride = (int)count;
    batch.lengths = length_data;
    batch.root = const_rows(root, count);
    batch.target = const_rows(target, count);
    batch.joints = rows(out[FB_RESULT_JOINTS], (bone_count + 1) * count);
    batch.out_residual = out[FB_RESULT_RESIDUAL];
    batch.out_iterations = out[FB_RESULT_ITERATIONS];
    batch.out_reached = out[FB_RESULT_REACHED];
    batch.out_status = out[FB_RESULT_STATUS];
    call->batch = batch;
    return 1;
}

/* A call of reach.two_bone_batch or reach.fabrik_batch: its batch solved without the GIL. For
 * the bench, a timed call (time_two_bone_batch(repeats, ...the same arguments)) solves it
 * `repeats` times back to back, without Python between the solves, and returns the seconds per
 * solve instead. */
static PyObject *run(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int fabrik, int timed) {
    long repeats = 1;
    if (timed) {
        repeats = nargs > 0 ? PyLong_AsLong(args[0]) : 0;
        if (repeats == -1 && PyErr_Occurred()) return NULL;
        if (repeats < 1) {
            PyErr_SetString(reach_py_error, "repeats: expected an int >= 1");
            return NULL;
        }
        args++;
        nargs--;
    }
    two_bone_call two_bone;
    fabrik_call chains;
    if (fabrik ? !take_fabrik(args, nargs, kwnames, &chains) : !take_two_bone(args, nargs, kwnames, &two_bone))
        return NULL;
    marked_status marked = fabrik ? mark(chains.batch.out_status, chains.batch.count)
                                  : mark(two_bone.batch.out_status, two_bone.batch.count);
    reach_status status = REACH_OK;
    double start = 0, seconds = 0;
    /* Only a timed call reads the clock: a CPU-time clock is a system call, as dear as a small batch. */
    Py_BEGIN_ALLOW_THREADS if (timed) start = reach_py_seconds();
    for (long i = 0; i < repeats; i++)
        status = fabrik ? reach_fabrik_solve_batch(&chains.batch, &chains.settings)
                        : reach_two_bone_solve_batch(&two_bone.batch, &two_bone.settings);
    if (timed) seconds = (reach_py_seconds() - start) / (double)repeats;
    Py_END_ALLOW_THREADS PyObject *result =
        fabrik ? finish(fabrik_result_type, chains.fields, FB_RESULT_FIELDS, status, marked, "chain")
               : finish(two_bone_result_type, two_bone.fields, TB_RESULT_FIELDS, status, marked, "limb");
    if (!timed || !result) return result;
    Py_DECREF(result);
    return PyFloat_FromDouble(seconds);
}

/* One C function per Python name: a vectorcall passes nothing else that would tell them apart. */
#define ENTRY_POINT(name, fabrik, timed)                                                                               \
    PyObject *name(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {                     \
        (void)module;                                                                                                  \
        return run(args, nargs, kwnames, fabrik, timed);                                                               \
    }
ENTRY_POINT(reach_py_two_bone_batch, 0, 0)
ENTRY_POINT(reach_py_fabrik_batch, 1, 0)
ENTRY_POINT(reach_py_time_two_bone_batch, 0, 1)
ENTRY_POINT(reach_py_time_fabrik_batch, 1, 1)

static PyStructSequence_Field two_bone_fields[] = {
    {"mid", "(3, count) float64: each limb's solved middle joint"},
    {"end", "(3, count) float64: each limb's solved end joint"},
    {"residual", "(count,) float64: the end joint's distance to its target"},
    {"reached", "(count,) uint8: 1 where the residual is within the tolerance"},
    {"status", "(count,) uint8: 0, or the error code of a limb with bad input"},
    {NULL, NULL}};

static PyStructSequence_Field fabrik_fields[] = {
    {"joints", "(3, bone_count + 1, count) float64: the chains' joints, solved"},
    {"residual", "(count,) float64: the end joint's distance to its target"},
    {"iterations", "(count,) int32: the iterations each chain ran"},
    {"reached", "(count,) uint8: 1 where the residual is within the tolerance"},
    {"status", "(count,) uint8: 0, or the error code of a chain with bad input"},
    {NULL, NULL}};

static PyStructSequence_Desc two_bone_desc = {"reach.TwoBoneBatchResult", "What reach.two_bone_batch solved.",
                                              two_bone_fields, TB_RESULT_FIELDS};
static PyStructSequence_Desc fabrik_desc = {"reach.FabrikBatchResult", "What reach.fabrik_batch solved.", fabrik_fields,
                                            FB_RESULT_FIELDS};

int reach_py_batch_init(PyObject *module) {
    if (_import_array() < 0) return -1;
    two_bone_result_type = PyStructSequence_NewType(&two_bone_desc);
    fabrik_result_type = PyStructSequence_NewType(&fabrik_desc);
    if (!two_bone_result_type || !fabrik_result_type) return -1;
    if (PyModule_AddObjectRef(module, "TwoBoneBatchResult", (PyObject *)two_bone_result_type) < 0 ||
        PyModule_AddObjectRef(module, "FabrikBatchResult", (PyObject *)fabrik_result_type) < 0)
        return -1;
    return 0;
}
