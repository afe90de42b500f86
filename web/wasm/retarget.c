/* A clip retargeted live (retarget.h): the page keeps a humanoid it showed as the source, then
 * hands over the source's pose frame by frame; each frame poses the model shown now, a character
 * of other names and proportions or a humanoid robot.
 *
 * The source is copied (the model shown changes when the next file is read); the target is the
 * model shown itself, so a retargeting belongs to the model it started on and a frame after
 * another model was read is refused. */
#include <string.h>

#include "reach_wasm.h"
#include "reach/retarget.h"

typedef struct source_bones {
    int count;
    int parents[REACH_WASM_MODEL_MAX_BONES];
    reach_transform rest[REACH_WASM_MODEL_MAX_BONES];
    reach_joint joints[REACH_WASM_MODEL_MAX_BONES];
    reach_humanoid roles;
} source_bones;

static source_bones source;
static reach_transform source_pose[REACH_WASM_MODEL_MAX_BONES];
static reach_transform target_pose[REACH_WASM_MODEL_MAX_BONES];
static reach_retarget *state;
static unsigned started_on;
static int bad_role = -1, bad_side = -1;
static reach_retarget_result last;
/* Room for a retargeting between two skeletons of the page's largest size; checked at start. */
static _Alignas(16) unsigned char memory[1 << 22];

int reach_wasm_retarget_keep_source(void) {
    reach_skeleton shown;
    reach_humanoid roles;
    if (!reach_wasm_model_shown(&shown, &roles)) return REACH_ERROR_BAD_CHAIN;
    source.count = shown.bone_count;
    memcpy(source.parents, shown.parents, sizeof(int) * (size_t)shown.bone_count);
    memcpy(source.rest, shown.rest, sizeof(reach_transform) * (size_t)shown.bone_count);
    memcpy(source.joints, shown.joints, sizeof(reach_joint) * (size_t)shown.bone_count);
    memcpy(source_pose, shown.rest, sizeof(reach_transform) * (size_t)shown.bone_count);
    source.roles = roles;
    state = NULL;
    return REACH_OK;
}

int reach_wasm_retarget_source_bone_count(void) { return source.count; }

int reach_wasm_retarget_source_bone(int bone, reach_real tx, reach_real ty, reach_real tz, reach_real qx, reach_real qy,
                                    reach_real qz, reach_real qw) {
    const reach_real numbers[] = {tx, ty, tz, qx, qy, qz, qw};
    if (bone < 0 || bone >= source.count) return REACH_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < 7; i++)
        if (!reach_is_finite(numbers[i])) return REACH_ERROR_NOT_FINITE;
    reach_real length = reach_sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    if (!(length > (reach_real)0.5)) return REACH_ERROR_INVALID_ARGUMENT;
    source_pose[bone] = reach_transform_make(reach_quat_make(qx / length, qy / length, qz / length, qw / length),
                                             reach_vec3_make(tx, ty, tz));
    return REACH_OK;
}

int reach_wasm_retarget_start(int robot) {
    bad_role = -1;
    bad_side = -1;
    state = NULL;
    if (source.count < 1) return REACH_ERROR_BAD_CHAIN;
    reach_skeleton target;
    reach_humanoid target_roles;
    if (!reach_wasm_model_shown(&target, &target_roles)) {
        /* The model shown is no humanoid: name the first role its names did not give. */
        bad_role = reach_wasm_model_missing_role();
        bad_side = 1;
        return REACH_ERROR_BAD_CHAIN;
    }
    reach_skeleton from = {source.count, source.parents, source.rest, source.joints};
    if (reach_retarget_memory_size(&from, &target) > sizeof memory) return REACH_ERROR_BUFFER_TOO_SMALL;
    reach_retarget_settings settings = reach_retarget_default_settings();
    if (robot) {
        settings.target_up = reach_vec3_make(0, 0, 1);
        settings.target_forward = reach_vec3_make(1, 0, 0);
    }
    reach_retarget *made = NULL;
    reach_status status = reach_retarget_init(&from, &source.roles, &target, &target_roles, &settings, memory,
                                              sizeof memory, &made, &bad_role, &bad_side);
    if (status != REACH_OK) return (int)status;
    state = made;
    started_on = reach_wasm_model_generation();
    memset(&last, 0, sizeof last);
    return REACH_OK;
}

int reach_wasm_retarget_bad_role(void) { return bad_role; }
int reach_wasm_retarget_bad_side(void) { return bad_side; }

int reach_wasm_retarget_frame(reach_real dt) {
    if (!state || started_on != reach_wasm_model_generation()) return REACH_ERROR_BAD_CHAIN;
    reach_retarget_result result;
    reach_status status = reach_retarget_frame(state, source_pose, dt, target_pose, &result);
    if (status != REACH_OK) return (int)status;
    reach_transform *pose = reach_wasm_model_pose();
    memcpy(pose, target_pose, sizeof(reach_transform) * (size_t)reach_retarget_target_skeleton(state)->bone_count);
    reach_wasm_model_posed();
    last = result;
    reach_wasm_result report = {result.body.iterations, result.body.residual, result.reached, 0, reach_vec3_zero()};
    reach_wasm_report(&report);
    return REACH_OK;
}

int reach_wasm_retarget_planted(int side) { return side == 0 || side == 1 ? last.planted[side] : 0; }

reach_real reach_wasm_retarget_leg_scale(void) {
    reach_real scale = 0;
    if (state) reach_retarget_measures(state, &scale, NULL, NULL);
    return scale;
}
