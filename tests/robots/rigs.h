/* Small rigs for the Jacobian tests: random trees of every joint type, planar hinge arms and
 * ball-jointed chains, in caller-owned arrays. Header-only (static inline). */
#ifndef REACH_TEST_RIGS_H
#define REACH_TEST_RIGS_H

#include "test_support.h"

#define RIG_MAX_BONES 24

typedef struct test_rig {
    int parents[RIG_MAX_BONES];
    reach_transform rest[RIG_MAX_BONES];
    reach_joint joints[RIG_MAX_BONES];
    reach_skeleton skeleton;
} test_rig;

static inline void rig_finish(test_rig *r, int bones) {
    r->skeleton.bone_count = bones;
    r->skeleton.parents = r->parents;
    r->skeleton.rest = r->rest;
    r->skeleton.joints = r->joints;
    assert_int_equal(reach_skeleton_validate(&r->skeleton, NULL), REACH_OK);
}

/* A planar arm in the xy-plane: `links` hinges about z, each `length` long along x, each limited
 * to [-limit, limit], and a fixed end bone. */
static inline void rig_planar_arm(test_rig *r, int links, reach_real length, reach_real limit) {
    for (int i = 0; i <= links; ++i) {
        r->parents[i] = i - 1;
        r->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(i == 0 ? 0 : length, 0, 0));
        r->joints[i] = i < links ? reach_joint_hinge(reach_vec3_make(0, 0, 1), -limit, limit) : reach_joint_fixed();
    }
    rig_finish(r, links + 1);
}

/* A chain of ball joints with random bone lengths in [0.2, 1] and random rest directions. */
static inline void rig_ball_chain(test_rig *r, test_rng *rng, int bones) {
    for (int i = 0; i < bones; ++i) {
        r->parents[i] = i - 1;
        reach_vec3 offset =
            i == 0 ? reach_vec3_zero() : reach_vec3_scale(test_unit_vec3(rng), test_uniform(rng, REACH_R(0.2), 1));
        r->rest[i] = reach_transform_make(test_unit_quat(rng), offset);
        r->joints[i] = reach_joint_ball();
    }
    rig_finish(r, bones);
}

/* A random tree (each bone's parent among the three before it) of random joints: ball, hinge,
 * cone (with twist), prismatic and fixed, random rest transforms and axes. */
static inline void rig_random_tree(test_rig *r, test_rng *rng, int bones) {
    for (int i = 0; i < bones; ++i) {
        int back = (int)(test_rng_next(rng) % 3) + 1;
        r->parents[i] = i == 0 ? -1 : (i - back < 0 ? 0 : i - back);
        r->rest[i] = reach_transform_make(test_unit_quat(rng), test_in_ball(rng, 1));
        reach_vec3 axis = test_unit_vec3(rng);
        switch (test_rng_next(rng) % 5) {
        case 0: r->joints[i] = reach_joint_ball(); break;
        case 1: r->joints[i] = reach_joint_hinge(axis, -3, 3); break;
        case 2: r->joints[i] = reach_joint_cone_twist(axis, 1, -1, 1); break;
        case 3: r->joints[i] = reach_joint_prismatic(axis, REACH_R(-0.5), REACH_R(0.5)); break;
        default: r->joints[i] = reach_joint_fixed(); break;
        }
    }
    rig_finish(r, bones);
}

/* A random pose: hinge and prismatic values inside the limits, ball joints anywhere, cones
 * within a small turn of rest. */
static inline void rig_random_pose(const test_rig *r, test_rng *rng, reach_transform *pose) {
    reach_pose_rest(&r->skeleton, pose);
    for (int i = 0; i < r->skeleton.bone_count; ++i) {
        reach_joint j = r->joints[i];
        if (j.type == REACH_JOINT_BALL)
            pose[i].rotation = reach_quat_mul(r->rest[i].rotation, test_unit_quat(rng));
        else if (j.type == REACH_JOINT_CONE)
            pose[i].rotation =
                reach_quat_mul(r->rest[i].rotation,
                               reach_quat_from_axis_angle(test_unit_vec3(rng), test_uniform(rng, 0, REACH_R(0.4))));
    }
    reach_real values[RIG_MAX_BONES];
    int n = 0;
    for (int i = 0; i < r->skeleton.bone_count; ++i)
        if (reach_joint_has_value(r->joints[i].type))
            values[n++] = test_uniform(rng, r->joints[i].min, r->joints[i].max);
    assert_int_equal(reach_pose_set_values(&r->skeleton, values, n, 0, pose), REACH_OK);
}

static inline void rig_world(const test_rig *r, const reach_transform *pose, reach_transform *world) {
    reach_forward_kinematics(&r->skeleton, pose, world);
}

#endif
