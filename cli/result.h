/* Writing results: the pose as JSON, one result per line, and the error object. */
#ifndef REACH_CLI_RESULT_H
#define REACH_CLI_RESULT_H

#include <stdio.h>

#include <cJSON.h>

#include "error.h"
#include "rig.h"

/* Adds "bones" (each bone's local position and rotation, and its world_position and
 * world_rotation by forward kinematics) and "joints" (hinge angles and prismatic offsets in
 * bone order; a hinge angle is given the turn that puts it in its range) for the pose, and
 * "joint_names" parallel to "joints" when the rig names its joints (rigs from files). */
int cli_result_add_pose(cJSON *result, const cli_rig *rig, const reach_transform *pose, cli_error *err);

/* Prints result on one line. Prints nothing and fails if it holds a non-finite number, which
 * JSON cannot carry and which must never reach a user as a result. */
int cli_result_print(FILE *out, const cJSON *result, cli_error *err);

/* {"status": "error", "message": ...} on out (with "line" when line > 0, for --jsonl) and
 * "reach: [line N: ]message" on diagnostics. */
void cli_print_error(FILE *out, FILE *diagnostics, int line, const char *message);

#endif
