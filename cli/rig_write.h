/* A rig read from a file written as the contract's version-1 bone list (rig_write.c). */
#ifndef REACH_CLI_RIG_WRITE_H
#define REACH_CLI_RIG_WRITE_H

#include <stddef.h>

#include "error.h"
#include "reach/rig.h"
#include "rig.h"

/* {"bones": [...]} as compact JSON text in *text (the caller frees it), its length in *length.
 * A rig with mimic joints, or with a name empty or given twice, cannot be written as one and is
 * an error (*text NULL). */
int cli_rig_write_bones(const reach_rig *rig, char **text, size_t *length, cli_error *err);

#endif
