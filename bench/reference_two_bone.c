/* The plain law-of-cosines two-bone solver (see reference_two_bone.h). Written for clarity,
 * not speed: it is the bar reach has to clear. */
#include "reference_two_bone.h"

static reach_vec3 unit(reach_vec3 v) { return reach_vec3_scale(v, 1 / reach_vec3_length(v)); }

/* acos that tolerates a cosine rounded just past ±1. */
static reach_real angle_from_cosine(reach_real c) { return reach_acos(reach_clamp(c, -1, 1)); }

void reference_two_bone_solve(const reach_two_bone_input *in, reference_two_bone_result *out) {
    reach_vec3 ab = reach_vec3_sub(in->mid, in->root);
    reach_vec3 bc = reach_vec3_sub(in->end, in->mid);
    reach_vec3 ac = reach_vec3_sub(in->end, in->root);
    reach_vec3 at = reach_vec3_sub(in->target, in->root);
    reach_real lab = reach_vec3_length(ab), lbc = reach_vec3_length(bc);
    reach_real lat = reach_clamp(reach_vec3_length(at), reach_fabs(lab - lbc), lab + lbc);

    /* Angles now: at the root between the upper bone and root→end, inside the mid joint. */
    reach_real root_angle = angle_from_cosine(reach_vec3_dot(unit(ab), unit(ac)));
    reach_real mid_angle = angle_from_cosine(-reach_vec3_dot(unit(ab), unit(bc)));
    /* Angles wanted, by the law of cosines for the triangle with sides lab, lbc and lat. */
    reach_real root_wanted = angle_from_cosine((lab * lab + lat * lat - lbc * lbc) / (2 * lab * lat));
    reach_real mid_wanted = angle_from_cosine((lab * lab + lbc * lbc - lat * lat) / (2 * lab * lbc));

    /* Turning about the bend normal ac × ab moves root→end toward the upper bone and opens
     * the mid joint. */
    reach_vec3 bend_normal = unit(reach_vec3_cross(ac, ab));
    reach_quat open_mid = reach_quat_from_axis_angle(bend_normal, mid_wanted - mid_angle);
    reach_quat keep_line = reach_quat_from_axis_angle(bend_normal, root_wanted - root_angle);
    /* Then root→end swings onto root→target; if those are (anti)parallel, about the normal. */
    reach_vec3 swing_axis = reach_vec3_cross(ac, at);
    swing_axis = reach_vec3_length(swing_axis) > 0 ? unit(swing_axis) : bend_normal;
    reach_quat swing = reach_quat_from_axis_angle(swing_axis, angle_from_cosine(reach_vec3_dot(unit(ac), unit(at))));

    out->upper_rotation = reach_quat_mul(swing, keep_line);
    out->lower_rotation = reach_quat_mul(out->upper_rotation, open_mid);
    out->mid = reach_vec3_add(in->root, reach_quat_rotate(out->upper_rotation, ab));
    out->end = reach_vec3_add(out->mid, reach_quat_rotate(out->lower_rotation, bc));
}

/* The rotation of a rotation matrix scaled uniformly: columns normalised, then Shepperd's method
 * (divide by the largest of the four candidates for 4w², 4x², 4y², 4z²). */
static reach_quat rotation_of(reach_mat3 m) {
    reach_vec3 x = unit(m.col[0]), y = unit(m.col[1]), z = unit(m.col[2]);
    reach_real trace = x.x + y.y + z.z;
    if (trace > 0) {
        reach_real s = 2 * reach_sqrt(1 + trace);
        return reach_quat_make((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, s / 4);
    }
    if (x.x > y.y && x.x > z.z) {
        reach_real s = 2 * reach_sqrt(1 + x.x - y.y - z.z);
        return reach_quat_make(s / 4, (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s);
    }
    if (y.y > z.z) {
        reach_real s = 2 * reach_sqrt(1 + y.y - x.x - z.z);
        return reach_quat_make((y.x + x.y) / s, s / 4, (z.y + y.z) / s, (z.x - x.z) / s);
    }
    reach_real s = 2 * reach_sqrt(1 + z.z - x.x - y.y);
    return reach_quat_make((z.x + x.z) / s, (z.y + y.z) / s, s / 4, (x.y - y.x) / s);
}

void reference_two_bone_solve_rig(const reference_two_bone_rig_input *in, reference_two_bone_rig_result *out) {
    reach_two_bone_input limb;
    limb.root = in->root_world.translation;
    limb.mid = in->mid_world.translation;
    limb.end = in->end_world.translation;
    limb.target = in->target;
    reference_two_bone_result solved;
    reference_two_bone_solve(&limb, &solved);
    reach_quat parent = rotation_of(in->parent_world.linear);
    reach_quat root = reach_quat_mul(solved.upper_rotation, rotation_of(in->root_world.linear));
    reach_quat mid = reach_quat_mul(solved.lower_rotation, rotation_of(in->mid_world.linear));
    out->root_rotation = reach_quat_mul(reach_quat_conjugate(parent), root);
    out->mid_rotation = reach_quat_mul(reach_quat_conjugate(root), mid);
    out->end = solved.end;
}
