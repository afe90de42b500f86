#include "solvers.h"

#include <string.h>

const char *const cli_solver_common_fields[] = {"type", "max_iterations", "tolerance", "angle_tolerance", NULL};

static const char *const two_bone_options[] = {"soft_distance", "max_stretch", NULL};
static const char *const fabrik_options[] = {"move_root", NULL};
static const char *const ccd_options[] = {"max_step", NULL};
static const char *const jacobian_options[] = {"method", "damping", "null_space", "restarts", "seed", NULL};
static const char *const aim_options[] = {"humanoid", "shares", NULL};
static const char *const full_body_options[] = {"humanoid", "natural_limits", NULL};

static const cli_solver solvers[] = {
    {"two_bone", two_bone_options, cli_solve_two_bone, 0, 0},
    {"fabrik", fabrik_options, cli_solve_fabrik, 1, 0},
    {"ccd", ccd_options, cli_solve_ccd, 1, 0},
    {"jacobian", jacobian_options, cli_solve_jacobian, 1, 0},
    {"aim", aim_options, cli_solve_aim, 1, 1},
    {"full_body", full_body_options, cli_solve_full_body, 0, 1},
};

const cli_solver *cli_solver_find(const char *type) {
    for (size_t i = 0; i < sizeof solvers / sizeof solvers[0]; i++)
        if (strcmp(solvers[i].name, type) == 0) return &solvers[i];
    return NULL;
}

void cli_solver_names(char *buf, size_t size) {
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof solvers / sizeof solvers[0]; i++) {
        if (i > 0) strncat(buf, ", ", size - strlen(buf) - 1);
        strncat(buf, solvers[i].name, size - strlen(buf) - 1);
    }
}
