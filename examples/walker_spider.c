/* The standard eight-legged creature (three-bone legs, the classic procedural spider) walking a figure-eight
 * over wavy ground for eight seconds. We move the body along the path; the walker decides where
 * each foot goes and solves each leg from hip to foot. It succeeds when every leg stepped, the
 * gait never broke (no forced steps), no planted foot ever slid and every leg's chain ended on
 * its foot. */
#include <stdio.h>

#include "reach/reach.h"

#define LEGS 8

int main(void) {
    reach_walk_terrain terrain = reach_walk_terrain_default(REACH_WALK_TERRAIN_WAVES);
    reach_walker_def def = reach_walker_default_def(); /* 3-D, step rules for legs about 2 long */
    def.ground = reach_walk_terrain_ground;            /* or your own height-and-normal query */
    def.ground_user = &terrain;

    reach_walker_leg_def legs[LEGS];
    reach_walker walker; /* a plain value: nothing is allocated */
    if (reach_walker_standard_legs(LEGS, REACH_LEG_FABRIK, legs) != REACH_OK ||
        reach_walker_init(&walker, &def, legs, LEGS, reach_vec2_make(0, 0), 0) != REACH_OK)
        return 1;

    reach_walk_path path = reach_walk_path_default(REACH_WALK_PATH_FIGURE8);
    const reach_real dt = REACH_R(1.0) / 60;
    long slipped = 0, missed = 0;
    for (int frame = 1; frame <= 8 * 60; frame++) {
        reach_walker before = walker; /* to see which planted feet stayed planted */
        reach_vec2 position;
        reach_real heading;
        if (reach_walk_path_sample(&path, (reach_real)frame * dt, &position, &heading) != REACH_OK ||
            reach_walker_update(&walker, position, heading, dt) != REACH_OK)
            return 1;
        for (int i = 0; i < LEGS; i++) {
            const reach_walker_leg *was = &before.legs[i], *now = &walker.legs[i];
            /* A foot that was planted and did not lift must not have moved at all. */
            if (was->planted && now->planted && now->steps == was->steps &&
                reach_vec3_distance(was->foot, now->foot) > 0)
                slipped++;
            /* The solved chain (hip to foot) must end on the foot, to 1e-3 of the leg's reach. */
            if (reach_vec3_distance(now->joints[now->def.bone_count], now->foot) > REACH_R(1e-3) * now->def.reach)
                missed++;
        }
    }

    int all_stepped = 1;
    printf("after %.1f s the body is at (%.2f, %.2f, %.2f)\n", (double)walker.time, (double)walker.position.x,
           (double)walker.position.y, (double)walker.position.z);
    for (int i = 0; i < LEGS; i++) {
        const reach_walker_leg *leg = &walker.legs[i];
        printf("leg %d (%s %d, group %d): %2d steps\n", i, i % 2 ? "right" : "left", i / 2 + 1, leg->def.group,
               leg->steps);
        all_stepped &= leg->steps > 0;
    }
    printf("forced steps %ld, planted feet that slid %ld, chains off their feet %ld\n", walker.forced_steps, slipped,
           missed);
    return all_stepped && walker.forced_steps == 0 && slipped == 0 && missed == 0 ? 0 : 1;
}
