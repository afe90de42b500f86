/* `reach retarget`: one clip onto the target, frame by frame, into JSON lines or a BVH, glTF or
 * GLB file. */
#include <stdlib.h>
#include <string.h>

#include "reach/bvh.h"
#include "reach/gltf.h"
#include "result.h"
#include "retarget.h"

static int ends_with(const char *path, const char *suffix) {
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && strcmp(path + n - k, suffix) == 0;
}

static const char *side_name(int side) { return side == 0 ? "source" : "target"; }

/* The frame's JSON line. */
static int print_frame(FILE *out, const char *clip_name, int frame, reach_real time, const reach_retarget_result *r,
                       const cli_retarget_target *target, const reach_transform *pose, cli_error *err) {
    cJSON *line = cJSON_CreateObject();
    if (!line) return cli_fail(err, "out of memory");
    if (clip_name) cJSON_AddStringToObject(line, "clip", clip_name);
    cJSON_AddNumberToObject(line, "frame", frame);
    cJSON_AddNumberToObject(line, "time", (double)time);
    cJSON_AddStringToObject(line, "status", "ok");
    cJSON_AddBoolToObject(line, "reached", r->reached);
    cJSON_AddNumberToObject(line, "residual", (double)r->body.residual);
    cJSON *planted = cJSON_AddArrayToObject(line, "planted");
    if (planted) {
        cJSON_AddItemToArray(planted, cJSON_CreateBool(r->planted[0]));
        cJSON_AddItemToArray(planted, cJSON_CreateBool(r->planted[1]));
    }
    int ok = cli_result_add_pose(line, &target->rig, pose, err) && cli_result_print(out, line, err);
    cJSON_Delete(line);
    return ok;
}

/* The target as the formats library's rig, for the file writers: a view of the CLI's arrays. */
static reach_rig rig_view(const cli_rig *rig) {
    reach_rig view;
    view.skeleton = rig->skeleton;
    view.bone_count = rig->bone_count;
    view.bone_names = rig->names;
    view.joint_names = rig->joint_names;
    view.parents = rig->parents;
    view.rest = rig->rest;
    view.joints = rig->joints;
    return view;
}

int cli_retarget_clip(const cli_retarget_source *source, const cli_retarget_target *target, const cli_retarget_map *map,
                      const char *clip_name, FILE *out, const char *out_path, cli_progress *progress, cli_error *err) {
    int gltf = out_path && (ends_with(out_path, ".gltf") || ends_with(out_path, ".glb"));
    /* A file format holds the whole clip: the frames are gathered and written at the end. */
    int whole = out_path && (ends_with(out_path, ".bvh") || gltf);
    if (out_path && !whole && !ends_with(out_path, ".jsonl"))
        return cli_fail(err, "retarget: '%s': expected an output ending .bvh, .gltf, .glb or .jsonl", out_path);
    reach_retarget_settings settings = cli_retarget_settings(source, target, map);
    const reach_skeleton *from = &source->rig.skeleton, *onto = &target->rig.skeleton;
    size_t need = reach_retarget_memory_size(from, onto);
    void *memory = malloc(need);
    reach_transform *pose = malloc((size_t)onto->bone_count * sizeof *pose);
    reach_clip written = {0, 0, 0, NULL};
    int frames = source->clip.frame_count;
    int ok = memory && pose ? 1 : cli_fail(err, "out of memory");
    if (ok && whole && reach_clip_create(&written, onto->bone_count, frames, source->clip.frame_rate) != REACH_OK)
        ok = cli_fail(err, "out of memory");
    reach_retarget *state = NULL;
    if (ok) {
        int bad_role = -1, bad_side = -1;
        reach_status status = reach_retarget_init(from, &source->roles, onto, &target->roles, &settings, memory, need,
                                                  &state, &bad_role, &bad_side);
        if (status != REACH_OK && bad_role >= 0)
            ok = cli_fail(err, "retarget: %s role '%s': %s", side_name(bad_side),
                          reach_humanoid_role_name((reach_humanoid_role)bad_role), reach_status_string(status));
        else if (status != REACH_OK)
            ok = cli_fail(err, "retarget: %s: %s", bad_side >= 0 ? side_name(bad_side) : "set-up",
                          reach_status_string(status));
    }
    FILE *file = out;
    if (ok && out_path && !whole) {
        file = fopen(out_path, "wb");
        if (!file) ok = cli_fail(err, "retarget: cannot write '%s'", out_path);
    }
    for (int f = 0; ok && f < frames; f++) {
        reach_retarget_result result;
        reach_status status =
            reach_retarget_frame(state, reach_clip_frame(&source->clip, f), 1 / source->clip.frame_rate, pose, &result);
        if (status != REACH_OK) {
            ok = cli_fail(err, "retarget: frame %d: %s", f, reach_status_string(status));
            break;
        }
        if (whole)
            memcpy(reach_clip_frame(&written, f), pose, (size_t)onto->bone_count * sizeof *pose);
        else
            ok = print_frame(file, clip_name, f, (reach_real)f / source->clip.frame_rate, &result, target, pose, err);
        if (progress) cli_progress_add(progress, 1);
    }
    if (file && file != out && fclose(file) != 0 && ok) ok = cli_fail(err, "retarget: cannot write '%s'", out_path);
    if (ok && whole) {
        char message[CLI_MESSAGE_SIZE - 32];
        reach_rig view = rig_view(&target->rig);
        const char *name = clip_name ? clip_name : "retarget";
        reach_status status =
            gltf ? reach_gltf_write_file(out_path, &view, &written, &name, 1, 0, message, sizeof message)
                 : reach_bvh_write_file(out_path, &view, &written, message, sizeof message);
        if (status != REACH_OK) ok = cli_fail(err, "retarget: %s", message);
    }
    reach_clip_free(&written);
    free(pose);
    free(memory);
    return ok;
}
