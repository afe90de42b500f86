/* Detects the machine, compiler and library a run measures. */
#define _POSIX_C_SOURCE 200809L /* sysconf */

#include "machine.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
#include "reach/reach.h"

#if defined(__clang__)
#define BENCH_COMPILER __VERSION__ /* already names itself, "Debian Clang 14.0.6" */
#elif defined(__GNUC__)
#define BENCH_COMPILER "gcc " __VERSION__
#else
#define BENCH_COMPILER "unknown"
#endif

/* The first "model name" line of /proc/cpuinfo (x86 and most others), without its key. */
static void read_cpu_model(char *out, size_t size) {
    snprintf(out, size, "unknown");
    FILE *file = fopen("/proc/cpuinfo", "r");
    if (!file) return;
    char line[256];
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        const char *value = strchr(line, ':');
        if (!value) continue;
        value += strspn(value + 1, " \t") + 1;
        snprintf(out, size, "%.*s", (int)strcspn(value, "\n"), value);
        break;
    }
    fclose(file);
}

void bench_machine_detect(bench_machine *machine) {
    read_cpu_model(machine->cpu, sizeof machine->cpu);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    machine->cores = cores > 0 ? (int)cores : 1;
    machine->compiler = BENCH_COMPILER;
    machine->flags = REACH_BENCH_FLAGS;
    machine->precision = reach_precision();
    machine->library_version = reach_version();
    machine->batch_isa = reach_batch_isa();
    time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc))
        strftime(machine->date, sizeof machine->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    else
        snprintf(machine->date, sizeof machine->date, "unknown");
}
