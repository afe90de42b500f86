/* A robot read from a URDF file (reach::formats): by default the Panda as the project writes it
 * from Franka's published parameters. It reaches a 6-D pose of its flange with the Jacobian
 * solver, starting from joint values set by name, and prints the joint values by name. The goal
 * is the flange pose of known joint values, so it is reachable.
 *   example_robot_urdf [ROBOT.urdf TOOL_LINK]   (default: the Panda, panda_link8) */
#include <stdio.h>
#include <stdlib.h>

#include "reach/reach.h"
#include "reach/urdf.h"

#ifndef EXAMPLE_ROBOT
#define EXAMPLE_ROBOT "panda_dh.urdf"
#endif

int main(int argc, char **argv) {
    const char *file = argc > 2 ? argv[1] : EXAMPLE_ROBOT;
    const char *tool_link = argc > 2 ? argv[2] : "panda_link8";
    reach_rig robot;
    char error[256];
    if (reach_urdf_read_file(file, &robot, error, sizeof error) != REACH_OK) {
        fprintf(stderr, "%s\n", error);
        return 1;
    }
    int tool = reach_rig_find_bone(&robot, tool_link);
    int count = reach_skeleton_value_count(&robot.skeleton);
    reach_transform *pose = malloc((size_t)robot.bone_count * sizeof *pose);
    reach_transform *world = malloc((size_t)robot.bone_count * sizeof *world);
    reach_real *values = malloc((size_t)(count + 1) * sizeof *values);
    size_t scratch_size = reach_jacobian_scratch_size(&robot.skeleton, 1);
    void *scratch = malloc(scratch_size);
    int failed = tool < 0 || !pose || !world || !values || !scratch;

    /* The goal: the flange where joint 2 leans forward and joint 4 bends the elbow. */
    const char *names[] = {"panda_joint2", "panda_joint4", "panda_joint6"};
    const reach_real goal_values[] = {REACH_R(0.4), REACH_R(-2.0), REACH_R(2.2)};
    reach_target target = reach_target_position(tool, reach_vec3_zero());
    if (!failed) {
        reach_pose_rest(&robot.skeleton, pose);
        failed = reach_rig_set_values_by_name(&robot, names, goal_values, 3, 1, values, pose, NULL) != REACH_OK;
        reach_forward_kinematics(&robot.skeleton, pose, world);
        target.position = world[tool].translation;
        target.orientation = world[tool].rotation;
        target.use_orientation = 1;
    }

    /* The start: every joint at rest but the elbow, which the Panda needs bent. */
    const char *start_names[] = {"panda_joint4"};
    const reach_real start_values[] = {REACH_R(-1.0)};
    reach_solve_result result = {0, 0, 0, 0, 0};
    if (!failed) {
        reach_pose_rest(&robot.skeleton, pose);
        failed = reach_rig_set_values_by_name(&robot, start_names, start_values, 1, 1, values, pose, NULL) != REACH_OK;
    }
    if (!failed) {
        reach_solver_settings settings = reach_solver_default_settings();
        settings.restarts = 20;
        failed = reach_jacobian_solve(&robot.skeleton, &target, 1, &settings, pose, scratch, scratch_size, &result) !=
                 REACH_OK;
    }
    if (!failed) {
        reach_forward_kinematics(&robot.skeleton, pose, world);
        reach_real miss = reach_vec3_distance(world[tool].translation, target.position);
        reach_real turn = reach_quat_angle_between(world[tool].rotation, target.orientation);
        printf("%s: %d bones, %d joint values; %s reached: %s (%.2g m, %.2g rad off, %d iterations)\n", file,
               robot.bone_count, count, tool_link, result.reached ? "yes" : "no", (double)miss, (double)turn,
               result.iterations);
        reach_pose_get_values(&robot.skeleton, pose, values);
        for (int i = 0; i < count; ++i)
            printf("  %-20s %9.5f\n", reach_rig_value_name(&robot, i), (double)values[i]);
        failed = !result.reached || miss > REACH_R(1e-4) || turn > REACH_R(1e-3);
    }
    free(pose);
    free(world);
    free(values);
    free(scratch);
    reach_rig_free(&robot);
    return failed;
}
