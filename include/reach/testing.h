/** @file
 * reach — entry points for tests and benchmarks: a solver forced onto one path or one SIMD
 * kernel, so that the paths can be checked against each other and timed apart. Not part of
 * reach.h and not for programs: every path gives what the ordinary entry point promises (the
 * same bits, or rounding, as each says), and the ordinary entry point picks the fastest. */
#ifndef REACH_TESTING_H
#define REACH_TESTING_H

#include "fabrik_batch.h"
#include "two_bone_batch.h"

REACH_EXTERN_C_BEGIN

/** reach_two_bone_solve always on its general path. reach_two_bone_solve takes a shorter route for ordinary limbs (see
 * docs/performance.md) whose positions are this path's to the bit and whose rotations and residual agree to rounding;
 * this one skips that route. */
REACH_API reach_status reach_two_bone_solve_general(const reach_two_bone_input *in,
                                                    const reach_two_bone_settings *options, reach_two_bone_output *out);

/** reach_two_bone_solve_rig always on its general path. reach_two_bone_solve_rig takes a shorter route for the
 * everyday call (docs/performance.md) that solves in the root joint's frame and agrees with this path to rounding:
 * the same placed joints, end frame and residual within the rounding of a few products. */
REACH_API reach_status reach_two_bone_solve_rig_general(const reach_two_bone_rig_input *in,
                                                        const reach_two_bone_settings *options,
                                                        reach_two_bone_rig_output *out);

/** reach_two_bone_solve_batch forced onto its scalar path. */
REACH_API reach_status reach_two_bone_solve_batch_scalar(const reach_two_bone_batch *batch,
                                                         const reach_two_bone_settings *options);

/** reach_two_bone_solve_batch on the kernel of the named instruction set (a name
 * reach_batch_isa can return), so that each kernel this machine runs can be checked, not only
 * the widest. Returns REACH_ERROR_INVALID_ARGUMENT, writing nothing, for a name this build has
 * no kernel for or whose instructions this machine lacks. Settings that need the scalar solver
 * (two_bone_batch.h) still take it. */
REACH_API reach_status reach_two_bone_solve_batch_isa(const reach_two_bone_batch *batch,
                                                      const reach_two_bone_settings *options, const char *isa);

/** reach_two_bone_solve_rig_batch on the kernel of the named instruction set (as
 * reach_two_bone_solve_batch_isa). Every kernel gives each limb reach_two_bone_solve_rig's answer within the test
 * suite's tolerance, the limbs sent to the scalar solve exactly its answer. */
REACH_API reach_status reach_two_bone_solve_rig_batch_isa(const reach_two_bone_rig_input *in, int count,
                                                          const reach_two_bone_settings *options,
                                                          reach_two_bone_rig_output *out, unsigned char *out_status,
                                                          const char *isa);

/** reach_two_bone_solve_rig_batch_isa, telling which limbs the kernel's vector path solved: out_vector (optional,
 * count entries) gets 1 for each limb the vector lanes solved and 0 for each sent to reach_two_bone_solve_rig alone
 * (every limb on the scalar kernel, or with options the vector path does not take). Written only where the call
 * solves the batch, as out_status. So that tests can check that the vector path takes every ordinary limb and
 * declines every limb that needs care. */
REACH_API reach_status reach_two_bone_solve_rig_batch_lanes(const reach_two_bone_rig_input *in, int count,
                                                            const reach_two_bone_settings *options,
                                                            reach_two_bone_rig_output *out, unsigned char *out_status,
                                                            const char *isa, unsigned char *out_vector);

/** reach_fabrik_solve_batch on a named kernel: "avx512", "avx2", "sse2", "neon", "wasm-simd" or "scalar" (always
 * there). REACH_ERROR_INVALID_ARGUMENT, with nothing written, when this build or machine has not
 * that kernel. Every kernel gives the same bits. */
REACH_API reach_status reach_fabrik_solve_batch_isa(const reach_fabrik_batch *batch,
                                                    const reach_fabrik_batch_settings *options, const char *isa);

REACH_EXTERN_C_END

#endif
