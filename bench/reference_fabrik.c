/* The textbook FABRIK (see reference_fabrik.h). Written for clarity, not speed: it is the bar
 * reach's FABRIK has to clear. */
#include "reference_fabrik.h"

#define MAX_ITERATIONS 64

/* p moved to distance `length` from `anchor`, along anchor→p. */
static reach_vec3 at_length(reach_vec3 anchor, reach_vec3 p, reach_real length) {
    reach_vec3 d = reach_vec3_sub(p, anchor);
    return reach_vec3_add(anchor, reach_vec3_scale(d, length / reach_vec3_length(d)));
}

size_t reference_fabrik_scratch_size(const reach_skeleton *skeleton, int target_count) {
    (void)target_count;
    size_t n = (size_t)skeleton->bone_count;
    return n * (2 * sizeof(reach_vec3) + sizeof(reach_quat) + sizeof(reach_real));
}

reach_status reference_fabrik_solve(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                    const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                                    size_t scratch_size, reach_solve_result *result) {
    (void)target_count;
    (void)settings;
    int n = skeleton->bone_count - 1; /* joints 0 … n; joint n is the end */
    if (scratch_size < reference_fabrik_scratch_size(skeleton, 1)) return REACH_ERROR_BUFFER_TOO_SMALL;
    reach_quat *world = scratch;
    reach_vec3 *old_positions = (reach_vec3 *)(world + n + 1), *p = old_positions + n + 1;
    reach_real *lengths = (reach_real *)(p + n + 1);

    /* Forward kinematics: world rotations and joint positions. */
    world[0] = pose[0].rotation;
    p[0] = pose[0].translation;
    reach_real total = 0;
    for (int i = 1; i <= n; i++) {
        p[i] = reach_vec3_add(p[i - 1], reach_quat_rotate(world[i - 1], pose[i].translation));
        world[i] = reach_quat_mul(world[i - 1], pose[i].rotation);
        lengths[i - 1] = reach_vec3_length(pose[i].translation);
        total += lengths[i - 1];
        old_positions[i - 1] = p[i - 1];
    }
    old_positions[n] = p[n];

    reach_vec3 target = targets[0].position, root = p[0];
    reach_real tolerance = REACH_R(1e-4) * total;
    int iterations = 0;
    if (reach_vec3_distance(root, target) >= total) {
        for (int i = 1; i <= n; i++)
            p[i] = at_length(p[i - 1], target, lengths[i - 1]);
    } else {
        while (reach_vec3_distance(p[n], target) > tolerance && iterations < MAX_ITERATIONS) {
            p[n] = target;
            for (int i = n - 1; i >= 0; i--)
                p[i] = at_length(p[i + 1], p[i], lengths[i]);
            p[0] = root;
            for (int i = 1; i <= n; i++)
                p[i] = at_length(p[i - 1], p[i], lengths[i - 1]);
            iterations++;
        }
    }

    /* Rotations: each bone's world rotation turned by the arc from its old direction to its
     * new one, then made local to its parent's new world rotation. */
    reach_quat parent_new = reach_quat_identity();
    for (int i = 0; i < n; i++) {
        reach_vec3 before = reach_vec3_sub(old_positions[i + 1], old_positions[i]);
        reach_vec3 after = reach_vec3_sub(p[i + 1], p[i]);
        reach_quat arc = reach_quat_shortest_arc(reach_vec3_scale(before, 1 / reach_vec3_length(before)),
                                                 reach_vec3_scale(after, 1 / reach_vec3_length(after)));
        reach_quat new_world = reach_quat_normalize_safe(reach_quat_mul(arc, world[i]));
        pose[i].rotation = reach_quat_mul(reach_quat_conjugate(parent_new), new_world);
        parent_new = new_world;
    }
    if (result) {
        /* The end where the new rotations put it. */
        reach_vec3 end = pose[0].translation;
        reach_quat frame = pose[0].rotation;
        for (int i = 1; i <= n; i++) {
            end = reach_vec3_add(end, reach_quat_rotate(frame, pose[i].translation));
            frame = reach_quat_mul(frame, pose[i].rotation);
        }
        result->iterations = iterations;
        result->residual = reach_vec3_distance(end, target);
        result->angle_residual = 0;
        result->reached = result->residual <= tolerance;
        result->limited = 0;
    }
    return REACH_OK;
}
