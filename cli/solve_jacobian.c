/* solver.type "jacobian": the Jacobian family (transpose, pseudoinverse, damped and selectively
 * damped least squares) on every degree of freedom from chain_root to the targets, with limit
 * locking, null-space motion toward the rest pose and seeded random restarts.
 *
 * Left out, the options take the most robust setting: DEFAULT_METHOD with DEFAULT_RESTARTS
 * restarts (the library alone defaults to SDLS without restarts). DLS reached every one of 300
 * random 6-D poses of a UR5 to 1e-5 m within the CLI's iteration budget, SDLS 96 %. */
#include <math.h>
#include <string.h>

#include "iterative.h"
#include "json_read.h"
#include "solvers.h"
#include "reach/jacobian.h"

#define DEFAULT_METHOD   REACH_JACOBIAN_DLS
#define DEFAULT_RESTARTS 100
/* Seeds are JSON numbers: whole numbers up to 2^53 are exact in a double. */
#define MAX_SEED 9007199254740992.0

static const cli_iterative jacobian = {"jacobian", reach_jacobian_scratch_size, reach_jacobian_solve, 1};

static const reach_jacobian_method methods[] = {REACH_JACOBIAN_TRANSPOSE, REACH_JACOBIAN_PSEUDOINVERSE,
                                                REACH_JACOBIAN_DLS, REACH_JACOBIAN_SDLS};

static int read_method(const cJSON *solver, reach_jacobian_method *method, cli_error *err) {
    const char *name = NULL;
    if (!jr_get_string(solver, "solver", "method", 0, &name, err)) return 0;
    if (!name) return 1;
    for (size_t k = 0; k < sizeof methods / sizeof methods[0]; k++) {
        if (strcmp(name, reach_jacobian_method_name(methods[k])) != 0) continue;
        *method = methods[k];
        return 1;
    }
    return cli_fail(err, "solver.method: unknown method '%s' (expected transpose, pseudoinverse, dls or sdls)", name);
}

static int read_seed(const cJSON *solver, uint64_t *seed, cli_error *err) {
    reach_real value = 0;
    if (!jr_get(solver, "seed")) return 1;
    if (!jr_get_number(solver, "solver", "seed", 0, &value, err)) return 0;
    if (value != floor(value) || value < 0 || value > MAX_SEED)
        return cli_fail(err, "solver.seed: expected a whole number in [0, 2^53]");
    *seed = (uint64_t)value;
    return 1;
}

static int read_options(const cJSON *solver, reach_solver_settings *settings, cli_error *err) {
    settings->jacobian_method = DEFAULT_METHOD;
    settings->restarts = DEFAULT_RESTARTS;
    if (!read_method(solver, &settings->jacobian_method, err) ||
        !jr_get_number(solver, "solver", "damping", 0, &settings->damping, err) ||
        !jr_get_bool(solver, "solver", "null_space", &settings->null_space, err) ||
        !jr_get_int(solver, "solver", "restarts", 0, 1000000, &settings->restarts, err) ||
        !read_seed(solver, &settings->seed, err))
        return 0;
    if (settings->damping < 0) return cli_fail(err, "solver.damping: must not be negative (0 adapts it)");
    return 1;
}

int cli_solve_jacobian(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err) {
    reach_solver_settings settings = request->settings;
    if (!read_options(request->solver_json, &settings, err)) return 0;
    return cli_solve_iterative(&jacobian, request, settings, result, warnings, err);
}
