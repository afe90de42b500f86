/* reach-bench: times reach's solvers against plain references and peers, prints a table and
 * writes the figures as JSON. See README.md in this folder for every figure's meaning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "growth_svg.h"
#include "machine.h"
#include "suites.h"

typedef struct bench_suite {
    const char *name; /* the prefix of every figure the suite records */
    void (*run)(bench_run *run);
} bench_suite;

/* A new suite is one file, one line in suites.h and one line here. Two suites may share a
 * prefix (the two-bone batch figures are under two_bone/, the FABRIK batch ones under fabrik/). */
static const bench_suite suites[] = {
    {"two_bone", bench_suite_two_bone},
    {"two_bone", bench_suite_two_bone_batch},
    {"fabrik", bench_suite_fabrik},
    {"fabrik", bench_suite_fabrik_batch},
    {"ccd", bench_suite_ccd},
    {"jacobian", bench_suite_jacobian},
    {"character", bench_suite_character},
#ifdef REACH_BENCH_URDF
    {"urdf", bench_suite_urdf},
    {"retarget", bench_suite_retarget},
    {"files", bench_suite_files},
#endif
#ifdef REACH_BENCH_KDL
    {"kdl", bench_suite_kdl},
#endif
};

static void usage(FILE *out) {
    fprintf(out,
            "usage: reach-bench [--quick] [--filter PREFIX]... [--repeats N] [--json PATH] [--svg PATH]\n"
            "  --quick           a short smoke run (few, short repeats)\n"
            "  --filter PREFIX   only figures whose name starts with PREFIX (repeatable, or comma-separated)\n"
            "  --repeats N       timed repeats per figure (default %d, quick %d)\n"
            "  --json PATH       also write the figures to PATH as JSON\n"
            "  --svg PATH        also plot the FABRIK and CCD growth figures to PATH (SVG)\n"
            "suites:",
            BENCH_REPEATS, BENCH_QUICK_REPEATS);
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        if (i == 0 || strcmp(suites[i].name, suites[i - 1].name) != 0) fprintf(out, " %s", suites[i].name);
    fputc('\n', out);
}

/* Splits a comma-separated list of prefixes into options->filters, in place. */
static int add_filters(bench_options *options, char *list) {
    for (char *prefix = strtok(list, ","); prefix; prefix = strtok(NULL, ",")) {
        if (options->filter_count == BENCH_MAX_FILTERS) return 0;
        options->filters[options->filter_count++] = prefix;
    }
    return 1;
}

static int parse_arguments(int argc, char **argv, bench_options *options) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(arg, "--quick") == 0) {
            options->quick = 1;
        } else if (strcmp(arg, "--filter") == 0 && has_value) {
            if (!add_filters(options, argv[++i])) return 0;
        } else if (strcmp(arg, "--repeats") == 0 && has_value) {
            char *end;
            long repeats = strtol(argv[++i], &end, 10);
            if (*end || repeats < 1 || repeats > 1000) return 0;
            options->repeats = (int)repeats;
        } else if (strcmp(arg, "--json") == 0 && has_value) {
            options->json_path = argv[++i];
        } else if (strcmp(arg, "--svg") == 0 && has_value) {
            options->svg_path = argv[++i];
        } else {
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    }
    bench_options options = {0};
    if (!parse_arguments(argc, argv, &options)) {
        usage(stderr);
        return 2;
    }
    bench_machine machine;
    bench_machine_detect(&machine);
    bench_run *run = bench_run_start(&options, &machine);
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
        if (bench_wants(run, suites[i].name)) suites[i].run(run);
    if (options.svg_path && !growth_svg_write(run, options.svg_path)) {
        fprintf(stderr, "reach-bench: cannot write %s\n", options.svg_path);
        bench_check(run, 0, "the growth plot is written");
    }
    return bench_run_finish(run);
}
