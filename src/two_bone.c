/* Analytic two-bone IK: the 3-D solver, and the 2-D one built on the same core. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "packed_vec3.h"
#include "reach/testing.h"
#include "reach/two_bone.h"
#include "two_bone_triangle.h"

reach_two_bone_settings reach_two_bone_default_settings(void) {
    reach_two_bone_settings o;
    o.weight = 1;
    o.soft_distance = 0;
    o.max_stretch = 1;
    o.tolerance = 0;
    o.rotations = 1;
    return o;
}

reach_status reach__two_bone_check_settings(const reach_two_bone_settings *o) {
    /* The usual case in one test: every comparison fails on NaN, and x − x is 0 only for
     * finite x (weight's range already excludes infinity). */
    if (o->weight >= 0 && o->weight <= 1 && o->soft_distance >= 0 && o->soft_distance - o->soft_distance == 0 &&
        o->max_stretch >= 1 && o->max_stretch - o->max_stretch == 0 && o->tolerance >= 0 &&
        o->tolerance - o->tolerance == 0)
        return REACH_OK;
    if (!reach_is_finite(o->weight) || !reach_is_finite(o->soft_distance) || !reach_is_finite(o->max_stretch) ||
        !reach_is_finite(o->tolerance))
        return REACH_ERROR_NOT_FINITE;
    if (o->weight < 0 || o->weight > 1 || o->soft_distance < 0 || o->max_stretch < 1 || o->tolerance < 0)
        return REACH_ERROR_INVALID_ARGUMENT;
    return REACH_OK;
}

/* How the bend plane is chosen. */
typedef enum bend_mode {
    BEND_POLE,    /* toward a pole point, falling back to the current plane */
    BEND_CURRENT, /* keep the plane the limb is bent in now */
    BEND_NORMAL   /* a fixed plane normal: the mid joint goes to normal × direction (2-D) */
} bend_mode;

typedef struct core_input {
    reach_vec3 root, mid, end, target;
    reach_vec3 bend; /* the pole point, or the plane normal for BEND_NORMAL */
    bend_mode mode;
} core_input;

/* Below this sine of the angle to the root→target line, a pole or a bent limb says nothing
 * reliable about the bend plane, and the next fallback is used. */
#define BEND_PLANE_EPSILON (16 * REACH_REAL_EPSILON)

/* Squared lengths, in the limb's own units, that plain arithmetic handles: far from overflow
 * and from subnormals. Outside this range the robust (slower) helpers take over. */
#ifdef REACH_DOUBLE
#define SAFE_MIN_SQUARE 0x1p-900
#define SAFE_MAX_SQUARE 0x1p+900
#else
#define SAFE_MIN_SQUARE 0x1p-100f
#define SAFE_MAX_SQUARE 0x1p+100f
#endif

static int safe_square(reach_real sq) { return sq > SAFE_MIN_SQUARE && sq < SAFE_MAX_SQUARE; }

/* 1/sqrt(sq) for a square in the safe range, as sqrt(sq) · (1/sq): the square root and the
 * divide run side by side instead of one after the other. */
static inline reach_real inverse_sqrt(reach_real sq) { return reach_sqrt(sq) * (1 / sq); }

/* The root→target line: its unit direction is along · scale, with scale_sq = 1/|along|². Kept
 * apart so that a rejection from the line waits for a divide only, not for the square root
 * and the divide behind the unit direction. */
typedef struct target_line {
    reach_vec3 along;
    reach_real scale, scale_sq;
} target_line;

static inline reach_vec3 target_line_unit(const target_line *line) {
    return reach_vec3_scale(line->along, line->scale);
}

/* The part of c perpendicular to the line. */
static inline reach_vec3 target_line_reject(reach_vec3 c, const target_line *line) {
    return reach_vec3_mad(c, line->along, -reach_vec3_dot(c, line->along) * line->scale_sq);
}

/* The part of c perpendicular to the line, made unit, if it is long enough (relative to c's
 * own squared length c_sq) to say something; 0 otherwise. A short remainder carries the
 * rounding of the subtraction, so it is rejected once more to be perpendicular to full
 * precision. */
static int side_of(reach_vec3 c, reach_real c_sq, const target_line *line, reach_vec3 *side) {
    reach_vec3 p = target_line_reject(c, line);
    reach_real p_sq = reach_vec3_length_sq(p);
    if (!(p_sq > BEND_PLANE_EPSILON * BEND_PLANE_EPSILON * c_sq) || !safe_square(p_sq)) return 0;
    p = reach_vec3_scale(p, inverse_sqrt(p_sq));
    if (p_sq < REACH_R(0.01) * c_sq) p = reach_vec3_normalize_safe(target_line_reject(p, line), p);
    *side = p;
    return 1;
}

/* A unit vector in the bend plane, perpendicular to the target line (all vectors relative to
 * the root, in the limb's units). The pole comes first. Where it says nothing (on the
 * line, or none given), the limb keeps its current bend: the side its knee sticks out to from
 * its own root→end line, which does not change as the target moves, so there is no flip.
 * Where the limb is straight, a fixed perpendicular of the limb; failing all, one of u. */
static reach_vec3 bend_direction(const core_input *in, const target_line *line, reach_vec3 upper, reach_vec3 lower,
                                 reach_vec3 to_pole_scaled, reach_vec3 to_pole) {
    reach_vec3 side;
    const reach_vec3 u = target_line_unit(line);
    if (in->mode == BEND_NORMAL) {
        return reach_vec3_normalize_safe(reach_vec3_cross(in->bend, u), reach_vec3_any_perpendicular(u));
    }
    if (in->mode == BEND_POLE) {
        reach_real p_sq = reach_vec3_length_sq(to_pole_scaled);
        if (safe_square(p_sq) ? side_of(to_pole_scaled, p_sq, line, &side)
                              : side_of(reach_vec3_normalize_safe(to_pole, reach_vec3_zero()), 1, line, &side))
            return side;
    }
    reach_vec3 aim = reach_vec3_add(upper, lower);
    reach_real aim_sq = reach_vec3_length_sq(aim), upper_sq = reach_vec3_length_sq(upper);
    if (safe_square(aim_sq)) {
        reach_vec3 knee = reach_vec3_mad(upper, aim, -reach_vec3_dot(upper, aim) / aim_sq);
        if (side_of(knee, upper_sq, line, &side)) return side;
    }
    /* A straight limb has no knee side: take a perpendicular of the limb itself, which the
     * target's motion does not change, so the knee does not flip as the target crosses the
     * limb's line. */
    if (safe_square(upper_sq) &&
        side_of(reach_vec3_any_perpendicular(reach_vec3_scale(upper, 1 / reach_sqrt(upper_sq))), 1, line, &side))
        return side;
    return reach_vec3_any_perpendicular(u);
}

/* 0 when every component of v is finite, NaN otherwise (x − x is +0 for finite x and NaN for
 * infinity and NaN): one sum checks many numbers without a branch each. */
static reach_real infinity_probe(reach_vec3 v) { return (v.x - v.x) + (v.y - v.y) + (v.z - v.z); }

/* A limb must span at least this many units in the last place of its coordinates. */
#define LIMB_RESOLUTION_ULPS 64

/* The power of two at or below |x| (x finite, non-zero): dividing by it is exact. Read from
 * the exponent bits; subnormals, which have none, take the library route. */
static reach_real power_of_two_scale(reach_real x) {
#ifdef REACH_DOUBLE
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits &= 0x7ff0000000000000ull;
    if (bits == 0) {
        int e = 0;
        (void)frexp(x, &e);
        return ldexp(1.0, e - 1);
    }
#else
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    bits &= 0x7f800000u;
    if (bits == 0) {
        int e = 0;
        (void)frexpf(x, &e);
        return ldexpf(1.0f, e - 1);
    }
#endif
    reach_real p;
    memcpy(&p, &bits, sizeof p);
    return p;
}

static reach_status solve_core(const core_input *in, const reach_two_bone_settings *opt, reach_two_bone_output *out) {
    reach_status st = reach__two_bone_check_settings(opt);
    if (st != REACH_OK) return st;

    reach_vec3 upper = reach_vec3_sub(in->mid, in->root);
    reach_vec3 lower = reach_vec3_sub(in->end, in->mid);
    reach_vec3 to_target = reach_vec3_sub(in->target, in->root);
    reach_vec3 to_pole = reach_vec3_sub(in->bend, in->root);
    /* Every input point enters one of these differences, and a difference of anything with a
     * NaN or an infinity is not finite: one probe of the differences clears the usual case.
     * Only then ask which it was, a bad input or finite inputs too far apart. */
    if (!(infinity_probe(upper) + infinity_probe(lower) + infinity_probe(to_target) + infinity_probe(to_pole) == 0)) {
        if (!(infinity_probe(in->root) + infinity_probe(in->mid) + infinity_probe(in->end) +
                  infinity_probe(in->target) + infinity_probe(in->bend) ==
              0))
            return REACH_ERROR_NOT_FINITE;
        return REACH_ERROR_OUT_OF_RANGE;
    }

    /* Work in units of a power of two near the limb's size: exact to divide by, and it keeps
     * every square below within range for limbs from 1e-30 to 1e30. */
    reach_real size = reach_max(reach_vec3_max_abs(upper), reach_vec3_max_abs(lower));
    if (!(size > 0)) return REACH_ERROR_ZERO_LENGTH;
    reach_real scale = power_of_two_scale(size), inv_scale = 1 / scale;
    if (!reach_is_finite(inv_scale)) return REACH_ERROR_OUT_OF_RANGE; /* bones below the normal range */
    reach_vec3 upper_s = reach_vec3_scale(upper, inv_scale), lower_s = reach_vec3_scale(lower, inv_scale);
    reach_real l1_sq = reach_vec3_length_sq(upper_s), l2_sq = reach_vec3_length_sq(lower_s);
    reach_real l1 = reach_sqrt(l1_sq), l2 = reach_sqrt(l2_sq);
    reach_real chain = l1 + l2;
    if (l1 <= REACH_ZERO_LENGTH_RATIO * chain || l2 <= REACH_ZERO_LENGTH_RATIO * chain) return REACH_ERROR_ZERO_LENGTH;
    /* The output is root + offset, rounded to the coordinates' resolution. A limb only a few
     * units in the last place long at its distance from the origin cannot keep its lengths;
     * say so rather than return a crumpled pose. (Solve in a local frame to avoid this.) */
    reach_real coordinates =
        reach_max(reach_vec3_max_abs(in->root), reach_max(reach_vec3_max_abs(in->mid), reach_vec3_max_abs(in->end)));
    if (chain * scale < LIMB_RESOLUTION_ULPS * REACH_REAL_EPSILON * coordinates) return REACH_ERROR_OUT_OF_RANGE;

    /* Direction and distance to the target, in the limb's units. A target at the root has no
     * direction: keep the limb's current aim. A target too far or too near for plain squares
     * takes the robust route; its distance may then be infinite, which is only clamped. */
    reach_vec3 target_s = reach_vec3_scale(to_target, inv_scale);
    reach_real d_sq = reach_vec3_length_sq(target_s);
    target_line line;
    reach_real d;
    if (safe_square(d_sq)) {
        /* 1/d as d · (1/d²), the square root and the divide side by side; the short path
         * takes it alike, and the two must find the same joints. */
        line.scale_sq = 1 / d_sq;
        d = reach_sqrt(d_sq);
        line.along = target_s;
        line.scale = d * line.scale_sq;
    } else {
        reach_vec3 current_aim =
            reach_vec3_normalize_safe(reach_vec3_add(upper_s, lower_s), reach_vec3_scale(upper_s, 1 / l1));
        line.along = reach_vec3_normalize_safe(to_target, current_aim);
        line.scale = line.scale_sq = 1;
        d = reach_vec3_length_robust(to_target) * inv_scale;
    }
    reach_vec3 n = bend_direction(in, &line, upper_s, lower_s, reach_vec3_scale(to_pole, inv_scale), to_pole);

    /* Soft IK and stretch change the distance we aim for and the lengths we have. */
    reach_real goal = d;
    reach_real soft = opt->soft_distance * inv_scale;
    if (soft > 0 && d > chain - soft) {
        reach_real start = reach_max(chain - soft, 0);
        reach_real s = chain - start;
        goal = start + s * (1 - reach_exp(-(d - start) / s));
    }
    reach_real stretch = 1;
    if (opt->max_stretch > 1) {
        reach_real base = goal < d ? goal : chain; /* soft: make up the softening; else reach d */
        if (d > base) stretch = reach_min(d / base, opt->max_stretch);
        if (soft > 0) goal = goal * stretch;
    }
    reach_real sl1 = l1 * stretch, sl2 = l2 * stretch;
    reach_real dc = reach_clamp(goal, reach_fabs(sl1 - sl2), sl1 + sl2);
    reach_real a, h;
    /* Where the limb aims at the target itself, d² and 1/(2d) as the short path takes them: both
     * paths then find the same foot, whose rounding a nearly straight limb magnifies. */
    const int aims_at_target = dc == d && safe_square(d_sq);
    two_bone_triangle(sl1, sl2, l1_sq >= l2_sq, dc, aims_at_target ? d_sq : dc * dc,
                      aims_at_target ? d * (REACH_R(0.5) * line.scale_sq) : REACH_R(0.5) / dc, &a, &h);
    reach_vec3 mid_s = reach_vec3_add(reach_vec3_scale(line.along, a * line.scale), reach_vec3_scale(n, h));
    reach_vec3 end_s = reach_vec3_scale(line.along, dc * line.scale);

    reach_two_bone_output r;
    r.root_rotation = reach_quat_identity();
    r.mid_rotation = reach_quat_identity();
    if (opt->rotations || opt->weight < 1) {
        /* The new bones have lengths sl1 and sl2 by construction: divide, no normalising. */
        reach_vec3 upper_dir = reach_vec3_scale(upper_s, 1 / l1);
        reach_quat q_root = reach_quat_shortest_arc(upper_dir, reach_vec3_scale(mid_s, 1 / sl1));
        reach_vec3 turned_lower = reach_quat_rotate(q_root, reach_vec3_scale(lower_s, 1 / l2));
        reach_vec3 new_lower_dir = reach_vec3_scale(reach_vec3_sub(end_s, mid_s), 1 / sl2);
        reach_quat q_mid = reach_quat_shortest_arc(turned_lower, new_lower_dir);
        if (opt->weight < 1) {
            /* Blend each bone's total world rotation from identity, then rebuild the joints by
             * forward kinematics so the lengths stay exact. */
            reach_real w = opt->weight;
            reach_quat q_upper = reach_quat_slerp(reach_quat_identity(), q_root, w);
            reach_quat q_lower = reach_quat_slerp(reach_quat_identity(), reach_quat_mul(q_mid, q_root), w);
            reach_real sw = 1 + (stretch - 1) * w;
            sl1 = l1 * sw;
            sl2 = l2 * sw;
            mid_s = reach_vec3_scale(reach_quat_rotate(q_upper, upper_s), sw);
            end_s = reach_vec3_add(mid_s, reach_vec3_scale(reach_quat_rotate(q_lower, lower_s), sw));
            q_root = q_upper;
            q_mid = reach_quat_mul(q_lower, reach_quat_conjugate(q_upper));
        }
        if (opt->rotations) {
            r.root_rotation = q_root;
            r.mid_rotation = q_mid;
        }
    }

    r.mid = reach_vec3_mad(in->root, mid_s, scale);
    r.end = reach_vec3_mad(in->root, end_s, scale);
    r.upper_length = sl1 * scale;
    r.lower_length = sl2 * scale;
    reach_vec3 miss = reach_vec3_sub(target_s, end_s);
    reach_real miss_sq = reach_vec3_length_sq(miss);
    r.residual = safe_square(miss_sq) ? reach_sqrt(miss_sq) * scale
                                      : reach_vec3_length_robust(reach_vec3_sub(in->target, r.end));
    reach_real tolerance = opt->tolerance > 0 ? opt->tolerance : REACH_DEFAULT_TOLERANCE_RATIO * chain * scale;
    r.reached = r.residual <= tolerance;
    if (!(infinity_probe(r.mid) + infinity_probe(r.end) + (r.residual - r.residual) == 0))
        return REACH_ERROR_OUT_OF_RANGE;
    *out = r;
    return REACH_OK;
}

/* ---- the fast path ----------------------------------------------------------------------
 * Most solves are ordinary: finite joints, bones and target and pole distances of everyday
 * size, a pole clearly off the target line (or a clearly bent limb), default soft IK, stretch
 * and weight. For those, solve_ordinary does solve_core's arithmetic without its scaling and
 * robust routes, so the positions are the same bits, and builds the rotations with one
 * normalisation each. Anything it is not sure of, it hands to solve_core untouched, which then
 * behaves on every edge case exactly as documented. */

/* Squared lengths, in rig units, of the bones and the target's and pole's distances from the
 * root. Within these, solve_core's power-of-two scale (between chain/8 and the chain) moves no
 * square it takes, nor a tenth of one (the side tests below), out of its safe range: the
 * scaled squares stay within 2^±90 in float, 2^±810 in double, so both paths take the same
 * routes. */
#ifdef REACH_DOUBLE
#define ORDINARY_MIN_SQUARE 0x1p-400
#define ORDINARY_MAX_SQUARE 0x1p+400
#else
#define ORDINARY_MIN_SQUARE 0x1p-40f
#define ORDINARY_MAX_SQUARE 0x1p+40f
#endif

/* A side of the target line counts as clear when it is at least a tenth of its vector's
 * length off the line (sine 0.1): then solve_core's side_of needs no second rejection either,
 * and both paths compute the same bend direction. */
#define CLEAR_SIDE_SQUARE_RATIO REACH_R(0.01)

static int ordinary_square(reach_real sq) { return sq >= ORDINARY_MIN_SQUARE && sq <= ORDINARY_MAX_SQUARE; }

/* Below this |from + to|², two unit vectors are opposite to a rounding: their shortest arc's
 * axis needs the robust construction (reach_quat_shortest_arc). */
#define HALF_TURN_SUM_SQ (2 * REACH_REAL_EPSILON * REACH_REAL_EPSILON)

/* The shortest arc from a unit vector `from` to a unit vector `to` as solve_core builds it,
 * (from × s, |s|²/2) with s = from + to, normalised by its length, which for unit vectors is
 * |s| itself (|from × s|² + (|s|²/2)² = |s|² exactly): no second dot product. Given
 * axis = from × s, |s|² and 2/|s|², it scales the axis by 2/|s|² while the square root runs,
 * then by |s|/2, instead of waiting for the square root and then for a divide. */
static inline void store_unit_arc(reach_quat *q, packed_vec3 axis, reach_real sum_sq, reach_real twice_inverse_sum_sq) {
    const reach_real half_length = reach_sqrt(sum_sq) * REACH_R(0.5);
    packed_quat_store(
        q, packed_quat_make(packed_scale(packed_scale(axis, twice_inverse_sum_sq), half_length), half_length));
}

/* Solves an ordinary limb with default soft IK, stretch and weight into *out and returns 1;
 * returns 0, writing nothing, for anything else. `tolerance` is the option's (finite, >= 0).
 * The vectors are packed (packed_vec3.h): the same arithmetic as solve_core's, in fewer
 * instructions. */
static int solve_ordinary(const reach_two_bone_input *in, reach_real tolerance, int rotations,
                          reach_two_bone_output *out) {
    const packed_vec3 root = packed_load(&in->root), mid = packed_load(&in->mid);
    const packed_vec3 upper = packed_sub(mid, root), lower = packed_sub(packed_load(&in->end), mid);
    const packed_vec3 to_target = packed_sub(packed_load(&in->target), root);
    const reach_real l1_sq = packed_length_sq(upper), l2_sq = packed_length_sq(lower);
    const reach_real d_sq = packed_length_sq(to_target);
    /* NaN and infinity fail these, so every input but the pole has been checked. */
    if (!REACH_USUALLY(ordinary_square(l1_sq) && ordinary_square(l2_sq) && ordinary_square(d_sq))) return 0;
    const reach_real l1 = reach_sqrt(l1_sq), l2 = reach_sqrt(l2_sq), chain = l1 + l2;
    if (!REACH_USUALLY(reach_min(l1, l2) > REACH_ZERO_LENGTH_RATIO * chain)) return 0;
    /* solve_core's resolution test, made stricter so as to need the root alone: no coordinate
     * of mid or end exceeds the root's largest by more than the chain (to a few roundings,
     * which the extra unit covers). */
    if (!REACH_USUALLY(chain >= (LIMB_RESOLUTION_ULPS + 1) * REACH_REAL_EPSILON * (packed_max_abs(root) + chain)))
        return 0;
    /* solve_core's target line, to the same bits: its power-of-two scale changes no rounding.
     * Its unit direction is to_target · scale; scale_sq = 1/d². */
    const reach_real scale_sq = 1 / d_sq;
    const reach_real d = reach_sqrt(d_sq);
    const reach_real scale = d * scale_sq;

    /* The bend side: toward the pole, or, with no pole or a pole on the root, where the knee
     * sticks out now (solve_core's first fallback, taken there for the same inputs). */
    packed_vec3 side = packed_zero();
    reach_real side_scale_sq = 0;
    if (in->use_pole) {
        side = packed_sub(packed_load(&in->pole), root);
        side_scale_sq = packed_length_sq(side);
        /* Any pole but one on the root outside the ordinary range, or not finite, is the
         * general path's; the one on the root leaves side_scale_sq at 0. */
        if (!REACH_USUALLY(ordinary_square(side_scale_sq)) && !packed_is_zero(side)) return 0;
    }
    if (!(side_scale_sq > 0)) {
        packed_vec3 aim = packed_add(upper, lower);
        reach_real aim_sq = packed_length_sq(aim);
        if (!REACH_USUALLY(aim_sq >= CLEAR_SIDE_SQUARE_RATIO * chain * chain)) return 0;
        side = packed_mad(upper, aim, -packed_dot(upper, aim) / aim_sq);
        side_scale_sq = l1_sq;
    }
    /* The side's part off the target line (target_line_reject). */
    const packed_vec3 off_line = packed_mad(side, to_target, -packed_dot(side, to_target) * scale_sq);
    const reach_real off_line_sq = packed_length_sq(off_line);
    if (!REACH_USUALLY(off_line_sq >= CLEAR_SIDE_SQUARE_RATIO * side_scale_sq)) return 0;
    const packed_vec3 n = packed_scale(off_line, inverse_sqrt(off_line_sq));

    const reach_real dc = reach_clamp(d, reach_fabs(l1 - l2), chain);
    reach_real a, h;
    two_bone_triangle(l1, l2, l1_sq >= l2_sq, dc, d_sq, d * (REACH_R(0.5) * scale_sq), &a, &h);
    const packed_vec3 new_upper = packed_add(packed_scale(to_target, a * scale), packed_scale(n, h));
    const packed_vec3 new_end = packed_scale(to_target, dc * scale);

    if (rotations) {
        /* The new bones have lengths l1 and l2 by construction: divide, no normalising. */
        const reach_real inv_l1 = 1 / l1, inv_l2 = 1 / l2;
        /* Near a half turn the arc's axis needs the robust construction. The limb stays on
         * this path either way: which path solves must not depend on whether rotations are
         * asked for, or the positions and residual would differ by a rounding between the two. */
        const packed_vec3 from = packed_scale(upper, inv_l1), to = packed_scale(new_upper, inv_l1);
        const packed_vec3 lower_dir = packed_scale(lower, inv_l2);
        const packed_vec3 new_lower_dir = packed_scale(packed_sub(new_end, new_upper), inv_l2);
        const packed_vec3 root_sum = packed_add(from, to);
        const reach_real root_sum_sq = packed_length_sq(root_sum);
        packed_vec3 turned_lower, mid_sum;
        if (root_sum_sq > HALF_TURN_SUM_SQ) {
            /* The lower bone turned by the root arc, by Rodrigues' formula for the arc,
             * v + k × v + k × (k × v) / (1 + from·to) with k = from × s and 1 + from·to = |s|²/2:
             * it needs the divide alone, not the normalised quaternion, so the mid arc does not
             * wait for the root arc's square root. Its sum with the new lower bone is taken
             * from the parts known before the divide. */
            const packed_vec3 axis = packed_cross(from, root_sum);
            const reach_real twice_inverse_sum_sq = 2 / root_sum_sq;
            const packed_vec3 kv = packed_cross(axis, lower_dir), kkv = packed_cross(axis, kv);
            const packed_vec3 partial_turn = packed_add(lower_dir, kv);
            const packed_vec3 partial_sum = packed_add(partial_turn, new_lower_dir);
            store_unit_arc(&out->root_rotation, axis, root_sum_sq, twice_inverse_sum_sq);
            turned_lower = packed_mad(partial_turn, kkv, twice_inverse_sum_sq);
            mid_sum = packed_mad(partial_sum, kkv, twice_inverse_sum_sq);
        } else {
            /* Opposite to a rounding: the general arc, which takes a half turn where it must. */
            const packed_quat arc = packed_quat_shortest_arc(from, to);
            packed_quat_store(&out->root_rotation, arc);
            turned_lower = packed_quat_rotate(arc, lower_dir);
            mid_sum = packed_add(turned_lower, new_lower_dir);
        }
        const reach_real mid_sum_sq = packed_length_sq(mid_sum);
        if (mid_sum_sq > HALF_TURN_SUM_SQ)
            store_unit_arc(&out->mid_rotation, packed_cross(turned_lower, mid_sum), mid_sum_sq, 2 / mid_sum_sq);
        else
            packed_quat_store(&out->mid_rotation, packed_quat_shortest_arc(turned_lower, new_lower_dir));
    } else {
        out->root_rotation = reach_quat_identity();
        out->mid_rotation = reach_quat_identity();
    }
    /* The end lies on the target line at dc, the target at d. */
    const reach_real residual = reach_fabs(d - dc);
    packed_store(&out->mid, packed_add(root, new_upper));
    packed_store(&out->end, packed_add(root, new_end));
    out->upper_length = l1;
    out->lower_length = l2;
    out->residual = residual;
    out->reached = residual <= (tolerance > 0 ? tolerance : REACH_DEFAULT_TOLERANCE_RATIO * chain);
    return 1;
}

/* The options solve_ordinary (and the rig's short path) handle (internal.h). */
int reach__two_bone_settings_ordinary(const reach_two_bone_settings *o) {
    return o->weight == 1 && o->soft_distance == 0 && o->max_stretch == 1 && o->tolerance >= 0 &&
           o->tolerance - o->tolerance == 0;
}

static reach_status solve_general(const reach_two_bone_input *in, const reach_two_bone_settings *options,
                                  reach_two_bone_output *out) {
    core_input c;
    c.root = in->root;
    c.mid = in->mid;
    c.end = in->end;
    c.target = in->target;
    c.bend = in->use_pole ? in->pole : in->root;
    c.mode = in->use_pole ? BEND_POLE : BEND_CURRENT;
    if (options) return solve_core(&c, options, out);
    reach_two_bone_settings defaults = reach_two_bone_default_settings();
    return solve_core(&c, &defaults, out);
}

reach_status reach_two_bone_solve(const reach_two_bone_input *in, const reach_two_bone_settings *options,
                                  reach_two_bone_output *out) {
    REACH_CHECK_ARG(in && out);
    /* One call of the short path, so that it is compiled into this function. */
    if ((!options || reach__two_bone_settings_ordinary(options)) &&
        solve_ordinary(in, options ? options->tolerance : 0, options ? options->rotations : 1, out))
        return REACH_OK;
    return solve_general(in, options, out);
}

reach_status reach_two_bone_solve_general(const reach_two_bone_input *in, const reach_two_bone_settings *options,
                                          reach_two_bone_output *out) {
    REACH_CHECK_ARG(in && out);
    return solve_general(in, options, out);
}

static reach_vec3 lift_to_3d(reach_vec2 v) { return reach_vec3_make(v.x, v.y, 0); }
static reach_vec2 flat(reach_vec3 v) { return reach_vec2_make(v.x, v.y); }

/* A rotation about +z as the unit complex number (cos θ, sin θ). */
static reach_vec2 quat_to_complex(reach_quat q) {
    /* q = (0, 0, sin θ/2, cos θ/2): the double-angle formulas need no trigonometry. */
    reach_real c = q.w * q.w - q.z * q.z, s = 2 * q.w * q.z;
    return reach_vec2_normalize_safe(reach_vec2_make(c, s), reach_vec2_make(1, 0));
}

reach_status reach_two_bone_solve_2d(const reach_two_bone_2d_input *in, const reach_two_bone_settings *options,
                                     reach_two_bone_2d_output *out) {
    REACH_CHECK_ARG(in && out);
    if (in->bend != REACH_BEND_CCW && in->bend != REACH_BEND_CW) return REACH_ERROR_INVALID_ARGUMENT;
    reach_two_bone_settings opt = options ? *options : reach_two_bone_default_settings();
    int want_rotations = opt.rotations; /* the 2-D rotations come from the 3-D ones, about +z */
    core_input c;
    c.root = lift_to_3d(in->root);
    c.mid = lift_to_3d(in->mid);
    c.end = lift_to_3d(in->end);
    c.target = lift_to_3d(in->target);
    c.bend = reach_vec3_make(0, 0, (reach_real)in->bend);
    c.mode = BEND_NORMAL;
    reach_two_bone_output r3;
    reach_status st = solve_core(&c, &opt, &r3);
    if (st != REACH_OK) return st;

    reach_two_bone_2d_output r;
    r.mid = flat(r3.mid);
    r.end = flat(r3.end);
    /* Reflect the mid joint across the root→end line for the other solution. */
    reach_vec2 axis = reach_vec2_normalize_safe(reach_vec2_sub(r.end, in->root), reach_vec2_make(1, 0));
    reach_vec2 rel = reach_vec2_sub(r.mid, in->root);
    reach_vec2 along = reach_vec2_scale(axis, 2 * reach_vec2_dot(rel, axis));
    r.mid_mirror = reach_vec2_add(in->root, reach_vec2_sub(along, rel));
    r.root_rotation = want_rotations ? quat_to_complex(r3.root_rotation) : reach_vec2_make(1, 0);
    r.mid_rotation = want_rotations ? quat_to_complex(r3.mid_rotation) : reach_vec2_make(1, 0);
    r.upper_length = r3.upper_length;
    r.lower_length = r3.lower_length;
    r.residual = r3.residual;
    r.reached = r3.reached;
    if (!reach_vec2_is_finite(r.mid_mirror)) return REACH_ERROR_OUT_OF_RANGE; /* reflected past the range */
    *out = r;
    return REACH_OK;
}
