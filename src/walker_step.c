/* The step rules: when a foot lifts, where it lands, and the arc it swings along. */
#include "walker_internal.h"

/* Bisection steps when pulling a landing point in toward the hip: 2^-20 of the step. */
#define LANDING_SEARCH_STEPS 20

/* Where the leg's rest position will be `ahead` seconds from now if the body keeps its
 * present velocity and turn rate. */
static reach_vec2 predicted_rest(const reach_walker *walker, const reach_walker_leg *leg, reach_real ahead) {
    /* The heading and the turn to come added as rotations, not as angles: a heading near the
     * end of the range plus the turn overflowed, and the rest position came out NaN. (Folding
     * the heading into one turn first would not do: fmod by the rounded 2π drifts from the
     * heading the body is turned by, 0.3 rad at 1e7 in float.) */
    reach_real turn = walker->turn_rate * ahead;
    reach_real ch = reach_cos(walker->heading), sh = reach_sin(walker->heading);
    reach_real ct = reach_cos(turn), st = reach_sin(turn);
    reach_real c = ch * ct - sh * st, s = sh * ct + ch * st;
    reach_vec2 rest = leg->def.rest;
    return reach_vec2_make(walker->position.x + walker->velocity.x * ahead + c * rest.x - s * rest.y,
                           walker->position.y + walker->velocity.y * ahead + s * rest.x + c * rest.y);
}

/* Horizontal distance from the foot to its rest position now. */
static reach_real displacement(const reach_walker *walker, const reach_walker_leg *leg) {
    reach_vec2 rest = predicted_rest(walker, leg, 0);
    return reach_vec2_distance(reach_vec2_make(leg->foot.x, leg->foot.y), rest);
}

static reach_vec3 ground_point(const reach_walker *walker, reach_vec2 xy, reach_vec3 *normal) {
    reach_real height;
    reach__walker_ground(walker, xy.x, xy.y, &height, normal);
    return reach_vec3_make(xy.x, xy.y, height);
}

/* p pulled radially toward the hip to at most `limit` from it. */
static reach_vec3 within_reach(reach_vec3 hip, reach_vec3 p, reach_real limit) {
    reach_vec3 d = reach_vec3_sub(p, hip);
    reach_real length = reach_vec3_length_robust(d);
    if (length <= limit) return p;
    return reach_vec3_add(hip, reach_vec3_scale(d, limit / length));
}

/* The ground point at xy if it is within the stretch limit of the hip; otherwise the
 * farthest ground point within it on the way from below the hip toward xy (bisection, as the
 * ground may be anything). When even the ground below the hip is out of reach the point is
 * pulled straight toward the hip and the foot lands in the air. */
static reach_vec3 landing_point(const reach_walker *walker, const reach_walker_leg *leg, reach_vec2 xy,
                                reach_vec3 *normal) {
    reach_real limit = reach__walker_stretch_limit(walker, leg);
    reach_vec3 p = ground_point(walker, xy, normal);
    if (reach_vec3_distance(p, leg->hip) <= limit) return p;
    reach_vec2 below_hip = reach_vec2_make(leg->hip.x, leg->hip.y);
    reach_vec3 best = ground_point(walker, below_hip, normal);
    if (walker->def.dimensions == 2 || reach_vec3_distance(best, leg->hip) > limit) {
        *normal = reach_vec3_make(0, 0, 1);
        return within_reach(leg->hip, p, limit);
    }
    reach_vec3 best_normal = *normal;
    reach_real lo = 0, hi = 1;
    for (int k = 0; k < LANDING_SEARCH_STEPS; k++) {
        reach_real mid = (lo + hi) * REACH_R(0.5);
        reach_vec3 n;
        reach_vec3 q = ground_point(walker, reach_vec2_lerp(below_hip, xy, mid), &n);
        if (reach_vec3_distance(q, leg->hip) <= limit) {
            lo = mid;
            best = q;
            best_normal = n;
        } else {
            hi = mid;
        }
    }
    *normal = best_normal;
    return best;
}

/* Aim the swing at where the foot should land, `remaining` seconds before it does. */
static void aim_swing(const reach_walker *walker, reach_walker_leg *leg, reach_real remaining) {
    reach_vec2 xy = predicted_rest(walker, leg, remaining + walker->def.lead_time);
    leg->swing_to = landing_point(walker, leg, xy, &leg->to_normal);
}

static void lift_foot(const reach_walker *walker, reach_walker_leg *leg) {
    leg->planted = 0;
    leg->swing = 0;
    leg->steps++;
    leg->swing_from = leg->foot;
    leg->from_normal = leg->normal;
    aim_swing(walker, leg, walker->def.step_duration);
}

/* The point along the swing: eased along the line from lift-off to landing, raised by a
 * parabola 4·height·s·(1 − s) along the ground normals blended from one end to the other,
 * kept above the ground (3-D) and within the leg's reach. */
static void move_swinging_foot(const reach_walker *walker, reach_walker_leg *leg) {
    reach_real s = reach_clamp(leg->swing / walker->def.step_duration, 0, 1);
    reach_real eased = s * s * (3 - 2 * s);
    reach_vec3 p = reach_vec3_lerp(leg->swing_from, leg->swing_to, eased);
    leg->lift = 4 * walker->def.step_height * s * (1 - s);
    leg->normal = reach_vec3_normalize_safe(reach_vec3_lerp(leg->from_normal, leg->to_normal, s), walker->up);
    if (walker->def.dimensions == 3) {
        p = reach_vec3_mad(p, leg->normal, leg->lift);
        reach_vec3 n;
        reach_vec3 floor = ground_point(walker, reach_vec2_make(p.x, p.y), &n);
        if (p.z < floor.z) p.z = floor.z;
    }
    leg->foot = within_reach(leg->hip, p, leg->def.reach);
}

static void advance_swings(reach_walker *walker, reach_real dt) {
    for (int i = 0; i < walker->leg_count; i++) {
        reach_walker_leg *leg = &walker->legs[i];
        if (leg->planted) continue;
        leg->swing += dt;
        aim_swing(walker, leg, reach_max(walker->def.step_duration - leg->swing, 0));
        if (leg->swing >= walker->def.step_duration) {
            leg->planted = 1;
            leg->foot = leg->swing_to;
            leg->normal = leg->to_normal;
            leg->lift = 0;
        }
    }
}

/* The group whose legs are swinging, or -1. Only a forced step mixes groups; the first
 * swinging leg's group then stands for them. */
static int swinging_group(const reach_walker *walker) {
    for (int i = 0; i < walker->leg_count; i++)
        if (!walker->legs[i].planted) return walker->legs[i].def.group;
    return -1;
}

/* Lifts by the rules, in leg order so that the outcome is deterministic:
 *  - a planted foot beyond the stretch limit lifts at once, counted as forced when another
 *    group is swinging;
 *  - when no leg is swinging, a new turn begins: the group of the leg furthest beyond the
 *    step threshold (or of a leg lifted above) lifts every leg further than half the
 *    threshold from rest, so that a group moves as one;
 *  - otherwise legs wait for their group's next turn. */
static void lift_legs(reach_walker *walker) {
    int active = swinging_group(walker);
    int new_turn = active < 0;
    for (int i = 0; i < walker->leg_count; i++) {
        reach_walker_leg *leg = &walker->legs[i];
        if (!leg->planted || reach_vec3_distance(leg->foot, leg->hip) <= reach__walker_stretch_limit(walker, leg))
            continue;
        if (active < 0) active = leg->def.group;
        if (leg->def.group != active) walker->forced_steps++;
        lift_foot(walker, leg);
    }
    if (!new_turn) return;
    reach_real threshold = walker->def.step_threshold;
    if (active < 0) {
        reach_real furthest = threshold;
        for (int i = 0; i < walker->leg_count; i++) {
            const reach_walker_leg *leg = &walker->legs[i];
            reach_real d = displacement(walker, leg);
            if (d > furthest) {
                furthest = d;
                active = leg->def.group;
            }
        }
    }
    for (int i = 0; i < walker->leg_count && active >= 0; i++) {
        reach_walker_leg *leg = &walker->legs[i];
        if (leg->planted && leg->def.group == active && displacement(walker, leg) > threshold * REACH_R(0.5))
            lift_foot(walker, leg);
    }
}

void reach__walker_step(reach_walker *walker, reach_real dt) {
    advance_swings(walker, dt);
    lift_legs(walker);
    for (int i = 0; i < walker->leg_count; i++)
        if (!walker->legs[i].planted) move_swinging_foot(walker, &walker->legs[i]);
}
