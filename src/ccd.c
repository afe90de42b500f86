/* CCD: cyclic coordinate descent, tip to root, with joint limits applied at every step. See
 * include/reach/ccd.h for the method. */
#include "geometry.h"
#include "ik_methods.h"
#include "rotation_fit.h"
#include "reach/ccd.h"

/* ---- what a joint sees ------------------------------------------------------------------ */

/* One pair: a point that moves with the bone (from the joint) and where it should be. */
typedef void (*pair_visitor)(void *context, reach_vec3 from, reach_vec3 to, reach_real weight, int orientation);

/* Visits every pair the effectors below bone i give, relative to the joint at origin. */
static void visit_pairs(const reach__ik *ik, int i, reach_vec3 origin, pair_visitor visit, void *context) {
    static const reach_vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        int below = reach__is_ancestor(ik->skeleton, i, t->bone);
        reach_vec3 from = reach_vec3_sub(ik->ccd.effector[j], origin);
        if (t->kind == REACH_TARGET_POSITION) {
            if (!below) continue;
            reach_vec3 to = reach_vec3_sub(t->position, origin);
            visit(context, from, to, t->weight, 0);
            /* An effector with a ball joint takes any rotation itself (and does, last in each
             * sweep); the joints above it need to care only about its position. */
            if (!t->use_orientation) continue;
            if (i != t->bone && reach_skeleton_joint(ik->skeleton, t->bone).type == REACH_JOINT_BALL) continue;
            for (int a = 0; a < 3; ++a) {
                reach_vec3 from_axis =
                    reach_vec3_mad(from, reach_quat_rotate(ik->ccd.effector_rot[j], axes[a]), ik->ccd.lever);
                reach_vec3 to_axis =
                    reach_vec3_mad(to, reach_quat_rotate(ik->goal_rot[t->bone], axes[a]), ik->ccd.lever);
                visit(context, from_axis, to_axis, t->weight, 1);
            }
            continue;
        }
        /* A meeting pair: each side moves toward the other; a joint above both moves them
         * together and cannot close the gap. */
        int partner_below = reach__is_ancestor(ik->skeleton, i, t->meet_bone);
        reach_vec3 other = reach_vec3_sub(ik->ccd.partner[j], origin);
        if (ik->meet_anchored[j]) {
            /* Both ends go where the meeting point is held. */
            reach_vec3 goal = reach_vec3_sub(ik->goal[j], origin);
            if (below) visit(context, from, goal, t->weight, 0);
            if (partner_below) visit(context, other, goal, t->weight, 0);
            continue;
        }
        if (below && !partner_below) visit(context, from, other, t->weight, 0);
        if (partner_below && !below) visit(context, other, from, t->weight, 0);
    }
}

/* Turns (about origin) and shifts everything below bone i that the sweep keeps track of. An
 * effector's rotation is kept only where a target asks for an orientation: nothing else reads
 * it. */
static void move_below(reach__ik *ik, int i, reach_vec3 origin, reach_quat turn, reach_vec3 shift) {
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        if (reach__is_ancestor(ik->skeleton, i, t->bone)) {
            ik->ccd.effector[j] = reach_vec3_add(
                reach_vec3_add(origin, reach_quat_rotate(turn, reach_vec3_sub(ik->ccd.effector[j], origin))), shift);
            if (t->kind == REACH_TARGET_POSITION && t->use_orientation)
                ik->ccd.effector_rot[j] = reach__quat_unit(reach_quat_mul(turn, ik->ccd.effector_rot[j]));
        }
        if (t->kind == REACH_TARGET_MEET && reach__is_ancestor(ik->skeleton, i, t->meet_bone))
            ik->ccd.partner[j] = reach_vec3_add(
                reach_vec3_add(origin, reach_quat_rotate(turn, reach_vec3_sub(ik->ccd.partner[j], origin))), shift);
    }
}

/* ---- the visitors ----------------------------------------------------------------------- */

typedef struct fit_context {
    reach__fit fit;
    int pairs;
    int orientation;
    reach_vec3 from, to; /* the first pair: used alone when it is the only one */
    reach_real weight;
} fit_context;

/* A lone pair needs no fit (the shortest arc turns it): the fit starts with the second. */
static void fit_visit(void *context, reach_vec3 from, reach_vec3 to, reach_real weight, int orientation) {
    fit_context *f = (fit_context *)context;
    f->orientation |= orientation;
    if (++f->pairs == 1) {
        f->from = from;
        f->to = to;
        f->weight = weight;
        return;
    }
    if (f->pairs == 2) {
        reach__fit_reset(&f->fit);
        reach__fit_add(&f->fit, f->from, f->to, f->weight);
    }
    reach__fit_add(&f->fit, from, to, weight);
}

/* The best angle about a unit axis: maximise Σ w v·R(φ)u, so φ = atan2(Σ w a·(u⊥ × v⊥), Σ w u⊥·v⊥). */
typedef struct hinge_context {
    reach_vec3 axis;
    reach_real sine, cosine;
} hinge_context;

static void hinge_visit(void *context, reach_vec3 from, reach_vec3 to, reach_real weight, int orientation) {
    hinge_context *h = (hinge_context *)context;
    (void)orientation;
    reach_vec3 u = reach_vec3_reject(from, h->axis), v = reach_vec3_reject(to, h->axis);
    h->sine += weight * reach_vec3_dot(h->axis, reach_vec3_cross(u, v));
    h->cosine += weight * reach_vec3_dot(u, v);
}

/* The best slide along a unit axis for the position pairs: the weighted mean of a·(to − from). */
typedef struct slide_context {
    reach_vec3 axis;
    reach_real sum, weight;
} slide_context;

static void slide_visit(void *context, reach_vec3 from, reach_vec3 to, reach_real weight, int orientation) {
    slide_context *s = (slide_context *)context;
    if (orientation) return; /* a slide cannot turn anything */
    s->sum += weight * reach_vec3_dot(s->axis, reach_vec3_sub(to, from));
    s->weight += weight;
}

/* ---- one joint -------------------------------------------------------------------------- */

static reach_quat cap_rotation(reach_quat q, reach_real max_step) {
    if (!(max_step > 0)) return q;
    if (q.w < 0) q = reach_quat_neg(q);
    reach_vec3 v = reach_vec3_make(q.x, q.y, q.z);
    reach_real s = reach_vec3_length(v);
    if (!(s > 0) || 2 * reach_atan2(s, q.w) <= max_step) return q;
    return reach_quat_from_axis_angle(reach_vec3_scale(v, 1 / s), max_step);
}

/* The analytic closing step. A lone position target (its orientation, if any, left to the
 * effector's own ball joint) on a chain whose root turns freely: the
 * root's own step will point the effector at the target, so the bone below the root need not
 * aim; it bends instead so that the effector's distance from the root's joint equals the
 * target's, D. With a = joint − root and u = effector − joint, |a + R u| = D asks
 * a·(R u) = (D² − |a|² − |u|²) / 2: the effector's new direction lies on a cone about a, and the
 * smallest turn takes it to the nearest point of that cone. Then one sweep reaches whenever the
 * first two bones can span the gap, where plain CCD creeps up on targets near full reach.
 * Returns 0 (and leaves *turn alone) when the step does not apply or the cone does not exist. */
static int closing_applies(const reach__ik *ik, int i) {
    const reach_skeleton *sk = ik->skeleton;
    if (ik->target_count != 1 || sk->parents[i] != ik->root) return 0;
    const reach_target *t = &ik->targets[0];
    if (t->kind != REACH_TARGET_POSITION) return 0;
    if (t->use_orientation && reach_skeleton_joint(sk, t->bone).type != REACH_JOINT_BALL) return 0;
    reach_joint_type root_type = reach_skeleton_joint(sk, ik->root).type;
    if (root_type != REACH_JOINT_BALL && root_type != REACH_JOINT_CONE) return 0;
    return ik->child_start[ik->root + 1] - ik->child_start[ik->root] == 1;
}

static int closing_turn(const reach__ik *ik, int i, reach_vec3 origin, reach_quat *turn) {
    if (!closing_applies(ik, i)) return 0;
    const reach_target *t = &ik->targets[0];
    reach_vec3 root = ik->pos[ik->root];
    reach_vec3 a = reach_vec3_sub(origin, root), u = reach_vec3_sub(ik->ccd.effector[0], origin);
    reach_real la = reach_vec3_length(a), lu = reach_vec3_length(u), d = reach_vec3_distance(t->position, root);
    if (!(la > 0) || !(lu > 0)) return 0;
    reach_real cosine = reach__triangle_cosine(d, la, lu);
    if (cosine < -1 || cosine > 1) return 0;
    reach_vec3 axis = reach_vec3_scale(a, 1 / la), from = reach_vec3_scale(u, 1 / lu);
    reach_vec3 across = reach_vec3_normalize_safe(reach_vec3_reject(from, axis), reach_vec3_any_perpendicular(axis));
    reach_real sine = reach_sqrt(reach_max(0, 1 - cosine * cosine));
    reach_vec3 to = reach_vec3_add(reach_vec3_scale(axis, cosine), reach_vec3_scale(across, sine));
    *turn = reach_quat_shortest_arc(from, to);
    return 1;
}

/* The closing step for a hinge below the root: the turn φ about its world axis h that makes
 * the effector's distance from the root's joint equal the target's. With a = joint − root and
 * u = effector − joint split along h and across it (u∥, u⊥), |a + R(φ) u| = D asks
 * A cos φ + B sin φ = C for A = a·u⊥, B = a·(h × u⊥), C = (D² − |a|² − |u|²) / 2 − a·u∥: two
 * turns ψ ± acos(C / √(A² + B²)), ψ = atan2(B, A). Of those the hinge's range allows (the angle
 * now plus the turn), the smaller; when neither fits, the one nearer its range; when D is out of
 * this hinge's span, the turn that comes nearest. A one-sided knee starting straight bends the
 * way it can, and the root's step then lands the end. Returns 0 when the step does not apply. */
static int closing_hinge_turn(const reach__ik *ik, int i, reach_vec3 origin, reach_vec3 h, const reach_joint *joint,
                              reach_real angle, reach_real *turn) {
    if (!closing_applies(ik, i)) return 0;
    reach_vec3 root = ik->pos[ik->root];
    reach_vec3 a = reach_vec3_sub(origin, root), u = reach_vec3_sub(ik->ccd.effector[0], origin);
    reach_vec3 u_across = reach_vec3_reject(u, h), u_along = reach_vec3_sub(u, u_across);
    reach_real d = reach_vec3_distance(ik->targets[0].position, root);
    reach_real A = reach_vec3_dot(a, u_across), B = reach_vec3_dot(a, reach_vec3_cross(h, u_across));
    reach_real C = (d * d - reach_vec3_length_sq(a) - reach_vec3_length_sq(u)) / 2 - reach_vec3_dot(a, u_along);
    reach_real R = reach_sqrt(A * A + B * B);
    if (!(R > REACH_R(1e-6) * reach_vec3_length(a) * reach_vec3_length(u))) return 0;
    reach_real psi = reach_atan2(B, A), spread = reach_acos(reach_clamp(C / R, -1, 1));
    reach_real best = 0, best_excess = 0;
    for (int k = 0; k < 2; ++k) {
        reach_real candidate = psi + (k == 0 ? spread : -spread);
        candidate = reach__wrap_angle(candidate);
        int clamped;
        reach_real allowed = reach__angle_clamp(angle + candidate, joint->min, joint->max, &clamped);
        reach_real excess = reach_fabs(allowed - (angle + candidate));
        excess = clamped ? reach__circle_distance(excess) : 0;
        if (k == 0 || excess < best_excess || (excess == best_excess && reach_fabs(candidate) < reach_fabs(best))) {
            best = candidate;
            best_excess = excess;
        }
    }
    *turn = best;
    return 1;
}

/* Ball and cone: the rotation that best serves the effectors below, then the joint's limits.
 * *turned receives the world turn taken when the joint takes it whole (a ball joint). */
static int turn_free(const reach__ik *ik, int i, reach_vec3 origin, const reach_joint *joint, reach_quat parent_rot,
                     reach_quat *local, reach_quat *turned) {
    fit_context f;
    f.pairs = 0;
    f.orientation = 0;
    f.from = f.to = reach_vec3_zero();
    f.weight = 0;
    visit_pairs(ik, i, origin, fit_visit, &f);
    reach_quat turn = reach_quat_identity();
    if (closing_turn(ik, i, origin, &turn)) {
        /* bends for the root's step to finish */
    } else if (f.pairs == 1 && !f.orientation) {
        reach_vec3 from = reach__unit(f.from, reach_vec3_zero());
        reach_vec3 to = reach__unit(f.to, reach_vec3_zero());
        if (reach_vec3_length_sq(from) > 0 && reach_vec3_length_sq(to) > 0) turn = reach_quat_shortest_arc(from, to);
    } else if (f.pairs == 1) {
        /* One orientation pair: the fit of that pair alone. */
        reach__fit_reset(&f.fit);
        reach__fit_add(&f.fit, f.from, f.to, f.weight);
        turn = reach__fit_solve(&f.fit, reach_quat_identity());
    } else if (f.pairs > 1) {
        turn = reach__fit_solve(&f.fit, reach_quat_identity());
    }
    turn = cap_rotation(turn, ik->ccd.max_step);
    reach_quat wanted = reach_quat_mul(reach_quat_conjugate(parent_rot), reach_quat_mul(turn, ik->rot[i]));
    /* A ball joint allows every rotation: nothing to project. */
    if (joint->type == REACH_JOINT_BALL) {
        *local = reach__quat_unit(wanted);
        *turned = turn;
        return 0;
    }
    return reach_joint_project_rotation(joint, ik->skeleton->rest[i].rotation, wanted, local);
}

/* Hinge: the best angle about its axis, added to its angle and clamped to its range. */
static int turn_hinge(const reach__ik *ik, int i, reach_vec3 origin, const reach_joint *joint, reach_quat parent_rot,
                      reach_quat *local) {
    reach_quat rest = reach_quat_normalize_safe(ik->skeleton->rest[i].rotation);
    reach_vec3 axis = reach_vec3_normalize_safe(joint->axis, reach_vec3_make(0, 1, 0));
    hinge_context h;
    /* World axis: the rest-frame axis carried by the parent's rotation and the rest rotation
     * (the hinge's own turn leaves its axis alone). */
    h.axis = reach_quat_rotate(reach_quat_mul(parent_rot, rest), axis);
    h.sine = h.cosine = 0;
    visit_pairs(ik, i, origin, hinge_visit, &h);
    reach_real step = (h.sine != 0 || h.cosine != 0) ? reach_atan2(h.sine, h.cosine) : 0;
    reach_quat delta = reach_quat_mul(reach_quat_conjugate(rest), ik->local[i].rotation);
    closing_hinge_turn(ik, i, origin, h.axis, joint, reach_quat_twist_angle(delta, axis), &step);
    if (ik->ccd.max_step > 0) step = reach_clamp(step, -ik->ccd.max_step, ik->ccd.max_step);
    int clamped;
    reach_real angle = reach__angle_clamp(reach_quat_twist_angle(delta, axis) + step, joint->min, joint->max, &clamped);
    *local = reach_quat_normalize_safe(reach_quat_mul(rest, reach_quat_from_axis_angle(axis, angle)));
    return clamped;
}

/* Prismatic: the best slide along its axis, clamped; writes the new local translation. */
static int slide(reach__ik *ik, int i, const reach_joint *joint, reach_quat parent_rot, reach_vec3 *shift) {
    const reach_transform *rest = &ik->skeleton->rest[i];
    reach_quat rest_rot = reach_quat_normalize_safe(rest->rotation);
    reach_vec3 axis_local =
        reach_quat_rotate(rest_rot, reach_vec3_normalize_safe(joint->axis, reach_vec3_make(0, 1, 0)));
    slide_context s;
    s.axis = reach_quat_rotate(parent_rot, axis_local);
    s.sum = s.weight = 0;
    visit_pairs(ik, i, ik->pos[i], slide_visit, &s);
    reach_real offset = reach_vec3_dot(reach_vec3_sub(ik->local[i].translation, rest->translation), axis_local);
    reach_real wanted = s.weight > 0 ? offset + s.sum / s.weight : offset;
    reach_real value = reach_clamp(wanted, joint->min, joint->max);
    ik->local[i].translation = reach_vec3_mad(rest->translation, axis_local, value);
    *shift = reach_vec3_scale(s.axis, value - offset);
    return wanted < joint->min || wanted > joint->max;
}

/* One CCD step at bone i. Returns nonzero when a range clamped. */
static int step(reach__ik *ik, int i) {
    const reach_skeleton *sk = ik->skeleton;
    reach_joint joint = reach_skeleton_joint(sk, i);
    reach_quat parent_rot = i == ik->root ? ik->above_root : ik->rot[sk->parents[i]];
    reach_vec3 origin = ik->pos[i];
    reach_quat local = ik->local[i].rotation;
    reach_vec3 shift = reach_vec3_zero();
    reach_quat turned = reach_quat_identity();
    int clamped = 0;
    switch (joint.type) {
    case REACH_JOINT_BALL:
    case REACH_JOINT_CONE: clamped = turn_free(ik, i, origin, &joint, parent_rot, &local, &turned); break;
    case REACH_JOINT_HINGE: clamped = turn_hinge(ik, i, origin, &joint, parent_rot, &local); break;
    case REACH_JOINT_PRISMATIC:
        if (ik->ccd.slides_prismatic) clamped = slide(ik, i, &joint, parent_rot, &shift);
        /* fall through */
    case REACH_JOINT_FIXED: local = sk->rest[i].rotation; break;
    }
    reach_quat world = reach__quat_unit(reach_quat_mul(parent_rot, local));
    /* A ball joint took its turn whole: what lies below moves by that turn, the one its new
     * rotation would give back to rounding, without waiting for that rotation. */
    reach_quat turn = joint.type == REACH_JOINT_BALL
                          ? turned
                          : reach__quat_unit(reach_quat_mul(world, reach_quat_conjugate(ik->rot[i])));
    move_below(ik, i, origin, turn, shift);
    ik->local[i].rotation = reach__quat_unit(local);
    ik->rot[i] = world;
    return clamped;
}

/* ---- the solve -------------------------------------------------------------------------- */

static void track_effectors(reach__ik *ik) {
    for (int j = 0; j < ik->target_count; ++j) {
        const reach_target *t = &ik->targets[j];
        ik->ccd.effector[j] = ik->pos[t->bone];
        ik->ccd.effector_rot[j] = ik->rot[t->bone];
        ik->ccd.partner[j] = t->kind == REACH_TARGET_MEET ? ik->pos[t->meet_bone] : ik->ccd.effector[j];
    }
}

int reach__ccd_sweep(reach__ik *ik) {
    /* A FABRIK iteration on a free chain may have moved the positions alone. */
    reach__ik_sync_rotations(ik);
    int limited = 0;
    reach__ik_update_goals(ik);
    track_effectors(ik);
    for (int k = ik->active_count - 1; k >= 0; --k)
        limited |= step(ik, ik->active[k]);
    /* The turns above an effector carried its frame away after its own step set it: an
     * effector with an orientation target takes its step again, last. */
    for (int j = 0; j < ik->target_count; ++j)
        if (ik->targets[j].kind == REACH_TARGET_POSITION && ik->targets[j].use_orientation &&
            ik->child_start[ik->targets[j].bone] == ik->child_start[ik->targets[j].bone + 1])
            limited |= step(ik, ik->targets[j].bone);
    reach__ik_forward(ik);
    return limited;
}

size_t reach_ccd_scratch_size(const reach_skeleton *skeleton, int target_count) {
    return reach__ik_scratch_size(skeleton, target_count);
}

reach_status reach_ccd_solve(const reach_skeleton *skeleton, const reach_target *targets, int target_count,
                             const reach_solver_settings *settings, reach_transform *pose, void *scratch,
                             size_t scratch_size, reach_solve_result *result) {
    return reach__ik_solve(&reach__ccd_method, skeleton, targets, target_count, settings, pose, scratch, scratch_size,
                           result);
}
