/* Keeping rotations in step with positions: FABRIK's positions-only iterations move joints
 * without their rotations, and the driver (and any method that reads rotations) recovers them
 * once, when it needs them. */
#include "ik_state.h"

/* The unit vector along d, a link the iterations laid at its length (to rounding), `inverse`
 * 1 / that length: one Newton step from it, (3 − r) / 2 for r = |d|² / length², with no square
 * root or division; a link that came out of another length (rounding gathered far from the
 * origin) the plain way. */
static inline packed_vec3 link_direction(packed_vec3 d, reach_real inverse, packed_vec3 fallback) {
    reach_real r = packed_length_sq(d) * inverse * inverse;
    if (reach_fabs(r - 1) < REACH__NEAR_UNIT) return packed_scale(d, inverse * ((3 - r) / 2));
    return reach__packed_unit(d, fallback);
}

void reach__ik_sync_rotations(reach__ik *ik) {
    if (!ik->rotations_stale) return;
    ik->rotations_stale = 0;
    const reach_skeleton *sk = ik->skeleton;
    packed_quat parent_rot = packed_quat_load(&ik->above_root);
    int n = ik->active_count - 1;
    /* Two passes. In the first, bone b turns by the smallest swing from where its link to c
     * pointed while the rotations held (c's local translation turned by b's world rotation, still
     * in ik->rot: a unit vector once divided by the link's length, with no square root) to where
     * the iterations left it (from b's solved joint to c's). No bone's swing waits on another's:
     * only the joints follow the chain, each placed one link along that line from the one placed
     * before (where the swing takes the link, to rounding, so what rounding the chain gathered is
     * not passed on). The second takes each local rotation, the world rotation under its
     * parent's. Apart, each pass's work for one bone is short enough that the processor has
     * several bones' under way at once, where one pass held little more than one bone's long
     * chain of waits. */
    packed_vec3 solved = packed_load(&ik->pos[ik->active[0]]), joint = solved;
    for (int k = 0; k < n; ++k) {
        int b = ik->active[k], c = ik->active[k + 1];
        reach_real length = ik->link_length[c];
        packed_vec3 next = packed_load(&ik->pos[c]);
        packed_quat world = packed_quat_load(&ik->rot[b]);
        /* 1 / the length of world once swung: the swing is made unnormalised, and its length is
         * known before the product, for its square is |sum|² (|now × sum|² + w² = 2w for unit
         * now and wanted, to a few roundings of the whole whatever the angle). */
        reach_real inverse = 1;
        if (length > 0) {
            packed_vec3 held = packed_quat_rotate(world, packed_load(&ik->local[c].translation)), now, wanted;
            packed_vec3 link = packed_sub(next, solved);
            if (length * length > REACH__SQUARE_FLOOR) {
                reach_real per = 1 / length;
                now = packed_scale(held, per);
                wanted = link_direction(link, per, now);
            } else {
                /* A link so short that 1 / length overflows (a subnormal in float) is made unit
                 * the careful way. */
                now = reach__packed_unit(held, packed_zero());
                wanted = reach__packed_unit(link, now);
            }
            /* The swing as packed_quat_shortest_arc makes it, less its normalisation. */
            packed_vec3 sum = packed_add(now, wanted);
            reach_real sum2 = packed_dot(sum, sum), w = sum2 * REACH_R(0.5);
            packed_quat swing;
            if (w <= REACH_REAL_EPSILON * REACH_REAL_EPSILON) {
                swing = packed_quat_shortest_arc(now, wanted);
            } else {
                swing = packed_quat_make(packed_cross(now, sum), w);
                inverse = 1 / reach_sqrt(sum2);
            }
            world = packed_quat_mul(swing, world);
            joint = packed_mad(joint, wanted, length);
        }
        packed_quat_store(&ik->rot[b], packed_quat_scale(world, inverse));
        solved = next;
        packed_store(&ik->pos[c], joint);
    }
    /* Products of unit rotations, a few roundings from unit: one Newton step each. */
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
