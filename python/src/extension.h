/* The pieces of reach's Python extension (reach._reach) and what they share: the exception
 * every failure raises, and arrays taken from Python objects through the buffer protocol
 * (numpy arrays are read and written in place, never copied). */
#ifndef REACH_PYTHON_EXTENSION_H
#define REACH_PYTHON_EXTENSION_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* reach.Error: every failure the library reports, its message the library's. */
extern PyObject *reach_py_error;

/* Raises reach.Error with a library message, cleaned as the CLI prints its messages (bytes that
 * are no valid UTF-8, such as a character cut by the message's buffer, become '?'). Returns NULL. */
PyObject *reach_py_raise(const char *message);

/* A result's UTF-8 text (freed here) as str, or reach.Error with message when there is no text. */
PyObject *reach_py_result_text(char *text, size_t length, const char *message);

/* A writable or read-only C-contiguous array of `count` items of format `format` ("d" double,
 * "B" unsigned char, "i" int), viewed without a copy. Returns 0 with reach.Error raised when
 * the object is no such array; `name` names the argument in the message. */
int reach_py_array(PyObject *object, const char *name, const char *format, Py_ssize_t count, int writable,
                   Py_buffer *view);

/* For the bench (bench/python_package.py): solve and fk take an optional last argument,
 * repeats; given and above 0, the C call runs that many times back to back, without the GIL
 * and without Python between the calls, and the seconds per call are returned instead of the
 * result: what the C library costs, against which the Python call is measured. Seconds are the
 * calling thread's CPU time (the bench's Python loops are timed so too), so that time the
 * thread spends waiting for a core on a loaded machine counts on neither side. */
double reach_py_seconds(void);

/* Request text (UTF-8 JSON) to result text through the CLI's request handling; the GIL is
 * released while C works. */
PyObject *reach_py_solve(PyObject *module, PyObject *args);
PyObject *reach_py_fk(PyObject *module, PyObject *args);

/* The parameters of a function called by vectorcall (METH_FASTCALL | METH_KEYWORDS): their
 * names in order, the first `required` of them required; the interned names are made on first
 * use. */
#define REACH_PY_MAX_PARAMETERS 16
typedef struct reach_py_parameters {
    const char *function;
    int count;
    int required;
    const char *names[REACH_PY_MAX_PARAMETERS];
    PyObject *interned[REACH_PY_MAX_PARAMETERS];
} reach_py_parameters;

/* slots[i] is the argument given for parameter i (borrowed), NULL when it was not given.
 * Returns 0 with TypeError raised on an unknown, repeated or missing argument (arguments.c). */
int reach_py_match_arguments(reach_py_parameters *parameters, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames, PyObject **slots);

/* The batch entry points on numpy arrays (batch.c), called by vectorcall; the time_ ones are
 * for the bench: time_two_bone_batch(repeats, ...the same arguments) runs that many solves
 * back to back without the GIL and returns the seconds per solve. reach_py_batch_init imports
 * numpy's C API and adds the result types to the module (-1 with an exception on failure). */
PyObject *reach_py_two_bone_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *reach_py_fabrik_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *reach_py_time_two_bone_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *reach_py_time_fabrik_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
int reach_py_batch_init(PyObject *module);

/* The Rig type and reach._reach.load (rig_type.c). */
extern PyTypeObject reach_py_rig_type;
PyObject *reach_py_load(PyObject *module, PyObject *args);

/* A source clip carried onto a target as `reach retarget` carries it (retarget.c). */
PyObject *reach_py_retarget(PyObject *module, PyObject *args);

#endif
