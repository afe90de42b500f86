/* A robot-style arm of four hinges with limits, solved with CCD. Three targets are reachable
 * (made by forward kinematics of joint values inside the limits) and must be reached; the last
 * is out of reach, and the arm stops pointing at it as far as its limits let it. Every solve
 * must keep every hinge inside its range, which we read back as joint values. */
#include <stdio.h>
#include <stdlib.h>

#include "reach/reach.h"

#define BONES 5

int main(void) {
    const reach_vec3 z = reach_vec3_make(0, 0, 1), y = reach_vec3_make(0, 1, 0);
    /* z up. Base turns about z; shoulder, elbow and wrist about y; the tool is fixed. */
    int parents[BONES] = {-1, 0, 1, 2, 3};
    const reach_real lengths[BONES] = {0, REACH_R(0.3), REACH_R(0.5), REACH_R(0.45), REACH_R(0.15)};
    reach_transform rest[BONES];
    for (int i = 0; i < BONES; i++)
        rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_scale(z, lengths[i]));
    reach_joint joints[BONES] = {
        reach_joint_hinge(z, REACH_R(-2.5), REACH_R(2.5)), /* base */
        reach_joint_hinge(y, REACH_R(-1.2), REACH_R(1.2)), /* shoulder */
        reach_joint_hinge(y, 0, REACH_R(2.3)),             /* elbow: bends one way only */
        reach_joint_hinge(y, REACH_R(-1.2), REACH_R(1.2)), /* wrist */
        reach_joint_fixed(),                               /* tool */
    };
    reach_skeleton arm = {BONES, parents, rest, joints};
    if (reach_skeleton_validate(&arm, NULL) != REACH_OK) return 1;

    /* Targets: the tool's position for known joint values, then a point beyond reach (1.4 long). */
    const reach_real goals[3][4] = {{REACH_R(0.8), REACH_R(0.6), REACH_R(1.2), REACH_R(0.4)},
                                    {REACH_R(-1.5), REACH_R(-0.5), REACH_R(1.8), REACH_R(-0.6)},
                                    {REACH_R(2.2), REACH_R(1.0), REACH_R(0.3), REACH_R(0.9)}};
    reach_vec3 targets[4];
    reach_transform pose[BONES], world[BONES];
    for (int k = 0; k < 3; k++) {
        reach_pose_rest(&arm, pose);
        if (reach_pose_set_values(&arm, goals[k], 4, 0, pose) != REACH_OK) return 1;
        reach_forward_kinematics(&arm, pose, world);
        targets[k] = world[4].translation;
    }
    targets[3] = reach_vec3_make(REACH_R(1.2), 0, REACH_R(-0.9));

    size_t scratch_size = reach_ccd_scratch_size(&arm, 1);
    void *scratch = malloc(scratch_size);
    if (!scratch) return 1;
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = 200;
    int failures = 0;
    for (int k = 0; k < 4; k++) {
        reach_pose_rest(&arm, pose); /* start straight up */
        reach_target target = reach_target_position(4, targets[k]);
        reach_solve_result result;
        reach_status status = reach_ccd_solve(&arm, &target, 1, &settings, pose, scratch, scratch_size, &result);
        if (status != REACH_OK) {
            fprintf(stderr, "target %d: %s\n", k, reach_status_string(status));
            failures++;
            continue;
        }
        reach_real q[4];
        reach_pose_get_values(&arm, pose, q); /* hinge angles, in bone order */
        int inside = 1;
        for (int j = 0; j < 4; j++)
            inside &= q[j] >= joints[j].min - REACH_R(1e-5) && q[j] <= joints[j].max + REACH_R(1e-5);
        int expect_reach = k < 3;
        printf(
            "target %d: reached=%d residual %.2g after %d iterations, limited=%d, joints %+.3f %+.3f %+.3f %+.3f %s\n",
            k, result.reached, (double)result.residual, result.iterations, result.limited, (double)q[0], (double)q[1],
            (double)q[2], (double)q[3], inside ? "(inside limits)" : "(OUTSIDE LIMITS)");
        failures += !inside || result.reached != expect_reach;
    }
    free(scratch);
    return failures == 0 ? 0 : 1;
}
