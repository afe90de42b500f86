/* The harness: timing, statistics, the printed table and the JSON file. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Each round times every pass for about this long; a figure is the median over the rounds. */
#define REPEAT_SECONDS       0.1
#define REPEATS              15
#define QUICK_REPEAT_SECONDS 0.002
#define QUICK_REPEATS        3
/* Rounds of the suites that time each solve: each problem's time is its fastest over them. */
#define SOLVE_ROUNDS       3
#define QUICK_SOLVE_ROUNDS 1

typedef struct figure {
    char *name, *unit;
    bench_stats stats;
} figure;

typedef struct ratio {
    char *name, *numerator, *denominator;
    double value;
} ratio;

struct bench_run {
    bench_options options;
    const bench_machine *machine;
    double repeat_seconds;
    int repeats;
    figure *figures;
    int figure_count, figure_capacity;
    ratio *ratios;
    int ratio_count, ratio_capacity;
    int failed;
    /* Wall time of the timed rounds, and the CPU time the bench got in them: their ratio
     * says how much other processes disturbed the figures. */
    double timed_wall_seconds, timed_cpu_seconds;
    /* The probe's rate before every throughput round and after every per-solve span. */
    double *probe_rates;
    int probe_count, probe_capacity;
    /* Figures wanted because a wanted ratio divides them (bench_want_ratio), as more filters. */
    char **ratio_inputs;
    int ratio_input_count, ratio_input_capacity;
};

/* The memory, or the end of the program with a message when there is none. */
static void *allocated(void *memory) {
    if (!memory) {
        fprintf(stderr, "reach-bench: out of memory\n");
        exit(1);
    }
    return memory;
}

void *bench_calloc(size_t count, size_t size) { return allocated(calloc(count ? count : 1, size ? size : 1)); }

void *bench_aligned_calloc(size_t alignment, size_t size) {
    size = (size + alignment - 1) / alignment * alignment; /* aligned_alloc wants a multiple */
    return memset(allocated(aligned_alloc(alignment, size ? size : alignment)), 0, size);
}

static char *copy_string(const char *text) {
    size_t size = strlen(text) + 1;
    char *copy = bench_calloc(size, 1);
    memcpy(copy, text, size);
    return copy;
}

/* Makes room for one more element in a growing array. */
static void *reserve(void *items, int count, int *capacity, size_t size) {
    if (count < *capacity) return items;
    *capacity = *capacity ? *capacity * 2 : 16;
    return allocated(realloc(items, (size_t)*capacity * size));
}

static volatile double consumed;
void bench_consume(double value) { consumed += value; }

static double seconds_of(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static double seconds_now(void) { return seconds_of(CLOCK_MONOTONIC); }
double bench_seconds(void) { return seconds_now(); }

/* A fixed piece of work timed between rounds: eight independent chains of multiply-adds (the
 * compiler keeps them in memory and may pair them in vector registers, so what it measures
 * depends on the build: compare probes of one build only). A virtual machine's host can slow
 * the cores (or share them with another guest) without the bench losing any CPU time it could
 * see; the probe's rate over the run shows, roughly, how far the machine's own speed moved. */
#define PROBE_STEPS  50000
#define PROBE_CHAINS 8

static void probe_machine(bench_run *run) {
    volatile double seed = 1;
    double x[PROBE_CHAINS];
    for (int c = 0; c < PROBE_CHAINS; c++)
        x[c] = seed + c;
    double start = seconds_now();
    for (int i = 0; i < PROBE_STEPS; i++)
        for (int c = 0; c < PROBE_CHAINS; c++)
            x[c] = x[c] * 0.999999 + 1e-6;
    double elapsed = seconds_now() - start;
    for (int c = 0; c < PROBE_CHAINS; c++)
        bench_consume(x[c]);
    if (!(elapsed > 0)) return;
    run->probe_rates = reserve(run->probe_rates, run->probe_count, &run->probe_capacity, sizeof *run->probe_rates);
    run->probe_rates[run->probe_count++] = (double)PROBE_STEPS * PROBE_CHAINS / elapsed;
}

bench_span bench_span_start(void) {
    bench_span span = {seconds_now(), seconds_of(CLOCK_THREAD_CPUTIME_ID)};
    return span;
}

void bench_span_end(bench_run *run, bench_span span) {
    run->timed_wall_seconds += seconds_now() - span.wall;
    run->timed_cpu_seconds += seconds_of(CLOCK_THREAD_CPUTIME_ID) - span.cpu;
    probe_machine(run);
}

static double time_passes(const bench_timed *timed, long passes) {
    double start = seconds_now();
    for (long i = 0; i < passes; i++)
        timed->pass(timed->data);
    return seconds_now() - start;
}

/* Ascending, NaN last: a NaN among the values shows as the maximum instead of hiding. */
static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
    return (x > y) - (x < y);
}

bench_stats bench_stats_of(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    bench_stats s;
    s.median = count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
    s.min = values[0];
    s.max = values[count - 1];
    s.repeats = count;
    return s;
}

double bench_percentile(const double *sorted, int count, double fraction) {
    double rank = ceil(fraction * count);
    int index = rank < 1 ? 0 : rank > count ? count - 1 : (int)rank - 1;
    return sorted[index];
}

/* ---- the table ------------------------------------------------------------------------- */

/* Rates read best with an SI prefix (12.34 M); small errors in exponent form. */
static void format_value(char *out, size_t size, double value, const char *unit) {
    size_t unit_length = strlen(unit);
    int is_rate = unit_length > 2 && strcmp(unit + unit_length - 2, "/s") == 0;
    if (is_rate && value >= 1e9)
        snprintf(out, size, "%.2f G", value / 1e9);
    else if (is_rate && value >= 1e6)
        snprintf(out, size, "%.2f M", value / 1e6);
    else if (is_rate && value >= 1e3)
        snprintf(out, size, "%.2f k", value / 1e3);
    else if (value != 0 && fabs(value) < 1e-2)
        snprintf(out, size, "%.2e", value);
    else if (value == floor(value) && fabs(value) < 1e12) /* counts and bytes */
        snprintf(out, size, "%.0f", value);
    else
        snprintf(out, size, "%.4g", value);
}

static void print_header(const bench_run *run) {
    const bench_machine *m = run->machine;
    printf("reach %s (%s, batch %s), %s, %s\n", m->library_version, m->precision, m->batch_isa, m->compiler, m->flags);
    printf("%s, %d cores, %s\n", m->cpu, m->cores, m->date);
    printf("%d repeats of about %g s each, interleaved; median, min and max over repeats\n\n", run->repeats,
           run->repeat_seconds);
    printf("%-46s %-15s %12s %12s %12s %8s\n", "figure", "unit", "median", "min", "max", "repeats");
}

static void print_figure(const figure *f) {
    char median[32], min[32], max[32];
    format_value(median, sizeof median, f->stats.median, f->unit);
    format_value(min, sizeof min, f->stats.min, f->unit);
    format_value(max, sizeof max, f->stats.max, f->unit);
    printf("%-46s %-15s %12s %12s %12s %8d\n", f->name, f->unit, median, min, max, f->stats.repeats);
    fflush(stdout);
}

static void print_ratios(const bench_run *run) {
    if (run->ratio_count == 0) return;
    printf("\n%-44s %-60s %8s\n", "ratio", "numerator / denominator (medians)", "value");
    for (int i = 0; i < run->ratio_count; i++) {
        const ratio *r = &run->ratios[i];
        char pair[128];
        snprintf(pair, sizeof pair, "%s / %s", r->numerator, r->denominator);
        printf("%-44s %-60s %8.2f\n", r->name, pair, r->value);
    }
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void json_string(FILE *file, const char *text) {
    fputc('"', file);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(file, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(file, "\\u%04x", *c);
        else
            fputc(*c, file);
    }
    fputc('"', file);
}

/* JSON has no NaN or infinity; null says "no number" honestly. */
static void json_number(FILE *file, double value) {
    if (isfinite(value))
        fprintf(file, "%.9g", value);
    else
        fputs("null", file);
}

static void json_field(FILE *file, const char *key, const char *value, const char *after) {
    json_string(file, key);
    fputs(": ", file);
    json_string(file, value);
    fputs(after, file);
}

static void json_machine(FILE *file, const bench_machine *m) {
    fputs("  \"machine\": {\n    ", file);
    json_field(file, "cpu", m->cpu, ",\n    ");
    fprintf(file, "\"cores\": %d,\n    ", m->cores);
    json_field(file, "compiler", m->compiler, ",\n    ");
    json_field(file, "flags", m->flags, ",\n    ");
    json_field(file, "precision", m->precision, ",\n    ");
    json_field(file, "library_version", m->library_version, ",\n    ");
    json_field(file, "batch_isa", m->batch_isa, ",\n    ");
    json_field(file, "date", m->date, "\n  },\n");
}

/* Arrays hold one object per line; these open an item and close the array. */
static void json_item_start(FILE *file, int index) { fputs(index ? ",\n    {" : "\n    {", file); }
static void json_array_end(FILE *file, int count, const char *after) {
    fputs(count ? "\n  ]" : "]", file);
    fputs(after, file);
}

static void json_figure(FILE *file, const figure *f) {
    json_field(file, "name", f->name, ", ");
    json_field(file, "unit", f->unit, ", \"median\": ");
    json_number(file, f->stats.median);
    fputs(", \"min\": ", file);
    json_number(file, f->stats.min);
    fputs(", \"max\": ", file);
    json_number(file, f->stats.max);
    fprintf(file, ", \"repeats\": %d}", f->stats.repeats);
}

static void json_ratio(FILE *file, const ratio *r) {
    json_field(file, "name", r->name, ", ");
    json_field(file, "numerator", r->numerator, ", ");
    json_field(file, "denominator", r->denominator, ", \"value\": ");
    json_number(file, r->value);
    fputc('}', file);
}

static int write_json(const bench_run *run, const char *path) {
    FILE *file = fopen(path, "w");
    if (!file) return 0;
    fputs("{\n", file);
    json_machine(file, run->machine);
    fputs("  \"figures\": [", file);
    for (int i = 0; i < run->figure_count; i++) {
        json_item_start(file, i);
        json_figure(file, &run->figures[i]);
    }
    json_array_end(file, run->figure_count, ",\n  \"ratios\": [");
    for (int i = 0; i < run->ratio_count; i++) {
        json_item_start(file, i);
        json_ratio(file, &run->ratios[i]);
    }
    json_array_end(file, run->ratio_count, "\n}\n");
    return fclose(file) == 0;
}

/* ---- the run --------------------------------------------------------------------------- */

bench_run *bench_run_start(const bench_options *options, const bench_machine *machine) {
    bench_run *run = bench_calloc(1, sizeof *run);
    run->options = *options;
    run->machine = machine;
    run->repeat_seconds = options->quick ? QUICK_REPEAT_SECONDS : REPEAT_SECONDS;
    run->repeats = options->repeats > 0 ? options->repeats : options->quick ? BENCH_QUICK_REPEATS : BENCH_REPEATS;
    print_header(run);
    return run;
}

/* Below this share of the wall time on a CPU, other processes took enough to widen the spread. */
#define BUSY_MACHINE_SHARE 0.9

/* Below this share of the median, the probe's lower quartile says the machine was slowed for a
 * good part of the run (single timings scatter too much to judge by the slowest). */
#define STEADY_MACHINE_SHARE 0.9

static const figure *add_figure(bench_run *run, const char *name, const char *unit, bench_stats stats);

/* The probe's rates as a figure, and a line on how steady the machine was. */
static void report_probe(bench_run *run) {
    if (run->probe_count == 0) return;
    bench_stats probe = bench_stats_of(run->probe_rates, run->probe_count); /* sorts */
    add_figure(run, "machine/probe", "steps/s", probe);                     /* in the JSON; the line below says it */
    printf("the machine's speed: a fixed loop ran %.0f M steps/s (median of %d timings between rounds)",
           probe.median / 1e6, run->probe_count);
    if (run->probe_count >= 4) {
        double quartile_share = run->probe_rates[run->probe_count / 4] / probe.median;
        printf(", its lower quartile %.0f%% of that%s", 100 * quartile_share,
               quartile_share < STEADY_MACHINE_SHARE ? ": the machine was slowed for part of the run, compare ratios "
                                                       "rather than figures"
                                                     : "");
    }
    printf("; compare figures of two runs only where their probes agree\n");
}

int bench_run_finish(bench_run *run) {
    print_ratios(run);
    if (run->timed_wall_seconds > 0) {
        double share = run->timed_cpu_seconds / run->timed_wall_seconds;
        printf("\nthe bench was on a CPU for %.0f%% of its timed wall time%s\n", 100 * share,
               share < BUSY_MACHINE_SHARE ? ": the machine was busy, read medians and ratios, not single figures" : "");
    }
    report_probe(run);
    int status = run->failed ? 1 : 0;
    if (run->figure_count == 0) {
        fprintf(stderr, "reach-bench: no figure matches the filter\n");
        status = 1;
    }
    const char *path = run->options.json_path;
    if (path && !write_json(run, path)) {
        fprintf(stderr, "reach-bench: cannot write %s\n", path);
        status = 1;
    } else if (path) {
        printf("\nwrote %s\n", path);
    }
    if (run->failed) fprintf(stderr, "reach-bench: a check failed (see above); the figures are not to be trusted\n");
    for (int i = 0; i < run->figure_count; i++) {
        free(run->figures[i].name);
        free(run->figures[i].unit);
    }
    for (int i = 0; i < run->ratio_count; i++) {
        free(run->ratios[i].name);
        free(run->ratios[i].numerator);
        free(run->ratios[i].denominator);
    }
    for (int i = 0; i < run->ratio_input_count; i++)
        free(run->ratio_inputs[i]);
    free(run->ratio_inputs);
    free(run->figures);
    free(run->ratios);
    free(run->probe_rates);
    free(run);
    return status;
}

int bench_rounds(const bench_run *run) {
    if (run->options.repeats > 0) return run->options.repeats;
    return run->options.quick ? QUICK_SOLVE_ROUNDS : SOLVE_ROUNDS;
}

int bench_is_quick(const bench_run *run) { return run->options.quick; }

/* The name starts with the filter, or the filter lies inside it. */
static int matches(const char *name, const char *filter) {
    size_t name_length = strlen(name);
    return strncmp(name, filter, strlen(filter)) == 0 ||
           (strncmp(filter, name, name_length) == 0 && filter[name_length] == '/');
}

int bench_wants(const bench_run *run, const char *name) {
    if (run->options.filter_count == 0) return 1;
    for (int i = 0; i < run->options.filter_count; i++)
        if (matches(name, run->options.filters[i])) return 1;
    for (int i = 0; i < run->ratio_input_count; i++)
        if (matches(name, run->ratio_inputs[i])) return 1;
    return 0;
}

void bench_want_ratio(bench_run *run, const char *name, const char *numerator, const char *denominator) {
    if (run->options.filter_count == 0 || !bench_wants(run, name)) return;
    const char *inputs[2] = {numerator, denominator};
    for (int i = 0; i < 2; i++) {
        if (bench_wants(run, inputs[i])) continue;
        run->ratio_inputs =
            reserve(run->ratio_inputs, run->ratio_input_count, &run->ratio_input_capacity, sizeof *run->ratio_inputs);
        run->ratio_inputs[run->ratio_input_count++] = copy_string(inputs[i]);
    }
}

static const figure *add_figure(bench_run *run, const char *name, const char *unit, bench_stats stats) {
    if (!bench_wants(run, name)) return NULL;
    run->figures = reserve(run->figures, run->figure_count, &run->figure_capacity, sizeof *run->figures);
    figure *f = &run->figures[run->figure_count++];
    f->name = copy_string(name);
    f->unit = copy_string(unit);
    f->stats = stats;
    return f;
}

void bench_record(bench_run *run, const char *name, const char *unit, bench_stats stats) {
    const figure *f = add_figure(run, name, unit, stats);
    if (f) print_figure(f);
}

void bench_record_value(bench_run *run, const char *name, const char *unit, double value) {
    bench_stats s = {value, value, value, 1};
    bench_record(run, name, unit, s);
}

static const figure *find_figure(const bench_run *run, const char *name) {
    for (int i = 0; i < run->figure_count; i++)
        if (strcmp(run->figures[i].name, name) == 0) return &run->figures[i];
    return NULL;
}

const bench_machine *bench_machine_of(const bench_run *run) { return run->machine; }

const bench_stats *bench_find(const bench_run *run, const char *name) {
    const figure *f = find_figure(run, name);
    return f ? &f->stats : NULL;
}

void bench_ratio(bench_run *run, const char *name, const char *numerator, const char *denominator) {
    const figure *top = find_figure(run, numerator), *bottom = find_figure(run, denominator);
    if (!top || !bottom) return;
    run->ratios = reserve(run->ratios, run->ratio_count, &run->ratio_capacity, sizeof *run->ratios);
    ratio *r = &run->ratios[run->ratio_count++];
    r->name = copy_string(name);
    r->numerator = copy_string(numerator);
    r->denominator = copy_string(denominator);
    r->value = top->stats.median / bottom->stats.median;
}

void bench_check(bench_run *run, int ok, const char *what) {
    if (ok) return;
    fprintf(stderr, "reach-bench: CHECK FAILED: %s\n", what);
    run->failed = 1;
}

/* How many passes make one repeat last about repeat_seconds. Doubling from one pass until a
 * batch takes a tenth of that also warms the caches and branch predictors. */
static long calibrate(const bench_run *run, const bench_timed *timed) {
    long passes = 1;
    double elapsed = time_passes(timed, passes);
    while (elapsed < run->repeat_seconds / 10 && passes < (1L << 40)) {
        passes *= 2;
        elapsed = time_passes(timed, passes);
    }
    double scaled = (double)passes * run->repeat_seconds / elapsed;
    return scaled > 1 ? (long)scaled : 1;
}

/* Round r times every entry once, starting at a different one each round, so neither load
 * drift nor going first favours an entry. Entries with no passes are not wanted. */
static void time_rounds(bench_run *run, const bench_timed *list, int count, const long *passes, double *rates) {
    int repeats = run->repeats;
    double wall_start = seconds_now(), cpu_start = seconds_of(CLOCK_THREAD_CPUTIME_ID);
    for (int r = 0; r < repeats; r++) {
        probe_machine(run);
        for (int k = 0; k < count; k++) {
            int i = (r + k) % count;
            if (passes[i] == 0) continue;
            rates[i * repeats + r] = list[i].items * (double)passes[i] / time_passes(&list[i], passes[i]);
        }
    }
    run->timed_wall_seconds += seconds_now() - wall_start;
    run->timed_cpu_seconds += seconds_of(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
}

void bench_time(bench_run *run, const bench_timed *list, int count) {
    int repeats = run->repeats, wanted = 0;
    long *passes = bench_calloc((size_t)count, sizeof *passes);
    double *rates = bench_calloc((size_t)(count * repeats), sizeof *rates);
    for (int i = 0; i < count; i++) {
        if (!bench_wants(run, list[i].name)) continue;
        passes[i] = calibrate(run, &list[i]);
        wanted++;
    }
    if (wanted) time_rounds(run, list, count, passes, rates);
    for (int i = 0; i < count; i++)
        if (passes[i]) bench_record(run, list[i].name, list[i].unit, bench_stats_of(&rates[i * repeats], repeats));
    free(rates);
    free(passes);
}
