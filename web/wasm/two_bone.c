/* The two-bone solvers on the page's three-joint rig. */
#include "reach_wasm.h"

static reach_two_bone_settings options_with_soft(reach_real soft_distance) {
    reach_two_bone_settings options = reach_two_bone_default_settings();
    options.soft_distance = soft_distance;
    options.rotations = 0; /* the page draws joint positions only */
    return options;
}

/* The side of the root→target line the pole is on; a pole on the line says nothing, and the
 * mid joint stays on the side of the root→end line it is on now. */
static reach_bend bend_toward_pole(reach_vec2 root, reach_vec2 mid, reach_vec2 end, reach_vec2 target,
                                   reach_vec2 pole) {
    reach_real side = reach_vec2_cross(reach_vec2_sub(target, root), reach_vec2_sub(pole, root));
    if (side != 0) return side > 0 ? REACH_BEND_CCW : REACH_BEND_CW;
    return reach_vec2_cross(reach_vec2_sub(end, root), reach_vec2_sub(mid, root)) < 0 ? REACH_BEND_CW : REACH_BEND_CCW;
}

int reach_wasm_two_bone_2d(reach_real target_x, reach_real target_y, reach_real pole_x, reach_real pole_y,
                           reach_real soft_distance) {
    reach_wasm_rig *rig = reach_wasm_rig_get();
    if (rig->joint_count != 3) return REACH_ERROR_BAD_CHAIN;
    /* The library checks the target; the pole only picks a side here, so it is checked here. */
    if (!reach_is_finite(pole_x) || !reach_is_finite(pole_y)) return REACH_ERROR_NOT_FINITE;
    reach_vec3 *joints = rig->joints;
    reach_two_bone_2d_input in;
    in.root = reach_vec2_make(joints[0].x, joints[0].y);
    in.mid = reach_vec2_make(joints[1].x, joints[1].y);
    in.end = reach_vec2_make(joints[2].x, joints[2].y);
    in.target = reach_vec2_make(target_x, target_y);
    in.bend = bend_toward_pole(in.root, in.mid, in.end, in.target, reach_vec2_make(pole_x, pole_y));
    reach_two_bone_settings options = options_with_soft(soft_distance);
    reach_two_bone_2d_output out;
    reach_status status = reach_two_bone_solve_2d(&in, &options, &out);
    if (status != REACH_OK) return (int)status;

    joints[1] = reach_vec3_make(out.mid.x, out.mid.y, 0);
    joints[2] = reach_vec3_make(out.end.x, out.end.y, 0);
    reach_wasm_result result = {0, out.residual, out.reached, 1,
                                reach_vec3_make(out.mid_mirror.x, out.mid_mirror.y, 0)};
    reach_wasm_report(&result);
    return REACH_OK;
}

int reach_wasm_two_bone_3d(reach_real target_x, reach_real target_y, reach_real target_z, reach_real pole_x,
                           reach_real pole_y, reach_real pole_z, reach_real soft_distance) {
    reach_wasm_rig *rig = reach_wasm_rig_get();
    if (rig->joint_count != 3) return REACH_ERROR_BAD_CHAIN;
    reach_vec3 *joints = rig->joints;
    reach_two_bone_input in;
    in.root = joints[0];
    in.mid = joints[1];
    in.end = joints[2];
    in.target = reach_vec3_make(target_x, target_y, target_z);
    in.pole = reach_vec3_make(pole_x, pole_y, pole_z);
    in.use_pole = 1;
    reach_two_bone_settings options = options_with_soft(soft_distance);
    reach_two_bone_output out;
    reach_status status = reach_two_bone_solve(&in, &options, &out);
    if (status != REACH_OK) return (int)status;

    joints[1] = out.mid;
    joints[2] = out.end;
    reach_wasm_result result = {0, out.residual, out.reached, 0, reach_vec3_zero()};
    reach_wasm_report(&result);
    return REACH_OK;
}
