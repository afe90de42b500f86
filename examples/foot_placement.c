/* Foot placement: a leg (hip, knee, ankle) under a posed pelvis puts its ankle on uneven ground
 * and tilts the foot to the slope, the knee bending toward a pole in front of the character.
 * reach_two_bone_solve_rig returns new local rotations; we check them by forward kinematics. */
#include <stdio.h>

#include "reach/reach.h"

/* The ground (y up): gentle hills, and the normal -dh/dx, 1, -dh/dz of the height h(x, z). */
static reach_real ground(reach_real x, reach_real z, reach_vec3 *normal) {
    reach_real a = REACH_R(0.06);
    *normal = reach_vec3_normalize_safe(
        reach_vec3_make(-a * REACH_R(2.5) * reach_cos(REACH_R(2.5) * x) * reach_cos(REACH_R(1.5) * z), 1,
                        a * REACH_R(1.5) * reach_sin(REACH_R(2.5) * x) * reach_sin(REACH_R(1.5) * z)),
        reach_vec3_make(0, 1, 0));
    return a * reach_sin(REACH_R(2.5) * x) * reach_cos(REACH_R(1.5) * z);
}

/* A child joint's world frame: parent · (rotation, translation). */
static reach_affine joint(reach_affine parent, reach_quat rotation, reach_vec3 translation) {
    return reach_affine_mul(parent, reach_affine_from_transform(reach_transform_make(rotation, translation)));
}

int main(void) {
    const reach_vec3 up = reach_vec3_make(0, 1, 0), forward = reach_vec3_make(0, 0, 1);
    /* The pelvis, turned 0.6 rad to the left and rolled a little: the leg's posed parent. */
    reach_quat turn =
        reach_quat_mul(reach_quat_from_axis_angle(up, REACH_R(0.6)), reach_quat_from_axis_angle(forward, REACH_R(0.1)));
    reach_transform pelvis = reach_transform_make(turn, reach_vec3_make(REACH_R(0.3), REACH_R(0.82), REACH_R(-0.2)));

    reach_two_bone_rig_input leg = {0};
    leg.parent_world = reach_affine_from_transform(pelvis);
    leg.root_local = reach_transform_make(reach_quat_identity(), reach_vec3_make(REACH_R(0.1), 0, 0));  /* hip */
    leg.mid_local = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, REACH_R(-0.45), 0)); /* knee */
    leg.end_local = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, REACH_R(-0.42), 0)); /* ankle */
    leg.use_pole = 1;
    leg.use_end_orientation = 1;
    reach_two_bone_settings options = reach_two_bone_default_settings();

    reach_vec3 hip = reach_transform_point(pelvis, leg.root_local.translation);
    reach_vec3 ahead = reach_quat_rotate(turn, forward); /* where the character faces */

    int failures = 0;
    for (int step = -2; step <= 2; step++) { /* five footholds along a stride */
        /* Where the foot goes: below the hip, `step` × 0.12 ahead, 0.08 (the ankle) above the ground. */
        reach_vec3 normal, spot = reach_vec3_mad(hip, ahead, REACH_R(0.12) * (reach_real)step);
        spot.y = ground(spot.x, spot.z, &normal) + REACH_R(0.08);
        leg.target = spot;
        leg.pole = reach_vec3_mad(reach_vec3_mad(hip, up, REACH_R(-0.4)), ahead, 1); /* in front of the knee */
        /* The foot's world rotation: the pelvis's (its rest rotation), tipped so its up is the normal. */
        leg.end_orientation = reach_quat_mul(reach_quat_shortest_arc(reach_quat_rotate(turn, up), normal), turn);

        reach_two_bone_rig_output out;
        reach_status status = reach_two_bone_solve_rig(&leg, &options, &out);
        if (status != REACH_OK) {
            fprintf(stderr, "solve failed: %s\n", reach_status_string(status));
            return 1;
        }
        /* Forward kinematics of the new local transforms: pelvis · hip · knee · ankle. */
        reach_affine hip_world = joint(leg.parent_world, out.root_rotation, leg.root_local.translation);
        reach_affine knee_world = joint(hip_world, out.mid_rotation, out.mid_translation);
        reach_affine ankle_world = joint(knee_world, out.end_rotation, out.end_translation);
        reach_real miss = reach_vec3_distance(ankle_world.translation, spot);
        reach_vec3 sole_up = reach_mat3_mul_vec3(ankle_world.linear, up);
        /* How far the knee sticks out ahead of the hip-ankle line: the pole's side. */
        reach_vec3 middle = reach_vec3_lerp(hip, ankle_world.translation, REACH_R(0.5));
        reach_real bend = reach_vec3_dot(reach_vec3_sub(knee_world.translation, middle), ahead);
        int ok = out.reached && miss < REACH_R(1e-4) && reach_vec3_dot(sole_up, normal) > REACH_R(0.9999) && bend > 0;
        printf("step %+d: ankle (%.3f, %.3f, %.3f) miss %.1e, knee %.3f ahead, foot on slope %s\n", step,
               (double)spot.x, (double)spot.y, (double)spot.z, (double)miss, (double)bend, ok ? "ok" : "FAILED");
        failures += !ok;
    }
    return failures == 0 ? 0 : 1;
}
