/* The lock-step kernel of batch FABRIK, written once and instantiated per instruction set by
 * fabrik_batch.c, which defines before including this file:
 *   FB_NAME    the function's name
 *   FB_TARGET  a function attribute selecting the instruction set (may be empty)
 *   FB_BYTES   the vector width in bytes, or 0 for the scalar path (one lane, plain reach_real)
 *   FB_SQRT(v) the square root for that instruction set
 * FB_NAME(job, i, first_error) solves the chains [i, i + width) of job->batch. Every operation
 * is an IEEE one on each lane alone, in the same order in every instantiation, so each chain's
 * bits do not depend on the kernel or on its neighbours (fabrik_batch.h). Masks are lane
 * integers, all ones where true, in the scalar path too. */

#define FB_JOIN2(a, b) a##b
#define FB_JOIN(a, b)  FB_JOIN2(a, b)
#define FB_FN(suffix)  FB_JOIN(FB_NAME, suffix)

#if FB_BYTES
#define FB_WIDTH ((int)(FB_BYTES / sizeof(reach_real)))
typedef reach_real FB_FN(_v) __attribute__((vector_size(FB_BYTES)));
typedef fb_lane_int FB_FN(_m) __attribute__((vector_size(FB_BYTES)));
#define FV FB_FN(_v)
#define FM FB_FN(_m)

FB_TARGET static inline FV FB_FN(_load)(const reach_real *p) {
    FV v;
    memcpy(&v, p, sizeof v);
    return v;
}

FB_TARGET static inline FV FB_FN(_sel)(FM m, FV a, FV b) { return (FV)((m & (FM)a) | (~m & (FM)b)); }
FB_TARGET static inline FM FB_FN(_msel)(FM m, FM a, FM b) { return (m & a) | (~m & b); }

/* Lanes where m is clear get `old` back: the bits the array held. */
FB_TARGET static inline void FB_FN(_store)(reach_real *p, FM m, FV a, FV old) {
    FV r = FB_FN(_sel)(m, a, old);
    memcpy(p, &r, sizeof r);
}

FB_TARGET static inline int FB_FN(_any)(FM m) {
    fb_lane_int lanes[FB_WIDTH];
    memcpy(lanes, &m, sizeof lanes);
    fb_lane_int any = 0;
    for (int k = 0; k < FB_WIDTH; ++k)
        any |= lanes[k];
    return any != 0;
}

/* x in every lane as x − 0, not 0 + x: the sum would turn −0 into +0, which the scalar path
 * keeps. */
FB_TARGET static inline FV FB_FN(_splat)(reach_real x) {
    const FV zero = {0};
    return x - zero;
}

#define FB_CMP(a, op, b) ((a)op(b))
#define FB_SPLAT(x)      FB_FN(_splat)(x)
#define FB_MASK_SPLAT(x) (none + (x))
#define FB_SPILL(dst, v) memcpy(dst, &(v), sizeof(v))
#else
#define FB_WIDTH 1
#define FV       reach_real
#define FM       fb_lane_int

static inline FV FB_FN(_load)(const reach_real *p) { return *p; }
static inline FV FB_FN(_sel)(FM m, FV a, FV b) { return m ? a : b; }
static inline FM FB_FN(_msel)(FM m, FM a, FM b) { return m ? a : b; }
static inline void FB_FN(_store)(reach_real *p, FM m, FV a, FV old) {
    (void)old;
    if (m) *p = a;
}
static inline int FB_FN(_any)(FM m) { return m != 0; }

#define FB_CMP(a, op, b) (-(FM)((a)op(b)))
#define FB_SPLAT(x)      ((FV)(x))
#define FB_MASK_SPLAT(x) ((FM)(x))
#define FB_SPILL(dst, v) ((dst)[0] = (v))
#endif

#define VLOAD                        FB_FN(_load)
#define VSEL                         FB_FN(_sel)
#define MSEL                         FB_FN(_msel)
#define VSTORE                       FB_FN(_store)
#define VANY                         FB_FN(_any)
#define VMIN(a, b)                   VSEL(FB_CMP(a, <, b), a, b)
#define VMAX(a, b)                   VSEL(FB_CMP(a, >, b), a, b)
#define VABS(a)                      VMAX(a, -(a))
#define VDOT(ax, ay, az, bx, by, bz) ((ax) * (bx) + (ay) * (by) + (az) * (bz))

/* A unit vector across the unit vector u: u's rejection from the axis it is least along
 * (reach_vec3_any_perpendicular). */
FB_TARGET static inline void FB_FN(_across)(FV ux, FV uy, FV uz, FV *px, FV *py, FV *pz) {
    const FV zero = {0}, one = FB_SPLAT(1);
    FV ax = VABS(ux), ay = VABS(uy), az = VABS(uz);
    FM use_x = FB_CMP(ax, <, ay) & FB_CMP(ax, <, az), use_y = ~use_x & FB_CMP(ay, <, az);
    FV ox = VSEL(use_x, one, zero), oy = VSEL(use_y, one, zero), oz = VSEL(use_x | use_y, zero, one);
    FV along = VDOT(ox, oy, oz, ux, uy, uz);
    FV x = ox - ux * along, y = oy - uy * along, z = oz - uz * along;
    FV inv = one / FB_SQRT(VDOT(x, y, z, x, y, z));
    *px = x * inv;
    *py = y * inv;
    *pz = z * inv;
}

/* Where a middle joint goes so that it sits la from a and lb from e: on the circle of such
 * points, the one toward `hint` off the a→e line (any side when hint is on it); straight toward
 * e when e is just out of reach. Lanes where no such point exists keep *m as it is; returns the
 * lanes where it does. */
FB_TARGET static inline FM FB_FN(_close)(FV ax, FV ay, FV az, FV ex, FV ey, FV ez, FV hx, FV hy, FV hz, FV la, FV lb,
                                         FM active, FV *mx, FV *my, FV *mz) {
    const FV zero = {0}, min_square = FB_SPLAT(FB_MIN_SQUARE);
    ex -= ax;
    ey -= ay;
    ez -= az;
    FV d2 = VDOT(ex, ey, ez, ex, ey, ez);
    FV d = FB_SQRT(d2), sum = la + lb;
    FM meets = FB_CMP(d2, >, min_square) & FB_CMP(d, >=, VABS(la - lb)) & FB_CMP(d, <=, sum * FB_STRAIGHT_SLACK);
    FV inv = FB_SPLAT(1) / VMAX(d, min_square);
    FV ux = ex * inv, uy = ey * inv, uz = ez * inv;
    /* The foot and height from the shorter side's end: with sides far apart in length (the
     * bridge's straight part against one bone) the longer side's squares would swamp it. */
    FM a_nearer = FB_CMP(la, <=, lb);
    FV near = VMIN(la, lb), far = VMAX(la, lb);
    FV foot = (d * d + (near - far) * (near + far)) / (d + d);
    foot = VMIN(VMAX(foot, -near), near);
    FV height = FB_SQRT(VMAX(zero, (near - foot) * (near + foot)));
    foot = VSEL(a_nearer, foot, d - foot);
    FV vx = hx - ax, vy = hy - ay, vz = hz - az;
    FV along = VDOT(vx, vy, vz, ux, uy, uz);
    FV cx = vx - ux * along, cy = vy - uy * along, cz = vz - uz * along;
    /* Again: what the first rejection leaves of a hint near the line is mostly rounding, and
     * not across it. */
    along = VDOT(cx, cy, cz, ux, uy, uz);
    cx -= ux * along;
    cy -= uy * along;
    cz -= uz * along;
    FV c2 = VDOT(cx, cy, cz, cx, cy, cz);
    FM on_line = ~FB_CMP(c2, >, VMAX(min_square, VDOT(vx, vy, vz, vx, vy, vz) * FB_LINE_RATIO_SQUARED));
    if (VANY(on_line & meets & active)) {
        FV qx, qy, qz;
        FB_FN(_across)(ux, uy, uz, &qx, &qy, &qz);
        cx = VSEL(on_line, qx, cx);
        cy = VSEL(on_line, qy, cy);
        cz = VSEL(on_line, qz, cz);
        c2 = VSEL(on_line, FB_SPLAT(1), c2);
    }
    FV hs = height / FB_SQRT(VMAX(c2, min_square));
    FM straight = FB_CMP(d, >=, sum);
    foot = VSEL(straight, la, foot);
    hs = VSEL(straight, zero, hs);
    *mx = VSEL(meets, ax + ux * foot + cx * hs, *mx);
    *my = VSEL(meets, ay + uy * foot + cy * hs, *my);
    *mz = VSEL(meets, az + uz * foot + cz * hs, *mz);
    return meets;
}

/* (x, y, z) scaled to unit length, a vector whose square is below the smallest one by
 * 1/√(that square) instead; returns its squared length before. */
FB_TARGET static inline FV FB_FN(_normalize)(FV *x, FV *y, FV *z) {
    const FV min_square = FB_SPLAT(FB_MIN_SQUARE);
    FV square = VDOT(*x, *y, *z, *x, *y, *z);
    FV inverse = FB_SPLAT(1) / FB_SQRT(VMAX(square, min_square));
    *x = *x * inverse;
    *y = *y * inverse;
    *z = *z * inverse;
    return square;
}

/* The joint one bone `l` from `a` toward `aim`; where the aim is on `a` (its squared distance
 * at most the smallest square), `a` plus `keep`, the bone's previous vector. The step of both
 * FABRIK passes and of the sweeps' re-spacing. */
FB_TARGET static inline void FB_FN(_place)(FV ax, FV ay, FV az, FV aim_x, FV aim_y, FV aim_z, FV l, FV keep_x,
                                           FV keep_y, FV keep_z, FV *nx, FV *ny, FV *nz) {
    const FV min_square = FB_SPLAT(FB_MIN_SQUARE);
    FV vx = aim_x - ax, vy = aim_y - ay, vz = aim_z - az;
    FV m2 = VDOT(vx, vy, vz, vx, vy, vz);
    FM ok = FB_CMP(m2, >, min_square);
    FV f = l / FB_SQRT(VMAX(m2, min_square));
    *nx = VSEL(ok, ax + vx * f, ax + keep_x);
    *ny = VSEL(ok, ay + vy * f, ay + keep_y);
    *nz = VSEL(ok, az + vz * f, az + keep_z);
}

/* The lanes' joints re-spaced from the root outward: each joint onto the line from the (placed)
 * joint below to where it was, one bone from it; a joint on top of the one below continues the
 * bone below (the direction d for the first): a warm start that does not keep the lengths. */
FB_TARGET static void FB_FN(_respace)(const reach_real *len, size_t s, int n, FM lanes, FV rx, FV ry, FV rz, FV dx,
                                      FV dy, FV dz, reach_real *px, reach_real *py, reach_real *pz) {
    const FV min_square = FB_SPLAT(FB_MIN_SQUARE);
    FV ax = rx, ay = ry, az = rz;
    VSTORE(px, lanes, rx, VLOAD(px));
    VSTORE(py, lanes, ry, VLOAD(py));
    VSTORE(pz, lanes, rz, VLOAD(pz));
    for (int j = 0; j < n; ++j) {
        size_t r = (size_t)(j + 1) * s;
        FV ox = VLOAD(px + r), oy = VLOAD(py + r), oz = VLOAD(pz + r);
        FV vx = ox - ax, vy = oy - ay, vz = oz - az, l = VLOAD(len + (size_t)j * s);
        FV m2 = VDOT(vx, vy, vz, vx, vy, vz);
        FM ok = FB_CMP(m2, >, min_square);
        FV inv = FB_SPLAT(1) / FB_SQRT(VMAX(m2, min_square));
        dx = VSEL(ok, vx * inv, dx);
        dy = VSEL(ok, vy * inv, dy);
        dz = VSEL(ok, vz * inv, dz);
        ax = ax + dx * l;
        ay = ay + dy * l;
        az = az + dz * l;
        VSTORE(px + r, lanes, ax, ox);
        VSTORE(py + r, lanes, ay, oy);
        VSTORE(pz + r, lanes, az, oz);
    }
}

/* One CCD sweep for the lanes in `lanes`, tip to root: joint j turns the joints beyond it about
 * itself so that the end points at the target (no turn where either direction is too short to
 * tell, or they are parallel or opposite to a rounding); then the bones are re-spaced from the
 * root along their new directions. A sweep never moves the end away from the target. */
FB_TARGET static void FB_FN(_ccd_sweep)(const reach_real *len, size_t s, int n, FM lanes, reach_real *px,
                                        reach_real *py, reach_real *pz, FV tx, FV ty, FV tz) {
    const FV one = FB_SPLAT(1), min_square = FB_SPLAT(FB_MIN_SQUARE), parallel = FB_SPLAT(FB_PARALLEL_SINE_SQUARED);
    const size_t end = (size_t)n * s;
    for (int j = n - 1; j >= 0; --j) {
        size_t r = (size_t)j * s;
        FV cx = VLOAD(px + r), cy = VLOAD(py + r), cz = VLOAD(pz + r);
        FV ax = VLOAD(px + end) - cx, ay = VLOAD(py + end) - cy, az = VLOAD(pz + end) - cz;
        FV bx = tx - cx, by = ty - cy, bz = tz - cz;
        FV a2 = FB_FN(_normalize)(&ax, &ay, &az), b2 = FB_FN(_normalize)(&bx, &by, &bz);
        FM turns = lanes & FB_CMP(a2, >, min_square) & FB_CMP(b2, >, min_square);
        FV kx = ay * bz - az * by, ky = az * bx - ax * bz, kz = ax * by - ay * bx;
        FV sine2 = VDOT(kx, ky, kz, kx, ky, kz);
        turns &= FB_CMP(sine2, >, parallel);
        if (!VANY(turns)) continue;
        FV sine = FB_SQRT(VMAX(sine2, parallel)), cosine = VDOT(ax, ay, az, bx, by, bz);
        FV ik = one / sine;
        kx = kx * ik;
        ky = ky * ik;
        kz = kz * ik;
        for (int m = j + 1; m <= n; ++m) {
            size_t q = (size_t)m * s;
            FV hx = VLOAD(px + q), hy = VLOAD(py + q), hz = VLOAD(pz + q);
            FV vx = hx - cx, vy = hy - cy, vz = hz - cz;
            FV along = VDOT(kx, ky, kz, vx, vy, vz) * (one - cosine);
            FV wx = vx * cosine + (ky * vz - kz * vy) * sine + kx * along;
            FV wy = vy * cosine + (kz * vx - kx * vz) * sine + ky * along;
            FV wz = vz * cosine + (kx * vy - ky * vx) * sine + kz * along;
            VSTORE(px + q, turns, cx + wx, hx);
            VSTORE(py + q, turns, cy + wy, hy);
            VSTORE(pz + q, turns, cz + wz, hz);
        }
    }
    /* The bones re-spaced from the root along their new directions, so that rounding in the
     * turns never builds up in the lengths. a: joint m − 1 re-spaced; o: where the sweep left
     * it. A joint on top of the one before it keeps the bone's swept vector, as the backward
     * pass does. */
    FV ax = VLOAD(px), ay = VLOAD(py), az = VLOAD(pz), ox = ax, oy = ay, oz = az;
    for (int m = 1; m <= n; ++m) {
        size_t q = (size_t)m * s;
        FV hx = VLOAD(px + q), hy = VLOAD(py + q), hz = VLOAD(pz + q), nx, ny, nz;
        FB_FN(_place)
        (ax, ay, az, hx, hy, hz, VLOAD(len + (size_t)(m - 1) * s), hx - ox, hy - oy, hz - oz, &nx, &ny, &nz);
        VSTORE(px + q, lanes, nx, hx);
        VSTORE(py + q, lanes, ny, hy);
        VSTORE(pz + q, lanes, nz, hz);
        ax = nx;
        ay = ny;
        az = nz;
        ox = hx;
        oy = hy;
        oz = hz;
    }
}

/* The folded bridge (see its use below) for the lanes in `lanes`; returns those it bridged. */
FB_TARGET static FM FB_FN(_fold_bridge)(const reach_real *len, size_t s, int n, FM lanes, FV rx, FV ry, FV rz,
                                        reach_real *px, reach_real *py, reach_real *pz) {
    const FV zero = {0}, largest = FB_SPLAT(FB_LARGEST);
    const FM none = {0};
    FM bridged = none, split = none, last = none;
    FV far_x = zero, far_y = zero, far_z = zero, hint_x = zero, hint_y = zero, hint_z = zero, first_run = zero,
       second_run = zero;
    FV total = VLOAD(len);
    for (int k = 2; k <= n; ++k) {
        total = total + VLOAD(len + (size_t)(k - 1) * s);
        /* The split m (1 … k − 1) whose first run A is nearest half of the total. */
        FV run = zero, best_gap = largest, best_run = zero;
        FM best = none;
        for (int m = 1; m < k; ++m) {
            run = run + VLOAD(len + (size_t)(m - 1) * s);
            FV gap = VABS((run + run) - total);
            FM nearer = FB_CMP(gap, <, best_gap);
            best_gap = VSEL(nearer, gap, best_gap);
            best_run = VSEL(nearer, run, best_run);
            best = MSEL(nearer, FB_MASK_SPLAT(m), best);
        }
        size_t r = (size_t)k * s;
        FV kx = VLOAD(px + r), ky = VLOAD(py + r), kz = VLOAD(pz + r);
        FV dx = kx - rx, dy = ky - ry, dz = kz - rz;
        FV d = FB_SQRT(VDOT(dx, dy, dz, dx, dy, dz));
        FM fits = lanes & ~bridged & FB_CMP(d, <=, total) & FB_CMP(d, >=, best_gap);
        if (!VANY(fits)) continue;
        for (int m = 1; m < k; ++m) {
            FM here = fits & FB_CMP(best, ==, FB_MASK_SPLAT(m));
            size_t q = (size_t)m * s;
            hint_x = VSEL(here, VLOAD(px + q), hint_x);
            hint_y = VSEL(here, VLOAD(py + q), hint_y);
            hint_z = VSEL(here, VLOAD(pz + q), hint_z);
        }
        far_x = VSEL(fits, kx, far_x);
        far_y = VSEL(fits, ky, far_y);
        far_z = VSEL(fits, kz, far_z);
        first_run = VSEL(fits, best_run, first_run);
        second_run = VSEL(fits, total - best_run, second_run);
        split = MSEL(fits, best, split);
        last = MSEL(fits, FB_MASK_SPLAT(k), last);
        bridged |= fits;
    }
    if (!VANY(bridged)) return none;
    /* A lane whose triangle cannot be closed at the first joint that fits (a degenerate one,
     * joint k on the root with equal runs) is not tried at later joints: the forward pass takes
     * it this iteration. */
    FV mx = hint_x, my = hint_y, mz = hint_z;
    bridged &= FB_FN(_close)(rx, ry, rz, far_x, far_y, far_z, hint_x, hint_y, hint_z, first_run, second_run, bridged,
                             &mx, &my, &mz);
    /* The two runs' unit directions: root to joint m, joint m to joint k. */
    FV ax = mx - rx, ay = my - ry, az = mz - rz, bx = far_x - mx, by = far_y - my, bz = far_z - mz;
    (void)FB_FN(_normalize)(&ax, &ay, &az);
    (void)FB_FN(_normalize)(&bx, &by, &bz);
    VSTORE(px, bridged, rx, VLOAD(px));
    VSTORE(py, bridged, ry, VLOAD(py));
    VSTORE(pz, bridged, rz, VLOAD(pz));
    FV run = zero;
    for (int j = 1; j < n; ++j) {
        size_t q = (size_t)j * s;
        run = run + VLOAD(len + (size_t)(j - 1) * s);
        FM on_first = bridged & FB_CMP(FB_MASK_SPLAT(j), <, split);
        FM at_split = bridged & FB_CMP(FB_MASK_SPLAT(j), ==, split);
        FM on_second = bridged & FB_CMP(FB_MASK_SPLAT(j), >, split) & FB_CMP(FB_MASK_SPLAT(j), <, last);
        FV beyond = run - first_run;
        FV x = VSEL(on_first, rx + ax * run, VSEL(at_split, mx, mx + bx * beyond));
        FV y = VSEL(on_first, ry + ay * run, VSEL(at_split, my, my + by * beyond));
        FV z = VSEL(on_first, rz + az * run, VSEL(at_split, mz, mz + bz * beyond));
        FM moves = on_first | at_split | on_second;
        VSTORE(px + q, moves, x, VLOAD(px + q));
        VSTORE(py + q, moves, y, VLOAD(py + q));
        VSTORE(pz + q, moves, z, VLOAD(pz + q));
    }
    return bridged;
}

/* One lane group of the solve. `j` rows below are joint indices; row r of an array starts at
 * r * stride. */
FB_TARGET static void FB_NAME(const fb_job *job, size_t i, reach_status *first_error) {
    const reach_fabrik_batch *b = job->batch;
    const size_t s = job->stride;
    const int n = job->bones;
    const FV zero = {0};
    const FM none = {0};
    reach_real *px = b->joints.x + i, *py = b->joints.y + i, *pz = b->joints.z + i;
    const reach_real *len = b->lengths + i;
    const FV min_square = FB_SPLAT(FB_MIN_SQUARE), largest = FB_SPLAT(FB_LARGEST), limit = FB_SPLAT(FB_LIMIT);

    /* ---- checks: nothing is written for a lane that fails one ---- */
    FV rx = VLOAD(b->root.x + i), ry = VLOAD(b->root.y + i), rz = VLOAD(b->root.z + i);
    FV tx = VLOAD(b->target.x + i), ty = VLOAD(b->target.y + i), tz = VLOAD(b->target.z + i);
    /* Each value is checked on its own: a NaN would vanish inside a running maximum. */
    FM finite = ~none;
    FV coords = zero;
#define FB_CHECK(v)                                                                                                    \
    do {                                                                                                               \
        FV magnitude_ = VABS(v);                                                                                       \
        finite &= FB_CMP(magnitude_, <=, largest);                                                                     \
        coords = VMAX(coords, magnitude_);                                                                             \
    } while (0)
    FB_CHECK(rx);
    FB_CHECK(ry);
    FB_CHECK(rz);
    FB_CHECK(tx);
    FB_CHECK(ty);
    FB_CHECK(tz);
    const FV extent = coords; /* roots and targets only: warm joints may lie anywhere */
    FV chain = zero, shortest = largest, longest = zero;
    for (int j = 0; j < n; ++j) {
        FV l = VLOAD(len + (size_t)j * s);
        finite &= FB_CMP(VABS(l), <=, largest);
        chain += l;
        shortest = VMIN(shortest, l);
        longest = VMAX(longest, l);
    }
    if (!job->cold) {
        for (int j = 0; j <= n; ++j) {
            size_t r = (size_t)j * s;
            FB_CHECK(VLOAD(px + r));
            FB_CHECK(VLOAD(py + r));
            FB_CHECK(VLOAD(pz + r));
        }
    }
#undef FB_CHECK
    FM not_finite = ~finite;
    FM zero_length = ~FB_CMP(shortest, >, zero) | FB_CMP(shortest, <, FB_SPLAT(FB_MIN_LENGTH)) |
                     FB_CMP(shortest, <, chain * REACH_ZERO_LENGTH_RATIO);
    FM out_of_range = FB_CMP(coords, >, limit) | FB_CMP(chain, >, limit);
    FM good = ~(not_finite | zero_length | out_of_range);

    FV tolerance = job->tolerance > 0 ? FB_SPLAT(job->tolerance) : chain * FB_DEFAULT_TOLERANCE_RATIO;
    tolerance = VMAX(tolerance, (extent + chain) * FB_TOLERANCE_FLOOR);
    const FV stall = tolerance * FB_STALL_RATIO;

    /* ---- the start ---- */
    if (job->cold) {
        FV cum = zero;
        for (int j = 0; j <= n; ++j) {
            size_t r = (size_t)j * s;
            VSTORE(px + r, good, rx + job->direction.x * cum, VLOAD(px + r));
            VSTORE(py + r, good, ry + job->direction.y * cum, VLOAD(py + r));
            VSTORE(pz + r, good, rz + job->direction.z * cum, VLOAD(pz + r));
            if (j < n) cum += VLOAD(len + (size_t)j * s);
        }
    } else {
        /* Settled: at the root, every bone its length to 64 ε. Others are re-spaced. */
        FV ax = VLOAD(px), ay = VLOAD(py), az = VLOAD(pz);
        FM settled = FB_CMP(ax, ==, rx) & FB_CMP(ay, ==, ry) & FB_CMP(az, ==, rz);
        for (int j = 0; j < n; ++j) {
            size_t r = (size_t)(j + 1) * s;
            FV bx = VLOAD(px + r), by = VLOAD(py + r), bz = VLOAD(pz + r);
            FV vx = bx - ax, vy = by - ay, vz = bz - az, l = VLOAD(len + (size_t)j * s);
            settled &= FB_CMP(VABS(FB_SQRT(VDOT(vx, vy, vz, vx, vy, vz)) - l), <=, l * FB_SETTLED_SLACK);
            ax = bx;
            ay = by;
            az = bz;
        }
        FM respace = good & ~settled;
        if (VANY(respace)) {
            FB_FN(_respace)
            (len, s, n, respace, rx, ry, rz, FB_SPLAT(job->direction.x), FB_SPLAT(job->direction.y),
             FB_SPLAT(job->direction.z), px, py, pz);
        }
    }

    const size_t end = (size_t)n * s;
#define FB_END_DISTANCE()                                                                                              \
    FB_SQRT(VDOT(VLOAD(px + end) - tx, VLOAD(py + end) - ty, VLOAD(pz + end) - tz, VLOAD(px + end) - tx,               \
                 VLOAD(py + end) - ty, VLOAD(pz + end) - tz))
    FV error = FB_END_DISTANCE();
    FM done = ~good | FB_CMP(error, <=, tolerance);
    FM iterations = none;

    /* ---- out of reach: straight toward the target, one iteration ---- */
    FV gx = tx - rx, gy = ty - ry, gz = tz - rz;
    FV gap = FB_SQRT(VDOT(gx, gy, gz, gx, gy, gz));
    FM far = ~done & FB_CMP(gap, >=, chain);
    /* Strictly inside the shell the chain's end can reach: the only targets a bend may help. */
    const FM within_reach = FB_CMP(gap, <, chain) & FB_CMP(gap, >, (longest + longest) - chain);
    if (job->max_iterations > 0 && VANY(far)) {
        FV inv = FB_SPLAT(1) / VMAX(gap, min_square);
        FV ux = gx * inv, uy = gy * inv, uz = gz * inv, cum = zero;
        for (int j = 0; j <= n; ++j) {
            size_t r = (size_t)j * s;
            VSTORE(px + r, far, rx + ux * cum, VLOAD(px + r));
            VSTORE(py + r, far, ry + uy * cum, VLOAD(py + r));
            VSTORE(pz + r, far, rz + uz * cum, VLOAD(pz + r));
            if (j < n) cum += VLOAD(len + (size_t)j * s);
        }
        error = VSEL(far, FB_END_DISTANCE(), error);
        iterations = MSEL(far, FB_MASK_SPLAT(1), iterations);
        done |= far;
    }

    /* ---- the iterations ---- */
    FM kicks = none, polishing = none;
    FV previous = error, checkpoint = error;
    for (int it = 0; it < job->max_iterations; ++it) {
        const FM active = ~done;
        if (!VANY(active)) break;
        /* Lanes that polish alternate: a CCD sweep on odd iterations, FABRIK's passes (and their
         * bridges) on even ones. Sweeps alone only move downhill and stick near the inside of
         * the reach, where the passes still find a way; the passes alone crawl. */
        const FM sweeping = (it & 1) ? polishing : none;
        const FM passes = active & ~sweeping; /* the lanes FABRIK's passes move this iteration */

        /* Backward: the end onto the target, each joint one bone from the joint above it on
         * the line toward where it was; a joint on top of that one keeps its bone's direction. */
        FV nx = tx, ny = ty, nz = tz;
        FV ox = VLOAD(px + end), oy = VLOAD(py + end), oz = VLOAD(pz + end);
        VSTORE(px + end, passes, tx, ox);
        VSTORE(py + end, passes, ty, oy);
        VSTORE(pz + end, passes, tz, oz);
        for (int j = n - 1; j >= 0; --j) {
            size_t r = (size_t)j * s;
            FV cx = VLOAD(px + r), cy = VLOAD(py + r), cz = VLOAD(pz + r), qx, qy, qz;
            FB_FN(_place)(nx, ny, nz, cx, cy, cz, VLOAD(len + (size_t)j * s), cx - ox, cy - oy, cz - oz, &qx, &qy, &qz);
            VSTORE(px + r, passes, qx, cx);
            VSTORE(py + r, passes, qy, cy);
            VSTORE(pz + r, passes, qz, cz);
            ox = cx;
            oy = cy;
            oz = cz;
            nx = qx;
            ny = qy;
            nz = qz;
        }

        /* The bridge from the root: the first joint k the backward pass left where bones
         * 0 … k − 1 reach it from the root, bones 0 … k − 2 straight and bone k − 1 closing the
         * triangle. From k on the chain lies as the backward pass left it, ending on the
         * target, so such a lane reaches in this iteration. (k = 2 is the two-bone closing
         * step the forward pass takes at every joint.) */
        FM bridged = none, split = none; /* split: the straight part's last joint */
        FV far_x = zero, far_y = zero, far_z = zero, mid_x = zero, mid_y = zero, mid_z = zero, straight = zero,
           closing = zero;
        {
            FV run = VLOAD(len);
            FV qx = VLOAD(px + s), qy = VLOAD(py + s), qz = VLOAD(pz + s);
            for (int k = 2; k <= n; ++k) {
                size_t r = (size_t)k * s;
                FV last = VLOAD(len + (size_t)(k - 1) * s), total = run + last;
                FV kx = VLOAD(px + r), ky = VLOAD(py + r), kz = VLOAD(pz + r);
                FV dx = kx - rx, dy = ky - ry, dz = kz - rz;
                FV d = FB_SQRT(VDOT(dx, dy, dz, dx, dy, dz));
                FM fits = ~bridged & FB_CMP(d, <=, total) & FB_CMP(d, >=, VABS(run - last));
                far_x = VSEL(fits, kx, far_x);
                far_y = VSEL(fits, ky, far_y);
                far_z = VSEL(fits, kz, far_z);
                mid_x = VSEL(fits, qx, mid_x);
                mid_y = VSEL(fits, qy, mid_y);
                mid_z = VSEL(fits, qz, mid_z);
                straight = VSEL(fits, run, straight);
                closing = VSEL(fits, last, closing);
                split = MSEL(fits, FB_MASK_SPLAT(k - 1), split);
                bridged |= fits;
                run = total;
                qx = kx;
                qy = ky;
                qz = kz;
            }
        }
        bridged &= passes;
        if (VANY(bridged)) {
            FV mx = mid_x, my = mid_y, mz = mid_z;
            bridged &= FB_FN(_close)(rx, ry, rz, far_x, far_y, far_z, mid_x, mid_y, mid_z, straight, closing, bridged,
                                     &mx, &my, &mz);
            FV vx = mx - rx, vy = my - ry, vz = mz - rz;
            FV inv = FB_SPLAT(1) / FB_SQRT(VMAX(VDOT(vx, vy, vz, vx, vy, vz), min_square));
            FV ux = vx * inv, uy = vy * inv, uz = vz * inv, run = zero;
            VSTORE(px, bridged, rx, VLOAD(px));
            VSTORE(py, bridged, ry, VLOAD(py));
            VSTORE(pz, bridged, rz, VLOAD(pz));
            for (int j = 1; j <= n; ++j) {
                size_t r = (size_t)j * s;
                run += VLOAD(len + (size_t)(j - 1) * s);
                FM on_straight = bridged & FB_CMP(FB_MASK_SPLAT(j), <=, split);
                VSTORE(px + r, on_straight, rx + ux * run, VLOAD(px + r));
                VSTORE(py + r, on_straight, ry + uy * run, VLOAD(py + r));
                VSTORE(pz + r, on_straight, rz + uz * run, VLOAD(pz + r));
            }
        }

        /* The folded bridge, for lanes the bridge above left: a chain that must fold back on
         * itself (a long bone, then short ones, the target near the inside of its reach) fits
         * no straight run. There the first joint k that bones 0 … k − 1 reach as two straight
         * runs, 0 … m − 1 and m … k − 1, split where the two runs are nearest equal (the
         * narrowest gap |A − B| a pair of runs leaves inside): joint m closes the triangle on
         * the side where the backward pass left it, the runs lie straight either side. */
        FM folded = passes & ~bridged;
        if (VANY(folded)) folded = FB_FN(_fold_bridge)(len, s, n, folded, rx, ry, rz, px, py, pz);

        /* Forward, for the others: the root back in place; each bone aimed where the next can
         * close onto the joint after it as the backward pass left it (two circles' crossing, on
         * the side of where the backward pass put the joint between), else at where that pass
         * put its end. */
        const FM forward = passes & ~bridged & ~folded;
        FV ax = rx, ay = ry, az = rz;
        FV bx = VLOAD(px), by = VLOAD(py), bz = VLOAD(pz); /* the backward pass's joint j */
        VSTORE(px, forward, rx, bx);
        VSTORE(py, forward, ry, by);
        VSTORE(pz, forward, rz, bz);
        for (int j = 0; j < n && VANY(forward); ++j) {
            size_t r = (size_t)(j + 1) * s;
            FV hx = VLOAD(px + r), hy = VLOAD(py + r), hz = VLOAD(pz + r);
            FV la = VLOAD(len + (size_t)j * s);
            FV mx = hx, my = hy, mz = hz; /* the aim */
            if (j + 1 < n) {
                size_t r2 = r + s;
                FV lb = VLOAD(len + (size_t)(j + 1) * s);
                FB_FN(_close)
                (ax, ay, az, VLOAD(px + r2), VLOAD(py + r2), VLOAD(pz + r2), hx, hy, hz, la, lb, forward, &mx, &my,
                 &mz);
            }
            /* An aim on the joint itself: the bone keeps the direction the backward pass gave it. */
            FV nx2, ny2, nz2;
            FB_FN(_place)(ax, ay, az, mx, my, mz, la, hx - bx, hy - by, hz - bz, &nx2, &ny2, &nz2);
            VSTORE(px + r, forward, nx2, hx);
            VSTORE(py + r, forward, ny2, hy);
            VSTORE(pz + r, forward, nz2, hz);
            bx = hx;
            by = hy;
            bz = hz;
            ax = nx2;
            ay = ny2;
            az = nz2;
        }

        if (VANY(active & sweeping)) FB_FN(_ccd_sweep)(len, s, n, active & sweeping, px, py, pz, tx, ty, tz);

        iterations -= active;
        error = VSEL(active, FB_END_DISTANCE(), error);
        FM reached = FB_CMP(error, <=, tolerance);
        FV threshold = VMAX(stall, VMAX(previous, error) * FB_NOISE_RATIO);
        FM stalled = active & ~reached & ~FB_CMP(VABS(previous - error), >, threshold);
        /* A bend needs an iteration after it, and only helps a target the chain could reach. */
        FM kick = stalled & within_reach & FB_CMP(kicks, <, FB_MASK_SPLAT(FB_MAX_KICKS));
        if (it + 1 >= job->max_iterations) kick = none;
        done |= active & (reached | (stalled & ~kick));
        /* A lane crawling (its error not halved over a window) or, under a cap of two windows or
         * more, with half its iterations gone polishes from then on: CCD sweeps between FABRIK's
         * passes (the single-chain solver polishes with CCD too, by its own rule). Under a
         * smaller cap a sweep would take the place of a pass that does more. */
        if ((it + 1) % FB_CRAWL_WINDOW == 0) {
            polishing |= active & ~reached & FB_CMP(error, >, checkpoint * FB_SPLAT(REACH_R(0.5)));
            checkpoint = VSEL(active, error, checkpoint);
        }
        if (job->max_iterations >= 2 * FB_CRAWL_WINDOW && it + 1 >= job->max_iterations - (it + 1))
            polishing |= active & ~reached;
        if (VANY(kick)) {
            /* Bend every bone about one axis across the line to the target, bone j by (j + 1)
             * times the angle, so a chain stuck on that line leaves it. */
            FV lx = gx, ly = gy, lz = gz, l2 = VDOT(gx, gy, gz, gx, gy, gz);
            FM on_root = ~FB_CMP(l2, >, min_square);
            lx = VSEL(on_root, FB_SPLAT(job->direction.x), lx);
            ly = VSEL(on_root, FB_SPLAT(job->direction.y), ly);
            lz = VSEL(on_root, FB_SPLAT(job->direction.z), lz);
            FV inv = FB_SPLAT(1) / FB_SQRT(VDOT(lx, ly, lz, lx, ly, lz));
            FV kx, ky, kz;
            FB_FN(_across)(lx * inv, ly * inv, lz * inv, &kx, &ky, &kz);
            FV qx = VLOAD(px), qy = VLOAD(py), qz = VLOAD(pz); /* the old joint j */
            ax = qx;
            ay = qy;
            az = qz;
            for (int j = 0; j < n; ++j) {
                size_t r = (size_t)(j + 1) * s;
                reach_real turn = job->kick_angle * (reach_real)(j + 1);
                FV c = FB_SPLAT(reach_cos(turn)), sn = FB_SPLAT(reach_sin(turn));
                FV hx = VLOAD(px + r), hy = VLOAD(py + r), hz = VLOAD(pz + r);
                FV vx = hx - qx, vy = hy - qy, vz = hz - qz;
                FV along = VDOT(kx, ky, kz, vx, vy, vz) * (FB_SPLAT(1) - c);
                FV wx = vx * c + (ky * vz - kz * vy) * sn + kx * along;
                FV wy = vy * c + (kz * vx - kx * vz) * sn + ky * along;
                FV wz = vz * c + (kx * vy - ky * vx) * sn + kz * along;
                ax = ax + wx;
                ay = ay + wy;
                az = az + wz;
                VSTORE(px + r, kick, ax, hx);
                VSTORE(py + r, kick, ay, hy);
                VSTORE(pz + r, kick, az, hz);
                qx = hx;
                qy = hy;
                qz = hz;
            }
            kicks -= kick;
            error = VSEL(kick, FB_END_DISTANCE(), error);
        }
        previous = VSEL(active, error, previous);
    }
#undef FB_END_DISTANCE

    /* ---- per-lane outputs ---- */
    reach_real lane_error[FB_WIDTH];
    fb_lane_int lane_iterations[FB_WIDTH], lane_good[FB_WIDTH], lane_not_finite[FB_WIDTH], lane_range[FB_WIDTH];
    fb_lane_int lane_reached[FB_WIDTH];
    FM reached = FB_CMP(error, <=, tolerance);
    FB_SPILL(lane_error, error);
    FB_SPILL(lane_iterations, iterations);
    FB_SPILL(lane_good, good);
    FB_SPILL(lane_not_finite, not_finite);
    FB_SPILL(lane_range, out_of_range);
    FB_SPILL(lane_reached, reached);
    for (int k = 0; k < FB_WIDTH; ++k) {
        size_t lane = i + (size_t)k;
        reach_status st = lane_good[k]         ? REACH_OK
                          : lane_not_finite[k] ? REACH_ERROR_NOT_FINITE
                          : lane_range[k]      ? REACH_ERROR_OUT_OF_RANGE
                                               : REACH_ERROR_ZERO_LENGTH;
        if (st != REACH_OK && *first_error == REACH_OK) *first_error = st;
        if (b->out_status) b->out_status[lane] = (unsigned char)st;
        if (b->out_residual) b->out_residual[lane] = st == REACH_OK ? lane_error[k] : FB_LARGEST;
        if (b->out_reached) b->out_reached[lane] = (unsigned char)(st == REACH_OK && lane_reached[k]);
        if (b->out_iterations) b->out_iterations[lane] = st == REACH_OK ? (int)lane_iterations[k] : 0;
    }
}

#undef VLOAD
#undef VSEL
#undef MSEL
#undef VSTORE
#undef VANY
#undef VMIN
#undef VMAX
#undef VABS
#undef VDOT
#undef FB_CMP
#undef FB_SPLAT
#undef FB_MASK_SPLAT
#undef FB_SPILL
#undef FV
#undef FM
#undef FB_WIDTH
#undef FB_NAME
#undef FB_TARGET
#undef FB_BYTES
#undef FB_SQRT
