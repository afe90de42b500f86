/* Private parts of the walker shared by its source files. Never installed. */
#ifndef REACH_WALKER_INTERNAL_H
#define REACH_WALKER_INTERNAL_H

#include <string.h>

#include "reach/walker.h"

/* The ground under (x, y) as the walker trusts it: the caller's query (or the plane z = 0),
 * with a failed query replaced by flat ground at the body's current ground level. */
void reach__walker_ground(const reach_walker *walker, reach_real x, reach_real y, reach_real *height,
                          reach_vec3 *normal);

/* The body's height and tilt ease toward the plane fitted through the planted feet by the
 * fraction blend in [0, 1] (1: at once); then the body's rotation and the hips follow. */
void reach__walker_follow_feet(reach_walker *walker, reach_real blend);

/* Swings advance by dt and land; planted legs lift by the step rules; swinging feet move
 * along their arcs. Hips must be in place for this frame. */
void reach__walker_step(reach_walker *walker, reach_real dt);

/* Solves the leg's chain from its hip to its foot, starting from its previous shape. */
void reach__walker_solve_leg(const reach_walker *walker, reach_walker_leg *leg);

/* The largest distance from hip to foot at which a foot may stay planted or land. */
static inline reach_real reach__walker_stretch_limit(const reach_walker *walker, const reach_walker_leg *leg) {
    return walker->def.overstretch * leg->def.reach;
}

/* Rotation by the heading about +z. */
static inline reach_quat reach__walker_yaw(reach_real heading) {
    return reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), heading);
}

/* The path and terrain names: names[index], "unknown" out of range; and the index of a name. */
static inline const char *reach__walker_name(const char *const *names, int count, int index) {
    return index >= 0 && index < count ? names[index] : "unknown";
}
static inline reach_status reach__walker_parse_name(const char *const *names, int count, const char *name, int *index) {
    for (int i = 0; i < count; i++) {
        if (strcmp(name, names[i]) == 0) {
            *index = i;
            return REACH_OK;
        }
    }
    return REACH_ERROR_INVALID_ARGUMENT;
}

#endif
