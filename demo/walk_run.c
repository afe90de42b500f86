/* Stepping a walker along a standard path. */
#include "walk_run.h"

reach_status demo_walk_setup(demo_walk *walk, int dimensions, int legs, reach_walk_path path,
                             reach_walk_terrain_kind terrain, int frames_per_lap, int warmup_laps) {
    walk->def = reach_walker_default_def();
    walk->def.dimensions = dimensions;
    walk->def.ground = dimensions == 3 ? reach_walk_terrain_ground : NULL;
    walk->leg_count = legs;
    walk->path = path;
    walk->terrain = reach_walk_terrain_default(terrain);
    walk->frames_per_lap = frames_per_lap;
    walk->warmup_laps = warmup_laps;
    walk->replay = demo_replay_make(demo_walk_step(walk), 0);
    return reach_walker_standard_legs(legs, REACH_LEG_TWO_BONE, walk->legs);
}

double demo_walk_step(const demo_walk *walk) {
    return (double)reach_walk_path_period(&walk->path) / walk->frames_per_lap;
}

double demo_walk_path_time(const demo_walk *walk, double time) {
    double step = demo_walk_step(walk);
    return (walk->warmup_laps * walk->frames_per_lap + demo_replay_step_at(&walk->replay, time)) * step;
}

/* Walks the body to path step k (a whole number of steps from the start). */
static reach_status walk_to(demo_walk *walk, int k) {
    double step = demo_walk_step(walk);
    reach_vec2 position;
    reach_real heading;
    reach_status status = reach_walk_path_sample(&walk->path, (reach_real)(k * step), &position, &heading);
    if (status != REACH_OK) return status;
    return reach_walker_update(&walk->walker, position, heading, (reach_real)step);
}

static reach_status restart(demo_walk *walk) {
    walk->def.ground_user = &walk->terrain;
    reach_status status =
        reach_walker_init(&walk->walker, &walk->def, walk->legs, walk->leg_count, reach_vec2_make(0, 0), 0);
    for (int k = 1; status == REACH_OK && k <= walk->warmup_laps * walk->frames_per_lap; k++)
        status = walk_to(walk, k);
    walk->lap_start_steps = 0;
    for (int i = 0; i < walk->walker.leg_count; i++)
        walk->lap_start_steps += walk->walker.legs[i].steps;
    return status;
}

reach_status demo_walk_advance(demo_walk *walk, double time) {
    walk->replay.step_seconds = demo_walk_step(walk);
    int first, last;
    demo_replay_range(&walk->replay, time, &first, &last);
    int base = walk->warmup_laps * walk->frames_per_lap;
    for (int k = first; k <= last; k++) {
        reach_status status = demo_replay_is_start(&walk->replay, k) ? restart(walk) : walk_to(walk, base + k);
        if (status != REACH_OK) return status;
    }
    return REACH_OK;
}

double demo_walk_residual(const reach_walker *walker) {
    double worst = 0;
    for (int i = 0; i < walker->leg_count; i++) {
        const reach_walker_leg *leg = &walker->legs[i];
        double miss = (double)reach_vec3_distance(leg->joints[leg->def.bone_count], leg->foot);
        if (miss > worst) worst = miss;
    }
    return worst;
}
