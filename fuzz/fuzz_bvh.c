/* The BVH reader on hostile bytes. Checked on every input:
 *   - it returns, with a message on error and an empty rig and clip;
 *   - a rig it returns is one reach_skeleton_validate accepts, every bone named and found by its
 *     name, with a clip of the rig's bones at a finite rate above 0, every frame's transforms
 *     finite with unit rotations, and every frame finite under forward kinematics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/bvh.h"
#include "reach/reach.h"

static void check(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "invariant failed: %s\n", what);
        abort();
    }
}

static void check_read(const reach_rig *rig, const reach_clip *clip) {
    check(reach_skeleton_validate(&rig->skeleton, NULL) == REACH_OK, "the rig validates");
    check(rig->bone_count >= 1 && rig->parents[0] == -1, "a root first");
    for (int b = 0; b < rig->bone_count; ++b) {
        check(rig->bone_names[b] != NULL, "every bone named");
        check(reach_rig_find_bone(rig, rig->bone_names[b]) == b, "bone names look up");
    }
    check(clip->bone_count == rig->bone_count && clip->frame_count >= 1, "a clip of the rig's bones");
    check(isfinite((double)clip->frame_rate) && clip->frame_rate > 0, "a finite rate above 0");
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    check(world != NULL, "memory");
    for (int f = 0; f < clip->frame_count; ++f) {
        const reach_transform *local = reach_clip_frame(clip, f);
        for (int b = 0; b < rig->bone_count; ++b) {
            check(reach_quat_is_finite(local[b].rotation) && reach_vec3_is_finite(local[b].translation),
                  "finite frames");
            check(fabs((double)reach_quat_dot(local[b].rotation, local[b].rotation) - 1) < 1e-3, "unit rotations");
        }
        reach_forward_kinematics(&rig->skeleton, local, world);
        for (int b = 0; b < rig->bone_count; ++b)
            check(reach_vec3_is_finite(world[b].translation), "finite world positions");
    }
    free(world);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char error[256];
    reach_rig rig;
    reach_clip clip;
    reach_status st = reach_bvh_read((const char *)data, size, &rig, &clip, error, sizeof error);
    if (st == REACH_OK) {
        check_read(&rig, &clip);
    } else {
        check(rig.bone_count == 0 && rig.bone_names == NULL && clip.frames == NULL, "an error leaves both empty");
        check(strlen(error) > 0, "an error has a message");
    }
    reach_rig_free(&rig);
    reach_clip_free(&clip);
    return 0;
}
