/* From solved joint positions back to local rotations on any set of bones of a tree: the
 * smallest swing for a bone with one listed child, the best-fit rotation for several. */
#include "ik_state.h"
#include "rotation_fit.h"
#include "reach/skeleton.h"

/* The index in the ascending list bones[0 .. count) holding `bone`, or -1. */
static int find_listed(const int *bones, int count, int bone) {
    int lo = 0, hi = count - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (bones[mid] == bone) return mid;
        if (bones[mid] < bone)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static reach_status check_list(const reach_skeleton *skeleton, const int *bones, int count,
                               const reach_vec3 *positions) {
    for (int k = 0; k < count; ++k) {
        if (bones[k] < 0 || bones[k] >= skeleton->bone_count) return REACH_ERROR_BAD_CHAIN;
        if (k > 0 && bones[k] <= bones[k - 1]) return REACH_ERROR_BAD_CHAIN;
        if (!reach_vec3_is_finite(positions[k])) return REACH_ERROR_NOT_FINITE;
    }
    return REACH_OK;
}

/* The new world rotation of listed bone k, whose joint is at `joint` and whose rotation is
 * `rotation` before it turns: it turns its listed children's joints onto their positions.
 * *children_out receives how many listed children it has. */
static reach_quat aim_at_children(const reach_skeleton *skeleton, const int *bones, int count, int k,
                                  const reach_vec3 *positions, const reach_transform *local, reach_quat rotation,
                                  reach_vec3 joint, int *children_out) {
    reach__fit fit;
    reach__fit_reset(&fit);
    int children = 0;
    reach_vec3 from = reach_vec3_zero(), to = reach_vec3_zero();
    for (int m = k + 1; m < count; ++m) {
        if (skeleton->parents[bones[m]] != bones[k]) continue;
        from = local[bones[m]].translation;
        to = reach_vec3_sub(positions[m], joint);
        reach__fit_add(&fit, from, to, 1);
        ++children;
    }
    *children_out = children;
    if (children > 1) return reach__fit_solve(&fit, rotation);
    if (children == 0) return rotation;
    /* One child: the smallest swing from where it points now to where it should. */
    reach_vec3 now = reach_vec3_normalize_safe(reach_quat_rotate(rotation, from), reach_vec3_zero());
    reach_vec3 wanted = reach_vec3_normalize_safe(to, now);
    if (reach_vec3_length_sq(now) == 0) return rotation;
    return reach_quat_normalize_safe(reach_quat_mul(reach_quat_shortest_arc(now, wanted), rotation));
}

reach_status reach_tree_apply_positions(const reach_skeleton *skeleton, const int *bones, int count,
                                        const reach_vec3 *positions, reach_transform *local, reach_transform *world) {
    REACH_CHECK_ARG(skeleton && local && world && count >= 0 && (count == 0 || (bones && positions)));
    reach_status st = check_list(skeleton, bones, count, positions);
    if (st != REACH_OK) return st;
    for (int k = 0; k < count; ++k) {
        int b = bones[k], parent = skeleton->parents[b];
        reach_quat parent_rotation = parent < 0 ? reach_quat_identity() : world[parent].rotation;
        reach_quat kept = reach_quat_normalize_safe(world[b].rotation), carried = kept;
        /* A listed parent has turned already: it carries this joint, and this bone, along. */
        if (parent >= 0 && find_listed(bones, k, parent) >= 0) {
            world[b].translation = reach_transform_point(world[parent], local[b].translation);
            carried = reach_quat_normalize_safe(reach_quat_mul(parent_rotation, local[b].rotation));
        }
        int children;
        reach_quat rotation =
            aim_at_children(skeleton, bones, count, k, positions, local, carried, world[b].translation, &children);
        /* A bone with no listed child has nothing to aim: it keeps its world rotation. */
        if (children == 0) rotation = kept;
        local[b].rotation = reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(parent_rotation), rotation));
        world[b].rotation = rotation;
    }
    return REACH_OK;
}
