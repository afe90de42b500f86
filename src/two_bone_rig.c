/* Two-bone IK on a hierarchy: from local transforms under any parent to new local rotations.
 *
 * The solve runs in the space of the root's parent. There the chain is a rigid rotation-and-
 * translation hierarchy, so the bones keep their lengths however the parent scales or mirrors
 * the world, and the parent's affine map carries the solved pose back out exactly. */
#include "internal.h"
#include "packed_vec3.h"
#include "reach/testing.h"
#include "reach/two_bone.h"
#include "two_bone_rig_ordinary.h"
#include "two_bone_triangle.h"

/* 0 when every component is finite, NaN otherwise (x − x is +0 for finite x and NaN for
 * infinity and NaN): one sum checks many numbers without a branch each. */
static inline reach_real vec3_probe(reach_vec3 v) { return (v.x - v.x) + (v.y - v.y) + (v.z - v.z); }
static inline reach_real quat_probe(reach_quat q) { return (q.x - q.x) + (q.y - q.y) + (q.z - q.z) + (q.w - q.w); }
static inline reach_real transform_probe(reach_transform t) {
    return quat_probe(t.rotation) + vec3_probe(t.translation);
}

/* Whether every input the solve reads is finite: the pole and the end orientation only when
 * they are used. */
static int rig_input_is_finite(const reach_two_bone_rig_input *in) {
    const reach_affine *p = &in->parent_world;
    reach_real probe = vec3_probe(p->linear.col[0]) + vec3_probe(p->linear.col[1]) + vec3_probe(p->linear.col[2]) +
                       vec3_probe(p->translation) + transform_probe(in->root_local) + transform_probe(in->mid_local) +
                       transform_probe(in->end_local) + vec3_probe(in->target);
    if (in->use_pole) probe += vec3_probe(in->pole);
    if (in->use_end_orientation) probe += quat_probe(in->end_orientation);
    return probe == 0;
}

static int quat_has_length(reach_quat q) { return reach_quat_dot(q, q) > 0; }

/* Renormalises a product of unit quaternions (its length is 1 to rounding): plain 1/sqrt. */
static inline reach_quat unit(reach_quat q) {
    reach_real inv = 1 / reach_sqrt(reach_quat_dot(q, q));
    return reach_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

/* Unit quaternion along q (which has length): plain 1/sqrt where its square is far from the
 * ends of the range, as it is for the unit or nearly unit rotations rigs hold; the robust
 * route otherwise. */
static inline reach_quat normalized(reach_quat q) {
    reach_real sq = reach_quat_dot(q, q);
    if (sq > RIG_MIN_PLAIN_SQUARE && sq < RIG_MAX_PLAIN_SQUARE) {
        reach_real inv = 1 / reach_sqrt(sq);
        return reach_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
    }
    return reach_quat_normalize_safe(q);
}

/* Plain distance where its square is far from the ends of the range, the robust one otherwise:
 * a square that overflows, or underflows (a tiny limb's length would come out 0 or coarse). */
static inline reach_real distance(reach_vec3 a, reach_vec3 b) {
    reach_vec3 v = reach_vec3_sub(a, b);
    reach_real sq = reach_vec3_length_sq(v);
    if (sq > RIG_MIN_PLAIN_SQUARE && sq < RIG_MAX_PLAIN_SQUARE) return reach_sqrt(sq);
    return reach_vec3_length_robust(v);
}

/* A rotation's square the short path takes (two_bone_rig_ordinary.h). */
static inline int ordinary_rotation_square(reach_real sq) {
    return sq > RIG_MIN_PLAIN_SQUARE && sq < RIG_MAX_PLAIN_SQUARE;
}

/* A squared length the short path takes (two_bone_rig_ordinary.h). */
static inline int ordinary_limb_square(reach_real sq) { return sq >= RIG_MIN_SQUARE && sq <= RIG_MAX_SQUARE; }

/* The arc from unit `from` to unit `to` where the two are nearly opposite, as two arcs of about
 * a quarter turn each through p, the unit direction of to's part off from's line (the arcs then
 * turn about the same axis, and compose to the shortest arc), or any perpendicular of `from`
 * where that part is only rounding. Each arc is far from a half turn, so each turns its vector
 * onto the next to rounding, where one arc built from a sum of a few roundings could turn
 * `from` anywhere. */
static packed_quat arc_near_half_turn(packed_vec3 from, packed_vec3 to) {
    const packed_vec3 off_line = packed_mad(to, from, -packed_dot(to, from));
    const reach_real off_line_sq = packed_length_sq(off_line);
    packed_vec3 through;
    if (off_line_sq > 256 * REACH_REAL_EPSILON * REACH_REAL_EPSILON) {
        through = packed_scale(off_line, 1 / reach_sqrt(off_line_sq));
    } else {
        reach_vec3 f;
        packed_store(&f, from);
        const reach_vec3 perpendicular = reach_vec3_any_perpendicular(f);
        through = packed_load(&perpendicular);
    }
    return packed_quat_mul(packed_quat_shortest_arc(through, to), packed_quat_shortest_arc(from, through));
}

/* The shortest arc from unit `from` to unit `to`, the general path's: as
 * reach_quat_shortest_arc builds it, but through arc_near_half_turn where the two are nearly
 * opposite. */
static reach_quat arc_between(reach_vec3 from, reach_vec3 to) {
    packed_quat arc = reach_vec3_dot(from, to) > RIG_NEAR_HALF_TURN_RATIO - 1
                          ? packed_quat_shortest_arc(packed_load(&from), packed_load(&to))
                          : arc_near_half_turn(packed_load(&from), packed_load(&to));
    reach_quat q;
    packed_quat_store(&q, arc);
    return q;
}

/* A vector's length: plain where its square is far from the ends of the range, robust
 * otherwise (as distance above). */
static inline reach_real world_length(packed_vec3 v) {
    reach_real sq = packed_length_sq(v);
    if (REACH_USUALLY(sq > RIG_MIN_PLAIN_SQUARE && sq < RIG_MAX_PLAIN_SQUARE)) return reach_sqrt(sq);
    reach_vec3 u;
    packed_store(&u, v);
    return reach_vec3_length_robust(u);
}

/* v brought from the world into the parent's space (a direction: no origin) by the adjugate:
 * rows r0, r1, r2 of det · inverse(linear). */
static inline packed_vec3 into_parent(packed_vec3 v, const packed_vec3 rows[3], reach_real inverse_det) {
    reach_vec3 r = reach_vec3_make(packed_dot(rows[0], v), packed_dot(rows[1], v), packed_dot(rows[2], v));
    return packed_scale(packed_load(&r), inverse_det);
}

/* linear · v: the parent's map of a vector, columns cols. */
static inline packed_vec3 linear_of_parent(const packed_vec3 cols[3], packed_vec3 v) {
    reach_vec3 c;
    packed_store(&c, v);
    return packed_add(packed_add(packed_scale(cols[0], c.x), packed_scale(cols[1], c.y)), packed_scale(cols[2], c.z));
}

/* The arc that turns `from` onto `to`, both of length l (inverse_l_sq = 1/l²), given their sum
 * s, from axis = from × s and c = |s|²/2 = l² + from·to (above RIG_NEAR_HALF_TURN_RATIO · l²): the
 * quaternion (axis, c) / l², not normalised (its square is 2c / l², in (0, 4]). from × s is from × to,
 * and with c it is taken from the sum, which does not cancel where the two are nearly opposite. */
static inline packed_quat arc_of_equal_lengths(packed_vec3 axis, reach_real c, reach_real inverse_l_sq) {
    return packed_quat_scale(packed_quat_make(axis, c), inverse_l_sq);
}

/* The everyday call (the options' defaults but for the tolerance, no end orientation, a parent
 * whose determinant lies in the ordinary range, unit or nearly unit rotations, a limb, target
 * and pole of ordinary size with a clear bend side) solved in the root joint's own frame, where
 * the upper bone is the mid joint's translation and the lower one the end's turned by the mid
 * joint's rotation: the target and the pole come in through the parent's adjugate and the
 * root's rotation, the new local rotations are the old ones turned by two arcs built there (no
 * world corrections to bring back), and the world positions are combinations of world vectors
 * already at hand. The same arithmetic as reach_two_bone_solve's short path, in another frame:
 * the same answers to rounding. Returns 1 having written *out, or 0, writing nothing, for the
 * general path to take the call (which then reports any NaN or infinity it meets). */
static int solve_rig_ordinary(const reach_two_bone_rig_input *in, reach_real tolerance,
                              reach_two_bone_rig_output *out) {
    packed_quat local[3] = {packed_quat_load(&in->root_local.rotation), packed_quat_load(&in->mid_local.rotation),
                            packed_quat_load(&in->end_local.rotation)};
    const reach_real root_sq = packed_quat_dot(local[0], local[0]), mid_sq = packed_quat_dot(local[1], local[1]);
    const reach_real end_sq = packed_quat_dot(local[2], local[2]);
    if (!REACH_USUALLY(ordinary_rotation_square(root_sq) && ordinary_rotation_square(mid_sq) &&
                       ordinary_rotation_square(end_sq)))
        return 0;
    const packed_vec3 cols[3] = {packed_load(&in->parent_world.linear.col[0]),
                                 packed_load(&in->parent_world.linear.col[1]),
                                 packed_load(&in->parent_world.linear.col[2])};
    const packed_vec3 rows[3] = {packed_cross(cols[1], cols[2]), packed_cross(cols[2], cols[0]),
                                 packed_cross(cols[0], cols[1])};
    const reach_real det = packed_dot(cols[0], rows[0]);
    const reach_real det_abs = reach_fabs(det);
    if (!REACH_USUALLY(det_abs >= RIG_MIN_DETERMINANT && det_abs <= RIG_MAX_DETERMINANT)) return 0;
    const reach_real inverse_det = 1 / det;

    /* The bones in the root's frame, where the root sits at the origin. */
    const packed_vec3 root = packed_load(&in->root_local.translation);
    const packed_vec3 upper = packed_load(&in->mid_local.translation);
    const packed_vec3 end_translation = packed_load(&in->end_local.translation);
    const reach_real l1_sq = packed_length_sq(upper), l2_sq = packed_length_sq(end_translation);
    if (!REACH_USUALLY(ordinary_limb_square(l1_sq) && ordinary_limb_square(l2_sq))) return 0;
    const reach_real l1 = reach_sqrt(l1_sq), l2 = reach_sqrt(l2_sq), chain = l1 + l2;
    if (!REACH_USUALLY(reach_min(l1, l2) > REACH_ZERO_LENGTH_RATIO * chain)) return 0;
    /* reach_two_bone_solve's resolution test, on the root's coordinates in the parent's space. */
    if (!REACH_USUALLY(chain >= RIG_RESOLUTION_ULPS * REACH_REAL_EPSILON * (packed_max_abs(root) + chain))) return 0;
    packed_quat_scale3_inverse_sqrt(local, root_sq, mid_sq, end_sq);
    const packed_quat r_root = local[0], r_mid = local[1], r_end = local[2];
    const packed_quat unturn_root = packed_quat_conjugate(r_root);
    const packed_vec3 lower = packed_quat_rotate(r_mid, end_translation);

    /* The target from the root, in the world and in the root's frame. */
    const packed_vec3 world_root = packed_add(linear_of_parent(cols, root), packed_load(&in->parent_world.translation));
    const packed_vec3 world_to_target = packed_sub(packed_load(&in->target), world_root);
    const packed_vec3 to_target = packed_quat_rotate(unturn_root, into_parent(world_to_target, rows, inverse_det));
    const reach_real d_sq = packed_length_sq(to_target);
    if (!REACH_USUALLY(ordinary_limb_square(d_sq))) return 0;
    /* The target line's unit direction is to_target · scale; scale_sq = 1/d². */
    const reach_real scale_sq = 1 / d_sq;
    const reach_real d = reach_sqrt(d_sq);
    const reach_real scale = d * scale_sq;

    /* The bend side, in the root's frame and in the world: toward the pole, or, with no pole or
     * a pole on the root, where the knee sticks out now. */
    packed_vec3 side = packed_zero(), world_side = packed_zero();
    reach_real side_scale_sq = 0;
    if (in->use_pole) {
        world_side = packed_sub(packed_load(&in->pole), world_root);
        side = packed_quat_rotate(unturn_root, into_parent(world_side, rows, inverse_det));
        side_scale_sq = packed_length_sq(side);
        if (!REACH_USUALLY(ordinary_limb_square(side_scale_sq)) && !packed_is_zero(side)) return 0;
    }
    if (!(side_scale_sq > 0)) {
        const packed_vec3 aim = packed_add(upper, lower);
        const reach_real aim_sq = packed_length_sq(aim);
        if (!REACH_USUALLY(aim_sq >= RIG_CLEAR_SIDE_SQUARE_RATIO * chain * chain)) return 0;
        const reach_real along_aim = -packed_dot(upper, aim) / aim_sq;
        side = packed_mad(upper, aim, along_aim);
        const packed_vec3 world_upper = linear_of_parent(cols, packed_quat_rotate(r_root, upper));
        const packed_vec3 world_lower = linear_of_parent(cols, packed_quat_rotate(r_root, lower));
        world_side = packed_mad(world_upper, packed_add(world_upper, world_lower), along_aim);
        side_scale_sq = l1_sq;
    }
    /* The side's part off the target line, made unit. */
    const reach_real along_target = -packed_dot(side, to_target) * scale_sq;
    const packed_vec3 off_line = packed_mad(side, to_target, along_target);
    const reach_real off_line_sq = packed_length_sq(off_line);
    if (!REACH_USUALLY(off_line_sq >= RIG_CLEAR_SIDE_SQUARE_RATIO * side_scale_sq)) return 0;
    const reach_real inverse_off_line = reach_sqrt(off_line_sq) * (1 / off_line_sq);

    const reach_real dc = reach_clamp(d, reach_fabs(l1 - l2), chain);
    reach_real a, h;
    two_bone_triangle(l1, l2, l1_sq >= l2_sq, dc, d_sq, d * (REACH_R(0.5) * scale_sq), &a, &h);
    const reach_real height = h * inverse_off_line;
    const packed_vec3 new_upper = packed_mad(packed_scale(to_target, a * scale), off_line, height);
    const packed_vec3 new_lower = packed_sub(packed_scale(to_target, dc * scale), new_upper);

    /* The root turns the upper bone onto the new one; in the root's turned frame the mid joint
     * then turns the lower bone onto the new one brought into that frame: the inverse of the
     * root's arc (k = from × s, c as arc_of_equal_lengths takes them) by Rodrigues' formula,
     * v − k × v / l² + k × (k × v) / (l² c). */
    const reach_real inverse_l1_sq = 1 / l1_sq, inverse_l2_sq = 1 / l2_sq;
    const packed_vec3 root_sum = packed_add(upper, new_upper);
    const reach_real root_c = REACH_R(0.5) * packed_length_sq(root_sum);
    packed_quat root_turn;
    packed_vec3 wanted_lower;
    if (REACH_USUALLY(root_c > RIG_NEAR_HALF_TURN_RATIO * l1_sq)) {
        const packed_vec3 axis = packed_cross(upper, root_sum);
        const packed_vec3 kv = packed_cross(axis, new_lower);
        root_turn = arc_of_equal_lengths(axis, root_c, inverse_l1_sq);
        wanted_lower =
            packed_mad(packed_mad(new_lower, kv, -inverse_l1_sq), packed_cross(axis, kv), inverse_l1_sq / root_c);
    } else {
        const reach_real inverse_l1 = 1 / l1;
        root_turn = arc_near_half_turn(packed_scale(upper, inverse_l1), packed_scale(new_upper, inverse_l1));
        wanted_lower = packed_quat_rotate(packed_quat_conjugate(root_turn), new_lower);
    }
    const packed_vec3 mid_sum = packed_add(lower, wanted_lower);
    const reach_real mid_c = REACH_R(0.5) * packed_length_sq(mid_sum);
    packed_quat mid_turn;
    if (REACH_USUALLY(mid_c > RIG_NEAR_HALF_TURN_RATIO * l2_sq)) {
        mid_turn = arc_of_equal_lengths(packed_cross(lower, mid_sum), mid_c, inverse_l2_sq);
    } else {
        const reach_real inverse_l2 = 1 / l2;
        mid_turn = arc_near_half_turn(packed_scale(lower, inverse_l2), packed_scale(wanted_lower, inverse_l2));
    }

    /* Root: r_root · root_turn. Mid: mid_turn · r_mid. The end keeps its frame in the parent's
     * space: conj(new mid) · conj(root_turn) · r_mid · r_end. Products of turns that are not
     * unit, and of unit rotations: normalised once. */
    const packed_quat new_mid = packed_quat_mul(mid_turn, r_mid);
    packed_quat result[3] = {
        packed_quat_mul(r_root, root_turn), new_mid,
        packed_quat_mul(packed_quat_conjugate(new_mid),
                        packed_quat_mul(packed_quat_conjugate(root_turn), packed_quat_mul(r_mid, r_end)))};
    packed_quat_scale3_inverse_sqrt(result, packed_quat_dot(result[0], result[0]),
                                    packed_quat_dot(result[1], result[1]), packed_quat_dot(result[2], result[2]));

    /* World positions from the world vectors the frame's ones stand for: the root's frame maps
     * to_target to world_to_target and side to world_side. */
    const packed_vec3 world_mid = packed_add(
        world_root, packed_mad(packed_scale(world_to_target, a * scale + along_target * height), world_side, height));
    const packed_vec3 world_end = packed_mad(world_root, world_to_target, dc * scale);
    const reach_real world_sq = packed_length_sq(world_mid) + packed_length_sq(world_end);
    /* A world position past the range: the general path reports it. */
    if (!REACH_USUALLY(world_sq - world_sq == 0)) return 0;
    reach_real residual = 0;
    int reached = 1;
    if (dc != d) {
        /* The end lies on the target line at dc, the target at d. */
        residual = world_length(world_to_target) * (reach_fabs(d - dc) * scale);
        if (!(tolerance > 0)) {
            const packed_vec3 world_upper = linear_of_parent(cols, packed_quat_rotate(r_root, upper));
            const packed_vec3 world_lower = linear_of_parent(cols, packed_quat_rotate(r_root, lower));
            tolerance = REACH_DEFAULT_TOLERANCE_RATIO * (world_length(world_upper) + world_length(world_lower));
        }
        reached = residual <= tolerance;
    }
    packed_quat_store(&out->root_rotation, result[0]);
    packed_quat_store(&out->mid_rotation, result[1]);
    packed_quat_store(&out->end_rotation, result[2]);
    out->mid_translation = in->mid_local.translation;
    out->end_translation = in->end_local.translation;
    packed_store(&out->mid, world_mid);
    packed_store(&out->end, world_end);
    out->residual = residual;
    out->reached = reached;
    return 1;
}

static reach_status solve_rig_general(const reach_two_bone_rig_input *in, const reach_two_bone_settings *options,
                                      reach_two_bone_rig_output *out);

reach_status reach_two_bone_solve_rig(const reach_two_bone_rig_input *in, const reach_two_bone_settings *options,
                                      reach_two_bone_rig_output *out) {
    REACH_CHECK_ARG(in && out);
    if ((!options || reach__two_bone_settings_ordinary(options)) && !in->use_end_orientation &&
        solve_rig_ordinary(in, options ? options->tolerance : 0, out))
        return REACH_OK;
    return solve_rig_general(in, options, out);
}

reach_status reach_two_bone_solve_rig_general(const reach_two_bone_rig_input *in,
                                              const reach_two_bone_settings *options, reach_two_bone_rig_output *out) {
    REACH_CHECK_ARG(in && out);
    return solve_rig_general(in, options, out);
}

/* Any call: the parent's inverse by the robust route, the world-space solve with every option,
 * an asked-for end orientation, stretch, and the checks that name each bad input. */
static reach_status solve_rig_general(const reach_two_bone_rig_input *in, const reach_two_bone_settings *options,
                                      reach_two_bone_rig_output *out) {
    reach_two_bone_settings opt = options ? *options : reach_two_bone_default_settings();
    reach_status st = reach__two_bone_check_settings(&opt);
    if (!REACH_USUALLY(st == REACH_OK)) return st;
    if (!REACH_USUALLY(rig_input_is_finite(in))) return REACH_ERROR_NOT_FINITE;
    if (!REACH_USUALLY(quat_has_length(in->root_local.rotation) && quat_has_length(in->mid_local.rotation) &&
                       quat_has_length(in->end_local.rotation) &&
                       (!in->use_end_orientation || quat_has_length(in->end_orientation))))
        return REACH_ERROR_BAD_QUATERNION;
    reach_affine to_parent;
    if (!REACH_USUALLY(reach_affine_inverse(in->parent_world, &to_parent))) return REACH_ERROR_INVALID_ARGUMENT;

    /* Forward kinematics in the parent's space. */
    reach_quat r_root = normalized(in->root_local.rotation);
    reach_quat r_mid = normalized(in->mid_local.rotation);
    reach_quat r_end = normalized(in->end_local.rotation);
    reach_vec3 root = in->root_local.translation;
    reach_quat upper_frame = reach_quat_mul(r_root, r_mid); /* the mid joint's frame */
    reach_vec3 mid = reach_vec3_add(root, reach_quat_rotate(r_root, in->mid_local.translation));
    reach_vec3 end = reach_vec3_add(mid, reach_quat_rotate(upper_frame, in->end_local.translation));

    reach_two_bone_input local_in;
    local_in.root = root;
    local_in.mid = mid;
    local_in.end = end;
    local_in.target = reach_affine_point(to_parent, in->target);
    local_in.use_pole = in->use_pole;
    local_in.pole = in->use_pole ? reach_affine_point(to_parent, in->pole) : root;
    reach_two_bone_settings local_opt = opt;
    local_opt.rotations = 0; /* built below from the solved joints */
    local_opt.tolerance = 0; /* judged below, in world units */
    reach_two_bone_output solved;
    st = reach_two_bone_solve(&local_in, &local_opt, &solved);
    if (!REACH_USUALLY(st == REACH_OK)) return st;

    /* The world corrections, from the old bones' directions to the new ones: the solver's own
     * arcs are what these are, but for bones that turn half way round, where only a robust arc
     * turns them onto the solved joints (arc_between). */
    reach_vec3 zero = reach_vec3_zero();
    reach_quat turn_root = arc_between(reach_vec3_normalize_safe(reach_vec3_sub(mid, root), zero),
                                       reach_vec3_normalize_safe(reach_vec3_sub(solved.mid, root), zero));
    reach_vec3 turned_lower = reach_quat_rotate(turn_root, reach_vec3_normalize_safe(reach_vec3_sub(end, mid), zero));
    reach_quat turn_mid =
        arc_between(turned_lower, reach_vec3_normalize_safe(reach_vec3_sub(solved.end, solved.mid), zero));

    reach_two_bone_rig_output r;
    reach_quat new_root = reach_quat_mul(turn_root, r_root);
    reach_quat new_upper_frame = reach_quat_mul(reach_quat_mul(turn_mid, turn_root), upper_frame);
    r.root_rotation = unit(new_root);
    r.mid_rotation = unit(reach_quat_mul(reach_quat_conjugate(new_root), new_upper_frame));

    /* The end keeps its frame in the parent's space (so its world rotation), or takes the
     * asked-for world rotation brought into that space. */
    reach_quat end_frame = reach_quat_mul(upper_frame, r_end);
    if (in->use_end_orientation) {
        reach_mat3 wanted = reach_mat3_from_quat(normalized(in->end_orientation));
        end_frame = reach_quat_from_mat3(reach_mat3_mul(to_parent.linear, wanted));
    }
    r.end_rotation = unit(reach_quat_mul(reach_quat_conjugate(new_upper_frame), end_frame));

    /* Robust lengths: at the ends of the range a plain length overflows or underflows, and the
     * translations would be scaled by 0 or by infinity. */
    reach_real upper_length = distance(mid, root), lower_length = distance(end, mid);
    r.mid_translation = reach_vec3_scale(in->mid_local.translation, solved.upper_length / upper_length);
    r.end_translation = reach_vec3_scale(in->end_local.translation, solved.lower_length / lower_length);

    /* Forward kinematics of the result, so the reported positions are what a renderer shows. */
    reach_vec3 new_mid = reach_vec3_add(root, reach_quat_rotate(r.root_rotation, r.mid_translation));
    reach_quat mid_frame = reach_quat_mul(r.root_rotation, r.mid_rotation);
    reach_vec3 new_end = reach_vec3_add(new_mid, reach_quat_rotate(mid_frame, r.end_translation));
    r.mid = reach_affine_point(in->parent_world, new_mid);
    r.end = reach_affine_point(in->parent_world, new_end);
    if (!reach_vec3_is_finite(r.mid) || !reach_vec3_is_finite(r.end)) return REACH_ERROR_OUT_OF_RANGE;
    r.residual = distance(in->target, r.end);
    if (!reach_is_finite(r.residual)) return REACH_ERROR_OUT_OF_RANGE;

    reach_real tolerance = opt.tolerance;
    if (!(tolerance > 0)) {
        /* 1e-4 of the chain's length as the world sees it (the parent may scale it). */
        reach_vec3 world_root = reach_affine_point(in->parent_world, root);
        reach_vec3 world_mid = reach_affine_point(in->parent_world, mid);
        reach_vec3 world_end = reach_affine_point(in->parent_world, end);
        tolerance = REACH_DEFAULT_TOLERANCE_RATIO * (distance(world_mid, world_root) + distance(world_end, world_mid));
    }
    r.reached = r.residual <= tolerance;
    *out = r;
    return REACH_OK;
}
