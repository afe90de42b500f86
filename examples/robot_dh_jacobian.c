/* A UR5 robot arm built from its Denavit-Hartenberg table, reaching a full 6-D tool pose
 * (position and orientation) with the Jacobian solver. The goal is the tool pose of known joint
 * values, so it is reachable; the solve starts from other values and must land the tool on the
 * goal within 0.1 mm and 1 mrad, checked by forward kinematics of the joint values it returns. */
#include <stdio.h>
#include <stdlib.h>

#include "reach/reach.h"

int main(void) {
    /* Universal Robots' published table (standard DH, metres and radians); every joint ±2π. */
    const reach_real a[6] = {0, REACH_R(-0.425), REACH_R(-0.39225), 0, 0, 0};
    const reach_real d[6] = {REACH_R(0.089159), 0, 0, REACH_R(0.10915), REACH_R(0.09465), REACH_R(0.0823)};
    const reach_real alpha[6] = {REACH_PI / 2, 0, 0, REACH_PI / 2, -REACH_PI / 2, 0};
    reach_dh_row rows[6];
    for (int i = 0; i < 6; i++) {
        rows[i] = reach_dh_default_row(); /* revolute, no offsets */
        rows[i].a = a[i];
        rows[i].d = d[i];
        rows[i].alpha = alpha[i];
        rows[i].min = -2 * REACH_PI;
        rows[i].max = 2 * REACH_PI;
    }
    reach_dh_table table = {REACH_DH_STANDARD, 6, rows, NULL};

    /* Six joints make seven bones: bone 6 is the tool flange. */
    int parents[7];
    reach_transform rest[7], pose[7], world[7];
    reach_joint joints[7];
    reach_skeleton ur5;
    if (reach_dh_build(&table, parents, rest, joints, 7, &ur5, NULL) != REACH_OK) return 1;

    /* The goal: where these joint values put the tool. */
    const reach_real goal_values[6] = {REACH_R(0.5),  REACH_R(-1.2), REACH_R(1.4),
                                       REACH_R(-0.9), REACH_R(-1.5), REACH_R(0.3)};
    reach_pose_rest(&ur5, pose);
    if (reach_pose_set_values(&ur5, goal_values, 6, 0, pose) != REACH_OK) return 1;
    reach_forward_kinematics(&ur5, pose, world);
    reach_target target = reach_target_position(6, world[6].translation);
    target.orientation = world[6].rotation;
    target.use_orientation = 1;

    /* Start from a common home posture. */
    const reach_real home[6] = {0, -REACH_PI / 2, REACH_PI / 2, -REACH_PI / 2, -REACH_PI / 2, 0};
    reach_pose_rest(&ur5, pose);
    if (reach_pose_set_values(&ur5, home, 6, 0, pose) != REACH_OK) return 1;

    /* Damped least squares with seeded restarts: robust near singular poses, and deterministic. */
    reach_solver_settings settings = reach_solver_default_settings();
    settings.jacobian_method = REACH_JACOBIAN_DLS;
    settings.tolerance = REACH_R(1e-5);       /* metres */
    settings.angle_tolerance = REACH_R(1e-4); /* radians */
    settings.max_iterations = 500;
    settings.restarts = 20;
    size_t scratch_size = reach_jacobian_scratch_size(&ur5, 1);
    void *scratch = malloc(scratch_size);
    if (!scratch) return 1;
    reach_solve_result result;
    reach_status status = reach_jacobian_solve(&ur5, &target, 1, &settings, pose, scratch, scratch_size, &result);
    free(scratch);
    if (status != REACH_OK) {
        fprintf(stderr, "solve failed: %s\n", reach_status_string(status));
        return 1;
    }

    reach_real q[6];
    reach_pose_get_values(&ur5, pose, q); /* one value per revolute row, in (-π, π] */
    printf("%s (%s) after %d iterations: reached=%d\njoints (deg):",
           reach_jacobian_method_name(settings.jacobian_method), reach_precision(), result.iterations, result.reached);
    for (int i = 0; i < 6; i++)
        printf(" %+8.3f", (double)(q[i] * 180 / REACH_PI));
    /* Check independently: forward kinematics of the solved pose against the goal. */
    reach_forward_kinematics(&ur5, pose, world);
    reach_real distance = reach_vec3_distance(world[6].translation, target.position);
    reach_real angle = reach_quat_angle_between(world[6].rotation, target.orientation);
    printf("\ntool off by %.2g m and %.2g rad\n", (double)distance, (double)angle);
    return result.reached && distance < REACH_R(1e-4) && angle < REACH_R(1e-3) ? 0 : 1;
}
