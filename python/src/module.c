/* reach._reach: the module, its exception, arrays from the buffer protocol, and requests in the
 * CLI's JSON handled by the CLI's own code, so that Python gets the CLI's results number for
 * number. */
#include "extension.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "input.h"
#include "json_write.h"
#include "utf8.h"
#include "reach/config.h"
#include "reach/soa.h"

PyObject *reach_py_error;

PyObject *reach_py_raise(const char *message) {
    char clean[CLI_MESSAGE_SIZE];
    snprintf(clean, sizeof clean, "%s", message);
    cli_utf8_clean(clean);
    PyErr_SetString(reach_py_error, clean);
    return NULL;
}

PyObject *reach_py_result_text(char *text, size_t length, const char *message) {
    if (!text) return reach_py_raise(message);
    PyObject *result = PyUnicode_DecodeUTF8(text, (Py_ssize_t)length, "surrogatepass");
    free(text);
    return result;
}

int reach_py_array(PyObject *object, const char *name, const char *format, Py_ssize_t count, int writable,
                   Py_buffer *view) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) != 0) {
        PyErr_Clear();
        PyErr_Format(reach_py_error, "%s: expected a C-contiguous%s array", name, writable ? " writable" : "");
        return 0;
    }
    /* The format may carry a byte-order or size prefix ("<d", "=B"); the letter decides. */
    const char *letter = view->format ? view->format + strspn(view->format, "@=<>!") : "B";
    Py_ssize_t item_size = format[0] == 'd'   ? (Py_ssize_t)sizeof(double)
                           : format[0] == 'i' ? (Py_ssize_t)sizeof(int)
                                              : 1;
    if (strcmp(letter, format) != 0 || view->itemsize != item_size) {
        PyErr_Format(reach_py_error, "%s: expected items of format '%s', got '%s'", name, format, view->format);
        PyBuffer_Release(view);
        return 0;
    }
    if (view->len != count * item_size) {
        PyErr_Format(reach_py_error, "%s: expected %zd items, got %zd", name, count, view->len / item_size);
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

/* One request: parsed, handled and written as text, all without the GIL. */
typedef struct request_run {
    const char *text;
    size_t length;
    const char *folder; /* relative rig paths are read from here (NULL: the working directory) */
    int fk;
    char *result; /* the result's text, or NULL with message set */
    size_t result_length;
    cli_error error;
} request_run;

static void run_request(request_run *run) {
    cli_rig_set_folder(run->folder);
    cJSON *json = cli_parse_json(run->text, run->length, 1, &run->error);
    cJSON *result = NULL;
    if (json) result = run->fk ? cli_fk_request(json, &run->error) : cli_solve_request(json, NULL, &run->error);
    if (result) {
        cli_json_write_status status = cli_json_write(result, &run->result, &run->result_length);
        if (status != CLI_JSON_WRITTEN) {
            free(run->result);
            run->result = NULL;
            cli_fail(&run->error, status == CLI_JSON_NOT_FINITE ? "the result holds a number that is not finite"
                                                                : "out of memory writing the result");
        }
    }
    cJSON_Delete(result);
    cJSON_Delete(json);
    cli_rig_set_folder(NULL);
}

double reach_py_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* The seconds per request over `repeats` runs, or -1 with run->error set. */
static double time_requests(request_run *run, int repeats) {
    double start = reach_py_seconds();
    for (int i = 0; i < repeats; i++) {
        run_request(run);
        if (!run->result) return -1;
        free(run->result);
        run->result = NULL;
    }
    return (reach_py_seconds() - start) / repeats;
}

static PyObject *request(PyObject *args, int fk) {
    request_run run = {NULL, 0, NULL, fk, NULL, 0, {""}};
    Py_ssize_t length;
    int repeats = 0;
    if (!PyArg_ParseTuple(args, "y#z|i", &run.text, &length, &run.folder, &repeats)) return NULL;
    run.length = (size_t)length;
    if (repeats > 0) {
        double seconds;
        Py_BEGIN_ALLOW_THREADS seconds = time_requests(&run, repeats);
        Py_END_ALLOW_THREADS return seconds < 0 ? reach_py_raise(run.error.message) : PyFloat_FromDouble(seconds);
    }
    Py_BEGIN_ALLOW_THREADS run_request(&run);
    Py_END_ALLOW_THREADS return reach_py_result_text(run.result, run.result_length, run.error.message);
}

PyObject *reach_py_solve(PyObject *module, PyObject *args) {
    (void)module;
    return request(args, 0);
}

PyObject *reach_py_fk(PyObject *module, PyObject *args) {
    (void)module;
    return request(args, 1);
}

static PyMethodDef methods[] = {
    {"solve", reach_py_solve, METH_VARARGS, "solve(request_json: bytes, folder: str | None) -> result_json: str"},
    {"fk", reach_py_fk, METH_VARARGS, "fk(request_json: bytes, folder: str | None) -> result_json: str"},
    {"load", reach_py_load, METH_VARARGS, "load(path: str) -> Rig"},
    {"two_bone_batch", (PyCFunction)(void (*)(void))reach_py_two_bone_batch, METH_FASTCALL | METH_KEYWORDS,
     "two_bone_batch($module, /, root, mid, end, target, pole=None, out_mid=None, out_end=None, weight=1.0, "
     "soft_distance=0.0, max_stretch=1.0, tolerance=0.0, out_residual=None, out_reached=None, out_status=None)\n--\n\n"
     "reach_two_bone_solve_batch: each limb's root, mid and end joints bent so the end reaches its\n"
     "target (bending toward its pole where given). Points are C-contiguous float64 arrays of shape\n"
     "(3, count). Pass out_mid=mid, out_end=end to solve in place; the other out_ arrays are made\n"
     "when not given. Returns a TwoBoneBatchResult; raises BatchError when some limbs had bad input."},
    {"fabrik_batch", (PyCFunction)(void (*)(void))reach_py_fabrik_batch, METH_FASTCALL | METH_KEYWORDS,
     "fabrik_batch($module, /, lengths, root, target, joints=None, max_iterations=64, tolerance=0.0, "
     "cold_start=None, cold_direction=(0.0, 1.0, 0.0), out_residual=None, out_iterations=None, "
     "out_reached=None, out_status=None)\n--\n\n"
     "reach_fabrik_solve_batch on count chains of bone_count bones: lengths of shape\n"
     "(bone_count, count), root and target (3, count), joints (3, bone_count + 1, count), solved in\n"
     "place (a warm start from its contents). Without joints every chain starts cold, straight along\n"
     "cold_direction. Returns a FabrikBatchResult; raises BatchError when some chains had bad input."},
    {"time_two_bone_batch", (PyCFunction)(void (*)(void))reach_py_time_two_bone_batch, METH_FASTCALL | METH_KEYWORDS,
     "time_two_bone_batch(repeats, *two_bone_batch's arguments) -> seconds per solve, for the bench"},
    {"time_fabrik_batch", (PyCFunction)(void (*)(void))reach_py_time_fabrik_batch, METH_FASTCALL | METH_KEYWORDS,
     "time_fabrik_batch(repeats, *fabrik_batch's arguments) -> seconds per solve, for the bench"},
    {"retarget", reach_py_retarget, METH_VARARGS,
     "retarget(source_path, target_path, map_path) -> (names, rate, count, frames)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_reach", "reach's C core for Python", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__reach(void);

PyMODINIT_FUNC PyInit__reach(void) {
    if (PyType_Ready(&reach_py_rig_type) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (!module) return NULL;
    reach_py_error = PyErr_NewExceptionWithDoc("reach.Error", "A failure the reach library reports.", NULL, NULL);
    if (!reach_py_error || PyModule_AddObjectRef(module, "Error", reach_py_error) < 0 ||
        PyModule_AddObjectRef(module, "Rig", (PyObject *)&reach_py_rig_type) < 0 ||
        PyModule_AddStringConstant(module, "batch_isa", reach_batch_isa()) < 0 ||
        PyModule_AddIntConstant(module, "double_precision", reach_precision_is_double) < 0 ||
        reach_py_batch_init(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
