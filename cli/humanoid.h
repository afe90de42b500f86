/* The humanoid roles of a request's rig: found from the bone names ("humanoid": "auto", the
 * default) or given as a map ("humanoid": {"left_hand": "Hand.L", ...}). Targets may then name
 * a role instead of a bone, and full_body knows the body's parts. */
#ifndef REACH_CLI_HUMANOID_H
#define REACH_CLI_HUMANOID_H

#include <cJSON.h>

#include "error.h"
#include "reach/humanoid.h"
#include "rig.h"

/* Reads spec (NULL or "auto": from the bone names; an object: the map) into *out. path names the
 * place a failure is reported at. */
int cli_humanoid_read(const cJSON *spec, const char *path, const cli_rig *rig, reach_humanoid *out, cli_error *err);

/* "hips, spine, ..." into buf, for messages. */
void cli_role_names(char *buf, size_t size);

#endif
