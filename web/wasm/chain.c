/* The iterative solvers (FABRIK, CCD, the Jacobian family) on the page's chain. The rig's joints
 * become a skeleton with one bone per joint (the last one the tip, whose joint is the end
 * effector), posed so that each bone points at the next joint; the solver moves that pose, and
 * forward kinematics gives the joints back. The rig's joints stay the only state, so each solve
 * starts from the last. */
#include "reach_wasm.h"
#include "reach/ccd.h"
#include "reach/fabrik.h"
#include "reach/jacobian.h"

typedef size_t (*scratch_size_fn)(const reach_skeleton *skeleton, int target_count);
typedef reach_status (*skeleton_solve_fn)(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                          const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                                          size_t scratch_size, reach_solve_result *result);

static int parents[REACH_WASM_MAX_JOINTS];
static reach_transform rest[REACH_WASM_MAX_JOINTS];
static reach_transform pose[REACH_WASM_MAX_JOINTS];
static reach_transform world[REACH_WASM_MAX_JOINTS];
static reach_joint limits[REACH_WASM_MAX_JOINTS];
/* Far more than any of the solvers asks for the longest chain; checked before every solve. */
static _Alignas(16) unsigned char scratch[1 << 16];

/* Bone k lies along its own +x axis from joint k to joint k + 1. */
static const reach_vec3 BONE_AXIS = {1, 0, 0};

/* What differs between the solvers: how to size and run them, and their settings. */
typedef struct chain_solver {
    scratch_size_fn scratch_size;
    skeleton_solve_fn solve;
    reach_solver_settings settings;
} chain_solver;

static reach_joint joint_for(int bone, int bone_count, int dimensions, reach_real limit) {
    const reach_vec3 z = {0, 0, 1};
    if (bone == bone_count - 1) return reach_joint_fixed(); /* the tip only marks the end */
    if (dimensions == 2) {
        /* A free hinge (the root, or any joint without a bend limit) spans a whole turn, which
         * every solver takes as no limit (the Jacobian methods wrap it rather than clamp). */
        reach_real range = bone == 0 || limit >= REACH_PI ? REACH_PI : limit;
        return reach_joint_hinge(z, -range, range);
    }
    return bone == 0 || limit >= REACH_PI ? reach_joint_ball() : reach_joint_cone(BONE_AXIS, limit);
}

/* Builds the skeleton and its pose from the rig: rest translations carry the bone lengths,
 * local rotations the present shape (world rotation of bone k: the shortest arc from +x to its
 * direction, which for a chain in the z = 0 plane is a turn about z). */
static reach_skeleton skeleton_from_rig(int dimensions, reach_real limit) {
    const reach_wasm_rig *rig = reach_wasm_rig_get();
    int bones = rig->joint_count;
    reach_quat parent_world = reach_quat_identity();
    for (int k = 0; k < bones; k++) {
        parents[k] = k - 1;
        reach_vec3 translation =
            k == 0 ? rig->joints[0]
                   : reach_vec3_make(reach_vec3_length(reach_vec3_sub(rig->joints[k], rig->joints[k - 1])), 0, 0);
        reach_quat own_world = parent_world;
        if (k < bones - 1) {
            reach_vec3 direction = reach_vec3_normalize_safe(reach_vec3_sub(rig->joints[k + 1], rig->joints[k]),
                                                             reach_quat_rotate(parent_world, BONE_AXIS));
            own_world = reach_quat_shortest_arc(BONE_AXIS, direction);
        }
        rest[k] = reach_transform_make(reach_quat_identity(), translation);
        pose[k] = reach_transform_make(reach_quat_mul(reach_quat_conjugate(parent_world), own_world), translation);
        limits[k] = joint_for(k, bones, dimensions, limit);
        parent_world = own_world;
    }
    reach_skeleton skeleton = {bones, parents, rest, limits};
    return skeleton;
}

static int solve_chain(const chain_solver *solver, reach_vec3 target, int dimensions, reach_real limit,
                       int max_iterations) {
    reach_wasm_rig *rig = reach_wasm_rig_get();
    if (rig->joint_count < 2) return REACH_ERROR_BAD_CHAIN;
    if (dimensions != 2 && dimensions != 3) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(limit)) return REACH_ERROR_NOT_FINITE;
    if (!(limit > 0) || limit > REACH_PI || max_iterations < 1) return REACH_ERROR_INVALID_ARGUMENT;
    if (dimensions == 2) target.z = 0;

    reach_skeleton skeleton = skeleton_from_rig(dimensions, limit);
    if (solver->scratch_size(&skeleton, 1) > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
    reach_target goal = reach_target_position(skeleton.bone_count - 1, target);
    reach_solver_settings settings = solver->settings;
    settings.max_iterations = max_iterations;
    reach_solve_result solved;
    reach_status status = solver->solve(&skeleton, &goal, 1, &settings, pose, scratch, sizeof scratch, &solved);
    if (status != REACH_OK) return (int)status;

    reach_forward_kinematics(&skeleton, pose, world);
    for (int k = 0; k < rig->joint_count; k++)
        rig->joints[k] = world[k].translation;
    reach_wasm_result result = {solved.iterations, solved.residual, solved.reached, 0, reach_vec3_zero()};
    reach_wasm_report(&result);
    return REACH_OK;
}

static chain_solver solver_of(scratch_size_fn scratch_size, skeleton_solve_fn solve) {
    chain_solver solver = {scratch_size, solve, reach_solver_default_settings()};
    return solver;
}

int reach_wasm_fabrik(reach_real target_x, reach_real target_y, reach_real target_z, int dimensions, reach_real limit,
                      int max_iterations) {
    chain_solver solver = solver_of(reach_fabrik_scratch_size, reach_fabrik_solve);
    return solve_chain(&solver, reach_vec3_make(target_x, target_y, target_z), dimensions, limit, max_iterations);
}

int reach_wasm_ccd(reach_real target_x, reach_real target_y, reach_real target_z, int dimensions, reach_real limit,
                   int max_iterations) {
    chain_solver solver = solver_of(reach_ccd_scratch_size, reach_ccd_solve);
    return solve_chain(&solver, reach_vec3_make(target_x, target_y, target_z), dimensions, limit, max_iterations);
}

int reach_wasm_jacobian(reach_real target_x, reach_real target_y, reach_real target_z, int dimensions, reach_real limit,
                        int max_iterations, int method) {
    if (method < REACH_JACOBIAN_TRANSPOSE || method > REACH_JACOBIAN_SDLS) return REACH_ERROR_INVALID_ARGUMENT;
    chain_solver solver = solver_of(reach_jacobian_scratch_size, reach_jacobian_solve);
    solver.settings.jacobian_method = (reach_jacobian_method)method;
    return solve_chain(&solver, reach_vec3_make(target_x, target_y, target_z), dimensions, limit, max_iterations);
}
