/* solver.type "ccd": cyclic coordinate descent, tips to root, each joint clamped to its limits
 * as it turns. Its own option: max_step, the largest turn of one joint in one step (radians;
 * 0, the default, is no cap). */
#include "iterative.h"
#include "json_read.h"
#include "solvers.h"
#include "reach/ccd.h"

static const cli_iterative ccd = {"ccd", reach_ccd_scratch_size, reach_ccd_solve, 1};

int cli_solve_ccd(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err) {
    reach_solver_settings settings = request->settings;
    if (!jr_get_number(request->solver_json, "solver", "max_step", 0, &settings.ccd_max_step, err)) return 0;
    if (settings.ccd_max_step < 0) return cli_fail(err, "solver.max_step: must not be negative (0 turns the cap off)");
    return cli_solve_iterative(&ccd, request, settings, result, warnings, err);
}
