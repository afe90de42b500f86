/* The FBX reader (through assimp) on hostile bytes. Checked on every input:
 *   - it returns, with a message on error and an empty character;
 *   - a character it returns has a rig reach_skeleton_validate accepts, every bone named, and
 *     clips of the rig's bones at the asked rate whose every frame is finite under forward
 *     kinematics.
 * Inputs that do not begin as FBX never reach assimp; the corpus holds ASCII FBX files and the
 * binary header, so that most mutations do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/fbx.h"
#include "reach/reach.h"

/* assimp 5.2 leaks part of what it parsed when it refuses a file: its leak, not reach's. The
 * sanitizer's stacks stop in libstdc++'s operator new (assimp has no frame pointers), and reach,
 * in C, allocates nothing through it. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libassimp.so\nleak:libstdc++.so\n"; }

static void check(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "invariant failed: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char error[256];
    reach_fbx_character c;
    reach_status st = reach_fbx_read(data, size, 10, &c, error, sizeof error);
    if (st != REACH_OK) {
        check(c.rig.bone_count == 0 && c.rig.bone_names == NULL && c.clips == NULL, "an error leaves it empty");
        check(strlen(error) > 0, "an error has a message");
        return 0;
    }
    const reach_rig *rig = &c.rig;
    check(reach_skeleton_validate(&rig->skeleton, NULL) == REACH_OK, "the rig validates");
    for (int b = 0; b < rig->bone_count; ++b)
        check(rig->bone_names[b] != NULL, "every bone named");
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    check(world != NULL, "memory");
    reach_forward_kinematics(&rig->skeleton, rig->rest, world);
    for (int a = 0; a < c.clip_count; ++a) {
        check(c.clips[a].bone_count == rig->bone_count && c.clips[a].frame_count >= 1, "clips fit the rig");
        check(c.clips[a].frame_rate == 10, "clips at the asked rate");
        for (int f = 0; f < c.clips[a].frame_count; ++f) {
            reach_forward_kinematics(&rig->skeleton, reach_clip_frame(&c.clips[a], f), world);
            for (int b = 0; b < rig->bone_count; ++b)
                check(reach_vec3_is_finite(world[b].translation), "finite world positions");
        }
    }
    free(world);
    reach_fbx_free(&c);
    return 0;
}
