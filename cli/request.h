/* A solve request read from JSON against a rig: solver, settings, targets and starting pose. */
#ifndef REACH_CLI_REQUEST_H
#define REACH_CLI_REQUEST_H

#include <cJSON.h>

#include "error.h"
#include "reach/humanoid.h"
#include "reach/solver.h"
#include "rig.h"

struct cli_solver;

typedef struct cli_target {
    /* bone, position or (kind REACH_TARGET_MEET) meet_bone, orientation (use_orientation) and
     * weight (>= 0; each solver says what it means: a blend for two_bone). */
    reach_target goal;
    reach_vec3 pole; /* world point the middle joint bends toward, when use_pole */
    int use_pole;
    int use_position; /* 0 for a meeting, an aim, or (full_body) a rotation alone */
    int role;         /* the humanoid role the target named instead of a bone; -1 when named by bone */
    /* An aim target ("look_at"): the bone turns so that its local forward axis, cast from its
     * local offset, points at look_at; with use_up its local up axis leans toward pole (a world
     * direction, default +y). */
    int use_look_at, use_up, use_offset;
    reach_vec3 look_at, forward, up, offset;
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
    /* The humanoid roles (solver.humanoid, default "auto"), read when a target names a role or
     * the solver needs them (cli_request_humanoid). */
    reach_humanoid humanoid;
    int has_humanoid;
} cli_request;

/* Reads the request; the rig must outlive it. On failure nothing is left to free. */
int cli_request_read(const cJSON *json, const cli_rig *rig, cli_request *request, cli_error *err);
void cli_request_free(cli_request *request);

/* Reads request->humanoid from solver.humanoid once (later calls return at once). path names
 * where a failure to find the roles is reported when the solver has no "humanoid" option. */
int cli_request_humanoid(cli_request *request, const char *path, cli_error *err);

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
