/* FABRIK in 2-D on plain arrays of points, with angle limits relative to the parent bone
 * (each bone's turn from its parent's direction). Everything is checked first; the joints are written only after. */
#include "fabrik_internal.h"
#include "settings_internal.h"
#include "reach/fabrik.h"

/* ---- angles between directions ---------------------------------------------------------- */

/* The signed angle from unit a to unit b, counter-clockwise positive: atan2(a × b, a · b). */
static reach_real turn_between(reach_vec2 a, reach_vec2 b) {
    return reach_atan2(reach_vec2_cross(a, b), reach_vec2_dot(a, b));
}

static reach_vec2 rotate(reach_vec2 v, reach_real angle) {
    reach_real c = reach_cos(angle), s = reach_sin(angle);
    return reach_vec2_make(c * v.x - s * v.y, s * v.x + c * v.y);
}

/* The direction nearest `wanted` that turns from `from` by an angle in [lo, hi]. */
static reach_vec2 limit_turn(reach_vec2 from, reach_vec2 wanted, reach_real lo, reach_real hi, int *clamped) {
    int outside;
    reach_real allowed = reach__angle_clamp(turn_between(from, wanted), lo, hi, &outside);
    if (!outside) return wanted;
    *clamped = 1;
    return rotate(from, allowed);
}

/* ---- checking --------------------------------------------------------------------------- */

static int limited(const reach_fabrik_2d_chain *chain) { return chain->min_angle != NULL; }

static reach_status check_chain(const reach_fabrik_2d_chain *chain, reach_vec2 target) {
    if (chain->bone_count < 1 || !chain->joints || !chain->lengths) return REACH_ERROR_INVALID_ARGUMENT;
    if ((chain->min_angle == NULL) != (chain->max_angle == NULL)) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_vec2_is_finite(target)) return REACH_ERROR_NOT_FINITE;
    reach_real extent = reach_max(reach_fabs(target.x), reach_fabs(target.y));
    for (int i = 0; i <= chain->bone_count; ++i) {
        reach_vec2 p = chain->joints[i];
        if (!reach_vec2_is_finite(p)) return REACH_ERROR_NOT_FINITE;
        extent = reach_max(extent, reach_max(reach_fabs(p.x), reach_fabs(p.y)));
    }
    reach_real total = 0;
    for (int i = 0; i < chain->bone_count; ++i) {
        reach_real length = chain->lengths[i];
        if (!reach_is_finite(length)) return REACH_ERROR_NOT_FINITE;
        if (!(length > 0)) return REACH_ERROR_ZERO_LENGTH;
        total += length;
    }
    if (!(extent + total <= REACH__COORDINATE_LIMIT)) return REACH_ERROR_OUT_OF_RANGE;
    if (!limited(chain)) return REACH_OK;
    if (!reach_vec2_is_finite(chain->base_direction)) return REACH_ERROR_NOT_FINITE;
    if (!(reach_vec2_length_robust(chain->base_direction) > 0)) return REACH_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < chain->bone_count; ++i) {
        reach_real lo = chain->min_angle[i], hi = chain->max_angle[i];
        if (!reach_is_finite(lo) || !reach_is_finite(hi)) return REACH_ERROR_NOT_FINITE;
        if (lo > hi || lo < -REACH_PI || hi > REACH_PI) return REACH_ERROR_INVALID_ARGUMENT;
    }
    return REACH_OK;
}

static reach_status check_settings_2d(const reach_solver_settings *s) {
    if (s->max_iterations < 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(s->tolerance)) return REACH_ERROR_NOT_FINITE;
    return s->tolerance < 0 ? REACH_ERROR_INVALID_ARGUMENT : REACH_OK;
}

/* ---- the passes ------------------------------------------------------------------------- */

/* The unit direction from a to b; `fallback` where they coincide. */
static reach_vec2 direction(reach_vec2 a, reach_vec2 b, reach_vec2 fallback) {
    return reach_vec2_normalize_safe(reach_vec2_sub(b, a), fallback);
}

static reach_vec2 bone_direction(const reach_fabrik_2d_chain *chain, int i) {
    return direction(chain->joints[i], chain->joints[i + 1], reach_vec2_make(1, 0));
}

/* Tip to root. The limit at joint i + 1 (bone i + 1 against bone i) is enforced by turning
 * bone i: its direction must turn into bone i + 1's by an angle in the range, so it lies in the
 * range of turns back from bone i + 1's direction. */
static void backward_2d(const reach_fabrik_2d_chain *chain, reach_vec2 target) {
    reach_vec2 *j = chain->joints;
    int n = chain->bone_count;
    j[n] = target;
    for (int i = n - 1; i >= 0; --i) {
        reach_vec2 d = direction(j[i], j[i + 1], bone_direction(chain, i));
        if (limited(chain) && i + 1 < n) {
            int ignored = 0;
            reach_vec2 next = bone_direction(chain, i + 1);
            /* turn(d → next) ∈ [lo, hi]  ⇔  turn(next → d) ∈ [−hi, −lo] */
            d = limit_turn(next, d, -chain->max_angle[i + 1], -chain->min_angle[i + 1], &ignored);
        }
        j[i] = reach_vec2_sub(j[i + 1], reach_vec2_scale(d, chain->lengths[i]));
    }
}

/* Where the middle joint goes so that it sits la from a and lb from e: of the two points where
 * those circles cross, the one nearer `hint`; `hint` itself when they do not cross. */
static reach_vec2 two_bone_point_2d(reach_vec2 a, reach_vec2 e, reach_vec2 hint, reach_real la, reach_real lb) {
    reach_vec2 ae = reach_vec2_sub(e, a);
    reach_real d = reach_vec2_length(ae);
    if (!(d > 0) || d > la + lb || d < reach_fabs(la - lb)) return hint;
    reach_vec2 u = reach_vec2_scale(ae, 1 / d);
    reach_real x, h;
    reach__triangle_apex(d * d, d, la, lb, &x, &h);
    reach_real side = reach_vec2_cross(u, reach_vec2_sub(hint, a)) < 0 ? -1 : 1;
    return reach_vec2_add(reach_vec2_add(a, reach_vec2_scale(u, x)), reach_vec2_scale(reach_vec2_perp(u), side * h));
}

/* Root to tip, with the root pinned and each bone's limit against its parent. Bone 0 aims so
 * that bone 1 can close onto where the backward pass left joint 2 (see fabrik.h); with aim_all,
 * every bone aims at that point instead (a target out of reach: the chain lies straight toward
 * it). Returns nonzero when a limit clamped. */
static int forward_2d(const reach_fabrik_2d_chain *chain, reach_vec2 root, const reach_vec2 *aim_all) {
    reach_vec2 *j = chain->joints;
    int n = chain->bone_count, clamped = 0;
    reach_vec2 parent = limited(chain) ? reach_vec2_normalize_safe(chain->base_direction, reach_vec2_make(1, 0))
                                       : reach_vec2_make(1, 0);
    j[0] = root;
    for (int i = 0; i < n; ++i) {
        reach_vec2 aim = j[i + 1];
        if (aim_all)
            aim = *aim_all;
        else if (i == 0 && n >= 2)
            aim = two_bone_point_2d(j[0], j[2], j[1], chain->lengths[0], chain->lengths[1]);
        reach_vec2 d = direction(j[i], aim, bone_direction(chain, i));
        if (limited(chain)) d = limit_turn(parent, d, chain->min_angle[i], chain->max_angle[i], &clamped);
        j[i + 1] = reach_vec2_add(j[i], reach_vec2_scale(d, chain->lengths[i]));
        parent = d;
    }
    return clamped;
}

/* ---- the polish ------------------------------------------------------------------------ */

/* The direction of bone i's parent: bone i − 1, or base_direction for bone 0. */
static reach_vec2 parent_direction(const reach_fabrik_2d_chain *chain, int i) {
    if (i > 0) return bone_direction(chain, i - 1);
    return reach_vec2_normalize_safe(chain->base_direction, reach_vec2_make(1, 0));
}

/* The 2-D form of CCD's closing step (ccd.c), for chains without limits: bone i ≥ 1 turns so
 * that the end's distance from the root comes as near the target's, D, as that turn can bring
 * it, and bone 0's step then points the end at the target. With a = j_i − j0 and u = end − j_i,
 * |a + R u| = D puts R u at an angle acos((D² − |a|² − |u|²) / 2|a||u|) from a (clamped to
 * [0, π] when D is out of that turn's range), on the side u is on now. Returns `fallback`
 * when a or u has no length. */
static reach_real closing_turn_2d(const reach_fabrik_2d_chain *chain, int i, reach_vec2 target, reach_real fallback) {
    const reach_vec2 *j = chain->joints;
    reach_vec2 a = reach_vec2_sub(j[i], j[0]), u = reach_vec2_sub(j[chain->bone_count], j[i]);
    reach_real la = reach_vec2_length(a), lu = reach_vec2_length(u), d = reach_vec2_distance(target, j[0]);
    if (!(la > 0) || !(lu > 0)) return fallback;
    reach_real cosine = reach_clamp(reach__triangle_cosine(d, la, lu), -1, 1);
    reach_real now = turn_between(reach_vec2_scale(a, 1 / la), reach_vec2_scale(u, 1 / lu));
    reach_real wanted = reach_acos(cosine);
    wanted = now < 0 ? -wanted : wanted;
    return wanted - now;
}

/* One CCD sweep, tip to root: each bone turns (with everything beyond it) to point the end at
 * the target, its turn against its parent clamped. The joints are then rebuilt from the bone
 * directions at their exact lengths. Returns nonzero when a limit clamped. */
static int ccd_sweep(const reach_fabrik_2d_chain *chain, reach_vec2 target) {
    reach_vec2 *j = chain->joints;
    int n = chain->bone_count, clamped = 0;
    for (int i = n - 1; i >= 0; --i) {
        reach_vec2 from = reach_vec2_normalize_safe(reach_vec2_sub(j[n], j[i]), reach_vec2_make(0, 0));
        reach_vec2 to = reach_vec2_normalize_safe(reach_vec2_sub(target, j[i]), reach_vec2_make(0, 0));
        if (reach_vec2_dot(from, from) == 0 || reach_vec2_dot(to, to) == 0) continue;
        reach_real turn = i >= 1 && !limited(chain) ? closing_turn_2d(chain, i, target, turn_between(from, to))
                                                    : turn_between(from, to);
        if (limited(chain)) {
            int outside;
            reach_real now = turn_between(parent_direction(chain, i), bone_direction(chain, i));
            reach_real allowed = reach__angle_clamp(now + turn, chain->min_angle[i], chain->max_angle[i], &outside);
            clamped |= outside;
            turn = allowed - now;
        }
        for (int k = i + 1; k <= n; ++k)
            j[k] = reach_vec2_add(j[i], rotate(reach_vec2_sub(j[k], j[i]), turn));
    }
    for (int i = 0; i < n; ++i)
        j[i + 1] = reach_vec2_add(j[i], reach_vec2_scale(bone_direction(chain, i), chain->lengths[i]));
    return clamped;
}

/* ---- the bridge from the root ----------------------------------------------------------- */

/* fabrik_bridge.c's bridge on an unlimited 2-D chain, after the backward pass: the first joint k
 * that bones 0 … k − 1 reach from the root, bones 0 … k − 2 straight and bone k − 1 closing a
 * triangle onto joint k, on the side of the line where the backward pass left joint k − 1.
 * Rewrites joints 0 … k − 1 and returns 1 (the rest of the chain ends on the target); 0, moving
 * nothing, where that joint is the second (the forward pass's closing step) or none fits. */
static int root_bridge_2d(const reach_fabrik_2d_chain *chain, reach_vec2 root) {
    reach_vec2 *j = chain->joints;
    int n = chain->bone_count;
    reach_real run = chain->lengths[0];
    for (int k = 2; k <= n; ++k) {
        reach_real last = chain->lengths[k - 1], total = run + last;
        reach_vec2 gap = reach_vec2_sub(j[k], root);
        reach_real d = reach_vec2_length(gap);
        /* Joint k out of reach of the links up to it, or no triangle to close onto it (the run
         * would fold back, or the closing link is longer than the run and the gap together):
         * look further along. */
        if (!(d <= total) || d < reach_fabs(run - last)) {
            run = total;
            continue;
        }
        /* k = 2 is the closing step the forward pass takes anyway. */
        if (k == 2 || !(d > 0)) return 0;
        reach_vec2 u = reach_vec2_scale(gap, 1 / d);
        reach_real foot, height;
        reach__bridge_apex(d, run, last, &foot, &height);
        reach_real side = reach_vec2_cross(u, reach_vec2_sub(j[k - 1], root)) < 0 ? -1 : 1;
        reach_vec2 apex = reach_vec2_add(reach_vec2_add(root, reach_vec2_scale(u, foot)),
                                         reach_vec2_scale(reach_vec2_perp(u), side * height));
        reach_vec2 along = direction(root, apex, u);
        reach_real laid = 0;
        j[0] = root;
        for (int i = 1; i < k; ++i) {
            laid += chain->lengths[i - 1];
            j[i] = reach_vec2_add(root, reach_vec2_scale(along, laid));
        }
        return 1;
    }
    return 0;
}

/* ---- the solve -------------------------------------------------------------------------- */

static reach_real miss(const reach_fabrik_2d_chain *chain, reach_vec2 target) {
    return reach_vec2_length_robust(reach_vec2_sub(chain->joints[chain->bone_count], target));
}

/* One iteration: CCD once polishing, else FABRIK's passes (or, for a target beyond the chain's
 * length, every bone aimed straight at it, the textbook shortcut); an unlimited chain that crawls
 * takes the bridge from the root in place of the forward pass. */
static int iterate_2d(const reach_fabrik_2d_chain *chain, reach_vec2 root, reach_vec2 target, reach_real total,
                      int polishing, int crawling) {
    if (polishing) return ccd_sweep(chain, target);
    if (reach_vec2_distance(target, root) >= total) return forward_2d(chain, root, &target);
    backward_2d(chain, target);
    /* Near the edge of its reach an unlimited chain crawls, as in 3-D (fabrik.h). */
    if (crawling && !limited(chain) && root_bridge_2d(chain, root)) return 0;
    return forward_2d(chain, root, NULL);
}

/* Joints kept aside for a second attempt, on the stack: chains up to this many joints get one. */
#define REACH__2D_KEPT_JOINTS 65

/* The restart shape: every bone turned from its parent by the middle of its range. */
static void middle_of_ranges_2d(const reach_fabrik_2d_chain *chain, reach_vec2 root) {
    reach_vec2 d = reach_vec2_normalize_safe(chain->base_direction, reach_vec2_make(1, 0));
    chain->joints[0] = root;
    for (int i = 0; i < chain->bone_count; ++i) {
        d = rotate(d, (chain->min_angle[i] + chain->max_angle[i]) / 2);
        chain->joints[i + 1] = reach_vec2_add(chain->joints[i], reach_vec2_scale(d, chain->lengths[i]));
    }
}

/* One attempt from the current joints: FABRIK's passes, then CCD sweeps once FABRIK wanders,
 * has used half of this attempt's budget or stalls; it ends when the end is within tolerance,
 * the cap is reached or the sweeps stall. Counts on in r->iterations. */
static void run_2d(const reach_fabrik_2d_chain *chain, reach_vec2 *root, reach_vec2 target, reach_real total,
                   reach_real tolerance, const reach_solver_settings *s, reach_solve_result *r) {
    int n = chain->bone_count, first = r->iterations;
    reach_real previous = miss(chain, target), best = previous;
    int polishing = 0, since_best = 0, slow = 0, crawling = 0;
    reach_real last = previous;
    while (r->iterations < s->max_iterations && miss(chain, target) > tolerance) {
        ++r->iterations;
        r->limited = iterate_2d(chain, *root, target, total, polishing, crawling);
        reach_real now = miss(chain, target);
        crawling = reach__crawl_step(&slow, &last, now);
        /* As in 3-D: FABRIK that wanders without getting nearer, or has used half the budget,
         * hands over to CCD sweeps, which only move downhill. */
        since_best = now < REACH__POLISH_PROGRESS * best ? 0 : since_best + 1;
        best = reach_min(best, now);
        if (!polishing &&
            (since_best >= REACH__POLISH_PATIENCE || 2 * (r->iterations - first) >= s->max_iterations - first)) {
            polishing = 1;
            previous = now;
            continue;
        }
        if (reach_fabs(previous - now) > reach__stall_threshold(REACH__STALL_RATIO * tolerance, previous, now)) {
            previous = now;
            continue;
        }
        if (r->iterations >= s->max_iterations) break;
        if (s->fabrik_move_root) {
            /* Stalled short: slide the whole chain (root included) by what the end lacks. */
            reach_vec2 shift = reach_vec2_sub(target, chain->joints[n]);
            *root = reach_vec2_add(*root, shift);
            for (int i = 0; i <= n; ++i)
                chain->joints[i] = reach_vec2_add(chain->joints[i], shift);
        } else if (!polishing) {
            polishing = 1;
        } else {
            break;
        }
        previous = miss(chain, target);
    }
}

reach_status reach_fabrik_solve_2d(const reach_fabrik_2d_chain *chain, reach_vec2 target,
                                   const reach_solver_settings *settings, reach_solve_result *result) {
    REACH_CHECK_ARG(chain);
    reach_solver_settings s;
    reach_status settings_status = reach__solver_settings_resolve(settings, &s);
    if (settings_status != REACH_OK) return settings_status;
    reach_status st = check_chain(chain, target);
    if (st != REACH_OK) return st;
    if ((st = check_settings_2d(&s)) != REACH_OK) return st;

    int n = chain->bone_count;
    reach_real total = 0, extent = reach_max(reach_fabs(target.x), reach_fabs(target.y));
    for (int i = 0; i < n; ++i)
        total += chain->lengths[i];
    reach_vec2 root = chain->joints[0];
    extent = reach_max(extent, reach_max(reach_fabs(root.x), reach_fabs(root.y)) + total);
    reach_real tolerance = s.tolerance > 0 ? s.tolerance : REACH_DEFAULT_TOLERANCE_RATIO * total;
    tolerance = reach_max(tolerance, REACH__TOLERANCE_FLOOR * extent);

    reach_solve_result r = {0, 0, 0, 0, 0};
    /* The starting joints need not be the lengths apart; a forward pass makes them so, and the
     * pose handed back comes out of one, or of the bridge, which lays the lengths exactly too. */
    r.limited = forward_2d(chain, root, NULL);
    run_2d(chain, &root, target, total, tolerance, &s, &r);
    r.residual = miss(chain, target);
    if (r.residual > tolerance && 4 * r.iterations <= s.max_iterations && !s.fabrik_move_root && limited(chain) &&
        reach_vec2_distance(target, root) < total && n + 1 <= REACH__2D_KEPT_JOINTS) {
        /* Stopped early, short of a target within reach, held by the limits in a fold that a
         * greedy step cannot leave: once more from the middle of every range, keeping the
         * nearer. (A solve that crept on for a quarter of its budget or more is left alone.) */
        reach_vec2 kept[REACH__2D_KEPT_JOINTS];
        int kept_limited = r.limited;
        for (int i = 0; i <= n; ++i)
            kept[i] = chain->joints[i];
        middle_of_ranges_2d(chain, root);
        r.limited = 0;
        run_2d(chain, &root, target, total, tolerance, &s, &r);
        if (!(miss(chain, target) < r.residual)) {
            for (int i = 0; i <= n; ++i)
                chain->joints[i] = kept[i];
            r.limited = kept_limited;
        }
        r.residual = miss(chain, target);
    }
    r.reached = r.residual <= tolerance;
    /* Short of a target the bones could span, it is the limits that hold the chain. */
    if (!r.reached && limited(chain) && reach_vec2_distance(target, root) < total) r.limited = 1;
    if (result) *result = r;
    return REACH_OK;
}
