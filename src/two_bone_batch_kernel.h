/* The vector kernel of the batch two-bone solver, written once with GCC/clang vector
 * extensions and instantiated per instruction set by two_bone_batch.c, which defines before
 * including this file:
 *   KERNEL_NAME    the function's name
 *   KERNEL_TARGET  a function attribute selecting the instruction set (may be empty)
 *   KERNEL_BYTES   the vector width in bytes
 *   KERNEL_SQRT(v) the vector square root for that instruction set
 * The kernel solves every whole group of lanes in [0, count) with no branches, and calls
 * solve_lane (the scalar solver) for each lane that needs care; see batch.h. */

#define KERNEL_JOIN2(a, b) a##b
#define KERNEL_JOIN(a, b)  KERNEL_JOIN2(a, b)
#define KV                 KERNEL_JOIN(KERNEL_NAME, _vec)
#define KM                 KERNEL_JOIN(KERNEL_NAME, _mask)
#define KWIDTH             ((int)(KERNEL_BYTES / sizeof(reach_real)))

typedef reach_real KV __attribute__((vector_size(KERNEL_BYTES)));
typedef batch_lane_int KM __attribute__((vector_size(KERNEL_BYTES)));

KERNEL_TARGET static inline KV KERNEL_JOIN(KERNEL_NAME, _load)(const reach_real *p) {
    KV v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Lanes where `keep` is set take `b` (the array's current contents) instead of `a`. */
KERNEL_TARGET static inline void KERNEL_JOIN(KERNEL_NAME, _store)(reach_real *p, KV a, KM keep) {
    KV b;
    memcpy(&b, p, sizeof b);
    KV r = (KV)((~keep & (KM)a) | (keep & (KM)b));
    memcpy(p, &r, sizeof r);
}

KERNEL_TARGET static inline KV KERNEL_JOIN(KERNEL_NAME, _select)(KM m, KV a, KV b) {
    return (KV)((m & (KM)a) | (~m & (KM)b));
}

#define K_LOAD      KERNEL_JOIN(KERNEL_NAME, _load)
#define K_STORE     KERNEL_JOIN(KERNEL_NAME, _store)
#define K_SEL       KERNEL_JOIN(KERNEL_NAME, _select)
#define K_MIN(a, b) K_SEL((a) < (b), a, b)
#define K_MAX(a, b) K_SEL((a) > (b), a, b)
#define K_ABS(a)    K_MAX(a, -(a))

KERNEL_TARGET static void KERNEL_NAME(const reach_two_bone_batch *b, const reach_two_bone_options *opt,
                                      reach_status *first_error) {
    const KV zero = {0};
    const int has_pole = b->pole.x != NULL;
    int i = 0;
    for (; i + KWIDTH <= b->count; i += KWIDTH) {
        KV rx = K_LOAD(b->root.x + i), ry = K_LOAD(b->root.y + i), rz = K_LOAD(b->root.z + i);
        KV mx = K_LOAD(b->mid.x + i), my = K_LOAD(b->mid.y + i), mz = K_LOAD(b->mid.z + i);
        KV ex = K_LOAD(b->end.x + i), ey = K_LOAD(b->end.y + i), ez = K_LOAD(b->end.z + i);
        KV ux = mx - rx, uy = my - ry, uz = mz - rz; /* upper bone */
        KV wx = ex - mx, wy = ey - my, wz = ez - mz; /* lower bone */
        KV tx = K_LOAD(b->target.x + i) - rx, ty = K_LOAD(b->target.y + i) - ry, tz = K_LOAD(b->target.z + i) - rz;
        KV l1sq = ux * ux + uy * uy + uz * uz, l2sq = wx * wx + wy * wy + wz * wz, dsq = tx * tx + ty * ty + tz * tz;

        /* Ordinary lanes only: squares inside the safe range (NaN and infinity fail these
         * comparisons), bones of length, a limb larger than its coordinates' resolution. */
        KM ok = (l1sq >= zero + BATCH_MIN_SQUARE) & (l1sq <= zero + BATCH_MAX_SQUARE) &
                (l2sq >= zero + BATCH_MIN_SQUARE) & (l2sq <= zero + BATCH_MAX_SQUARE) &
                (dsq >= zero + BATCH_MIN_SQUARE) & (dsq <= zero + BATCH_MAX_SQUARE);
        KV l1 = KERNEL_SQRT(l1sq), l2 = KERNEL_SQRT(l2sq), d = KERNEL_SQRT(dsq);
        KV chain = l1 + l2;
        ok &= (l1 > chain * REACH_ZERO_LENGTH_RATIO) & (l2 > chain * REACH_ZERO_LENGTH_RATIO);
        KV coords = K_MAX(K_MAX(K_MAX(K_ABS(rx), K_ABS(ry)), K_MAX(K_ABS(rz), K_ABS(mx))),
                          K_MAX(K_MAX(K_ABS(my), K_ABS(mz)), K_MAX(K_MAX(K_ABS(ex), K_ABS(ey)), K_ABS(ez))));
        ok &= chain >= coords * (BATCH_RESOLUTION_ULPS * REACH_REAL_EPSILON);

        KV inv_d = 1 / d;
        KV dx = tx * inv_d, dy = ty * inv_d, dz = tz * inv_d; /* unit direction to the target */

        /* The bend direction: from the pole, or from the knee's current side. */
        KV sx, sy, sz, side_sq_floor;
        if (has_pole) {
            sx = K_LOAD(b->pole.x + i) - rx;
            sy = K_LOAD(b->pole.y + i) - ry;
            sz = K_LOAD(b->pole.z + i) - rz;
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
        /* Reject from the target direction twice: the second pass removes the rounding the
         * first leaves when the side is short. */
        KV p = sx * dx + sy * dy + sz * dz;
        KV nx = sx - dx * p, ny = sy - dy * p, nz = sz - dz * p;
        KV nsq = nx * nx + ny * ny + nz * nz;
        ok &= nsq > side_sq_floor;
        KV inv_n = 1 / KERNEL_SQRT(K_MAX(nsq, zero + BATCH_MIN_SQUARE));
        nx *= inv_n;
        ny *= inv_n;
        nz *= inv_n;
        p = nx * dx + ny * dy + nz * dz;
        nx -= dx * p;
        ny -= dy * p;
        nz -= dz * p;
        inv_n = 1 / KERNEL_SQRT(nx * nx + ny * ny + nz * nz);
        nx *= inv_n;
        ny *= inv_n;
        nz *= inv_n;

        /* The triangle: foot a along the target line, height h off it (see two_bone.h). */
        KV fold = K_ABS(l1 - l2);
        /* Folded with bones equal to rounding: which way the mid joint points (toward the
         * target or away) turns on that rounding. The scalar solver decides those lanes, so
         * both paths answer alike. */
        ok &= ~((d <= fold) & (fold <= chain * (BATCH_RESOLUTION_ULPS * REACH_REAL_EPSILON)));
        KV dc = K_MIN(K_MAX(d, fold), chain);
        /* The foot from the shorter bone's end, as the scalar solver measures it. */
        KM upper_shorter = l1 <= l2;
        KV near = K_MIN(l1, l2), far = K_MAX(l1, l2);
        KV foot = (dc * dc + (near - far) * (near + far)) / (dc + dc);
        foot = K_MIN(K_MAX(foot, -near), near);
        KV h = KERNEL_SQRT(K_MAX((near - foot) * (near + foot), zero));
        KV a = K_SEL(upper_shorter, foot, dc - foot);
        /* Straight or folded exactly at the clamp's ends, as the scalar solver is. */
        KM stretched = d >= chain, folded = d <= fold;
        a = K_SEL(stretched | (folded & (l1 >= l2)), l1, K_SEL(folded, -l1, a));
        h = K_SEL(stretched | folded, zero, h);

        KM keep = ~ok; /* lanes the scalar solver will do: leave their outputs alone for now */
        K_STORE(b->out_mid.x + i, rx + dx * a + nx * h, keep);
        K_STORE(b->out_mid.y + i, ry + dy * a + ny * h, keep);
        K_STORE(b->out_mid.z + i, rz + dz * a + nz * h, keep);
        K_STORE(b->out_end.x + i, rx + dx * dc, keep);
        K_STORE(b->out_end.y + i, ry + dy * dc, keep);
        K_STORE(b->out_end.z + i, rz + dz * dc, keep);
        KV residual = K_ABS(d - dc) + zero; /* + 0 turns a -0 into +0, as the scalar solver gives */
        if (b->out_residual) K_STORE(b->out_residual + i, residual, keep);

        KV tolerance = opt->tolerance > 0 ? zero + opt->tolerance : chain * REACH_R(1e-4);
        batch_lane_int reached[KWIDTH], good[KWIDTH];
        KM reached_mask = residual <= tolerance;
        memcpy(reached, &reached_mask, sizeof reached);
        memcpy(good, &ok, sizeof good);
        for (int k = 0; k < KWIDTH; ++k) {
            if (!good[k]) {
                solve_lane(b, i + k, opt, first_error);
                continue;
            }
            if (b->out_reached) b->out_reached[i + k] = reached[k] != 0;
            if (b->out_status) b->out_status[i + k] = REACH_OK;
        }
    }
    for (; i < b->count; ++i)
        solve_lane(b, i, opt, first_error);
}

#undef K_LOAD
#undef K_STORE
#undef K_SEL
#undef K_MIN
#undef K_MAX
#undef K_ABS
#undef KV
#undef KM
#undef KWIDTH
#undef KERNEL_NAME
#undef KERNEL_TARGET
#undef KERNEL_BYTES
#undef KERNEL_SQRT
