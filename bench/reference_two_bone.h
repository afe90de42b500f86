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

/* The same solver behind the contract a game engine calls (ozz-animation's IKTwoBoneJob's):
 * the world matrices of the joints and of the root's parent in, new local rotations of the root
 * and mid joints out. It reads the world rotations off the matrices, turns them by the
 * solver's corrections and divides by the parent's world rotation: right under rotated and
 * uniformly scaled parents, which is what the bench gives it. */
typedef struct reference_two_bone_rig_input {
    reach_affine parent_world, root_world, mid_world, end_world;
    reach_vec3 target;
} reference_two_bone_rig_input;

typedef struct reference_two_bone_rig_result {
    reach_quat root_rotation, mid_rotation; /* local */
    reach_vec3 end;                         /* world, where the solver put it */
} reference_two_bone_rig_result;

void reference_two_bone_solve_rig(const reference_two_bone_rig_input *in, reference_two_bone_rig_result *out);

#endif
