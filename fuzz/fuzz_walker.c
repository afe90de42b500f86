/* Fuzzes the walker: definitions (the standard creature with fuzzed settings, or legs made
 * from raw bytes), grounds (none, the standard terrains, or a query that answers with NaN,
 * infinities and upside-down normals), then a run of updates with fuzzed body motion.
 * Invariants: an error leaves the walker byte for byte as it was; after every accepted init or
 * update the body and every leg are finite, each leg's chain starts at its hip and keeps its
 * bone lengths, and a 2-D walker stays in the plane z = 0. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_rig.h"

/* Bone lengths relative to the leg's reach. Near full extension or a full fold the knee's
 * height off the hip-foot line is ill-conditioned (an error of about eps·L²/h), and the two-bone
 * solver's floor for h is sqrt(eps)·L, so a lopsided leg keeps its short bone only to about
 * sqrt(eps) of the whole leg: 3.5e-4 (float), 1.5e-8 (double). */
#ifdef REACH_DOUBLE
#define REL_TOL 1e-7
#else
#define REL_TOL 1e-3
#endif

#define MAX_UPDATES 48

#ifdef REACH_DOUBLE
#define SMALLEST_NORMAL DBL_MIN
#else
#define SMALLEST_NORMAL FLT_MIN
#endif

/* A ground query that answers from fuzzer bytes, including answers the walker must not trust. */
typedef struct fuzz_ground {
    reach_real heights[4];
    reach_vec3 normals[4];
    unsigned calls;
} fuzz_ground;

static void query_ground(void *user, reach_real x, reach_real y, reach_real *height, reach_vec3 *normal) {
    fuzz_ground *g = user;
    (void)x;
    (void)y;
    *height = g->heights[g->calls % 4];
    *normal = g->normals[g->calls % 4];
    g->calls++;
}

static void fuzz_def(reach_walker_def *def, fuzz_input *in, int raw) {
    *def = reach_walker_default_def();
    uint8_t fields = fuzz_byte(in);
    def->dimensions = (fields & 1) ? 2 : 3;
    if (raw) def->dimensions = (int)fuzz_byte(in) % 5;
    reach_real *numbers[] = {&def->step_threshold, &def->step_duration, &def->step_height, &def->lead_time,
                             &def->overstretch,    &def->ride_height,   &def->max_tilt,    &def->follow_time};
    uint8_t which = fuzz_byte(in);
    for (int k = 0; k < 8; ++k) {
        if (!(which & (1u << k))) continue;
        reach_real v = raw ? fuzz_real(in) : reach_fabs(fuzz_finite(in));
        *numbers[k] = v;
    }
    if (!raw) {
        /* Keep the ranges the definition documents, so most runs get to walk. */
        if (!(def->step_threshold > 0)) def->step_threshold = REACH_R(0.4);
        if (!(def->step_duration > 0)) def->step_duration = REACH_R(0.25);
        if (!(def->overstretch > 0) || def->overstretch > 1) def->overstretch = REACH_R(0.9);
        if (!(def->max_tilt < REACH_PI / 2)) def->max_tilt = REACH_R(0.5);
    }
}

static void fuzz_leg(reach_walker_leg_def *leg, fuzz_input *in, int raw) {
    *leg = reach_walker_default_leg_def();
    uint8_t shape = fuzz_byte(in);
    leg->solver = (shape & 1) ? REACH_LEG_FABRIK : REACH_LEG_TWO_BONE;
    leg->bone_count = leg->solver == REACH_LEG_FABRIK ? 2 + (shape >> 1) % (REACH_WALKER_MAX_BONES - 1) : 2;
    if (raw) {
        leg->solver = (reach_leg_solver)((shape >> 4) % 3);
        leg->bone_count = (int)fuzz_byte(in) % (REACH_WALKER_MAX_BONES + 2);
    }
    leg->hip = raw ? fuzz_vec3(in) : fuzz_finite_vec3(in);
    reach_real rx = raw ? fuzz_real(in) : fuzz_finite(in), ry = raw ? fuzz_real(in) : fuzz_finite(in);
    leg->rest = reach_vec2_make(rx, ry);
    leg->reach = raw ? fuzz_real(in) : 0;
    leg->group = raw ? (int)(int8_t)fuzz_byte(in) : (int)fuzz_byte(in) % 3;
    for (int k = 0; k < REACH_WALKER_MAX_BONES; ++k) {
        leg->bone_lengths[k] = raw ? fuzz_real(in) : reach_fabs(fuzz_finite(in));
        reach_real a = fuzz_angle(in, -REACH_PI, REACH_PI), b = fuzz_angle(in, -REACH_PI, REACH_PI);
        leg->min_angle[k] = reach_min(a, b);
        leg->max_angle[k] = reach_max(a, b);
    }
    leg->knee = raw ? fuzz_vec3(in) : fuzz_finite_vec3(in);
    leg->limited = (shape >> 6) & 1;
}

static double coordinate(reach_vec3 v) { return fmax(fabs((double)v.x), fmax(fabs((double)v.y), fabs((double)v.z))); }

static void check_walker(const reach_walker *w) {
    FUZZ_REQUIRE(reach_vec3_is_finite(w->position) && reach_quat_is_finite(w->rotation));
    FUZZ_REQUIRE(reach_vec3_is_finite(w->up) && reach_vec2_is_finite(w->velocity) && reach_is_finite(w->turn_rate));
    for (int i = 0; i < w->leg_count; ++i) {
        const reach_walker_leg *leg = &w->legs[i];
        FUZZ_REQUIRE(reach_vec3_is_finite(leg->hip) && reach_vec3_is_finite(leg->foot));
        FUZZ_REQUIRE(reach_vec3_is_finite(leg->normal) && reach_is_finite(leg->lift));
        FUZZ_REQUIRE(memcmp(&leg->joints[0], &leg->hip, sizeof leg->hip) == 0);
        double extent = coordinate(leg->hip);
        for (int k = 0; k <= leg->def.bone_count; ++k) {
            FUZZ_REQUIRE(reach_vec3_is_finite(leg->joints[k]));
            extent = fmax(extent, coordinate(leg->joints[k]));
            if (w->def.dimensions == 2 && !(leg->joints[k].z == 0 && leg->foot.z == 0))
                fprintf(stderr, "2-D leg %d: joint %d at z %g, foot at z %g\n", i, k, (double)leg->joints[k].z,
                        (double)leg->foot.z);
            if (w->def.dimensions == 2) FUZZ_REQUIRE(leg->joints[k].z == 0 && leg->foot.z == 0);
        }
        /* Bone lengths to the chain's precision, plus the rounding of coordinates that may be
         * far larger than the leg (or subnormal, spaced by eps times the smallest normal). */
        double slack =
            REL_TOL * (double)leg->def.reach + 16 * (double)REACH_REAL_EPSILON * fmax(extent, SMALLEST_NORMAL);
        for (int k = 0; k < leg->def.bone_count; ++k) {
            reach_vec3 a = leg->joints[k], b = leg->joints[k + 1];
            double dx = (double)b.x - a.x, dy = (double)b.y - a.y, dz = (double)b.z - a.z;
            double length = fuzz_norm3(dx, dy, dz);
            if (!(fabs(length - (double)leg->def.bone_lengths[k]) <= slack))
                fprintf(stderr, "leg %d bone %d: length %.9g, should be %.9g\n", i, k, length,
                        (double)leg->def.bone_lengths[k]);
            FUZZ_REQUIRE(fabs(length - (double)leg->def.bone_lengths[k]) <= slack);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    uint8_t mode = fuzz_byte(&in);
    int raw = (mode & 7) == 0;
    reach_walker_def def;
    fuzz_def(&def, &in, raw);

    reach_walk_terrain terrain = reach_walk_terrain_default((reach_walk_terrain_kind)(fuzz_byte(&in) % 3));
    fuzz_ground ground;
    memset(&ground, 0, sizeof ground);
    switch ((mode >> 3) & 3) {
    case 1:
        terrain.height = reach_fabs(fuzz_finite(&in));
        terrain.wavelength = fuzz_finite(&in);
        def.ground = reach_walk_terrain_ground;
        def.ground_user = &terrain;
        break;
    case 2:
        for (int k = 0; k < 4; ++k) {
            ground.heights[k] = fuzz_real(&in);
            ground.normals[k] = fuzz_vec3(&in);
        }
        def.ground = query_ground;
        def.ground_user = &ground;
        break;
    default: break;
    }

    static reach_walker_leg_def legs[REACH_WALKER_MAX_LEGS];
    int leg_count;
    if (mode & 0x20) {
        leg_count = 1 + (int)fuzz_byte(&in) % REACH_WALKER_MAX_LEGS;
        for (int i = 0; i < leg_count; ++i)
            fuzz_leg(&legs[i], &in, raw);
    } else {
        leg_count = 2 * (1 + (int)fuzz_byte(&in) % (REACH_WALKER_MAX_LEGS / 2));
        reach_leg_solver solver = (mode & 0x40) ? REACH_LEG_FABRIK : REACH_LEG_TWO_BONE;
        FUZZ_REQUIRE(reach_walker_standard_legs(leg_count, solver, legs) == REACH_OK);
    }

    static reach_walker walker, before;
    memset(&walker, 0x5a, sizeof walker);
    before = walker;
    reach_real x = fuzz_finite(&in), y = fuzz_finite(&in);
    reach_vec2 position = reach_vec2_make(x, y);
    reach_real heading = fuzz_finite(&in);
    if (reach_walker_init(&walker, &def, legs, leg_count, position, heading) != REACH_OK) {
        FUZZ_REQUIRE(memcmp(&walker, &before, sizeof walker) == 0);
        return 0;
    }
    check_walker(&walker);

    /* Body motion: small steps along a heading, or anything at all when the byte says so. */
    int updates = (int)fuzz_byte(&in) % MAX_UPDATES;
    reach_real dt = REACH_R(1.0) / 60;
    for (int f = 0; f < updates && in.size > 0; ++f) {
        uint8_t how = fuzz_byte(&in);
        reach_real step = (reach_real)(how & 15) * REACH_R(0.01);
        if (how & 0x10) heading += (reach_real)((int)(how >> 5) - 3) * REACH_R(0.05);
        position.x += step * reach_cos(heading);
        position.y += step * reach_sin(heading);
        reach_real frame_dt = dt;
        if ((how & 0xe0) == 0xe0) {
            reach_real jump_x = fuzz_real(&in), jump_y = fuzz_real(&in);
            position = reach_vec2_make(jump_x, jump_y);
            heading = fuzz_real(&in);
            frame_dt = fuzz_real(&in);
        }
        before = walker;
        if (reach_walker_update(&walker, position, heading, frame_dt) != REACH_OK) {
            FUZZ_REQUIRE(memcmp(&walker, &before, sizeof walker) == 0);
            position = reach_vec2_make(walker.position.x, walker.position.y);
            heading = walker.heading;
            continue;
        }
        check_walker(&walker);
    }
    return 0;
}
