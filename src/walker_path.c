/* The standard paths the body is driven along: circle, line and figure-eight. */
#include "internal.h"
#include "walker_internal.h"

static const char *const path_names[] = {"circle", "line", "figure8"};
#define PATH_KIND_COUNT ((int)(sizeof path_names / sizeof path_names[0]))

reach_walk_path reach_walk_path_default(reach_walk_path_kind kind) {
    reach_walk_path p;
    p.kind = kind;
    p.size = 6;
    p.speed = 1;
    return p;
}

static int path_is_valid(const reach_walk_path *path) {
    return (int)path->kind >= 0 && (int)path->kind < PATH_KIND_COUNT && reach_is_finite(path->size) &&
           reach_is_finite(path->speed) && path->size > 0 && path->speed > 0;
}

reach_status reach_walk_path_sample(const reach_walk_path *path, reach_real t, reach_vec2 *position,
                                    reach_real *heading) {
    REACH_CHECK_ARG(path && position && heading);
    if (!path_is_valid(path)) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(t)) return REACH_ERROR_NOT_FINITE;
    reach_real r = path->size, angle = path->speed * t / r;
    switch (path->kind) {
    case REACH_WALK_PATH_CIRCLE:
        /* Centred at (0, r), so that it starts at the origin heading along +x. */
        *position = reach_vec2_make(r * reach_sin(angle), r * (1 - reach_cos(angle)));
        *heading = angle;
        break;
    case REACH_WALK_PATH_LINE:
        *position = reach_vec2_make(path->speed * t, 0);
        *heading = 0;
        break;
    case REACH_WALK_PATH_FIGURE8: {
        *position = reach_vec2_make(r * reach_sin(angle), r * REACH_R(0.5) * reach_sin(2 * angle));
        /* The tangent (cos θ, cos 2θ) never points along +y, so measuring its angle from -y
         * (the atan2 of the tangent turned a quarter turn) never wraps: the heading is
         * continuous, within (-3pi/2, pi/2). */
        reach_real tx = reach_cos(angle), ty = reach_cos(2 * angle);
        *heading = reach_atan2(tx, -ty) - REACH_PI / 2;
        break;
    }
    }
    return REACH_OK;
}

reach_real reach_walk_path_period(const reach_walk_path *path) {
    if (!path || !path_is_valid(path) || path->kind == REACH_WALK_PATH_LINE) return 0;
    return 2 * REACH_PI * path->size / path->speed;
}

const char *reach_walk_path_name(reach_walk_path_kind kind) {
    return reach__walker_name(path_names, PATH_KIND_COUNT, (int)kind);
}

reach_status reach_walk_path_parse(const char *name, reach_walk_path_kind *kind) {
    REACH_CHECK_ARG(name && kind);
    int index = 0;
    reach_status st = reach__walker_parse_name(path_names, PATH_KIND_COUNT, name, &index);
    if (st == REACH_OK) *kind = (reach_walk_path_kind)index;
    return st;
}
