/* What the glTF fuzz targets check on every input: the reader returns, with a message and an
 * empty character on error; a character it returns has a rig reach_skeleton_validate accepts,
 * every bone named and mapped to a node, and clips of the rig's bones whose every frame is finite
 * under forward kinematics. */
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
    reach_gltf_free(&c);
}

#endif
