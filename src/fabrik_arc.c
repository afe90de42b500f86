/* The arc start: FABRIK from the rest pose, on a free chain whose rest lays it straight, first
 * lays the chain along the circular arc of its own length from its root to the target, then runs
 * its passes as always.
 *
 * A straight chain carries no bend of its own for the passes to keep, and it is FABRIK's slow
 * start: the backward pass drags the line toward the target and the forward pass drags it back,
 * unfolding it a little each iteration (3.7 iterations on average to 1e-4 of the length on the
 * bench's 10-bone chains). On the arc every joint turns alike, the smoothest bend there is; the
 * links laid along the arc's chords end within a small fraction of a link of the target, so the
 * backward pass moves every joint only slightly and the forward pass closes at the root (the
 * two-bone closing step): one iteration. The arc lies in the plane of the chain's line and the
 * target, bowed to the side the line leaves the root on, which is the plane the passes would
 * bend the chain in from there.
 *
 * Only from the rest pose: a caller who starts there has no pose of its own to keep. A pose
 * that is straight for another reason (the last frame's target was out of reach) is the last
 * frame's, and the passes go on from it as they would: laying it on the arc would move every
 * joint at once where the passes move the chain the least they can. */
#include "fabrik_internal.h"
#include "half_angle.h"

/* A joint counts as straight when its child's link leaves its own within this many roundings:
 * the roundings of a rotation that keeps a link on its line, a twist about it. */
#define STRAIGHT_ROUNDINGS 64
/* Links whose squared lengths lie between these are tested: there slack² |link|² |before|²
 * neither overflows nor falls below the smallest normal number. A chain with a link outside (in
 * float shorter than 1e-6 or longer than 1e9, in double 1e-64 and 1e70) is left to the passes
 * alone, as a bent one is. */
#ifdef REACH_DOUBLE
#define STRAIGHT_SQUARE_FLOOR   1e-128
#define STRAIGHT_SQUARE_CEILING 1e140
#else
#define STRAIGHT_SQUARE_FLOOR   1e-12f
#define STRAIGHT_SQUARE_CEILING 1e18f
#endif
/* Chords longer than 1 − SERIES_SHARE of the chain take α from the series alone (within 3e-7 of
 * it); shorter ones take Newton's steps from there. */
#define SERIES_SHARE REACH_R(0.02)
#define NEWTON_STEPS 2

/* cos and sin of angle, |angle| ≤ π, by the half-angle polynomials: on the angle itself within a
 * quarter turn, else on its half. */
static REACH_ALWAYS_INLINE void cos_sin(reach_real angle, reach_real *cosine, reach_real *sine) {
    if (reach_fabs(angle) <= REACH_R(1.5707963)) {
        reach__half_angle_cos_sin(2 * angle, cosine, sine);
        return;
    }
    reach_real half_cos, half_sin;
    reach__half_angle_cos_sin(angle, &half_cos, &half_sin);
    *cosine = (half_cos - half_sin) * (half_cos + half_sin);
    *sine = 2 * half_sin * half_cos;
}

/* The angle α ∈ (0, π] an arc turns through between its chord and either end, for a chord
 * `share` ∈ (0, 1) of the arc's length: sin α = share · α. Near a straight arc, from the series
 * α² = 6e + 1.8e² + 0.822857e³ (e = 1 − share), where sin α − share · α would cancel; else two
 * Newton steps from the same series (sin α − share · α falls strictly there, so the slope is
 * negative at the root and near it). */
static reach_real arc_half_angle(reach_real share) {
    reach_real e = 1 - share;
    reach_real alpha = reach_min(reach_sqrt(e * (6 + e * (REACH_R(1.8) + e * REACH_R(0.822857)))), REACH_PI);
    if (e <= SERIES_SHARE) return alpha;
    for (int step = 0; step < NEWTON_STEPS; ++step) {
        reach_real cosine, sine;
        cos_sin(alpha, &cosine, &sine);
        reach_real slope = cosine - share;
        if (!(slope < 0)) break;
        alpha = reach_clamp(alpha - (sine - share * alpha) / slope, REACH_REAL_EPSILON, REACH_PI);
    }
    return alpha;
}

/* Nonzero when every joint of the chain is straight, each link running on along the one before
 * (a link of no length leaves the one before it to compare with), to STRAIGHT_ROUNDINGS
 * roundings. Each link's direction is its local translation turned by its parent's world
 * rotation, not a difference of joint positions: those round with the coordinates, so far from
 * the origin or down a long chain they would blur the test. The test is of the sine between
 * consecutive links, |link × before|² against slack² |link|² |before|², with no unit vectors: a
 * square root and a division per link cost a sixth of the solve. */
static int straight(const reach__ik *ik) {
    const reach_real slack = STRAIGHT_ROUNDINGS * REACH_REAL_EPSILON;
    const int *active = ik->active;
    reach_vec3 before = reach_vec3_zero();
    reach_real before2 = 0;
    for (int k = 1; k < ik->active_count; ++k) {
        reach_vec3 link = reach_quat_rotate(ik->rot[active[k - 1]], ik->local[active[k]].translation);
        reach_real link2 = reach_vec3_dot(link, link);
        if (link2 == 0) continue;
        if (!(link2 > STRAIGHT_SQUARE_FLOOR && link2 < STRAIGHT_SQUARE_CEILING)) return 0;
        reach_vec3 off = reach_vec3_cross(link, before);
        if (reach_vec3_dot(link, before) < 0 || reach_vec3_dot(off, off) > slack * slack * link2 * before2) return 0;
        before = link;
        before2 = link2;
    }
    return 1;
}

int reach__ik_lay_on_arc(reach__ik *ik, reach_vec3 root, reach_vec3 target) {
    const int *active = ik->active;
    reach_vec3 *pos = ik->pos;
    int n = ik->active_count - 1;
    reach_vec3 chord = reach_vec3_sub(target, root), line = reach_vec3_sub(pos[active[n]], root);
    reach_real chord2 = reach_vec3_dot(chord, chord), line2 = reach_vec3_dot(line, line);
    reach_real length = ik->chain_length;
    if (!(chord2 > REACH__SQUARE_FLOOR && chord2 < REACH__SQUARE_CEILING) ||
        !(line2 > REACH__SQUARE_FLOOR && line2 < REACH__SQUARE_CEILING) || !straight(ik))
        return 0;
    reach_real d = reach_sqrt(chord2);
    if (!(d < length)) return 0;
    reach_vec3 along = reach_vec3_scale(chord, 1 / d);
    /* Bowed toward where the line leaves the chord; a line along the chord (the target straight
     * ahead or behind) leaves every side alike. Rejected twice: what one rejection leaves of a
     * line near the chord is mostly rounding. */
    reach_vec3 across = reach_vec3_reject(reach_vec3_reject(line, along), along);
    reach_real across2 = reach_vec3_dot(across, across);
    across = across2 > 64 * REACH_REAL_EPSILON * REACH_REAL_EPSILON * line2
                 ? reach_vec3_scale(across, 1 / reach_sqrt(across2))
                 : reach_vec3_any_perpendicular(along);
    reach_real alpha = arc_half_angle(d / length), curvature = 2 * alpha / length;
    /* Link k runs along the arc's chord over it: at β = α − κ (s + l/2) from `along` toward
     * `across`, s the arc length before it. One turn of (cos β, sin β) per joint, by the
     * half-angle polynomials; the joints' rounding is the passes' to take up. */
    reach_real first = ik->link_length[active[1]], cosine, sine;
    cos_sin(alpha - curvature * first / 2, &cosine, &sine);
    packed_vec3 p = packed_load(&root), toward = packed_load(&along), side = packed_load(&across);
    for (int k = 1; k <= n; ++k) {
        reach_real link = ik->link_length[active[k]];
        p = packed_add(p, packed_scale(packed_add(packed_scale(toward, cosine), packed_scale(side, sine)), link));
        packed_store(&pos[active[k]], p);
        if (k == n) break;
        reach_real turn_cos, turn_sin;
        cos_sin(curvature * (link + ik->link_length[active[k + 1]]) / 2, &turn_cos, &turn_sin);
        reach_real turned = cosine * turn_cos + sine * turn_sin;
        sine = sine * turn_cos - cosine * turn_sin;
        cosine = turned;
    }
    return 1;
}
