/* FABRIK on a chain whose joints turn freely: one position target at the end of a serial chain
 * of ball joints (or cones that allow every swing and twist). No joint limit can bend such a
 * chain off the lines FABRIK lays, so an iteration moves joint positions only, a square root and
 * a scale per bone, and the rotations are recovered from the positions once, when the driver
 * needs them (reach__ik_sync_rotations). */
#include "fabrik_internal.h"

/* A gap's squared length carried from the one before, |ahead − link|² as |ahead|² + length² −
 * 2 f (ahead · gap), is taken where it is at least a quarter of |ahead|² + length²: there the
 * terms it cancels are at most eight times it, a few roundings in all. Nearer (the joint just
 * laid close to the next one's old place) it is taken afresh from the vector. */
#define CARRIED_SHARE REACH_R(0.25)

/* Lays one link of a pass: `length` along *gap, the vector from the joint just placed to the
 * next one's old place, *gap2 its squared length (along +y where the gap vanishes: any
 * direction keeps the length). Returns the link and leaves in *gap and *gap2 the gap from the
 * new joint to the end of `ahead` (the vector from the joint just placed to the old place of the
 * joint after next, ahead2 its squared length).
 *
 * Each joint waits for the one before. length / √d2 is taken as length / d2 · √d2, so the root
 * and the division do not wait for each other; and the next gap's squared length comes from
 * numbers that do not wait for this link (ahead2 and ahead · gap) by one multiply and one
 * subtraction after the root, where the new gap's own dot product would wait for the link, the
 * subtraction that makes the gap and then the dot. */
static inline packed_vec3 lay_link(packed_vec3 *gap, reach_real *gap2, packed_vec3 ahead, reach_real ahead2,
                                   reach_real length) {
    reach_real d2 = *gap2;
    if (!(d2 > REACH__SQUARE_FLOOR && d2 < REACH__SQUARE_CEILING)) {
        reach_vec3 direction, up = reach_vec3_make(0, 1, 0);
        packed_store(&direction, *gap);
        direction = reach_vec3_scale(reach_vec3_normalize_safe(direction, up), length);
        packed_vec3 link = packed_load(&direction);
        *gap = packed_sub(ahead, link);
        *gap2 = packed_length_sq(*gap);
        return link;
    }
    reach_real root = reach_sqrt(d2), per = length / d2, f = per * root;
    reach_real sum = ahead2 + length * length, along = packed_dot(ahead, *gap);
    packed_vec3 link = packed_scale(*gap, f);
    *gap = packed_sub(ahead, link);
    /* 2 f along, with the factors from the division (faster than the root) taken first. */
    reach_real next2 = sum - root * (2 * per * along);
    if (!(next2 >= CARRIED_SHARE * sum)) next2 = packed_length_sq(*gap);
    *gap2 = next2;
    return link;
}

/* The chain's joints tip to root: the tip on the target, each joint pulled toward its place
 * one link from the joint below. The root stays. */
static void free_backward(reach__ik *ik, reach_vec3 target) {
    const int *active = ik->active;
    reach_vec3 *pos = ik->pos;
    int n = ik->active_count - 1;
    packed_vec3 placed = packed_load(&target), gap = packed_sub(packed_load(&pos[active[n - 1]]), placed);
    reach_real gap2 = packed_length_sq(gap);
    pos[active[n]] = target;
    for (int k = n - 1; k > 0; --k) {
        packed_vec3 ahead = packed_sub(packed_load(&pos[active[k - 1]]), placed);
        placed =
            packed_add(placed, lay_link(&gap, &gap2, ahead, packed_length_sq(ahead), ik->link_length[active[k + 1]]));
        packed_store(&pos[active[k]], placed);
    }
}

/* Where joint k + 1 goes from joint k at a so that it also sits one link from e, the joint
 * k + 2 where the backward pass left it (ae = e − a, d2 its squared length): on the circle of
 * such points, the one nearest the backward pass's joint k + 1 (hint). Returns 1 when the two
 * links span the gap (then the rest of the chain lies as the backward pass laid it, ending on
 * the target), 2 when the gap is just out of their span (laid straight toward e), 0 when they
 * cannot span it. */
static int bridge(packed_vec3 packed_a, packed_vec3 packed_ae, reach_real d2, reach_vec3 hint, reach_real la,
                  reach_real lb, reach_vec3 *out) {
    reach_real span = (la + lb) * (1 + REACH__STRAIGHT_SLACK);
    /* Most joints of an iteration cannot bridge: tell them on squares, with no root taken. */
    if (!(d2 > REACH__SQUARE_FLOOR && d2 < REACH__SQUARE_CEILING) || d2 > span * span) return 0;
    reach_vec3 a, ae;
    packed_store(&a, packed_a);
    packed_store(&ae, packed_ae);
    reach_real d = reach_sqrt(d2);
    if (d < reach_fabs(la - lb)) return 0;
    reach_vec3 u = reach_vec3_scale(ae, 1 / d);
    if (d >= la + lb) {
        if (d > span) return 0;
        *out = reach_vec3_mad(a, u, la);
        return 2;
    }
    reach_real x, h;
    reach__triangle_apex(d2, d, la, lb, &x, &h);
    /* A hint within a rounding of the line leaves `across` off square with it: square it again,
     * or the links come out the wrong length. A hint on the line: any side; and so when what the
     * two rejections leave still lies along the line (u is a unit vector only to rounding, so a
     * hint exactly on the line can leave a residue of a few ε² of its offset there). */
    reach_vec3 across = reach_vec3_reject(reach_vec3_reject(reach_vec3_sub(hint, a), u), u);
    reach_real across2 = reach_vec3_dot(across, across), lengthwise = reach_vec3_dot(across, u);
    int square = lengthwise * lengthwise <= 64 * REACH_REAL_EPSILON * REACH_REAL_EPSILON * across2;
    across = square && across2 > REACH__SQUARE_FLOOR * d2 ? reach__unit(across, u) : reach_vec3_any_perpendicular(u);
    *out = reach_vec3_add(reach_vec3_mad(a, u, x), reach_vec3_scale(across, h));
    return 1;
}

/* Root to tip: each joint one link from the one above, toward where the backward pass left it,
 * or bridging to the joint after it as soon as two links can (see the general forward pass). */
static void free_forward(reach__ik *ik) {
    const int *active = ik->active;
    reach_vec3 *pos = ik->pos;
    int n = ik->active_count - 1;
    /* The joint just placed and the gap to the next, carried as in free_backward. */
    packed_vec3 a = packed_load(&pos[active[0]]), gap = packed_sub(packed_load(&pos[active[1]]), a);
    reach_real gap2 = packed_length_sq(gap);
    for (int k = 0; k < n; ++k) {
        reach_real la = ik->link_length[active[k + 1]];
        packed_vec3 ahead = packed_zero();
        reach_real ahead2 = 0;
        if (k + 2 <= n) {
            ahead = packed_sub(packed_load(&pos[active[k + 2]]), a);
            ahead2 = packed_length_sq(ahead);
            reach_vec3 placed;
            int bridged = bridge(a, ahead, ahead2, pos[active[k + 1]], la, ik->link_length[active[k + 2]], &placed);
            if (bridged) {
                pos[active[k + 1]] = placed;
                if (bridged == 1) return;
                a = packed_load(&placed);
                gap = packed_sub(packed_load(&pos[active[k + 2]]), a);
                gap2 = packed_length_sq(gap);
                continue;
            }
        }
        a = packed_add(a, lay_link(&gap, &gap2, ahead, ahead2, la));
        packed_store(&pos[active[k + 1]], a);
    }
}

int reach__fabrik_chain_iterate(reach__ik *ik) {
    reach_vec3 target = ik->targets[0].position, root = ik->pos[ik->root];
    reach_vec3 offset = reach_vec3_sub(target, root);
    /* The rotations stay as they were until reach__ik_sync_rotations recovers them. */
    ik->rotations_stale = 1;
    int arc = ik->fabrik.arc_start;
    ik->fabrik.arc_start = 0;
    if (reach_vec3_length(offset) >= ik->chain_length) {
        /* Out of reach: the chain lies straight toward the target. */
        reach_vec3 u = reach_vec3_normalize_safe(offset, reach_vec3_make(0, 1, 0)), p = root;
        for (int k = 1; k < ik->active_count; ++k) {
            p = reach_vec3_mad(p, u, ik->link_length[ik->active[k]]);
            ik->pos[ik->active[k]] = p;
        }
        return 0;
    }
    if (arc) reach__ik_lay_on_arc(ik, root, target);
    free_backward(ik, target);
    if (!(reach__ik_crawling(ik) && ik->lone_chain && reach__ik_root_bridge(ik, root))) free_forward(ik);
    return 0;
}
