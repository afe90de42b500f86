/* Characters as rigs: {"bvh": PATH}, {"gltf": PATH} (.gltf or .glb), {"file": PATH} and
 * --rig PATH, read by the formats library (bones named as the file names them, ball joints;
 * a BVH End Site is `<parent>_end`). The rest pose is the file's; the motion (a BVH's, a glTF's
 * first animation, a frame per key where its keys are evenly spaced, else 30 per second) is kept
 * for "frame": N. */
#include <string.h>

#include "reach/bvh.h"
#include "reach/gltf.h"
#include "rig.h"

static int ends_with(const char *path, const char *suffix) {
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && strcmp(path + n - k, suffix) == 0;
}

int cli_is_character_path(const char *path) {
    return ends_with(path, ".bvh") || ends_with(path, ".gltf") || ends_with(path, ".glb");
}

int cli_is_rig_file_path(const char *path) { return cli_is_urdf_path(path) || cli_is_character_path(path); }

int cli_rig_read_file(const char *path, cli_rig *rig, cli_error *err) {
    return cli_is_character_path(path) ? cli_rig_read_character_file(path, rig, err)
                                       : cli_rig_read_urdf_file(path, rig, err);
}

/* The clip's frames become the rig's (the clip is left without them). */
static void take_frames(reach_clip *clip, cli_rig *rig) {
    rig->frames = clip->frames;
    rig->frame_count = clip->frame_count;
    clip->frames = NULL;
    clip->frame_count = 0;
}

int cli_rig_read_character_file(const char *path, cli_rig *rig, cli_error *err) {
    char full[8192];
    cli_rig_full_path(path, full, sizeof full);
    char message[CLI_MESSAGE_SIZE - 16];
    reach_status status;
    int ok;
    if (ends_with(path, ".bvh")) {
        reach_rig read;
        reach_clip clip;
        status = reach_bvh_read_file(full, &read, &clip, message, sizeof message);
        ok = status == REACH_OK ? cli_rig_copy_read(&read, rig, err) : cli_fail(err, "rig: %s", message);
        if (ok) take_frames(&clip, rig);
        reach_rig_free(&read);
        reach_clip_free(&clip);
        return ok;
    }
    reach_gltf_character character;
    status = reach_gltf_read_file(full, -1, REACH_GLTF_KEY_RATE, &character, message, sizeof message);
    ok = status == REACH_OK ? cli_rig_copy_read(&character.rig, rig, err) : cli_fail(err, "rig: %s", message);
    if (ok && character.clip_count > 0) take_frames(&character.clips[0], rig);
    reach_gltf_free(&character);
    return ok;
}
