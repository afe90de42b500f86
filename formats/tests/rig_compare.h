/* Two rigs (and their motions) compared by what a user sees: every bone's world position, bones
 * matched by name, at rest and frame by frame, to a tolerance that is a fraction of the height. */
#ifndef REACH_RIG_COMPARE_H
#define REACH_RIG_COMPARE_H

#include <stdlib.h>

#include "reach/clip.h"
#include "reach/rig.h"
#include "test_support.h"

/* The rest pose's height (highest bone less lowest, along y). */
static inline double rig_rest_height(const reach_rig *rig) {
    reach_transform *pose = malloc(2 * (size_t)rig->bone_count * sizeof *pose);
    reach_pose_rest(&rig->skeleton, pose);
    reach_forward_kinematics(&rig->skeleton, pose, pose + rig->bone_count);
    double low = 0, high = 0;
    for (int b = 0; b < rig->bone_count; ++b) {
        double y = (double)pose[rig->bone_count + b].translation.y;
        low = b == 0 || y < low ? y : low;
        high = b == 0 || y > high ? y : high;
    }
    free(pose);
    return high - low;
}

/* Same bones (by name, with parents of the same names) and the same world positions of each,
 * given as local poses of either rig (NULL: its rest). */
static inline void rig_assert_same_pose(const reach_rig *a, const reach_transform *pose_a, const reach_rig *b,
                                        const reach_transform *pose_b, double tolerance) {
    assert_int_equal(a->bone_count, b->bone_count);
    size_t n = (size_t)a->bone_count;
    reach_transform *world = malloc(2 * n * sizeof *world);
    reach_forward_kinematics(&a->skeleton, pose_a ? pose_a : a->rest, world);
    reach_forward_kinematics(&b->skeleton, pose_b ? pose_b : b->rest, world + n);
    for (int i = 0; i < a->bone_count; ++i) {
        int j = reach_rig_find_bone(b, a->bone_names[i]);
        if (j < 0) fail_msg("bone '%s' is missing", a->bone_names[i]);
        int pa = a->parents[i], pb = b->parents[j];
        if (pa < 0 || pb < 0)
            assert_int_equal(pa, pb);
        else
            assert_string_equal(a->bone_names[pa], b->bone_names[pb]);
        ASSERT_VEC3_NEAR(world[n + (size_t)j].translation, world[i].translation, tolerance, a->bone_names[i]);
    }
    free(world);
}

/* Both clips' frames, one by one, as rig_assert_same_pose. */
static inline void rig_assert_same_motion(const reach_rig *a, const reach_clip *clip_a, const reach_rig *b,
                                          const reach_clip *clip_b, double tolerance) {
    assert_int_equal(clip_a->frame_count, clip_b->frame_count);
    ASSERT_NEAR(clip_b->frame_rate, clip_a->frame_rate, 1e-6 * (double)clip_a->frame_rate, "the frame rate");
    for (int f = 0; f < clip_a->frame_count; ++f)
        rig_assert_same_pose(a, reach_clip_frame(clip_a, f), b, reach_clip_frame(clip_b, f), tolerance);
}

#endif
