/* Two-bone IK on a hierarchy: forward kinematics of the new local rotations must put the end
 * where the solver says, under identity, translated, rotated, non-uniformly scaled and
 * mirrored parents, and the end joint must keep (or take) its world rotation. */
#include <math.h>
#include <string.h>

#include "test_support.h"
#include "test_two_bone_rig_pose.h"

typedef enum parent_kind { IDENTITY, TRANSLATED, ROTATED, SCALED, MIRRORED, PARENT_KINDS } parent_kind;
static const char *const parent_names[] = {"identity", "translated", "rotated", "scaled", "mirrored"};

static reach_affine random_parent(test_rng *rng, parent_kind kind) {
    reach_affine a = reach_affine_identity();
    if (kind == IDENTITY) return a;
    a.translation = test_in_ball(rng, 10);
    if (kind == TRANSLATED) return a;
    a.linear = reach_mat3_from_quat(test_unit_quat(rng));
    if (kind == ROTATED) return a;
    /* Non-uniform scale in the parent's own frame: linear = R · diag(sx, sy, sz). */
    reach_real s[3] = {test_uniform(rng, REACH_R(0.3), 3), test_uniform(rng, REACH_R(0.3), 3),
                       test_uniform(rng, REACH_R(0.3), 3)};
    if (kind == MIRRORED) s[1] = -s[1];
    for (int i = 0; i < 3; ++i)
        a.linear.col[i] = reach_vec3_scale(a.linear.col[i], s[i]);
    return a;
}

static reach_two_bone_rig_input random_rig(test_rng *rng, parent_kind kind) {
    reach_two_bone_rig_input in;
    memset(&in, 0, sizeof in);
    in.parent_world = random_parent(rng, kind);
    in.root_local = reach_transform_make(test_unit_quat(rng), test_in_ball(rng, 1));
    in.mid_local = reach_transform_make(test_unit_quat(rng),
                                        reach_vec3_scale(test_unit_vec3(rng), test_uniform(rng, REACH_R(0.3), 2)));
    in.end_local = reach_transform_make(test_unit_quat(rng),
                                        reach_vec3_scale(test_unit_vec3(rng), test_uniform(rng, REACH_R(0.3), 2)));
    in.pole = test_in_ball(rng, 10);
    in.use_pole = 1;
    return in;
}

static void forward_kinematics_reproduces_the_solve_under_any_parent(void **state) {
    (void)state;
    for (int kind = 0; kind < PARENT_KINDS; ++kind) {
        test_rng rng = test_rng_make(100 + (uint64_t)kind);
        int reachable = 0;
        for (int n = 0; n < TEST_CASES / 10; ++n) {
            reach_two_bone_rig_input in = random_rig(&rng, (parent_kind)kind);
            rig_pose before = rig_forward(&in, in.root_local.rotation, in.mid_local.rotation, in.end_local.rotation,
                                          in.mid_local.translation, in.end_local.translation);
            /* A target the limb can reach in the parent's space: FK of a random other pose. */
            int want_reachable = n % 2 == 0;
            if (want_reachable) {
                rig_pose other = rig_forward(&in, test_unit_quat(&rng), test_unit_quat(&rng), in.end_local.rotation,
                                             in.mid_local.translation, in.end_local.translation);
                in.target = other.end;
            } else {
                in.target = test_in_ball(&rng, 20);
            }
            reach_two_bone_rig_output out;
            reach_status st = reach_two_bone_solve_rig(&in, NULL, &out);
            if (st != REACH_OK) fail_msg("%s parent: %s", parent_names[kind], reach_status_string(st));
            rig_pose after = rig_forward(&in, out.root_rotation, out.mid_rotation, out.end_rotation,
                                         out.mid_translation, out.end_translation);
            reach_real size = reach_vec3_distance(before.root, before.mid) +
                              reach_vec3_distance(before.mid, before.end) +
                              reach_vec3_length(in.parent_world.translation);
            reach_real tol = TEST_REACH_TOL * 40 * size;
            ASSERT_VEC3_NEAR(after.mid, out.mid, tol, parent_names[kind]);
            ASSERT_VEC3_NEAR(after.end, out.end, tol, parent_names[kind]);
            ASSERT_VEC3_NEAR(after.root, before.root, tol, "root does not move");
            /* The end's frame in the parent's space is kept, hence its world rotation too. */
            ASSERT_QUAT_NEAR(after.end_frame, before.end_frame, TEST_REACH_TOL * 10, "end keeps its rotation");
            if (want_reachable) {
                ++reachable;
                ASSERT_VEC3_NEAR(out.end, in.target, tol, "reaches a reachable target");
                assert_true(out.reached || out.residual <= tol);
            }
        }
        assert_true(reachable > 0);
    }
}

static void end_orientation_is_taken_under_rigid_parents(void **state) {
    (void)state;
    for (int kind = 0; kind <= ROTATED; ++kind) {
        test_rng rng = test_rng_make(200 + (uint64_t)kind);
        for (int n = 0; n < TEST_CASES / 20; ++n) {
            reach_two_bone_rig_input in = random_rig(&rng, (parent_kind)kind);
            in.target = test_in_ball(&rng, 5);
            in.end_orientation = test_unit_quat(&rng);
            in.use_end_orientation = 1;
            reach_two_bone_rig_output out;
            assert_int_equal(reach_two_bone_solve_rig(&in, NULL, &out), REACH_OK);
            rig_pose after = rig_forward(&in, out.root_rotation, out.mid_rotation, out.end_rotation,
                                         out.mid_translation, out.end_translation);
            reach_quat parent_rotation = reach_quat_from_mat3(in.parent_world.linear);
            ASSERT_QUAT_NEAR(reach_quat_mul(parent_rotation, after.end_frame), in.end_orientation, TEST_REACH_TOL * 10,
                             "world end orientation");
        }
    }
}

static void stretch_scales_the_local_translations(void **state) {
    (void)state;
    reach_two_bone_rig_input in;
    memset(&in, 0, sizeof in);
    in.parent_world = reach_affine_identity();
    in.root_local = reach_transform_identity();
    in.mid_local = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, 1, 0));
    in.end_local = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, 1, 0));
    in.target = reach_vec3_make(REACH_R(2.4), 0, 0);
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    opt.max_stretch = 2;
    reach_two_bone_rig_output out;
    assert_int_equal(reach_two_bone_solve_rig(&in, &opt, &out), REACH_OK);
    assert_true(out.reached);
    ASSERT_VEC3_NEAR(out.mid_translation, reach_vec3_make(0, REACH_R(1.2), 0), TEST_REACH_TOL * 4, "stretched mid");
    ASSERT_VEC3_NEAR(out.end, in.target, TEST_REACH_TOL * 4, "stretched end on target");
}

/* Limbs whose squared lengths leave the range (coordinates past the square root of the
 * largest number, or below that of the smallest) solve as the same limb at an ordinary scale
 * does, scaled: no bone collapses to zero or grows without bound. Powers of two, so that the
 * scaling itself is exact. */
static void limbs_at_the_ends_of_the_range_solve_as_at_unit_scale(void **state) {
    (void)state;
#ifdef REACH_DOUBLE
    const reach_real scales[] = {0x1p+520, 0x1p-530};
#else
    const reach_real scales[] = {0x1p+75f, 0x1p-80f};
#endif
    test_rng rng = test_rng_make(302);
    for (int trial = 0; trial < 200; ++trial) {
        reach_two_bone_rig_input in = random_rig(&rng, trial % 2 ? ROTATED : IDENTITY);
        in.target = test_in_ball(&rng, 3);
        reach_two_bone_settings opt = reach_two_bone_default_settings();
        opt.max_stretch = trial % 3 == 0 ? REACH_R(1.5) : 1;
        reach_two_bone_rig_output unit_out;
        assert_int_equal(reach_two_bone_solve_rig(&in, &opt, &unit_out), REACH_OK);
        for (int k = 0; k < 2; ++k) {
            reach_real s = scales[k];
            reach_two_bone_rig_input big = in;
            big.parent_world.translation = reach_vec3_scale(in.parent_world.translation, s);
            big.root_local.translation = reach_vec3_scale(in.root_local.translation, s);
            big.mid_local.translation = reach_vec3_scale(in.mid_local.translation, s);
            big.end_local.translation = reach_vec3_scale(in.end_local.translation, s);
            big.target = reach_vec3_scale(in.target, s);
            big.pole = reach_vec3_scale(in.pole, s);
            reach_two_bone_rig_output out;
            assert_int_equal(reach_two_bone_solve_rig(&big, &opt, &out), REACH_OK);
            ASSERT_VEC3_NEAR(reach_vec3_scale(out.mid_translation, 1 / s), unit_out.mid_translation, TEST_REACH_TOL,
                             "mid translation, scaled");
            ASSERT_VEC3_NEAR(reach_vec3_scale(out.end_translation, 1 / s), unit_out.end_translation, TEST_REACH_TOL,
                             "end translation, scaled");
            ASSERT_VEC3_NEAR(reach_vec3_scale(out.end, 1 / s), unit_out.end, TEST_REACH_TOL * 4, "end, scaled");
            assert_true(reach_is_finite(out.residual));
            assert_true(fabs((double)(out.residual / s - unit_out.residual)) <= (double)(TEST_REACH_TOL * 4));
            /* Close calls at the tolerance may go either way. */
            if (unit_out.residual < REACH_R(0.5) * TEST_REACH_TOL || unit_out.residual > 2 * TEST_REACH_TOL)
                assert_int_equal(out.reached, unit_out.reached);
        }
    }
}

static void bad_rigs_are_errors_with_output_untouched(void **state) {
    (void)state;
    test_rng rng = test_rng_make(300);
    reach_two_bone_rig_output out, before;
    memset(&out, 0x5a, sizeof out);
    before = out;
    reach_two_bone_rig_input in = random_rig(&rng, ROTATED);
    in.target = reach_vec3_zero();

    reach_two_bone_rig_input bad = in;
    bad.parent_world.linear.col[2] = reach_vec3_zero(); /* singular parent */
    assert_int_equal(reach_two_bone_solve_rig(&bad, NULL, &out), REACH_ERROR_INVALID_ARGUMENT);
    bad = in;
    bad.mid_local.rotation = reach_quat_make(0, 0, 0, 0);
    assert_int_equal(reach_two_bone_solve_rig(&bad, NULL, &out), REACH_ERROR_BAD_QUATERNION);
    bad = in;
    bad.end_local.translation = reach_vec3_zero();
    assert_int_equal(reach_two_bone_solve_rig(&bad, NULL, &out), REACH_ERROR_ZERO_LENGTH);
    bad = in;
    bad.parent_world.translation.y = (reach_real)NAN;
    assert_int_equal(reach_two_bone_solve_rig(&bad, NULL, &out), REACH_ERROR_NOT_FINITE);
    bad = in;
    bad.use_end_orientation = 1;
    bad.end_orientation = reach_quat_make(0, (reach_real)INFINITY, 0, 1);
    assert_int_equal(reach_two_bone_solve_rig(&bad, NULL, &out), REACH_ERROR_NOT_FINITE);
    assert_true(test_bytes_equal(&out, &before, sizeof out));
}

/* The addresses of v's components, appended to numbers at *count. */
static void add_vec3_numbers(reach_vec3 *v, reach_real **numbers, int *count) {
    numbers[(*count)++] = &v->x;
    numbers[(*count)++] = &v->y;
    numbers[(*count)++] = &v->z;
}

static void add_quat_numbers(reach_quat *q, reach_real **numbers, int *count) {
    numbers[(*count)++] = &q->x;
    numbers[(*count)++] = &q->y;
    numbers[(*count)++] = &q->z;
    numbers[(*count)++] = &q->w;
}

/* Every number of the rig input, the pole's and the end orientation's last. */
#define RIG_NUMBERS 43
static int rig_numbers(reach_two_bone_rig_input *in, reach_real **numbers) {
    int count = 0;
    for (int c = 0; c < 3; ++c)
        add_vec3_numbers(&in->parent_world.linear.col[c], numbers, &count);
    add_vec3_numbers(&in->parent_world.translation, numbers, &count);
    reach_transform *locals[] = {&in->root_local, &in->mid_local, &in->end_local};
    for (int b = 0; b < 3; ++b) {
        add_quat_numbers(&locals[b]->rotation, numbers, &count);
        add_vec3_numbers(&locals[b]->translation, numbers, &count);
    }
    add_vec3_numbers(&in->target, numbers, &count);
    add_vec3_numbers(&in->pole, numbers, &count);
    add_quat_numbers(&in->end_orientation, numbers, &count);
    return count;
}

/* Any number the solve reads, made NaN or infinite, is an error that leaves the output
 * untouched; the pole and the end orientation are not read when they are not used. */
static void every_non_finite_number_is_an_error(void **state) {
    (void)state;
    test_rng rng = test_rng_make(301);
    reach_two_bone_rig_input in = random_rig(&rng, SCALED);
    in.target = test_in_ball(&rng, 2);
    in.end_orientation = test_unit_quat(&rng);
    in.use_end_orientation = 1;
    reach_two_bone_rig_output out, before;
    assert_int_equal(reach_two_bone_solve_rig(&in, NULL, &out), REACH_OK);
    memset(&out, 0x5a, sizeof out);
    before = out;
    const reach_real bad_numbers[] = {(reach_real)NAN, (reach_real)INFINITY, -(reach_real)INFINITY};
    for (int i = 0; i < RIG_NUMBERS; ++i) {
        for (int b = 0; b < 3; ++b) {
            reach_two_bone_rig_input bad = in;
            reach_real *numbers[RIG_NUMBERS];
            assert_int_equal(rig_numbers(&bad, numbers), RIG_NUMBERS);
            *numbers[i] = bad_numbers[b];
            assert_int_equal(reach_two_bone_solve_rig(&bad, NULL, &out), REACH_ERROR_NOT_FINITE);
            assert_true(test_bytes_equal(&out, &before, sizeof out));
            /* Without an end orientation the call takes the short path: it refuses the same
             * numbers (all but the end orientation's four, the last) the same way. */
            if (i < RIG_NUMBERS - 4) {
                bad.use_end_orientation = 0;
                assert_int_equal(reach_two_bone_solve_rig(&bad, NULL, &out), REACH_ERROR_NOT_FINITE);
                assert_true(test_bytes_equal(&out, &before, sizeof out));
                bad.use_end_orientation = 1;
            }
            /* The last seven are the pole's and the end orientation's: unused, not read. */
            if (i >= RIG_NUMBERS - 7) {
                bad.use_pole = 0;
                bad.use_end_orientation = 0;
                assert_int_equal(reach_two_bone_solve_rig(&bad, NULL, &out), REACH_OK);
                out = before;
            }
        }
    }
}

/* Default options take a short path (solve_ordinary); a stretch allowance, which changes nothing
 * for a reachable target, sends the same call down the general one. Both must agree to rounding
 * under every kind of parent, with and without a pole. */
static void the_short_path_agrees_with_the_general_one(void **state) {
    (void)state;
    reach_two_bone_settings general = reach_two_bone_default_settings();
    general.max_stretch = REACH_R(1.5);
    for (int kind = 0; kind < PARENT_KINDS; ++kind) {
        test_rng rng = test_rng_make(400 + (uint64_t)kind);
        for (int n = 0; n < TEST_CASES / 10; ++n) {
            reach_two_bone_rig_input in = random_rig(&rng, (parent_kind)kind);
            in.use_pole = n % 3 != 0;
            rig_pose other = rig_forward(&in, test_unit_quat(&rng), test_unit_quat(&rng), in.end_local.rotation,
                                         in.mid_local.translation, in.end_local.translation);
            in.target = other.end;
            reach_two_bone_rig_output fast, slow;
            assert_int_equal(reach_two_bone_solve_rig(&in, NULL, &fast), REACH_OK);
            assert_int_equal(reach_two_bone_solve_rig(&in, &general, &slow), REACH_OK);
            reach_real size = reach_vec3_distance(other.root, other.end) + reach_vec3_length(other.root) + 1;
            reach_real tol = TEST_REACH_TOL * 40 * size;
            /* Compared by what they place (a near-straight limb's rotations are ill-conditioned:
             * rounding in the target turns the mid joint by about its square root). */
            rig_pose placed_fast = rig_forward(&in, fast.root_rotation, fast.mid_rotation, fast.end_rotation,
                                               fast.mid_translation, fast.end_translation);
            rig_pose placed_slow = rig_forward(&in, slow.root_rotation, slow.mid_rotation, slow.end_rotation,
                                               slow.mid_translation, slow.end_translation);
            ASSERT_VEC3_NEAR(placed_fast.mid, placed_slow.mid, tol, parent_names[kind]);
            ASSERT_VEC3_NEAR(placed_fast.end, placed_slow.end, tol, parent_names[kind]);
            ASSERT_QUAT_NEAR(placed_fast.end_frame, placed_slow.end_frame, TEST_REACH_TOL * 10, "end frame");
            ASSERT_VEC3_NEAR(fast.mid_translation, slow.mid_translation, TEST_REACH_TOL, "mid translation kept");
            ASSERT_VEC3_NEAR(fast.end_translation, slow.end_translation, TEST_REACH_TOL, "end translation kept");
            ASSERT_VEC3_NEAR(fast.mid, slow.mid, tol, parent_names[kind]);
            ASSERT_VEC3_NEAR(fast.end, slow.end, tol, parent_names[kind]);
            assert_true(fabs((double)(fast.residual - slow.residual)) <= (double)tol);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forward_kinematics_reproduces_the_solve_under_any_parent),
        cmocka_unit_test(end_orientation_is_taken_under_rigid_parents),
        cmocka_unit_test(stretch_scales_the_local_translations),
        cmocka_unit_test(limbs_at_the_ends_of_the_range_solve_as_at_unit_scale),
        cmocka_unit_test(bad_rigs_are_errors_with_output_untouched),
        cmocka_unit_test(every_non_finite_number_is_an_error),
        cmocka_unit_test(the_short_path_agrees_with_the_general_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
