/* Defaults for what the iterative solvers share. */
#include "settings_internal.h"

reach_target reach_target_position(int bone, reach_vec3 position) {
    reach_target t;
    t.kind = REACH_TARGET_POSITION;
    t.bone = bone;
    t.position = position;
    t.orientation = reach_quat_identity();
    t.use_orientation = 0;
    t.meet_bone = -1;
    t.weight = 1;
    return t;
}

reach_target reach_target_meet(int bone, int other_bone) {
    reach_target t = reach_target_position(bone, reach_vec3_zero());
    t.kind = REACH_TARGET_MEET;
    t.meet_bone = other_bone;
    return t;
}

reach_solver_settings reach_solver_default_settings(void) {
    reach_solver_settings s;
    s.max_iterations = 64;
    s.tolerance = 0;
    s.angle_tolerance = REACH_R(1e-4);
    s.root_bone = -1;
    s.fabrik_move_root = 0;
    s.ccd_max_step = 0;
    s.jacobian_method = REACH_JACOBIAN_DLS;
    s.damping = 0;
    s.null_space = 1;
    s.restarts = 0;
    s.seed = 0x5eed;
    s.made_by_defaults = REACH__SETTINGS_TAG;
    return s;
}

reach_status reach__solver_settings_resolve(const reach_solver_settings *settings, reach_solver_settings *out) {
    if (!settings) {
        *out = reach_solver_default_settings();
        return REACH_OK;
    }
    if (settings->made_by_defaults != REACH__SETTINGS_TAG) return REACH_ERROR_SETTINGS_NOT_INITIALIZED;
    *out = *settings;
    return REACH_OK;
}
