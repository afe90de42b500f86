/* The CLI's commands on parsed input: each returns the result object to print, or NULL with
 * the error to report. */
#ifndef REACH_CLI_COMMANDS_H
#define REACH_CLI_COMMANDS_H

#include <stdio.h>

#include <cJSON.h>

#include "error.h"
#include "rig.h"

/* `reach solve`: one request. Its "rig" wins over shared_rig (from --rig; may be NULL). */
cJSON *cli_solve_request(const cJSON *json, const cli_rig *shared_rig, cli_error *err);

/* `reach fk`: {"rig": ..., "joints": [...]} to bones with world transforms. */
cJSON *cli_fk_request(const cJSON *json, cli_error *err);

/* `reach solve --jsonl`: one request per line of lines, one result or error per line on out.
 * Blank lines are skipped. Returns the exit status: 0, or 1 if any line failed. */
int cli_solve_lines(FILE *lines, const cli_rig *shared_rig, FILE *out, FILE *diagnostics);

/* `reach info FILE`: prints the rig as a tree, and a character's motion (command_info.c). json is
 * the file's JSON, or NULL for a URDF or character read from path. */
int cli_info(const char *path, const cJSON *json, FILE *out, cli_error *err);

/* `reach convert IN OUT` (command_convert.c): a character or robot file (.bvh, .gltf, .glb,
 * .urdf) rewritten as OUT's extension names (.bvh, .gltf, .glb, .json). */
int cli_convert(const char *in, const char *out, cli_error *err);

/* `reach retarget SOURCE... TARGET [--map MAP] [-o OUT] [--jobs N] [--format F]`
 * (command_retarget.c): argv as given to the tool; returns the exit status. */
int cli_retarget(int argc, char **argv, FILE *out, FILE *err);

#endif
