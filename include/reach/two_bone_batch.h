/** @file
 * reach — batch two-bone IK: many limbs per call, structure of arrays, SIMD inside.
 *
 * Crowds of characters and fleets of simulated arms solve thousands of limbs per frame. The
 * batch entry points take one array per coordinate (x[], y[], z[]), so the library can solve
 * several limbs per instruction: SSE2, AVX2 or AVX-512 on x86-64, chosen at run time, NEON on
 * 64-bit Arm, wasm SIMD on the web, and a scalar path that is always built.
 *
 * The answer is the scalar solver's (reach_two_bone_solve) to within the test suite's
 * tolerance: the vector path handles ordinary limbs, and any limb that needs care (a target at
 * the root, a pole on the target line, a straight limb with no pole, bones or target and pole
 * distances outside 2^-20 to 2^20 in float or 2^-200 to 2^200 in double, a limb small next to
 * its coordinates, soft IK, stretch or a partial weight) is handed to the scalar solver, so
 * every edge case behaves exactly as documented in two_bone.h.
 *
 * Any alignment of the arrays works. Arrays that start on 64-byte boundaries (aligned_alloc(64,
 * ...)) solve fastest: a wide load then never spans two cache lines (on AVX-512, 1 000 limbs
 * solve 10 to 20 % faster than from 16-byte-aligned arrays). */
#ifndef REACH_TWO_BONE_BATCH_H
#define REACH_TWO_BONE_BATCH_H

#include "soa.h"
#include "two_bone.h"

REACH_EXTERN_C_BEGIN

/** One array per coordinate, `count` entries each. Output arrays may be the input arrays
 * (solve in place: pass mid.x as both mid.x and out_mid.x, and so on). A call's return value is
 * the first error any limb gave (REACH_OK if none), with or without out_status. */

typedef struct reach_two_bone_batch {
    int count;
    reach_const_vec3_soa root, mid, end, target;
    reach_const_vec3_soa pole; /**< NULL arrays: no poles (keep each limb's current bend) */
    reach_vec3_soa out_mid, out_end;
    reach_real *out_residual;   /**< optional */
    unsigned char *out_reached; /**< optional: 1 where the target was reached */
    /** Optional, per limb: REACH_OK, or the error that limb's input gave. A limb with bad
     * input is not solved: its out_mid and out_end repeat its current mid and end, so an
     * in-place batch leaves it untouched, its residual is its end's current distance to the
     * target (the largest finite number where that is not a number), and the call returns the
     * first such error. */
    unsigned char *out_status;
} reach_two_bone_batch;

REACH_API reach_status reach_two_bone_solve_batch(const reach_two_bone_batch *batch,
                                                  const reach_two_bone_settings *options);

/** The limbs [first, first + count) of a batch as a batch of their own: every array advanced by
 * `first` (optional ones stay NULL). For splitting a batch across threads. The range must lie
 * inside the batch. */
REACH_API reach_two_bone_batch reach_two_bone_batch_slice(const reach_two_bone_batch *batch, int first, int count);

/* ---- the rig solve, many limbs per call ---------------------------------------------------- */

/** reach_two_bone_solve_rig on `count` limbs: in[i] solved into out[i], each limb the answer
 * reach_two_bone_solve_rig gives it, to within the test suite's tolerance (positions and the
 * forward kinematics of the returned rotations; a limb the vector path declines gets exactly the
 * per-call answer).
 *
 * The arrays are of the structs a per-call user already fills, not one array per coordinate: an
 * engine gathers each limb's parent matrix and three local transforms from its pose buffers
 * anyway, and writes the rotations back per joint, so it holds limbs as records; the library
 * moves them into SIMD lanes itself (across 4 to 16 limbs at a time in float, 2 to 8 in double,
 * on kernels of its own for the same instruction sets as the batch above, chosen at run time).
 * A batch splits across threads by plain pointer arithmetic (in + first, out + first,
 * out_status + first), with the same bits however it is split. The arrays must not overlap.
 * On 100 000 limbs it runs about 6 times ozz-animation's IKTwoBoneJob on AVX-512 and 4 times
 * the per-call solve (docs/performance.md).
 *
 * The vector path takes the everyday call: the options' defaults but for the tolerance (options
 * may be NULL), no end orientation, a parent whose determinant lies within 2^-40 to 2^40, unit or
 * nearly unit rotations, a limb, target and pole of ordinary size with a side of the target line
 * clear of it. Any other limb (NaN or infinity anywhere it reads, zero or tiny bones, a singular
 * or extreme parent, a target or pole on the root, a pole near the target line, a limb folded
 * or straight with no pole, a bone that must turn nearly half way round, an end orientation,
 * other options) goes to reach_two_bone_solve_rig alone.
 *
 * out_status is optional: per limb REACH_OK or the error reach_two_bone_solve_rig gave it. A
 * limb with an error keeps its pose: its rotations and translations are the input's, mid and end
 * its current world positions, its residual the end's current distance to the target (the
 * largest finite number where that is not a number), reached 0. The call returns the first
 * limb's error (REACH_OK if none). It writes nothing and returns REACH_ERROR_INVALID_ARGUMENT for
 * a negative count or NULL arrays with a positive count, and for options
 * reach_two_bone_solve_rig rejects (a weight outside [0, 1], a negative tolerance, ...) the error
 * it gives every limb for them (REACH_ERROR_NOT_FINITE for NaN or infinity), as
 * reach_two_bone_solve_batch does. */
REACH_API reach_status reach_two_bone_solve_rig_batch(const reach_two_bone_rig_input *in, int count,
                                                      const reach_two_bone_settings *options,
                                                      reach_two_bone_rig_output *out, unsigned char *out_status);

REACH_EXTERN_C_END

#endif
