/* The hub: the methods the driver runs, and how they lend each other a hand. FABRIK, whose
 * iterations can wander under tight limits, polishes with CCD's sweeps, which only move
 * downhill. CCD, whose sweeps crawl near the edge of a chain's reach and never lay a chain
 * straight toward a target out of it, hands over to FABRIK's iterations there. */
#include "ik_methods.h"

/* On a chain of cones the hand-off waits until this many sweeps in a row have not halved the
 * error: sweeps that close in on their own, if slowly, are left to it (a hand-off's pose can lie
 * in another valley of the limits than the one the sweeps were closing in on). */
#define CONE_CRAWL_SWEEPS 16

/* ---- FABRIK ----------------------------------------------------------------------------- */

const reach__ik_method reach__fabrik_method = {NULL, reach__fabrik_iterate, reach__ccd_sweep, NULL, 1};

/* ---- CCD, handing over to FABRIK -------------------------------------------------------- */

/* The hand-off, with no cap on the steps: a free chain whose end does not slide; guarded, a
 * lone target on a chain of ball and cone joints, its end's too (so no hinge asks for the
 * restart from the middle of the ranges, whose saved pose the guard's shares). FABRIK's arc
 * start is not CCD's: its iterations here go from whatever pose the sweeps left. */
static void ccd_prepare(reach__ik *ik, const reach_solver_settings *settings) {
    ik->ccd.slides_prismatic = 1;
    ik->fabrik.arc_start = 0;
    if (settings->ccd_max_step != 0) return;
    if (ik->free_chain) {
        int tip = ik->active[ik->active_count - 1];
        ik->handoff.allowed = reach__joint_type(ik->skeleton, tip) != REACH_JOINT_PRISMATIC;
    } else if (ik->lone_chain) {
        ik->handoff.allowed = ik->handoff.guarded = 1;
        for (int k = 0; k < ik->active_count; ++k) {
            reach_joint_type type = reach__joint_type(ik->skeleton, ik->active[k]);
            if (type != REACH_JOINT_BALL && type != REACH_JOINT_CONE) ik->handoff.allowed = 0;
        }
    }
}

/* Within the chain's reach (and its tolerance): out of it, sweeps settle where a curled chain
 * lies nearest, and FABRIK's straight line can end further from the target than they. */
static int target_within_reach(const reach__ik *ik) {
    return reach_vec3_distance(ik->targets[0].position, ik->pos[ik->root]) <= ik->chain_length + ik->tolerance;
}

/* Whether the sweeps on a chain of cones may hand over now: a lone target within the reach, no
 * hand-off begun or given up, and no kick: from the bent pose FABRIK's iterations
 * would be judged against a pose worse than the sweeps had found, and could end further than
 * the solve started. */
static int may_hand_off(const reach__ik *ik) {
    return ik->handoff.allowed && ik->handoff.guarded && !ik->handoff.active && !ik->kicked && target_within_reach(ik);
}

/* FABRIK's iteration in place of a sweep on a chain of cones, kept only when it reaches or
 * lowers the error; otherwise the pose goes back and sweeps take over for good. Within cones
 * FABRIK's passes can drift where the limits bend them, so unguarded they could raise the
 * error. Returns whether the iteration was kept. */
static int guarded_fabrik_iteration(reach__ik *ik, int *limited) {
    reach_real before = reach__ik_weighted_error(ik);
    reach__ik_keep_rotations(ik);
    *limited = reach__fabrik_iterate(ik);
    reach__ik_sync_rotations(ik);
    reach_real residual, angle_residual, after;
    if (reach__ik_assess(ik, &residual, &angle_residual, &after) || after < before) return 1;
    reach__ik_restore_rotations(ik);
    ik->handoff.allowed = 0;
    ik->handoff.active = 0;
    return 0;
}

/* On a chain of free joints sweeps never lay the chain straight toward a target out of its
 * reach, and near the edge of the reach they crawl (a few per cent of the chain's length short
 * after 64 sweeps). There FABRIK's iteration does: straight toward the target, or the bridge
 * from the root. Not with an end that slides (FABRIK keeps the link lengths of the start), not
 * under a cap on the steps (FABRIK's iteration knows none; and a capped solve crawls by
 * design). On chains of cones, where sweeps crawl too (a tenth of the targets of ten-bone
 * chains of 0.8 rad cones missed after 256 sweeps), it takes over for a target within the
 * reach after CONE_CRAWL_SWEEPS crawling sweeps (or, as the stalled solve's remedy, when the
 * sweeps stall where the driver has no kick to try; never after a kick), and only while each
 * of its iterations reaches or lowers the error: out of reach, where a curled chain lies, its
 * straight line can end further from the target than the sweeps. */
static int ccd_iterate(reach__ik *ik) {
    if (ik->handoff.allowed && !ik->handoff.guarded &&
        (reach__ik_target_out_of_reach(ik) || (reach__ik_crawling(ik) && ik->lone_chain)))
        return reach__fabrik_iterate(ik);
    if (ik->handoff.active || (ik->slow_iterations >= CONE_CRAWL_SWEEPS && may_hand_off(ik))) {
        ik->handoff.active = 1;
        int limited = 0;
        if (guarded_fabrik_iteration(ik, &limited)) return limited;
    }
    return reach__ccd_sweep(ik);
}

static int ccd_begin_fallback(reach__ik *ik) {
    if (!may_hand_off(ik)) return 0;
    ik->handoff.active = 1;
    return 1;
}

const reach__ik_method reach__ccd_method = {ccd_prepare, ccd_iterate, NULL, ccd_begin_fallback, 0};
