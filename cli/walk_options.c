/* The options of `reach walk`, each checked on its own so that a mistake is named exactly. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

#define MAX_FRAMES 10000000
/* A frame shorter than a microsecond makes the body's speed (its move over dt) overflow. */
#define MIN_DT 1e-6
#define MAX_DT 1.0

/* A whole number in [min, max], nothing else in the text. */
static int parse_int(const char *text, long min, long max, long *out) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == ' ' || value < min || value > max) return 0;
    *out = value;
    return 1;
}

static int read_legs(const char *text, int *legs, cli_error *err) {
    long value = 0;
    reach_walker_leg_def defs[REACH_WALKER_MAX_LEGS];
    /* The standard creature decides which counts it can lay out. */
    if (!parse_int(text, 1, REACH_WALKER_MAX_LEGS, &value) ||
        reach_walker_standard_legs((int)value, REACH_LEG_TWO_BONE, defs) != REACH_OK)
        return cli_fail(err, "--legs: expected an even number of legs from 2 to %d, got '%s'", REACH_WALKER_MAX_LEGS,
                        text);
    *legs = (int)value;
    return 1;
}

static int read_frames(const char *text, int *frames, cli_error *err) {
    long value = 0;
    if (!parse_int(text, 1, MAX_FRAMES, &value))
        return cli_fail(err, "--frames: expected a whole number from 1 to %d, got '%s'", MAX_FRAMES, text);
    *frames = (int)value;
    return 1;
}

static int read_dt(const char *text, double *dt, cli_error *err) {
    char *end = NULL;
    double value = strtod(text, &end);
    if (end == text || *end != '\0' || text[0] == ' ' || !isfinite(value) || !(value >= MIN_DT) || value > MAX_DT)
        return cli_fail(err, "--dt: expected seconds per frame from 1e-6 to 1, got '%s'", text);
    *dt = value;
    return 1;
}

static int read_path(const char *text, reach_walk_path_kind *path, cli_error *err) {
    if (reach_walk_path_parse(text, path) == REACH_OK) return 1;
    return cli_fail(err, "--path: unknown path '%s' (expected circle, line or figure8)", text);
}

static int read_terrain(const char *text, reach_walk_terrain_kind *terrain, cli_error *err) {
    if (reach_walk_terrain_parse(text, terrain) == REACH_OK) return 1;
    return cli_fail(err, "--terrain: unknown terrain '%s' (expected flat, waves or steps)", text);
}

/* An option that takes a value: its value, or a failure when the command line ends. */
static const char *option_value(int argc, char **argv, int *i, cli_error *err) {
    if (*i + 1 < argc) return argv[++*i];
    cli_fail(err, "%s needs a value", argv[*i]);
    return NULL;
}

static int read_option(int argc, char **argv, int *i, cli_walk_options *options, cli_error *err) {
    const char *arg = argv[*i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) return options->help = 1;
    int known = strcmp(arg, "--legs") == 0 || strcmp(arg, "--frames") == 0 || strcmp(arg, "--dt") == 0 ||
                strcmp(arg, "--path") == 0 || strcmp(arg, "--terrain") == 0;
    if (!known) {
        if (arg[0] == '-') return cli_fail(err, "unknown option '%s' for 'walk'", arg);
        return cli_fail(err, "unexpected argument '%s': walk reads no FILE", arg);
    }
    const char *value = option_value(argc, argv, i, err);
    if (!value) return 0;
    if (strcmp(arg, "--legs") == 0) return read_legs(value, &options->legs, err);
    if (strcmp(arg, "--frames") == 0) return read_frames(value, &options->frames, err);
    if (strcmp(arg, "--dt") == 0) return read_dt(value, &options->dt, err);
    if (strcmp(arg, "--path") == 0) return read_path(value, &options->path, err);
    return read_terrain(value, &options->terrain, err);
}

int cli_walk_parse(int argc, char **argv, int first, cli_walk_options *options, cli_error *err) {
    options->legs = 8;
    options->frames = 600;
    options->dt = 0.016;
    options->path = REACH_WALK_PATH_CIRCLE;
    options->terrain = REACH_WALK_TERRAIN_FLAT;
    options->help = 0;
    for (int i = first; i < argc; i++) {
        if (!read_option(argc, argv, &i, options, err)) return 0;
        if (options->help) return 1;
    }
    return 1;
}
