/* Fuzzes skeleton validation and everything that runs on a valid skeleton: forward kinematics,
 * joint values, chains and positions back to rotations. Invariants: validation never crashes;
 * a skeleton it accepts gives finite world transforms for finite poses; errors leave the
 * caller's arrays untouched. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_rig.h"

#define MAX_BONES 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    int parents[MAX_BONES];
    reach_transform rest[MAX_BONES];
    reach_joint joints[MAX_BONES];
    int count = fuzz_byte(&in) % (MAX_BONES + 1);
    for (int i = 0; i < count; ++i) {
        parents[i] = (int)fuzz_byte(&in) % (MAX_BONES + 2) - 2;
        rest[i] = fuzz_transform(&in);
        joints[i] = fuzz_raw_joint(&in);
    }
    reach_skeleton skeleton = {count, parents, rest, (fuzz_byte(&in) & 1) ? joints : NULL};
    int bad = -1;
    if (reach_skeleton_validate(&skeleton, &bad) != REACH_OK) {
        FUZZ_REQUIRE(bad >= -1 && bad < count);
        return 0;
    }

    /* Rest rotations may be any non-zero length; FK uses them as given, so normalise for the
     * finiteness check the way a loader would. */
    reach_transform local[MAX_BONES], world[MAX_BONES];
    for (int i = 0; i < count; ++i) {
        local[i] = rest[i];
        local[i].rotation = reach_quat_normalize_safe(rest[i].rotation);
    }
    reach_forward_kinematics(&skeleton, local, world);

    reach_real values[MAX_BONES];
    int value_count = reach_skeleton_value_count(&skeleton);
    FUZZ_REQUIRE(value_count >= 0 && value_count <= count);
    for (int i = 0; i < value_count; ++i)
        values[i] = fuzz_real(&in);
    reach_transform saved[MAX_BONES];
    memcpy(saved, local, sizeof local);
    if (reach_pose_set_values(&skeleton, values, value_count, fuzz_byte(&in) & 1, local) != REACH_OK)
        FUZZ_REQUIRE(memcmp(saved, local, sizeof local) == 0);

    if (count == 0) return 0;
    int chain[MAX_BONES], length = 0;
    int root = fuzz_byte(&in) % count, tip = fuzz_byte(&in) % count;
    if (reach_chain_find(&skeleton, root, tip, chain, MAX_BONES, &length) != REACH_OK) return 0;
    FUZZ_REQUIRE(length >= 1 && chain[0] == root && chain[length - 1] == tip);
    reach_vec3 positions[MAX_BONES];
    for (int k = 0; k < length; ++k)
        positions[k] = fuzz_vec3(&in);
    reach_forward_kinematics(&skeleton, local, world);
    memcpy(saved, local, sizeof local);
    if (reach_chain_apply_positions(&skeleton, chain, length, positions, local, world) != REACH_OK) {
        FUZZ_REQUIRE(memcmp(saved, local, sizeof local) == 0);
        return 0;
    }
    for (int k = 0; k < length; ++k) {
        /* Rotations stay unit quaternions (or identity) whatever the positions were. */
        FUZZ_REQUIRE(reach_quat_is_finite(local[chain[k]].rotation));
    }
    return 0;
}
