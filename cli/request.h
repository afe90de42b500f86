/* A solve request read from JSON against a rig: solver, settings, targets and starting pose. */
#ifndef REACH_CLI_REQUEST_H
#define REACH_CLI_REQUEST_H

#include <cJSON.h>

#include "error.h"
#include "reach/solver.h"
#include "rig.h"

struct cli_solver;

typedef struct cli_target {
    /* bone, position or (kind REACH_TARGET_MEET) meet_bone, orientation (use_orientation) and
     * weight (>= 0; each solver says what it means: a blend for two_bone). */
    reach_target goal;
    reach_vec3 pole; /* world point the middle joint bends toward, when use_pole */
    int use_pole;
} cli_target;

typedef struct cli_request {
    const cli_rig *rig;
    const struct cli_solver *solver;
    const cJSON *solver_json; /* the "solver" object, for the solver's own options */
    /* The options every solver shares: max_iterations (0: the solver's default), tolerance (0:
     * the solver's default of 1e-4 × chain length), angle_tolerance, and root_bone (from
     * "chain_root", -1 if absent). */
    reach_solver_settings settings;
    int target_count;
    cli_target *targets;
    reach_transform *pose; /* the starting pose; the solver overwrites it with the solved one */
} cli_request;

/* Reads the request; the rig must outlive it. On failure nothing is left to free. */
int cli_request_read(const cJSON *json, const cli_rig *rig, cli_request *request, cli_error *err);
void cli_request_free(cli_request *request);

/* The rest pose with the request's "joints" values applied (hinge angles and prismatic
 * offsets in bone order), shared by solve and fk. */
int cli_pose_read(const cJSON *json, const cli_rig *rig, reach_transform *pose, cli_error *err);

/* Measures how far the pose (as world transforms) is from the targets: the largest distance
 * (to a target's position, or between the two joints of a meeting) and angle left, and whether
 * all are within tolerance (position) and settings.angle_tolerance. Iterations are the
 * solver's to fill. */
void cli_measure_targets(const cli_request *request, const reach_transform *world, reach_real tolerance,
                         reach_solve_result *result);

#endif
