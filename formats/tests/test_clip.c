/* Clips: creation limits, frames in place, and sampling against an independent interpolation
 * (angle-axis of the relative turn, scaled) over random frames and times. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reach/clip.h"
#include "test_support.h"

#ifdef REACH_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-5
#endif

static void test_create_refuses_bad_sizes(void **state) {
    (void)state;
    reach_clip clip;
    assert_int_equal(reach_clip_create(&clip, 0, 10, 30), REACH_ERROR_INVALID_ARGUMENT);
    assert_null(clip.frames);
    assert_int_equal(reach_clip_create(&clip, 3, 0, 30), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_clip_create(&clip, 3, 10, 0), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_clip_create(&clip, 3, 10, -1), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_clip_create(&clip, 3, 10, (reach_real)NAN), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_clip_create(&clip, 3, 10, (reach_real)INFINITY), REACH_ERROR_INVALID_ARGUMENT);
    /* 2^16 × 2^13 = 2^29 transforms: over the limit, refused before any allocation. */
    assert_int_equal(reach_clip_create(&clip, 1 << 16, 1 << 13, 30), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_clip_create(&clip, 2147483647, 2147483647, 30), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(clip.bone_count, 0);
    assert_int_equal(reach_clip_create(NULL, 3, 10, 30), REACH_ERROR_INVALID_ARGUMENT);
    reach_clip_free(NULL);
    reach_clip_free(&clip);
}

static void test_frames_and_duration(void **state) {
    (void)state;
    reach_clip clip;
    assert_int_equal(reach_clip_create(&clip, 4, 121, 120), REACH_OK);
    ASSERT_NEAR(reach_clip_duration(&clip), 1.0, 1e-6, "121 frames at 120 fps last a second");
    assert_ptr_equal(reach_clip_frame(&clip, 2), clip.frames + 8);
    assert_null(reach_clip_frame(&clip, 121));
    assert_null(reach_clip_frame(&clip, -1));
    for (int i = 0; i < 4 * 121; ++i) {
        assert_true(clip.frames[i].rotation.w == 1 && clip.frames[i].translation.x == 0);
    }
    reach_clip_free(&clip);
    assert_null(clip.frames);
    assert_int_equal(reach_clip_create(&clip, 1, 1, 30), REACH_OK);
    ASSERT_NEAR(reach_clip_duration(&clip), 0.0, 0.0, "one frame lasts no time");
    reach_clip_free(&clip);
}

/* The oracle: a's rotation turned by t of the relative rotation's angle about its axis, after
 * the relative rotation is taken the shorter way. */
static reach_quat reference_slerp(reach_quat a, reach_quat b, double t) {
    reach_quat relative = reach_quat_mul(reach_quat_conjugate(a), b);
    if (relative.w < 0) relative = reach_quat_neg(relative);
    double s =
        sqrt((double)relative.x * relative.x + (double)relative.y * relative.y + (double)relative.z * relative.z);
    if (s < 1e-12) return a;
    double angle = 2 * atan2(s, (double)relative.w);
    reach_vec3 axis =
        reach_vec3_make((reach_real)(relative.x / s), (reach_real)(relative.y / s), (reach_real)(relative.z / s));
    return reach_quat_mul(a, reach_quat_from_axis_angle(axis, (reach_real)(angle * t)));
}

static double rotation_gap(reach_quat a, reach_quat b) { return (double)reach_quat_angle_between(a, b); }

static void test_slerp_sampling_matches_the_reference(void **state) {
    (void)state;
    test_rng rng = test_rng_make(25);
    enum { BONES = 5, FRAMES = 40 };
    reach_clip clip;
    assert_int_equal(reach_clip_create(&clip, BONES, FRAMES, 30), REACH_OK);
    for (int i = 0; i < BONES * FRAMES; ++i) {
        clip.frames[i] = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 10));
    }
    reach_transform pose[BONES];
    int cases = test_scaled(20000);
    for (int c = 0; c < cases; ++c) {
        double time = test_uniform_double(&rng, 0, (double)reach_clip_duration(&clip));
        assert_int_equal(reach_clip_sample(&clip, (reach_real)time, REACH_CLIP_SLERP, pose), REACH_OK);
        double position = time * 30;
        int f = (int)floor(position);
        if (f >= FRAMES - 1) f = FRAMES - 2;
        double t = position - f;
        for (int b = 0; b < BONES; ++b) {
            const reach_transform *x = &clip.frames[f * BONES + b], *y = &clip.frames[(f + 1) * BONES + b];
            reach_vec3 expected = reach_vec3_lerp(x->translation, y->translation, (reach_real)t);
            ASSERT_VEC3_NEAR(pose[b].translation, expected, 1e3 * TOL, "translation interpolated linearly");
            ASSERT_NEAR(rotation_gap(pose[b].rotation, reference_slerp(x->rotation, y->rotation, t)), 0, 1e2 * TOL,
                        "rotation slerped the shorter way");
            ASSERT_NEAR(reach_quat_dot(pose[b].rotation, pose[b].rotation), 1, 10 * TOL, "unit rotation");
        }
    }
    reach_clip_free(&clip);
}

/* nlerp turns the same way as slerp, onto the same great arc, and meets it at the ends and the
 * middle; its angle from the first frame never exceeds the whole turn. */
static void test_nlerp_stays_on_the_shorter_arc(void **state) {
    (void)state;
    test_rng rng = test_rng_make(26);
    reach_clip clip;
    assert_int_equal(reach_clip_create(&clip, 1, 2, 1), REACH_OK);
    reach_transform pose;
    int cases = test_scaled(20000);
    for (int c = 0; c < cases; ++c) {
        reach_quat a = test_unit_quat(&rng), b = test_unit_quat(&rng);
        /* Stored as the far sign: sampling must still take the shorter way. */
        if (reach_quat_dot(a, b) > 0) b = reach_quat_neg(b);
        clip.frames[0] = reach_transform_make(a, reach_vec3_zero());
        clip.frames[1] = reach_transform_make(b, reach_vec3_zero());
        double whole = rotation_gap(a, b);
        assert_int_equal(reach_clip_sample(&clip, REACH_R(0.5), REACH_CLIP_NLERP, &pose), REACH_OK);
        ASSERT_NEAR(rotation_gap(pose.rotation, reference_slerp(a, b, 0.5)), 0, 1e2 * TOL, "nlerp's middle");
        double t = test_uniform_double(&rng, 0, 1);
        assert_int_equal(reach_clip_sample(&clip, (reach_real)t, REACH_CLIP_NLERP, &pose), REACH_OK);
        double from_a = rotation_gap(a, pose.rotation), to_b = rotation_gap(pose.rotation, b);
        ASSERT_NEAR(from_a + to_b, whole, 1e2 * TOL, "on the shorter arc between the frames");
    }
    reach_clip_free(&clip);
}

static void test_times_outside_hold_the_ends(void **state) {
    (void)state;
    test_rng rng = test_rng_make(27);
    reach_clip clip;
    assert_int_equal(reach_clip_create(&clip, 2, 3, 10), REACH_OK);
    for (int i = 0; i < 6; ++i)
        clip.frames[i] = reach_transform_make(test_unit_quat(&rng), test_in_ball(&rng, 1));
    reach_transform pose[2];
    const reach_real times[] = {-1, (reach_real)-INFINITY, 0};
    for (size_t k = 0; k < sizeof times / sizeof times[0]; ++k) {
        assert_int_equal(reach_clip_sample(&clip, times[k], REACH_CLIP_SLERP, pose), REACH_OK);
        assert_memory_equal(pose, clip.frames, sizeof pose);
    }
    const reach_real late[] = {REACH_R(0.2), 5, (reach_real)INFINITY};
    for (size_t k = 0; k < sizeof late / sizeof late[0]; ++k) {
        assert_int_equal(reach_clip_sample(&clip, late[k], REACH_CLIP_NLERP, pose), REACH_OK);
        assert_memory_equal(pose, clip.frames + 4, sizeof pose);
    }
    assert_int_equal(reach_clip_sample(&clip, REACH_R(0.1), REACH_CLIP_SLERP, pose), REACH_OK);
    ASSERT_VEC3_NEAR(pose[1].translation, clip.frames[3].translation, 10 * TOL, "a frame's own time is the frame");
    reach_clip_free(&clip);
}

static void test_bad_samples_leave_the_pose(void **state) {
    (void)state;
    reach_clip clip;
    assert_int_equal(reach_clip_create(&clip, 1, 2, 10), REACH_OK);
    reach_transform pose = reach_transform_make(reach_quat_make(0, 0, 1, 0), reach_vec3_make(7, 8, 9));
    reach_transform before = pose;
    assert_int_equal(reach_clip_sample(&clip, (reach_real)NAN, REACH_CLIP_SLERP, &pose), REACH_ERROR_NOT_FINITE);
    assert_int_equal(reach_clip_sample(&clip, 0, (reach_clip_rotation)7, &pose), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_clip_sample(NULL, 0, REACH_CLIP_SLERP, &pose), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_clip_sample(&clip, 0, REACH_CLIP_SLERP, NULL), REACH_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&pose, &before, sizeof pose);
    reach_clip_free(&clip);
    assert_int_equal(reach_clip_sample(&clip, 0, REACH_CLIP_SLERP, &pose), REACH_ERROR_INVALID_ARGUMENT);
    assert_memory_equal(&pose, &before, sizeof pose);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_refuses_bad_sizes),
        cmocka_unit_test(test_frames_and_duration),
        cmocka_unit_test(test_slerp_sampling_matches_the_reference),
        cmocka_unit_test(test_nlerp_stays_on_the_shorter_arc),
        cmocka_unit_test(test_times_outside_hold_the_ends),
        cmocka_unit_test(test_bad_samples_leave_the_pose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
