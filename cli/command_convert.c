/* `reach convert IN OUT`: a rig and its motion read from IN (.bvh, .gltf, .glb, .urdf) and
 * written as OUT's extension names: .bvh (the rig and its first clip, every frame), .gltf or .glb
 * (the rig as a skinned node hierarchy, every clip an animation, every frame a key), .json (the
 * rig as a version-1 bones rig; motion has no place there). A glTF's animation keeps a frame per
 * key where its keys are evenly spaced (else it is sampled at 30 frames per second); a URDF has no
 * motion, only its rest pose, and its joints' kinds and limits reach only .json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "reach/bvh.h"
#include "reach/gltf.h"
#include "reach/urdf.h"
#include "rig_write.h"

static int ends_with(const char *path, const char *suffix) {
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && strcmp(path + n - k, suffix) == 0;
}

/* What IN holds: a rig and its clips, from whichever reader read it. */
typedef struct source {
    reach_rig rig; /* BVH, URDF */
    reach_clip clip;
    reach_gltf_character character; /* glTF */
    int is_gltf;
} source;

static const reach_rig *source_rig(const source *s) { return s->is_gltf ? &s->character.rig : &s->rig; }

static int source_clip_count(const source *s) { return s->is_gltf ? s->character.clip_count : s->clip.frame_count > 0; }

static const reach_clip *source_clips(const source *s) {
    return s->is_gltf ? s->character.clips : s->clip.frame_count > 0 ? &s->clip : NULL;
}

static void source_free(source *s) {
    reach_rig_free(&s->rig);
    reach_clip_free(&s->clip);
    reach_gltf_free(&s->character);
}

static reach_status read_source(const char *in, source *s, char *message, size_t size) {
    memset(s, 0, sizeof *s);
    if (ends_with(in, ".bvh")) return reach_bvh_read_file(in, &s->rig, &s->clip, message, size);
    if (cli_is_urdf_path(in)) return reach_urdf_read_file(in, &s->rig, message, size);
    s->is_gltf = 1;
    return reach_gltf_read_file(in, -1, REACH_GLTF_KEY_RATE, &s->character, message, size);
}

/* The JSON text written whole through a temporary beside OUT, so an error leaves OUT as it was. */
static int write_text(const char *out, const char *text, size_t length, cli_error *err) {
    size_t size = strlen(out) + sizeof ".tmp";
    char *temporary = malloc(size);
    if (!temporary) return cli_fail(err, "convert: out of memory");
    snprintf(temporary, size, "%s.tmp", out);
    FILE *file = fopen(temporary, "wb");
    int ok = file && fwrite(text, 1, length, file) == length;
    if (file && fclose(file) != 0) ok = 0;
    if (ok) ok = rename(temporary, out) == 0;
    if (!ok && file) remove(temporary);
    free(temporary);
    return ok ? 1 : cli_fail(err, "convert: %s: cannot be written", out);
}

int cli_convert(const char *in, const char *out, cli_error *err) {
    int to_bvh = ends_with(out, ".bvh"), to_gltf = ends_with(out, ".gltf") || ends_with(out, ".glb");
    if (!to_bvh && !to_gltf && !ends_with(out, ".json"))
        return cli_fail(err, "convert: '%s': expected OUT to be a .bvh, .gltf, .glb or .json", out);
    if (!cli_is_rig_file_path(in))
        return cli_fail(err, "convert: '%s': expected IN to be a .bvh, .gltf, .glb or .urdf", in);
    char message[CLI_MESSAGE_SIZE - 32];
    source s;
    reach_status status = read_source(in, &s, message, sizeof message);
    const reach_rig *rig = source_rig(&s);
    if (status == REACH_OK && to_bvh) {
        status = reach_bvh_write_file(out, rig, source_clips(&s), message, sizeof message);
    } else if (status == REACH_OK && to_gltf) {
        const char *const *names = s.is_gltf ? (const char *const *)s.character.clip_names : NULL;
        status =
            reach_gltf_write_file(out, rig, source_clips(&s), names, source_clip_count(&s), 0, message, sizeof message);
    } else if (status == REACH_OK) {
        char *text;
        size_t length;
        cli_error why = {""};
        int ok = cli_rig_write_bones(rig, &text, &length, &why);
        ok = ok ? write_text(out, text, length, err) : cli_fail(err, "convert: %s", why.message);
        free(text);
        source_free(&s);
        return ok;
    }
    source_free(&s);
    return status == REACH_OK ? 1 : cli_fail(err, "convert: %s", message);
}
