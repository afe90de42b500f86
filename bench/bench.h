/* The bench harness: what every suite uses to time work and record figures and ratios.
 *
 * A suite builds its inputs first (seeded, untimed), then hands the harness a list of passes
 * to time. Each pass does a fixed amount of work (items: solves, chains) over those inputs and
 * stores its results where the suite reads them back later, so the compiler cannot drop it.
 * The harness times the passes in interleaved rounds, so that a change in machine load (other
 * builds on a shared machine) hits every figure of a comparison alike, and reports the median,
 * minimum and maximum rate over the rounds. */
#ifndef REACH_BENCH_H
#define REACH_BENCH_H

#include <math.h>
#include <stddef.h>

#include "machine.h"
#include "reach/vecmath.h"

#ifdef __cplusplus
extern "C" { /* the Orocos KDL comparison is C++ */
#endif

typedef struct bench_run bench_run;

/* How a run goes; filled from the command line by main.c. */
#define BENCH_MAX_FILTERS   16
#define BENCH_REPEATS       15 /* timed repeats per figure */
#define BENCH_QUICK_REPEATS 3  /* the same with --quick */
typedef struct bench_options {
    int quick;             /* a short smoke run: few, short repeats */
    int repeats;           /* 0: the default for the mode */
    const char *json_path; /* NULL: no JSON file */
    const char *svg_path;  /* NULL: no growth plot */
    /* Figure name prefixes to run; none means all. */
    const char *filters[BENCH_MAX_FILTERS];
    int filter_count;
} bench_options;

typedef struct bench_stats {
    double median, min, max;
    int repeats;
} bench_stats;

/* One pass of work to time: pass(data) does `items` units of work each call. */
typedef void (*bench_pass_fn)(void *data);
typedef struct bench_timed {
    const char *name; /* figure name, e.g. "two_bone/single/positions" */
    const char *unit; /* items per second, e.g. "solves/s" */
    bench_pass_fn pass;
    void *data;
    double items;
} bench_timed;

bench_run *bench_run_start(const bench_options *options, const bench_machine *machine);
/* Prints the ratios, writes the JSON file, frees the run. Returns the process exit status:
 * 0, or 1 when a check failed or nothing matched the filters. */
int bench_run_finish(bench_run *run);

/* Nonzero when --filter asks for this name: the name starts with a filter, or a filter lies
 * inside it (filter "two_bone/single" wants the suite "two_bone"). */
int bench_wants(const bench_run *run, const char *name);

/* Times the wanted entries of the list together and records one figure for each. */
void bench_time(bench_run *run, const bench_timed *list, int count);

/* Records a figure measured another way (sizes, accuracy). */
void bench_record(bench_run *run, const char *name, const char *unit, bench_stats stats);
void bench_record_value(bench_run *run, const char *name, const char *unit, double value);

/* What the run measures on (for the growth plot's caption). */
const bench_machine *bench_machine_of(const bench_run *run);

/* The statistics of a figure recorded earlier in this run; NULL when it was not recorded. */
const bench_stats *bench_find(const bench_run *run, const char *name);

/* Makes numerator and denominator wanted when the ratio `name` is: `--filter fabrik/speedup`
 * then times what those ratios divide. Call before the suite decides what to measure. */
void bench_want_ratio(bench_run *run, const char *name, const char *numerator, const char *denominator);

/* Records numerator's median over denominator's, when both were measured in this run. */
void bench_ratio(bench_run *run, const char *name, const char *numerator, const char *denominator);

/* An untimed correctness check; a failure is reported and makes the run exit with 1. */
void bench_check(bench_run *run, int ok, const char *what);

/* Feeds a value computed from a pass's results to a sink the compiler must keep. */
void bench_consume(double value);

/* Median, minimum and maximum of values[0, count), count >= 1. Sorts values in place. */
bench_stats bench_stats_of(double *values, int count);

/* The value below which `fraction` of sorted[0, count) lies (nearest rank), count >= 1. */
double bench_percentile(const double *sorted, int count, double fraction);

/* ---- for suites that time each solve on its own -------------------------------------------
 * Iterative solvers take a different number of iterations per problem, so their figures are
 * distributions over problems (median, p99), timed one solve at a time. Such a suite reads the
 * clock with bench_seconds and brackets its timed loops with bench_span_start/end, so that the
 * CPU share the run reports covers them too. */
typedef struct bench_span {
    double wall, cpu;
} bench_span;
double bench_seconds(void);
bench_span bench_span_start(void);
void bench_span_end(bench_run *run, bench_span span);

/* How many timed rounds a per-solve suite runs (the --repeats setting), and whether this is a
 * --quick run (suites then use fewer problems). */
int bench_rounds(const bench_run *run);
int bench_is_quick(const bench_run *run);

/* |a − b| computed in double whatever reach_real is: the distances the checks compare. */
static inline double bench_distance(reach_vec3 a, reach_vec3 b) {
    double x = (double)a.x - (double)b.x, y = (double)a.y - (double)b.y, z = (double)a.z - (double)b.z;
    return sqrt(x * x + y * y + z * z);
}

/* calloc that ends the program with a message when memory runs out. */
void *bench_calloc(size_t count, size_t size);
/* The same for size bytes starting on a multiple of alignment (a power of two). */
void *bench_aligned_calloc(size_t alignment, size_t size);

#ifdef __cplusplus
}
#endif

#endif
