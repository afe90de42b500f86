/* What the glTF fuzz targets check on every input: the reader returns, with a message and an
 * empty character on error; a character it returns has a rig reach_skeleton_validate accepts,
 * every bone named and mapped to a node, and clips of the rig's bones whose every frame is finite
 * under forward kinematics; and written back as GLB, it reads again with its bones and frames. */
#ifndef REACH_FUZZ_GLTF_CHECK_H
#define REACH_FUZZ_GLTF_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/gltf.h"
#include "reach/reach.h"

static void gltf_check(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "invariant failed: %s\n", what);
        abort();
    }
}

/* A character read is written as GLB (or refused only for a number past float32's range) and
 * reads back with the same bones, names and clip lengths. */
static void gltf_write_back(const reach_gltf_character *c) {
    char error[256];
    unsigned char *glb;
    size_t length;
    reach_status st = reach_gltf_write(&c->rig, c->clips, (const char *const *)c->clip_names, c->clip_count,
                                       REACH_GLTF_BINARY, NULL, &glb, &length, NULL, NULL, error, sizeof error);
    if (st != REACH_OK) {
        gltf_check(glb == NULL && strstr(error, "float32") != NULL, "what was read is written");
        return;
    }
    reach_gltf_character again;
    st = reach_gltf_read(glb, length, NULL, -1, REACH_GLTF_KEY_RATE, &again, error, sizeof error);
    gltf_check(st == REACH_OK, "what was written reads back");
    gltf_check(again.rig.bone_count == c->rig.bone_count && again.clip_count == c->clip_count, "the same bones, clips");
    for (int b = 0; b < c->rig.bone_count; ++b)
        gltf_check(strcmp(again.rig.bone_names[b], c->rig.bone_names[b]) == 0 ||
                       reach_rig_find_bone(&again.rig, c->rig.bone_names[b]) >= 0,
                   "every name kept");
    for (int a = 0; a < c->clip_count; ++a)
        gltf_check(again.clips[a].frame_count == c->clips[a].frame_count, "every frame kept");
    reach_gltf_free(&again);
    free(glb);
}

static void gltf_fuzz_one(const unsigned char *data, size_t size) {
    char error[256];
    reach_gltf_character c;
    /* No folder: only data: URIs and the GLB's own chunk; the fuzzer reads no files. */
    reach_status st = reach_gltf_read(data, size, NULL, -1, 10, &c, error, sizeof error);
    if (st != REACH_OK) {
        gltf_check(c.rig.bone_count == 0 && c.rig.bone_names == NULL && c.clips == NULL, "an error leaves it empty");
        gltf_check(strlen(error) > 0, "an error has a message");
        return;
    }
    const reach_rig *rig = &c.rig;
    gltf_check(reach_skeleton_validate(&rig->skeleton, NULL) == REACH_OK, "the rig validates");
    for (int b = 0; b < rig->bone_count; ++b)
        gltf_check(rig->bone_names[b] != NULL && c.node_of_bone[b] >= 0, "every bone named, from a node");
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    gltf_check(world != NULL, "memory");
    reach_forward_kinematics(&rig->skeleton, rig->rest, world);
    for (int a = 0; a < c.clip_count; ++a) {
        gltf_check(c.clips[a].bone_count == rig->bone_count && c.clips[a].frame_count >= 1, "clips fit the rig");
        for (int f = 0; f < c.clips[a].frame_count; ++f) {
            reach_forward_kinematics(&rig->skeleton, reach_clip_frame(&c.clips[a], f), world);
            for (int b = 0; b < rig->bone_count; ++b)
                gltf_check(reach_vec3_is_finite(world[b].translation), "finite world positions");
        }
    }
    free(world);
    gltf_write_back(&c);
    reach_gltf_free(&c);
}

#endif
