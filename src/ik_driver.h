/* The driver every iterative method of the reach__ik family runs under (ik_driver.c): check the
 * inputs, lay out the scratch, start, iterate until every target is within tolerance, the cap is
 * reached or the solve stalls, and write the pose. A method supplies a table of what it does;
 * the hub (ik_methods.c) fills the tables, so that no method calls another's internals.
 * Private; never installed. */
#ifndef REACH_IK_DRIVER_H
#define REACH_IK_DRIVER_H

#include "ik_state.h"

/* What a method supplies. Each function returns nonzero when a joint range clamped. */
typedef struct reach__ik_method {
    /* Sets the method's policy on a started state (may be NULL). */
    void (*prepare)(reach__ik *ik, const reach_solver_settings *settings);
    /* One iteration. */
    int (*iterate)(reach__ik *ik);
    /* What the driver iterates with instead once `iterate` wanders, uses half the budget or
     * stalls with no remedy left: a method that only ever moves downhill (may be NULL). */
    int (*polish)(reach__ik *ik);
    /* A stalled solve's own remedy, tried after the driver's (moving the root, bending a chain
     * off the line): returns nonzero when it began one, which the next iterations carry out
     * (may be NULL). */
    int (*begin_fallback)(reach__ik *ik);
    /* settings.fabrik_move_root applies: a stalled solve moves the root toward its targets. */
    int may_move_root;
} reach__ik_method;

/* Bytes of scratch a solve needs (0 for a NULL skeleton or a negative count). */
size_t reach__ik_scratch_size(const reach_skeleton *skeleton, int target_count);

/* The whole solve, for reach_fabrik_solve and reach_ccd_solve. */
reach_status reach__ik_solve(const reach__ik_method *method, const reach_skeleton *skeleton,
                             const reach_target *targets, int target_count, const reach_solver_settings *settings,
                             reach_transform *pose, void *scratch, size_t scratch_size, reach_solve_result *result);

#endif
