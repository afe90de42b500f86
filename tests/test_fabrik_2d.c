/* FABRIK in 2-D on points: reach rate, lengths, angle limits against the parent bone, targets
 * out of reach, moving the root, and errors. */
#include "test_fabrik_rigs.h"

#define MAX_JOINTS 70

typedef struct chain2 {
    reach_vec2 joints[MAX_JOINTS];
    reach_real lengths[MAX_JOINTS], lo[MAX_JOINTS], hi[MAX_JOINTS];
    reach_fabrik_2d_chain chain;
    reach_real total;
} chain2;

/* Random lengths in [0.5, 1.5], joints laid out straight along +x from the origin. */
static void chain2_make(chain2 *c, test_rng *rng, int bones, int limited) {
    c->total = 0;
    c->joints[0] = reach_vec2_make(0, 0);
    for (int i = 0; i < bones; ++i) {
        c->lengths[i] = test_uniform(rng, REACH_R(0.5), REACH_R(1.5));
        c->total += c->lengths[i];
        c->joints[i + 1] = reach_vec2_make(c->total, 0);
        c->lo[i] = test_uniform(rng, -REACH_PI, 0);
        c->hi[i] = test_uniform(rng, 0, REACH_PI);
    }
    c->chain.bone_count = bones;
    c->chain.joints = c->joints;
    c->chain.lengths = c->lengths;
    c->chain.min_angle = limited ? c->lo : NULL;
    c->chain.max_angle = limited ? c->hi : NULL;
    c->chain.base_direction = reach_vec2_make(1, 0);
}

/* The end of the chain for turns (relative to the parent bone, bone 0 to +x) inside its limits. */
static reach_vec2 random_reachable(const chain2 *c, test_rng *rng) {
    reach_vec2 p = c->joints[0];
    reach_real heading = 0;
    for (int i = 0; i < c->chain.bone_count; ++i) {
        heading += c->chain.min_angle ? test_uniform(rng, c->lo[i], c->hi[i]) : test_uniform(rng, -REACH_PI, REACH_PI);
        p = reach_vec2_add(p, reach_vec2_make(reach_cos(heading) * c->lengths[i], reach_sin(heading) * c->lengths[i]));
    }
    return p;
}

/* Lengths kept and every turn inside its limits (when limited). */
static void check_shape(const chain2 *c) {
    reach_vec2 parent = reach_vec2_make(1, 0);
    for (int i = 0; i < c->chain.bone_count; ++i) {
        reach_vec2 bone = reach_vec2_sub(c->joints[i + 1], c->joints[i]);
        ASSERT_NEAR(reach_vec2_length(bone), c->lengths[i], TEST_LENGTH_TOL * c->total, "length kept");
        reach_vec2 d = reach_vec2_scale(bone, 1 / reach_vec2_length(bone));
        if (c->chain.min_angle) {
            reach_real turn = reach_atan2(reach_vec2_cross(parent, d), reach_vec2_dot(parent, d));
            assert_true(turn >= c->lo[i] - RIG_LIMIT_TOL * 10 && turn <= c->hi[i] + RIG_LIMIT_TOL * 10);
        }
        parent = d;
    }
}

static void reaches_random_targets(void **state) {
    (void)state;
    static const int sizes[] = {1, 2, 3, 4, 8, 16, 64};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        test_rng rng = test_rng_make(0x2d0 + k);
        int cases = 10000, reached = 0;
        long iterations = 0;
        for (int c = 0; c < cases; ++c) {
            chain2 ch;
            chain2_make(&ch, &rng, sizes[k], 0);
            reach_vec2 target = random_reachable(&ch, &rng);
            reach_solve_result result;
            assert_int_equal(reach_fabrik_solve_2d(&ch.chain, target, NULL, &result), REACH_OK);
            check_shape(&ch);
            ASSERT_NEAR(result.residual, reach_vec2_distance(ch.joints[sizes[k]], target), 1e-6 * ch.total, "residual");
            reached += result.reached;
            iterations += result.iterations;
        }
        print_message("fabrik 2-D %2d bones: reached %.3f%%, mean iterations %.3f\n", sizes[k], 100.0 * reached / cases,
                      (double)iterations / cases);
        assert_true(reached >= cases * 999 / 1000);
    }
}

static void limits_hold(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x2d1);
    int cases = 10000, reachable = 0, reached = 0;
    for (int c = 0; c < cases; ++c) {
        chain2 ch;
        chain2_make(&ch, &rng, 2 + c % 8, 1);
        int in_limits = c % 2 == 0;
        reach_vec2 target = in_limits ? random_reachable(&ch, &rng)
                                      : reach_vec2_make(test_uniform(&rng, -ch.total, ch.total),
                                                        test_uniform(&rng, -ch.total, ch.total));
        reach_solve_result result;
        assert_int_equal(reach_fabrik_solve_2d(&ch.chain, target, NULL, &result), REACH_OK);
        check_shape(&ch);
        reachable += in_limits;
        reached += in_limits && result.reached;
    }
    print_message("fabrik 2-D with limits: targets reachable within the limits reached %.2f%%\n",
                  100.0 * reached / reachable);
    /* Measured 93%; a floor to catch regressions. */
    assert_true(reached >= reachable * 88 / 100);
}

static void out_of_reach_lies_straight(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x2d2);
    for (int c = 0; c < 1000; ++c) {
        chain2 ch;
        chain2_make(&ch, &rng, 1 + c % 6, 0);
        reach_real angle = test_uniform(&rng, -REACH_PI, REACH_PI), distance = ch.total * test_uniform(&rng, 1.01f, 3);
        reach_vec2 target = reach_vec2_make(reach_cos(angle) * distance, reach_sin(angle) * distance);
        reach_solve_result result;
        assert_int_equal(reach_fabrik_solve_2d(&ch.chain, target, NULL, &result), REACH_OK);
        assert_false(result.reached);
        ASSERT_NEAR(result.residual, distance - ch.total, 1e-4 * ch.total, "beyond reach");
        for (int i = 0; i <= ch.chain.bone_count; ++i)
            ASSERT_NEAR(reach_vec2_cross(ch.joints[i], reach_vec2_make(reach_cos(angle), reach_sin(angle))), 0,
                        1e-3 * ch.total, "on the line to the target");
        /* Moving the root closes the rest. */
        reach_solver_settings settings = reach_solver_default_settings();
        settings.fabrik_move_root = 1;
        chain2_make(&ch, &rng, 1 + c % 6, 0);
        target = reach_vec2_make(reach_cos(angle) * 2 * ch.total, reach_sin(angle) * 2 * ch.total);
        assert_int_equal(reach_fabrik_solve_2d(&ch.chain, target, &settings, &result), REACH_OK);
        assert_true(result.reached);
        check_shape(&ch);
    }
}

/* Unlimited chains toward 0.99 to 1 of their reach, from straight and from the last solution,
 * with links from 0.5 to 1.5 and from 0.01 to 10: every target reached in a few iterations. The
 * passes crawled there until the CCD polish took the second half of the budget (about 30
 * iterations); the bridge from the root ends the crawl, passing over joints onto which no
 * triangle closes (a long link after a tiny one). */
static void the_edge_of_reach_takes_few_iterations(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x2d2e);
    const reach_real fractions[] = {REACH_R(0.99), REACH_R(0.999), REACH_R(0.9999), 1};
    int cases = 0, most = 0;
    long iterations = 0;
    for (int c = 0; c < test_scaled(400) + 40; ++c) {
        chain2 ch;
        chain2_make(&ch, &rng, 3 + c % 8, 0);
        if (c % 2) {
            /* Uneven links, 0.01 to 10 (log-uniform), laid out straight along +x again. */
            ch.total = 0;
            for (int i = 0; i < ch.chain.bone_count; ++i) {
                ch.lengths[i] = REACH_R(0.01) * reach_exp(test_uniform(&rng, 0, REACH_R(6.9)));
                ch.total += ch.lengths[i];
                ch.joints[i + 1] = reach_vec2_make(ch.total, 0);
            }
        }
        for (int f = 0; f < 4; ++f) {
            reach_real angle = test_uniform(&rng, -REACH_PI, REACH_PI);
            reach_real distance = fractions[f] * ch.total;
            reach_vec2 target = reach_vec2_make(distance * reach_cos(angle), distance * reach_sin(angle));
            reach_solve_result r;
            assert_int_equal(reach_fabrik_solve_2d(&ch.chain, target, NULL, &r), REACH_OK);
            check_shape(&ch);
            assert_true(r.reached);
            iterations += r.iterations;
            most = r.iterations > most ? r.iterations : most;
            ++cases;
        }
    }
    print_message("2-D FABRIK at 0.99 to 1 of the reach: %.2f iterations on average over %d targets, at most %d\n",
                  (double)iterations / cases, cases, most);
    assert_true(iterations <= 5 * (long)cases);
    assert_true(most <= 12);
}

/* Seed 002's spider leg: three bones of 50, 45 and 35 pixels. */
static void spider_leg_in_pixels(void **state) {
    (void)state;
    chain2 ch;
    test_rng rng = test_rng_make(0x2d3);
    chain2_make(&ch, &rng, 3, 0);
    reach_real lengths[] = {50, 45, 35};
    memcpy(ch.lengths, lengths, sizeof lengths);
    ch.total = 130;
    for (int i = 0; i <= 3; ++i)
        ch.joints[i] = reach_vec2_make(400 + (reach_real)i * 40, 300);
    reach_solve_result result;
    reach_vec2 foot = reach_vec2_make(480, 380);
    assert_int_equal(reach_fabrik_solve_2d(&ch.chain, foot, NULL, &result), REACH_OK);
    assert_true(result.reached);
    check_shape(&ch);
    ASSERT_NEAR(ch.joints[0].x, 400, 0, "root stays");
}

static void same_input_same_bits(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x2d4);
    for (int c = 0; c < 500; ++c) {
        chain2 a, b;
        test_rng copy = rng;
        chain2_make(&a, &rng, 2 + c % 10, c % 2);
        chain2_make(&b, &copy, 2 + c % 10, c % 2);
        reach_vec2 target = reach_vec2_make(test_uniform(&rng, -5, 5), test_uniform(&rng, -5, 5));
        reach_solve_result ra, rb;
        assert_int_equal(reach_fabrik_solve_2d(&a.chain, target, NULL, &ra), REACH_OK);
        assert_int_equal(reach_fabrik_solve_2d(&b.chain, target, NULL, &rb), REACH_OK);
        assert_true(test_bytes_equal(a.joints, b.joints, sizeof(reach_vec2) * (size_t)(a.chain.bone_count + 1)));
        assert_true(rig_same_result(&ra, &rb));
    }
}

/* Only the chain's own joints are compared: the arrays are longer than any one chain. */
static void expect_error(chain2 *c, reach_vec2 target, reach_status expected) {
    reach_vec2 before[MAX_JOINTS];
    size_t bytes = sizeof before[0] * (size_t)(c->chain.bone_count + 1);
    memcpy(before, c->joints, bytes);
    reach_solve_result result;
    assert_int_equal(reach_fabrik_solve_2d(&c->chain, target, NULL, &result), expected);
    assert_true(test_bytes_equal(before, c->joints, bytes));
}

static void bad_input_is_an_error_and_leaves_joints(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x2d5);
    chain2 c;
    reach_vec2 target = reach_vec2_make(1, 1);
    chain2_make(&c, &rng, 4, 1);
    expect_error(&c, reach_vec2_make((reach_real)NAN, 0), REACH_ERROR_NOT_FINITE);
    c.joints[2].y = (reach_real)INFINITY;
    expect_error(&c, target, REACH_ERROR_NOT_FINITE);
    chain2_make(&c, &rng, 4, 1);
    c.lengths[1] = 0;
    expect_error(&c, target, REACH_ERROR_ZERO_LENGTH);
    chain2_make(&c, &rng, 4, 1);
    c.lo[2] = 1;
    c.hi[2] = 0;
    expect_error(&c, target, REACH_ERROR_INVALID_ARGUMENT);
    chain2_make(&c, &rng, 4, 1);
    c.chain.base_direction = reach_vec2_make(0, 0);
    expect_error(&c, target, REACH_ERROR_INVALID_ARGUMENT);
    chain2_make(&c, &rng, 4, 1);
    c.chain.max_angle = NULL;
    expect_error(&c, target, REACH_ERROR_INVALID_ARGUMENT);
    chain2_make(&c, &rng, 4, 0);
    c.chain.lengths = NULL;
    expect_error(&c, target, REACH_ERROR_INVALID_ARGUMENT);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reaches_random_targets),
        cmocka_unit_test(limits_hold),
        cmocka_unit_test(out_of_reach_lies_straight),
        cmocka_unit_test(spider_leg_in_pixels),
        cmocka_unit_test(the_edge_of_reach_takes_few_iterations),
        cmocka_unit_test(same_input_same_bits),
        cmocka_unit_test(bad_input_is_an_error_and_leaves_joints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
