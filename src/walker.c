/* The walker: definitions, validation, setting up and the per-frame update. */
#include "internal.h"
#include "walker_internal.h"

#include <string.h>

reach_walker_def reach_walker_default_def(void) {
    reach_walker_def d;
    d.dimensions = 3;
    d.step_threshold = REACH_R(0.35);
    d.step_duration = REACH_R(0.2);
    d.step_height = REACH_R(0.3);
    d.lead_time = REACH_R(0.15);
    d.overstretch = REACH_R(0.9);
    d.ride_height = REACH_R(0.8);
    d.max_tilt = REACH_R(0.5);
    d.follow_time = REACH_R(0.1);
    d.ground = NULL;
    d.ground_user = NULL;
    return d;
}

reach_walker_leg_def reach_walker_default_leg_def(void) {
    reach_walker_leg_def d;
    memset(&d, 0, sizeof d);
    d.hip = reach_vec3_zero();
    d.rest = reach_vec2_make(0, REACH_R(1.4));
    d.reach = 0;
    d.group = 0;
    d.solver = REACH_LEG_TWO_BONE;
    d.bone_count = 2;
    d.bone_lengths[0] = 1;
    d.bone_lengths[1] = REACH_R(1.2);
    d.knee = reach_vec3_make(0, 0, 1);
    return d;
}

/* REACH_ERROR_NOT_FINITE for NaN or infinity, REACH_ERROR_OUT_OF_RANGE for a finite number
 * beyond the walker's extent, REACH_OK otherwise. */
static reach_status check_magnitudes(const reach_real *numbers, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (!reach_is_finite(numbers[i])) return REACH_ERROR_NOT_FINITE;
    for (size_t i = 0; i < count; i++)
        if (!(reach_fabs(numbers[i]) <= (reach_real)REACH_WALKER_MAX_EXTENT)) return REACH_ERROR_OUT_OF_RANGE;
    return REACH_OK;
}

static reach_status check_def(const reach_walker_def *d) {
    reach_real numbers[] = {d->step_threshold, d->step_duration, d->step_height, d->lead_time,
                            d->overstretch,    d->ride_height,   d->max_tilt,    d->follow_time};
    reach_status st = check_magnitudes(numbers, sizeof numbers / sizeof numbers[0]);
    if (st != REACH_OK) return st;
    if (d->dimensions != 2 && d->dimensions != 3) return REACH_ERROR_INVALID_ARGUMENT;
    if (!(d->step_threshold > 0) || !(d->step_duration > 0) || d->step_height < 0 || d->lead_time < 0 ||
        !(d->overstretch > 0) || d->overstretch > 1 || d->ride_height < 0 || d->max_tilt < 0 ||
        !(d->max_tilt < REACH_PI / 2) || d->follow_time < 0)
        return REACH_ERROR_INVALID_ARGUMENT;
    return REACH_OK;
}

static int bone_count_fits(reach_leg_solver solver, int bone_count) {
    switch (solver) {
    case REACH_LEG_TWO_BONE: return bone_count == 2;
    case REACH_LEG_FABRIK: return bone_count >= 2 && bone_count <= REACH_WALKER_MAX_BONES;
    }
    return 0;
}

static reach_status check_limits(const reach_walker_leg_def *leg) {
    if (leg->solver != REACH_LEG_FABRIK || !leg->limited) return REACH_OK;
    for (int k = 0; k < leg->bone_count; k++) {
        reach_real lo = leg->min_angle[k], hi = leg->max_angle[k];
        if (!reach_is_finite(lo) || !reach_is_finite(hi)) return REACH_ERROR_NOT_FINITE;
        if (lo > hi || lo < -REACH_PI || hi > REACH_PI) return REACH_ERROR_INVALID_ARGUMENT;
    }
    return REACH_OK;
}

/* Checks a leg and resolves its reach (0: the chain's length) into *out. */
/* Each bone longer than the zero-length share of the chain (the two-bone solver's rule, kept
 * for every leg so that no leg is accepted here and then refused frame after frame) and no
 * shorter than the reciprocal of the extent. */
static reach_status check_bones(const reach_walker_leg_def *leg, reach_real *chain) {
    reach_status st = check_magnitudes(leg->bone_lengths, (size_t)leg->bone_count);
    if (st != REACH_OK) return st;
    *chain = 0;
    for (int k = 0; k < leg->bone_count; k++) {
        if (!(leg->bone_lengths[k] > 0)) return REACH_ERROR_ZERO_LENGTH;
        *chain += leg->bone_lengths[k];
    }
    for (int k = 0; k < leg->bone_count; k++) {
        if (!(leg->bone_lengths[k] > REACH_ZERO_LENGTH_RATIO * *chain)) return REACH_ERROR_ZERO_LENGTH;
        if (leg->bone_lengths[k] < 1 / (reach_real)REACH_WALKER_MAX_EXTENT) return REACH_ERROR_OUT_OF_RANGE;
    }
    return REACH_OK;
}

static reach_status check_leg(const reach_walker_def *def, const reach_walker_leg_def *leg, reach_walker_leg_def *out) {
    if (!bone_count_fits(leg->solver, leg->bone_count)) return REACH_ERROR_INVALID_ARGUMENT;
    reach_real numbers[] = {leg->hip.x, leg->hip.y, leg->hip.z, leg->rest.x, leg->rest.y, leg->reach};
    reach_status st = check_magnitudes(numbers, sizeof numbers / sizeof numbers[0]);
    if (st != REACH_OK) return st;
    if (!reach_vec3_is_finite(leg->knee)) return REACH_ERROR_NOT_FINITE;
    reach_real chain;
    st = check_bones(leg, &chain);
    if (st != REACH_OK) return st;
    if (leg->group < 0 || leg->reach < 0 || leg->reach > chain) return REACH_ERROR_INVALID_ARGUMENT;
    st = check_limits(leg);
    if (st != REACH_OK) return st;
    /* Only the knee's direction counts: keep it as a unit vector, so that turning it with the
     * body can never overflow, whatever its length. */
    reach_vec3 knee = leg->knee;
    if (def->dimensions == 2) knee.z = 0;
    if (!(reach_vec3_max_abs(knee) > 0)) return REACH_ERROR_INVALID_ARGUMENT;

    *out = *leg;
    out->knee = reach_vec3_normalize_safe(knee, reach_vec3_make(0, 0, 1));
    if (out->reach == 0) out->reach = chain;
    /* The rest stance must be possible: on level ground, with the body at its ride height. */
    reach_vec3 hip = leg->hip;
    hip.z = def->dimensions == 2 ? 0 : hip.z + def->ride_height;
    reach_vec3 rest = reach_vec3_make(leg->rest.x, leg->rest.y, 0);
    if (!(reach_vec3_length_robust(reach_vec3_sub(rest, hip)) <= def->overstretch * out->reach))
        return REACH_ERROR_INVALID_ARGUMENT;
    return REACH_OK;
}

/* The first shape the solvers start from: the first bone toward the knee, the rest straight
 * on toward the foot, so that the chain starts bent the way the knee asks. */
static void initial_shape(const reach_walker *walker, reach_walker_leg *leg) {
    /* A unit vector (check_leg), in the ground plane in 2-D: turning it keeps it there. */
    reach_vec3 knee = reach_quat_rotate(walker->rotation, leg->def.knee);
    leg->joints[0] = leg->hip;
    leg->joints[1] = reach_vec3_mad(leg->hip, knee, leg->def.bone_lengths[0]);
    /* With the foot at the knee, the rest fold back from it: still in the plane in 2-D. */
    reach_vec3 on = reach_vec3_normalize_safe(reach_vec3_sub(leg->foot, leg->joints[1]), reach_vec3_scale(knee, -1));
    for (int k = 1; k < leg->def.bone_count; k++)
        leg->joints[k + 1] = reach_vec3_mad(leg->joints[k], on, leg->def.bone_lengths[k]);
}

static void solve_legs(reach_walker *walker) {
    for (int i = 0; i < walker->leg_count; i++)
        reach__walker_solve_leg(walker, &walker->legs[i]);
}

reach_status reach_walker_init(reach_walker *walker, const reach_walker_def *def, const reach_walker_leg_def *legs,
                               int leg_count, reach_vec2 position, reach_real heading) {
    REACH_CHECK_ARG(walker && def && legs);
    REACH_CHECK_ARG(leg_count >= 1 && leg_count <= REACH_WALKER_MAX_LEGS);
    reach_status st = check_def(def);
    if (st != REACH_OK) return st;
    if (!reach_is_finite(heading)) return REACH_ERROR_NOT_FINITE;
    reach_real where[] = {position.x, position.y};
    st = check_magnitudes(where, 2);
    if (st != REACH_OK) return st;
    reach_walker_leg_def resolved[REACH_WALKER_MAX_LEGS];
    for (int i = 0; i < leg_count; i++) {
        st = check_leg(def, &legs[i], &resolved[i]);
        if (st != REACH_OK) return st;
    }

    memset(walker, 0, sizeof *walker);
    walker->def = *def;
    walker->leg_count = leg_count;
    walker->position = reach_vec3_make(position.x, position.y, def->dimensions == 2 ? 0 : def->ride_height);
    walker->heading = heading;
    walker->up = reach_vec3_make(0, 0, 1);
    reach_quat yaw = reach__walker_yaw(heading);
    for (int i = 0; i < leg_count; i++) {
        reach_walker_leg *leg = &walker->legs[i];
        leg->def = resolved[i];
        leg->planted = 1;
        leg->bend = 1;
        reach_vec3 rest = reach_vec3_add(walker->position,
                                         reach_quat_rotate(yaw, reach_vec3_make(leg->def.rest.x, leg->def.rest.y, 0)));
        reach__walker_ground(walker, rest.x, rest.y, &rest.z, &leg->normal);
        leg->foot = rest;
    }
    reach__walker_follow_feet(walker, 1);
    for (int i = 0; i < leg_count; i++)
        initial_shape(walker, &walker->legs[i]);
    solve_legs(walker);
    return REACH_OK;
}

/* The change of heading folded into (-pi, pi]: the body turns the short way. */
static reach_real heading_change(reach_real from, reach_real to) {
    /* fmod's remainder is exact, so a difference of any size folds into (-π, π]; a multiple of
     * 2π taken off by multiplying would round by more than π once the difference is large. */
    reach_real d = to - from;
    if (!reach_is_finite(d)) {
        /* The difference overflows (3e38 and -3e38): the turn between the two yaws the body is
         * turned by, from their sines and cosines. */
        reach_real ct = reach_cos(to), st = reach_sin(to), cf = reach_cos(from), sf = reach_sin(from);
        d = reach_atan2(st * cf - ct * sf, ct * cf + st * sf);
        return d <= -REACH_PI ? REACH_PI : d;
    }
    d = reach_fmod(d, 2 * REACH_PI);
    if (d > REACH_PI) d -= 2 * REACH_PI;
    return d <= -REACH_PI ? d + 2 * REACH_PI : d;
}

reach_status reach_walker_update(reach_walker *walker, reach_vec2 position, reach_real heading, reach_real dt) {
    REACH_CHECK_ARG(walker);
    if (!reach_is_finite(heading)) return REACH_ERROR_NOT_FINITE;
    reach_real numbers[] = {position.x, position.y, dt};
    reach_status st = check_magnitudes(numbers, sizeof numbers / sizeof numbers[0]);
    if (st != REACH_OK) return st;
    if (!(dt > 0)) return REACH_ERROR_INVALID_ARGUMENT;
    reach_vec2 moved = reach_vec2_sub(position, reach_vec2_make(walker->position.x, walker->position.y));
    /* Divided, not scaled by 1/dt, which overflows for the shortest steps: a body that did not
     * move then still stands (0/dt, not 0·∞). */
    reach_vec2 velocity = reach_vec2_make(moved.x / dt, moved.y / dt);
    reach_real turn_rate = heading_change(walker->heading, heading) / dt;
    /* Landing points look this far ahead; the motion must stay finite over it. */
    reach_real horizon = walker->def.step_duration + walker->def.lead_time;
    if (!reach_vec2_is_finite(reach_vec2_scale(velocity, horizon)) || !reach_is_finite(turn_rate * horizon))
        return REACH_ERROR_OUT_OF_RANGE;

    walker->position.x = position.x;
    walker->position.y = position.y;
    walker->heading = heading;
    walker->velocity = velocity;
    walker->turn_rate = turn_rate;
    walker->time += dt;
    walker->frame++;
    reach_real follow = walker->def.follow_time;
    reach__walker_follow_feet(walker, follow > 0 ? dt / (follow + dt) : 1);
    reach__walker_step(walker, dt);
    solve_legs(walker);
    return REACH_OK;
}
