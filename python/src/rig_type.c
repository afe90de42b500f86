/* reach._reach.Rig: a rig read once (from a file or a JSON rig) and kept, with its clips, so
 * that forward kinematics and solves on it do not read it again. Solves go through the CLI's
 * request handling with this rig as the shared rig (as `reach solve --rig` does), so their
 * results are the CLI's. A Rig is never changed after loading: several threads may solve on
 * one at once. */
#include "extension.h"

#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "input.h"
#include "json_read.h"
#include "json_write.h"
#include "request.h"
#include "reach/bvh.h"
#include "reach/fbx.h"
#include "reach/gltf.h"
#include "rig_object.h"

static void rig_dealloc(PyObject *self) {
    rig_object *object = (rig_object *)self;
    object->rig.frames = NULL; /* the first clip's, freed with the clips */
    cli_rig_free(&object->rig);
    for (int i = 0; i < object->clip_count; i++) {
        reach_clip_free(&object->clips[i]);
        free(object->clip_names[i]);
    }
    free(object->clips);
    free(object->clip_names);
    Py_TYPE(self)->tp_free(self);
}

static int ends_with(const char *path, const char *suffix) {
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && strcmp(path + n - k, suffix) == 0;
}

/* The clips become the object's; the first also poses the rig for requests' "frame": N. */
static int take_clips(rig_object *object, reach_clip *clips, char **names, int count, cli_error *err) {
    object->clips = clips;
    object->clip_names = names;
    object->clip_count = count;
    for (int i = 0; i < count; i++)
        if (!names[i]) return cli_fail(err, "out of memory");
    if (count > 0) {
        object->rig.frames = clips[0].frames;
        object->rig.frame_count = clips[0].frame_count;
    }
    return 1;
}

static int load_bvh(rig_object *object, const char *path, cli_error *err) {
    reach_rig read;
    reach_clip clip;
    char message[CLI_MESSAGE_SIZE - 16];
    if (reach_bvh_read_file(path, &read, &clip, message, sizeof message) != REACH_OK)
        return cli_fail(err, "rig: %s", message);
    int ok = cli_rig_copy_read(&read, &object->rig, err);
    reach_rig_free(&read);
    reach_clip *clips = malloc(sizeof *clips);
    char **names = malloc(sizeof *names);
    if (ok && (!clips || !names)) ok = cli_fail(err, "out of memory");
    if (!ok) {
        free(clips);
        free(names);
        reach_clip_free(&clip);
        return 0;
    }
    clips[0] = clip;
    names[0] = cli_strdup("motion");
    return take_clips(object, clips, names, 1, err);
}

/* A character's rig copied and its clips taken over: on success (or once take_clips owns them)
 * the reader's clips are the object's, and the caller's pointers are cleared so that the
 * reader's free leaves them alone. */
static int take_character(rig_object *object, const reach_rig *rig, reach_clip **clips, char ***names, int *count,
                          cli_error *err) {
    int ok = cli_rig_copy_read(rig, &object->rig, err) && take_clips(object, *clips, *names, *count, err);
    if (ok || object->clips) {
        *clips = NULL;
        *names = NULL;
        *count = 0;
    }
    return ok;
}

static int load_gltf(rig_object *object, const char *path, cli_error *err) {
    reach_gltf_character c;
    char message[CLI_MESSAGE_SIZE - 16];
    if (reach_gltf_read_file(path, -1, 0, &c, message, sizeof message) != REACH_OK)
        return cli_fail(err, "rig: %s", message);
    int ok = take_character(object, &c.rig, &c.clips, &c.clip_names, &c.clip_count, err);
    reach_gltf_free(&c);
    return ok;
}

static int load_fbx(rig_object *object, const char *path, cli_error *err) {
    reach_fbx_character c;
    char message[CLI_MESSAGE_SIZE - 16];
    if (reach_fbx_read_file(path, 0, &c, message, sizeof message) != REACH_OK) return cli_fail(err, "rig: %s", message);
    int ok = take_character(object, &c.rig, &c.clips, &c.clip_names, &c.clip_count, err);
    reach_fbx_free(&c);
    return ok;
}

/* A JSON file: a rig object, or any object with a "rig" field (a request), as `--rig` reads it. */
static int load_json(rig_object *object, const char *text, size_t length, const char *folder, cli_error *err) {
    cli_rig_set_folder(folder);
    cJSON *json = cli_parse_json(text, length, 1, err);
    const cJSON *rig_json = json && cJSON_IsObject(json) && jr_get(json, "rig") ? jr_get(json, "rig") : json;
    int ok = json && cli_rig_read(rig_json, &object->rig, err);
    cJSON_Delete(json);
    cli_rig_set_folder(NULL);
    return ok;
}

static int load_path(rig_object *object, const char *path, cli_error *err) {
    if (ends_with(path, ".bvh")) return load_bvh(object, path, err);
    if (ends_with(path, ".gltf") || ends_with(path, ".glb")) return load_gltf(object, path, err);
    if (cli_is_fbx_path(path)) return load_fbx(object, path, err);
    if (cli_is_rig_file_path(path)) return cli_rig_read_file(path, &object->rig, err);
    char *text = NULL;
    size_t length = 0;
    if (!cli_read_file(path, NULL, &text, &length, err)) return 0;
    int ok = load_json(object, text, length, path, err);
    free(text);
    return ok;
}

/* load(path) or load(None, rig_json_text, folder). */
PyObject *reach_py_load(PyObject *module, PyObject *args) {
    (void)module;
    const char *path, *text = NULL, *folder = NULL;
    Py_ssize_t length = 0;
    if (!PyArg_ParseTuple(args, "z|y#z", &path, &text, &length, &folder)) return NULL;
    rig_object *object = PyObject_New(rig_object, &reach_py_rig_type);
    if (!object) return NULL;
    memset(&object->rig, 0, sizeof *object - offsetof(rig_object, rig));
    cli_error error = {""};
    int ok;
    Py_BEGIN_ALLOW_THREADS ok =
        path ? load_path(object, path, &error) : load_json(object, text ? text : "", (size_t)length, folder, &error);
    Py_END_ALLOW_THREADS if (!ok) {
        Py_DECREF(object);
        return reach_py_raise(error.message);
    }
    return (PyObject *)object;
}

static PyObject *string_tuple(const cli_rig *rig, int joints) {
    PyObject *list = PyList_New(0);
    for (int bone = 0; list && bone < rig->bone_count; bone++) {
        if (joints && !reach_joint_has_value(rig->joints[bone].type)) continue;
        PyObject *name = PyUnicode_DecodeUTF8(
            joints ? cli_rig_joint_name(rig, bone) : rig->names[bone],
            (Py_ssize_t)strlen(joints ? cli_rig_joint_name(rig, bone) : rig->names[bone]), "replace");
        if (!name || PyList_Append(list, name) < 0) Py_CLEAR(list);
        Py_XDECREF(name);
    }
    if (!list) return NULL;
    PyObject *tuple = PyList_AsTuple(list);
    Py_DECREF(list);
    return tuple;
}

/* (bone_names, parents, joint_names, value_count) */
static PyObject *rig_names(PyObject *self, PyObject *unused) {
    (void)unused;
    const cli_rig *rig = &((rig_object *)self)->rig;
    PyObject *parents = PyTuple_New(rig->bone_count);
    for (int bone = 0; parents && bone < rig->bone_count; bone++)
        PyTuple_SET_ITEM(parents, bone, PyLong_FromLong(rig->parents[bone]));
    return Py_BuildValue("(NNNi)", string_tuple(rig, 0), parents, string_tuple(rig, 1),
                         reach_skeleton_value_count(&rig->skeleton));
}

void reach_py_put_transforms(const reach_transform *from, int count, double *to) {
    for (int i = 0; i < count; i++, to += TRANSFORM_SIZE) {
        to[0] = from[i].translation.x;
        to[1] = from[i].translation.y;
        to[2] = from[i].translation.z;
        to[3] = from[i].rotation.x;
        to[4] = from[i].rotation.y;
        to[5] = from[i].rotation.z;
        to[6] = from[i].rotation.w;
    }
}

static void get_transforms(const double *from, int count, reach_transform *to) {
    for (int i = 0; i < count; i++, from += TRANSFORM_SIZE) {
        to[i].translation = (reach_vec3){from[0], from[1], from[2]};
        to[i].rotation = (reach_quat){from[3], from[4], from[5], from[6]};
    }
}

/* rest(out): the local rest transforms, bone_count × 7. */
static PyObject *rig_rest(PyObject *self, PyObject *args) {
    const cli_rig *rig = &((rig_object *)self)->rig;
    PyObject *out;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "O", &out) ||
        !reach_py_array(out, "out", "d", (Py_ssize_t)rig->bone_count * TRANSFORM_SIZE, 1, &view))
        return NULL;
    reach_py_put_transforms(rig->rest, rig->bone_count, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* clip(i) -> (name, frame_rate, frame_count); clip(i, out) also fills out with its frames. */
static PyObject *rig_clip(PyObject *self, PyObject *args) {
    const rig_object *object = (const rig_object *)self;
    int index;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "i|O", &index, &out)) return NULL;
    if (index < 0 || index >= object->clip_count) {
        PyErr_Format(PyExc_IndexError, "clip %d: the rig has %d clips", index, object->clip_count);
        return NULL;
    }
    const reach_clip *clip = &object->clips[index];
    if (out) {
        Py_buffer view;
        Py_ssize_t count = (Py_ssize_t)clip->frame_count * clip->bone_count;
        if (!reach_py_array(out, "out", "d", count * TRANSFORM_SIZE, 1, &view)) return NULL;
        reach_py_put_transforms(clip->frames, (int)count, view.buf);
        PyBuffer_Release(&view);
    }
    return Py_BuildValue("(sdi)", object->clip_names[index], (double)clip->frame_rate, clip->frame_count);
}

static PyObject *clip_count(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(((rig_object *)self)->clip_count);
}

typedef struct pose_run {
    const cli_rig *rig;
    const char *text;
    size_t length;
    double *world, *local;
    cli_error error;
} pose_run;

static int run_pose(pose_run *run) {
    const cli_rig *rig = run->rig;
    cJSON *json = cli_parse_json(run->text, run->length, 1, &run->error);
    reach_transform *pose = malloc((size_t)(rig->bone_count > 0 ? rig->bone_count : 1) * 2 * sizeof *pose);
    int ok = json && (pose || cli_fail(&run->error, "out of memory")) &&
             (jr_object(json, "request", &run->error) && cli_pose_read(json, rig, pose, &run->error));
    if (ok) {
        reach_forward_kinematics(&rig->skeleton, pose, pose + rig->bone_count);
        reach_py_put_transforms(pose, rig->bone_count, run->local);
        reach_py_put_transforms(pose + rig->bone_count, rig->bone_count, run->world);
    }
    free(pose);
    cJSON_Delete(json);
    return ok;
}

/* fk(request_text, world_out, local_out): the pose a {"joints": ..., "frame": N} object gives,
 * read as `reach fk` reads it, and its world transforms. */
static PyObject *rig_fk(PyObject *self, PyObject *args) {
    pose_run run = {&((rig_object *)self)->rig, NULL, 0, NULL, NULL, {""}};
    Py_ssize_t length;
    PyObject *world, *local;
    Py_buffer views[2];
    Py_ssize_t count = (Py_ssize_t)run.rig->bone_count * TRANSFORM_SIZE;
    if (!PyArg_ParseTuple(args, "y#OO", &run.text, &length, &world, &local)) return NULL;
    if (!reach_py_array(world, "world", "d", count, 1, &views[0])) return NULL;
    if (!reach_py_array(local, "local", "d", count, 1, &views[1])) {
        PyBuffer_Release(&views[0]);
        return NULL;
    }
    run.length = (size_t)length;
    run.world = views[0].buf;
    run.local = views[1].buf;
    int ok;
    Py_BEGIN_ALLOW_THREADS ok = run_pose(&run);
    Py_END_ALLOW_THREADS PyBuffer_Release(&views[0]);
    PyBuffer_Release(&views[1]);
    if (!ok) {
        return reach_py_raise(run.error.message);
    }
    Py_RETURN_NONE;
}

/* fk_frames(frame_count, local_in, world_out): forward kinematics of every frame of a clip. */
static PyObject *rig_fk_frames(PyObject *self, PyObject *args) {
    const cli_rig *rig = &((rig_object *)self)->rig;
    int frames;
    PyObject *local, *world;
    if (!PyArg_ParseTuple(args, "iOO", &frames, &local, &world)) return NULL;
    if (frames < 0) {
        PyErr_SetString(reach_py_error, "frames: must be >= 0");
        return NULL;
    }
    Py_ssize_t count = (Py_ssize_t)frames * rig->bone_count * TRANSFORM_SIZE;
    Py_buffer views[2];
    if (!reach_py_array(local, "local", "d", count, 0, &views[0])) return NULL;
    if (!reach_py_array(world, "world", "d", count, 1, &views[1])) {
        PyBuffer_Release(&views[0]);
        return NULL;
    }
    reach_transform *pose = malloc((size_t)(rig->bone_count > 0 ? rig->bone_count : 1) * 2 * sizeof *pose);
    if (pose) {
        Py_BEGIN_ALLOW_THREADS for (int f = 0; f < frames; f++) {
            size_t offset = (size_t)f * (size_t)rig->bone_count * TRANSFORM_SIZE;
            get_transforms((const double *)views[0].buf + offset, rig->bone_count, pose);
            reach_forward_kinematics(&rig->skeleton, pose, pose + rig->bone_count);
            reach_py_put_transforms(pose + rig->bone_count, rig->bone_count, (double *)views[1].buf + offset);
        }
        Py_END_ALLOW_THREADS
    }
    free(pose);
    PyBuffer_Release(&views[0]);
    PyBuffer_Release(&views[1]);
    if (!pose) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

typedef struct solve_run {
    const cli_rig *rig;
    const char *text;
    size_t length;
    char *result;
    size_t result_length;
    cli_error error;
} solve_run;

static void run_solve(solve_run *run) {
    cJSON *json = cli_parse_json(run->text, run->length, 1, &run->error);
    cJSON *result = json ? cli_solve_request(json, run->rig, &run->error) : NULL;
    if (result && cli_json_write(result, &run->result, &run->result_length) != CLI_JSON_WRITTEN) {
        free(run->result);
        run->result = NULL;
        cli_fail(&run->error, "the result could not be written");
    }
    cJSON_Delete(result);
    cJSON_Delete(json);
}

/* solve(request_text) -> result_text, the request's "rig" (if any) winning over this one. */
static PyObject *rig_solve(PyObject *self, PyObject *args) {
    solve_run run = {&((rig_object *)self)->rig, NULL, 0, NULL, 0, {""}};
    Py_ssize_t length;
    if (!PyArg_ParseTuple(args, "y#", &run.text, &length)) return NULL;
    run.length = (size_t)length;
    Py_BEGIN_ALLOW_THREADS run_solve(&run);
    Py_END_ALLOW_THREADS return reach_py_result_text(run.result, run.result_length, run.error.message);
}

static PyMethodDef rig_methods[] = {
    {"names", rig_names, METH_NOARGS, "(bone_names, parents, joint_names, value_count)"},
    {"rest", rig_rest, METH_VARARGS, "rest(out): local rest transforms"},
    {"clip", rig_clip, METH_VARARGS, "clip(i[, out]) -> (name, frame_rate, frame_count)"},
    {"clip_count", clip_count, METH_NOARGS, "the clips the file holds"},
    {"fk", rig_fk, METH_VARARGS, "fk(request_text, world_out, local_out)"},
    {"fk_frames", rig_fk_frames, METH_VARARGS, "fk_frames(frame_count, local_in, world_out)"},
    {"solve", rig_solve, METH_VARARGS, "solve(request_text) -> result_text"},
    {"solve_many", reach_py_solve_many, METH_VARARGS,
     "solve_many(template, positions, joints, residual, reached, iterations)"},
    {NULL, NULL, 0, NULL}};

PyTypeObject reach_py_rig_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "reach._reach.Rig",
    .tp_basicsize = sizeof(rig_object),
    .tp_dealloc = rig_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A rig read once, with its clips (use reach.load).",
    .tp_methods = rig_methods,
};
