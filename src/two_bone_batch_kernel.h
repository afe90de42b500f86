/* The vector kernel of the batch two-bone solver, written once with GCC/clang vector
 * extensions and instantiated per instruction set by two_bone_batch.c, which defines before
 * including this file:
 *   KERNEL_NAME    the function's name
 *   KERNEL_TARGET  a function attribute selecting the instruction set (may be empty)
 *   KERNEL_BYTES   the vector width in bytes
 *   KERNEL_SQRT(v) the vector square root for that instruction set
 * and optionally:
 *   KERNEL_RSQRT_ESTIMATE(v)  a reciprocal square root estimate, refined here by
 *   KERNEL_NEWTON_STEPS       Newton steps to full precision (the divider is many times slower
 *                             than the multipliers, and 1/√x would take it twice)
 *   KERNEL_MASK_BITS(m)       the lanes of a comparison mask as the bits of an unsigned int
 *   KERNEL_MIN(a, b), KERNEL_MAX(a, b)  a < b ? a : b and a > b ? a : b, lane by lane, in one
 *                             instruction (the generic select takes three)
 *   KERNEL_MASK               a mask register type, one bit per lane (AVX-512), with
 *   KERNEL_CMP(a, b, p)       the lanes where a p b holds (p a _CMP_ predicate, false for NaN),
 *   KERNEL_BLEND(m, a, b)     m ? a : b lane by lane,
 *   KERNEL_STORE_WHERE(p, m, a)  a stored to p in the lanes of m alone, and
 *   KERNEL_STORE_FLAGS(p, m)  one byte per lane stored to p, 1 where m is set: comparisons and
 *                             selects then take one instruction each, where vector masks take
 *                             one more to be made and three to select with
 *   KERNEL_STREAM(p, v), KERNEL_STREAM_FENCE()  a store to an aligned p that bypasses the
 *                             caches, and the fence that orders such stores before the call
 *                             returns
 * The kernel solves every group of lanes in [0, count) with no branch per lane, the lanes after
 * the last whole group in a group of their own; a group whose lanes are all ordinary is stored
 * as it is, and in any other the lanes that need care keep their outputs for solve_lane (the
 * scalar solver), called for them alone; see two_bone_batch.h. Every lane goes through the same
 * operations wherever it sits, so a limb's bits do not depend on how a batch is sliced. */

#define KERNEL_JOIN2(a, b) a##b
#define KERNEL_JOIN(a, b)  KERNEL_JOIN2(a, b)
#define KV                 KERNEL_JOIN(KERNEL_NAME, _vec)
#define KI                 KERNEL_JOIN(KERNEL_NAME, _lanes)
#define KM                 KERNEL_JOIN(KERNEL_NAME, _mask)
#define KB                 KERNEL_JOIN(KERNEL_NAME, _bytes)
#define KR                 KERNEL_JOIN(KERNEL_NAME, _result)
#define KWIDTH             ((int)(KERNEL_BYTES / sizeof(reach_real)))

typedef reach_real KV __attribute__((vector_size(KERNEL_BYTES)));
typedef batch_lane_int KI __attribute__((vector_size(KERNEL_BYTES)));
typedef signed char KB __attribute__((vector_size(KERNEL_BYTES / sizeof(reach_real))));
#ifdef KERNEL_MASK
typedef KERNEL_MASK KM;
#else
typedef KI KM;
#endif

#define K_LOAD         KERNEL_JOIN(KERNEL_NAME, _load)
#define K_STORE        KERNEL_JOIN(KERNEL_NAME, _store)
#define K_STORE_WHERE  KERNEL_JOIN(KERNEL_NAME, _store_where)
#define K_STORE_FLAGS  KERNEL_JOIN(KERNEL_NAME, _store_flags)
#define K_STORE_GROUP  KERNEL_JOIN(KERNEL_NAME, _store_group)
#define K_SEL          KERNEL_JOIN(KERNEL_NAME, _select)
#define K_RSQRT        KERNEL_JOIN(KERNEL_NAME, _rsqrt)
#define K_BITS         KERNEL_JOIN(KERNEL_NAME, _bits)
#define K_LANES_FROM   KERNEL_JOIN(KERNEL_NAME, _lanes_from)
#define K_SOLVE        KERNEL_JOIN(KERNEL_NAME, _group)
#define K_FINISH       KERNEL_JOIN(KERNEL_NAME, _finish)
#define K_FINISH_MIXED KERNEL_JOIN(KERNEL_NAME, _finish_mixed)
#define K_STORE_STATUS KERNEL_JOIN(KERNEL_NAME, _store_status)
#define K_SOLVE_SHORT  KERNEL_JOIN(KERNEL_NAME, _short)
#define K_SOLVE_RUN    KERNEL_JOIN(KERNEL_NAME, _run)
#ifdef KERNEL_MASK
#define K_GE(a, b) KERNEL_CMP(a, b, _CMP_GE_OQ)
#define K_GT(a, b) KERNEL_CMP(a, b, _CMP_GT_OQ)
#define K_LE(a, b) KERNEL_CMP(a, b, _CMP_LE_OQ)
#else
#define K_GE(a, b) ((a) >= (b))
#define K_GT(a, b) ((a) > (b))
#define K_LE(a, b) ((a) <= (b))
#endif
#ifdef KERNEL_MIN
#define K_MIN(a, b) ((KV)KERNEL_MIN(a, b))
#define K_MAX(a, b) ((KV)KERNEL_MAX(a, b))
#else
#define K_MIN(a, b) K_SEL(K_GT(b, a), a, b)
#define K_MAX(a, b) K_SEL(K_GT(a, b), a, b)
#endif
#define K_SQRT(v) ((KV)KERNEL_SQRT(v))
/* |a|: the sign bit cleared (-zero is a vector of sign bits). */
#define K_ABS(a) ((KV)((KI)(a) & ~(KI)(-zero)))

KERNEL_TARGET static inline KV K_LOAD(const reach_real *p) {
    KV v;
    memcpy(&v, p, sizeof v);
    return v;
}

KERNEL_TARGET static inline void K_STORE(reach_real *p, KV a, int stream) {
#ifdef KERNEL_STREAM
    if (stream) {
        KERNEL_STREAM(p, a);
        return;
    }
#endif
    (void)stream;
    memcpy(p, &a, sizeof a);
}

/* m ? a : b, lane by lane. */
KERNEL_TARGET static inline KV K_SEL(KM m, KV a, KV b) {
#ifdef KERNEL_MASK
    return (KV)KERNEL_BLEND(m, a, b);
#else
    return (KV)((m & (KM)a) | (~m & (KM)b));
#endif
}

/* One byte per lane to p, 1 where m is set. */
KERNEL_TARGET static inline void K_STORE_FLAGS(unsigned char *p, KM m) {
#ifdef KERNEL_MASK
    KERNEL_STORE_FLAGS(p, m);
#else
    KB flags = __builtin_convertvector(m & 1, KB);
    memcpy(p, &flags, sizeof flags);
#endif
}

/* 1/√x for x a positive normal number, from the estimate y by Newton's step
 * y·(1.5 − x·y²/2): the estimate's relative error e becomes about 1.5·e² per step, 14 bits
 * (AVX-512) or 12 bits (SSE, AVX) become float's 24 in one step, 14 become double's 53 in
 * two. */
KERNEL_TARGET static inline KV K_RSQRT(KV x) {
#ifdef KERNEL_RSQRT_ESTIMATE
    KV y = KERNEL_RSQRT_ESTIMATE(x);
    for (int step = 0; step < KERNEL_NEWTON_STEPS; ++step)
        y = y * (REACH_R(1.5) - (x * y) * y * REACH_R(0.5));
    return y;
#else
    return 1 / K_SQRT(x);
#endif
}

KERNEL_TARGET static inline unsigned K_BITS(KM m) {
#if defined(KERNEL_MASK)
    return (unsigned)m;
#elif defined(KERNEL_MASK_BITS)
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

/* `a` into the lanes of `m`; the others keep what the array holds. Without a masked store, lane
 * by lane (only groups with lanes that need care, and the tail, come here): a select with the
 * array's contents would read lanes the batch has not written yet, which tools that track
 * uninitialised memory then take for the whole vector. */
KERNEL_TARGET static inline void K_STORE_WHERE(reach_real *p, KM m, KV a) {
#ifdef KERNEL_MASK
    KERNEL_STORE_WHERE(p, m, a);
#else
    reach_real lanes[KWIDTH];
    memcpy(lanes, &a, sizeof lanes);
    for (unsigned bits = K_BITS(m); bits; bits &= bits - 1)
        p[__builtin_ctz(bits)] = lanes[__builtin_ctz(bits)];
#endif
}

/* The lanes from `first` to the group's end, as a mask. */
KERNEL_TARGET static inline KM K_LANES_FROM(int first) {
#ifdef KERNEL_MASK
    return (KM)((1u << KWIDTH) - (1u << first));
#else
    batch_lane_int lanes[KWIDTH];
    for (int k = 0; k < KWIDTH; ++k)
        lanes[k] = k >= first ? -1 : 0;
    KM m;
    memcpy(&m, lanes, sizeof m);
    return m;
#endif
}

/* A group's answer: the outputs of every lane, the lanes reached and the lanes solved here. */
typedef struct KR {
    KV mid_x, mid_y, mid_z, end_x, end_y, end_z, residual;
    KM reached, ok;
} KR;

/* The group of lanes [i, i + KWIDTH) of b. Lanes outside `ok` may hold anything, NaN included;
 * a lane's tolerance is chain·tolerance_scale + tolerance_fixed. */
KERNEL_TARGET static inline __attribute__((always_inline)) KR
K_SOLVE(const reach_two_bone_batch *b, int i, reach_real tolerance_scale, reach_real tolerance_fixed) {
    const KV zero = {0};
    KV rx = K_LOAD(b->root.x + i), ry = K_LOAD(b->root.y + i), rz = K_LOAD(b->root.z + i);
    KV mx = K_LOAD(b->mid.x + i), my = K_LOAD(b->mid.y + i), mz = K_LOAD(b->mid.z + i);
    KV ux = mx - rx, uy = my - ry, uz = mz - rz;                                                       /* upper bone */
    KV wx = K_LOAD(b->end.x + i) - mx, wy = K_LOAD(b->end.y + i) - my, wz = K_LOAD(b->end.z + i) - mz; /* lower */
    KV tx = K_LOAD(b->target.x + i) - rx, ty = K_LOAD(b->target.y + i) - ry, tz = K_LOAD(b->target.z + i) - rz;
    KV l1sq = ux * ux + uy * uy + uz * uz, l2sq = wx * wx + wy * wy + wz * wz, dsq = tx * tx + ty * ty + tz * tz;

    /* Ordinary lanes only: squares inside the safe range (NaN and infinity fail these
     * comparisons), bones of length, a limb larger than its coordinates' resolution. Lanes
     * outside may come out NaN below; they are not stored. */
    KM ok = K_GE(l1sq, zero + BATCH_MIN_SQUARE) & K_LE(l1sq, zero + BATCH_MAX_SQUARE) &
            K_GE(l2sq, zero + BATCH_MIN_SQUARE) & K_LE(l2sq, zero + BATCH_MAX_SQUARE) &
            K_GE(dsq, zero + BATCH_MIN_SQUARE) & K_LE(dsq, zero + BATCH_MAX_SQUARE);
    /* The bones' lengths by the square root unit, which works beside the multipliers; the two
     * reciprocal roots below by estimate, which would take it twice each. */
    KV l1 = K_SQRT(l1sq), l2 = K_SQRT(l2sq);
    KV inv_d = K_RSQRT(dsq);
    KV d = dsq * inv_d;
    KV chain = l1 + l2;
    KV near = K_MIN(l1, l2); /* the shorter bone, from whose end the triangle's foot is measured */
    ok &= K_GT(near, chain * REACH_ZERO_LENGTH_RATIO);
    /* The scalar solver's resolution test, made stricter so as to need the root alone: no
     * coordinate of mid or end exceeds the root's largest by more than the chain (to a few
     * roundings, which the extra unit in BATCH_RESOLUTION_ULPS + 1 covers). Stricter still
     * with the root's length for its largest coordinate, which takes one comparison where the
     * largest takes five. A lane it refuses goes to the scalar solver, which decides exactly. */
    KV root_sq = rx * rx + ry * ry + rz * rz;
    KV root_limit = chain * (1 / ((BATCH_RESOLUTION_ULPS + 1) * REACH_REAL_EPSILON) - 1);
    ok &= K_LE(root_sq, root_limit * root_limit);

    /* The bend direction: toward the pole, or the knee's current side. */
    KV sx, sy, sz, side_sq_floor;
    if (b->pole.x) {
        sx = K_LOAD(b->pole.x + i) - rx;
        sy = K_LOAD(b->pole.y + i) - ry;
        sz = K_LOAD(b->pole.z + i) - rz;
        KV psq = sx * sx + sy * sy + sz * sz;
        ok &= K_GE(psq, zero + BATCH_MIN_SQUARE) & K_LE(psq, zero + BATCH_MAX_SQUARE);
        side_sq_floor = psq * (BATCH_SIDE_RATIO * BATCH_SIDE_RATIO);
    } else {
        KV ax = ux + wx, ay = uy + wy, az = uz + wz;
        KV asq = ax * ax + ay * ay + az * az;
        ok &= K_GE(asq, chain * chain * (BATCH_SIDE_RATIO * BATCH_SIDE_RATIO));
        KV along = (ux * ax + uy * ay + uz * az) / asq;
        sx = ux - ax * along;
        sy = uy - ay * along;
        sz = uz - az * along;
        side_sq_floor = l1sq * (BATCH_SIDE_RATIO * BATCH_SIDE_RATIO);
    }
    /* Its part perpendicular to the target line, as (t × s) × t = |t|²·s − (t·s)·t, whose
     * length is |t × s|·|t|. Cross products, not a rejection: the result is perpendicular to t
     * to a rounding however close s lies to the line, and it needs neither the target's unit
     * direction nor a second pass. Never made unit: its scale goes into the height's. */
    KV cx = ty * sz - tz * sy, cy = tz * sx - tx * sz, cz = tx * sy - ty * sx;
    KV csq = cx * cx + cy * cy + cz * cz;
    ok &= K_GT(csq, side_sq_floor * dsq);
    KV nx = cy * tz - cz * ty, ny = cz * tx - cx * tz, nz = cx * ty - cy * tx;

    /* The triangle: foot a along the target line, height h off it (see two_bone.h), the
     * foot measured from the end of the shorter bone. Which bone is longer, and by how
     * much in squares, comes from the squared lengths, as in the scalar solver: exact to a
     * rounding where the bones are nearly equal, so a folded limb points its longer bone
     * at the target in both. */
    KV square_gap = l1sq - l2sq;
    KM upper_longer = K_GE(square_gap, zero);
    square_gap = K_ABS(square_gap);
    KV near_sq = K_MIN(l1sq, l2sq);
    KM stretched = K_GE(d, chain), straight_or_folded = stretched | K_LE(d * chain, square_gap);
    /* The end's distance, clamped to the reach range as the scalar solver clamps it. */
    KV dc = K_MIN(K_MAX(d, K_ABS(l1 - l2)), chain);
    /* foot = (d² − gap)/2d and h² = near² − foot² = (4·near²·d² − (d² − gap)²)/4d²: the
     * height from squares alone, so its square root does not wait for the target's
     * distance. Past the shorter bone's end the square is negative and the height 0. */
    KV half_inv_d = inv_d * REACH_R(0.5);
    KV foot_2d = dsq - square_gap;
    KV foot = K_MIN(K_MAX(foot_2d * half_inv_d, -near), near);
    KV h = K_SQRT(K_MAX((near_sq * 4) * dsq - foot_2d * foot_2d, zero));
    KV a = K_SEL(upper_longer, d - foot, foot);
    /* Straight or folded exactly, as the scalar solver is: the upper bone along the target
     * line, away from the target where a longer lower bone folds back past the root. */
    a = K_SEL(straight_or_folded, K_SEL(upper_longer | stretched, l1, -l1), a);
    /* t and n are not unit: 1/|t| and 1/|n| = 1/(|t × s|·|t|) go into the scales of each. */
    h = K_SEL(straight_or_folded, zero, h * (K_RSQRT(csq) * (half_inv_d * inv_d)));
    a *= inv_d;

    KR r;
    r.mid_x = rx + tx * a + nx * h;
    r.mid_y = ry + ty * a + ny * h;
    r.mid_z = rz + tz * a + nz * h;
    KV end_scale = dc * inv_d;
    r.end_x = rx + tx * end_scale;
    r.end_y = ry + ty * end_scale;
    r.end_z = rz + tz * end_scale;
    r.residual = K_ABS(d - dc); /* never -0: the sign bit is cleared */
    r.reached = K_LE(r.residual, chain * tolerance_scale + tolerance_fixed);
    r.ok = ok;
    return r;
}

/* A group's outputs into the lanes [i, i + KWIDTH) of b, where `where` is set (every lane
 * when all_lanes, then streamed past the caches if `stream`); the other lanes keep what the
 * arrays hold. */
KERNEL_TARGET static inline __attribute__((always_inline)) void
K_STORE_GROUP(const reach_two_bone_batch *b, int i, const KR *r, KM where, int all_lanes, int stream) {
    if (all_lanes) {
        K_STORE(b->out_mid.x + i, r->mid_x, stream);
        K_STORE(b->out_mid.y + i, r->mid_y, stream);
        K_STORE(b->out_mid.z + i, r->mid_z, stream);
        K_STORE(b->out_end.x + i, r->end_x, stream);
        K_STORE(b->out_end.y + i, r->end_y, stream);
        K_STORE(b->out_end.z + i, r->end_z, stream);
        if (b->out_residual) K_STORE(b->out_residual + i, r->residual, stream);
    } else {
        K_STORE_WHERE(b->out_mid.x + i, where, r->mid_x);
        K_STORE_WHERE(b->out_mid.y + i, where, r->mid_y);
        K_STORE_WHERE(b->out_mid.z + i, where, r->mid_z);
        K_STORE_WHERE(b->out_end.x + i, where, r->end_x);
        K_STORE_WHERE(b->out_end.y + i, where, r->end_y);
        K_STORE_WHERE(b->out_end.z + i, where, r->end_z);
        if (b->out_residual) K_STORE_WHERE(b->out_residual + i, where, r->residual);
    }
}

/* A whole group's flags: reached, and the status of the lanes solved here. */
KERNEL_TARGET static inline __attribute__((always_inline)) void K_STORE_STATUS(const reach_two_bone_batch *b, int i,
                                                                               const KR *r) {
    if (b->out_reached) K_STORE_FLAGS(b->out_reached + i, r->reached);
    /* One status byte per lane: KWIDTH lanes are KWIDTH bytes (KWIDTH is a lane count worked
     * out with sizeof, which is what cppcheck mistakes for a byte count). */
    // cppcheck-suppress sizeofDivisionMemfunc
    if (b->out_status) memset(b->out_status + i, REACH_OK, (size_t)KWIDTH * sizeof b->out_status[0]);
}

/* A whole group with lanes that need care: they keep their outputs for the scalar solver,
 * which then does them alone (in place, those outputs are its inputs). Out of line, so that
 * the usual group's stores are not scheduled around it. */
KERNEL_TARGET static __attribute__((noinline)) void K_FINISH_MIXED(const reach_two_bone_batch *b, int i, const KR *r,
                                                                   const reach_two_bone_settings *opt,
                                                                   reach_status *first_error) {
    K_STORE_GROUP(b, i, r, r->ok, 0, 0);
    K_STORE_STATUS(b, i, r);
    for (unsigned bad = ~K_BITS(r->ok) & ((1u << KWIDTH) - 1); bad; bad &= bad - 1)
        solve_lane(b, i + __builtin_ctz(bad), opt, first_error);
}

/* Everything a whole group [i, i + KWIDTH) writes. */
KERNEL_TARGET static inline __attribute__((always_inline)) void K_FINISH(const reach_two_bone_batch *b, int i,
                                                                         const KR *r, int stream,
                                                                         const reach_two_bone_settings *opt,
                                                                         reach_status *first_error) {
    if (K_BITS(r->ok) != (1u << KWIDTH) - 1) {
        K_FINISH_MIXED(b, i, r, opt, first_error);
        return;
    }
    K_STORE_GROUP(b, i, r, r->ok, 1, stream);
    K_STORE_STATUS(b, i, r);
}

/* A batch of fewer than KWIDTH limbs through the same group as any other, padded with copies
 * of its last limb, so that no limb's path or bits depend on the size of its batch. */
KERNEL_TARGET static void K_SOLVE_SHORT(const reach_two_bone_batch *b, reach_real tolerance_scale,
                                        reach_real tolerance_fixed, const reach_two_bone_settings *opt,
                                        reach_status *first_error) {
    const int count = b->count;
    const reach_real *const in[15] = {b->root.x,   b->root.y,   b->root.z, b->mid.x,  b->mid.y,
                                      b->mid.z,    b->end.x,    b->end.y,  b->end.z,  b->target.x,
                                      b->target.y, b->target.z, b->pole.x, b->pole.y, b->pole.z};
    reach_real padded[15][KWIDTH];
    for (int k = 0; k < (b->pole.x ? 15 : 12); ++k)
        for (int lane = 0; lane < KWIDTH; ++lane)
            padded[k][lane] = in[k][lane < count ? lane : count - 1];
    reach_real solved[7][KWIDTH];
    unsigned char reached[KWIDTH];
    reach_two_bone_batch group = *b;
    group.root = (reach_const_vec3_soa){padded[0], padded[1], padded[2]};
    group.mid = (reach_const_vec3_soa){padded[3], padded[4], padded[5]};
    group.end = (reach_const_vec3_soa){padded[6], padded[7], padded[8]};
    group.target = (reach_const_vec3_soa){padded[9], padded[10], padded[11]};
    if (b->pole.x) group.pole = (reach_const_vec3_soa){padded[12], padded[13], padded[14]};
    group.out_mid = (reach_vec3_soa){solved[0], solved[1], solved[2]};
    group.out_end = (reach_vec3_soa){solved[3], solved[4], solved[5]};
    group.out_residual = solved[6];
    KR r = K_SOLVE(&group, 0, tolerance_scale, tolerance_fixed);
    K_STORE_GROUP(&group, 0, &r, r.ok, 1, 0);
    K_STORE_FLAGS(reached, r.reached);

    reach_real *const out[7] = {b->out_mid.x, b->out_mid.y, b->out_mid.z,   b->out_end.x,
                                b->out_end.y, b->out_end.z, b->out_residual};
    const unsigned ok = K_BITS(r.ok);
    for (int lane = 0; lane < count; ++lane) {
        if (!(ok >> lane & 1)) {
            solve_lane(b, lane, opt, first_error);
            continue;
        }
        for (int k = 0; k < (b->out_residual ? 7 : 6); ++k)
            out[k][lane] = solved[k][lane];
        if (b->out_reached) b->out_reached[lane] = reached[lane];
        if (b->out_status) b->out_status[lane] = REACH_OK;
    }
}

/* A batch of at least KWIDTH limbs. */
KERNEL_TARGET static void K_SOLVE_RUN(const reach_two_bone_batch *b, reach_real tolerance_scale,
                                      reach_real tolerance_fixed, int stream, const reach_two_bone_settings *opt,
                                      reach_status *first_error) {
    /* The batch in a local: the stores below could, for all the compiler knows, change *b. */
    const reach_two_bone_batch batch = *b;
    /* The lanes after the last whole group: the batch's last KWIDTH lanes solved as a group
     * before any other, so that the lanes it shares with the last whole group are still
     * inputs in place, and only its own stored. Its lanes that need care wait for the end,
     * where the scalar solver meets them in order. */
    const int tail = batch.count % KWIDTH, whole = batch.count - tail, last = batch.count - KWIDTH;
    unsigned tail_bad = 0;
    if (tail) {
        KR r = K_SOLVE(&batch, last, tolerance_scale, tolerance_fixed);
        const KM own = K_LANES_FROM(KWIDTH - tail);
        K_STORE_GROUP(&batch, last, &r, r.ok & own, 0, 0);
        unsigned char reached[KWIDTH];
        K_STORE_FLAGS(reached, r.reached);
        if (batch.out_reached) memcpy(batch.out_reached + whole, reached + KWIDTH - tail, (size_t)tail);
        if (batch.out_status) memset(batch.out_status + whole, REACH_OK, (size_t)tail);
        tail_bad = ~K_BITS(r.ok) & K_BITS(own);
    }
    /* Two groups a step: one group's operations are more than the out-of-order window holds,
     * and its dependency chains too long for the next group's to fill the gaps. No prefetches:
     * the hardware's follow these streams, and issuing them cost a tenth in L2 and gained
     * nothing from memory. */
    int i = 0;
    for (; i + 2 * KWIDTH <= whole; i += 2 * KWIDTH) {
        KR first = K_SOLVE(&batch, i, tolerance_scale, tolerance_fixed);
        KR second = K_SOLVE(&batch, i + KWIDTH, tolerance_scale, tolerance_fixed);
        K_FINISH(&batch, i, &first, stream, opt, first_error);
        K_FINISH(&batch, i + KWIDTH, &second, stream, opt, first_error);
    }
    if (i < whole) {
        KR r = K_SOLVE(&batch, i, tolerance_scale, tolerance_fixed);
        K_FINISH(&batch, i, &r, stream, opt, first_error);
    }
    for (; tail_bad; tail_bad &= tail_bad - 1)
        solve_lane(b, last + __builtin_ctz(tail_bad), opt, first_error);
}

KERNEL_TARGET static void KERNEL_NAME(const reach_two_bone_batch *b, const reach_two_bone_settings *opt,
                                      reach_status *first_error) {
    /* The scalar solver's tolerance: the option where positive, a fraction of the chain
     * otherwise; as chain·scale + fixed, so that no lane branches. */
    const reach_real tolerance_scale = opt->tolerance > 0 ? 0 : REACH_R(1e-4);
    const reach_real tolerance_fixed = opt->tolerance > 0 ? opt->tolerance : 0;
    if (b->count < KWIDTH) {
        if (b->count > 0) K_SOLVE_SHORT(b, tolerance_scale, tolerance_fixed, opt, first_error);
        return;
    }
    int head = 0, stream = 0;
#ifdef KERNEL_STREAM
    /* A batch larger than the caches streams its outputs to memory: a store that misses
     * would first read the line it fills, a third more traffic. The first few limbs go alone
     * so that the groups after them start on the vector alignment the stores need, when
     * every output array shares it (as arrays from one allocator usually do). */
    if (b->count >= BATCH_STREAM_LIMBS) {
        const uintptr_t misaligned = (uintptr_t)b->out_mid.x % KERNEL_BYTES;
        head = (int)((KERNEL_BYTES - misaligned) % KERNEL_BYTES / sizeof(reach_real));
        reach_real *const out[7] = {b->out_mid.x, b->out_mid.y, b->out_mid.z,   b->out_end.x,
                                    b->out_end.y, b->out_end.z, b->out_residual};
        stream = misaligned % sizeof(reach_real) == 0;
        for (int k = 0; k < 7; ++k)
            stream &= !out[k] || (uintptr_t)(out[k] + head) % KERNEL_BYTES == 0;
        if (!stream) head = 0;
    }
#endif
    if (head) {
        const reach_two_bone_batch first = reach_two_bone_batch_slice(b, 0, head);
        K_SOLVE_SHORT(&first, tolerance_scale, tolerance_fixed, opt, first_error);
    }
    const reach_two_bone_batch rest = reach_two_bone_batch_slice(b, head, b->count - head);
    K_SOLVE_RUN(&rest, tolerance_scale, tolerance_fixed, stream, opt, first_error);
#ifdef KERNEL_STREAM
    if (stream) KERNEL_STREAM_FENCE();
#endif
}

#undef K_LOAD
#undef K_STORE
#undef K_STORE_WHERE
#undef K_STORE_FLAGS
#undef K_STORE_GROUP
#undef K_SEL
#undef K_RSQRT
#undef K_SQRT
#undef K_BITS
#undef K_LANES_FROM
#undef K_SOLVE
#undef K_FINISH
#undef K_FINISH_MIXED
#undef K_STORE_STATUS
#undef K_SOLVE_SHORT
#undef K_SOLVE_RUN
#undef K_GE
#undef K_GT
#undef K_LE
#undef K_MIN
#undef K_MAX
#undef K_ABS
#undef KV
#undef KI
#undef KM
#undef KB
#undef KR
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
#undef KERNEL_MASK
#undef KERNEL_CMP
#undef KERNEL_BLEND
#undef KERNEL_STORE_WHERE
#undef KERNEL_STORE_FLAGS
#undef KERNEL_STREAM
#undef KERNEL_STREAM_FENCE
