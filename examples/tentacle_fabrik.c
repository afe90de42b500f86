/* A tentacle: ten segments solved with FABRIK, each joint limited to a cone, following a target
 * that circles and bobs around it for four seconds. Every frame starts from the last frame's
 * pose (warm start), so FABRIK needs only a few iterations; every frame must reach the target
 * and keep each joint inside its cone. */
#include <stdio.h>
#include <stdlib.h>

#include "reach/reach.h"

#define SEGMENTS 10
#define BONES    (SEGMENTS + 1) /* the last bone is the tip: its joint is the end of the tentacle */

int main(void) {
    /* The skeleton: a chain standing up along +y, 0.2 between joints, 2 long in all. */
    int parents[BONES];
    reach_transform rest[BONES];
    reach_joint joints[BONES];
    for (int i = 0; i < BONES; i++) {
        parents[i] = i - 1;
        rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, i == 0 ? 0 : REACH_R(0.2), 0));
        /* Each bone may lean at most 0.45 rad away from its parent's direction (the base 0.7 rad
         * from upright) and twist at most 0.3 rad; axes are in the bone's own rest frame. */
        joints[i] = reach_joint_cone_twist(reach_vec3_make(0, 1, 0), i == 0 ? REACH_R(0.7) : REACH_R(0.45),
                                           REACH_R(-0.3), REACH_R(0.3));
    }
    reach_skeleton skeleton = {BONES, parents, rest, joints};
    if (reach_skeleton_validate(&skeleton, NULL) != REACH_OK) return 1;

    reach_transform pose[BONES];
    reach_pose_rest(&skeleton, pose);
    /* The solver never allocates: the caller gives it scratch memory, once, for every frame. */
    size_t scratch_size = reach_fabrik_scratch_size(&skeleton, 1);
    void *scratch = malloc(scratch_size);
    if (!scratch) return 1;
    reach_solver_settings settings = reach_solver_default_settings(); /* 64 iterations, 1e-4 × length */

    int frames = 240, reached = 0, limited = 0, iterations = 0;
    reach_real worst_limit = 0, worst_residual = 0;
    for (int frame = 0; frame < frames; frame++) {
        reach_real t = (reach_real)frame / 60; /* seconds */
        reach_vec3 goal = reach_vec3_make(REACH_R(0.9) * reach_cos(t), REACH_R(1.3) + REACH_R(0.3) * reach_sin(2 * t),
                                          REACH_R(0.9) * reach_sin(t));
        reach_target target = reach_target_position(SEGMENTS, goal);
        reach_solve_result result;
        reach_status status =
            reach_fabrik_solve(&skeleton, &target, 1, &settings, pose, scratch, scratch_size, &result);
        if (status != REACH_OK) {
            fprintf(stderr, "frame %d: %s\n", frame, reach_status_string(status));
            free(scratch);
            return 1;
        }
        reached += result.reached;
        limited += result.limited; /* a cone or twist range was active */
        iterations += result.iterations;
        worst_residual = reach_max(worst_residual, result.residual);
        /* How far any joint is outside its cone or twist range (radians): 0 up to rounding. */
        worst_limit = reach_max(worst_limit, reach_pose_limit_error(&skeleton, pose, NULL));
        if (frame % 60 == 0) {
            reach_transform world[BONES];
            reach_forward_kinematics(&skeleton, pose, world);
            reach_vec3 tip = world[SEGMENTS].translation;
            printf("t=%.0fs target (%.2f, %.2f, %.2f) tip (%.2f, %.2f, %.2f) in %d iterations\n", (double)t,
                   (double)goal.x, (double)goal.y, (double)goal.z, (double)tip.x, (double)tip.y, (double)tip.z,
                   result.iterations);
        }
    }
    free(scratch);
    printf("%d of %d frames reached (%d against a limit), %.1f iterations per frame, worst residual %.1e, "
           "worst limit error %.1e rad\n",
           reached, frames, limited, (double)iterations / frames, (double)worst_residual, (double)worst_limit);
    /* Limits hold to rounding: a few hundred ulps of an angle in either precision. */
    return reached == frames && worst_limit < 1000 * REACH_REAL_EPSILON ? 0 : 1;
}
