/* The steps of an aim shared by the one-bone and chain solvers. Private; never installed. */
#ifndef REACH_AIM_INTERNAL_H
#define REACH_AIM_INTERNAL_H

#include "reach/aim.h"

/* The world rotation that turns a bone (world rotation `rotation`, joint at `joint`) by the
 * smallest turn so that its ray (from the local point `offset` along the local unit `forward`)
 * passes through target. *axis receives the unit line from the joint to the target (the axis
 * about which a roll keeps the aim); `up` (local unit) is the axis a target straight behind turns
 * about. Returns 0, leaving the rotation as it was, when the target is at the joint. */
int reach__aim_turn(reach_quat rotation, reach_vec3 joint, reach_vec3 target, reach_vec3 forward, reach_vec3 offset,
                    reach_vec3 up, reach_quat *out, reach_vec3 *axis);

/* The roll about the unit aim axis that leans the local unit `up` of `rotation` toward the world
 * direction pole, in radians; 0 when either lies along the axis. */
reach_real reach__aim_roll(reach_quat rotation, reach_vec3 axis, reach_vec3 up, reach_vec3 pole);

/* Angle between the ray of `rotation` (local offset and unit forward, joint at `joint`) and the
 * way from the ray's origin to target; 0 when the target is at the origin. */
reach_real reach__aim_error(reach_quat rotation, reach_vec3 joint, reach_vec3 target, reach_vec3 forward,
                            reach_vec3 offset);

/* The settings' checks, shared with the chain. forward and up are normalised into *unit_forward
 * and *unit_up. */
reach_status reach__aim_check_settings(const reach_aim_settings *settings, reach_vec3 *unit_forward,
                                       reach_vec3 *unit_up);

/* A chain being aimed: the skeleton, the chain's bones (each the parent of the next), the pose
 * being changed, and the last bone's unit axes and ray. */
typedef struct reach__aim_chain {
    const reach_skeleton *skeleton;
    const int *bones;
    int count;
    reach_transform *local, *world;
    reach_vec3 target, pole, forward, up, offset;
    const reach_aim_settings *aim;
} reach__aim_chain;

/* Gives chain bone k the world rotation `rotation`, as near as its joint allows, and carries the
 * change down the chain. Returns nonzero when the joint's limits clamped. */
int reach__aim_chain_set_rotation(const reach__aim_chain *c, int k, reach_quat rotation);

/* Angle between the last bone's ray and the way from its origin to the target. */
reach_real reach__aim_chain_error(const reach__aim_chain *c);

/* Takes the last bone's remaining aim error down by damped Gauss-Newton steps on the chain's
 * last bones with a nonzero share (shares may be NULL), each step kept inside the joints' limits;
 * a step is kept only when it lowers the error. Returns the error left. */
reach_real reach__aim_chain_polish(const reach__aim_chain *c, const reach_real *shares);

#endif
