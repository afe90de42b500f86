/* A chain of hinge bones turning about z in the plane z = 0, as a reach skeleton: what the
 * 2-D scenes hand to the 3-D solvers (FABRIK, CCD, the Jacobian family), which then move it
 * in the plane. Bone i < count turns at its joint; bone `count` is the fixed tip, whose joint
 * is the end of the chain and the bone targets pull on. At rest the chain points along
 * base_angle. */
#ifndef DEMO_PLANAR_CHAIN_H
#define DEMO_PLANAR_CHAIN_H

#include <reach/reach.h>

#define DEMO_PLANAR_MAX_BONES 16

typedef struct demo_planar_chain {
    int count; /* bones that turn */
    int parents[DEMO_PLANAR_MAX_BONES + 1];
    reach_transform rest[DEMO_PLANAR_MAX_BONES + 1];
    reach_joint joints[DEMO_PLANAR_MAX_BONES + 1];
    reach_skeleton skeleton;
    reach_transform pose[DEMO_PLANAR_MAX_BONES + 1];
} demo_planar_chain;

/* Builds the chain from root position, rest direction (radians from +x), bone lengths and
 * each hinge's range (radians, relative to the rest pose), and puts it at rest. The skeleton
 * points into the struct: do not copy a built chain. */
void demo_planar_chain_init(demo_planar_chain *chain, reach_vec2 root, double base_angle, const double *lengths,
                            int count, double min_angle, double max_angle);

/* The tip bone: the effector. */
int demo_planar_chain_tip(const demo_planar_chain *chain);

/* World joint positions of the pose, root first: count + 1 points. */
void demo_planar_chain_points(const demo_planar_chain *chain, reach_vec2 *points);

/* A position target for the tip. */
reach_target demo_planar_chain_target(const demo_planar_chain *chain, reach_vec2 position);

#endif
