/* `reach retarget`: clips carried onto a character or a robot (command_retarget.c parses the
 * command line and runs the jobs; retarget_setup.c reads the files, the map and the roles;
 * retarget_clip.c retargets one clip into its output). */
#ifndef REACH_CLI_RETARGET_H
#define REACH_CLI_RETARGET_H

#include <stdio.h>

#include "error.h"
#include "reach/clip.h"
#include "reach/humanoid.h"
#include "reach/retarget.h"
#include "rig.h"

/* What --map gives: role maps for either side and axes. */
typedef struct cli_retarget_map {
    const char *source_bones[REACH_ROLE_COUNT]; /* NULL: found from the names */
    const char *target_bones[REACH_ROLE_COUNT];
    int has_source_axes, has_target_axes;
    reach_vec3 source_up, source_forward, target_up, target_forward;
    void *json; /* the parsed map, which the names point into */
} cli_retarget_map;

/* The target, shared read-only by every job. */
typedef struct cli_retarget_target {
    cli_rig rig;
    reach_humanoid roles;
    int robot; /* a URDF */
} cli_retarget_target;

/* One source clip, read. */
typedef struct cli_retarget_source {
    cli_rig rig; /* its skeleton and names (frames not kept here) */
    reach_clip clip;
    reach_humanoid roles;
} cli_retarget_source;

/* Reads --map's file (NULL: an empty map). */
int cli_retarget_map_read(const char *path, cli_retarget_map *map, cli_error *err);
void cli_retarget_map_free(cli_retarget_map *map);

/* Reads the target (a URDF robot or a character file) and its roles. */
int cli_retarget_target_read(const char *path, const cli_retarget_map *map, cli_retarget_target *target,
                             cli_error *err);
void cli_retarget_target_free(cli_retarget_target *target);

/* Reads a source clip (BVH, glTF or GLB with an animation) and its roles. */
int cli_retarget_source_read(const char *path, const cli_retarget_map *map, cli_retarget_source *source,
                             cli_error *err);
void cli_retarget_source_free(cli_retarget_source *source);

/* The settings for a source onto the target: axes by file kind (URDF +z up, +x forward; BVH and
 * glTF +y up, +z forward) unless the map gives them, the source's ground its lowest joint over
 * the clip. */
reach_retarget_settings cli_retarget_settings(const cli_retarget_source *source, const cli_retarget_target *target,
                                              const cli_retarget_map *map);

/* Progress shared by the jobs: frames done of frames in all, drawn on a terminal. */
typedef struct cli_progress cli_progress;
void cli_progress_add(cli_progress *progress, int frames);

/* Retargets one clip onto the target: JSON lines on out (with "clip": clip_name when not NULL),
 * or, with out_path, the file it names (.jsonl, .bvh). */
int cli_retarget_clip(const cli_retarget_source *source, const cli_retarget_target *target, const cli_retarget_map *map,
                      const char *clip_name, FILE *out, const char *out_path, cli_progress *progress, cli_error *err);

#endif
