/* Random two-bone limbs (see limbs.h). */
#include "limbs.h"

#include <math.h>

limb_shape limb_random_shape(bench_random *r) {
    limb_shape s;
    s.upper = bench_random_uniform(r, 0.5, 1.5);
    s.lower = bench_random_uniform(r, 0.5, 1.5);
    double kind = bench_random_uniform(r, 0, 1);
    if (kind < 0.75) {
        /* Inside the reach range by 1% of the chain, where both solvers are well-conditioned. */
        double chain = s.upper + s.lower, margin = 0.01 * chain;
        s.distance = bench_random_uniform(r, fabs(s.upper - s.lower) + margin, chain - margin);
        s.reachable = 1;
    } else if (kind < 0.875) {
        s.distance = bench_random_uniform(r, 1.01, 2) * (s.upper + s.lower);
        s.reachable = 0;
    } else {
        s.lower = 0.5 * s.upper; /* unequal bones, so there is a hole around the root */
        s.distance = bench_random_uniform(r, 0.1, 0.9) * (s.upper - s.lower);
        s.reachable = 0;
    }
    return s;
}

/* The lower bone's direction: the upper one's bent by 20° to 160° toward a random side. */
static reach_vec3 bent_direction(bench_random *r, reach_vec3 upper) {
    reach_vec3 side = reach_vec3_reject(bench_random_direction(r), upper);
    side = reach_vec3_normalize_safe(side, reach_vec3_any_perpendicular(upper));
    double bend = bench_random_uniform(r, 20, 160) * LIMB_DEGREE;
    return reach_vec3_add(reach_vec3_scale(upper, (reach_real)cos(bend)),
                          reach_vec3_scale(side, (reach_real)sin(bend)));
}

reach_two_bone_input limb_random_input(bench_random *r, limb_shape s) {
    reach_two_bone_input in;
    reach_vec3 upper = bench_random_direction(r);
    in.root = bench_random_point(r, 1);
    in.mid = reach_vec3_mad(in.root, upper, (reach_real)s.upper);
    in.end = reach_vec3_mad(in.mid, bent_direction(r, upper), (reach_real)s.lower);
    in.target = reach_vec3_mad(in.root, bench_random_direction(r), (reach_real)s.distance);
    in.pole = reach_vec3_mad(in.root, bench_random_direction(r), (reach_real)(s.upper + s.lower));
    in.use_pole = 1;
    return in;
}
