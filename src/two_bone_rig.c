/* Two-bone IK on a hierarchy: from local transforms under any parent to new local rotations.
 *
 * The solve runs in the space of the root's parent. There the chain is a rigid rotation-and-
 * translation hierarchy, so the bones keep their lengths however the parent scales or mirrors
 * the world, and the parent's affine map carries the solved pose back out exactly. */
#include "internal.h"
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

reach_status reach_two_bone_solve_rig(const reach_two_bone_rig_input *in, const reach_two_bone_settings *options,
                                      reach_two_bone_rig_output *out) {
    REACH_CHECK_ARG(in && out);
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
        tolerance = REACH_R(1e-4) * (distance(world_mid, world_root) + distance(world_end, world_mid));
    }
    r.reached = r.residual <= tolerance;
    *out = r;
    return REACH_OK;
}
