/* Private to the joint-limit code and the solvers that use it. Never installed. */
#ifndef REACH_LIMITS_INTERNAL_H
#define REACH_LIMITS_INTERNAL_H

#include "internal.h"
#include "reach/limits.h"

#define REACH__TWO_PI (2 * REACH_PI)

/* Whether an angle range [lo, hi] holds the whole circle (hi − lo of a turn or more, as ±π, a
 * hinge's full turn, and the UR5's ±2π do): every rotation about the axis is then allowed, so
 * such a range never clamps and the Jacobian solvers let the angle wrap across its ends; only a
 * narrower range is a limit. */
static inline int reach__covers_turn(reach_real lo, reach_real hi) { return hi - lo >= REACH__TWO_PI; }

/* A hinge with such a range: its angle wraps around the circle, with no limit to stop at. */
static inline int reach__hinge_wraps(const reach_joint *joint) {
    return joint->type == REACH_JOINT_HINGE && reach__covers_turn(joint->min, joint->max);
}

/* The signed angle in (-π, π] equal to `angle` modulo whole turns. */
reach_real reach__wrap_angle(reach_real angle);

/* reach_angle_clamp that also says whether the angle had to move (*clamped nonzero). A
 * non-finite angle counts as clamped and comes back as lo. */
reach_real reach__angle_clamp(reach_real angle, reach_real lo, reach_real hi, int *clamped);

/* The offset of a prismatic joint's translation from its rest: the rest-frame component of
 * translation − rest_translation along the unit axis. A rotation's cross products double their
 * vector on the way, and the difference itself can overflow: translations beyond 2^100 (a slide
 * whose range runs to the end of reach_real) are taken at 2^-100 of their size, an exact scale.
 * Others give the bits of the plain formula. */
static inline reach_real reach__prismatic_offset(reach_quat rest_rotation, reach_vec3 rest_translation,
                                                 reach_vec3 unit_axis, reach_vec3 translation) {
    const reach_real big = REACH_R(0x1p100), small = REACH_R(0x1p-100);
    int scaled = !(reach_vec3_max_abs(translation) <= big && reach_vec3_max_abs(rest_translation) <= big);
    if (scaled) {
        translation = reach_vec3_scale(translation, small);
        rest_translation = reach_vec3_scale(rest_translation, small);
    }
    reach_vec3 offset = reach_vec3_sub(translation, rest_translation);
    reach_real along = reach_vec3_dot(reach_quat_rotate(reach_quat_conjugate(rest_rotation), offset), unit_axis);
    return scaled ? along * big : along;
}

#endif
