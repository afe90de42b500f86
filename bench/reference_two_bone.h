/* A plain law-of-cosines two-bone solver: what a programmer writes in an afternoon, and what
 * reach is measured against. It finds the joint angles with acos and turns the bones by
 * axis-angle rotations: the mid joint opens to the angle that puts the end at the target's
 * distance, the root turns the limb back onto its old root→end line, then swings that line
 * onto the target. The limb stays in its current bend plane (there is no pole).
 *
 * It assumes what the bench's inputs guarantee: bones of nonzero length, a limb that is
 * bent, and a target away from the root. */
#ifndef REACH_BENCH_REFERENCE_TWO_BONE_H
#define REACH_BENCH_REFERENCE_TWO_BONE_H

#include "reach/two_bone.h"

typedef struct reference_two_bone_result {
    reach_vec3 mid, end;
    /* World rotations of the upper and lower bones relative to where they were. */
    reach_quat upper_rotation, lower_rotation;
} reference_two_bone_result;

/* Reads root, mid, end and target from in (not the pole). */
void reference_two_bone_solve(const reach_two_bone_input *in, reference_two_bone_result *out);

#endif
