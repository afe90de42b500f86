/** @file
 * reach — structure-of-arrays vectors for the batch solvers (two_bone_batch.h, fabrik_batch.h),
 * and which SIMD kernel they run on this machine. */
#ifndef REACH_SOA_H
#define REACH_SOA_H

#include "vecmath.h"

REACH_EXTERN_C_BEGIN

typedef struct reach_vec3_soa {
    reach_real *x, *y, *z;
} reach_vec3_soa;

typedef struct reach_const_vec3_soa {
    const reach_real *x, *y, *z;
} reach_const_vec3_soa;

/** The instruction set the batch path uses on this machine: "avx512", "avx2", "sse2", "neon",
 * "wasm-simd" or "scalar". */
REACH_API const char *reach_batch_isa(void);

REACH_EXTERN_C_END

#endif
