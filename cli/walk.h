/* `reach walk`: the walker module's standard creature walking a standard path over a standard
 * terrain, one JSON object per frame. */
#ifndef REACH_CLI_WALK_H
#define REACH_CLI_WALK_H

#include <stdio.h>

#include "error.h"
#include "reach/walker.h"

typedef struct cli_walk_options {
    int legs;                        /* even, 2 to REACH_WALKER_MAX_LEGS; default 8 */
    int frames;                      /* frames printed, the first the standing start; default 600 */
    double dt;                       /* seconds per frame, in (0, 1]; default 0.016 */
    reach_walk_path_kind path;       /* default circle */
    reach_walk_terrain_kind terrain; /* default flat */
    int help;                        /* --help was given */
} cli_walk_options;

/* Reads the options after "walk" (argv[first ..]). A bad option fails with a message that
 * names it (bad command-line usage). */
int cli_walk_parse(int argc, char **argv, int first, cli_walk_options *options, cli_error *err);

/* Walks and prints every frame on out. Fails only if the library rejects a step or a frame
 * would not be finite (neither happens with the standard creature and valid options). */
int cli_walk_run(const cli_walk_options *options, FILE *out, cli_error *err);

#endif
