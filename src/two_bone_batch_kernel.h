/* The vector kernel of the batch two-bone solver, written once with GCC/clang vector
 * extensions and instantiated per instruction set by two_bone_batch.c, which defines before
 * including this file:
 *   KERNEL_NAME    the function's name
 *   KERNEL_TARGET  a function attribute selecting the instruction set (may be empty)
 *   KERNEL_BYTES   the vector width in bytes
 *   KERNEL_SQRT(v) the vector square root for that instruction set
 * and optionally:
 *   KERNEL_RSQRT_ESTIMATE(v)  a reciprocal square root estimate, refined here by
 *   KERNEL_NEWTON_STEPS       Newton steps to full precision (the divider and the square root
 *                             unit are many times slower than the multipliers)
 *   KERNEL_MASK_BITS(m)       the lanes of a comparison mask as the bits of an unsigned int
 *   KERNEL_MIN(a, b), KERNEL_MAX(a, b)  a < b ? a : b and a > b ? a : b, lane by lane, in one
 *                             instruction (the generic select takes three)
 * The kernel solves every whole group of lanes in [0, count) with no branch per lane; a group
 * whose lanes are all ordinary is stored as it is, and in any other the lanes that need care
 * keep their outputs for solve_lane (the scalar solver), called for them alone; see batch.h. */

#define KERNEL_JOIN2(a, b) a##b
#define KERNEL_JOIN(a, b)  KERNEL_JOIN2(a, b)
#define KV                 KERNEL_JOIN(KERNEL_NAME, _vec)
#define KM                 KERNEL_JOIN(KERNEL_NAME, _mask)
#define KB                 KERNEL_JOIN(KERNEL_NAME, _bytes)
#define KWIDTH             ((int)(KERNEL_BYTES / sizeof(reach_real)))

typedef reach_real KV __attribute__((vector_size(KERNEL_BYTES)));
typedef batch_lane_int KM __attribute__((vector_size(KERNEL_BYTES)));
typedef signed char KB __attribute__((vector_size(KERNEL_BYTES / sizeof(reach_real))));

#define K_LOAD       KERNEL_JOIN(KERNEL_NAME, _load)
#define K_STORE      KERNEL_JOIN(KERNEL_NAME, _store)
#define K_STORE_KEEP KERNEL_JOIN(KERNEL_NAME, _store_keep)
#define K_SEL        KERNEL_JOIN(KERNEL_NAME, _select)
#define K_RSQRT      KERNEL_JOIN(KERNEL_NAME, _rsqrt)
#define K_SQRT       KERNEL_JOIN(KERNEL_NAME, _sqrt)
#define K_BITS       KERNEL_JOIN(KERNEL_NAME, _bits)
#ifdef KERNEL_MIN
#define K_MIN(a, b) ((KV)KERNEL_MIN(a, b))
#define K_MAX(a, b) ((KV)KERNEL_MAX(a, b))
#else
#define K_MIN(a, b) K_SEL((a) < (b), a, b)
#define K_MAX(a, b) K_SEL((a) > (b), a, b)
#endif
/* |a|: the sign bit cleared (-zero is a vector of sign bits). */
#define K_ABS(a) ((KV)((KM)(a) & ~(KM)(-zero)))

KERNEL_TARGET static inline KV K_LOAD(const reach_real *p) {
    KV v;
    memcpy(&v, p, sizeof v);
    return v;
}

KERNEL_TARGET static inline void K_STORE(reach_real *p, KV a) { memcpy(p, &a, sizeof a); }

/* Lanes where `keep` is set take `b` (the array's current contents) instead of `a`. */
KERNEL_TARGET static inline void K_STORE_KEEP(reach_real *p, KV a, KM keep) {
    KV b;
    memcpy(&b, p, sizeof b);
    KV r = (KV)((~keep & (KM)a) | (keep & (KM)b));
    memcpy(p, &r, sizeof r);
}

KERNEL_TARGET static inline KV K_SEL(KM m, KV a, KV b) { return (KV)((m & (KM)a) | (~m & (KM)b)); }

/* 1/√x and √x for x a positive normal number, from the estimate y by Newton's step in the
 * form that gives both: with t = x·y and c = 1.5 − t·y/2, 1/√x ≈ y·c and √x ≈ t·c. The
 * estimate's relative error e becomes about 1.5·e² per step: 14 bits (AVX-512) or 12 bits
 * (SSE, AVX) become float's 24 in one step, 14 become double's 53 in two. */
KERNEL_TARGET static inline KV K_RSQRT(KV x) {
#ifdef KERNEL_RSQRT_ESTIMATE
    KV y = KERNEL_RSQRT_ESTIMATE(x);
    for (int step = 0; step < KERNEL_NEWTON_STEPS; ++step)
        y = y * (REACH_R(1.5) - (x * y) * y * REACH_R(0.5));
    return y;
#else
    return 1 / KERNEL_SQRT(x);
#endif
}

KERNEL_TARGET static inline KV K_SQRT(KV x) {
#ifdef KERNEL_RSQRT_ESTIMATE
    KV y = KERNEL_RSQRT_ESTIMATE(x);
    for (int step = 1; step < KERNEL_NEWTON_STEPS; ++step)
        y = y * (REACH_R(1.5) - (x * y) * y * REACH_R(0.5));
    KV t = x * y;
    return t * (REACH_R(1.5) - t * y * REACH_R(0.5));
#else
    return KERNEL_SQRT(x);
#endif
}

KERNEL_TARGET static inline unsigned K_BITS(KM m) {
#ifdef KERNEL_MASK_BITS
    return (unsigned)KERNEL_MASK_BITS(m);
#else
    batch_lane_int lanes[KWIDTH];
    memcpy(lanes, &m, sizeof lanes);
    unsigned bits = 0;
    for (int k = 0; k < KWIDTH; ++k)
        bits |= (unsigned)(lanes[k] != 0) << k;
    return bits;
#endif
}

KERNEL_TARGET static void KERNEL_NAME(const reach_two_bone_batch *b, const reach_two_bone_options *opt,
                                      reach_status *first_error) {
    const KV zero = {0};
    const unsigned all_lanes = (1u << KWIDTH) - 1;
    /* The arrays in locals: the stores below could, for all the compiler knows, change *b. */
    const reach_real *const root_x = b->root.x, *const root_y = b->root.y, *const root_z = b->root.z;
    const reach_real *const mid_in_x = b->mid.x, *const mid_in_y = b->mid.y, *const mid_in_z = b->mid.z;
    const reach_real *const end_in_x = b->end.x, *const end_in_y = b->end.y, *const end_in_z = b->end.z;
    const reach_real *const target_x = b->target.x, *const target_y = b->target.y, *const target_z = b->target.z;
    const reach_real *const pole_x = b->pole.x, *const pole_y = b->pole.y, *const pole_z = b->pole.z;
    reach_real *const mid_out_x = b->out_mid.x, *const mid_out_y = b->out_mid.y, *const mid_out_z = b->out_mid.z;
    reach_real *const end_out_x = b->out_end.x, *const end_out_y = b->out_end.y, *const end_out_z = b->out_end.z;
    reach_real *const residual_out = b->out_residual;
    unsigned char *const reached_out = b->out_reached, *const status_out = b->out_status;
    const int count = b->count;
    const reach_real fixed_tolerance = opt->tolerance;
    /* A group's loads, issued this far ahead: the out-of-order window spans about one group,
     * so without them each group waits for its inputs from L2 before it starts computing. */
#define K_PREFETCH_ALL(j)                                                                                              \
    do {                                                                                                               \
        __builtin_prefetch(root_x + (j)), __builtin_prefetch(root_y + (j)), __builtin_prefetch(root_z + (j));          \
        __builtin_prefetch(mid_in_x + (j)), __builtin_prefetch(mid_in_y + (j)), __builtin_prefetch(mid_in_z + (j));    \
        __builtin_prefetch(end_in_x + (j)), __builtin_prefetch(end_in_y + (j)), __builtin_prefetch(end_in_z + (j));    \
        __builtin_prefetch(target_x + (j)), __builtin_prefetch(target_y + (j)), __builtin_prefetch(target_z + (j));    \
        if (pole_x)                                                                                                    \
            __builtin_prefetch(pole_x + (j)), __builtin_prefetch(pole_y + (j)), __builtin_prefetch(pole_z + (j));      \
    } while (0)
    int i = 0;
    for (; i + KWIDTH <= count; i += KWIDTH) {
        K_PREFETCH_ALL(i + BATCH_PREFETCH_AHEAD < count ? i + BATCH_PREFETCH_AHEAD : i);
        KV rx = K_LOAD(root_x + i), ry = K_LOAD(root_y + i), rz = K_LOAD(root_z + i);
        KV mx = K_LOAD(mid_in_x + i), my = K_LOAD(mid_in_y + i), mz = K_LOAD(mid_in_z + i);
        KV ex = K_LOAD(end_in_x + i), ey = K_LOAD(end_in_y + i), ez = K_LOAD(end_in_z + i);
        KV ux = mx - rx, uy = my - ry, uz = mz - rz; /* upper bone */
        KV wx = ex - mx, wy = ey - my, wz = ez - mz; /* lower bone */
        KV tx = K_LOAD(target_x + i) - rx, ty = K_LOAD(target_y + i) - ry, tz = K_LOAD(target_z + i) - rz;
        KV l1sq = ux * ux + uy * uy + uz * uz, l2sq = wx * wx + wy * wy + wz * wz, dsq = tx * tx + ty * ty + tz * tz;

        /* Ordinary lanes only: squares inside the safe range (NaN and infinity fail these
         * comparisons), bones of length, a limb larger than its coordinates' resolution. Lanes
         * outside may come out NaN below; they are not stored. */
        KM ok = (l1sq >= zero + BATCH_MIN_SQUARE) & (l1sq <= zero + BATCH_MAX_SQUARE) &
                (l2sq >= zero + BATCH_MIN_SQUARE) & (l2sq <= zero + BATCH_MAX_SQUARE) &
                (dsq >= zero + BATCH_MIN_SQUARE) & (dsq <= zero + BATCH_MAX_SQUARE);
        KV l1 = K_SQRT(l1sq), l2 = K_SQRT(l2sq);
        KV inv_d = K_RSQRT(dsq);
        KV d = dsq * inv_d;
        KV chain = l1 + l2;
        ok &= K_MIN(l1, l2) > chain * REACH_ZERO_LENGTH_RATIO;
        /* The scalar solver's resolution test, made stricter so as to need the root alone: no
         * coordinate of mid or end exceeds the root's largest by more than the chain (to a few
         * roundings, which the extra unit in BATCH_RESOLUTION_ULPS + 1 covers). A lane it
         * refuses goes to the scalar solver, which decides exactly. */
        KV coords = K_MAX(K_MAX(K_ABS(rx), K_ABS(ry)), K_ABS(rz)) + chain;
        ok &= chain >= coords * ((BATCH_RESOLUTION_ULPS + 1) * REACH_REAL_EPSILON);

        /* The bend direction: toward the pole, or the knee's current side. */
        KV sx, sy, sz, side_sq_floor;
        if (pole_x) {
            sx = K_LOAD(pole_x + i) - rx;
            sy = K_LOAD(pole_y + i) - ry;
            sz = K_LOAD(pole_z + i) - rz;
            KV psq = sx * sx + sy * sy + sz * sz;
            ok &= (psq >= zero + BATCH_MIN_SQUARE) & (psq <= zero + BATCH_MAX_SQUARE);
            side_sq_floor = psq * (BATCH_SIDE_RATIO * BATCH_SIDE_RATIO);
        } else {
            KV ax = ux + wx, ay = uy + wy, az = uz + wz;
            KV asq = ax * ax + ay * ay + az * az;
            ok &= asq >= chain * chain * (BATCH_SIDE_RATIO * BATCH_SIDE_RATIO);
            KV along = (ux * ax + uy * ay + uz * az) / asq;
            sx = ux - ax * along;
            sy = uy - ay * along;
            sz = uz - az * along;
            side_sq_floor = l1sq * (BATCH_SIDE_RATIO * BATCH_SIDE_RATIO);
        }
        /* Its part perpendicular to the target line, as (t × s) × t = |t|²·s − (t·s)·t made
         * unit: |(t × s) × t| = |t × s|·|t|. Cross products, not a rejection: the result is
         * perpendicular to t to a rounding however close s lies to the line, and it needs
         * neither the target's unit direction nor a second pass. */
        KV cx = ty * sz - tz * sy, cy = tz * sx - tx * sz, cz = tx * sy - ty * sx;
        KV csq = cx * cx + cy * cy + cz * cz;
        ok &= csq > side_sq_floor * dsq;
        KV to_unit = K_RSQRT(csq) * inv_d;
        KV nx = (cy * tz - cz * ty) * to_unit, ny = (cz * tx - cx * tz) * to_unit, nz = (cx * ty - cy * tx) * to_unit;

        /* The triangle: foot a along the target line, height h off it (see two_bone.h), the
         * foot measured from the end of the shorter bone. Which bone is longer, and by how
         * much in squares, comes from the squared lengths, as in the scalar solver: exact to a
         * rounding where the bones are nearly equal, so a folded limb points its longer bone
         * at the target in both. */
        KV square_gap = l1sq - l2sq;
        KM upper_longer = square_gap >= zero;
        square_gap = K_ABS(square_gap);
        KV near = K_SEL(upper_longer, l2, l1), near_sq = K_SEL(upper_longer, l2sq, l1sq);
        KM stretched = d >= chain, folded = d * chain <= square_gap;
        KV fold = K_ABS(l1 - l2);
        KV dc = K_SEL(stretched, chain, K_SEL(folded, K_MAX(d, fold), d));
        /* foot = (d² − gap)/2d and h² = near² − foot² = (4·near²·d² − (d² − gap)²)/4d²: the
         * height from squares alone, so its square root does not wait for the target's
         * distance. Past the shorter bone's end the square is negative and the height 0. */
        KV half_inv_d = inv_d * REACH_R(0.5);
        KV foot_2d = dsq - square_gap;
        KV foot = K_MIN(K_MAX(foot_2d * half_inv_d, -near), near);
        KV height_sq = (near_sq * 4) * dsq - foot_2d * foot_2d;
        /* √ by way of the estimate; a square below the normal range gives a height of at most
         * √BATCH_TINY_SQUARE/2d where it should be 0. */
        KV h = K_SQRT(K_MAX(height_sq, zero + BATCH_TINY_SQUARE)) * half_inv_d;
        KV a = K_SEL(upper_longer, d - foot, foot);
        /* Straight or folded exactly, as the scalar solver is. */
        a = K_SEL(stretched | (folded & upper_longer), l1, K_SEL(folded, -l1, a));
        h = K_SEL(stretched | folded | (height_sq <= zero), zero, h);

        KV dx = tx * inv_d, dy = ty * inv_d, dz = tz * inv_d; /* unit direction to the target */
        KV mid_x = rx + dx * a + nx * h, mid_y = ry + dy * a + ny * h, mid_z = rz + dz * a + nz * h;
        KV end_x = rx + dx * dc, end_y = ry + dy * dc, end_z = rz + dz * dc;
        KV residual = K_ABS(d - dc); /* never -0: the sign bit is cleared */
        unsigned bad = ~K_BITS(ok) & all_lanes;
        if (!bad) {
            K_STORE(mid_out_x + i, mid_x);
            K_STORE(mid_out_y + i, mid_y);
            K_STORE(mid_out_z + i, mid_z);
            K_STORE(end_out_x + i, end_x);
            K_STORE(end_out_y + i, end_y);
            K_STORE(end_out_z + i, end_z);
            if (residual_out) K_STORE(residual_out + i, residual);
        } else {
            /* The lanes the scalar solver will do keep their outputs for now: in place, those
             * are its inputs. */
            KM keep = ~ok;
            K_STORE_KEEP(mid_out_x + i, mid_x, keep);
            K_STORE_KEEP(mid_out_y + i, mid_y, keep);
            K_STORE_KEEP(mid_out_z + i, mid_z, keep);
            K_STORE_KEEP(end_out_x + i, end_x, keep);
            K_STORE_KEEP(end_out_y + i, end_y, keep);
            K_STORE_KEEP(end_out_z + i, end_z, keep);
            if (residual_out) K_STORE_KEEP(residual_out + i, residual, keep);
        }
        if (reached_out) {
            KV tolerance = fixed_tolerance > 0 ? zero + fixed_tolerance : chain * REACH_R(1e-4);
            KB reached = __builtin_convertvector((residual <= tolerance) & 1, KB);
            memcpy(reached_out + i, &reached, sizeof reached);
        }
        /* One status byte per lane: KWIDTH lanes are KWIDTH bytes (KWIDTH is a lane count
         * worked out with sizeof, which is what cppcheck mistakes for a byte count). */
        // cppcheck-suppress sizeofDivisionMemfunc
        if (status_out) memset(status_out + i, REACH_OK, (size_t)KWIDTH * sizeof status_out[0]);
        for (; bad; bad &= bad - 1)
            solve_lane(b, i + __builtin_ctz(bad), opt, first_error);
    }
    for (; i < count; ++i)
        solve_lane(b, i, opt, first_error);
}

#undef K_PREFETCH_ALL
#undef K_LOAD
#undef K_STORE
#undef K_STORE_KEEP
#undef K_SEL
#undef K_RSQRT
#undef K_SQRT
#undef K_BITS
#undef K_MIN
#undef K_MAX
#undef K_ABS
#undef KV
#undef KM
#undef KB
#undef KWIDTH
#undef KERNEL_NAME
#undef KERNEL_TARGET
#undef KERNEL_BYTES
#undef KERNEL_SQRT
#undef KERNEL_RSQRT_ESTIMATE
#undef KERNEL_NEWTON_STEPS
#undef KERNEL_MASK_BITS
#undef KERNEL_MIN
#undef KERNEL_MAX
