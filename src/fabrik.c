/* FABRIK on a skeleton: chains, trees of effectors and closed loops, with joint limits inside
 * both passes. See include/reach/fabrik.h for the method. */
#include "fabrik_internal.h"
#include "ik_methods.h"
#include "reach/fabrik.h"

/* ---- the backward pass ------------------------------------------------------------------ */

static void add_proposal(reach__ik *ik, int bone, reach_vec3 position, reach_real weight) {
    ik->fabrik.sum_pos[bone] = reach_vec3_mad(ik->fabrik.sum_pos[bone], position, weight);
    ik->fabrik.sum_weight[bone] += weight;
}

static void add_rotation(reach__ik *ik, int bone, reach_quat rotation, reach_real weight) {
    /* q and -q are one rotation: sum on the side of the bone's current rotation. */
    if (reach_quat_dot(rotation, ik->rot[bone]) < 0) rotation = reach_quat_neg(rotation);
    reach_quat *s = &ik->fabrik.sum_rot[bone];
    *s = reach_quat_make(s->x + rotation.x * weight, s->y + rotation.y * weight, s->z + rotation.z * weight,
                         s->w + rotation.w * weight);
}

/* Where bone b's parent should be so that b sits at p with world rotation rot_b: the parent
 * turns by the smallest swing that points its link to b at p and, when b's own rotation
 * matters, further so that b's joint limit holds; then it sits one link back from p. */
static void propose_parent(reach__ik *ik, int b, reach_vec3 p, reach_quat rot_b) {
    int parent = ik->skeleton->parents[b];
    reach_vec3 link = ik->local[b].translation;
    reach_vec3 now = reach_vec3_normalize_safe(reach_quat_rotate(ik->rot[parent], link), reach_vec3_zero());
    reach_vec3 wanted = reach_vec3_normalize_safe(reach_vec3_sub(p, ik->pos[parent]), now);
    reach_quat rot_parent = ik->rot[parent];
    if (reach_vec3_length_sq(now) > 0)
        rot_parent = reach_quat_normalize_safe(reach_quat_mul(reach_quat_shortest_arc(now, wanted), rot_parent));
    if (!ik->free_tip[b]) {
        /* b's local rotation is rot_parent⁻¹ · rot_b; clamp it and solve for the parent. */
        reach_joint joint = reach_skeleton_joint(ik->skeleton, b);
        reach_quat local = reach_quat_mul(reach_quat_conjugate(rot_parent), rot_b);
        reach_joint_project_rotation(&joint, ik->skeleton->rest[b].rotation, local, &local);
        rot_parent = reach_quat_normalize_safe(reach_quat_mul(rot_b, reach_quat_conjugate(local)));
    }
    reach_real weight = ik->weight[b];
    add_proposal(ik, parent, reach_vec3_sub(p, reach_quat_rotate(rot_parent, link)), weight);
    add_rotation(ik, parent, rot_parent, weight);
}

static void backward(reach__ik *ik) {
    for (int k = 0; k < ik->active_count; ++k) {
        int b = ik->active[k];
        ik->fabrik.sum_pos[b] = reach_vec3_zero();
        ik->fabrik.sum_rot[b] = reach_quat_make(0, 0, 0, 0);
        ik->fabrik.sum_weight[b] = 0;
    }
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        add_proposal(ik, t->bone, ik->goal[j], t->weight);
        if (t->kind == REACH_TARGET_MEET) add_proposal(ik, t->meet_bone, ik->goal[j], t->weight);
    }
    /* Tips inward: by the time a bone is reached, every branch below it has proposed. */
    for (int k = ik->active_count - 1; k >= 0; --k) {
        int b = ik->active[k];
        reach_vec3 p = ik->fabrik.sum_weight[b] > 0
                           ? reach_vec3_scale(ik->fabrik.sum_pos[b], 1 / ik->fabrik.sum_weight[b])
                           : ik->pos[b];
        reach_quat rot_b =
            reach__ik_child_count(ik, b) > 0 ? reach_quat_normalize_safe(ik->fabrik.sum_rot[b]) : ik->goal_rot[b];
        if (b != ik->root) propose_parent(ik, b, p, rot_b);
        ik->pos[b] = p;
        ik->rot[b] = rot_b;
    }
}

/* ---- the forward pass ------------------------------------------------------------------- */

/* Where a middle joint goes so that it sits la from a and lb from e, on the circle of such points
 * the one in the direction `side` from the a→e line (a unit vector across it; the one nearest
 * `hint` when `side` is zero); `hint` itself when no such point exists. On the a→e line at
 * x = (d² + la² − lb²) / 2d, radius √(la² − x²). */
static reach_vec3 two_bone_point(reach_vec3 a, reach_vec3 e, reach_vec3 hint, reach_vec3 side, reach_real la,
                                 reach_real lb) {
    reach_vec3 ae = reach_vec3_sub(e, a);
    reach_real d = reach_vec3_length(ae);
    if (!(d > 0) || d < reach_fabs(la - lb)) return hint;
    reach_vec3 u = reach_vec3_scale(ae, 1 / d);
    /* Just out of the two bones' span (a linkage at a dead centre, or rounding): straight. */
    if (d >= la + lb) return d <= (la + lb) * (1 + REACH__STRAIGHT_SLACK) ? reach_vec3_mad(a, u, la) : hint;
    reach_real x, h;
    reach__triangle_apex(d * d, d, la, lb, &x, &h);
    reach_vec3 across = reach_vec3_normalize_safe(reach_vec3_reject(side, u), reach_vec3_zero());
    if (reach_vec3_length_sq(across) == 0)
        across =
            reach_vec3_normalize_safe(reach_vec3_reject(reach_vec3_sub(hint, a), u), reach_vec3_any_perpendicular(u));
    return reach_vec3_add(reach_vec3_mad(a, u, x), reach_vec3_scale(across, h));
}

/* How far a hinge at angle `angle` lies outside its range, around the circle (0 inside). */
static reach_real hinge_excess(const reach_joint *joint, reach_real angle) {
    int clamped;
    reach_real allowed = reach__angle_clamp(angle, joint->min, joint->max, &clamped);
    if (!clamped) return 0;
    reach_real gap = reach_fabs(angle - allowed);
    return reach__circle_distance(gap);
}

/* The side of the a→e line a hinged middle joint c should bend toward, as a world vector across
 * the line, or zero to keep the side it is on. A hinge bends the chain in one sense only: turned
 * by β from straight about its world axis n, the middle joint sits toward −s (n × u) from the
 * line (u along it, s the sign of β). The bend the gap asks, β* from the triangle, may fit the
 * hinge's range on one side only (a knee that bends one way, starting straight, has no side
 * yet): then that side. Else the side the joint is on now, as plain FABRIK would. */
static reach_vec3 hinge_side(const reach__ik *ik, int c, int g, reach_vec3 a, reach_vec3 e, reach_vec3 hint) {
    const reach_skeleton *sk = ik->skeleton;
    reach_joint joint = reach_skeleton_joint(sk, c);
    if (joint.type != REACH_JOINT_HINGE) return reach_vec3_zero();
    reach_vec3 axis = reach_vec3_normalize_safe(joint.axis, reach_vec3_make(0, 1, 0));
    /* The angle at which c's child link lies along c's own link: straight. */
    reach_vec3 link = reach_quat_rotate(reach_quat_conjugate(reach_quat_normalize_safe(sk->rest[c].rotation)),
                                        ik->local[c].translation);
    reach_vec3 from = reach_vec3_reject(ik->local[g].translation, axis), to = reach_vec3_reject(link, axis);
    if (!(reach_vec3_length_sq(from) > 0) || !(reach_vec3_length_sq(to) > 0)) return reach_vec3_zero();
    reach_real straight = reach_atan2(reach_vec3_dot(axis, reach_vec3_cross(from, to)), reach_vec3_dot(from, to));
    reach_real la = reach_vec3_length(ik->local[c].translation), lb = reach_vec3_length(ik->local[g].translation);
    reach_vec3 ae = reach_vec3_sub(e, a);
    reach_real d = reach_vec3_length(ae);
    if (!(d > 0) || !(la > 0) || !(lb > 0)) return reach_vec3_zero();
    reach_real bend = reach_acos(reach_clamp(reach__triangle_cosine(d, la, lb), -1, 1));
    reach_vec3 n = reach_quat_rotate(ik->rot[c], axis);
    reach_vec3 positive = reach_vec3_normalize_safe(reach_vec3_neg(reach_vec3_cross(n, ae)), reach_vec3_zero());
    if (reach_vec3_length_sq(positive) == 0) return reach_vec3_zero();
    reach_real over_plus = hinge_excess(&joint, straight + bend), over_minus = hinge_excess(&joint, straight - bend);
    reach_real now = reach_vec3_dot(reach_vec3_sub(hint, a), positive);
    reach_real slack = REACH__LIMIT_SLACK;
    int plus_fits = over_plus <= slack, minus_fits = over_minus <= slack;
    if ((now > 0 && plus_fits) || (now < 0 && minus_fits)) return reach_vec3_zero();
    if (plus_fits != minus_fits) return plus_fits ? positive : reach_vec3_neg(positive);
    if (now != 0 && plus_fits) return reach_vec3_zero();
    return over_plus <= over_minus ? positive : reach_vec3_neg(positive);
}

/* Where the forward pass aims bone b (joint at p) with the one moving child c. Plain FABRIK
 * aims at where the backward pass left c. When c too has one moving child g, c goes instead to
 * the point nearest that which also sits one link from where the backward pass left g: then the
 * rest of the chain lies exactly as the backward pass laid it, ending on the target, so one
 * iteration reaches whenever the first two bones can span the gap (the analytic two-bone step
 * inside FABRIK). A hinge at c picks the side of the line it can bend to (hinge_side). */
static reach_vec3 aim_point(const reach__ik *ik, int c, reach_vec3 p) {
    if (reach__ik_child_count(ik, c) != 1) return ik->pos[c];
    int g = ik->children[ik->child_start[c]];
    /* A joint that a target of its own holds goes to the crossing nearer that target. */
    reach_vec3 hint = reach__ik_held_or_current(ik, c);
    return two_bone_point(p, ik->pos[g], hint, hinge_side(ik, c, g, p, ik->pos[g], hint),
                          reach_vec3_length(ik->local[c].translation), reach_vec3_length(ik->local[g].translation));
}

/* The local rotation for bone b, whose joint now sits at p under a parent rotated parent_rot:
 * aimed at its one moving child, fitted to several, or the effector's wanted rotation; always
 * inside the joint's limits. Returns nonzero when a range clamped. */
static int place_bone(const reach__ik *ik, int b, reach_quat parent_rot, reach_vec3 p, const reach_vec3 *aim_all,
                      reach_quat *local) {
    const reach_skeleton *sk = ik->skeleton;
    reach_joint joint = reach_skeleton_joint(sk, b);
    reach_quat rest = sk->rest[b].rotation;
    int first = ik->child_start[b], count = reach__ik_child_count(ik, b);
    if (count == 1) {
        int c = ik->children[first];
        reach_quat current = reach_quat_mul(reach_quat_conjugate(parent_rot), ik->rot[b]);
        return reach_joint_aim(&joint, parent_rot, rest, current, ik->local[c].translation,
                               reach_vec3_sub(aim_all ? *aim_all : aim_point(ik, c, p), p), local);
    }
    reach_quat world = ik->goal_rot[b];
    if (count > 1) {
        reach__fit fit;
        reach__fit_reset(&fit);
        for (int m = first; m < first + count; ++m) {
            int c = ik->children[m];
            reach__fit_add(&fit, ik->local[c].translation, reach_vec3_sub(ik->pos[c], p), ik->weight[c]);
        }
        world = reach__fit_solve(&fit, ik->rot[b]);
    }
    return reach_joint_project_rotation(&joint, rest, reach_quat_mul(reach_quat_conjugate(parent_rot), world), local);
}

/* Root outward, by forward kinematics from the rotations placed. Returns nonzero when a joint's
 * range clamped a bone whose rotation matters. */
static int forward(reach__ik *ik, const reach_vec3 *aim_all) {
    const reach_skeleton *sk = ik->skeleton;
    int limited = 0;
    for (int k = 0; k < ik->active_count; ++k) {
        int b = ik->active[k];
        reach_quat parent_rot = b == ik->root ? ik->above_root : ik->rot[sk->parents[b]];
        reach_vec3 parent_pos = b == ik->root ? ik->above_origin : ik->pos[sk->parents[b]];
        reach_vec3 p = reach_vec3_add(parent_pos, reach_quat_rotate(parent_rot, ik->local[b].translation));
        reach_quat local;
        int clamped = place_bone(ik, b, parent_rot, p, aim_all, &local);
        if (!ik->free_tip[b]) limited |= clamped;
        ik->local[b].rotation = local;
        ik->rot[b] = reach_quat_normalize_safe(reach_quat_mul(parent_rot, local));
        ik->pos[b] = p;
    }
    return limited;
}

/* The target of a lone position target when the chain to it is too short to get there, else
 * NULL. Such a chain ends straight toward the target, and every bone aiming at the target from
 * its own joint lays it so at once (as nearly as the limits allow), where the passes would only
 * approach it. */
static const reach_vec3 *out_of_reach(const reach__ik *ik) {
    return reach__ik_target_out_of_reach(ik) ? &ik->targets[0].position : NULL;
}

/* Where the root's joint sits: the backward pass moves its entry in ik->pos, not the joint. */
static reach_vec3 root_joint(const reach__ik *ik) {
    return reach_vec3_add(ik->above_origin, reach_quat_rotate(ik->above_root, ik->local[ik->root].translation));
}

int reach__fabrik_iterate(reach__ik *ik) {
    if (ik->free_chain) return reach__fabrik_chain_iterate(ik);
    const reach_vec3 *aim_all = out_of_reach(ik);
    if (aim_all) return forward(ik, aim_all);
    reach__ik_update_goals(ik);
    backward(ik);
    if (reach__ik_crawling(ik) && ik->lone_chain) {
        /* The forward pass aims each bone at the joints the bridge placed, as the limits allow.
         * Where they do not let it reach, the plain forward pass goes from the backward pass's
         * places instead (kept in buffers the passes do not use between iterations). */
        for (int k = 0; k < ik->active_count; ++k) {
            ik->kept_pos[ik->active[k]] = ik->pos[ik->active[k]];
            ik->fabrik.sum_rot[ik->active[k]] = ik->rot[ik->active[k]];
        }
        if (reach__ik_root_bridge(ik, root_joint(ik))) {
            int limited = forward(ik, NULL);
            if (reach__ik_target_distance(ik, 0) <= ik->tolerance) return limited;
            for (int k = 0; k < ik->active_count; ++k) {
                ik->pos[ik->active[k]] = ik->kept_pos[ik->active[k]];
                ik->rot[ik->active[k]] = ik->fabrik.sum_rot[ik->active[k]];
            }
        }
    }
    return forward(ik, NULL);
}

size_t reach_fabrik_scratch_size(const reach_skeleton *skeleton, int target_count) {
    return reach__ik_scratch_size(skeleton, target_count);
}

reach_status reach_fabrik_solve(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                                const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                                size_t scratch_size, reach_solve_result *result) {
    return reach__ik_solve(&reach__fabrik_method, skeleton, targets, target_count, settings, pose, scratch,
                           scratch_size, result);
}
