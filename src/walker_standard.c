/* The standard creature: legs in left/right pairs, grouped so that the two groups alternate. */
#include "internal.h"
#include "walker_internal.h"

/* Body and leg proportions of the standard creature, in rig units. */
#define HIP_SPAN_FORWARD  REACH_R(0.8) /* first hips this far ahead of the body origin, last as far behind */
#define HIP_SIDE          REACH_R(0.5) /* hips this far left and right of the body's axis */
#define FOOT_OUT          REACH_R(1.2) /* rest feet this far out from their hips */
#define FOOT_FAN          REACH_R(0.5) /* front feet point this far (rad) forward of sideways, rear ones back */
#define KNEE_FORE_AFT     REACH_R(0.5) /* knee direction: forward for the front half, back for the rear */
#define KNEE_OUT          REACH_R(0.3)
#define UPPER_BONE_LENGTH REACH_R(1.1)
#define LOWER_BONE_LENGTH REACH_R(1.3)

/* FABRIK legs: three bones in the proportions of a classic procedural spider (50, 45, 35). */
static const reach_real fabrik_lengths[3] = {REACH_R(0.9), REACH_R(0.85), REACH_R(0.65)};

/* Pair k counts from the front, side 0 is left and 1 right; neighbours along a side and across
 * the body differ, which gives the alternating tetrapod, the tripod, the trot and the
 * left-right alternation. */
int reach_walker_gait_group(int leg_count, int leg) {
    if (leg < 0 || leg >= leg_count) return -1;
    return (leg / 2 + leg % 2) % 2;
}

reach_status reach_walker_standard_legs(int leg_count, reach_leg_solver solver, reach_walker_leg_def *legs) {
    REACH_CHECK_ARG(legs);
    if (leg_count < 2 || leg_count > REACH_WALKER_MAX_LEGS || leg_count % 2 != 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (solver != REACH_LEG_TWO_BONE && solver != REACH_LEG_FABRIK) return REACH_ERROR_INVALID_ARGUMENT;
    int pairs = leg_count / 2;
    for (int i = 0; i < leg_count; i++) {
        int pair = i / 2;
        reach_real side = i % 2 == 0 ? 1 : -1;
        /* 1 at the front pair, -1 at the rear one, 0 for a single pair. */
        reach_real front = pairs > 1 ? 1 - 2 * (reach_real)pair / (reach_real)(pairs - 1) : 0;
        reach_real fan = FOOT_FAN * front;
        reach_walker_leg_def leg = reach_walker_default_leg_def();
        leg.hip = reach_vec3_make(HIP_SPAN_FORWARD * front, HIP_SIDE * side, 0);
        leg.rest = reach_vec2_make(leg.hip.x + FOOT_OUT * reach_sin(fan), leg.hip.y + side * FOOT_OUT * reach_cos(fan));
        leg.group = reach_walker_gait_group(leg_count, i);
        leg.solver = solver;
        if (solver == REACH_LEG_FABRIK) {
            leg.bone_count = 3;
            for (int k = 0; k < 3; k++)
                leg.bone_lengths[k] = fabrik_lengths[k];
        } else {
            leg.bone_lengths[0] = UPPER_BONE_LENGTH;
            leg.bone_lengths[1] = LOWER_BONE_LENGTH;
        }
        leg.knee = reach_vec3_make(front >= 0 ? KNEE_FORE_AFT : -KNEE_FORE_AFT, side * KNEE_OUT, 1);
        legs[i] = leg;
    }
    return REACH_OK;
}
