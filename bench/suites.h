/* The suites: one file each (suite_NAME.c), listed in main.c. Each builds its inputs, checks
 * its solvers' results, then times them and records its figures through bench.h. */
#ifndef REACH_BENCH_SUITES_H
#define REACH_BENCH_SUITES_H

#include "bench.h"

void bench_suite_two_bone(bench_run *run);

#endif
