/* solver.type "fabrik": forward and backward reaching on the bones from chain_root to every
 * target, with joint limits in both passes, trees and closed loops ("meet" targets).
 * Its own option: move_root (an out-of-reach target pulls the root bone along). */
#include "iterative.h"
#include "json_read.h"
#include "solvers.h"
#include "reach/fabrik.h"

static const cli_iterative fabrik = {"fabrik", reach_fabrik_scratch_size, reach_fabrik_solve, 0};

int cli_solve_fabrik(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err) {
    reach_solver_settings settings = request->settings;
    if (!jr_get_bool(request->solver_json, "solver", "move_root", &settings.fabrik_move_root, err)) return 0;
    return cli_solve_iterative(&fabrik, request, settings, result, warnings, err);
}
