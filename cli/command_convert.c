/* `reach convert IN OUT`: a character and its motion from BVH, glTF or GLB written as BVH
 * (every frame kept; a glTF's first animation, at 30 frames per second). Other targets are not
 * written yet. */
#include <string.h>

#include "commands.h"
#include "reach/bvh.h"
#include "reach/gltf.h"

static int ends_with(const char *path, const char *suffix) {
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && strcmp(path + n - k, suffix) == 0;
}

int cli_convert(const char *in, const char *out, cli_error *err) {
    if (!ends_with(out, ".bvh")) return cli_fail(err, "convert: '%s': only .bvh is written yet", out);
    if (!cli_is_character_path(in)) return cli_fail(err, "convert: '%s': expected a .bvh, .gltf or .glb", in);
    char message[CLI_MESSAGE_SIZE - 32];
    reach_status status;
    if (ends_with(in, ".bvh")) {
        reach_rig rig;
        reach_clip clip;
        status = reach_bvh_read_file(in, &rig, &clip, message, sizeof message);
        if (status == REACH_OK) status = reach_bvh_write_file(out, &rig, &clip, message, sizeof message);
        reach_rig_free(&rig);
        reach_clip_free(&clip);
    } else {
        reach_gltf_character character;
        status = reach_gltf_read_file(in, -1, 0, &character, message, sizeof message);
        if (status == REACH_OK)
            status = reach_bvh_write_file(out, &character.rig, character.clip_count ? &character.clips[0] : NULL,
                                          message, sizeof message);
        reach_gltf_free(&character);
    }
    return status == REACH_OK ? 1 : cli_fail(err, "convert: %s", message);
}
