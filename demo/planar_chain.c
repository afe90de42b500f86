/* Planar hinge chains as skeletons. */
#include "planar_chain.h"

void demo_planar_chain_init(demo_planar_chain *chain, reach_vec2 root, double base_angle, const double *lengths,
                            int count, double min_angle, double max_angle) {
    if (count > DEMO_PLANAR_MAX_BONES) count = DEMO_PLANAR_MAX_BONES;
    chain->count = count;
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    for (int i = 0; i <= count; i++) {
        chain->parents[i] = i - 1;
        /* Each bone's frame has its x axis along the bone, so a child sits at (length, 0, 0). */
        reach_vec3 offset =
            i == 0 ? reach_vec3_make(root.x, root.y, 0) : reach_vec3_make((reach_real)lengths[i - 1], 0, 0);
        reach_quat turn = reach_quat_from_axis_angle(z, (reach_real)(i == 0 ? base_angle : 0));
        chain->rest[i] = reach_transform_make(turn, offset);
        chain->joints[i] =
            i < count ? reach_joint_hinge(z, (reach_real)min_angle, (reach_real)max_angle) : reach_joint_fixed();
    }
    chain->skeleton.bone_count = count + 1;
    chain->skeleton.parents = chain->parents;
    chain->skeleton.rest = chain->rest;
    chain->skeleton.joints = chain->joints;
    reach_pose_rest(&chain->skeleton, chain->pose);
}

int demo_planar_chain_tip(const demo_planar_chain *chain) { return chain->count; }

void demo_planar_chain_points(const demo_planar_chain *chain, reach_vec2 *points) {
    reach_transform world[DEMO_PLANAR_MAX_BONES + 1];
    reach_forward_kinematics(&chain->skeleton, chain->pose, world);
    for (int i = 0; i <= chain->count; i++)
        points[i] = reach_vec2_make(world[i].translation.x, world[i].translation.y);
}

reach_target demo_planar_chain_target(const demo_planar_chain *chain, reach_vec2 position) {
    return reach_target_position(chain->count, reach_vec3_make(position.x, position.y, 0));
}
