/* An example: one two-bone batch split over several threads.
 *
 * reach keeps no global state, and a batch solve writes only its own limbs' outputs, so the
 * contiguous slices of one batch (reach_two_bone_batch_slice) can be solved on different threads
 * at the same time with no locks. The slices start on multiples of 64 limbs, so no two threads
 * write the same cache line of an output array. */
#ifndef REACH_BENCH_BATCH_THREADS_H
#define REACH_BENCH_BATCH_THREADS_H

#include "reach/two_bone_batch.h"

#define BATCH_THREADS_MAX 64

/* Solves the batch on `threads` threads (1 to BATCH_THREADS_MAX): the calling thread takes the
 * first slice and threads − 1 new threads the others; returns when all are done. The status is
 * the first slice's error, if any, as reach_two_bone_solve_batch would return it. */
reach_status batch_solve_threads(const reach_two_bone_batch *batch, const reach_two_bone_settings *options,
                                 int threads);

#endif
