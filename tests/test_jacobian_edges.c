/* The Jacobian solvers where a first-order method has nothing to go on, and the contract's
 * edges: a chain lying straight on the line to its target (every column moves the end across the
 * line, none along it: every method gave up after one iteration, `limited` 0), target weights of
 * any scale (only their ratios count), and a pose that already reaches (left bit for bit). */
#include <math.h>
#include <string.h>

#include "test_support.h"

static const reach_jacobian_method all_methods[4] = {REACH_JACOBIAN_TRANSPOSE, REACH_JACOBIAN_PSEUDOINVERSE,
                                                     REACH_JACOBIAN_DLS, REACH_JACOBIAN_SDLS};

typedef struct chain {
    int parents[8];
    reach_transform rest[8];
    reach_joint joints[8];
    reach_skeleton skeleton;
} chain;

/* `bones` bones straight up +y, one unit apart (bone 0 at the origin), ball joints or hinges
 * about +z with the range [-3, 3] (every goal below is within it). */
static void make_chain(chain *c, int bones, int hinges) {
    for (int i = 0; i < bones; ++i) {
        c->parents[i] = i - 1;
        c->rest[i] = reach_transform_identity();
        c->rest[i].translation = reach_vec3_make(0, i ? 1 : 0, 0);
        c->joints[i] = hinges ? reach_joint_hinge(reach_vec3_make(0, 0, 1), -3, 3) : reach_joint_ball();
    }
    c->skeleton = (reach_skeleton){bones, c->parents, c->rest, c->joints};
}

static reach_status solve(const chain *c, const reach_target *target, const reach_solver_settings *settings,
                          reach_transform *pose, reach_solve_result *result) {
    static unsigned char scratch[1 << 16];
    size_t need = reach_jacobian_scratch_size(&c->skeleton, 1);
    assert_true(need > 0 && need <= sizeof scratch);
    return reach_jacobian_solve(&c->skeleton, target, 1, settings, pose, scratch, need, result);
}

/* Four bones straight up: targets on that line inside the reach (ahead, at the root, behind
 * it, a ten-thousandth off it), a planar arm of hinges, and a tip meeting its grandparent. */
static void straight_chains_bend_off_their_line(void **state) {
    (void)state;
    const reach_vec3 goals[] = {{0, 1, 0}, {0, 0, 0}, {0, -2, 0}, {REACH_R(1e-4), 1, 0}, {0, REACH_R(1.5), 0}};
    for (int m = 0; m < 4; ++m) {
        reach_solver_settings settings = reach_solver_default_settings();
        settings.jacobian_method = all_methods[m];
        for (int g = 0; g < 5; ++g) {
            for (int hinges = 0; hinges < 2; ++hinges) {
                chain c;
                make_chain(&c, 4, hinges);
                reach_transform pose[8];
                reach_pose_rest(&c.skeleton, pose);
                reach_target target = reach_target_position(3, goals[g]);
                reach_solve_result result;
                assert_int_equal(solve(&c, &target, &settings, pose, &result), REACH_OK);
                if (!result.reached)
                    fail_msg("%s, %s, goal %d: %d iterations, residual %g", reach_jacobian_method_name(all_methods[m]),
                             hinges ? "hinges" : "balls", g, result.iterations, (double)result.residual);
                assert_true(reach_pose_limit_error(&c.skeleton, pose, NULL) <= 1e-5);
            }
        }
        /* The tip meets its grandparent: the pair lies on one line, the gap along it. */
        chain c;
        make_chain(&c, 4, 0);
        reach_transform pose[8];
        reach_pose_rest(&c.skeleton, pose);
        reach_target meet = reach_target_meet(3, 1);
        reach_solve_result result;
        assert_int_equal(solve(&c, &meet, &settings, pose, &result), REACH_OK);
        assert_true(result.reached);
    }
}

/* A lone target solves bit for bit alike at any weight (the weights are divided by the
 * heaviest); before, 0.001 missed and 1e20 overflowed in float. */
static void weights_are_relative(void **state) {
    (void)state;
    const reach_real weights[] = {
        1, REACH_R(0.01), REACH_R(0.001), REACH_R(1e-6), REACH_R(1e-30), REACH_R(1e20), REACH_R(3e37)};
    reach_transform first[8];
    for (size_t w = 0; w < sizeof weights / sizeof weights[0]; ++w) {
        chain c;
        make_chain(&c, 4, 0);
        reach_transform pose[8];
        reach_pose_rest(&c.skeleton, pose);
        reach_target target = reach_target_position(3, reach_vec3_make(1, 1, 0));
        target.weight = weights[w];
        reach_solve_result result;
        assert_int_equal(solve(&c, &target, NULL, pose, &result), REACH_OK);
        assert_true(result.reached);
        if (w == 0)
            memcpy(first, pose, sizeof first);
        else
            assert_memory_equal(first, pose, 4 * sizeof(reach_transform));
    }
}

/* A pose that already reaches inside its limits comes back bit for bit (the solver normalised
 * every rotation and rewrote hinges). One whose rotations are not of unit length comes back made
 * unit, in every solver: such a rotation turns a bone alike inside the solver but not in forward
 * kinematics, which takes rotations as given. One outside its limits comes back inside. */
static void a_pose_that_reaches_is_left_alone(void **state) {
    (void)state;
    chain c;
    make_chain(&c, 4, 0);
    reach_transform pose[8], before[8];
    reach_pose_rest(&c.skeleton, pose);
    pose[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(0.5));
    memcpy(before, pose, sizeof pose);
    reach_transform world[8];
    reach_forward_kinematics(&c.skeleton, pose, world);
    reach_target target = reach_target_position(3, world[3].translation);
    reach_solve_result result;
    assert_int_equal(solve(&c, &target, NULL, pose, &result), REACH_OK);
    assert_int_equal(result.iterations, 0);
    assert_true(result.reached);
    assert_memory_equal(before, pose, 4 * sizeof(reach_transform));

    typedef reach_status (*solver)(const reach_skeleton *, const reach_target *, int, const reach_solver_settings *,
                                   reach_transform *, void *, size_t, reach_solve_result *);
    const solver solvers[3] = {reach_jacobian_solve, reach_fabrik_solve, reach_ccd_solve};
    static unsigned char scratch[1 << 16];
    for (int s = 0; s < 3; ++s) {
        memcpy(pose, before, sizeof pose);
        reach_quat q = pose[1].rotation;
        pose[1].rotation = reach_quat_make(2 * q.x, 2 * q.y, 2 * q.z, 2 * q.w);
        assert_int_equal(solvers[s](&c.skeleton, &target, 1, NULL, pose, scratch, sizeof scratch, &result), REACH_OK);
        assert_true(result.reached);
        ASSERT_NEAR(reach_quat_dot(pose[1].rotation, pose[1].rotation), 1, 1e-5, "unit rotation");
        reach_forward_kinematics(&c.skeleton, pose, world);
        assert_true(reach_vec3_distance(world[3].translation, target.position) <= result.residual + 1e-5);
    }
    memcpy(pose, before, sizeof pose);

    /* Hinges about +z; bone 1 turned about +x as well, off its axis and outside its joint. */
    make_chain(&c, 4, 1);
    reach_pose_rest(&c.skeleton, pose);
    pose[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(1e-3));
    assert_int_equal(solve(&c, &target, NULL, pose, &result), REACH_OK);
    assert_true(reach_joint_limit_error(&c.joints[1], &c.rest[1], &pose[1]) <= 1e-6);
}

/* The kick turns a hinge toward the end of its range with more room: an arm whose elbows bend
 * one way only (-2.5 to 0; its shoulder turns both ways), straight, toward a point on its line,
 * bends the way it can (turned the other way, the elbows stayed straight, 1.5 short). */
static void one_sided_hinges_bend_the_way_they_can(void **state) {
    (void)state;
    chain c;
    make_chain(&c, 4, 1);
    for (int i = 1; i < 3; ++i)
        c.joints[i] = reach_joint_hinge(reach_vec3_make(0, 0, 1), REACH_R(-2.5), 0);
    for (int m = 0; m < 4; ++m) {
        reach_solver_settings settings = reach_solver_default_settings();
        settings.jacobian_method = all_methods[m];
        reach_transform pose[8];
        reach_pose_rest(&c.skeleton, pose);
        reach_target target = reach_target_position(3, reach_vec3_make(0, REACH_R(1.5), 0));
        reach_solve_result result;
        assert_int_equal(solve(&c, &target, &settings, pose, &result), REACH_OK);
        if (!result.reached)
            fail_msg("%s: %d iterations, residual %g", reach_jacobian_method_name(all_methods[m]), result.iterations,
                     (double)result.residual);
    }
}

/* The tip of make_chain's planar hinge arm at joint values a, b, c (joints 0 to 2; the tip's own
 * joint does not move it): each bone turns the next by its angle about +z, counter-clockwise. */
static void hinge_arm_tip(double a, double b, double c, double *x, double *y) {
    *x = -sin(a) - sin(a + b) - sin(a + b + c);
    *y = cos(a) + cos(a + b) + cos(a + b + c);
}

/* Limits that keep an arm from its target: the solve ends at the pose inside them nearest the
 * target. Before, DLS and the pseudoinverse returned the hinge arm's starting pose: their step,
 * with the joints it carried past a limit locked there and moved up to it, raised the error at
 * every length; the solve now also tries the step with only the joints locked that sit on a
 * limit it pushes against. The hinges' ranges are ±0.5 rad about offsets of 0, 1.6 and −2.6 rad
 * (the rest rotations turned back by as much, so the arm is the same): at the first fix, a joint
 * on a limit of 2 rad or more was not seen to sit on it. The nearest pose is found here by a
 * search over a grid of the three joints' values. Cones of 0.8 rad: DLS and the pseudoinverse
 * end where the transpose method does (the pseudoinverse stopped after 2 iterations at 3.35,
 * where 1.64 can be had, until it fell back on DLS's step where its own does not descend). */
static void limits_that_hold_the_arm_back(void **state) {
    (void)state;
    double nearest = INFINITY;
    for (int i = 0; i <= 40; ++i)
        for (int j = 0; j <= 40; ++j)
            for (int k = 0; k <= 40; ++k) {
                double x, y;
                hinge_arm_tip(-0.5 + i / 40.0, -0.5 + j / 40.0, -0.5 + k / 40.0, &x, &y);
                nearest = fmin(nearest, hypot(x + 1, y + 1));
            }
    const reach_real offsets[3] = {0, REACH_R(1.6), REACH_R(-2.6)};
    for (int o = 0; o < 3; ++o) {
        chain c;
        make_chain(&c, 4, 1);
        for (int i = 0; i < 4; ++i) {
            c.rest[i].rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), -offsets[o]);
            c.joints[i] =
                reach_joint_hinge(reach_vec3_make(0, 0, 1), offsets[o] - REACH_R(0.5), offsets[o] + REACH_R(0.5));
        }
        for (int m = 0; m < 4; ++m) {
            reach_solver_settings settings = reach_solver_default_settings();
            settings.jacobian_method = all_methods[m];
            reach_transform pose[8];
            for (int i = 0; i < 4; ++i) {
                /* The same pose as at offset 0: hinge angles 0.3 past the offset (0 at the root). */
                pose[i] = c.rest[i];
                pose[i].rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), i ? REACH_R(0.3) : 0);
            }
            reach_target target = reach_target_position(3, reach_vec3_make(-1, -1, 0));
            reach_solve_result result;
            assert_int_equal(solve(&c, &target, &settings, pose, &result), REACH_OK);
            if (!((double)result.residual <= nearest + 1e-3 && result.limited))
                fail_msg("%s, offset %g: residual %g, nearest %g", reach_jacobian_method_name(all_methods[m]),
                         (double)offsets[o], (double)result.residual, nearest);
            assert_true(reach_pose_limit_error(&c.skeleton, pose, NULL) <= 1e-5);
        }
    }
    chain c;
    make_chain(&c, 4, 0);
    for (int i = 0; i < 4; ++i)
        c.joints[i] = reach_joint_cone(reach_vec3_make(0, 1, 0), REACH_R(0.8));
    reach_real ends[3];
    for (int m = 0; m < 3; ++m) {
        reach_solver_settings settings = reach_solver_default_settings();
        settings.jacobian_method = all_methods[m];
        settings.max_iterations = 1000;
        reach_transform pose[8];
        reach_pose_rest(&c.skeleton, pose);
        for (int i = 1; i < 4; ++i)
            pose[i].rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(0.48));
        reach_target target = reach_target_position(3, reach_vec3_make(-1, -1, REACH_R(0.3)));
        reach_solve_result result;
        assert_int_equal(solve(&c, &target, &settings, pose, &result), REACH_OK);
        ends[m] = result.residual;
        assert_true(reach_pose_limit_error(&c.skeleton, pose, NULL) <= 1e-5);
    }
    ASSERT_NEAR(ends[2], ends[0], 1e-3, "DLS against the transpose method, cones of 0.8 rad");
    ASSERT_NEAR(ends[1], ends[0], 1e-3, "the pseudoinverse against the transpose method, cones of 0.8 rad");
}

/* The solve of a planar arm of five hinges (ranges 0.2 to 1.7 rad wide about offsets up to
 * ±2.5, the rest rotations turned back by as much) from `values`, by `method`; the residual. */
static reach_real solve_hinge_arm(const chain *c, const reach_real *values, reach_vec3 goal,
                                  reach_jacobian_method method) {
    reach_solver_settings settings = reach_solver_default_settings();
    settings.jacobian_method = method;
    reach_transform pose[8];
    for (int i = 0; i < 5; ++i) {
        pose[i] = c->rest[i];
        pose[i].rotation =
            reach_quat_mul(c->rest[i].rotation, reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), values[i]));
    }
    reach_target target = reach_target_position(4, goal);
    reach_solve_result result;
    assert_int_equal(solve(c, &target, &settings, pose, &result), REACH_OK);
    return result.residual;
}

/* A start with joints on their limits solves like the same start with them a few roundings past
 * (which the solve clamps onto the limits exactly): the angles read back from the pose land an
 * ulp or two off the limit, and the second step must still see such a joint on it. Before, 199
 * of 3 000 such pairs ended more than 5 % apart in double (one at the starting pose, residual
 * 4.09, the other at 0.77). The transpose method is left out: at the cap of 64 iterations its
 * ends differ with any rounding of the start. */
static void starts_on_a_limit_solve_alike(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x11a17);
    int differing = 0, cases = test_scaled(600) + 20;
    for (int k = 0; k < cases; ++k) {
        chain c;
        make_chain(&c, 5, 1);
        reach_real on[5], past[5];
        for (int i = 0; i < 5; ++i) {
            reach_real offset = test_uniform(&rng, REACH_R(-2.5), REACH_R(2.5));
            reach_real width = test_uniform(&rng, REACH_R(0.2), REACH_R(1.7));
            c.rest[i].rotation = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), -offset);
            c.joints[i] = reach_joint_hinge(reach_vec3_make(0, 0, 1), offset - width * test_uniform(&rng, 0, 1),
                                            offset + width * test_uniform(&rng, 0, 1));
            reach_real u = test_uniform(&rng, 0, 1), min = c.joints[i].min, max = c.joints[i].max;
            reach_real nudge = 4 * REACH_REAL_EPSILON * (1 + reach_fabs(u < REACH_R(0.35) ? min : max));
            on[i] = u < REACH_R(0.35) ? min : u < REACH_R(0.7) ? max : min + (max - min) * test_uniform(&rng, 0, 1);
            past[i] = u < REACH_R(0.35) ? on[i] - nudge : u < REACH_R(0.7) ? on[i] + nudge : on[i];
        }
        reach_vec3 goal = reach_vec3_make(test_uniform(&rng, -4, 4), test_uniform(&rng, -4, 4), 0);
        for (int m = 1; m < 4; ++m) {
            reach_real a = solve_hinge_arm(&c, on, goal, all_methods[m]);
            reach_real b = solve_hinge_arm(&c, past, goal, all_methods[m]);
            if (a > b * REACH_R(1.05) + REACH_R(1e-4) || b > a * REACH_R(1.05) + REACH_R(1e-4)) ++differing;
        }
    }
    print_message("starts on a limit against a few roundings past it: %d of %d solves differ\n", differing, 3 * cases);
    assert_int_equal(differing, 0);
}

/* A fixed damping so small that λ² (normalised) lies below 1 / the largest real, on a planar arm
 * whose J has a row of zeros (out of its plane): the normal equations' factorisation has no
 * finite reciprocal for that pivot and must say so, for the SVD to take the step. (It once
 * stored an infinity, every step came out NaN and the solve stopped where it started, 1.4
 * away.) A damping merely small solves alike. */
static void a_vanishing_damping_falls_back_to_the_svd(void **state) {
    (void)state;
    chain c;
    make_chain(&c, 4, 1);
    reach_transform start[8];
    reach_pose_rest(&c.skeleton, start);
    const reach_real values[4] = {REACH_R(0.3), REACH_R(0.5), REACH_R(-0.4), 0};
    assert_int_equal(reach_pose_set_values(&c.skeleton, values, 4, 0, start), REACH_OK);
    reach_target target = reach_target_position(3, reach_vec3_make(REACH_R(1.2), REACH_R(1.5), 0));
#ifdef REACH_DOUBLE
    const reach_real dampings[2] = {1e-156, 1e-12};
#else
    const reach_real dampings[2] = {1e-20f, 1e-6f};
#endif
    for (int d = 0; d < 2; ++d) {
        reach_solver_settings settings = reach_solver_default_settings();
        settings.jacobian_method = REACH_JACOBIAN_DLS;
        settings.damping = dampings[d];
        reach_transform pose[8];
        memcpy(pose, start, sizeof pose);
        reach_solve_result result;
        assert_int_equal(solve(&c, &target, &settings, pose, &result), REACH_OK);
        assert_true(result.reached);
    }
}

/* A chain of bones of no length moves no effector: a position target off its root is missed
 * after one iteration, restarts or not (it once ran all 50 restarts, 101 iterations, to the same
 * answer), and one on its root is reached with none. A target's orientation can still be met
 * there, and restarts stay on for it. */
static void a_chain_of_no_length_takes_no_restarts(void **state) {
    (void)state;
    chain c;
    make_chain(&c, 4, 0);
    for (int i = 0; i < 4; ++i)
        c.rest[i].translation = reach_vec3_zero();
    reach_solver_settings robust = reach_solver_default_settings();
    robust.restarts = 50;
    robust.max_iterations = 1000;
    reach_transform pose[8];
    reach_solve_result result;
    reach_target off_root = reach_target_position(3, reach_vec3_make(1, 0, 0));
    reach_pose_rest(&c.skeleton, pose);
    assert_int_equal(solve(&c, &off_root, &robust, pose, &result), REACH_OK);
    assert_false(result.reached);
    assert_int_equal(result.iterations, 1);
    ASSERT_NEAR(result.residual, 1, 1e-6, "distance from the root");
    reach_target on_root = reach_target_position(3, reach_vec3_zero());
    reach_pose_rest(&c.skeleton, pose);
    assert_int_equal(solve(&c, &on_root, &robust, pose, &result), REACH_OK);
    assert_true(result.reached);
    assert_int_equal(result.iterations, 0);
    /* Bones of no length at rest but given one in the pose keep it, and their restarts: a target
     * the first attempt misses (hinges that turn -0.3 to 2.8 only, a point across) is reached. */
    for (int i = 0; i < 4; ++i)
        c.joints[i] = reach_joint_hinge(reach_vec3_make(0, 0, 1), REACH_R(-0.3), REACH_R(2.8));
    reach_solver_settings single = robust;
    single.restarts = 0;
    reach_target across = reach_target_position(3, reach_vec3_make(REACH_R(1.0), REACH_R(-1.96), 0));
    int reached[2];
    for (int s = 0; s < 2; ++s) {
        reach_pose_rest(&c.skeleton, pose);
        for (int i = 1; i < 4; ++i)
            pose[i].translation = reach_vec3_make(0, 1, 0);
        assert_int_equal(solve(&c, &across, s ? &robust : &single, pose, &result), REACH_OK);
        reached[s] = result.reached;
    }
    assert_false(reached[0]);
    assert_true(reached[1]);
    for (int i = 0; i < 4; ++i)
        c.joints[i] = reach_joint_ball();
    reach_target turned = on_root;
    turned.orientation = reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(2.0));
    turned.use_orientation = 1;
    reach_pose_rest(&c.skeleton, pose);
    assert_int_equal(solve(&c, &turned, &robust, pose, &result), REACH_OK);
    assert_true(result.reached);
}

/* A prismatic joint whose range runs to the end of reach_real: a restart can slide it so far
 * that the world coordinates overflow. Such a pose is as far from the targets as can be and must
 * never be taken or handed back (the robust length reads a vector with a NaN in it as zero, which
 * once made an overflowed pose "reached" with residual 0; found by fuzz_jacobian, seed
 * prismatic_overflow). Every method, restarts on, targets the end cannot reach so the solves
 * stall and restart (under a tolerance of their own: the slide's range counts in the chain's
 * length, so the default is vast); the pose returned is finite, not reached, and its residual
 * the true one. */
static void a_slide_to_the_end_of_the_range_is_never_taken(void **state) {
    (void)state;
    const reach_real end_of_range = TEST_END_OF_RANGE;
    chain c;
    make_chain(&c, 3, 0);
    c.joints[1] = reach_joint_prismatic(reach_vec3_make(0, 1, 0), 0, end_of_range);
    test_rng rng = test_rng_make(0x51de);
    for (int m = 0; m < 4; ++m) {
        for (int k = 0; k < 50; ++k) {
            reach_solver_settings settings = reach_solver_default_settings();
            settings.jacobian_method = all_methods[m];
            settings.restarts = 8;
            settings.max_iterations = 40;
            settings.seed = (uint64_t)k;
            settings.tolerance = REACH_R(1e-3); /* the default, from the chain's length, is vast */
            /* The end lies two units out at least (a link, the slide, a link): a target one
             * unit from the root is out of its reach. */
            reach_target target = reach_target_position(2, test_unit_vec3(&rng));
            reach_transform pose[3];
            reach_pose_rest(&c.skeleton, pose);
            reach_solve_result result;
            assert_int_equal(solve(&c, &target, &settings, pose, &result), REACH_OK);
            reach_transform world[3];
            reach_forward_kinematics(&c.skeleton, pose, world);
            for (int b = 0; b < 3; ++b)
                assert_true(reach_vec3_is_finite(world[b].translation));
            assert_false(result.reached);
            assert_true(
                fabs((double)result.residual - (double)reach_vec3_distance(world[2].translation, target.position)) <=
                1e-4 * (1 + (double)result.residual));
        }
    }
}

/* A pose that starts slid 2e38 along such a slide (its world coordinates finite), with the target
 * on its end: read without overflow (the rest turned half a turn about x, so the rotation's
 * cross products double the offset on the way), reached at once. */
static void a_start_slid_toward_the_end_of_the_range_is_read(void **state) {
    (void)state;
    chain c;
    make_chain(&c, 3, 0);
    c.rest[1].rotation = reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_PI);
    c.joints[1] = reach_joint_prismatic(reach_vec3_make(0, 1, 0), 0, TEST_END_OF_RANGE);
    reach_transform pose[3];
    reach_pose_rest(&c.skeleton, pose);
    pose[1].translation = reach_vec3_mad(c.rest[1].translation, reach_quat_rotate(c.rest[1].rotation, c.joints[1].axis),
                                         (reach_real)(TEST_END_OF_RANGE * 0.6));
    reach_transform world[3];
    reach_forward_kinematics(&c.skeleton, pose, world);
    assert_true(reach_vec3_is_finite(world[2].translation));
    for (int m = 0; m < 4; ++m) {
        reach_solver_settings settings = reach_solver_default_settings();
        settings.jacobian_method = all_methods[m];
        reach_target target = reach_target_position(2, world[2].translation);
        reach_transform solved[3];
        memcpy(solved, pose, sizeof solved);
        reach_solve_result result;
        assert_int_equal(solve(&c, &target, &settings, solved, &result), REACH_OK);
        assert_true(result.reached);
        assert_int_equal(result.iterations, 0);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(straight_chains_bend_off_their_line),
        cmocka_unit_test(weights_are_relative),
        cmocka_unit_test(a_pose_that_reaches_is_left_alone),
        cmocka_unit_test(one_sided_hinges_bend_the_way_they_can),
        cmocka_unit_test(limits_that_hold_the_arm_back),
        cmocka_unit_test(starts_on_a_limit_solve_alike),
        cmocka_unit_test(a_vanishing_damping_falls_back_to_the_svd),
        cmocka_unit_test(a_chain_of_no_length_takes_no_restarts),
        cmocka_unit_test(a_slide_to_the_end_of_the_range_is_never_taken),
        cmocka_unit_test(a_start_slid_toward_the_end_of_the_range_is_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
