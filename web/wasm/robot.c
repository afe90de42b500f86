/* The robot arm on the page: a UR5 built from its Denavit–Hartenberg table (reach/dh.h), whose
 * tool the Jacobian solver moves onto the page's target, in position and, when asked, in
 * orientation. Units are metres and radians, z up, the robot's base at the origin. The page
 * reads flat copies of the joint frames, the joint values and the goal frame. */
#include "reach_wasm.h"
#include "reach/dh.h"
#include "reach/jacobian.h"

#define JOINTS      6
#define BONES       (JOINTS + 1) /* the six joints and the flange */
#define FRAME_REALS 12           /* origin, then the x, y and z axes */

/* UR5, standard DH as Universal Robots publishes it; every joint turns ±2π. */
static const reach_real dh_a[JOINTS] = {0, REACH_R(-0.425), REACH_R(-0.39225), 0, 0, 0};
static const reach_real dh_alpha[JOINTS] = {REACH_PI / 2, 0, 0, REACH_PI / 2, -REACH_PI / 2, 0};
static const reach_real dh_d[JOINTS] = {REACH_R(0.089159), 0, 0, REACH_R(0.10915), REACH_R(0.09465), REACH_R(0.0823)};

/* Where the page starts: elbow up, the tool pointing straight down in front of the robot. */
static const reach_real ready[JOINTS] = {0, REACH_R(-1.2), REACH_R(1.6), REACH_R(-1.97), -REACH_PI / 2, 0};

static int parents[BONES];
static reach_transform rest[BONES];
static reach_joint limits[BONES];
static reach_skeleton arm;
static reach_transform pose[BONES];
static reach_quat home_tool; /* the tool's world rotation in the ready pose */
static reach_real frames[BONES * FRAME_REALS];
static reach_real values[JOINTS];
static reach_real goal[FRAME_REALS];
static reach_real angle_residual;
/* The arm needs about 5 KiB; checked before every solve. */
static _Alignas(16) unsigned char scratch[1 << 14];

static void write_frame(reach_real *out, reach_vec3 origin, reach_quat rotation) {
    reach_vec3 axes[4] = {origin, reach_quat_rotate(rotation, reach_vec3_make(1, 0, 0)),
                          reach_quat_rotate(rotation, reach_vec3_make(0, 1, 0)),
                          reach_quat_rotate(rotation, reach_vec3_make(0, 0, 1))};
    for (int i = 0; i < 4; i++) {
        out[3 * i] = axes[i].x;
        out[3 * i + 1] = axes[i].y;
        out[3 * i + 2] = axes[i].z;
    }
}

/* Bone i's frame is DH frame i: its joint turns about its z axis through its origin. */
static void publish(void) {
    reach_transform world[BONES];
    reach_forward_kinematics(&arm, pose, world);
    for (int i = 0; i < BONES; i++)
        write_frame(&frames[i * FRAME_REALS], world[i].translation, world[i].rotation);
    reach_pose_get_values(&arm, pose, values);
}

int reach_wasm_robot_start(void) {
    reach_dh_row rows[JOINTS];
    for (int i = 0; i < JOINTS; i++) {
        rows[i] = reach_dh_default_row();
        rows[i].a = dh_a[i];
        rows[i].alpha = dh_alpha[i];
        rows[i].d = dh_d[i];
        rows[i].min = -2 * REACH_PI;
        rows[i].max = 2 * REACH_PI;
    }
    reach_dh_table table = {REACH_DH_STANDARD, JOINTS, rows, 0};
    reach_status status = reach_dh_build(&table, parents, rest, limits, BONES, &arm, 0);
    if (status != REACH_OK) return (int)status;
    reach_pose_rest(&arm, pose);
    status = reach_pose_set_values(&arm, ready, JOINTS, 0, pose);
    if (status != REACH_OK) return (int)status;
    reach_transform world[BONES];
    reach_forward_kinematics(&arm, pose, world);
    home_tool = world[JOINTS].rotation;
    write_frame(goal, world[JOINTS].translation, home_tool);
    publish();
    reach_wasm_result result = {0, 0, 1, 0, reach_vec3_zero()};
    reach_wasm_report(&result);
    angle_residual = 0;
    return REACH_OK;
}

int reach_wasm_robot_set_values(reach_real q1, reach_real q2, reach_real q3, reach_real q4, reach_real q5,
                                reach_real q6) {
    if (arm.bone_count == 0) return REACH_ERROR_INVALID_ARGUMENT;
    const reach_real q[JOINTS] = {q1, q2, q3, q4, q5, q6};
    reach_status status = reach_pose_set_values(&arm, q, JOINTS, 0, pose);
    if (status == REACH_OK) publish();
    return (int)status;
}

/* The goal orientation: the ready pose's (tool straight down), tilted about the world x axis
 * and then turned about the vertical. */
static reach_quat goal_rotation(reach_real turn, reach_real tilt) {
    reach_quat about_z = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), turn);
    reach_quat about_x = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), tilt);
    return reach_quat_mul(about_z, reach_quat_mul(about_x, home_tool));
}

int reach_wasm_robot_solve(reach_real target_x, reach_real target_y, reach_real target_z, int use_orientation,
                           reach_real turn, reach_real tilt, int method, int max_iterations) {
    if (arm.bone_count == 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(turn) || !reach_is_finite(tilt)) return REACH_ERROR_NOT_FINITE;
    if (reach_fabs(turn) > REACH_PI || reach_fabs(tilt) > REACH_PI / 2) return REACH_ERROR_INVALID_ARGUMENT;
    if (method < REACH_JACOBIAN_TRANSPOSE || method > REACH_JACOBIAN_SDLS) return REACH_ERROR_INVALID_ARGUMENT;
    if (max_iterations < 1) return REACH_ERROR_INVALID_ARGUMENT;
    if (reach_jacobian_scratch_size(&arm, 1) > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;

    reach_quat rotation = goal_rotation(turn, tilt);
    reach_target target = reach_target_position(JOINTS, reach_vec3_make(target_x, target_y, target_z));
    target.use_orientation = use_orientation != 0;
    target.orientation = rotation;
    reach_solver_settings settings = reach_solver_default_settings();
    settings.jacobian_method = (reach_jacobian_method)method;
    settings.max_iterations = max_iterations;
    /* Position alone leaves three degrees of freedom free; pulling them toward the zero pose
     * (the arm stretched out flat) would swing the wrist about while the user drags, so the
     * wrist keeps what it has. */
    settings.null_space = use_orientation != 0;
    reach_solve_result solved;
    reach_status status = reach_jacobian_solve(&arm, &target, 1, &settings, pose, scratch, sizeof scratch, &solved);
    if (status != REACH_OK) return (int)status;

    write_frame(goal, target.position, rotation);
    publish();
    reach_wasm_result result = {solved.iterations, solved.residual, solved.reached, 0, reach_vec3_zero()};
    reach_wasm_report(&result);
    angle_residual = use_orientation ? solved.angle_residual : 0;
    return REACH_OK;
}

int reach_wasm_robot_joint_count(void) { return arm.bone_count == 0 ? 0 : JOINTS; }
const reach_real *reach_wasm_robot_frames(void) { return frames; }
const reach_real *reach_wasm_robot_values(void) { return values; }
const reach_real *reach_wasm_robot_goal(void) { return goal; }
reach_real reach_wasm_robot_angle_residual(void) { return angle_residual; }
