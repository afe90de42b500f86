/* The vector kernel of the batch rig two-bone solve, written once with GCC/clang vector
 * extensions and instantiated per instruction set by two_bone_rig_batch.c, which defines before
 * including this file:
 *   KERNEL_NAME    the function's name
 *   KERNEL_TARGET  a function attribute selecting the instruction set (may be empty)
 *   KERNEL_BYTES   the vector width in bytes
 *   KERNEL_SQRT(v) the vector square root for that instruction set
 * Each lane runs solve_rig_ordinary's arithmetic (two_bone_rig.c: the solve in the root joint's
 * frame) on one limb, with the same tests for the lanes it declines; a group whose lanes are all
 * ordinary is stored as it is, and every other lane goes to the scalar solve (rig_solve_lane) alone.
 * Every lane goes through the same operations wherever it sits (a short group is padded with
 * copies of its last limb), so a limb's bits do not depend on how a batch is sliced. */

#ifndef RIG_KERNEL_JOIN
#define RIG_KERNEL_JOIN2(a, b) a##b
#define RIG_KERNEL_JOIN(a, b)  RIG_KERNEL_JOIN2(a, b)
#endif
#define RF(name) RIG_KERNEL_JOIN(KERNEL_NAME, name)
#define RV       RF(_vec)
#define RM       RF(_mask)
#define RV3      RF(_vec3)
#define RQ       RF(_quat)
#define RR       RF(_result)
#define RWIDTH   ((int)(KERNEL_BYTES / sizeof(reach_real)))

/* Rows of RWIDTH words must fit in a limb and in an output: the last row of each overlaps the one
 * before it inside the struct rather than running past it. */
_Static_assert(RIG_WORDS >= RWIDTH, "a limb holds a row of the kernel's width");
_Static_assert(RIG_OUT_WORDS >= RWIDTH, "an output holds a row of the kernel's width");
/* A flag's int is read from, and `reached` written to, the low-addressed bytes of its word. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the vector kernels are built little-endian only");

typedef reach_real RV __attribute__((vector_size(KERNEL_BYTES)));
typedef rig_lane_int RM __attribute__((vector_size(KERNEL_BYTES)));
typedef struct RV3 {
    RV x, y, z;
} RV3;
typedef struct RQ {
    RV x, y, z, w;
} RQ;

/* m ? a : b, lane by lane. */
KERNEL_TARGET static inline RV RF(_select)(RM m, RV a, RV b) { return (RV)((m & (RM)a) | (~m & (RM)b)); }
KERNEL_TARGET static inline RV RF(_min)(RV a, RV b) { return RF(_select)(a < b, a, b); }
KERNEL_TARGET static inline RV RF(_max)(RV a, RV b) { return RF(_select)(a > b, a, b); }
KERNEL_TARGET static inline RV RF(_abs)(RV a) {
    const RV zero = {0};
    return (RV)((RM)a & ~(RM)(-zero));
}
KERNEL_TARGET static inline RV RF(_sqrt)(RV a) { return (RV)KERNEL_SQRT(a); }

KERNEL_TARGET static inline RV3 RF(_add)(RV3 a, RV3 b) { return (RV3){a.x + b.x, a.y + b.y, a.z + b.z}; }
KERNEL_TARGET static inline RV3 RF(_sub)(RV3 a, RV3 b) { return (RV3){a.x - b.x, a.y - b.y, a.z - b.z}; }
KERNEL_TARGET static inline RV3 RF(_scale)(RV3 a, RV s) { return (RV3){a.x * s, a.y * s, a.z * s}; }
/* a + b·s */
KERNEL_TARGET static inline RV3 RF(_mad)(RV3 a, RV3 b, RV s) {
    return (RV3){a.x + b.x * s, a.y + b.y * s, a.z + b.z * s};
}
KERNEL_TARGET static inline RV RF(_dot)(RV3 a, RV3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
KERNEL_TARGET static inline RV3 RF(_cross)(RV3 a, RV3 b) {
    return (RV3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
KERNEL_TARGET static inline RV3 RF(_axis)(RQ q) { return (RV3){q.x, q.y, q.z}; }
KERNEL_TARGET static inline RQ RF(_conjugate)(RQ q) { return (RQ){-q.x, -q.y, -q.z, q.w}; }
KERNEL_TARGET static inline RQ RF(_qscale)(RQ q, RV s) { return (RQ){q.x * s, q.y * s, q.z * s, q.w * s}; }
KERNEL_TARGET static inline RV RF(_qdot)(RQ a, RQ b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
/* a·b, b applied first (reach_quat_mul). */
KERNEL_TARGET static inline RQ RF(_qmul)(RQ a, RQ b) {
    return (RQ){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
/* q v q* as v + w·t + q × t with t = 2 q × v (packed_quat_rotate's steps). */
KERNEL_TARGET static inline RV3 RF(_rotate)(RQ q, RV3 v) {
    RV3 t = RF(_cross)(RF(_axis)(q), v);
    t = RF(_add)(t, t);
    return RF(_add)(RF(_mad)(v, t, q.w), RF(_cross)(RF(_axis)(q), t));
}
/* The parent's linear map of v, columns cols: (c0·x + c1·y) + c2·z. */
KERNEL_TARGET static inline RV3 RF(_linear)(const RV3 cols[3], RV3 v) {
    return RF(_add)(RF(_add)(RF(_scale)(cols[0], v.x), RF(_scale)(cols[1], v.y)), RF(_scale)(cols[2], v.z));
}
/* v into the parent's space by the adjugate's rows and 1/det. */
KERNEL_TARGET static inline RV3 RF(_into_parent)(const RV3 rows[3], RV3 v, RV inverse_det) {
    return RF(_scale)((RV3){RF(_dot)(rows[0], v), RF(_dot)(rows[1], v), RF(_dot)(rows[2], v)}, inverse_det);
}

/* The interleaves of the transposes below: the low halves of a and b lane by lane, and the
 * high halves. */
#ifdef REACH_DOUBLE
#define RIG_LANES (KERNEL_BYTES / 8)
#else
#define RIG_LANES (KERNEL_BYTES / 4)
#endif
/* Two vectors' lanes picked by index: __builtin_shufflevector where the compiler has it (clang,
 * GCC 12 and later), GCC's older __builtin_shuffle, which takes the indices as a vector of
 * integers of the lanes' size, before. */
#ifndef RIG_SHUFFLE
#if defined(__clang__) || __GNUC__ >= 12
#define RIG_SHUFFLE(a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define RIG_SHUFFLE(a, b, ...) __builtin_shuffle(a, b, (RM){__VA_ARGS__})
#endif
#endif
#if RIG_LANES == 2
#define RIG_LOW  0, 2
#define RIG_HIGH 1, 3
#elif RIG_LANES == 4
#define RIG_LOW  0, 4, 1, 5
#define RIG_HIGH 2, 6, 3, 7
#elif RIG_LANES == 8
#define RIG_LOW  0, 8, 1, 9, 2, 10, 3, 11
#define RIG_HIGH 4, 12, 5, 13, 6, 14, 7, 15
#else
#define RIG_LOW  0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23
#define RIG_HIGH 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31
#endif

/* v[k] (RWIDTH words of limb k) turned into v[j] (word j of every limb): each round interleaves
 * the first half of the rows with the second, and log2(RWIDTH) such rounds transpose. */
KERNEL_TARGET static inline __attribute__((always_inline)) void RF(_transpose)(RV v[RWIDTH]) {
    /* Unrolled, so that every row stays in a register: a loop here keeps them on the stack. */
#pragma GCC unroll 4
    for (int round = 1; round < RWIDTH; round *= 2) {
        RV t[RWIDTH];
#pragma GCC unroll 8
        for (int i = 0; i < RWIDTH / 2; ++i) {
            t[2 * i] = RIG_SHUFFLE(v[i], v[i + RWIDTH / 2], RIG_LOW);
            t[2 * i + 1] = RIG_SHUFFLE(v[i], v[i + RWIDTH / 2], RIG_HIGH);
        }
#pragma GCC unroll 16
        for (int i = 0; i < RWIDTH; ++i)
            v[i] = t[i];
    }
}

/* Every word (RIG_WORDS of them, each a reach_real's size, the flags' included) of RWIDTH
 * consecutive limbs, word w of limb k in lane k of words[w]: whole rows of RWIDTH words loaded
 * and transposed, the last row overlapping the one before it so as not to read past a limb.
 * Measured against scalar inserts (which compilers build through integer registers, 384
 * instructions a limb on AVX2) and the hardware's gathers: docs/performance.md. */
KERNEL_TARGET static inline __attribute__((always_inline)) void RF(_words)(const reach_two_bone_rig_input *limbs,
                                                                           RV words[RIG_WORDS]) {
#pragma GCC unroll 24
    for (int first = 0; first < RIG_WORDS; first += RWIDTH) {
        const int row = RIG_WORDS - first >= RWIDTH ? first : RIG_WORDS - RWIDTH;
        RV v[RWIDTH];
#pragma GCC unroll 16
        for (int k = 0; k < RWIDTH; ++k)
            memcpy(&v[k], (const char *)(limbs + k) + (size_t)row * sizeof(reach_real), sizeof v[k]);
        RF(_transpose)(v);
#pragma GCC unroll 16
        for (int j = 0; j < RWIDTH; ++j)
            words[row + j] = v[j];
    }
}
#define RWORD(member)  words[offsetof(reach_two_bone_rig_input, member) / sizeof(reach_real)]
#define RLOAD3(member) ((RV3){RWORD(member.x), RWORD(member.y), RWORD(member.z)})
#define RLOADQ(member) ((RQ){RWORD(member.x), RWORD(member.y), RWORD(member.z), RWORD(member.w)})
/* A flag's int sits in the low bytes of its word (the rest, in double, is padding). */
#define RFLAG(member) (((RM)RWORD(member) & RIG_FLAG_BITS) != 0)

/* A group's answer: each lane's outputs, and the lanes solved here (all ones) or declined. */
typedef struct RR {
    RQ root_rotation, mid_rotation, end_rotation;
    RV3 mid_translation, end_translation, mid, end;
    RV residual;
    RM reached, ok;
} RR;

/* solve_rig_ordinary on the limbs [0, RWIDTH) of `limbs`. Lanes outside `ok` may hold anything,
 * NaN included; they are not stored. */
KERNEL_TARGET static inline __attribute__((always_inline)) RR RF(_group)(const reach_two_bone_rig_input *limbs,
                                                                         reach_real tolerance) {
    const RV zero = {0}, one = zero + 1;
    RR r;
    RV words[RIG_WORDS];
    RF(_words)(limbs, words);
    RQ r_root = RLOADQ(root_local.rotation), r_mid = RLOADQ(mid_local.rotation);
    RQ r_end = RLOADQ(end_local.rotation);
    const RV root_q_sq = RF(_qdot)(r_root, r_root), mid_q_sq = RF(_qdot)(r_mid, r_mid);
    const RV end_q_sq = RF(_qdot)(r_end, r_end);
    /* Every comparison fails for NaN, so a lane with NaN or infinity where it is read fails. */
    RM ok = (root_q_sq > RIG_MIN_PLAIN_SQUARE) & (root_q_sq < RIG_MAX_PLAIN_SQUARE) &
            (mid_q_sq > RIG_MIN_PLAIN_SQUARE) & (mid_q_sq < RIG_MAX_PLAIN_SQUARE) & (end_q_sq > RIG_MIN_PLAIN_SQUARE) &
            (end_q_sq < RIG_MAX_PLAIN_SQUARE);
    ok &= ~RFLAG(use_end_orientation);
    const RM use_pole = RFLAG(use_pole);

    const RV3 cols[3] = {RLOAD3(parent_world.linear.col[0]), RLOAD3(parent_world.linear.col[1]),
                         RLOAD3(parent_world.linear.col[2])};
    const RV3 rows[3] = {RF(_cross)(cols[1], cols[2]), RF(_cross)(cols[2], cols[0]), RF(_cross)(cols[0], cols[1])};
    const RV det = RF(_dot)(cols[0], rows[0]), det_abs = RF(_abs)(det);
    ok &= (det_abs >= RIG_MIN_DETERMINANT) & (det_abs <= RIG_MAX_DETERMINANT);
    const RV inverse_det = one / det;

    const RV3 root = RLOAD3(root_local.translation), upper = RLOAD3(mid_local.translation);
    const RV3 end_translation = RLOAD3(end_local.translation);
    r.mid_translation = upper;
    r.end_translation = end_translation;
    const RV l1_sq = RF(_dot)(upper, upper), l2_sq = RF(_dot)(end_translation, end_translation);
    ok &= (l1_sq >= RIG_MIN_SQUARE) & (l1_sq <= RIG_MAX_SQUARE) & (l2_sq >= RIG_MIN_SQUARE) & (l2_sq <= RIG_MAX_SQUARE);
    const RV l1 = RF(_sqrt)(l1_sq), l2 = RF(_sqrt)(l2_sq), chain = l1 + l2;
    ok &= RF(_min)(l1, l2) > REACH_ZERO_LENGTH_RATIO * chain;
    const RV root_extent = RF(_max)(RF(_max)(RF(_abs)(root.x), RF(_abs)(root.y)), RF(_abs)(root.z));
    ok &= chain >= RIG_RESOLUTION_ULPS * REACH_REAL_EPSILON * (root_extent + chain);
    r_root = RF(_qscale)(r_root, one / RF(_sqrt)(root_q_sq));
    r_mid = RF(_qscale)(r_mid, one / RF(_sqrt)(mid_q_sq));
    r_end = RF(_qscale)(r_end, one / RF(_sqrt)(end_q_sq));
    const RQ unturn_root = RF(_conjugate)(r_root);
    const RV3 lower = RF(_rotate)(r_mid, end_translation);

    const RV3 world_root = RF(_add)(RF(_linear)(cols, root), RLOAD3(parent_world.translation));
    const RV3 world_to_target = RF(_sub)(RLOAD3(target), world_root);
    const RV3 to_target = RF(_rotate)(unturn_root, RF(_into_parent)(rows, world_to_target, inverse_det));
    const RV d_sq = RF(_dot)(to_target, to_target);
    ok &= (d_sq >= RIG_MIN_SQUARE) & (d_sq <= RIG_MAX_SQUARE);
    const RV scale_sq = one / d_sq, d = RF(_sqrt)(d_sq), scale = d * scale_sq;

    /* The bend side: toward the pole where the limb has one (a pole the short path would not
     * take, on the root or outside the range, goes to the scalar solve), the knee's side
     * otherwise. Both are formed; each lane keeps its own. */
    const RV3 world_pole_side = RF(_sub)(RLOAD3(pole), world_root);
    const RV3 pole_side = RF(_rotate)(unturn_root, RF(_into_parent)(rows, world_pole_side, inverse_det));
    const RV pole_sq = RF(_dot)(pole_side, pole_side);
    ok &= ~use_pole | ((pole_sq >= RIG_MIN_SQUARE) & (pole_sq <= RIG_MAX_SQUARE));
    const RV3 aim = RF(_add)(upper, lower);
    const RV aim_sq = RF(_dot)(aim, aim);
    ok &= use_pole | (aim_sq >= RIG_CLEAR_SIDE_SQUARE_RATIO * chain * chain);
    const RV along_aim = -RF(_dot)(upper, aim) / aim_sq;
    const RV3 world_upper = RF(_linear)(cols, RF(_rotate)(r_root, upper));
    const RV3 world_lower = RF(_linear)(cols, RF(_rotate)(r_root, lower));
    const RV3 knee_side = RF(_mad)(upper, aim, along_aim);
    const RV3 world_knee_side = RF(_mad)(world_upper, RF(_add)(world_upper, world_lower), along_aim);
    const RV3 side = {RF(_select)(use_pole, pole_side.x, knee_side.x), RF(_select)(use_pole, pole_side.y, knee_side.y),
                      RF(_select)(use_pole, pole_side.z, knee_side.z)};
    const RV3 world_side = {RF(_select)(use_pole, world_pole_side.x, world_knee_side.x),
                            RF(_select)(use_pole, world_pole_side.y, world_knee_side.y),
                            RF(_select)(use_pole, world_pole_side.z, world_knee_side.z)};
    const RV side_scale_sq = RF(_select)(use_pole, pole_sq, l1_sq);

    const RV along_target = -RF(_dot)(side, to_target) * scale_sq;
    const RV3 off_line = RF(_mad)(side, to_target, along_target);
    const RV off_line_sq = RF(_dot)(off_line, off_line);
    ok &= off_line_sq >= RIG_CLEAR_SIDE_SQUARE_RATIO * side_scale_sq;
    const RV inverse_off_line = RF(_sqrt)(off_line_sq) * (one / off_line_sq);

    /* two_bone_triangle, lane by lane. */
    const RV gap = RF(_abs)(l1 - l2);
    const RV dc = RF(_min)(RF(_max)(d, gap), chain);
    const RM upper_longer = l1_sq >= l2_sq, stretched = dc >= chain, straight_or_folded = stretched | (dc <= gap);
    const RV near = RF(_select)(upper_longer, l2, l1), far = RF(_select)(upper_longer, l1, l2);
    RV foot = (d_sq + (near - far) * (near + far)) * (d * (REACH_R(0.5) * scale_sq));
    foot = RF(_min)(RF(_max)(foot, -near), near);
    RV a = RF(_select)(upper_longer, dc - foot, foot);
    RV h = RF(_sqrt)(RF(_max)((near - foot) * (near + foot), zero));
    a = RF(_select)(straight_or_folded, RF(_select)(stretched | upper_longer, l1, -l1), a);
    h = RF(_select)(straight_or_folded, zero, h);

    const RV height = h * inverse_off_line;
    const RV3 new_upper = RF(_mad)(RF(_scale)(to_target, a * scale), off_line, height);
    const RV3 new_lower = RF(_sub)(RF(_scale)(to_target, dc * scale), new_upper);

    /* The two arcs and the inverse of the root's by Rodrigues' formula, as solve_rig_ordinary
     * builds them; arcs near a half turn go to the scalar solve. */
    const RV inverse_l1_sq = one / l1_sq, inverse_l2_sq = one / l2_sq;
    const RV3 root_sum = RF(_add)(upper, new_upper);
    const RV root_c = REACH_R(0.5) * RF(_dot)(root_sum, root_sum);
    ok &= root_c > RIG_NEAR_HALF_TURN_RATIO * l1_sq;
    const RV3 axis = RF(_cross)(upper, root_sum);
    const RV3 kv = RF(_cross)(axis, new_lower);
    const RQ root_turn = RF(_qscale)((RQ){axis.x, axis.y, axis.z, root_c}, inverse_l1_sq);
    const RV3 wanted_lower =
        RF(_mad)(RF(_mad)(new_lower, kv, -inverse_l1_sq), RF(_cross)(axis, kv), inverse_l1_sq / root_c);
    const RV3 mid_sum = RF(_add)(lower, wanted_lower);
    const RV mid_c = REACH_R(0.5) * RF(_dot)(mid_sum, mid_sum);
    ok &= mid_c > RIG_NEAR_HALF_TURN_RATIO * l2_sq;
    const RV3 mid_axis = RF(_cross)(lower, mid_sum);
    const RQ mid_turn = RF(_qscale)((RQ){mid_axis.x, mid_axis.y, mid_axis.z, mid_c}, inverse_l2_sq);

    const RQ new_mid = RF(_qmul)(mid_turn, r_mid);
    const RQ new_root = RF(_qmul)(r_root, root_turn);
    const RQ new_end =
        RF(_qmul)(RF(_conjugate)(new_mid), RF(_qmul)(RF(_conjugate)(root_turn), RF(_qmul)(r_mid, r_end)));
    r.root_rotation = RF(_qscale)(new_root, one / RF(_sqrt)(RF(_qdot)(new_root, new_root)));
    r.mid_rotation = RF(_qscale)(new_mid, one / RF(_sqrt)(RF(_qdot)(new_mid, new_mid)));
    r.end_rotation = RF(_qscale)(new_end, one / RF(_sqrt)(RF(_qdot)(new_end, new_end)));

    r.mid = RF(_add)(world_root,
                     RF(_mad)(RF(_scale)(world_to_target, a * scale + along_target * height), world_side, height));
    r.end = RF(_mad)(world_root, world_to_target, dc * scale);
    const RV world_sq = RF(_dot)(r.mid, r.mid) + RF(_dot)(r.end, r.end);
    ok &= world_sq - world_sq == zero;

    /* The residual and the tolerance's lengths by plain square roots: lanes whose squares lie
     * where solve_rig_ordinary would take the robust route go to the scalar solve. */
    const RV target_sq = RF(_dot)(world_to_target, world_to_target);
    const RV world_upper_sq = RF(_dot)(world_upper, world_upper), world_lower_sq = RF(_dot)(world_lower, world_lower);
    const RM moved = dc != d;
    ok &= ~moved | ((target_sq > RIG_MIN_PLAIN_SQUARE) & (target_sq < RIG_MAX_PLAIN_SQUARE) &
                    (world_upper_sq > RIG_MIN_PLAIN_SQUARE) & (world_upper_sq < RIG_MAX_PLAIN_SQUARE) &
                    (world_lower_sq > RIG_MIN_PLAIN_SQUARE) & (world_lower_sq < RIG_MAX_PLAIN_SQUARE));
    r.residual = RF(_select)(moved, RF(_sqrt)(target_sq) * (RF(_abs)(d - dc) * scale), zero);
    const RV tolerance_of_chain =
        REACH_DEFAULT_TOLERANCE_RATIO * (RF(_sqrt)(world_upper_sq) + RF(_sqrt)(world_lower_sq));
    const RV lane_tolerance = tolerance > 0 ? zero + tolerance : tolerance_of_chain;
    r.reached = ~moved | (r.residual <= lane_tolerance);
    r.ok = ok;
    return r;
}

/* Lane k of a group's answer into out. */
KERNEL_TARGET static inline void RF(_store_lane)(const RR *r, int k, reach_two_bone_rig_output *out) {
    out->root_rotation =
        reach_quat_make(r->root_rotation.x[k], r->root_rotation.y[k], r->root_rotation.z[k], r->root_rotation.w[k]);
    out->mid_rotation =
        reach_quat_make(r->mid_rotation.x[k], r->mid_rotation.y[k], r->mid_rotation.z[k], r->mid_rotation.w[k]);
    out->end_rotation =
        reach_quat_make(r->end_rotation.x[k], r->end_rotation.y[k], r->end_rotation.z[k], r->end_rotation.w[k]);
    out->mid_translation = reach_vec3_make(r->mid_translation.x[k], r->mid_translation.y[k], r->mid_translation.z[k]);
    out->end_translation = reach_vec3_make(r->end_translation.x[k], r->end_translation.y[k], r->end_translation.z[k]);
    out->mid = reach_vec3_make(r->mid.x[k], r->mid.y[k], r->mid.z[k]);
    out->end = reach_vec3_make(r->end.x[k], r->end.y[k], r->end.z[k]);
    out->residual = r->residual[k];
    out->reached = r->reached[k] != 0;
}

/* A whole group's answer into out[0, RWIDTH): the outputs as words (as RF(_words) reads the
 * inputs), transposed back into rows and stored whole, the last row overlapping the one before
 * it with the same values. */
KERNEL_TARGET static inline __attribute__((always_inline)) void RF(_store_group)(const RR *r,
                                                                                 reach_two_bone_rig_output *out) {
    RV words[RIG_OUT_WORDS];
#define ROUT(member)     words[offsetof(reach_two_bone_rig_output, member) / sizeof(reach_real)]
#define ROUT3(member, v) (ROUT(member.x) = (v).x, ROUT(member.y) = (v).y, ROUT(member.z) = (v).z)
#define ROUTQ(member, q) (ROUT3(member, q), ROUT(member.w) = (q).w)
    ROUTQ(root_rotation, r->root_rotation);
    ROUTQ(mid_rotation, r->mid_rotation);
    ROUTQ(end_rotation, r->end_rotation);
    ROUT3(mid_translation, r->mid_translation);
    ROUT3(end_translation, r->end_translation);
    ROUT3(mid, r->mid);
    ROUT3(end, r->end);
    ROUT(residual) = r->residual;
    /* The int 1 or 0 in the word's low bytes (in double the rest is padding, here 0). */
    ROUT(reached) = (RV)(r->reached & 1);
#undef ROUT
#undef ROUT3
#undef ROUTQ
#pragma GCC unroll 16
    for (int first = 0; first < RIG_OUT_WORDS; first += RWIDTH) {
        const int row = RIG_OUT_WORDS - first >= RWIDTH ? first : RIG_OUT_WORDS - RWIDTH;
        RV v[RWIDTH];
#pragma GCC unroll 16
        for (int j = 0; j < RWIDTH; ++j)
            v[j] = words[row + j];
        RF(_transpose)(v);
#pragma GCC unroll 16
        for (int k = 0; k < RWIDTH; ++k)
            memcpy((char *)(out + k) + (size_t)row * sizeof(reach_real), &v[k], sizeof v[k]);
    }
}

/* Whether every lane of m is set. */
KERNEL_TARGET static inline int RF(_all)(RM m) {
    rig_lane_int all = -1;
    for (int k = 0; k < RWIDTH; ++k)
        all &= m[k];
    return all != 0;
}

/* The first `count` lanes of a group's answer: the ordinary ones stored, the others solved
 * alone, in order, so that the first error is the first limb's (and each marked in `vector`, if
 * asked). Out of line: the usual group, every lane ordinary, does not come here. */
KERNEL_TARGET static __attribute__((noinline)) void
RF(_finish)(const RR *r, int count, const reach_two_bone_rig_input *in, const reach_two_bone_settings *options,
            reach_two_bone_rig_output *out, unsigned char *status, reach_status *first_error, unsigned char *vector) {
    for (int k = 0; k < count; ++k) {
        if (vector) vector[k] = r->ok[k] != 0;
        if (!r->ok[k]) {
            rig_solve_lane(in + k, options, out + k, status ? status + k : NULL, first_error);
            continue;
        }
        RF(_store_lane)(r, k, out + k);
        if (status) status[k] = REACH_OK;
    }
}

KERNEL_TARGET static void KERNEL_NAME(const reach_two_bone_rig_input *in, int count,
                                      const reach_two_bone_settings *options, reach_two_bone_rig_output *out,
                                      unsigned char *status, reach_status *first_error, unsigned char *vector) {
    const reach_real tolerance = options ? options->tolerance : 0;
    int i = 0;
    /* count - i, not i + RWIDTH, which could pass INT_MAX. */
    for (; count - i >= RWIDTH; i += RWIDTH) {
        const RR r = RF(_group)(in + i, tolerance);
        if (!RF(_all)(r.ok)) {
            RF(_finish)
            (&r, RWIDTH, in + i, options, out + i, status ? status + i : NULL, first_error, vector ? vector + i : NULL);
            continue;
        }
        RF(_store_group)(&r, out + i);
        if (status) memset(status + i, REACH_OK, (size_t)RWIDTH);
        if (vector) memset(vector + i, 1, (size_t)RWIDTH);
    }
    if (i < count) {
        /* The tail as a group of its own, padded with copies of its last limb. */
        reach_two_bone_rig_input padded[RWIDTH];
        for (int k = 0; k < RWIDTH; ++k)
            padded[k] = in[k < count - i ? i + k : count - 1];
        const RR r = RF(_group)(padded, tolerance);
        RF(_finish)
        (&r, count - i, in + i, options, out + i, status ? status + i : NULL, first_error, vector ? vector + i : NULL);
    }
}

#undef RWORD
#undef RFLAG
#undef RIG_LANES
#undef RIG_LOW
#undef RIG_HIGH
#undef RLOAD3
#undef RLOADQ
#undef RF
#undef RV
#undef RM
#undef RV3
#undef RQ
#undef RR
#undef RWIDTH
#undef KERNEL_NAME
#undef KERNEL_TARGET
#undef KERNEL_BYTES
#undef KERNEL_SQRT
