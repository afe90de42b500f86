/* Robust lengths, unit vectors and unit quaternions: the plain arithmetic where the squares are
 * in range (the common case), the scaled routines elsewhere. Private; never installed. */
#ifndef REACH_ROBUST_H
#define REACH_ROBUST_H

#include "packed_vec3.h"
#include "reach/vecmath.h"

/* Coordinates beyond this would overflow reach_real when squared and summed. */
#ifdef REACH_DOUBLE
#define REACH__COORDINATE_LIMIT 1e150
#else
#define REACH__COORDINATE_LIMIT 1e18f
#endif

/* Squared lengths strictly between these take a plain square root and division; outside, the
 * scaled routines (reach_vec3_normalize_safe), which neither underflow nor overflow. */
#ifdef REACH_DOUBLE
#define REACH__SQUARE_FLOOR   1e-290
#define REACH__SQUARE_CEILING 1e300
#else
#define REACH__SQUARE_FLOOR   1e-30f
#define REACH__SQUARE_CEILING 1e37f
#endif

/* Length and unit vectors the plain way where the squares are in range (the common case),
 * else by the scaled routines. */
static inline reach_real reach__length(reach_vec3 v) {
    reach_real s = reach_vec3_dot(v, v);
    return s > REACH__SQUARE_FLOOR && s < REACH__SQUARE_CEILING ? reach_sqrt(s) : reach_vec3_length_robust(v);
}

static inline reach_vec3 reach__unit(reach_vec3 v, reach_vec3 fallback) {
    reach_real s = reach_vec3_dot(v, v);
    return s > REACH__SQUARE_FLOOR && s < REACH__SQUARE_CEILING ? reach_vec3_scale(v, 1 / reach_sqrt(s))
                                                                : reach_vec3_normalize_safe(v, fallback);
}

/* reach__unit on packed vectors (packed_vec3.h), the same bits. */
static inline packed_vec3 reach__packed_unit(packed_vec3 v, packed_vec3 fallback) {
    reach_real s = packed_length_sq(v);
    if (s > REACH__SQUARE_FLOOR && s < REACH__SQUARE_CEILING) return packed_scale(v, 1 / reach_sqrt(s));
    reach_vec3 unit, other;
    packed_store(&unit, v);
    packed_store(&other, fallback);
    unit = reach_vec3_normalize_safe(unit, other);
    return packed_load(&unit);
}

/* Squared norms within this of 1 (a product of unit quaternions, a few roundings off) take one
 * Newton step from 1 for 1/√s, (3 − s) / 2: its error, 3/8 (s − 1)², is below a fifth of a unit
 * in the last place there, and it spares the square root and the division on the dependent
 * chains of forward kinematics and rotation recovery. */
#ifdef REACH_DOUBLE
#define REACH__NEAR_UNIT 0x1p-27
#else
#define REACH__NEAR_UNIT 0x1p-12f
#endif

/* 1/√s for a quaternion's squared norm s into *inv; 0 when s is beyond the plain range (then
 * the scaled normalisation takes over). */
static inline int reach__quat_inverse_norm(reach_real s, reach_real *inv) {
    if (reach_fabs(s - 1) < REACH__NEAR_UNIT)
        *inv = (3 - s) / 2;
    else if (s > REACH__SQUARE_FLOOR && s < REACH__SQUARE_CEILING)
        *inv = 1 / reach_sqrt(s);
    else
        return 0;
    return 1;
}

static inline reach_quat reach__quat_unit(reach_quat q) {
    reach_real inv;
    if (!reach__quat_inverse_norm(reach_quat_dot(q, q), &inv)) return reach_quat_normalize_safe(q);
    return reach_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

/* reach__quat_unit on a packed quaternion, the same bits. */
static inline packed_quat reach__packed_quat_unit(packed_quat q) {
    reach_real inv;
    if (reach__quat_inverse_norm(packed_quat_dot(q, q), &inv)) return packed_quat_scale(q, inv);
    reach_quat unit;
    packed_quat_store(&unit, q);
    unit = reach_quat_normalize_safe(unit);
    return packed_quat_load(&unit);
}

#endif
