/* A textbook FABRIK (Aristidou and Lasenby, 2011) behind reach_fabrik_solve's contract: local
 * transforms of a serial chain in, new local rotations out. What a programmer writes from the
 * paper: forward kinematics to joint positions, the backward and forward passes on positions
 * alone until the end is within the tolerance (1e-4 of the chain's length, reach's default) or
 * 64 iterations have run, a target beyond reach answered by the straight chain, then each
 * bone's rotation turned by the shortest arc from its old direction to its new one.
 *
 * It assumes what the bench's chains guarantee (chain.h): bone i's parent is bone i − 1, every
 * joint is a ball joint, bones have nonzero length, one position target on the last bone. */
#ifndef REACH_BENCH_REFERENCE_FABRIK_H
#define REACH_BENCH_REFERENCE_FABRIK_H

#include <stddef.h>

#include "reach/reach.h"

/* reach_fabrik_solve's signature; settings is ignored (the defaults are what it does). */
reach_status reference_fabrik_solve(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                    const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                                    size_t scratch_size, reach_solve_result *result);
size_t reference_fabrik_scratch_size(const reach_skeleton *skeleton, int target_count);

#endif
