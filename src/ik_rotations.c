/* Keeping rotations in step with positions: FABRIK's positions-only iterations move joints
 * without their rotations, and the driver (and any method that reads rotations) recovers them
 * once, when it needs them. */
#include "ik_state.h"

void reach__ik_sync_rotations(reach__ik *ik) {
    if (!ik->rotations_stale) return;
    ik->rotations_stale = 0;
    const reach_skeleton *sk = ik->skeleton;
    packed_quat parent_rot = packed_quat_load(&ik->above_root);
    int n = ik->active_count - 1;
    /* Three passes: where each link pointed, as a unit vector; down the chain of joints, each
     * placed from the one before, with the world rotations; then the local rotations. Only the
     * middle one waits on itself from bone to bone: work that does not is kept out of its loop,
     * where it would queue behind that chain of waits. */
    for (int k = 1; k <= n; ++k)
        packed_store(&ik->link_before[ik->active[k]],
                     reach__packed_unit(packed_load(&ik->link_before[ik->active[k]]), packed_zero()));
    packed_vec3 joint = packed_load(&ik->pos[ik->active[0]]);
    for (int k = 0; k < n; ++k) {
        int b = ik->active[k], c = ik->active[k + 1];
        /* The smallest swing from where the link to c pointed to where it points now, from b's
         * joint as the swings above placed it: c's joint then lies one link along that line (where
         * the swing takes the link, to rounding), so what rounding the chain gathered is not
         * passed on. */
        packed_vec3 now = packed_load(&ik->link_before[c]);
        packed_vec3 wanted = reach__packed_unit(packed_sub(packed_load(&ik->pos[c]), joint), now);
        packed_quat world = packed_quat_load(&ik->rot[b]);
        if (packed_length_sq(now) > 0) {
            /* The swing as packed_quat_shortest_arc makes it, less its normalisation: the product
             * with the unit rotation before it is normalised anyway, and its length is the
             * swing's. */
            packed_vec3 sum = packed_add(now, wanted);
            reach_real w = packed_dot(sum, sum) * REACH_R(0.5);
            packed_quat swing = w <= REACH_REAL_EPSILON * REACH_REAL_EPSILON
                                    ? packed_quat_shortest_arc(now, wanted)
                                    : packed_quat_make(packed_cross(now, sum), w);
            world = reach__packed_quat_unit(packed_quat_mul(swing, world));
        }
        packed_quat_store(&ik->rot[b], world);
        joint = packed_mad(joint, wanted, ik->link_length[c]);
        packed_store(&ik->pos[c], joint);
    }
    for (int k = 0; k < n; ++k) {
        packed_quat world = packed_quat_load(&ik->rot[ik->active[k]]);
        packed_quat_store(&ik->local[ik->active[k]].rotation,
                          reach__packed_quat_unit(packed_quat_mul(packed_quat_conjugate(parent_rot), world)));
        parent_rot = world;
    }
    /* The tip keeps its wanted world rotation as nearly as its joint allows. */
    int tip = ik->active[n];
    reach_quat above_tip;
    packed_quat_store(&above_tip, parent_rot);
    reach_quat local = reach__quat_unit(reach_quat_mul(reach_quat_conjugate(above_tip), ik->goal_rot[tip]));
    if (reach__joint_type(sk, tip) != REACH_JOINT_BALL)
        reach_joint_project_rotation(&sk->joints[tip], sk->rest[tip].rotation, local, &local);
    ik->local[tip].rotation = local;
    ik->rot[tip] = reach__quat_unit(reach_quat_mul(above_tip, local));
}
