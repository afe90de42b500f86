/* The triangle at the heart of every two-bone solve (the world-space solver and the rig's short
 * path): where the mid joint goes for bones l1 and l2 and a base d. Private; never installed. */
#ifndef REACH_TWO_BONE_TRIANGLE_H
#define REACH_TWO_BONE_TRIANGLE_H

#include "reach/vecmath.h"

/* The mid joint's foot along the base (from the root) and its height above it, for a triangle
 * with sides l1, l2 and base d already clamped to [|l1 − l2|, l1 + l2]. The foot is measured
 * from the end of the shorter bone: its error, eps·(d² + l²)/d, is then small next to that
 * bone's length, and both bones keep their lengths to full precision. On the clamp's ends the
 * limb is straight or folded, exactly: the foot is ±l1 and the height 0 (the formula would
 * leave a rounding of l1·sqrt(eps) there, off the line); folded, the longer bone points at the
 * target. Which bone is longer, upper_longer, is decided on the squared lengths: where the
 * bones are equal to a rounding, the batch kernel, which has no exact square roots, decides
 * alike. The caller passes d² and 1/(2d) as well, computed as it can best afford them; they
 * are read only strictly between the clamp's ends, where d > 0. */
static inline void two_bone_triangle(reach_real l1, reach_real l2, int upper_longer, reach_real d, reach_real d_sq,
                                     reach_real half_inv_d, reach_real *a, reach_real *h) {
    if (d >= l1 + l2 || d <= reach_fabs(l1 - l2)) {
        *a = (d >= l1 + l2 || upper_longer) ? l1 : -l1;
        *h = 0;
        return;
    }
    reach_real near = upper_longer ? l2 : l1, far = upper_longer ? l1 : l2;
    reach_real foot = (d_sq + (near - far) * (near + far)) * half_inv_d;
    foot = reach_clamp(foot, -near, near);
    *a = upper_longer ? d - foot : foot;
    /* With the foot within ±near, both factors are >= 0 exactly. */
    *h = reach_sqrt((near - foot) * (near + foot));
}

#endif
