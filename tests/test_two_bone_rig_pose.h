/* Forward kinematics of a two-bone rig for the rig tests: where given local rotations and
 * translations put the joints in the world, and the end's frame in the parent's space. */
#ifndef REACH_TEST_TWO_BONE_RIG_POSE_H
#define REACH_TEST_TWO_BONE_RIG_POSE_H

#include "reach/two_bone.h"

typedef struct rig_pose {
    reach_vec3 root, mid, end;
    reach_quat end_frame;
} rig_pose;

static inline rig_pose rig_forward(const reach_two_bone_rig_input *in, reach_quat root_r, reach_quat mid_r,
                                   reach_quat end_r, reach_vec3 mid_t, reach_vec3 end_t) {
    reach_transform root = reach_transform_make(root_r, in->root_local.translation);
    reach_transform mid = reach_transform_mul(root, reach_transform_make(mid_r, mid_t));
    reach_transform end = reach_transform_mul(mid, reach_transform_make(end_r, end_t));
    rig_pose p;
    p.root = reach_affine_point(in->parent_world, root.translation);
    p.mid = reach_affine_point(in->parent_world, mid.translation);
    p.end = reach_affine_point(in->parent_world, end.translation);
    p.end_frame = end.rotation;
    return p;
}

#endif
