/* The suites: one file each (suite_NAME.c), listed in main.c. Each builds its inputs, checks
 * its solvers' results, then times them and records its figures through bench.h. */
#ifndef REACH_BENCH_SUITES_H
#define REACH_BENCH_SUITES_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

void bench_suite_two_bone(bench_run *run);
void bench_suite_two_bone_batch(bench_run *run);
void bench_suite_fabrik(bench_run *run);
void bench_suite_fabrik_batch(bench_run *run);
void bench_suite_ccd(bench_run *run);
void bench_suite_jacobian(bench_run *run);
void bench_suite_character(bench_run *run);
#ifdef REACH_BENCH_URDF
void bench_suite_urdf(bench_run *run);     /* suite_urdf.c, built with reach::formats */
void bench_suite_retarget(bench_run *run); /* suite_retarget.c, built with reach::formats */
void bench_suite_files(bench_run *run);    /* suite_files.c, built with reach::formats */
#endif
#ifdef REACH_BENCH_KDL
void bench_suite_kdl(bench_run *run); /* kdl_compare.cpp, built when Orocos KDL is installed */
#endif

#ifdef __cplusplus
}
#endif

#endif
