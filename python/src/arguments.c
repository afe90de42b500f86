/* A vectorcall's arguments matched to parameter names, as a Python function with defaults
 * matches them: positional ones first, then keywords by name. Keyword names are compared by
 * identity with interned copies first (the names a call site writes are interned), so a call
 * that gives few keywords costs a few pointer comparisons. */
#include "extension.h"

#include <string.h>

static int intern_names(reach_py_parameters *parameters) {
    if (parameters->interned[0]) return 1;
    for (int i = 0; i < parameters->count; i++) {
        parameters->interned[i] = PyUnicode_InternFromString(parameters->names[i]);
        if (!parameters->interned[i]) return 0;
    }
    return 1;
}

static int index_of(const reach_py_parameters *parameters, PyObject *name) {
    for (int i = 0; i < parameters->count; i++)
        if (parameters->interned[i] == name) return i;
    for (int i = 0; i < parameters->count; i++)
        if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, parameters->names[i]) == 0) return i;
    return -1;
}

int reach_py_match_arguments(reach_py_parameters *parameters, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames, PyObject **slots) {
    if (nargs > parameters->count) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", parameters->function,
                     parameters->count, nargs);
        return 0;
    }
    memset(slots, 0, (size_t)parameters->count * sizeof *slots);
    for (Py_ssize_t i = 0; i < nargs; i++)
        slots[i] = args[i];
    Py_ssize_t keywords = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (keywords > 0 && !intern_names(parameters)) return 0;
    for (Py_ssize_t k = 0; k < keywords; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        int i = index_of(parameters, name);
        if (i < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%S'", parameters->function, name);
            return 0;
        }
        if (slots[i]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", parameters->function,
                         parameters->names[i]);
            return 0;
        }
        slots[i] = args[nargs + k];
    }
    for (int i = 0; i < parameters->required; i++)
        if (!slots[i]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", parameters->function,
                         parameters->names[i]);
            return 0;
        }
    return 1;
}
