/* A walker on one of the standard paths, stepped at a fixed rate for the walker scenes. The
 * walk starts at rest and runs whole laps before the first frame, until its gait has settled
 * into a cycle that repeats from lap to lap: then the lap shown ends where it began, feet and
 * all, and the GIF loops without a jump. Frames follow replay.h, so each is a function of its
 * time alone. */
#ifndef DEMO_WALK_RUN_H
#define DEMO_WALK_RUN_H

#include <reach/reach.h>

#include "replay.h"

typedef struct demo_walk {
    /* Set before the first demo_walk_advance: */
    reach_walker_def def; /* ground_user is pointed at `terrain` */
    reach_walker_leg_def legs[REACH_WALKER_MAX_LEGS];
    int leg_count;
    reach_walk_path path;
    reach_walk_terrain terrain;
    int frames_per_lap; /* simulation steps in one lap: the GIF's frame count */
    int warmup_laps;    /* laps walked before the lap shown */
    /* State: */
    reach_walker walker;
    demo_replay replay;
    int lap_start_steps; /* steps all legs had begun when the lap shown started */
} demo_walk;

/* The standard creature with `legs` legs (reach_walker_standard_legs, two-bone legs, the
 * default step rules) in 2 or 3 dimensions, on `path` over the default terrain of `terrain`:
 * fills the fields set before the first advance. frames_per_lap should be the scene's frame
 * count, so that frame i is step i. */
reach_status demo_walk_setup(demo_walk *walk, int dimensions, int legs, reach_walk_path path,
                             reach_walk_terrain_kind terrain, int frames_per_lap, int warmup_laps);

/* Seconds of one simulation step: a lap over frames_per_lap. */
double demo_walk_step(const demo_walk *walk);

/* Brings the walker to the frame at `time` seconds into the lap shown. */
reach_status demo_walk_advance(demo_walk *walk, double time);

/* Path time of the frame at `time`: warm-up laps included. */
double demo_walk_path_time(const demo_walk *walk, double time);

/* The largest distance from a leg's solved chain end to its foot: the legs' IK residual. */
double demo_walk_residual(const reach_walker *walker);

#endif
