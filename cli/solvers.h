/* The solver table: each "solver.type" the CLI knows, with the options it reads and its solve
 * function. Adding a solver is one entry in solvers.c and one solve_<name>.c file. */
#ifndef REACH_CLI_SOLVERS_H
#define REACH_CLI_SOLVERS_H

#include <cJSON.h>

#include "error.h"
#include "request.h"

typedef struct cli_solver {
    const char *name;
    /* The fields of "solver" this solver reads beyond the shared ones (NULL-terminated). */
    const char *const *options;
    /* Solves request->pose in place and fills result. May append strings to warnings (a JSON
     * array) for things the user should know, such as limits it does not apply. */
    int (*solve)(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err);
    /* Nonzero for the solvers that apply joint limits: their result says ("limited") whether a
     * limit held the solved pose back. */
    int applies_limits;
    /* Nonzero for the character solvers (aim, full_body): they take aim targets ("look_at") and
     * targets with a rotation but no position, and read "humanoid". */
    int character;
} cli_solver;

/* The solver named type, or NULL. */
const cli_solver *cli_solver_find(const char *type);

/* "two_bone, fabrik" and so on into buf, for messages and --help. */
void cli_solver_names(char *buf, size_t size);

/* The shared "solver" fields every solver accepts besides its own options. */
extern const char *const cli_solver_common_fields[];

int cli_solve_two_bone(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err);
int cli_solve_fabrik(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err);
int cli_solve_ccd(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err);
int cli_solve_aim(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err);
int cli_solve_full_body(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err);
int cli_solve_jacobian(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err);

#endif
