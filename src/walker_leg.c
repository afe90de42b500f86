/* Each leg's chain from hip to foot, solved by the leg's own solver. */
#include "walker_internal.h"
#include "reach/two_bone.h"

/* Sine of the angle below which the knee direction counts as lying on the hip→foot line in 2-D. */
#define BEND_SIDE_EPSILON REACH_R(1e-3)

/* Joint k's direction from the previous pose, or the fallback where the bone has none. */
static reach_vec3 bone_direction(const reach_walker_leg *leg, int k, reach_vec3 fallback) {
    return reach_vec3_normalize_safe(reach_vec3_sub(leg->joints[k + 1], leg->joints[k]), fallback);
}

/* The point the knee bends toward. In 2-D it is the perpendicular of the hip→foot line on the
 * knee's side, so that the knee stays in the plane even when the leg is straight; the side
 * only changes when the knee direction clearly crosses the line, so that it never flickers. */
static reach_vec3 knee_pole(const reach_walker *walker, reach_walker_leg *leg) {
    reach_vec3 knee = reach_quat_rotate(walker->rotation, leg->def.knee);
    if (walker->def.dimensions == 3) return reach_vec3_add(leg->hip, knee);
    reach_vec3 to_foot = reach_vec3_sub(leg->foot, leg->hip);
    knee.z = 0;
    reach_real side = to_foot.x * knee.y - to_foot.y * knee.x;
    if (reach_fabs(side) > BEND_SIDE_EPSILON * reach_vec3_length(to_foot) * reach_vec3_length(knee))
        leg->bend = side > 0 ? 1 : -1;
    reach_vec3 across = reach_vec3_make(-to_foot.y, to_foot.x, 0);
    return reach_vec3_mad(leg->hip, across, (reach_real)leg->bend);
}

static void solve_two_bone(const reach_walker *walker, reach_walker_leg *leg) {
    reach_vec3 pole = knee_pole(walker, leg);
    reach_vec3 toward_foot = reach_vec3_normalize_safe(reach_vec3_sub(leg->foot, leg->hip), reach_vec3_make(0, 0, -1));
    reach_vec3 upper = bone_direction(leg, 0, toward_foot);
    reach_vec3 lower = bone_direction(leg, 1, upper);
    reach_two_bone_input in;
    in.root = leg->hip;
    /* The previous shape, rebuilt at the hip with the defined lengths, so that rounding never
     * accumulates into the bones' lengths over many frames. */
    in.mid = reach_vec3_mad(in.root, upper, leg->def.bone_lengths[0]);
    in.end = reach_vec3_mad(in.mid, lower, leg->def.bone_lengths[1]);
    in.target = leg->foot;
    in.pole = pole;
    in.use_pole = 1;
    reach_two_bone_options options = reach_two_bone_default_options();
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

void reach__walker_solve_leg(const reach_walker *walker, reach_walker_leg *leg) {
    switch (leg->def.solver) {
    case REACH_LEG_TWO_BONE: solve_two_bone(walker, leg); break;
    }
}
