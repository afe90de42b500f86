/* The module's state and the rig: the chain the page edits, and the last solve's report.
 * Static storage is enough: the page drives one rig from one thread. */
#include "reach_wasm.h"

_Static_assert(sizeof(reach_vec3) == 3 * sizeof(reach_real), "the page views joints as packed x, y, z");

static reach_wasm_rig rig;
static reach_wasm_result last;

reach_wasm_rig *reach_wasm_rig_get(void) { return &rig; }

void reach_wasm_report(const reach_wasm_result *result) { last = *result; }

int reach_wasm_real_size(void) { return reach_real_size(); }
const char *reach_wasm_version(void) { return reach_version(); }
const char *reach_wasm_status_text(int status) { return reach_status_string((reach_status)status); }

reach_real *reach_wasm_joints(void) { return &rig.joints[0].x; }
int reach_wasm_joint_count(void) { return rig.joint_count; }

/* Bone lengths the page may set: positive and finite. The library reports a zero-length bone
 * itself; refusing it here keeps a bone's direction, which a zero length would lose. */
static reach_status check_length(reach_real length) {
    if (!reach_is_finite(length)) return REACH_ERROR_NOT_FINITE;
    return length > 0 ? REACH_OK : REACH_ERROR_INVALID_ARGUMENT;
}

int reach_wasm_chain_reset(int bone_count, reach_real length) {
    reach_status status = check_length(length);
    if (status != REACH_OK) return (int)status;
    if (bone_count < 1 || bone_count >= REACH_WASM_MAX_JOINTS) return REACH_ERROR_INVALID_ARGUMENT;
    rig.joint_count = bone_count + 1;
    for (int i = 0; i < rig.joint_count; i++)
        rig.joints[i] = reach_vec3_make(length * (reach_real)i, 0, 0);
    return REACH_OK;
}

int reach_wasm_chain_set_bone_length(int bone, reach_real length) {
    reach_status status = check_length(length);
    if (status != REACH_OK) return (int)status;
    if (bone < 0 || bone >= rig.joint_count - 1) return REACH_ERROR_INVALID_ARGUMENT;
    reach_vec3 *joints = rig.joints;
    reach_vec3 old_end = joints[bone + 1];
    reach_vec3 direction = reach_vec3_normalize_safe(reach_vec3_sub(old_end, joints[bone]), reach_vec3_make(1, 0, 0));
    reach_vec3 new_end = reach_vec3_mad(joints[bone], direction, length);
    reach_vec3 shift = reach_vec3_sub(new_end, old_end);
    if (!reach_vec3_is_finite(shift)) return REACH_ERROR_OUT_OF_RANGE;
    for (int i = bone + 1; i < rig.joint_count; i++)
        joints[i] = reach_vec3_add(joints[i], shift);
    return REACH_OK;
}

reach_real reach_wasm_bone_length(int bone) {
    if (bone < 0 || bone >= rig.joint_count - 1) return 0;
    return reach_vec3_length(reach_vec3_sub(rig.joints[bone + 1], rig.joints[bone]));
}

int reach_wasm_iterations(void) { return last.iterations; }
reach_real reach_wasm_residual(void) { return last.residual; }
int reach_wasm_reached(void) { return last.reached; }
const reach_real *reach_wasm_alternative(void) { return last.has_alternative ? &last.alternative.x : 0; }

void reach_wasm_grid_place(int index, int count, reach_real spacing, reach_real *x, reach_real *y) {
    int side = 1;
    while (side * side < count)
        side++;
    reach_real half = spacing * (reach_real)(side - 1) / 2;
    *x = spacing * (reach_real)(index % side) - half;
    *y = spacing * (reach_real)(index / side) - half;
}

reach_real reach_wasm_spread(unsigned *state) {
    *state = *state * 1664525u + 1013904223u;
    return (reach_real)(*state >> 8) / (reach_real)(1u << 24);
}
