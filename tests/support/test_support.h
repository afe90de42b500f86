/* Shared test helpers: a seeded random generator, random geometry, tolerances per precision. */
#ifndef REACH_TEST_SUPPORT_H
#define REACH_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "reach/reach.h"

/* Tolerances that scale with the precision under test. */
#ifdef REACH_DOUBLE
#define TEST_LENGTH_TOL 1e-12
#define TEST_REACH_TOL  1e-10
#else
#define TEST_LENGTH_TOL 1e-5f
#define TEST_REACH_TOL  1e-5f
#endif

/* Near the end of reach_real's range: slides and coordinates that far test overflow. */
#ifdef REACH_DOUBLE
#define TEST_END_OF_RANGE 1.7e308
#else
#define TEST_END_OF_RANGE 3.4e38f
#endif

/* Property-test sizes: 100 000 cases, or 1 000 when the environment sets REACH_TEST_QUICK
 * (for runs under Valgrind, which is some fifty times slower). */
int test_case_count(void);
#define TEST_CASES test_case_count()
/* n, scaled down like TEST_CASES under REACH_TEST_QUICK (never below 1). */
int test_scaled(int n);

/* splitmix64: small, fast, and the same sequence on every platform. */
typedef struct test_rng {
    uint64_t state;
} test_rng;

test_rng test_rng_make(uint64_t seed);
uint64_t test_rng_next(test_rng *rng);
/* Uniform in [lo, hi). */
reach_real test_uniform(test_rng *rng, reach_real lo, reach_real hi);
double test_uniform_double(test_rng *rng, double lo, double hi);
/* Uniform on the unit sphere. */
reach_vec3 test_unit_vec3(test_rng *rng);
/* Uniform in the ball of the given radius. */
reach_vec3 test_in_ball(test_rng *rng, reach_real radius);
reach_quat test_unit_quat(test_rng *rng);

/* Assertions with a message naming what differs. */
void test_assert_near(double actual, double expected, double tolerance, const char *what, const char *file, int line);
#define ASSERT_NEAR(actual, expected, tol, what)                                                                       \
    test_assert_near((double)(actual), (double)(expected), (double)(tol), what, __FILE__, __LINE__)
void test_assert_vec3_near(reach_vec3 actual, reach_vec3 expected, double tolerance, const char *what, const char *file,
                           int line);
#define ASSERT_VEC3_NEAR(actual, expected, tol, what)                                                                  \
    test_assert_vec3_near(actual, expected, (double)(tol), what, __FILE__, __LINE__)
/* Same rotation to within `tolerance` radians (q and -q are equal). */
void test_assert_quat_near(reach_quat actual, reach_quat expected, double tolerance, const char *what, const char *file,
                           int line);
#define ASSERT_QUAT_NEAR(actual, expected, tol, what)                                                                  \
    test_assert_quat_near(actual, expected, (double)(tol), what, __FILE__, __LINE__)

int test_bytes_equal(const void *a, const void *b, size_t size);

#endif
