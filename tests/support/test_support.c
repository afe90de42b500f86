#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int quick_run(void) {
    const char *quick = getenv("REACH_TEST_QUICK");
    return quick && *quick && *quick != '0';
}

int test_case_count(void) { return quick_run() ? 1000 : 100000; }

int test_scaled(int n) {
    int scaled = quick_run() ? n / 100 : n;
    return scaled > 0 ? scaled : 1;
}

test_rng test_rng_make(uint64_t seed) {
    test_rng r;
    r.state = seed;
    return r;
}

uint64_t test_rng_next(test_rng *rng) {
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double test_uniform_double(test_rng *rng, double lo, double hi) {
    double unit = (double)(test_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * unit;
}

reach_real test_uniform(test_rng *rng, reach_real lo, reach_real hi) {
    reach_real v = (reach_real)test_uniform_double(rng, (double)lo, (double)hi);
    return v < hi ? v : lo; /* rounding to float may land on hi */
}

reach_vec3 test_unit_vec3(test_rng *rng) {
    for (;;) {
        reach_vec3 v = reach_vec3_make(test_uniform(rng, -1, 1), test_uniform(rng, -1, 1), test_uniform(rng, -1, 1));
        reach_real l2 = reach_vec3_length_sq(v);
        if (l2 > REACH_R(1e-4) && l2 <= 1) return reach_vec3_scale(v, 1 / reach_sqrt(l2));
    }
}

reach_vec3 test_in_ball(test_rng *rng, reach_real radius) {
    for (;;) {
        reach_vec3 v = reach_vec3_make(test_uniform(rng, -1, 1), test_uniform(rng, -1, 1), test_uniform(rng, -1, 1));
        if (reach_vec3_length_sq(v) <= 1) return reach_vec3_scale(v, radius);
    }
}

reach_quat test_unit_quat(test_rng *rng) {
    for (;;) {
        reach_quat q = reach_quat_make(test_uniform(rng, -1, 1), test_uniform(rng, -1, 1), test_uniform(rng, -1, 1),
                                       test_uniform(rng, -1, 1));
        reach_real l2 = reach_quat_dot(q, q);
        if (l2 > REACH_R(1e-4) && l2 <= 1) return reach_quat_normalize_safe(q);
    }
}

void test_assert_near(double actual, double expected, double tolerance, const char *what, const char *file, int line) {
    if (!(fabs(actual - expected) <= tolerance)) {
        fail_msg("%s:%d: %s: got %.17g, expected %.17g (tolerance %.3g)", file, line, what, actual, expected,
                 tolerance);
    }
}

void test_assert_vec3_near(reach_vec3 a, reach_vec3 e, double tolerance, const char *what, const char *file, int line) {
    double d = sqrt((double)(a.x - e.x) * (double)(a.x - e.x) + (double)(a.y - e.y) * (double)(a.y - e.y) +
                    (double)(a.z - e.z) * (double)(a.z - e.z));
    if (!(d <= tolerance)) {
        fail_msg("%s:%d: %s: got (%.9g, %.9g, %.9g), expected (%.9g, %.9g, %.9g), off by %.3g (tolerance %.3g)", file,
                 line, what, (double)a.x, (double)a.y, (double)a.z, (double)e.x, (double)e.y, (double)e.z, d,
                 tolerance);
    }
}

void test_assert_quat_near(reach_quat a, reach_quat e, double tolerance, const char *what, const char *file, int line) {
    /* The angle of the rotation between them, 2·atan2(|v|, |w|) of conj(e)·a: linear in the
     * error, unlike 1 − |a·e|, and the same for q and −q. */
    double w = (double)e.w * a.w + (double)e.x * a.x + (double)e.y * a.y + (double)e.z * a.z;
    double x = (double)e.w * a.x - (double)e.x * a.w - (double)e.y * a.z + (double)e.z * a.y;
    double y = (double)e.w * a.y + (double)e.x * a.z - (double)e.y * a.w - (double)e.z * a.x;
    double z = (double)e.w * a.z - (double)e.x * a.y + (double)e.y * a.x - (double)e.z * a.w;
    double angle = 2 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
    if (!(angle <= tolerance)) {
        fail_msg("%s:%d: %s: got (%.9g, %.9g, %.9g, %.9g), expected (%.9g, %.9g, %.9g, %.9g), %.3g rad apart", file,
                 line, what, (double)a.x, (double)a.y, (double)a.z, (double)a.w, (double)e.x, (double)e.y, (double)e.z,
                 (double)e.w, angle);
    }
}

int test_bytes_equal(const void *a, const void *b, size_t size) { return memcmp(a, b, size) == 0; }
