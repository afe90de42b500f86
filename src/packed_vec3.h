/* 3-vectors and quaternions for short, hot paths (the two-bone solver's ordinary limbs, forward
 * kinematics, FABRIK's rotations from positions). In float on x86-64 a vector is one SSE
 * register (x, y, z, 0) and a quaternion one (x, y, z, w): an add or scale is then one
 * instruction instead of three or four, and the few dozen vectors such a path keeps live fit in
 * the sixteen registers instead of spilling. Everywhere else they are reach_vec3 and reach_quat
 * and these are vecmath.h's operations. Each lane does what the scalar code does, in the same
 * order (a dot product is (x + y) + z; a product's term subtracted there is a negated term added
 * here, which rounds alike), so both give the same bits, signed zeros included;
 * tests/test_packed.c checks each operation and tests/packed/solve_hash.c the solvers built on
 * them. (A build that lets the compiler fuse multiplies and adds, -march=haswell say, fuses the
 * scalar code but not the intrinsics: the two then differ by roundings.) */
#ifndef REACH_PACKED_VEC3_H
#define REACH_PACKED_VEC3_H

#include "reach/vecmath.h"

/* __SSE2_MATH__: scalar float arithmetic is SSE too (not x87, as on 32-bit x86), so the lanes
 * round as the scalar code does. REACH_NO_PACKED takes the scalar operations everywhere: the
 * tests build the library so to check that both give the same bits. */
#if !defined(REACH_DOUBLE) && !defined(REACH_NO_PACKED) && defined(__SSE2__) && defined(__SSE2_MATH__)
#include <emmintrin.h>
#include <string.h>

typedef __m128 packed_vec3;

static inline packed_vec3 packed_load(const reach_vec3 *p) {
    /* x and y as one 8-byte load (memcpy: a reach_vec3 is only float-aligned), z on its own:
     * nothing past the vector is read. */
    double xy;
    memcpy(&xy, p, sizeof xy);
    return _mm_movelh_ps(_mm_castpd_ps(_mm_set_sd(xy)), _mm_load_ss(&p->z));
}
static inline void packed_store(reach_vec3 *p, packed_vec3 v) {
    double xy = _mm_cvtsd_f64(_mm_castps_pd(v));
    memcpy(p, &xy, sizeof xy);
    _mm_store_ss(&p->z, _mm_movehl_ps(v, v));
}
static inline packed_vec3 packed_zero(void) { return _mm_setzero_ps(); }
static inline packed_vec3 packed_add(packed_vec3 a, packed_vec3 b) { return _mm_add_ps(a, b); }
static inline packed_vec3 packed_sub(packed_vec3 a, packed_vec3 b) { return _mm_sub_ps(a, b); }
static inline packed_vec3 packed_scale(packed_vec3 a, float s) { return _mm_mul_ps(a, _mm_set1_ps(s)); }
/* a + b·s */
static inline packed_vec3 packed_mad(packed_vec3 a, packed_vec3 b, float s) {
    return _mm_add_ps(a, _mm_mul_ps(b, _mm_set1_ps(s)));
}
static inline float packed_dot(packed_vec3 a, packed_vec3 b) {
    __m128 p = _mm_mul_ps(a, b);
    __m128 xy = _mm_add_ss(p, _mm_shuffle_ps(p, p, _MM_SHUFFLE(1, 1, 1, 1)));
    return _mm_cvtss_f32(_mm_add_ss(xy, _mm_movehl_ps(p, p)));
}
static inline packed_vec3 packed_cross(packed_vec3 a, packed_vec3 b) {
    /* (a.y b.z − a.z b.y, a.z b.x − a.x b.z, a.x b.y − a.y b.x) as a · b_yzx − a_yzx · b, turned
     * back from yzx order. */
    __m128 a_yzx = _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 0, 2, 1));
    __m128 b_yzx = _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 0, 2, 1));
    __m128 c = _mm_sub_ps(_mm_mul_ps(a, b_yzx), _mm_mul_ps(a_yzx, b));
    return _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 0, 2, 1));
}
/* max(|x|, max(|y|, |z|)) as reach_vec3_max_abs takes it: maxss is the same a > b ? a : b,
 * NaN included. */
static inline float packed_max_abs(packed_vec3 a) {
    __m128 m = _mm_andnot_ps(_mm_set1_ps(-0.0f), a);
    __m128 y_z = _mm_max_ss(_mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 1, 1, 1)), _mm_movehl_ps(m, m));
    return _mm_cvtss_f32(_mm_max_ss(m, y_z));
}
static inline int packed_is_zero(packed_vec3 a) { return _mm_movemask_ps(_mm_cmpeq_ps(a, _mm_setzero_ps())) == 0xf; }

/* Whether a transform's seven numbers are all finite, as one test where seven would branch each:
 * x − x is 0 for a finite x and NaN for an infinite one or NaN. Every solve checks every bone's
 * rest and pose so. */
static inline int packed_transform_is_finite(const reach_transform *t) {
    __m128 q = _mm_loadu_ps(&t->rotation.x), v = packed_load(&t->translation);
    __m128 zero = _mm_add_ps(_mm_sub_ps(q, q), _mm_sub_ps(v, v));
    return _mm_movemask_ps(_mm_cmpeq_ps(zero, _mm_setzero_ps())) == 0xf;
}

/* Whether two transforms' seven numbers are equal, each as == tells it (so a NaN equals nothing
 * and −0 equals +0), as two packed comparisons where seven would branch each: the set-up asks
 * of every moving bone whether the pose is the rest. */
static inline int packed_transform_equal(const reach_transform *a, const reach_transform *b) {
    __m128 q = _mm_cmpeq_ps(_mm_loadu_ps(&a->rotation.x), _mm_loadu_ps(&b->rotation.x));
    __m128 v = _mm_cmpeq_ps(packed_load(&a->translation), packed_load(&b->translation));
    return _mm_movemask_ps(_mm_and_ps(q, v)) == 0xf;
}

typedef __m128 packed_quat;

static inline packed_quat packed_quat_load(const reach_quat *q) { return _mm_loadu_ps(&q->x); }
static inline void packed_quat_store(reach_quat *q, packed_quat v) { _mm_storeu_ps(&q->x, v); }
/* The quaternion (v, w), w moved in by shuffles (an add would turn a −0 of v into +0). */
static inline packed_quat packed_quat_make(packed_vec3 v, float w) {
    return _mm_movelh_ps(v, _mm_unpacklo_ps(_mm_movehl_ps(v, v), _mm_set_ss(w)));
}
static inline packed_quat packed_quat_scale(packed_quat q, float s) { return _mm_mul_ps(q, _mm_set1_ps(s)); }
/* (−x, −y, −z, w): the signs flipped, as negation does. */
static inline packed_quat packed_quat_conjugate(packed_quat q) {
    return _mm_xor_ps(q, _mm_castsi128_ps(_mm_set_epi32(0, (int)0x80000000u, (int)0x80000000u, (int)0x80000000u)));
}

#define PACKED_LANE(v, i) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(i, i, i, i))

/* ((x·x' + y·y') + z·z') + w·w', reach_quat_dot's order. */
static inline float packed_quat_dot(packed_quat a, packed_quat b) {
    __m128 p = _mm_mul_ps(a, b);
    __m128 sum = _mm_add_ss(_mm_add_ss(p, PACKED_LANE(p, 1)), _mm_movehl_ps(p, p));
    return _mm_cvtss_f32(_mm_add_ss(sum, PACKED_LANE(p, 3)));
}

/* reach_quat_mul: a.w·b + a.x·(b.w, −b.z, b.y, −b.x) + a.y·(b.z, b.w, −b.x, −b.y)
 * + a.z·(−b.y, b.x, b.w, −b.z), summed in that order. */
static inline packed_quat packed_quat_mul(packed_quat a, packed_quat b) {
    const __m128 flip_yw = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000u, 0, (int)0x80000000u, 0));
    const __m128 flip_zw = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000u, (int)0x80000000u, 0, 0));
    const __m128 flip_xw = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000u, 0, 0, (int)0x80000000u));
    __m128 b_wzyx = _mm_xor_ps(_mm_shuffle_ps(b, b, _MM_SHUFFLE(0, 1, 2, 3)), flip_yw);
    __m128 b_zwxy = _mm_xor_ps(_mm_shuffle_ps(b, b, _MM_SHUFFLE(1, 0, 3, 2)), flip_zw);
    __m128 b_yxwz = _mm_xor_ps(_mm_shuffle_ps(b, b, _MM_SHUFFLE(2, 3, 0, 1)), flip_xw);
    __m128 sum = _mm_add_ps(_mm_mul_ps(PACKED_LANE(a, 3), b), _mm_mul_ps(PACKED_LANE(a, 0), b_wzyx));
    sum = _mm_add_ps(sum, _mm_mul_ps(PACKED_LANE(a, 1), b_zwxy));
    return _mm_add_ps(sum, _mm_mul_ps(PACKED_LANE(a, 2), b_yxwz));
}

/* reach_quat_rotate: t = 2 (u × v), v + w t + u × t with u = q's vector part. q's fourth lane
 * meets v's 0 in the cross products, so for a finite q the result's fourth lane stays 0. */
static inline packed_vec3 packed_quat_rotate(packed_quat q, packed_vec3 v) {
    packed_vec3 t = packed_cross(q, v);
    t = _mm_add_ps(t, t);
    return _mm_add_ps(_mm_add_ps(v, _mm_mul_ps(t, PACKED_LANE(q, 3))), packed_cross(q, t));
}

/* Three quaternions each scaled by 1/√(its square): the three square roots and divides as one
 * of each on four lanes (each lane rounds as the scalar 1 / sqrt does), for a path that would
 * otherwise wait on three in turn. */
static inline void packed_quat_scale3_inverse_sqrt(packed_quat q[3], float sq0, float sq1, float sq2) {
    __m128 inv = _mm_div_ps(_mm_set1_ps(1), _mm_sqrt_ps(_mm_setr_ps(sq0, sq1, sq2, 1)));
    q[0] = _mm_mul_ps(q[0], PACKED_LANE(inv, 0));
    q[1] = _mm_mul_ps(q[1], PACKED_LANE(inv, 1));
    q[2] = _mm_mul_ps(q[2], PACKED_LANE(inv, 2));
}

#undef PACKED_LANE

#else

typedef reach_vec3 packed_vec3;

static inline packed_vec3 packed_load(const reach_vec3 *p) { return *p; }
static inline void packed_store(reach_vec3 *p, packed_vec3 v) { *p = v; }
static inline packed_vec3 packed_zero(void) { return reach_vec3_zero(); }
static inline packed_vec3 packed_add(packed_vec3 a, packed_vec3 b) { return reach_vec3_add(a, b); }
static inline packed_vec3 packed_sub(packed_vec3 a, packed_vec3 b) { return reach_vec3_sub(a, b); }
static inline packed_vec3 packed_scale(packed_vec3 a, reach_real s) { return reach_vec3_scale(a, s); }
static inline packed_vec3 packed_mad(packed_vec3 a, packed_vec3 b, reach_real s) { return reach_vec3_mad(a, b, s); }
static inline reach_real packed_dot(packed_vec3 a, packed_vec3 b) { return reach_vec3_dot(a, b); }
static inline packed_vec3 packed_cross(packed_vec3 a, packed_vec3 b) { return reach_vec3_cross(a, b); }
static inline reach_real packed_max_abs(packed_vec3 a) { return reach_vec3_max_abs(a); }
static inline int packed_is_zero(packed_vec3 a) { return a.x == 0 && a.y == 0 && a.z == 0; }
static inline int packed_transform_is_finite(const reach_transform *t) {
    reach_quat q = t->rotation;
    reach_vec3 v = t->translation;
    reach_real rotation = ((q.x - q.x) + (q.y - q.y)) + ((q.z - q.z) + (q.w - q.w));
    return rotation + (((v.x - v.x) + (v.y - v.y)) + (v.z - v.z)) == 0;
}

static inline int packed_transform_equal(const reach_transform *a, const reach_transform *b) {
    return a->rotation.x == b->rotation.x && a->rotation.y == b->rotation.y && a->rotation.z == b->rotation.z &&
           a->rotation.w == b->rotation.w && a->translation.x == b->translation.x &&
           a->translation.y == b->translation.y && a->translation.z == b->translation.z;
}

typedef reach_quat packed_quat;

static inline packed_quat packed_quat_load(const reach_quat *q) { return *q; }
static inline void packed_quat_store(reach_quat *q, packed_quat v) { *q = v; }
static inline packed_quat packed_quat_make(packed_vec3 v, reach_real w) { return reach_quat_make(v.x, v.y, v.z, w); }
static inline packed_quat packed_quat_scale(packed_quat q, reach_real s) {
    return reach_quat_make(q.x * s, q.y * s, q.z * s, q.w * s);
}
static inline packed_quat packed_quat_conjugate(packed_quat q) { return reach_quat_conjugate(q); }
static inline reach_real packed_quat_dot(packed_quat a, packed_quat b) { return reach_quat_dot(a, b); }
static inline packed_quat packed_quat_mul(packed_quat a, packed_quat b) { return reach_quat_mul(a, b); }
static inline packed_vec3 packed_quat_rotate(packed_quat q, packed_vec3 v) { return reach_quat_rotate(q, v); }
static inline void packed_quat_scale3_inverse_sqrt(packed_quat q[3], reach_real sq0, reach_real sq1, reach_real sq2) {
    q[0] = packed_quat_scale(q[0], 1 / reach_sqrt(sq0));
    q[1] = packed_quat_scale(q[1], 1 / reach_sqrt(sq1));
    q[2] = packed_quat_scale(q[2], 1 / reach_sqrt(sq2));
}

#endif

static inline reach_real packed_length_sq(packed_vec3 a) { return packed_dot(a, a); }

/* reach_quat_shortest_arc, step for step; the half turn (from and to opposite) goes to it. */
static inline packed_quat packed_quat_shortest_arc(packed_vec3 from, packed_vec3 to) {
    packed_vec3 sum = packed_add(from, to);
    reach_real w = packed_dot(sum, sum) * REACH_R(0.5);
    if (w <= REACH_REAL_EPSILON * REACH_REAL_EPSILON) {
        reach_vec3 f, t;
        packed_store(&f, from);
        packed_store(&t, to);
        reach_quat arc = reach_quat_shortest_arc(f, t);
        return packed_quat_load(&arc);
    }
    packed_vec3 c = packed_cross(from, sum);
    reach_real inv = 1 / reach_sqrt(packed_dot(c, c) + w * w);
    return packed_quat_make(packed_scale(c, inv), w * inv);
}

#endif
