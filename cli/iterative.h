/* What the iterative solvers (fabrik, ccd, jacobian) share in the CLI: the library's solvers
 * all take a skeleton, targets, settings, the pose to warm start from and caller scratch, so one
 * driver checks the targets, resolves the default tolerance, runs the solver and measures the
 * result; each solve_<name>.c only reads its own options. */
#ifndef REACH_CLI_ITERATIVE_H
#define REACH_CLI_ITERATIVE_H

#include <cJSON.h>

#include "error.h"
#include "request.h"

/* The iteration cap when the request gives none. With the library's own default, 64, CCD
 * reached 76 % of random reachable targets on a ten-bone chain, with 1000 over 99 %; the solvers
 * stop as soon as the targets are reached or nothing moves, so a larger cap costs time only
 * where it helps. */
#define CLI_ITERATIVE_DEFAULT_ITERATIONS 1000

typedef struct cli_iterative {
    const char *name;
    size_t (*scratch_size)(const reach_skeleton *skeleton, int target_count);
    reach_status (*solve)(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                          const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                          size_t scratch_size, reach_solve_result *result);
    /* 0 when the solver leaves prismatic joints at their offset (FABRIK): such joints on the
     * moving bones get a warning. */
    int slides_prismatic;
} cli_iterative;

/* Solves request->pose in place with settings (the request's, with the solver's own options
 * filled in; tolerance 0 becomes 1e-4 × the moving bones' length, max_iterations 0
 * CLI_ITERATIVE_DEFAULT_ITERATIONS) and fills result: the
 * library's iterations and limited flag, the residuals and reached as cli_measure_targets
 * finds them on the solved pose. */
int cli_solve_iterative(const cli_iterative *solver, cli_request *request, reach_solver_settings settings,
                        reach_solve_result *result, cJSON *warnings, cli_error *err);

#endif
