/* What a set of figures was measured on and with: they mean nothing without it. */
#ifndef REACH_BENCH_MACHINE_H
#define REACH_BENCH_MACHINE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_machine {
    char cpu[128];               /* model name from /proc/cpuinfo, or "unknown" */
    int cores;                   /* online logical processors */
    const char *compiler;        /* name and version of the compiler that built the bench */
    const char *flags;           /* compiler flags of the library and the bench, from CMake */
    const char *precision;       /* reach_real of the linked library: "float" or "double" */
    const char *library_version; /* the linked library's version */
    const char *batch_isa;       /* the instruction set of the batch solvers here (reach_batch_isa) */
    char date[32];               /* when the run started, ISO 8601 UTC */
} bench_machine;

void bench_machine_detect(bench_machine *machine);

#ifdef __cplusplus
}
#endif

#endif
