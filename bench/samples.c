/* Per-solve figures: minima over rounds, then distributions over problems. */
#include "samples.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void bench_samples_init(bench_samples *samples, int problems, int rounds) {
    samples->problems = problems;
    samples->rounds = rounds;
    samples->seconds = bench_calloc((size_t)problems * (size_t)rounds, sizeof *samples->seconds);
    samples->iterations = bench_calloc((size_t)problems, sizeof *samples->iterations);
    samples->reached = bench_calloc((size_t)problems, sizeof *samples->reached);
}

void bench_samples_free(bench_samples *samples) {
    free(samples->seconds);
    free(samples->iterations);
    free(samples->reached);
}

/* Each problem's fastest time over the rounds, in µs, sorted ascending. The caller frees. */
static double *problem_times_us(const bench_samples *samples) {
    double *times = bench_calloc((size_t)samples->problems, sizeof *times);
    for (int p = 0; p < samples->problems; p++) {
        const double *rounds = &samples->seconds[p * samples->rounds];
        double fastest = rounds[0];
        for (int r = 1; r < samples->rounds; r++)
            fastest = fmin(fastest, rounds[r]);
        times[p] = 1e6 * fastest;
    }
    bench_stats_of(times, samples->problems); /* sorts */
    return times;
}

static void record_named(bench_run *run, const char *name, const char *suffix, const char *unit, bench_stats stats) {
    char full[160];
    snprintf(full, sizeof full, "%s%s", name, suffix);
    bench_record(run, full, unit, stats);
}

static bench_stats single_value(double value, int count) {
    bench_stats s = {value, value, value, count};
    return s;
}

void bench_samples_record(bench_run *run, const char *name, const bench_samples *samples) {
    int n = samples->problems;
    double *times = problem_times_us(samples);
    double *iterations = bench_calloc((size_t)n, sizeof *iterations);
    double iteration_sum = 0, reached = 0, total_us = 0;
    for (int p = 0; p < n; p++) {
        iterations[p] = samples->iterations[p];
        iteration_sum += samples->iterations[p];
        reached += samples->reached[p];
        total_us += times[p];
    }
    bench_stats_of(iterations, n); /* sorts */
    record_named(run, name, "", "us", bench_stats_of(times, n));
    record_named(run, name, "/p99", "us", single_value(bench_percentile(times, n, 0.99), n));
    record_named(run, name, "/iterations", "mean iterations", single_value(iteration_sum / n, n));
    record_named(run, name, "/iterations_p99", "iterations", single_value(bench_percentile(iterations, n, 0.99), n));
    record_named(run, name, "/reached", "%", single_value(100 * reached / n, n));
    /* What a solution costs: the time of every solve, misses too, over the solutions found. A
     * solver that misses often pays for its misses here, which the median per solve hides. */
    if (reached > 0) record_named(run, name, "/per_reached", "us", single_value(total_us / reached, n));
    free(times);
    free(iterations);
}
