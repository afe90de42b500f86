/* The walker's body: the ground under it, its height and tilt from the planted feet, its hips. */
#include "walker_internal.h"

void reach__walker_ground(const reach_walker *walker, reach_real x, reach_real y, reach_real *height,
                          reach_vec3 *normal) {
    reach_vec3 up = reach_vec3_make(0, 0, 1);
    *height = 0;
    *normal = up;
    if (walker->def.dimensions == 2 || !walker->def.ground) return;

    reach_real level = walker->position.z - walker->def.ride_height;
    reach_real h = level;
    reach_vec3 n = up;
    walker->def.ground(walker->def.ground_user, x, y, &h, &n);
    n = reach_vec3_normalize_safe(n, reach_vec3_zero());
    if (!(reach_fabs(h) <= (reach_real)REACH_WALKER_MAX_EXTENT) || !(n.z > 0)) {
        *height = level;
        return;
    }
    *height = h;
    *normal = n;
}

/* The up vector tilted at most max_tilt from +z: keep its horizontal direction, cap its angle. */
static reach_vec3 cap_tilt(reach_vec3 up, reach_real max_tilt) {
    if (up.z >= reach_cos(max_tilt)) return up;
    reach_vec3 across = reach_vec3_normalize_safe(reach_vec3_make(up.x, up.y, 0), reach_vec3_zero());
    return reach_vec3_add(reach_vec3_scale(across, reach_sin(max_tilt)), reach_vec3_make(0, 0, reach_cos(max_tilt)));
}

/* Least-squares plane z = level + a·x + b·y through the planted feet, x and y relative to the
 * body origin. A small ridge term keeps the slopes defined (and zero across the line) when
 * the feet are fewer than three or in a line. The sums are formed in units of the feet's
 * spread, so that they neither overflow nor underflow however large or small the creature is;
 * slopes that still come out undefined count as level ground. Returns 0 when no foot is
 * planted. */
static int fit_feet_plane(const reach_walker *walker, reach_real *level, reach_real *a, reach_real *b) {
    reach_real n = 0, mu = 0, mv = 0, mz = 0, reach_sum = 0;
    for (int i = 0; i < walker->leg_count; i++) {
        const reach_walker_leg *leg = &walker->legs[i];
        if (!leg->planted) continue;
        n += 1;
        mu += leg->foot.x - walker->position.x;
        mv += leg->foot.y - walker->position.y;
        mz += leg->foot.z;
        reach_sum += leg->def.reach;
    }
    if (n == 0) return 0;
    mu /= n, mv /= n, mz /= n;
    reach_real spread = reach_sum / n;
    for (int i = 0; i < walker->leg_count; i++) {
        const reach_walker_leg *leg = &walker->legs[i];
        if (!leg->planted) continue;
        reach_vec3 d = reach_vec3_make(leg->foot.x - walker->position.x - mu, leg->foot.y - walker->position.y - mv,
                                       leg->foot.z - mz);
        spread = reach_max(spread, reach_vec3_max_abs(d));
    }
    reach_real suu = 0, suv = 0, svv = 0, suz = 0, svz = 0;
    for (int i = 0; i < walker->leg_count; i++) {
        const reach_walker_leg *leg = &walker->legs[i];
        if (!leg->planted) continue;
        reach_real u = (leg->foot.x - walker->position.x - mu) / spread;
        reach_real v = (leg->foot.y - walker->position.y - mv) / spread;
        reach_real z = (leg->foot.z - mz) / spread;
        suu += u * u;
        suv += u * v;
        svv += v * v;
        suz += u * z;
        svz += v * z;
    }
    reach_real mean_reach = reach_sum / n / spread;
    reach_real ridge = REACH_R(1e-3) * mean_reach * mean_reach * n;
    suu += ridge;
    svv += ridge;
    reach_real det = suu * svv - suv * suv; /* > 0 unless the ridge underflowed */
    *a = (suz * svv - svz * suv) / det;
    *b = (svz * suu - suz * suv) / det;
    *level = mz - *a * mu - *b * mv;
    if (!(det > 0) || !reach_is_finite(*level)) {
        *a = *b = 0;
        *level = mz;
    }
    return 1;
}

static void place_hips(reach_walker *walker) {
    for (int i = 0; i < walker->leg_count; i++) {
        reach_walker_leg *leg = &walker->legs[i];
        reach_vec3 local = leg->def.hip;
        if (walker->def.dimensions == 2) local.z = 0;
        leg->hip = reach_vec3_add(walker->position, reach_quat_rotate(walker->rotation, local));
    }
}

void reach__walker_follow_feet(reach_walker *walker, reach_real blend) {
    reach_vec3 z_axis = reach_vec3_make(0, 0, 1);
    reach_real level, a, b;
    if (walker->def.dimensions == 3 && fit_feet_plane(walker, &level, &a, &b)) {
        reach_real height = level + walker->def.ride_height;
        reach_vec3 target_up =
            cap_tilt(reach_vec3_normalize_safe(reach_vec3_make(-a, -b, 1), z_axis), walker->def.max_tilt);
        walker->position.z += (height - walker->position.z) * blend;
        walker->up = reach_vec3_normalize_safe(reach_vec3_lerp(walker->up, target_up, blend), target_up);
    } else if (walker->def.dimensions == 2) {
        walker->position.z = 0;
        walker->up = z_axis;
    }
    walker->rotation = reach_quat_mul(reach_quat_shortest_arc(z_axis, walker->up), reach__walker_yaw(walker->heading));
    place_hips(walker);
}
