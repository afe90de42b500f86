/* Positions back to rotations, checked by forward kinematics: solved joint positions given in
 * the world of a parent that scales non-uniformly and mirrors, mapped into the skeleton's space,
 * turned into local rotations (reach_chain_apply_positions for chains, reach_tree_apply_positions
 * for trees), and carried back out reproduce the positions. */
#include "test_fabrik_rigs.h"

#define CASES 5000

/* A random tree: each bone hangs from a random earlier bone, so branches and long chains mix. */
static void random_tree(rig *r, test_rng *rng, int bones) {
    for (int i = 0; i < bones; ++i) {
        r->parents[i] = i == 0 ? -1 : (int)(test_rng_next(rng) % (uint64_t)i);
        r->rest[i] = reach_transform_make(test_unit_quat(rng), i == 0 ? test_in_ball(rng, 2) : test_in_ball(rng, 1));
    }
    rig_finish(r, bones, 0);
}

/* A parent transform that rotates, scales each axis differently, mirrors one and translates. */
static reach_affine scaled_mirrored_parent(test_rng *rng) {
    reach_affine a = reach_affine_from_transform(reach_transform_make(test_unit_quat(rng), test_in_ball(rng, 10)));
    reach_real scale[3] = {test_uniform(rng, REACH_R(0.3), 3), test_uniform(rng, REACH_R(0.3), 3),
                           -test_uniform(rng, REACH_R(0.3), 3)};
    for (int k = 0; k < 3; ++k)
        a.linear.col[k] = reach_vec3_scale(a.linear.col[k], scale[k]);
    return a;
}

/* World positions of the given bones under the parent, for a pose. */
static void outer_positions(const rig *r, const reach_transform *pose, reach_affine parent, const int *bones, int count,
                            reach_vec3 *out) {
    reach_transform world[RIG_MAX_BONES];
    reach_forward_kinematics(&r->skeleton, pose, world);
    for (int k = 0; k < count; ++k)
        out[k] = reach_affine_point(parent, world[bones[k]].translation);
}

/* The caller's side: outer positions into the skeleton's space. */
static void inner_positions(reach_affine parent, const reach_vec3 *outer, int count, reach_vec3 *out) {
    reach_affine inverse = reach_affine_identity();
    assert_true(reach_affine_inverse(parent, &inverse));
    for (int k = 0; k < count; ++k)
        out[k] = reach_affine_point(inverse, outer[k]);
}

/* A random pose with the same translations: the positions a length-keeping solver could give. */
static void turned_pose(const rig *r, test_rng *rng, reach_transform *pose) {
    for (int i = 0; i < r->skeleton.bone_count; ++i)
        pose[i] = reach_transform_make(test_unit_quat(rng), r->rest[i].translation);
}

static void chain_round_trip(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x7a);
    for (int c = 0; c < CASES; ++c) {
        rig r;
        random_tree(&r, &rng, 2 + c % 30);
        reach_affine parent = scaled_mirrored_parent(&rng);
        int chain[RIG_MAX_BONES], count;
        int tip = r.skeleton.bone_count - 1;
        assert_int_equal(reach_chain_find(&r.skeleton, 0, tip, chain, RIG_MAX_BONES, &count), REACH_OK);
        reach_transform solved[RIG_MAX_BONES], pose[RIG_MAX_BONES], world[RIG_MAX_BONES];
        turned_pose(&r, &rng, solved);
        turned_pose(&r, &rng, pose);
        /* Bones off the chain keep the solved pose's rotations, so the chain's joints are all
         * that differ. */
        for (int i = 0; i < r.skeleton.bone_count; ++i) {
            int on_chain = 0;
            for (int k = 0; k < count; ++k)
                on_chain |= chain[k] == i;
            if (!on_chain) pose[i] = solved[i];
        }
        reach_vec3 outer[RIG_MAX_BONES], inner[RIG_MAX_BONES];
        outer_positions(&r, solved, parent, chain, count, outer);
        inner_positions(parent, outer, count, inner);
        reach_forward_kinematics(&r.skeleton, pose, world);
        reach_quat tip_rotation = world[tip].rotation;
        assert_int_equal(reach_chain_apply_positions(&r.skeleton, chain, count, inner, pose, world), REACH_OK);
        reach_vec3 back[RIG_MAX_BONES];
        outer_positions(&r, pose, parent, chain, count, back);
        for (int k = 0; k < count; ++k)
            ASSERT_VEC3_NEAR(back[k], outer[k], 1e-4 * (1 + reach_vec3_max_abs(outer[k])), "chain joint");
        reach_forward_kinematics(&r.skeleton, pose, world);
        ASSERT_QUAT_NEAR(world[tip].rotation, tip_rotation, 1e-5, "tip keeps its world rotation");
    }
}

static void tree_round_trip(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x7b);
    for (int c = 0; c < CASES; ++c) {
        rig r;
        int n = 2 + c % 40;
        random_tree(&r, &rng, n);
        reach_affine parent = scaled_mirrored_parent(&rng);
        int bones[RIG_MAX_BONES];
        for (int i = 0; i < n; ++i)
            bones[i] = i;
        reach_transform solved[RIG_MAX_BONES], pose[RIG_MAX_BONES], world[RIG_MAX_BONES], before[RIG_MAX_BONES];
        turned_pose(&r, &rng, solved);
        turned_pose(&r, &rng, pose);
        reach_vec3 outer[RIG_MAX_BONES], inner[RIG_MAX_BONES];
        outer_positions(&r, solved, parent, bones, n, outer);
        inner_positions(parent, outer, n, inner);
        reach_forward_kinematics(&r.skeleton, pose, before);
        memcpy(world, before, sizeof world);
        assert_int_equal(reach_tree_apply_positions(&r.skeleton, bones, n, inner, pose, world), REACH_OK);
        /* The world transforms it updated are those of the new pose. */
        reach_transform fresh[RIG_MAX_BONES];
        reach_forward_kinematics(&r.skeleton, pose, fresh);
        reach_vec3 back[RIG_MAX_BONES];
        outer_positions(&r, pose, parent, bones, n, back);
        for (int i = 0; i < n; ++i) {
            ASSERT_VEC3_NEAR(back[i], outer[i], 1e-4 * (1 + reach_vec3_max_abs(outer[i])), "tree joint");
            ASSERT_VEC3_NEAR(world[i].translation, fresh[i].translation, 1e-4 * (1 + reach_vec3_max_abs(outer[i])),
                             "world kept current");
            ASSERT_QUAT_NEAR(world[i].rotation, fresh[i].rotation, 1e-5, "world rotation kept current");
        }
        /* Leaves keep their world rotation. */
        for (int i = 0; i < n; ++i) {
            int leaf = 1;
            for (int k = i + 1; k < n; ++k)
                leaf &= r.parents[k] != i;
            if (leaf) ASSERT_QUAT_NEAR(fresh[i].rotation, before[i].rotation, 1e-5, "leaf keeps its world rotation");
        }
    }
}

/* A bone with one listed child turns by the smallest swing: its new world rotation differs from
 * the old by exactly the angle between the child's old and new directions. */
static void single_child_turns_by_smallest_swing(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x7c);
    for (int c = 0; c < CASES; ++c) {
        rig r;
        rig_random_chain(&r, &rng, 1, 1);
        reach_transform pose[RIG_MAX_BONES], world[RIG_MAX_BONES];
        reach_pose_rest(&r.skeleton, pose);
        reach_forward_kinematics(&r.skeleton, pose, world);
        reach_vec3 old_dir = reach_vec3_sub(world[1].translation, world[0].translation);
        reach_vec3 new_dir = reach_vec3_scale(test_unit_vec3(&rng), reach_vec3_length(old_dir));
        int bones[2] = {0, 1};
        reach_vec3 positions[2] = {world[0].translation, reach_vec3_add(world[0].translation, new_dir)};
        reach_quat old_rotation = world[0].rotation;
        assert_int_equal(reach_tree_apply_positions(&r.skeleton, bones, 2, positions, pose, world), REACH_OK);
        reach_real expected =
            reach_atan2(reach_vec3_length(reach_vec3_cross(old_dir, new_dir)), reach_vec3_dot(old_dir, new_dir));
        ASSERT_NEAR(reach_quat_angle_between(old_rotation, world[0].rotation), expected, 2e-3, "smallest swing");
    }
}

static void bad_lists_are_errors(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x7d);
    rig r;
    random_tree(&r, &rng, 6);
    reach_transform pose[RIG_MAX_BONES], world[RIG_MAX_BONES], copy[RIG_MAX_BONES];
    reach_pose_rest(&r.skeleton, pose);
    reach_forward_kinematics(&r.skeleton, pose, world);
    memcpy(copy, pose, sizeof pose);
    reach_vec3 positions[3] = {reach_vec3_zero(), reach_vec3_zero(), reach_vec3_zero()};
    int descending[3] = {3, 2, 1}, out_of_range[3] = {0, 1, 9};
    assert_int_equal(reach_tree_apply_positions(&r.skeleton, descending, 3, positions, pose, world),
                     REACH_ERROR_BAD_CHAIN);
    assert_int_equal(reach_tree_apply_positions(&r.skeleton, out_of_range, 3, positions, pose, world),
                     REACH_ERROR_BAD_CHAIN);
    int fine[3] = {0, 1, 2};
    positions[1].y = (reach_real)NAN;
    assert_int_equal(reach_tree_apply_positions(&r.skeleton, fine, 3, positions, pose, world), REACH_ERROR_NOT_FINITE);
    assert_true(test_bytes_equal(pose, copy, rig_pose_bytes(&r.skeleton)));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_round_trip),
        cmocka_unit_test(tree_round_trip),
        cmocka_unit_test(single_child_turns_by_smallest_swing),
        cmocka_unit_test(bad_lists_are_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
