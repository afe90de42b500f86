/* FABRIK's own pieces, shared among its files: the positions-only iteration on a free chain,
 * the arc start and the bridge from the root. Private; never installed. */
#ifndef REACH_FABRIK_INTERNAL_H
#define REACH_FABRIK_INTERNAL_H

#include "geometry.h"
#include "ik_state.h"
#include "rotation_fit.h"

/* Lays a free chain at its rest pose that lies straight (every joint, in the bones' own frames)
 * along the circular arc of its length from the root's joint at `root` to `target`, a chord
 * shorter than the chain: ik->pos only. Returns 0, changing nothing, when the chain is not
 * straight or the arc is undetermined (fabrik_arc.c). */
int reach__ik_lay_on_arc(reach__ik *ik, reach_vec3 root, reach_vec3 target);

/* One FABRIK iteration on such a chain: moves ik->pos only and marks the rotations stale. */
int reach__fabrik_chain_iterate(reach__ik *ik);

/* The bridge from the root (fabrik_bridge.c), on a lone chain (ik->lone_chain) after FABRIK's
 * backward pass. Joint j of the chain is ik->pos[ik->active[j]] (joint 0 the root's, which does
 * not move), and link j the bone between joints j − 1 and j. The bridge finds the first joint
 * k the backward pass left that links 1 … k can reach from `root`, links 1 … k − 1 straight (the
 * run) and link k closing the triangle; it rewrites joints 0 … k − 1 so and returns 1. From k on
 * the chain lies as the backward pass left it, ending on the target, so the forward pass that
 * follows reaches in this iteration. Joints that the links up to them cannot reach, or onto
 * which no triangle closes (the run would have to fold back, or the closing link is longer than
 * the run and the gap together), are passed over. Returns 0, moving nothing, where the first
 * that fits is the second (the passes' own closing step covers k = 2) or none does. */
int reach__ik_root_bridge(reach__ik *ik, reach_vec3 root);

#endif
