/* reach._reach.retarget: a source clip carried onto a target as `reach retarget` carries it: the
 * files, roles, axes and settings read by the tool's own set-up (cli/retarget_setup.c), then the
 * library's retargeting frame by frame (retarget.h), without the GIL. Built when the library has
 * it. */
#include "rig_object.h"

#include <stdlib.h>
#include <string.h>

#include "retarget.h"

typedef struct retarget_run {
    const char *source_path, *target_path, *map_path;
    cli_retarget_map map;
    cli_retarget_source source;
    cli_retarget_target target;
    reach_transform *frames; /* source frames × target bones */
    int frame_count;
    double frame_rate;
    cli_error error;
} retarget_run;

static int carry(retarget_run *run) {
    reach_retarget_settings settings = cli_retarget_settings(&run->source, &run->target, &run->map);
    const reach_skeleton *from = &run->source.rig.skeleton, *onto = &run->target.rig.skeleton;
    const reach_clip *clip = &run->source.clip;
    run->frame_count = clip->frame_count;
    run->frame_rate = (double)clip->frame_rate;
    size_t need = reach_retarget_memory_size(from, onto);
    void *memory = malloc(need);
    run->frames = malloc((size_t)clip->frame_count * (size_t)onto->bone_count * sizeof *run->frames);
    if (!memory || !run->frames) {
        free(memory);
        return cli_fail(&run->error, "out of memory");
    }
    reach_retarget *state = NULL;
    int bad_role = -1, bad_side = -1;
    reach_status status = reach_retarget_init(from, &run->source.roles, onto, &run->target.roles, &settings, memory,
                                              need, &state, &bad_role, &bad_side);
    if (status != REACH_OK)
        cli_fail(&run->error, "retarget: %s%s%s: %s",
                 bad_side == 1   ? "target"
                 : bad_side == 0 ? "source"
                                 : "set-up",
                 bad_role >= 0 ? " role " : "",
                 bad_role >= 0 ? reach_humanoid_role_name((reach_humanoid_role)bad_role) : "",
                 reach_status_string(status));
    for (int f = 0; status == REACH_OK && f < clip->frame_count; f++) {
        status = reach_retarget_frame(state, reach_clip_frame(clip, f), 1 / clip->frame_rate,
                                      run->frames + (size_t)f * (size_t)onto->bone_count, NULL);
        if (status != REACH_OK) cli_fail(&run->error, "retarget: frame %d: %s", f, reach_status_string(status));
    }
    free(memory);
    return status == REACH_OK;
}

static int run_retarget(retarget_run *run) {
    if (!cli_retarget_map_read(run->map_path, &run->map, &run->error)) return 0;
    int ok = cli_retarget_target_read(run->target_path, &run->map, &run->target, &run->error);
    if (ok) {
        ok = cli_retarget_source_read(run->source_path, &run->map, &run->source, &run->error);
        if (ok) {
            ok = carry(run);
            cli_retarget_source_free(&run->source);
        }
    }
    return ok;
}

/* retarget(source_path, target_path, map_path or None) -> (target bone names, frame rate,
 * frames as bytes: frames × target bones × 7 doubles). */
PyObject *reach_py_retarget(PyObject *module, PyObject *args) {
    (void)module;
    retarget_run run;
    memset(&run, 0, sizeof run);
    if (!PyArg_ParseTuple(args, "ssz", &run.source_path, &run.target_path, &run.map_path)) return NULL;
    int ok;
    Py_BEGIN_ALLOW_THREADS ok = run_retarget(&run);
    Py_END_ALLOW_THREADS if (!ok) {
        free(run.frames);
        if (run.target.rig.names) cli_retarget_target_free(&run.target);
        cli_retarget_map_free(&run.map);
        return reach_py_raise(run.error.message);
    }
    const cli_rig *target = &run.target.rig;
    int frame_count = run.frame_count;
    Py_ssize_t numbers = (Py_ssize_t)frame_count * target->bone_count * TRANSFORM_SIZE;
    PyObject *frames = PyBytes_FromStringAndSize(NULL, numbers * (Py_ssize_t)sizeof(double));
    if (frames)
        reach_py_put_transforms(run.frames, frame_count * target->bone_count, (double *)PyBytes_AS_STRING(frames));
    PyObject *names = PyTuple_New(target->bone_count);
    for (int b = 0; names && b < target->bone_count; b++)
        PyTuple_SET_ITEM(names, b,
                         PyUnicode_DecodeUTF8(target->names[b], (Py_ssize_t)strlen(target->names[b]), "replace"));
    free(run.frames);
    cli_retarget_target_free(&run.target);
    cli_retarget_map_free(&run.map);
    if (!frames || !names) {
        Py_XDECREF(frames);
        Py_XDECREF(names);
        return NULL;
    }
    return Py_BuildValue("(NdiN)", names, run.frame_rate, frame_count, frames);
}
