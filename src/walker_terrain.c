/* The standard terrains: flat, waves and steps, as ground queries for the walker. */
#include "internal.h"
#include "walker_internal.h"

static const char *const terrain_names[] = {"flat", "waves", "steps"};
#define TERRAIN_KIND_COUNT ((int)(sizeof terrain_names / sizeof terrain_names[0]))

reach_walk_terrain reach_walk_terrain_default(reach_walk_terrain_kind kind) {
    reach_walk_terrain t;
    t.kind = kind;
    t.height = kind == REACH_WALK_TERRAIN_STEPS ? REACH_R(0.12) : REACH_R(0.25);
    t.wavelength = kind == REACH_WALK_TERRAIN_STEPS ? REACH_R(1.5) : 4;
    return t;
}

/* Terrace level along one axis: 0, 1, 2, 1, 0, 1, ... one terrace per `width`. */
static reach_real terrace_level(reach_real coordinate, reach_real width) {
    reach_real terrace = reach_floor(coordinate / width);
    reach_real phase = terrace - 4 * reach_floor(terrace / 4); /* terrace mod 4, in {0, 1, 2, 3} */
    return phase <= 2 ? phase : 4 - phase;
}

void reach_walk_terrain_ground(void *user, reach_real x, reach_real y, reach_real *height, reach_vec3 *normal) {
    const reach_walk_terrain *t = (const reach_walk_terrain *)user;
    *height = 0;
    *normal = reach_vec3_make(0, 0, 1);
    /* A missing or invalid terrain is flat ground, so the query never gives NaN. */
    if (!t || !reach_is_finite(t->height) || !reach_is_finite(t->wavelength) || t->height < 0 || !(t->wavelength > 0))
        return;
    switch (t->kind) {
    case REACH_WALK_TERRAIN_FLAT: break;
    case REACH_WALK_TERRAIN_WAVES: {
        /* z = A sin(kx) cos(ky); normal ∝ (-∂z/∂x, -∂z/∂y, 1). */
        reach_real k = 2 * REACH_PI / t->wavelength;
        reach_real sx = reach_sin(k * x), cx = reach_cos(k * x), sy = reach_sin(k * y), cy = reach_cos(k * y);
        *height = t->height * sx * cy;
        reach_vec3 n = reach_vec3_make(-t->height * k * cx * cy, t->height * k * sx * sy, 1);
        *normal = reach_vec3_scale(n, 1 / reach_vec3_length(n));
        break;
    }
    case REACH_WALK_TERRAIN_STEPS:
        *height = t->height * (terrace_level(x, t->wavelength) + terrace_level(y, t->wavelength));
        break;
    }
}

const char *reach_walk_terrain_name(reach_walk_terrain_kind kind) {
    return reach__walker_name(terrain_names, TERRAIN_KIND_COUNT, (int)kind);
}

reach_status reach_walk_terrain_parse(const char *name, reach_walk_terrain_kind *kind) {
    REACH_CHECK_ARG(name && kind);
    int index = 0;
    reach_status st = reach__walker_parse_name(terrain_names, TERRAIN_KIND_COUNT, name, &index);
    if (st == REACH_OK) *kind = (reach_walk_terrain_kind)index;
    return st;
}
