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
