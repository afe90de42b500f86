/* The Rig object's layout, shared by the files that work on it. */
#ifndef REACH_PYTHON_RIG_OBJECT_H
#define REACH_PYTHON_RIG_OBJECT_H

#include "extension.h"

#include "rig.h"
#include "reach/clip.h"

/* A transform as Python sees it: translation x, y, z then rotation x, y, z, w. */
#define TRANSFORM_SIZE 7

typedef struct rig_object {
    PyObject_HEAD cli_rig rig;
    int clip_count;
    reach_clip *clips;
    char **clip_names;
} rig_object;

/* count transforms as Python sees them (TRANSFORM_SIZE numbers each) into to. */
void reach_py_put_transforms(const reach_transform *from, int count, double *to);

/* Rig.solve_many (solve_many.c). */
PyObject *reach_py_solve_many(PyObject *self, PyObject *args);

#endif
