/* Serial chains of ball joints for the FABRIK and CCD suites, and reachable targets for them.
 *
 * A chain of N bones is a skeleton of N + 1 bones: bone 0 is the root at the origin, bone i + 1
 * sits one bone length (0.5 to 1.5, seeded) along bone i's local +y, and bone N marks the end
 * (the effector, whose joint is pulled to the target). The rest pose is straight along +y.
 * Every joint is a ball joint, listed in a joint array as a rig would have it. */
#ifndef REACH_BENCH_CHAIN_H
#define REACH_BENCH_CHAIN_H

#include <stddef.h>

#include "random.h"
#include "reach/reach.h"

typedef struct bench_chain {
    int bones; /* N: the moving bones; the skeleton has N + 1 */
    int *parents;
    reach_transform *rest;
    reach_joint *joints;
    reach_skeleton skeleton;
    double length; /* the sum of the bone lengths */
} bench_chain;

void bench_chain_make(bench_chain *chain, int bones, bench_random *r);
void bench_chain_free(bench_chain *chain);

/* A pose bent at every joint by a random rotation of at most max_degrees about a random axis:
 * its end is a target the chain can reach. */
void bench_chain_random_pose(const bench_chain *chain, bench_random *r, double max_degrees, reach_transform *pose);

/* The same pose with every joint turned further by at most max_degrees: a target that moved a
 * little. */
void bench_chain_nudge_pose(const bench_chain *chain, bench_random *r, double max_degrees, reach_transform *pose);

/* The world position of the end (bone N's joint) for a pose; world holds N + 1 transforms. */
reach_vec3 bench_chain_end(const bench_chain *chain, const reach_transform *pose, reach_transform *world);

/* The largest difference between a bone's length in the posed chain (world positions) and its
 * rest length, in chain lengths; NaN when a position is not finite. */
double bench_chain_length_error(const bench_chain *chain, const reach_transform *pose, reach_transform *world);

/* Bytes of one chain's skeleton arrays (parents, rest transforms, joints) and pose. */
size_t bench_chain_bytes(const bench_chain *chain);

#endif
