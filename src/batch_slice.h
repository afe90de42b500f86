/* Moving structure-of-arrays views forward by a number of entries, for the batches' slice
 * functions (a NULL array, an output the caller did not ask for, stays NULL). Never installed. */
#ifndef REACH_BATCH_SLICE_H
#define REACH_BATCH_SLICE_H

#include "reach/two_bone_batch.h"

static inline const reach_real *reach__advance_const(const reach_real *p, int first) { return p ? p + first : NULL; }
static inline reach_real *reach__advance(reach_real *p, int first) { return p ? p + first : NULL; }

static inline reach_const_vec3_soa reach__slice_const(reach_const_vec3_soa v, int first) {
    reach_const_vec3_soa s = {reach__advance_const(v.x, first), reach__advance_const(v.y, first),
                              reach__advance_const(v.z, first)};
    return s;
}

static inline reach_vec3_soa reach__slice(reach_vec3_soa v, int first) {
    reach_vec3_soa s = {reach__advance(v.x, first), reach__advance(v.y, first), reach__advance(v.z, first)};
    return s;
}

#endif
