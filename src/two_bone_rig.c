/* Two-bone IK on a hierarchy: from local transforms under any parent to new local rotations.
 *
 * The solve runs in the space of the root's parent. There the chain is a rigid rotation-and-
 * translation hierarchy, so the bones keep their lengths however the parent scales or mirrors
 * the world, and the parent's affine map carries the solved pose back out exactly. */
#include "internal.h"
#include "packed_vec3.h"
#include "reach/two_bone.h"

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
    if (sq > REACH_R(0x1p-100) && sq < REACH_R(0x1p+100)) {
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
    if (sq > REACH_R(0x1p-100) && sq < REACH_R(0x1p+100)) return reach_sqrt(sq);
    return reach_vec3_length_robust(v);
}

/* The parent's determinants the short path takes: far enough from the ends of the range that
 * the adjugate's products and its reciprocal neither overflow nor lose bits to underflow, and
 * any NaN or infinity in the parent's map fails the test. */
#define ORDINARY_MIN_DETERMINANT REACH_R(0x1p-40)
#define ORDINARY_MAX_DETERMINANT REACH_R(0x1p+40)

/* A rotation's square the short path takes: far from the ends of the range, as it is for the
 * unit or nearly unit rotations rigs hold (NaN and infinity fail). */
static inline int ordinary_rotation_square(reach_real sq) { return sq > REACH_R(0x1p-100) && sq < REACH_R(0x1p+100); }

/* A vector's length: plain where its square is far from the ends of the range, robust
 * otherwise (as distance above). */
static inline reach_real world_length(packed_vec3 v) {
    reach_real sq = packed_length_sq(v);
    if (REACH_USUALLY(sq > REACH_R(0x1p-100) && sq < REACH_R(0x1p+100))) return reach_sqrt(sq);
    reach_vec3 u;
    packed_store(&u, v);
    return reach_vec3_length_robust(u);
}

/* p brought into the parent's space by the adjugate: rows r0, r1, r2 of det · inverse(linear). */
static inline packed_vec3 into_parent(packed_vec3 p, packed_vec3 origin, const packed_vec3 rows[3],
                                      reach_real inverse_det) {
    packed_vec3 v = packed_sub(p, origin);
    reach_vec3 r = reach_vec3_make(packed_dot(rows[0], v), packed_dot(rows[1], v), packed_dot(rows[2], v));
    return packed_scale(packed_load(&r), inverse_det);
}

/* linear · v: the parent's map of a vector, columns cols. */
static inline packed_vec3 linear_of_parent(const packed_vec3 cols[3], packed_vec3 v) {
    reach_vec3 c;
    packed_store(&c, v);
    return packed_add(packed_add(packed_scale(cols[0], c.x), packed_scale(cols[1], c.y)), packed_scale(cols[2], c.z));
}

/* The everyday call (the options' defaults but for the tolerance, no end orientation, a parent
 * whose determinant lies in the ordinary range, unit or nearly unit rotations) without the
 * general path's detours: the parent's inverse applied by the adjugate to the two points that
 * need it, no ldexp, the translations kept (no stretch, so their ratio is 1), and the world
 * positions mapped from the solve's own rather than by a second forward kinematics. Returns 1
 * having written *out, or 0, writing nothing, for the general path to take the call. Every
 * input it reads but does not test itself (the translations, the target, the pole) reaches
 * reach_two_bone_solve, which refuses NaN and infinity. */
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
    const packed_vec3 origin = packed_load(&in->parent_world.translation);
    const packed_vec3 rows[3] = {packed_cross(cols[1], cols[2]), packed_cross(cols[2], cols[0]),
                                 packed_cross(cols[0], cols[1])};
    const reach_real det = packed_dot(cols[0], rows[0]);
    const reach_real det_abs = reach_fabs(det);
    if (!REACH_USUALLY(det_abs >= ORDINARY_MIN_DETERMINANT && det_abs <= ORDINARY_MAX_DETERMINANT)) return 0;
    const reach_real inverse_det = 1 / det;

    /* Forward kinematics in the parent's space. */
    packed_quat_scale3_inverse_sqrt(local, root_sq, mid_sq, end_sq);
    const packed_quat r_root = local[0], r_mid = local[1], r_end = local[2];
    const packed_quat upper_frame = packed_quat_mul(r_root, r_mid);
    const packed_vec3 root = packed_load(&in->root_local.translation);
    const packed_vec3 upper = packed_quat_rotate(r_root, packed_load(&in->mid_local.translation));
    const packed_vec3 lower = packed_quat_rotate(upper_frame, packed_load(&in->end_local.translation));
    const packed_vec3 mid = packed_add(root, upper);

    reach_two_bone_input local_in;
    packed_store(&local_in.root, root);
    packed_store(&local_in.mid, mid);
    packed_store(&local_in.end, packed_add(mid, lower));
    packed_store(&local_in.target, into_parent(packed_load(&in->target), origin, rows, inverse_det));
    local_in.use_pole = in->use_pole;
    local_in.pole = local_in.root;
    if (in->use_pole) packed_store(&local_in.pole, into_parent(packed_load(&in->pole), origin, rows, inverse_det));
    reach_two_bone_output solved;
    if (!REACH_USUALLY(reach_two_bone_solve(&local_in, NULL, &solved) == REACH_OK)) return 0;

    const packed_vec3 world_mid = packed_add(linear_of_parent(cols, packed_load(&solved.mid)), origin);
    const packed_vec3 world_end = packed_add(linear_of_parent(cols, packed_load(&solved.end)), origin);
    const reach_real residual = world_length(packed_sub(packed_load(&in->target), world_end));
    /* A world position past the range: the general path reports it. */
    const reach_real world_mid_sq = packed_length_sq(world_mid);
    if (!REACH_USUALLY(residual - residual == 0 && world_mid_sq - world_mid_sq == 0)) return 0;
    if (!(tolerance > 0))
        tolerance = REACH_DEFAULT_TOLERANCE_RATIO *
                    (world_length(linear_of_parent(cols, upper)) + world_length(linear_of_parent(cols, lower)));

    /* New frames: the solve's world corrections applied to the old ones. */
    const packed_quat turn_root = packed_quat_load(&solved.root_rotation);
    const packed_quat new_root = packed_quat_mul(turn_root, r_root);
    const packed_quat new_upper_frame =
        packed_quat_mul(packed_quat_mul(packed_quat_load(&solved.mid_rotation), turn_root), upper_frame);
    /* The end keeps its frame in the parent's space. */
    packed_quat result[3] = {
        new_root, packed_quat_mul(packed_quat_conjugate(new_root), new_upper_frame),
        packed_quat_mul(packed_quat_conjugate(new_upper_frame), packed_quat_mul(upper_frame, r_end))};
    /* Products of unit quaternions, unit to rounding: renormalised. */
    packed_quat_scale3_inverse_sqrt(result, packed_quat_dot(result[0], result[0]),
                                    packed_quat_dot(result[1], result[1]), packed_quat_dot(result[2], result[2]));
    packed_quat_store(&out->root_rotation, result[0]);
    packed_quat_store(&out->mid_rotation, result[1]);
    packed_quat_store(&out->end_rotation, result[2]);
    out->mid_translation = in->mid_local.translation;
    out->end_translation = in->end_local.translation;
    packed_store(&out->mid, world_mid);
    packed_store(&out->end, world_end);
    out->residual = residual;
    out->reached = residual <= tolerance;
    return 1;
}

reach_status reach_two_bone_solve_rig(const reach_two_bone_rig_input *in, const reach_two_bone_settings *options,
                                      reach_two_bone_rig_output *out) {
    REACH_CHECK_ARG(in && out);
    if ((!options || reach__two_bone_settings_ordinary(options)) && !in->use_end_orientation &&
        solve_rig_ordinary(in, options ? options->tolerance : 0, out))
        return REACH_OK;
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
    local_opt.rotations = 1;
    local_opt.tolerance = 0; /* judged below, in world units */
    reach_two_bone_output solved;
    st = reach_two_bone_solve(&local_in, &local_opt, &solved);
    if (!REACH_USUALLY(st == REACH_OK)) return st;

    reach_two_bone_rig_output r;
    reach_quat new_root = reach_quat_mul(solved.root_rotation, r_root);
    reach_quat new_upper_frame = reach_quat_mul(reach_quat_mul(solved.mid_rotation, solved.root_rotation), upper_frame);
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
