/* Per-solve figures for the iterative solvers (FABRIK, CCD, the Jacobian family): each problem
 * is timed on its own, because the iterations, and so the time, differ from one problem to the
 * next and the spread is part of the answer.
 *
 * A suite solves every problem once per round and stores the time with bench_samples_put. The
 * solvers are deterministic, so every round does the same work and anything above the fastest
 * round is other processes or interrupts: a problem's time is its minimum over the rounds, and
 * the figures are the distribution of those times over problems. */
#ifndef REACH_BENCH_SAMPLES_H
#define REACH_BENCH_SAMPLES_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_samples {
    int problems, rounds;
    double *seconds;        /* [problem * rounds + round] */
    int *iterations;        /* per problem, from one round (the solvers are deterministic) */
    unsigned char *reached; /* per problem: 1 when the answer is within tolerance */
} bench_samples;

void bench_samples_init(bench_samples *samples, int problems, int rounds);
void bench_samples_free(bench_samples *samples);

static inline void bench_samples_put(bench_samples *samples, int problem, int round, double seconds) {
    samples->seconds[problem * samples->rounds + round] = seconds;
}

/* Records six figures under `name` (see README.md):
 *   name                  µs per solve: median, min and max over problems
 *   name/p99              µs per solve, the 99th percentile over problems
 *   name/iterations       mean iterations per solve
 *   name/iterations_p99   the 99th percentile of the iterations
 *   name/reached          the share of problems solved within tolerance, %
 *   name/per_reached      µs of all solves together per problem solved (none when none is) */
void bench_samples_record(bench_run *run, const char *name, const bench_samples *samples);

#ifdef __cplusplus
}
#endif

#endif
