/** @file
 * reach — batch FABRIK: many chains of one shape solved together, several per instruction.
 *
 * A crowd's tails, tentacles or spines are chains with the same number of bones and free (ball)
 * joints, one position target at each end. The batch takes them as structure of arrays and
 * solves them in lock-step across SIMD lanes (SSE2, AVX2 or AVX-512 on x86-64, chosen at run
 * time, NEON on 64-bit Arm, wasm SIMD on the web, and a scalar path that is always built). Each
 * lane stops at its own tolerance: a chain that is done is not written again while the others
 * in its group go on. No joint limits, orientation targets or several effectors: those are the
 * single-chain solver's (fabrik.h). The tolerance is as for reach_fabrik_solve.
 *
 * What is promised:
 *   - every chain's answer is the same bits whichever kernel solves it (the scalar path or any
 *     SIMD one this machine runs), wherever it sits in the batch and whatever the other chains
 *     hold: the kernels do the same IEEE operations in the same order (no fused multiply-add)
 *   - every bone keeps its length to rounding (a few ε of the bone relative to the chain); a
 *     warm pose taken as keeping its lengths (to 64 ε of each bone, see `joints`) may keep
 *     that error in the bones whose aim falls on their joint
 *   - `reached` is exactly `residual <= tolerance`, and the residual is the end joint's true
 *     distance to the target as computed from the output joints
 *   - where reach_fabrik_solve reaches on the same chain from a cold start, the batch reaches
 *     or runs to its cap trying, never giving up early (the fuzz target checks this); the
 *     poses are close, not the same bits
 *   - out of reach: the chain lies straight from its root toward the target.
 * The method step by step (backward pass, bridges, forward pass, crawls, stalls) and measured
 * rates: docs/solvers.md.
 *
 * Layout: joint j of chain i is at joints.x[j * stride + i] (likewise .y and .z), bone b's
 * length at lengths[b * stride + i]; roots and targets have one entry per chain. */
#ifndef REACH_FABRIK_BATCH_H
#define REACH_FABRIK_BATCH_H

#include "soa.h"
#include "status.h"

REACH_EXTERN_C_BEGIN

typedef struct reach_fabrik_batch {
    int count;      /**< chains, >= 0 */
    int bone_count; /**< bones per chain, >= 1; every chain has bone_count + 1 joints */
    int stride;     /**< entries from one joint's (bone's) array to the next's, >= count; 0: count */
    /** bone b of chain i joins joints b and b + 1: lengths[b * stride + i], each > 0 */
    const reach_real *lengths;
    reach_const_vec3_soa root;   /**< [count]: where joint 0 of each chain stays */
    reach_const_vec3_soa target; /**< [count]: where the end joint should go */
    /** [(bone_count + 1) * stride]: read as the starting pose (warm start; ignored on a cold
     * start) and written with the solution, joint 0 being the root. A warm pose need not keep
     * the lengths: the joints are first re-spaced along their lines from the root outward. A
     * warm pose that already keeps them (to 64 ε of each bone), starts at the root and reaches
     * is left as it is, bit for bit, with 0 iterations. */
    reach_vec3_soa joints;
    reach_real *out_residual;   /**< optional [count]: the end joint's distance to the target */
    int *out_iterations;        /**< optional [count]: iterations each chain ran */
    unsigned char *out_reached; /**< optional [count]: 1 where residual <= tolerance */
    /** Optional [count]: REACH_OK, or the error that chain's input gave. A chain with bad
     * input is not solved and its joints are not written; its residual is the largest finite
     * number, it is not reached and ran 0 iterations; the call returns the first such error. */
    unsigned char *out_status;
} reach_fabrik_batch;

typedef struct reach_fabrik_batch_settings {
    int max_iterations;   /**< iteration cap per chain, >= 0; default 64 */
    reach_real tolerance; /**< distance that counts as reached; 0: 1e-4 × each chain's length */
    /** Nonzero: every chain starts straight from its root along cold_direction, and the joints'
     * current contents are not read. 0 (the default): start from the joints as they are. */
    int cold_start;
    reach_vec3 cold_direction; /**< non-zero; need not be unit. Default (0, 1, 0) */
} reach_fabrik_batch_settings;

REACH_API reach_fabrik_batch_settings reach_fabrik_batch_default_settings(void);

/** Solves every chain of the batch; options NULL for the defaults. Returns REACH_OK, or the
 * first error a chain's input gave (see out_status). Errors for the whole batch, with nothing
 * written at all: a NULL batch, a negative count, bone_count < 1, a stride below count, a NULL
 * array (out_* may be NULL), max_iterations < 0 or a negative tolerance, a zero cold_direction
 * on a cold start (REACH_ERROR_INVALID_ARGUMENT); NaN or infinity in the options
 * (REACH_ERROR_NOT_FINITE). Errors for one chain, its joints left untouched: NaN or infinity in
 * its lengths, root, target or (warm) joints (REACH_ERROR_NOT_FINITE); a length that is not
 * positive, below 1e-12 (float) or 1e-140 (double), or below REACH_ZERO_LENGTH_RATIO × the
 * chain's length (REACH_ERROR_ZERO_LENGTH); coordinates or a chain length beyond about 1e18
 * (float) or 1e150 (double) (REACH_ERROR_OUT_OF_RANGE). Coincident points (a target on the
 * root, warm joints on top of each other) are not errors: they are solved. */
REACH_API reach_status reach_fabrik_solve_batch(const reach_fabrik_batch *batch,
                                                const reach_fabrik_batch_settings *options);

/** The chains [first, first + count) of a batch as a batch of their own: every array advanced by
 * `first` (optional ones stay NULL), the stride kept. For splitting a batch across threads. The
 * range must lie inside the batch. */
REACH_API reach_fabrik_batch reach_fabrik_batch_slice(const reach_fabrik_batch *batch, int first, int count);

REACH_EXTERN_C_END

#endif
