/* A skeleton the user dropped on the page (a URDF robot, a glTF, FBX or BVH character), handed
 * over bone by bone, and its solves: one effector on any solver (a robot's tool, 3-D or 6-D),
 * or the whole body of a humanoid (full_body.h) with a look-at.
 *
 * The page writes a new skeleton into staging arrays (begin, bone, joint, mimic, name) and
 * commits it with finish, which validates it first: a file that does not make a valid skeleton
 * leaves the skeleton already shown, its pose and the report as they were. */
#include <string.h>

#include "reach_wasm.h"
#include "reach/ccd.h"
#include "reach/fabrik.h"
#include "reach/full_body.h"
#include "reach/jacobian.h"

_Static_assert(sizeof(reach_transform) == 7 * sizeof(reach_real), "the page views transforms as 7 packed reals");

typedef struct model_bones {
    int count;
    int parents[REACH_WASM_MODEL_MAX_BONES];
    reach_transform rest[REACH_WASM_MODEL_MAX_BONES];
    reach_joint joints[REACH_WASM_MODEL_MAX_BONES];
    reach_joint given_joints[REACH_WASM_MODEL_MAX_BONES]; /* before natural limits */
    char names[REACH_WASM_MODEL_MAX_BONES][REACH_WASM_MODEL_NAME_SIZE];
} model_bones;

static model_bones staged, model;
static reach_transform local[REACH_WASM_MODEL_MAX_BONES];
static reach_transform world[REACH_WASM_MODEL_MAX_BONES];
static reach_real values[REACH_WASM_MODEL_MAX_BONES];
static reach_humanoid humanoid;
static int is_humanoid;
static int missing_role = -1;
static unsigned generation;
static reach_full_body_targets body_targets;
static reach_real angle_residual;
static int bad_bone = -1;
static char name_buffer[REACH_WASM_MODEL_NAME_SIZE];
/* Room for a full-body solve of the largest skeleton the page takes; checked before each solve. */
static _Alignas(16) unsigned char scratch[1 << 21];

static reach_skeleton skeleton_of(const model_bones *bones) {
    reach_skeleton skeleton = {bones->count, bones->parents, bones->rest, bones->joints};
    return skeleton;
}

static int finite_all(const reach_real *values_in, int count) {
    for (int i = 0; i < count; i++)
        if (!reach_is_finite(values_in[i])) return 0;
    return 1;
}

/* A rotation the page passed, made unit; 0 for one too short to mean a rotation. */
static int unit_rotation(reach_real x, reach_real y, reach_real z, reach_real w, reach_quat *out) {
    reach_real length = reach_sqrt(x * x + y * y + z * z + w * w);
    if (!(length > (reach_real)0.5)) return 0;
    *out = reach_quat_make(x / length, y / length, z / length, w / length);
    return 1;
}

static int staged_bone(int bone) { return bone >= 0 && bone < staged.count; }

int reach_wasm_model_begin(int bone_count) {
    if (bone_count < 1 || bone_count > REACH_WASM_MODEL_MAX_BONES) return REACH_ERROR_INVALID_ARGUMENT;
    staged.count = bone_count;
    for (int i = 0; i < bone_count; i++) {
        staged.parents[i] = i - 1;
        staged.rest[i] = reach_transform_identity();
        staged.joints[i] = reach_joint_ball();
        staged.names[i][0] = '\0';
    }
    return REACH_OK;
}

int reach_wasm_model_bone(int bone, int parent, reach_real tx, reach_real ty, reach_real tz, reach_real qx,
                          reach_real qy, reach_real qz, reach_real qw) {
    const reach_real numbers[] = {tx, ty, tz, qx, qy, qz, qw};
    if (!staged_bone(bone) || parent < -1 || parent >= bone) return REACH_ERROR_BAD_PARENT;
    if (!finite_all(numbers, 7)) return REACH_ERROR_NOT_FINITE;
    reach_quat rotation;
    if (!unit_rotation(qx, qy, qz, qw, &rotation)) return REACH_ERROR_INVALID_ARGUMENT;
    staged.parents[bone] = parent;
    staged.rest[bone] = reach_transform_make(rotation, reach_vec3_make(tx, ty, tz));
    return REACH_OK;
}

int reach_wasm_model_joint(int bone, int type, reach_real ax, reach_real ay, reach_real az, reach_real min,
                           reach_real max) {
    const reach_real numbers[] = {ax, ay, az, min, max};
    if (!staged_bone(bone)) return REACH_ERROR_INVALID_ARGUMENT;
    if (!finite_all(numbers, 5)) return REACH_ERROR_NOT_FINITE;
    reach_vec3 axis = reach_vec3_make(ax, ay, az);
    int needs_axis = type == REACH_JOINT_HINGE || type == REACH_JOINT_PRISMATIC || type == REACH_JOINT_CONE;
    if (needs_axis && !(reach_vec3_length(axis) > 0)) return REACH_ERROR_INVALID_ARGUMENT;
    if (needs_axis) axis = reach_vec3_scale(axis, 1 / reach_vec3_length(axis));
    switch (type) {
    case REACH_JOINT_BALL: staged.joints[bone] = reach_joint_ball(); break;
    case REACH_JOINT_FIXED: staged.joints[bone] = reach_joint_fixed(); break;
    case REACH_JOINT_HINGE:
    case REACH_JOINT_PRISMATIC:
        if (!(min <= max)) return REACH_ERROR_INVALID_ARGUMENT;
        staged.joints[bone] =
            type == REACH_JOINT_HINGE ? reach_joint_hinge(axis, min, max) : reach_joint_prismatic(axis, min, max);
        break;
    case REACH_JOINT_CONE:
        if (!(max >= 0) || max > REACH_PI) return REACH_ERROR_INVALID_ARGUMENT;
        staged.joints[bone] = reach_joint_cone(axis, max);
        break;
    default: return REACH_ERROR_INVALID_ARGUMENT;
    }
    return REACH_OK;
}

int reach_wasm_model_mimic(int bone, int leader, reach_real multiplier, reach_real offset) {
    if (!staged_bone(bone) || !staged_bone(leader)) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(multiplier) || !reach_is_finite(offset)) return REACH_ERROR_NOT_FINITE;
    staged.joints[bone] = reach_joint_mimic(staged.joints[bone], leader, multiplier, offset);
    return REACH_OK;
}

char *reach_wasm_model_name_buffer(void) { return name_buffer; }

int reach_wasm_model_name(int bone) {
    if (!staged_bone(bone)) return REACH_ERROR_INVALID_ARGUMENT;
    if (memchr(name_buffer, '\0', sizeof name_buffer) == NULL) return REACH_ERROR_INVALID_ARGUMENT;
    memcpy(staged.names[bone], name_buffer, sizeof name_buffer);
    return REACH_OK;
}

static void refresh(void) {
    reach_skeleton skeleton = skeleton_of(&model);
    reach_forward_kinematics(&skeleton, local, world);
    reach_pose_get_values(&skeleton, local, values);
}

int reach_wasm_model_finish(int natural_limits) {
    reach_skeleton skeleton = skeleton_of(&staged);
    bad_bone = -1;
    reach_status status = reach_skeleton_validate(&skeleton, &bad_bone);
    if (status != REACH_OK) return (int)status;
    const char *names[REACH_WASM_MODEL_MAX_BONES];
    for (int i = 0; i < staged.count; i++)
        names[i] = staged.names[i][0] ? staged.names[i] : NULL;
    reach_humanoid found;
    int missing = -1;
    int found_humanoid = reach_humanoid_find(&skeleton, names, &found, &missing) == REACH_OK;
    memcpy(staged.given_joints, staged.joints, sizeof(reach_joint) * (size_t)staged.count);
    if (found_humanoid && natural_limits) {
        status = reach_humanoid_natural_joints(&skeleton, &found, staged.joints);
        if (status != REACH_OK) return (int)status;
    }
    model = staged;
    humanoid = found;
    is_humanoid = found_humanoid;
    missing_role = found_humanoid ? -1 : missing;
    generation++;
    body_targets = reach_full_body_no_targets();
    return reach_wasm_model_rest();
}

int reach_wasm_model_rest(void) {
    if (model.count < 1) return REACH_ERROR_BAD_CHAIN;
    reach_skeleton skeleton = skeleton_of(&model);
    reach_pose_rest(&skeleton, local);
    refresh();
    angle_residual = 0;
    reach_wasm_result result = {0, 0, 1, 0, reach_vec3_zero()};
    reach_wasm_report(&result);
    return REACH_OK;
}

int reach_wasm_model_middle(void) {
    if (model.count < 1) return REACH_ERROR_BAD_CHAIN;
    reach_skeleton skeleton = skeleton_of(&model);
    reach_real middle[REACH_WASM_MODEL_MAX_BONES];
    int count = 0;
    for (int b = 0; b < model.count; b++)
        if (reach_joint_has_value(model.joints[b].type))
            middle[count++] = (model.joints[b].min + model.joints[b].max) / 2;
    reach_pose_rest(&skeleton, local);
    /* Clamped: a mimic follower's derived value may lie outside its own range. */
    reach_status status = reach_pose_set_values(&skeleton, middle, count, 1, local);
    if (status != REACH_OK) return (int)status;
    refresh();
    angle_residual = 0;
    reach_wasm_result result = {0, 0, 1, 0, reach_vec3_zero()};
    reach_wasm_report(&result);
    return REACH_OK;
}

int reach_wasm_model_set_local(int bone, reach_real tx, reach_real ty, reach_real tz, reach_real qx, reach_real qy,
                               reach_real qz, reach_real qw) {
    const reach_real numbers[] = {tx, ty, tz, qx, qy, qz, qw};
    if (bone < 0 || bone >= model.count) return REACH_ERROR_INVALID_ARGUMENT;
    if (!finite_all(numbers, 7)) return REACH_ERROR_NOT_FINITE;
    reach_quat rotation;
    if (!unit_rotation(qx, qy, qz, qw, &rotation)) return REACH_ERROR_INVALID_ARGUMENT;
    local[bone] = reach_transform_make(rotation, reach_vec3_make(tx, ty, tz));
    refresh();
    return REACH_OK;
}

int reach_wasm_model_bad_bone(void) { return bad_bone; }
int reach_wasm_model_bone_count(void) { return model.count; }
const reach_real *reach_wasm_model_local(void) { return &local[0].rotation.x; }
const reach_real *reach_wasm_model_world(void) { return &world[0].rotation.x; }
int reach_wasm_model_value_count(void) {
    reach_skeleton skeleton = skeleton_of(&model);
    return model.count ? reach_skeleton_value_count(&skeleton) : 0;
}
const reach_real *reach_wasm_model_values(void) { return values; }
int reach_wasm_model_is_humanoid(void) { return is_humanoid; }
int reach_wasm_model_humanoid_bone(int role) {
    return is_humanoid && role >= 0 && role < REACH_ROLE_COUNT ? humanoid.bones[role] : -1;
}
reach_real reach_wasm_model_angle_residual(void) { return angle_residual; }
int reach_wasm_model_missing_role(void) { return missing_role; }
const char *reach_wasm_role_name(int role) {
    const char *name = reach_humanoid_role_name((reach_humanoid_role)role);
    return name ? name : "";
}

int reach_wasm_model_shown(reach_skeleton *as_given, reach_humanoid *roles) {
    reach_skeleton given = {model.count, model.parents, model.rest, model.given_joints};
    *as_given = given;
    *roles = humanoid;
    return model.count > 0 && is_humanoid;
}
unsigned reach_wasm_model_generation(void) { return generation; }
reach_transform *reach_wasm_model_pose(void) { return local; }
void reach_wasm_model_posed(void) { refresh(); }

int reach_wasm_model_solve(int effector, reach_real tx, reach_real ty, reach_real tz, int use_orientation,
                           reach_real qx, reach_real qy, reach_real qz, reach_real qw, int solver, int max_iterations) {
    const reach_real numbers[] = {tx, ty, tz, qx, qy, qz, qw};
    if (effector < 0 || effector >= model.count) return REACH_ERROR_INVALID_ARGUMENT;
    if (!finite_all(numbers, 7)) return REACH_ERROR_NOT_FINITE;
    if (solver < 0 || solver > REACH_WASM_MODEL_CCD || max_iterations < 1) return REACH_ERROR_INVALID_ARGUMENT;
    reach_skeleton skeleton = skeleton_of(&model);
    reach_target target = reach_target_position(effector, reach_vec3_make(tx, ty, tz));
    if (use_orientation) {
        if (!unit_rotation(qx, qy, qz, qw, &target.orientation)) return REACH_ERROR_INVALID_ARGUMENT;
        target.use_orientation = 1;
    }
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = max_iterations;
    /* Without an orientation to meet, the free degrees of freedom would be pulled toward the
     * rest pose and swing the tool about while the user drags (as robot.c says). */
    settings.null_space = use_orientation;
    reach_transform next[REACH_WASM_MODEL_MAX_BONES];
    memcpy(next, local, sizeof(reach_transform) * (size_t)model.count);
    reach_solve_result solved;
    reach_status status;
    if (solver == REACH_WASM_MODEL_FABRIK || solver == REACH_WASM_MODEL_CCD) {
        int fabrik = solver == REACH_WASM_MODEL_FABRIK;
        size_t need = fabrik ? reach_fabrik_scratch_size(&skeleton, 1) : reach_ccd_scratch_size(&skeleton, 1);
        if (need > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
        status = fabrik ? reach_fabrik_solve(&skeleton, &target, 1, &settings, next, scratch, sizeof scratch, &solved)
                        : reach_ccd_solve(&skeleton, &target, 1, &settings, next, scratch, sizeof scratch, &solved);
        /* They turn mimic followers as joints of their own: couple them again (skeleton.h). */
        if (status == REACH_OK) reach_pose_apply_mimic(&skeleton, next);
    } else {
        settings.jacobian_method = (reach_jacobian_method)solver;
        if (reach_jacobian_scratch_size(&skeleton, 1) > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
        status = reach_jacobian_solve(&skeleton, &target, 1, &settings, next, scratch, sizeof scratch, &solved);
    }
    if (status != REACH_OK) return (int)status;
    memcpy(local, next, sizeof(reach_transform) * (size_t)model.count);
    refresh();
    angle_residual = use_orientation ? solved.angle_residual : 0;
    reach_wasm_result result = {solved.iterations, solved.residual, solved.reached, 0, reach_vec3_zero()};
    reach_wasm_report(&result);
    return REACH_OK;
}

int reach_wasm_model_body_target(int part, int use, reach_real x, reach_real y, reach_real z) {
    if (part < 0 || part >= REACH_BODY_PART_COUNT) return REACH_ERROR_INVALID_ARGUMENT;
    const reach_real numbers[] = {x, y, z};
    if (!finite_all(numbers, 3)) return REACH_ERROR_NOT_FINITE;
    body_targets.parts[part].use_position = use != 0;
    body_targets.parts[part].position = reach_vec3_make(x, y, z);
    return REACH_OK;
}

int reach_wasm_model_body_look_at(int use, reach_real x, reach_real y, reach_real z) {
    const reach_real numbers[] = {x, y, z};
    if (!finite_all(numbers, 3)) return REACH_ERROR_NOT_FINITE;
    body_targets.use_look_at = use != 0;
    body_targets.look_at = reach_vec3_make(x, y, z);
    return REACH_OK;
}

int reach_wasm_model_body_solve(int max_iterations) {
    if (!is_humanoid) return REACH_ERROR_BAD_CHAIN;
    if (max_iterations < 1) return REACH_ERROR_INVALID_ARGUMENT;
    reach_skeleton skeleton = skeleton_of(&model);
    if (reach_full_body_scratch_size(&skeleton) > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
    reach_full_body_settings settings = reach_full_body_default_settings();
    settings.max_iterations = max_iterations;
    reach_full_body_result solved;
    reach_status status =
        reach_full_body_solve(&skeleton, &humanoid, &body_targets, &settings, local, scratch, sizeof scratch, &solved);
    if (status != REACH_OK) return (int)status;
    refresh();
    angle_residual = solved.angle_residual;
    reach_wasm_result result = {solved.iterations, solved.residual, solved.reached, 0, reach_vec3_zero()};
    reach_wasm_report(&result);
    return REACH_OK;
}
