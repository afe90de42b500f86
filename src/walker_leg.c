/* Each leg's chain from hip to foot, solved by the leg's own solver. */
#include "walker_internal.h"
#include "reach/fabrik.h"
#include "reach/two_bone.h"

/* Sine of the angle below which the knee direction counts as lying on the hip→foot line in 2-D. */
#define BEND_SIDE_EPSILON REACH_R(1e-3)

/* FABRIK legs stop within this fraction of their reach of the foot, or after this many
 * iterations (a tightly folded chain converges slowly); a leg left further than the
 * retry fraction from its foot tries again. */
#define FABRIK_TOLERANCE      REACH_R(1e-5)
#define FABRIK_MAX_ITERATIONS 200
#define FABRIK_RETRY_RESIDUAL REACH_R(1e-4)

/* Below this share of its length along the ground, a hip-to-foot line counts as upright: a few
 * dozen roundings. */
#define GROUND_SHARE (64 * REACH_REAL_EPSILON)

/* Joint k's direction from the previous pose, or the fallback where the bone has none. */
static reach_vec3 leg_bone_direction(const reach_walker_leg *leg, int k, reach_vec3 fallback) {
    return reach_vec3_normalize_safe(reach_vec3_sub(leg->joints[k + 1], leg->joints[k]), fallback);
}

/* 2-D: which side of the hip→foot line the knee is on. It only changes when the knee direction
 * clearly crosses the line, so that it never flickers. */
static void update_bend_side(reach_walker_leg *leg, reach_vec3 knee) {
    reach_vec3 to_foot = reach_vec3_sub(leg->foot, leg->hip);
    knee.z = 0;
    reach_real side = to_foot.x * knee.y - to_foot.y * knee.x;
    if (reach_fabs(side) > BEND_SIDE_EPSILON * reach_vec3_length(to_foot) * reach_vec3_length(knee))
        leg->bend = side > 0 ? 1 : -1;
}

static reach_vec3 knee_direction(const reach_walker *walker, const reach_walker_leg *leg) {
    return reach_quat_rotate(walker->rotation, leg->def.knee);
}

static reach_vec2 ground_plane(reach_vec3 v) { return reach_vec2_make(v.x, v.y); }

/* 2-D: the planar solver, bent to the knee's side of the hip→foot line, so that the chain
 * never leaves z = 0, even with the foot on the hip or the solve refused. */
static void solve_two_bone_2d(const reach_walker *walker, reach_walker_leg *leg) {
    reach_vec3 knee = knee_direction(walker, leg);
    update_bend_side(leg, knee);
    reach_vec2 hip = ground_plane(leg->hip);
    reach_vec2 knee_2d = reach_vec2_normalize_safe(ground_plane(knee), reach_vec2_make(1, 0));
    reach_vec2 upper =
        reach_vec2_normalize_safe(reach_vec2_sub(ground_plane(leg->joints[1]), ground_plane(leg->joints[0])), knee_2d);
    reach_vec2 lower =
        reach_vec2_normalize_safe(reach_vec2_sub(ground_plane(leg->joints[2]), ground_plane(leg->joints[1])), upper);
    reach_two_bone_2d_input in;
    in.root = hip;
    /* The previous shape rebuilt at the hip with the defined lengths, as in 3-D below. */
    in.mid = reach_vec2_add(in.root, reach_vec2_scale(upper, leg->def.bone_lengths[0]));
    in.end = reach_vec2_add(in.mid, reach_vec2_scale(lower, leg->def.bone_lengths[1]));
    in.target = ground_plane(leg->foot);
    in.bend = leg->bend > 0 ? REACH_BEND_CCW : REACH_BEND_CW;
    reach_two_bone_settings options = reach_two_bone_default_settings();
    options.rotations = 0;
    reach_two_bone_2d_output out;
    if (reach_two_bone_solve_2d(&in, &options, &out) != REACH_OK) {
        out.mid = in.mid;
        out.end = in.end;
    }
    leg->joints[0] = leg->hip;
    leg->joints[1] = reach_vec3_make(out.mid.x, out.mid.y, 0);
    leg->joints[2] = reach_vec3_make(out.end.x, out.end.y, 0);
}

static void solve_two_bone(const reach_walker *walker, reach_walker_leg *leg) {
    if (walker->def.dimensions == 2) {
        solve_two_bone_2d(walker, leg);
        return;
    }
    reach_vec3 pole = reach_vec3_add(leg->hip, knee_direction(walker, leg));
    reach_vec3 toward_foot = reach_vec3_normalize_safe(reach_vec3_sub(leg->foot, leg->hip), reach_vec3_make(0, 0, -1));
    reach_vec3 upper = leg_bone_direction(leg, 0, toward_foot);
    reach_vec3 lower = leg_bone_direction(leg, 1, upper);
    reach_two_bone_input in;
    in.root = leg->hip;
    /* The previous shape, rebuilt at the hip with the defined lengths, so that rounding never
     * accumulates into the bones' lengths over many frames. */
    in.mid = reach_vec3_mad(in.root, upper, leg->def.bone_lengths[0]);
    in.end = reach_vec3_mad(in.mid, lower, leg->def.bone_lengths[1]);
    in.target = leg->foot;
    in.pole = pole;
    in.use_pole = 1;
    reach_two_bone_settings options = reach_two_bone_default_settings();
    options.rotations = 0;
    reach_two_bone_output out;
    /* The inputs are finite and the lengths positive, so the solver succeeds; should it ever
     * not, the leg keeps its previous shape rather than take an undefined one. */
    if (reach_two_bone_solve(&in, &options, &out) != REACH_OK) {
        out.mid = in.mid;
        out.end = in.end;
    }
    leg->joints[0] = in.root;
    leg->joints[1] = out.mid;
    leg->joints[2] = out.end;
}

/* The unit direction of v along the ground (v less its part along the unit up), or fallback
 * where v is upright but for roundings. Taking off the up part leaves a rounding of about eps·|v|:
 * where that is all that remains, its direction is noise, not even square to up (a foot two
 * millionths of its distance off the vertical below its hip gave an axis 5° off the ground, and
 * the leg left that plane with a bone 1 % long). Above GROUND_SHARE, a second pass takes off
 * what the first left along up; the foot then lies in the plane to roundings of |v|, and the
 * leg reaches it (a share of 1e-3 left feet that near the vertical out of the plane, missed by
 * up to that share of the leg). */
static reach_vec3 along_ground(reach_vec3 v, reach_vec3 up, reach_vec3 fallback) {
    reach_vec3 flat = reach_vec3_reject(v, up);
    if (!(reach_vec3_length_robust(flat) > GROUND_SHARE * reach_vec3_length_robust(v))) return fallback;
    flat = reach_vec3_normalize_safe(flat, fallback);
    return reach_vec3_normalize_safe(reach_vec3_reject(flat, up), fallback);
}

/* The plane a FABRIK leg is solved in: x toward the foot along the ground (toward the rest
 * position when the foot is right below the hip), y the body's up axis in 3-D, or the side of
 * the knee in 2-D. */
static void leg_plane(const reach_walker *walker, reach_walker_leg *leg, reach_vec3 *x_axis, reach_vec3 *y_axis) {
    reach_vec3 up = walker->up;
    reach_vec3 rest = reach_vec3_make(leg->def.rest.x - leg->def.hip.x, leg->def.rest.y - leg->def.hip.y, 0);
    reach_vec3 toward_rest =
        along_ground(reach_quat_rotate(walker->rotation, rest), up, reach_vec3_any_perpendicular(up));
    *x_axis = along_ground(reach_vec3_sub(leg->foot, leg->hip), up, toward_rest);
    if (walker->def.dimensions == 3) {
        *y_axis = up;
        return;
    }
    update_bend_side(leg, knee_direction(walker, leg));
    *y_axis = reach_vec3_scale(reach_vec3_make(-x_axis->y, x_axis->x, 0), (reach_real)leg->bend);
}

/* Runs the 2-D solver on points (left as they were should it fail) and returns the residual. */
static reach_real fabrik_2d(const reach_walker_leg *leg, reach_vec2 *points, reach_vec2 target, int limited) {
    reach_fabrik_2d_chain chain;
    chain.bone_count = leg->def.bone_count;
    chain.joints = points;
    chain.lengths = leg->def.bone_lengths;
    chain.min_angle = limited ? leg->def.min_angle : NULL;
    chain.max_angle = limited ? leg->def.max_angle : NULL;
    chain.base_direction = reach_vec2_make(1, 0);
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = FABRIK_MAX_ITERATIONS;
    settings.tolerance = FABRIK_TOLERANCE * leg->def.reach;
    reach_solve_result result;
    if (reach_fabrik_solve_2d(&chain, target, &settings, &result) != REACH_OK)
        return reach_vec2_distance(points[chain.bone_count], target);
    return result.residual;
}

/* Where a stalled solve starts again: for a limited leg the chain with every joint in the
 * middle of its range (a shape the limits allow, folded the way they let it fold); otherwise an
 * arch toward the knee's side, its bones turning evenly from +1 to -1 rad. */
static void restart_shape(const reach_walker_leg *leg, reach_vec2 *points) {
    int count = leg->def.bone_count;
    reach_real angle = 0;
    points[0] = reach_vec2_make(0, 0);
    for (int k = 0; k < count; k++) {
        if (leg->def.limited)
            angle += (leg->def.min_angle[k] + leg->def.max_angle[k]) / 2;
        else
            angle = 1 - 2 * (reach_real)k / (reach_real)(count - 1);
        reach_vec2 direction = reach_vec2_make(reach_cos(angle), reach_sin(angle));
        points[k + 1] = reach_vec2_add(points[k], reach_vec2_scale(direction, leg->def.bone_lengths[k]));
    }
}

/* FABRIK in the leg's plane, starting from the previous shape seen in the current plane; the
 * solver keeps the bone lengths and the angle limits. FABRIK can stall in a fold it cannot
 * undo (under limits) or creep through a tight zigzag; when it stops short, it starts again
 * from the restart shape and the closer of the two results is kept. */
static void solve_fabrik(const reach_walker *walker, reach_walker_leg *leg) {
    reach_vec3 x_axis, y_axis;
    leg_plane(walker, leg, &x_axis, &y_axis);
    int count = leg->def.bone_count;
    reach_vec2 points[REACH_WALKER_MAX_BONES + 1], retry[REACH_WALKER_MAX_BONES + 1];
    for (int k = 0; k <= count; k++) {
        reach_vec3 offset = reach_vec3_sub(leg->joints[k], leg->joints[0]);
        points[k] = reach_vec2_make(reach_vec3_dot(offset, x_axis), reach_vec3_dot(offset, y_axis));
    }
    reach_vec3 to_foot = reach_vec3_sub(leg->foot, leg->hip);
    reach_vec2 target = reach_vec2_make(reach_vec3_dot(to_foot, x_axis), reach_vec3_dot(to_foot, y_axis));
    reach_real residual = fabrik_2d(leg, points, target, leg->def.limited);
    if (residual > FABRIK_RETRY_RESIDUAL * leg->def.reach) {
        restart_shape(leg, retry);
        if (fabrik_2d(leg, retry, target, leg->def.limited) < residual)
            for (int k = 0; k <= count; k++)
                points[k] = retry[k];
    }
    for (int k = 0; k <= count; k++)
        leg->joints[k] = reach_vec3_add(reach_vec3_add(leg->hip, reach_vec3_scale(x_axis, points[k].x)),
                                        reach_vec3_scale(y_axis, points[k].y));
    leg->joints[0] = leg->hip;
}

void reach__walker_solve_leg(const reach_walker *walker, reach_walker_leg *leg) {
    switch (leg->def.solver) {
    case REACH_LEG_TWO_BONE: solve_two_bone(walker, leg); break;
    case REACH_LEG_FABRIK: solve_fabrik(walker, leg); break;
    }
}
