/* reach._reach.retarget: a source rig's clip carried onto a target rig, frame by frame, through
 * the library's retargeting (retarget.h), without the GIL. Built when the library has it. */
#include "rig_object.h"

#include <stdlib.h>

#include "reach/humanoid.h"
#include "reach/retarget.h"

typedef struct retarget_run {
    const rig_object *source, *target;
    reach_retarget_settings settings;
    double *out; /* frames × target bones × 7 */
    char message[CLI_MESSAGE_SIZE];
} retarget_run;

static int find_roles(const rig_object *rig, const char *side, reach_humanoid *roles, char *message) {
    int missing = -1;
    if (reach_humanoid_find(&rig->rig.skeleton, (const char *const *)rig->rig.names, roles, &missing) == REACH_OK)
        return 1;
    snprintf(message, CLI_MESSAGE_SIZE, "%s: no humanoid role '%s' found from its bone names", side,
             missing >= 0 ? reach_humanoid_role_name((reach_humanoid_role)missing) : "?");
    return 0;
}

static int run_retarget(retarget_run *run) {
    const cli_rig *source = &run->source->rig, *target = &run->target->rig;
    const reach_clip *clip = &run->source->clips[0];
    reach_humanoid source_roles, target_roles;
    if (!find_roles(run->source, "source", &source_roles, run->message) ||
        !find_roles(run->target, "target", &target_roles, run->message))
        return 0;
    size_t size = reach_retarget_memory_size(&source->skeleton, &target->skeleton);
    void *memory = malloc(size > 0 ? size : 1);
    reach_transform *pose = malloc((size_t)target->bone_count * sizeof *pose);
    reach_retarget *state = NULL;
    int bad_role = -1, bad_side = -1;
    reach_status status = memory && pose
                              ? reach_retarget_init(&source->skeleton, &source_roles, &target->skeleton, &target_roles,
                                                    &run->settings, memory, size, &state, &bad_role, &bad_side)
                              : REACH_ERROR_INVALID_ARGUMENT;
    if (status != REACH_OK)
        snprintf(run->message, sizeof run->message, "%s%s%s: %s", bad_side == 1 ? "target" : "source",
                 bad_role >= 0 ? " role " : "",
                 bad_role >= 0 ? reach_humanoid_role_name((reach_humanoid_role)bad_role) : "",
                 memory && pose ? reach_status_string(status) : "out of memory");
    reach_real dt = 1 / clip->frame_rate;
    for (int f = 0; status == REACH_OK && f < clip->frame_count; f++) {
        status = reach_retarget_frame(state, reach_clip_frame(clip, f), dt, pose, NULL);
        if (status != REACH_OK)
            snprintf(run->message, sizeof run->message, "frame %d: %s", f, reach_status_string(status));
        else
            reach_py_put_transforms(pose, target->bone_count,
                                    run->out + (size_t)f * (size_t)target->bone_count * TRANSFORM_SIZE);
    }
    free(pose);
    free(memory);
    return status == REACH_OK;
}

/* retarget(source_rig, target_rig, out, up_and_forward[12]): out is frames × target bones × 7;
 * the axes are source up, source forward, target up, target forward. */
PyObject *reach_py_retarget(PyObject *module, PyObject *args) {
    (void)module;
    retarget_run run;
    PyObject *out;
    double axes[12];
    run.settings = reach_retarget_default_settings();
    if (!PyArg_ParseTuple(args, "O!O!O(dddddddddddd)", &reach_py_rig_type, &run.source, &reach_py_rig_type, &run.target,
                          &out, &axes[0], &axes[1], &axes[2], &axes[3], &axes[4], &axes[5], &axes[6], &axes[7],
                          &axes[8], &axes[9], &axes[10], &axes[11]))
        return NULL;
    if (run.source->clip_count < 1) return reach_py_raise("source: the file holds no motion");
    reach_vec3 *fields[4] = {&run.settings.source_up, &run.settings.source_forward, &run.settings.target_up,
                             &run.settings.target_forward};
    for (int i = 0; i < 4; i++)
        *fields[i] = (reach_vec3){axes[3 * i], axes[3 * i + 1], axes[3 * i + 2]};
    Py_buffer view;
    Py_ssize_t count = (Py_ssize_t)run.source->clips[0].frame_count * run.target->rig.bone_count * TRANSFORM_SIZE;
    if (!reach_py_array(out, "out", "d", count, 1, &view)) return NULL;
    run.out = view.buf;
    int ok;
    Py_BEGIN_ALLOW_THREADS ok = run_retarget(&run);
    Py_END_ALLOW_THREADS PyBuffer_Release(&view);
    if (!ok) return reach_py_raise(run.message);
    Py_RETURN_NONE;
}
