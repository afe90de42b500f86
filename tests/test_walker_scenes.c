/* The standard paths and terrains that the CLI, the demo and the web page share. */
#include <math.h>
#include <string.h>

#include "test_support.h"

#ifdef REACH_DOUBLE
#define TOL 1e-9
#else
#define TOL 2e-4
#endif

static void sample(const reach_walk_path *path, reach_real t, reach_vec2 *p, reach_real *heading) {
    assert_int_equal(reach_walk_path_sample(path, t, p, heading), REACH_OK);
}

/* Every path starts at the origin, moves continuously at about its speed, and faces along its
 * own motion; the closed ones come back after one period. */
static void test_paths_follow_their_tangent(void **state) {
    (void)state;
    for (int kind = 0; kind < 3; kind++) {
        reach_walk_path path = reach_walk_path_default((reach_walk_path_kind)kind);
        reach_vec2 p0;
        reach_real h0;
        sample(&path, 0, &p0, &h0);
        ASSERT_NEAR(reach_vec2_length(p0), 0, TOL, "starts at the origin");
        reach_real period = reach_walk_path_period(&path), span = period > 0 ? period : 30;
        const int steps = 20000;
        reach_real dt = span / (reach_real)steps;
        reach_vec2 prev = p0;
        reach_real prev_heading = h0;
        for (int i = 1; i <= steps; i++) {
            reach_vec2 p;
            reach_real heading;
            sample(&path, dt * (reach_real)i, &p, &heading);
            reach_vec2 step = reach_vec2_sub(p, prev);
            reach_real speed = reach_vec2_length(step) / dt;
            if (kind == REACH_WALK_PATH_FIGURE8) {
                assert_true(speed > REACH_R(0.65) * path.speed && speed < REACH_R(1.43) * path.speed);
            } else {
                ASSERT_NEAR(speed, path.speed, 1e-2, "speed");
            }
            /* Facing along the motion: the step's direction is the heading halfway through it. */
            reach_real mid = (heading + prev_heading) / 2;
            reach_vec2 facing = reach_vec2_make(reach_cos(mid), reach_sin(mid));
            ASSERT_NEAR(reach_vec2_dot(step, facing) / reach_vec2_length(step), 1, 1e-3, "heading along the path");
            ASSERT_NEAR(heading, prev_heading, 0.01, "heading continuous");
            prev = p;
            prev_heading = heading;
        }
        if (period > 0) ASSERT_NEAR(reach_vec2_distance(prev, p0), 0, 1e-3 * path.size, "closes after a period");
    }
    reach_walk_path line = reach_walk_path_default(REACH_WALK_PATH_LINE);
    assert_true(reach_walk_path_period(&line) == 0);
    reach_walk_path circle = reach_walk_path_default(REACH_WALK_PATH_CIRCLE);
    ASSERT_NEAR(reach_walk_path_period(&circle), 2 * REACH_PI * circle.size / circle.speed, TOL * 40, "circle lap");
}

static void test_bad_paths_are_refused(void **state) {
    (void)state;
    reach_vec2 p = reach_vec2_make(7, 7);
    reach_real heading = 7;
    reach_walk_path path = reach_walk_path_default(REACH_WALK_PATH_CIRCLE);
    assert_int_equal(reach_walk_path_sample(&path, (reach_real)NAN, &p, &heading), REACH_ERROR_NOT_FINITE);
    path.size = 0;
    assert_int_equal(reach_walk_path_sample(&path, 0, &p, &heading), REACH_ERROR_INVALID_ARGUMENT);
    assert_true(reach_walk_path_period(&path) == 0);
    path = reach_walk_path_default((reach_walk_path_kind)7);
    assert_int_equal(reach_walk_path_sample(&path, 0, &p, &heading), REACH_ERROR_INVALID_ARGUMENT);
    path = reach_walk_path_default(REACH_WALK_PATH_LINE);
    path.speed = (reach_real)INFINITY;
    assert_int_equal(reach_walk_path_sample(&path, 0, &p, &heading), REACH_ERROR_INVALID_ARGUMENT);
    assert_true(p.x == 7 && p.y == 7 && heading == 7);
}

static void test_names_round_trip(void **state) {
    (void)state;
    const char *paths[] = {"circle", "line", "figure8"}, *terrains[] = {"flat", "waves", "steps"};
    for (int i = 0; i < 3; i++) {
        reach_walk_path_kind pk = (reach_walk_path_kind)99;
        reach_walk_terrain_kind tk = (reach_walk_terrain_kind)99;
        assert_int_equal(reach_walk_path_parse(paths[i], &pk), REACH_OK);
        assert_int_equal((int)pk, i);
        assert_string_equal(reach_walk_path_name(pk), paths[i]);
        assert_int_equal(reach_walk_terrain_parse(terrains[i], &tk), REACH_OK);
        assert_int_equal((int)tk, i);
        assert_string_equal(reach_walk_terrain_name(tk), terrains[i]);
    }
    reach_walk_path_kind pk = REACH_WALK_PATH_LINE;
    reach_walk_terrain_kind tk = REACH_WALK_TERRAIN_STEPS;
    assert_int_equal(reach_walk_path_parse("square", &pk), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_walk_path_parse("Circle", &pk), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_walk_terrain_parse("", &tk), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(pk, REACH_WALK_PATH_LINE);
    assert_int_equal(tk, REACH_WALK_TERRAIN_STEPS);
    assert_string_equal(reach_walk_path_name((reach_walk_path_kind)5), "unknown");
    assert_string_equal(reach_walk_terrain_name((reach_walk_terrain_kind)-1), "unknown");
}

static void ground(reach_walk_terrain *t, reach_real x, reach_real y, reach_real *h, reach_vec3 *n) {
    reach_walk_terrain_ground(t, x, y, h, n);
}

/* Waves: the normal is the surface's (checked against central differences); steps: flat
 * treads at whole multiples of the rise, 0 to 4 rises high, one rise apart across an edge. */
static void test_terrains(void **state) {
    (void)state;
    test_rng rng = test_rng_make(77);
    reach_walk_terrain flat = reach_walk_terrain_default(REACH_WALK_TERRAIN_FLAT);
    reach_walk_terrain waves = reach_walk_terrain_default(REACH_WALK_TERRAIN_WAVES);
    reach_walk_terrain steps = reach_walk_terrain_default(REACH_WALK_TERRAIN_STEPS);
    for (int i = 0; i < 20000; i++) {
        reach_real x = test_uniform(&rng, -40, 40), y = test_uniform(&rng, -40, 40), h;
        reach_vec3 n;
        ground(&flat, x, y, &h, &n);
        assert_true(h == 0 && n.x == 0 && n.y == 0 && n.z == 1);

        ground(&waves, x, y, &h, &n);
        assert_true(reach_fabs(h) <= waves.height);
        ASSERT_NEAR(reach_vec3_length(n), 1, TOL, "unit normal");
        double e = 1e-3, hx1, hx0, hy1, hy0;
        reach_real a, b;
        reach_vec3 unused;
        ground(&waves, x + (reach_real)e, y, &a, &unused), ground(&waves, x - (reach_real)e, y, &b, &unused);
        hx1 = (double)a, hx0 = (double)b;
        ground(&waves, x, y + (reach_real)e, &a, &unused), ground(&waves, x, y - (reach_real)e, &b, &unused);
        hy1 = (double)a, hy0 = (double)b;
        reach_vec3 numeric = reach_vec3_normalize_safe(
            reach_vec3_make((reach_real)(-(hx1 - hx0) / (2 * e)), (reach_real)(-(hy1 - hy0) / (2 * e)), 1),
            reach_vec3_zero());
        ASSERT_VEC3_NEAR(n, numeric, 5e-3, "wave normal");

        ground(&steps, x, y, &h, &n);
        reach_real level = h / steps.height;
        ASSERT_NEAR(level, reach_floor(level + REACH_R(0.5)), TOL, "a whole number of rises");
        assert_true(level > -TOL && level < 4 + TOL);
        assert_true(n.z == 1);
        reach_real h2;
        ground(&steps, x + steps.wavelength, y, &h2, &n);
        ASSERT_NEAR(reach_fabs(h2 - h), steps.height, TOL, "one rise to the next terrace");
    }
    /* Levels along x: 0, 1, 2, 1, 0, ... from the origin on. */
    const reach_real levels[] = {0, 1, 2, 1, 0, 1};
    for (int k = 0; k < 6; k++) {
        reach_real h;
        reach_vec3 n;
        ground(&steps, (reach_real)k * steps.wavelength + REACH_R(0.1), REACH_R(0.1), &h, &n);
        ASSERT_NEAR(h, levels[k] * steps.height, TOL, "terrace level");
    }
}

static void test_invalid_terrain_is_flat(void **state) {
    (void)state;
    reach_walk_terrain bad = reach_walk_terrain_default(REACH_WALK_TERRAIN_WAVES);
    bad.wavelength = 0;
    reach_real h = 5;
    reach_vec3 n = reach_vec3_zero();
    reach_walk_terrain_ground(&bad, 1, 1, &h, &n);
    assert_true(h == 0 && n.z == 1);
    bad = reach_walk_terrain_default(REACH_WALK_TERRAIN_STEPS);
    bad.height = (reach_real)NAN;
    reach_walk_terrain_ground(&bad, 1, 1, &h, &n);
    assert_true(h == 0 && n.z == 1);
    h = 5;
    reach_walk_terrain_ground(NULL, 1, 1, &h, &n);
    assert_true(h == 0 && n.z == 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paths_follow_their_tangent), cmocka_unit_test(test_bad_paths_are_refused),
        cmocka_unit_test(test_names_round_trip),           cmocka_unit_test(test_terrains),
        cmocka_unit_test(test_invalid_terrain_is_flat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
