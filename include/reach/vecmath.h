/** @file
 * reach — small vector, quaternion and transform math.
 *
 * Conventions: right-handed coordinates; angles in radians; quaternions stored x, y, z, w with
 * the Hamilton product, rotating a vector as q v q*. reach_quat_mul(a, b) applies b first,
 * then a. A reach_transform is a rotation followed by a translation (no scale); a reach_affine
 * is a general 3x4 matrix for parents that carry scale or mirroring.
 *
 * Everything here is static inline and allocation-free. The *_safe functions never divide by
 * zero: where a direction is undefined they return the caller's fallback. */
#ifndef REACH_VECMATH_H
#define REACH_VECMATH_H

#include <math.h>

#include "config.h"

REACH_EXTERN_C_BEGIN

typedef struct reach_vec2 {
    reach_real x, y;
} reach_vec2;

typedef struct reach_vec3 {
    reach_real x, y, z;
} reach_vec3;

typedef struct reach_quat {
    reach_real x, y, z, w;
} reach_quat;

/** Rotation then translation: p' = rotation * p + translation. */
typedef struct reach_transform {
    reach_quat rotation;
    reach_vec3 translation;
} reach_transform;

/** A 3x3 matrix stored as three columns. */
typedef struct reach_mat3 {
    reach_vec3 col[3];
} reach_mat3;

/** A general affine map: p' = linear * p + translation. It may scale non-uniformly and mirror. */
typedef struct reach_affine {
    reach_mat3 linear;
    reach_vec3 translation;
} reach_affine;

/** REACH_R(x): a literal in reach_real's precision, x as written for double and x with an f pasted
 * on for float. The pasting means x must be a floating literal: REACH_R(2.0) and REACH_R(1e-4)
 * work in both precisions, REACH_R(2) only in double (2f is no literal). */
#ifdef REACH_DOUBLE
#define REACH_R(x)  (x)
#define reach_sqrt  sqrt
#define reach_fabs  fabs
#define reach_sin   sin
#define reach_cos   cos
#define reach_atan2 atan2
#define reach_acos  acos
#define reach_exp   exp
#define reach_floor floor
#define reach_fmod  fmod
#define reach_frexp frexp
#define reach_ldexp ldexp
#else
#define REACH_R(x)  (x##f)
#define reach_sqrt  sqrtf
#define reach_fabs  fabsf
#define reach_sin   sinf
#define reach_cos   cosf
#define reach_atan2 atan2f
#define reach_acos  acosf
#define reach_exp   expf
#define reach_floor floorf
#define reach_fmod  fmodf
#define reach_frexp frexpf
#define reach_ldexp ldexpf
#endif

#define REACH_PI REACH_R(3.14159265358979323846)

/* ---- scalars ---------------------------------------------------------------------------- */

static inline int reach_is_finite(reach_real x) { return isfinite(x) != 0; }
static inline reach_real reach_min(reach_real a, reach_real b) { return a < b ? a : b; }
static inline reach_real reach_max(reach_real a, reach_real b) { return a > b ? a : b; }
static inline reach_real reach_clamp(reach_real x, reach_real lo, reach_real hi) {
    return x < lo ? lo : (x > hi ? hi : x);
}

/* ---- vec2 ------------------------------------------------------------------------------- */

static inline reach_vec2 reach_vec2_make(reach_real x, reach_real y) {
    reach_vec2 v = {x, y};
    return v;
}
static inline reach_vec2 reach_vec2_add(reach_vec2 a, reach_vec2 b) { return reach_vec2_make(a.x + b.x, a.y + b.y); }
static inline reach_vec2 reach_vec2_sub(reach_vec2 a, reach_vec2 b) { return reach_vec2_make(a.x - b.x, a.y - b.y); }
static inline reach_vec2 reach_vec2_scale(reach_vec2 a, reach_real s) { return reach_vec2_make(a.x * s, a.y * s); }
static inline reach_real reach_vec2_dot(reach_vec2 a, reach_vec2 b) { return a.x * b.x + a.y * b.y; }
/** The z component of the 3-D cross product: positive when b is counter-clockwise of a. */
static inline reach_real reach_vec2_cross(reach_vec2 a, reach_vec2 b) { return a.x * b.y - a.y * b.x; }
/** a rotated a quarter turn counter-clockwise. */
static inline reach_vec2 reach_vec2_perp(reach_vec2 a) { return reach_vec2_make(-a.y, a.x); }
static inline reach_real reach_vec2_length(reach_vec2 a) { return reach_sqrt(reach_vec2_dot(a, a)); }
static inline reach_real reach_vec2_distance(reach_vec2 a, reach_vec2 b) {
    return reach_vec2_length(reach_vec2_sub(a, b));
}
static inline reach_vec2 reach_vec2_lerp(reach_vec2 a, reach_vec2 b, reach_real t) {
    return reach_vec2_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
}
static inline int reach_vec2_is_finite(reach_vec2 a) { return reach_is_finite(a.x) && reach_is_finite(a.y); }

/** Length without overflow or underflow for any finite vector: scale by the largest component
 * first, so that squaring cannot leave the range of reach_real. */
static inline reach_real reach_vec2_length_robust(reach_vec2 a) {
    reach_real m = reach_max(reach_fabs(a.x), reach_fabs(a.y));
    if (!(m > 0)) return 0;
    return m * reach_vec2_length(reach_vec2_make(a.x / m, a.y / m));
}

/** Unit vector along a; the fallback where a has no direction (zero, or not finite). */
static inline reach_vec2 reach_vec2_normalize_safe(reach_vec2 a, reach_vec2 fallback) {
    reach_real m = reach_max(reach_fabs(a.x), reach_fabs(a.y));
    if (!(m > 0) || !reach_is_finite(m)) return fallback;
    a = reach_vec2_make(a.x / m, a.y / m); /* divide: 1/m overflows for subnormal m */
    return reach_vec2_scale(a, 1 / reach_vec2_length(a));
}

/* ---- vec3 ------------------------------------------------------------------------------- */

static inline reach_vec3 reach_vec3_make(reach_real x, reach_real y, reach_real z) {
    reach_vec3 v = {x, y, z};
    return v;
}
static inline reach_vec3 reach_vec3_zero(void) { return reach_vec3_make(0, 0, 0); }
static inline reach_vec3 reach_vec3_add(reach_vec3 a, reach_vec3 b) {
    return reach_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline reach_vec3 reach_vec3_sub(reach_vec3 a, reach_vec3 b) {
    return reach_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline reach_vec3 reach_vec3_scale(reach_vec3 a, reach_real s) {
    return reach_vec3_make(a.x * s, a.y * s, a.z * s);
}
static inline reach_vec3 reach_vec3_neg(reach_vec3 a) { return reach_vec3_make(-a.x, -a.y, -a.z); }
/** a + b * s */
static inline reach_vec3 reach_vec3_mad(reach_vec3 a, reach_vec3 b, reach_real s) {
    return reach_vec3_make(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}
static inline reach_real reach_vec3_dot(reach_vec3 a, reach_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline reach_vec3 reach_vec3_cross(reach_vec3 a, reach_vec3 b) {
    return reach_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline reach_real reach_vec3_length_sq(reach_vec3 a) { return reach_vec3_dot(a, a); }
static inline reach_real reach_vec3_length(reach_vec3 a) { return reach_sqrt(reach_vec3_dot(a, a)); }
static inline reach_real reach_vec3_distance(reach_vec3 a, reach_vec3 b) {
    return reach_vec3_length(reach_vec3_sub(a, b));
}
static inline reach_vec3 reach_vec3_lerp(reach_vec3 a, reach_vec3 b, reach_real t) {
    return reach_vec3_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}
static inline int reach_vec3_is_finite(reach_vec3 a) {
    return reach_is_finite(a.x) && reach_is_finite(a.y) && reach_is_finite(a.z);
}
static inline reach_real reach_vec3_max_abs(reach_vec3 a) {
    return reach_max(reach_fabs(a.x), reach_max(reach_fabs(a.y), reach_fabs(a.z)));
}

/** Length without overflow or underflow for any finite vector (see reach_vec2_length_robust). */
static inline reach_real reach_vec3_length_robust(reach_vec3 a) {
    reach_real m = reach_vec3_max_abs(a);
    if (!(m > 0)) return 0;
    return m * reach_vec3_length(reach_vec3_make(a.x / m, a.y / m, a.z / m));
}

/** Unit vector along a; the fallback where a has no direction (zero, or not finite). */
static inline reach_vec3 reach_vec3_normalize_safe(reach_vec3 a, reach_vec3 fallback) {
    reach_real m = reach_vec3_max_abs(a);
    if (!(m > 0) || !reach_is_finite(m)) return fallback;
    a = reach_vec3_make(a.x / m, a.y / m, a.z / m); /* divide: 1/m overflows for subnormal m */
    return reach_vec3_scale(a, 1 / reach_vec3_length(a));
}

/** The part of v perpendicular to the unit vector n. */
static inline reach_vec3 reach_vec3_reject(reach_vec3 v, reach_vec3 n) {
    return reach_vec3_mad(v, n, -reach_vec3_dot(v, n));
}

/** A unit vector perpendicular to the unit vector n: the coordinate axis along which n is
 * smallest, with its n part removed. Never short, continuous in n away from the seams where
 * that axis changes, and for n in the xy-plane it is +z, so half-turns of planar vectors
 * stay in the plane. */
static inline reach_vec3 reach_vec3_any_perpendicular(reach_vec3 n) {
    reach_real ax = reach_fabs(n.x), ay = reach_fabs(n.y), az = reach_fabs(n.z);
    reach_vec3 other = (ax < ay && ax < az) ? reach_vec3_make(1, 0, 0)
                       : (ay < az)          ? reach_vec3_make(0, 1, 0)
                                            : reach_vec3_make(0, 0, 1);
    reach_vec3 p = reach_vec3_reject(other, n);
    return reach_vec3_scale(p, 1 / reach_vec3_length(p));
}

/* ---- quaternions ------------------------------------------------------------------------ */

static inline reach_quat reach_quat_make(reach_real x, reach_real y, reach_real z, reach_real w) {
    reach_quat q = {x, y, z, w};
    return q;
}
static inline reach_quat reach_quat_identity(void) { return reach_quat_make(0, 0, 0, 1); }
static inline int reach_quat_is_finite(reach_quat q) {
    return reach_is_finite(q.x) && reach_is_finite(q.y) && reach_is_finite(q.z) && reach_is_finite(q.w);
}
static inline reach_real reach_quat_dot(reach_quat a, reach_quat b) {
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
static inline reach_quat reach_quat_conjugate(reach_quat q) { return reach_quat_make(-q.x, -q.y, -q.z, q.w); }
static inline reach_quat reach_quat_neg(reach_quat q) { return reach_quat_make(-q.x, -q.y, -q.z, -q.w); }

/** Hamilton product: the rotation b followed by the rotation a. */
static inline reach_quat reach_quat_mul(reach_quat a, reach_quat b) {
    return reach_quat_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                           a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                           a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

/** Unit quaternion along q; identity where q has zero length or is not finite. */
static inline reach_quat reach_quat_normalize_safe(reach_quat q) {
    reach_real m = reach_max(reach_max(reach_fabs(q.x), reach_fabs(q.y)), reach_max(reach_fabs(q.z), reach_fabs(q.w)));
    if (!(m > 0) || !reach_is_finite(m)) return reach_quat_identity();
    q = reach_quat_make(q.x / m, q.y / m, q.z / m, q.w / m);
    reach_real inv = 1 / reach_sqrt(reach_quat_dot(q, q));
    return reach_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

/** Rotate v by the unit quaternion q: v + 2w (u x v) + 2 u x (u x v), with u = q.xyz. */
static inline reach_vec3 reach_quat_rotate(reach_quat q, reach_vec3 v) {
    reach_vec3 u = reach_vec3_make(q.x, q.y, q.z);
    reach_vec3 t = reach_vec3_scale(reach_vec3_cross(u, v), 2);
    return reach_vec3_add(reach_vec3_mad(v, t, q.w), reach_vec3_cross(u, t));
}

/** Rotation by angle (radians, right-handed) about a unit axis. */
static inline reach_quat reach_quat_from_axis_angle(reach_vec3 axis, reach_real angle) {
    reach_real s = reach_sin(angle * REACH_R(0.5));
    return reach_quat_make(axis.x * s, axis.y * s, axis.z * s, reach_cos(angle * REACH_R(0.5)));
}

/** The smallest rotation taking the unit vector from to the unit vector to: the quaternion
 * (from x to, 1 + from.to), normalised. No acos, so it is exact near 0 degrees; and 1 + from.to
 * is taken as |from + to|^2 / 2, which does not cancel near 180 degrees. At exactly 180 degrees
 * the axis is undefined: we turn half a turn about reach_vec3_any_perpendicular(from), which is
 * well-defined and keeps planar vectors in their plane. */
static inline reach_quat reach_quat_shortest_arc(reach_vec3 from, reach_vec3 to) {
    reach_vec3 sum = reach_vec3_add(from, to);
    reach_real w = reach_vec3_dot(sum, sum) * REACH_R(0.5);
    if (w <= REACH_REAL_EPSILON * REACH_REAL_EPSILON) {
        reach_vec3 axis = reach_vec3_any_perpendicular(from);
        return reach_quat_make(axis.x, axis.y, axis.z, 0);
    }
    /* from × to equals from × (from + to); the latter does not cancel when the two are nearly
     * opposite, where sum is short but exact. */
    reach_vec3 c = reach_vec3_cross(from, sum);
    /* w > eps^2 keeps |q|^2 > eps^4, far above the smallest normal number: plain 1/sqrt. */
    reach_real inv = 1 / reach_sqrt(reach_vec3_dot(c, c) + w * w);
    return reach_quat_make(c.x * inv, c.y * inv, c.z * inv, w * inv);
}

/** Rotation angle of a unit quaternion, in [0, pi]. atan2 keeps it accurate near 0 and pi. */
static inline reach_real reach_quat_angle(reach_quat q) {
    reach_real s = reach_sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    return 2 * reach_atan2(s, reach_fabs(q.w));
}

/** Angle between two unit quaternions' rotations, in [0, pi]. */
static inline reach_real reach_quat_angle_between(reach_quat a, reach_quat b) {
    return reach_quat_angle(reach_quat_mul(reach_quat_conjugate(a), b));
}

/** Normalised linear interpolation along the shorter path. */
static inline reach_quat reach_quat_nlerp(reach_quat a, reach_quat b, reach_real t) {
    if (reach_quat_dot(a, b) < 0) b = reach_quat_neg(b);
    return reach_quat_normalize_safe(
        reach_quat_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t));
}

/** Spherical interpolation along the shorter path; falls back to nlerp where the two are close. */
static inline reach_quat reach_quat_slerp(reach_quat a, reach_quat b, reach_real t) {
    reach_real d = reach_quat_dot(a, b);
    if (d < 0) {
        b = reach_quat_neg(b);
        d = -d;
    }
    if (d > REACH_R(0.9995)) return reach_quat_nlerp(a, b, t);
    reach_real theta = reach_acos(d);
    reach_real s = reach_sin(theta);
    reach_real wa = reach_sin((1 - t) * theta) / s, wb = reach_sin(t * theta) / s;
    return reach_quat_make(a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb);
}

/** Swing-twist decomposition about the unit axis: q = swing * twist, where twist rotates about
 * the axis and swing about an axis perpendicular to it. Returns the twist angle in (-pi, pi]. */
static inline reach_real reach_quat_twist_angle(reach_quat q, reach_vec3 axis) {
    reach_real p = q.x * axis.x + q.y * axis.y + q.z * axis.z;
    reach_real a = 2 * reach_atan2(p, q.w);
    if (a > REACH_PI) a -= 2 * REACH_PI;
    if (a <= -REACH_PI) a += 2 * REACH_PI;
    return a;
}

/* ---- matrices --------------------------------------------------------------------------- */

static inline reach_mat3 reach_mat3_from_quat(reach_quat q) {
    reach_mat3 m;
    m.col[0] = reach_quat_rotate(q, reach_vec3_make(1, 0, 0));
    m.col[1] = reach_quat_rotate(q, reach_vec3_make(0, 1, 0));
    m.col[2] = reach_quat_rotate(q, reach_vec3_make(0, 0, 1));
    return m;
}
static inline reach_vec3 reach_mat3_mul_vec3(reach_mat3 m, reach_vec3 v) {
    return reach_vec3_add(reach_vec3_add(reach_vec3_scale(m.col[0], v.x), reach_vec3_scale(m.col[1], v.y)),
                          reach_vec3_scale(m.col[2], v.z));
}
static inline reach_mat3 reach_mat3_mul(reach_mat3 a, reach_mat3 b) {
    reach_mat3 m;
    m.col[0] = reach_mat3_mul_vec3(a, b.col[0]);
    m.col[1] = reach_mat3_mul_vec3(a, b.col[1]);
    m.col[2] = reach_mat3_mul_vec3(a, b.col[2]);
    return m;
}
static inline reach_real reach_mat3_determinant(reach_mat3 m) {
    return reach_vec3_dot(m.col[0], reach_vec3_cross(m.col[1], m.col[2]));
}
/** Inverse by the adjugate; returns 0 (and leaves *out alone) when m is singular or its inverse
 * lies beyond the range of reach_real. */
static inline int reach_mat3_inverse(reach_mat3 m, reach_mat3 *out) {
    /* Scaled by a power of two (exact) so its largest entry is about 1: the determinant of a map
     * scaled by 1e13 or 1e-13 would leave float's range, though the map is far from singular.
     * inverse(M) = s · inverse(s · M). */
    reach_real largest = 0;
    for (int c = 0; c < 3; ++c)
        largest = reach_max(
            largest, reach_max(reach_fabs(m.col[c].x), reach_max(reach_fabs(m.col[c].y), reach_fabs(m.col[c].z))));
    if (!(largest > 0) || !reach_is_finite(largest)) return 0;
    int exponent;
    (void)reach_frexp(largest, &exponent);
    for (int c = 0; c < 3; ++c)
        m.col[c] = reach_vec3_make(reach_ldexp(m.col[c].x, -exponent), reach_ldexp(m.col[c].y, -exponent),
                                   reach_ldexp(m.col[c].z, -exponent));
    reach_vec3 r0 = reach_vec3_cross(m.col[1], m.col[2]);
    reach_vec3 r1 = reach_vec3_cross(m.col[2], m.col[0]);
    reach_vec3 r2 = reach_vec3_cross(m.col[0], m.col[1]);
    reach_real det = reach_vec3_dot(m.col[0], r0);
    if (!(reach_fabs(det) > 0) || !reach_is_finite(det)) return 0;
    reach_real inv = 1 / det;
    if (!reach_is_finite(inv)) return 0; /* a determinant below the range's floor */
    /* rows of the inverse are r0, r1, r2 scaled; store as columns of the transpose */
    reach_mat3 scaled;
    scaled.col[0] = reach_vec3_make(r0.x * inv, r1.x * inv, r2.x * inv);
    scaled.col[1] = reach_vec3_make(r0.y * inv, r1.y * inv, r2.y * inv);
    scaled.col[2] = reach_vec3_make(r0.z * inv, r1.z * inv, r2.z * inv);
    for (int c = 0; c < 3; ++c) {
        scaled.col[c] =
            reach_vec3_make(reach_ldexp(scaled.col[c].x, -exponent), reach_ldexp(scaled.col[c].y, -exponent),
                            reach_ldexp(scaled.col[c].z, -exponent));
        if (!reach_vec3_is_finite(scaled.col[c])) return 0; /* the inverse itself out of range */
    }
    *out = scaled;
    return 1;
}

/** The rotation closest to a matrix with orthogonal columns (scaled and possibly mirrored):
 * normalise the columns and, when mirrored, flip one so the result is a proper rotation.
 * Robust for any invertible input: the columns are re-orthogonalised first. */
static inline reach_quat reach_quat_from_mat3(reach_mat3 m) {
    reach_vec3 x = reach_vec3_normalize_safe(m.col[0], reach_vec3_make(1, 0, 0));
    reach_vec3 y = reach_vec3_normalize_safe(reach_vec3_reject(m.col[1], x), reach_vec3_any_perpendicular(x));
    reach_vec3 z = reach_vec3_cross(x, y);
    /* Shepperd's method: pick the largest diagonal term to divide by. */
    reach_real t = x.x + y.y + z.z;
    reach_quat q;
    if (t > 0) {
        reach_real s = reach_sqrt(t + 1) * 2;
        q = reach_quat_make((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, s * REACH_R(0.25));
    } else if (x.x > y.y && x.x > z.z) {
        reach_real s = reach_sqrt(1 + x.x - y.y - z.z) * 2;
        q = reach_quat_make(s * REACH_R(0.25), (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s);
    } else if (y.y > z.z) {
        reach_real s = reach_sqrt(1 + y.y - x.x - z.z) * 2;
        q = reach_quat_make((y.x + x.y) / s, s * REACH_R(0.25), (z.y + y.z) / s, (z.x - x.z) / s);
    } else {
        reach_real s = reach_sqrt(1 + z.z - x.x - y.y) * 2;
        q = reach_quat_make((z.x + x.z) / s, (z.y + y.z) / s, s * REACH_R(0.25), (x.y - y.x) / s);
    }
    return reach_quat_normalize_safe(q);
}

/* ---- transforms ------------------------------------------------------------------------- */

static inline reach_transform reach_transform_identity(void) {
    reach_transform t;
    t.rotation = reach_quat_identity();
    t.translation = reach_vec3_zero();
    return t;
}
static inline reach_transform reach_transform_make(reach_quat rotation, reach_vec3 translation) {
    reach_transform t;
    t.rotation = rotation;
    t.translation = translation;
    return t;
}
static inline reach_vec3 reach_transform_point(reach_transform t, reach_vec3 p) {
    return reach_vec3_add(reach_quat_rotate(t.rotation, p), t.translation);
}
/** parent * child: the child's frame expressed in the parent's parent. */
static inline reach_transform reach_transform_mul(reach_transform parent, reach_transform child) {
    return reach_transform_make(reach_quat_mul(parent.rotation, child.rotation),
                                reach_transform_point(parent, child.translation));
}
static inline reach_transform reach_transform_inverse(reach_transform t) {
    reach_quat inv = reach_quat_conjugate(t.rotation);
    return reach_transform_make(inv, reach_vec3_neg(reach_quat_rotate(inv, t.translation)));
}

static inline reach_affine reach_affine_identity(void) {
    reach_affine a;
    a.linear = reach_mat3_from_quat(reach_quat_identity());
    a.translation = reach_vec3_zero();
    return a;
}
static inline reach_affine reach_affine_from_transform(reach_transform t) {
    reach_affine a;
    a.linear = reach_mat3_from_quat(t.rotation);
    a.translation = t.translation;
    return a;
}
static inline reach_vec3 reach_affine_point(reach_affine a, reach_vec3 p) {
    return reach_vec3_add(reach_mat3_mul_vec3(a.linear, p), a.translation);
}
static inline reach_affine reach_affine_mul(reach_affine parent, reach_affine child) {
    reach_affine a;
    a.linear = reach_mat3_mul(parent.linear, child.linear);
    a.translation = reach_affine_point(parent, child.translation);
    return a;
}
/** Returns 0 (and leaves *out alone) when the linear part is singular. */
static inline int reach_affine_inverse(reach_affine a, reach_affine *out) {
    reach_mat3 inv;
    if (!reach_mat3_inverse(a.linear, &inv)) return 0;
    out->linear = inv;
    out->translation = reach_vec3_neg(reach_mat3_mul_vec3(inv, a.translation));
    return 1;
}
static inline int reach_affine_is_finite(reach_affine a) {
    return reach_vec3_is_finite(a.linear.col[0]) && reach_vec3_is_finite(a.linear.col[1]) &&
           reach_vec3_is_finite(a.linear.col[2]) && reach_vec3_is_finite(a.translation);
}

REACH_EXTERN_C_END

#endif
