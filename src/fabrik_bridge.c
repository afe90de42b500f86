/* The bridge from the root, for a lone position target at the end of a chain whose passes crawl:
 * near the edge of its reach a chain lies almost straight, and FABRIK's passes (and CCD's sweeps)
 * slide it toward the target by less each iteration, for hundreds of iterations. The batch
 * kernel's bridge ends that in one step (fabrik_batch_kernel.h); this is the same step on a
 * single chain. */
#include "fabrik_internal.h"

/* Where the apex of the triangle root, apex, far goes (reach__bridge_apex), u the unit vector
 * from root to far, on the side of hint. */
static reach_vec3 apex_of(reach_vec3 root, reach_vec3 u, reach_real d, reach_real run, reach_real last,
                          reach_vec3 hint) {
    reach_real foot, height;
    reach__bridge_apex(d, run, last, &foot, &height);
    /* Twice: what the first rejection leaves of a hint near the line is mostly rounding. */
    reach_vec3 across = reach_vec3_reject(reach_vec3_reject(reach_vec3_sub(hint, root), u), u);
    reach_real across2 = reach_vec3_dot(across, across);
    across = across2 > REACH__SQUARE_FLOOR * d * d ? reach_vec3_scale(across, 1 / reach_sqrt(across2))
                                                   : reach_vec3_any_perpendicular(u);
    return reach_vec3_add(reach_vec3_mad(root, u, foot), reach_vec3_scale(across, height));
}

int reach__ik_root_bridge(reach__ik *ik, reach_vec3 root) {
    const int *active = ik->active;
    reach_vec3 *pos = ik->pos;
    int n = ik->active_count - 1;
    reach_real run = ik->link_length[active[1]];
    for (int k = 2; k <= n; ++k) {
        reach_real last = ik->link_length[active[k]], total = run + last;
        reach_vec3 gap = reach_vec3_sub(pos[active[k]], root);
        reach_real d2 = reach_vec3_dot(gap, gap);
        /* Joint k out of reach of the links up to it, or no triangle to close onto it (the run
         * would fold back, or the closing link is longer than the run and the gap together):
         * look further along. */
        reach_real lack = run - last;
        if (d2 > total * total || d2 < lack * lack) {
            run = total;
            continue;
        }
        /* The first joint the links up to it can reach. k = 2 is the closing step the passes
         * take anyway. */
        if (k == 2 || !(d2 > REACH__SQUARE_FLOOR && d2 < REACH__SQUARE_CEILING)) return 0;
        reach_real d = reach_sqrt(d2);
        if (d < reach_fabs(lack)) return 0; /* a rounding away from the test on squares */
        reach_vec3 u = reach_vec3_scale(gap, 1 / d);
        reach_vec3 apex = apex_of(root, u, d, run, last, pos[active[k - 1]]);
        reach_vec3 along = reach__unit(reach_vec3_sub(apex, root), u);
        reach_real laid = 0;
        pos[active[0]] = root;
        for (int j = 1; j < k - 1; ++j) {
            laid += ik->link_length[active[j]];
            pos[active[j]] = reach_vec3_mad(root, along, laid);
        }
        pos[active[k - 1]] = reach_vec3_mad(root, along, run);
        return 1;
    }
    return 0;
}
