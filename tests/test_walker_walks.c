/* Long walks of the walker: every standard path on every terrain with 8, 6, 4 and 2 legs,
 * two-bone and FABRIK, in 3-D and in the 2-D top view, seeded random driving, and sudden stops,
 * reversals and turns on the spot. Every frame of every walk is checked against the step rules. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

/* How far a result may be off for rounding, relative to the leg's length. */
#ifdef REACH_DOUBLE
#define REL_TOL 1e-9
#else
#define REL_TOL 2e-5
#endif

#define DT ((reach_real)1 / 60)

/* What the checks saw over a walk, for the assertions at its end. */
typedef struct walk_record {
    char name[64]; /* the walk, for failure messages */
    int frames;
    int lifted_at_once[REACH_WALKER_MAX_LEGS]; /* lift-offs seen per leg */
    reach_real path_length;                    /* distance the body travelled */
    reach_real max_feet_lag;                   /* largest distance from the body to the feet's centroid */
} walk_record;

static reach_real ground_height(const reach_walker *w, reach_real x, reach_real y) {
    if (w->def.dimensions == 2 || !w->def.ground) return 0;
    reach_real h;
    reach_vec3 n;
    w->def.ground(w->def.ground_user, x, y, &h, &n);
    return h;
}

static void check_leg_chain(const reach_walker_leg *leg, const char *where) {
    reach_real scale = leg->def.reach, longest = 0, chain = 0;
    if (!test_bytes_equal(&leg->joints[0], &leg->hip, sizeof leg->hip))
        fail_msg("%s: chain does not start at the hip", where);
    for (int k = 0; k < leg->def.bone_count; k++) {
        if (!reach_vec3_is_finite(leg->joints[k + 1])) fail_msg("%s: joint not finite", where);
        ASSERT_NEAR(reach_vec3_distance(leg->joints[k + 1], leg->joints[k]), leg->def.bone_lengths[k],
                    REL_TOL * scale * 10, "bone length kept");
        longest = reach_max(longest, leg->def.bone_lengths[k]);
        chain += leg->def.bone_lengths[k];
    }
    /* Within the chain's range [max(0, 2·longest − length), length] the chain ends on the foot:
     * to rounding for two-bone legs, to FABRIK's tolerance (and its slow convergence in tight
     * folds) for FABRIK legs. */
    reach_real tolerance = leg->def.solver == REACH_LEG_FABRIK ? REACH_R(1e-3) : REACH_R(1e-4);
    reach_real d = reach_vec3_distance(leg->foot, leg->hip);
    reach_real miss = reach_vec3_distance(leg->joints[leg->def.bone_count], leg->foot);
    if (d >= reach_max(0, 2 * longest - chain) && d <= chain && miss > tolerance * scale)
        fail_msg("%s: chain ends %g from the foot %g from the hip", where, (double)miss, (double)d);
}

/* The rules between two consecutive frames. */
static void check_frame(const reach_walker *before, const reach_walker *w, walk_record *record) {
    char where[128];
    snprintf(where, sizeof where, "%s, frame %ld", record->name, w->frame);
    if (w->forced_steps != 0)
        fail_msg("%s: %ld forced steps (a leg broke its gait group's turn)", where, w->forced_steps);
    if (!reach_vec3_is_finite(w->position) || !reach_quat_is_finite(w->rotation))
        fail_msg("%s: body not finite", where);
    int swinging_group = -1;
    reach_vec3 centroid = reach_vec3_zero();
    for (int i = 0; i < w->leg_count; i++) {
        const reach_walker_leg *leg = &w->legs[i], *was = &before->legs[i];
        reach_real scale = leg->def.reach;
        if (!reach_vec3_is_finite(leg->foot) || !reach_vec3_is_finite(leg->hip))
            fail_msg("%s: leg %d not finite", where, i);
        if (reach_vec3_distance(leg->foot, leg->hip) > leg->def.reach * (1 + REL_TOL))
            fail_msg("%s: leg %d foot %g from its hip, beyond its reach %g", where, i,
                     (double)reach_vec3_distance(leg->foot, leg->hip), (double)leg->def.reach);
        /* Planted means fixed in the world: bit for bit, as docs/walker.md promises. */
        if (leg->planted && was->planted && leg->steps == was->steps &&
            memcmp(&leg->foot, &was->foot, sizeof leg->foot) != 0)
            fail_msg("%s: planted foot %d moved", where, i);
        if (leg->steps != was->steps) record->lifted_at_once[i]++;
        reach_real floor = ground_height(w, leg->foot.x, leg->foot.y);
        if (leg->planted) {
            if (reach_fabs(leg->foot.z - floor) > REL_TOL * scale)
                fail_msg("%s: planted foot %d at z %g, ground at %g", where, i, (double)leg->foot.z, (double)floor);
        } else {
            if (leg->foot.z < floor - REL_TOL * scale) fail_msg("%s: swinging foot %d below the ground", where, i);
            if (swinging_group >= 0 && leg->def.group != swinging_group)
                fail_msg("%s: legs of groups %d and %d swing together", where, swinging_group, leg->def.group);
            swinging_group = leg->def.group;
        }
        for (int k = 0; w->def.dimensions == 2 && k <= leg->def.bone_count; k++)
            if (leg->foot.z != 0 || leg->joints[k].z != 0) fail_msg("%s: 2-D leg %d off the plane", where, i);
        check_leg_chain(leg, where);
        centroid = reach_vec3_add(centroid, leg->foot);
    }
    centroid = reach_vec3_scale(centroid, 1 / (reach_real)w->leg_count);
    reach_vec2 lag = reach_vec2_make(centroid.x - w->position.x, centroid.y - w->position.y);
    record->max_feet_lag = reach_max(record->max_feet_lag, reach_vec2_length(lag));
    record->path_length += reach_vec2_distance(reach_vec2_make(w->position.x, w->position.y),
                                               reach_vec2_make(before->position.x, before->position.y));
    record->frames++;
}

static void update_checked(reach_walker *w, reach_vec2 position, reach_real heading, reach_real dt,
                           walk_record *record) {
    reach_walker before = *w;
    reach_status st = reach_walker_update(w, position, heading, dt);
    if (st != REACH_OK) fail_msg("update failed: %s", reach_status_string(st));
    check_frame(&before, w, record);
}

/* After a walk that moved: every leg stepped, and the feet kept up with the
 * body. */
static void check_walk_record(const reach_walker *w, const walk_record *record, int min_steps) {
    for (int i = 0; i < w->leg_count; i++)
        if (w->legs[i].steps < min_steps)
            fail_msg("leg %d stepped %d times, fewer than %d", i, w->legs[i].steps, min_steps);
    /* The feet's centroid stays under the body: no leg was left behind. */
    if (record->max_feet_lag > w->def.step_threshold + REACH_R(0.5))
        fail_msg("feet lagged %g behind the body", (double)record->max_feet_lag);
}

static const char *solver_name(reach_leg_solver solver) { return solver == REACH_LEG_FABRIK ? "FABRIK" : "two-bone"; }

static void init_standard(reach_walker *w, int legs, reach_leg_solver solver, int dimensions,
                          reach_walk_terrain *terrain, reach_vec2 position, reach_real heading) {
    reach_walker_def def = reach_walker_default_def();
    def.dimensions = dimensions;
    if (terrain) {
        def.ground = reach_walk_terrain_ground;
        def.ground_user = terrain;
    }
    reach_walker_leg_def leg_defs[REACH_WALKER_MAX_LEGS];
    assert_int_equal(reach_walker_standard_legs(legs, solver, leg_defs), REACH_OK);
    assert_int_equal(reach_walker_init(w, &def, leg_defs, legs, position, heading), REACH_OK);
}

/* One lap (or, for the line, as long as a lap of the circle) of a standard
 * path. */
static void walk_path(int legs, reach_leg_solver solver, int dimensions, reach_walk_path_kind path_kind,
                      reach_walk_terrain_kind terrain_kind) {
    reach_walk_path path = reach_walk_path_default(path_kind);
    reach_walk_terrain terrain = reach_walk_terrain_default(terrain_kind);
    reach_real lap = reach_walk_path_period(&path);
    if (lap == 0) {
        reach_walk_path circle = reach_walk_path_default(REACH_WALK_PATH_CIRCLE);
        lap = reach_walk_path_period(&circle);
    }
    reach_vec2 p;
    reach_real heading;
    assert_int_equal(reach_walk_path_sample(&path, 0, &p, &heading), REACH_OK);
    static reach_walker w;
    init_standard(&w, legs, solver, dimensions, &terrain, p, heading);
    walk_record record;
    memset(&record, 0, sizeof record);
    snprintf(record.name, sizeof record.name, "%d %s legs %dD %s on %s", legs, solver_name(solver), dimensions,
             reach_walk_path_name(path_kind), reach_walk_terrain_name(terrain_kind));
    int frames = (int)(lap / DT) + 1;
    for (int f = 1; f <= frames; f++) {
        assert_int_equal(reach_walk_path_sample(&path, (reach_real)f * DT, &p, &heading), REACH_OK);
        update_checked(&w, p, heading, DT, &record);
    }
    /* The whole path: the body went a full lap's distance along it. */
    if (record.path_length < lap * path.speed * REACH_R(0.6))
        fail_msg("body covered %g of a lap's %g", (double)record.path_length, (double)(lap * path.speed));
    check_walk_record(&w, &record, 10);
}

static void test_walks_3d(void **state) {
    (void)state;
    const int leg_counts[] = {8, 6, 4, 2};
    for (int l = 0; l < 4; l++)
        for (int path = 0; path < 3; path++)
            for (int terrain = 0; terrain < 3; terrain++)
                walk_path(leg_counts[l], REACH_LEG_TWO_BONE, 3, (reach_walk_path_kind)path,
                          (reach_walk_terrain_kind)terrain);
}

static void test_walks_2d(void **state) {
    (void)state;
    const int leg_counts[] = {8, 6, 4, 2};
    for (int l = 0; l < 4; l++)
        for (int path = 0; path < 3; path++)
            walk_path(leg_counts[l], REACH_LEG_TWO_BONE, 2, (reach_walk_path_kind)path, REACH_WALK_TERRAIN_FLAT);
}

/* A scripted motion: for each segment, a velocity in the body's frame (forward,
 * left) and a turn rate, held for a duration. */
typedef struct segment {
    reach_real seconds, forward, left, turn_rate;
} segment;

typedef struct script {
    const char *name;
    const segment *segments;
    int count;
} script;

/* Drives the standard creature through a script, checking every frame; returns
 * the record. The body's pose is integrated in double so that the motion itself
 * is exact enough. */
static void run_script(reach_walker *w, const script *sc, int legs, reach_leg_solver solver, int dimensions,
                       reach_walk_terrain_kind terrain_kind, walk_record *record) {
    static reach_walk_terrain terrain;
    terrain = reach_walk_terrain_default(terrain_kind);
    init_standard(w, legs, solver, dimensions, &terrain, reach_vec2_make(0, 0), 0);
    memset(record, 0, sizeof *record);
    snprintf(record->name, sizeof record->name, "%s, %d %s legs %dD on %s", sc->name, legs, solver_name(solver),
             dimensions, reach_walk_terrain_name(terrain_kind));
    double x = 0, y = 0, heading = 0;
    for (int s = 0; s < sc->count; s++) {
        const segment *seg = &sc->segments[s];
        int frames = (int)(seg->seconds / DT + REACH_R(0.5));
        for (int f = 0; f < frames; f++) {
            x += ((double)seg->forward * cos(heading) - (double)seg->left * sin(heading)) * (double)DT;
            y += ((double)seg->forward * sin(heading) + (double)seg->left * cos(heading)) * (double)DT;
            heading += (double)seg->turn_rate * (double)DT;
            update_checked(w, reach_vec2_make((reach_real)x, (reach_real)y), (reach_real)heading, DT, record);
        }
    }
}

static const segment stop_segments[] = {{2, 1, 0, 0}, {REACH_R(1.5), 0, 0, 0}, {2, 1, 0, 0}, {1, 0, 0, 0}};
static const segment reversal_segments[] = {{2, 1, 0, 0}, {2, -1, 0, 0}, {REACH_R(0.5), 1, 0, 0},
                                            {2, 0, 1, 0}, {2, 0, -1, 0}, {1, 0, 0, 0}};
static const segment spin_segments[] = {
    {3, 0, 0, 1}, {3, 0, 0, -1}, {REACH_R(0.5), 0, 0, 0}, {2, 1, 0, 1}, {2, REACH_R(0.5), 0, REACH_R(-1.5)},
    {1, 0, 0, 0}};
static const script scripts[] = {
    {"stop", stop_segments, (int)(sizeof stop_segments / sizeof stop_segments[0])},
    {"reversal", reversal_segments, (int)(sizeof reversal_segments / sizeof reversal_segments[0])},
    {"spin", spin_segments, (int)(sizeof spin_segments / sizeof spin_segments[0])},
};

static void test_stops_reversals_and_spins(void **state) {
    (void)state;
    const int leg_counts[] = {8, 6, 4, 2};
    for (int sc = 0; sc < 3; sc++)
        for (int l = 0; l < 4; l++)
            for (int dimensions = 2; dimensions <= 3; dimensions++) {
                reach_leg_solver solver = (sc + l) % 2 ? REACH_LEG_FABRIK : REACH_LEG_TWO_BONE;
                static reach_walker w;
                walk_record record;
                run_script(&w, &scripts[sc], leg_counts[l], solver, dimensions,
                           dimensions == 3 ? REACH_WALK_TERRAIN_WAVES : REACH_WALK_TERRAIN_FLAT, &record);
                check_walk_record(&w, &record, 3);
                /* Every script ends standing still: by then every swing has landed. */
                for (int i = 0; i < w.leg_count; i++)
                    if (!w.legs[i].planted) fail_msg("%s: leg %d still swinging at rest", record.name, i);
            }
}

/* A standing body: nothing steps, nothing moves. */
static void test_standing_still_never_steps(void **state) {
    (void)state;
    static reach_walker w;
    static const segment still[] = {{5, 0, 0, 0}};
    const script sc = {"still", still, 1};
    walk_record record;
    run_script(&w, &sc, 8, REACH_LEG_FABRIK, 3, REACH_WALK_TERRAIN_STEPS, &record);
    for (int i = 0; i < w.leg_count; i++)
        assert_int_equal(w.legs[i].steps, 0);
}

/* Seeded random driving: speed, sideways speed and turn rate wander (stopping,
 * reversing and turning on the spot along the way) and the time step jitters,
 * over every leg count, both modes and every terrain. */
static void test_random_driving(void **state) {
    (void)state;
    test_rng rng = test_rng_make(20240505);
    const int leg_counts[] = {8, 6, 4, 2};
    for (int run = 0; run < 24; run++) {
        int legs = leg_counts[run % 4], dimensions = 2 + (run / 4) % 2;
        reach_leg_solver solver = (run / 8) % 2 ? REACH_LEG_FABRIK : REACH_LEG_TWO_BONE;
        reach_walk_terrain terrain =
            reach_walk_terrain_default(dimensions == 3 ? (reach_walk_terrain_kind)(run % 3) : REACH_WALK_TERRAIN_FLAT);
        static reach_walker w;
        init_standard(&w, legs, solver, dimensions, &terrain, reach_vec2_make(0, 0), 0);
        walk_record record;
        memset(&record, 0, sizeof record);
        snprintf(record.name, sizeof record.name, "random run %d, %d %s legs %dD on %s", run, legs, solver_name(solver),
                 dimensions, reach_walk_terrain_name(terrain.kind));
        double x = 0, y = 0, heading = 0, forward = 0, left = 0, turn = 0;
        for (int f = 0; f < 1500; f++) {
            reach_real dt = test_uniform(&rng, REACH_R(1.0) / 120, REACH_R(1.0) / 30);
            /* Every second or so a new aim: often a stop, sometimes a reversal or a
             * spin. */
            if (test_uniform(&rng, 0, 1) < dt) {
                reach_real pick = test_uniform(&rng, 0, 1);
                forward = pick < REACH_R(0.2) ? 0 : (double)test_uniform(&rng, -1, 1);
                left = pick < REACH_R(0.4) ? 0 : (double)test_uniform(&rng, REACH_R(-0.5), REACH_R(0.5));
                turn = pick < REACH_R(0.6) ? 0 : (double)test_uniform(&rng, -1, 1);
            }
            x += (forward * cos(heading) - left * sin(heading)) * (double)dt;
            y += (forward * sin(heading) + left * cos(heading)) * (double)dt;
            heading += turn * (double)dt;
            update_checked(&w, reach_vec2_make((reach_real)x, (reach_real)y), (reach_real)heading, dt, &record);
        }
    }
}

/* Three-bone FABRIK legs, as in the standard eight-legged spider and as a hexapod, on every path: on
 * the waves in 3-D and in the 2-D top view. The scripts and random drives use them too. */
static void test_fabrik_walks(void **state) {
    (void)state;
    const int leg_counts[] = {8, 6};
    for (int l = 0; l < 2; l++)
        for (int path = 0; path < 3; path++) {
            walk_path(leg_counts[l], REACH_LEG_FABRIK, 3, (reach_walk_path_kind)path, REACH_WALK_TERRAIN_WAVES);
            walk_path(leg_counts[l], REACH_LEG_FABRIK, 2, (reach_walk_path_kind)path, REACH_WALK_TERRAIN_FLAT);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walks_3d),
        cmocka_unit_test(test_walks_2d),
        cmocka_unit_test(test_fabrik_walks),
        cmocka_unit_test(test_stops_reversals_and_spins),
        cmocka_unit_test(test_standing_still_never_steps),
        cmocka_unit_test(test_random_driving),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
