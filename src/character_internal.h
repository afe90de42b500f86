/* Helpers the character files share. Private; never installed. */
#ifndef REACH_CHARACTER_INTERNAL_H
#define REACH_CHARACTER_INTERNAL_H

#include "reach/skeleton.h"

/* The bone's transform in its root's frame under the local transforms `local` (walking up the
 * parents: for a few bones, without a world array). */
reach_transform reach__bone_world(const reach_skeleton *skeleton, const reach_transform *local, int bone);

/* The humanoid role a full-body part (reach_body_part) is placed by: hips, head, hands, feet. */
int reach__body_part_role(int part);
/* The upper, middle and end roles (joint 0, 1, 2) of a limb: 0, 1 the left and right arm, 2, 3
 * the left and right leg (reach_body_part order from the left hand). */
int reach__limb_role(int limb, int joint);

#endif
