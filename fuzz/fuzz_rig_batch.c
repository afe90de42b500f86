/* Fuzzes the batch rig two-bone solve: batches of limbs, each an ordinary one built from a few
 * bytes (so that most lanes take the vector path) or one of raw values (NaN, infinities, zero
 * and singular parents, 1e±30, subnormals, an end orientation), with default or fuzzed options.
 * Invariants:
 *   - each limb's status is what reach_two_bone_solve_rig says for it alone, and the call
 *     returns the first limb's error;
 *   - a limb with an error keeps its pose: the input's rotations and translations, a residual
 *     that is a number, not reached;
 *   - a solved limb's outputs are finite;
 *   - the scalar kernel equals reach_two_bone_solve_rig bit for bit, and every kernel gives each
 *     limb the same bits alone as within the batch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "reach/testing.h"

#define MAX_LIMBS 40

static const char *const isa_names[] = {"avx512", "avx2", "sse2", "neon", "wasm-simd", "scalar"};

/* An ordinary limb under a rotated, scaled parent, from a few bytes, each read its own statement
 * (the order in which arguments are evaluated is unspecified). */
static reach_two_bone_rig_input ordinary_limb(fuzz_input *in) {
    reach_two_bone_rig_input limb;
    memset(&limb, 0, sizeof limb);
    reach_real b[10];
    for (int k = 0; k < 10; ++k)
        b[k] = (reach_real)fuzz_byte(in);
    const reach_quat parent = reach_quat_normalize_safe(fuzz_quat(in));
    const reach_quat root = fuzz_quat(in), mid = fuzz_quat(in), end = fuzz_quat(in);
    limb.parent_world.linear = reach_mat3_from_quat(parent);
    for (int c = 0; c < 3; ++c)
        limb.parent_world.linear.col[c] = reach_vec3_scale(limb.parent_world.linear.col[c], (1 + b[0]) / 64);
    limb.parent_world.translation = reach_vec3_make(b[1] / 32, 0, 1);
    limb.root_local = reach_transform_make(root, reach_vec3_make(0, b[2] / 128, 0));
    limb.mid_local = reach_transform_make(mid, reach_vec3_make(0, (1 + b[3]) / 64, 0));
    limb.end_local = reach_transform_make(end, reach_vec3_make((1 + b[4]) / 64, 0, 0));
    limb.target = reach_vec3_make(b[5] / 32, b[6] / 32, 1);
    limb.pole = reach_vec3_make(b[7] / 16, 0, b[8] / 16);
    limb.use_pole = (int)b[9] & 1;
    return limb;
}

/* Two outputs the same to the bit, field by field (the struct's padding is no one's). */
static int same_output(const reach_two_bone_rig_output *a, const reach_two_bone_rig_output *b) {
    return memcmp(&a->root_rotation, &b->root_rotation, 3 * sizeof(reach_quat)) == 0 &&
           memcmp(&a->mid_translation, &b->mid_translation, 4 * sizeof(reach_vec3)) == 0 &&
           memcmp(&a->residual, &b->residual, sizeof(reach_real)) == 0 && a->reached == b->reached;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    static reach_two_bone_rig_input limbs[MAX_LIMBS];
    static reach_two_bone_rig_output out[MAX_LIMBS], alone;
    unsigned char status[MAX_LIMBS], alone_status;
    const uint8_t flags = fuzz_byte(&in);
    const int count = fuzz_byte(&in) % (MAX_LIMBS + 1);
    for (int i = 0; i < count; ++i)
        limbs[i] = fuzz_byte(&in) % 4 ? ordinary_limb(&in) : fuzz_rig_limb(&in);
    reach_two_bone_settings options = reach_two_bone_default_settings();
    if (flags & 1) options.tolerance = fuzz_real(&in);
    if (flags & 2) options.soft_distance = fuzz_real(&in);
    const reach_two_bone_settings *opt = flags & 4 ? &options : NULL;

    for (size_t k = 0; k < sizeof isa_names / sizeof isa_names[0]; ++k) {
        /* An empty batch is refused only on a kernel this build or machine lacks. */
        if (reach_two_bone_solve_rig_batch_isa(limbs, 0, opt, out, status, isa_names[k]) != REACH_OK) continue;
        const reach_status st = reach_two_bone_solve_rig_batch_isa(limbs, count, opt, out, status, isa_names[k]);
        reach_status first = REACH_OK;
        for (int i = 0; i < count; ++i) {
            const reach_status limb_st = reach_two_bone_solve_rig(&limbs[i], opt, &alone);
            if (first == REACH_OK) first = limb_st;
            FUZZ_REQUIRE(status[i] == limb_st);
            if (limb_st != REACH_OK) {
                FUZZ_REQUIRE(memcmp(&out[i].root_rotation, &limbs[i].root_local.rotation, sizeof(reach_quat)) == 0);
                FUZZ_REQUIRE(memcmp(&out[i].end_rotation, &limbs[i].end_local.rotation, sizeof(reach_quat)) == 0);
                FUZZ_REQUIRE(reach_is_finite(out[i].residual) && out[i].reached == 0);
                continue;
            }
            FUZZ_REQUIRE(reach_quat_is_finite(out[i].root_rotation) && reach_quat_is_finite(out[i].mid_rotation) &&
                         reach_quat_is_finite(out[i].end_rotation));
            FUZZ_REQUIRE(reach_vec3_is_finite(out[i].mid) && reach_vec3_is_finite(out[i].end) &&
                         reach_is_finite(out[i].residual));
            if (strcmp(isa_names[k], "scalar") == 0) FUZZ_REQUIRE(same_output(&out[i], &alone));
            /* The limb alone on the same kernel: the same bits. */
            reach_two_bone_solve_rig_batch_isa(&limbs[i], 1, opt, &alone, &alone_status, isa_names[k]);
            FUZZ_REQUIRE(alone_status == status[i] && same_output(&out[i], &alone));
        }
        FUZZ_REQUIRE(st == first);
    }
    return 0;
}
