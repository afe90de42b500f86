/* Random two-bone limbs for the two-bone suites, from the seeded generator: bone lengths 0.5 to
 * 1.5, bent 20° to 160°; three in four targets reachable (inside the reach range by 1% of the
 * chain), one in eight beyond full extension, one in eight closer to the root than the limb can
 * fold. */
#ifndef REACH_BENCH_LIMBS_H
#define REACH_BENCH_LIMBS_H

#include "random.h"
#include "reach/two_bone.h"

#define LIMB_DEGREE (3.14159265358979323846 / 180)

typedef struct limb_shape {
    double upper, lower; /* bone lengths */
    double distance;     /* from the root to the target */
    int reachable;
} limb_shape;

limb_shape limb_random_shape(bench_random *r);

/* A 3-D limb of that shape at a random place, with a pole (use_pole = 1). */
reach_two_bone_input limb_random_input(bench_random *r, limb_shape s);

#endif
