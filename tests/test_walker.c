/* The walker's rules case by case: validation, determinism, gait groups, where feet land, the
 * swing, forced steps, failed ground queries, body height and tilt, knees, custom creatures. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test_support.h"

#define DT ((reach_real)1 / 60)

/* Finite numbers at the ends of the range: a knee direction near overflow, one below the
 * normal range, a ground height near overflow, and a time step whose velocities overflow. */
#ifdef REACH_DOUBLE
#define REL_TOL     1e-9
#define KNEE_HUGE   1e300
#define KNEE_TINY   1e-320
#define HEIGHT_HUGE 1e300
#define DT_TINY     1e-305
#else
#define REL_TOL     2e-5
#define KNEE_HUGE   1e37f
#define KNEE_TINY   1e-40f
#define HEIGHT_HUGE 3e38f
#define DT_TINY     1e-35f
#endif

static reach_walker_def def_3d(void) { return reach_walker_default_def(); }

static void standard(reach_walker *w, const reach_walker_def *def, int legs) {
    reach_walker_leg_def leg_defs[REACH_WALKER_MAX_LEGS];
    assert_int_equal(reach_walker_standard_legs(legs, REACH_LEG_TWO_BONE, leg_defs), REACH_OK);
    assert_int_equal(reach_walker_init(w, def, leg_defs, legs, reach_vec2_make(0, 0), 0), REACH_OK);
}

/* Walks straight along +x at `speed` for `seconds`, calling back after every frame. */
typedef void (*frame_fn)(const reach_walker *before, const reach_walker *after, void *user);
static void walk_straight(reach_walker *w, reach_real speed, reach_real seconds, frame_fn fn, void *user) {
    int frames = (int)(seconds / DT);
    reach_real x0 = w->position.x, y0 = w->position.y;
    for (int f = 1; f <= frames; f++) {
        reach_walker before = *w;
        assert_int_equal(reach_walker_update(w, reach_vec2_make(x0 + speed * DT * (reach_real)f, y0), w->heading, DT),
                         REACH_OK);
        if (fn) fn(&before, w, user);
    }
}

/* ---- validation ------------------------------------------------------------------------- */

static void test_standard_creatures_initialise(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    for (int legs = 2; legs <= REACH_WALKER_MAX_LEGS; legs += 2) {
        standard(&w, &def, legs);
        assert_int_equal(w.leg_count, legs);
        for (int i = 0; i < legs; i++) {
            const reach_walker_leg *leg = &w.legs[i];
            assert_true(leg->planted);
            ASSERT_NEAR(leg->def.reach, 2.4, 1e-6, "standard reach is the chain's length");
            ASSERT_NEAR(leg->foot.z, 0, 0, "on flat ground");
            ASSERT_NEAR(w.position.z, def.ride_height, REL_TOL, "ride height");
        }
    }
    reach_walker_leg_def leg_defs[REACH_WALKER_MAX_LEGS + 2];
    assert_int_equal(reach_walker_standard_legs(3, REACH_LEG_TWO_BONE, leg_defs), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_walker_standard_legs(0, REACH_LEG_TWO_BONE, leg_defs), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_walker_standard_legs(REACH_WALKER_MAX_LEGS + 2, REACH_LEG_TWO_BONE, leg_defs),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_walker_standard_legs(4, (reach_leg_solver)99, leg_defs), REACH_ERROR_INVALID_ARGUMENT);
}

/* Bit-for-bit equality of everything a walker holds, field by field: comparing the whole struct
 * would also compare its padding, which struct copies leave undefined. */
#define SAME_BITS(a, b) test_bytes_equal(&(a), &(b), sizeof(a))
static int same_walker(const reach_walker *a, const reach_walker *b) {
    if (!(SAME_BITS(a->position, b->position) && SAME_BITS(a->heading, b->heading) && SAME_BITS(a->up, b->up) &&
          SAME_BITS(a->rotation, b->rotation) && SAME_BITS(a->velocity, b->velocity) &&
          SAME_BITS(a->turn_rate, b->turn_rate) && SAME_BITS(a->time, b->time) && a->frame == b->frame &&
          a->forced_steps == b->forced_steps && a->leg_count == b->leg_count))
        return 0;
    for (int i = 0; i < a->leg_count; ++i) {
        const reach_walker_leg *p = &a->legs[i], *q = &b->legs[i];
        if (!(SAME_BITS(p->hip, q->hip) && SAME_BITS(p->foot, q->foot) && p->planted == q->planted &&
              SAME_BITS(p->normal, q->normal) && SAME_BITS(p->lift, q->lift) && p->steps == q->steps &&
              SAME_BITS(p->swing, q->swing) && SAME_BITS(p->swing_from, q->swing_from) &&
              SAME_BITS(p->swing_to, q->swing_to) && SAME_BITS(p->joints, q->joints) && p->bend == q->bend))
            return 0;
    }
    return 1;
}

/* Each bad definition is refused with its own code and leaves the walker as it was. */
static void expect_init_error(const reach_walker_def *def, const reach_walker_leg_def *legs, int count,
                              reach_status expected, const char *what) {
    static reach_walker w, copy;
    memset(&w, 0x5a, sizeof w);
    copy = w;
    reach_status st = reach_walker_init(&w, def, legs, count, reach_vec2_make(0, 0), 0);
    if (st != expected)
        fail_msg("%s: got \"%s\", expected \"%s\"", what, reach_status_string(st), reach_status_string(expected));
    if (!test_bytes_equal(&w, &copy, sizeof w)) fail_msg("%s: walker written on error", what);
}

static void test_bad_definitions_are_refused(void **state) {
    (void)state;
    reach_walker_leg_def legs[4];
    assert_int_equal(reach_walker_standard_legs(4, REACH_LEG_TWO_BONE, legs), REACH_OK);
    const reach_real nan = (reach_real)NAN;
    reach_walker_def def;

    def = def_3d(), def.dimensions = 1;
    expect_init_error(&def, legs, 4, REACH_ERROR_INVALID_ARGUMENT, "dimensions 1");
    def = def_3d(), def.step_threshold = 0;
    expect_init_error(&def, legs, 4, REACH_ERROR_INVALID_ARGUMENT, "zero threshold");
    def = def_3d(), def.step_duration = -1;
    expect_init_error(&def, legs, 4, REACH_ERROR_INVALID_ARGUMENT, "negative duration");
    def = def_3d(), def.step_height = nan;
    expect_init_error(&def, legs, 4, REACH_ERROR_NOT_FINITE, "NaN height");
    def = def_3d(), def.lead_time = (reach_real)INFINITY;
    expect_init_error(&def, legs, 4, REACH_ERROR_NOT_FINITE, "infinite lead");
    def = def_3d(), def.overstretch = REACH_R(1.01);
    expect_init_error(&def, legs, 4, REACH_ERROR_INVALID_ARGUMENT, "overstretch above 1");
    def = def_3d(), def.max_tilt = REACH_PI / 2;
    expect_init_error(&def, legs, 4, REACH_ERROR_INVALID_ARGUMENT, "tilt of a right angle");
    def = def_3d(), def.follow_time = -1;
    expect_init_error(&def, legs, 4, REACH_ERROR_INVALID_ARGUMENT, "negative follow time");
    def = def_3d();
    expect_init_error(&def, legs, 0, REACH_ERROR_INVALID_ARGUMENT, "no legs");
    expect_init_error(&def, legs, REACH_WALKER_MAX_LEGS + 1, REACH_ERROR_INVALID_ARGUMENT, "too many legs");

    reach_walker_leg_def bad[4];
    memcpy(bad, legs, sizeof bad), bad[2].bone_count = 3;
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "three bones for two-bone IK");
    memcpy(bad, legs, sizeof bad), bad[1].bone_lengths[1] = 0;
    expect_init_error(&def, bad, 4, REACH_ERROR_ZERO_LENGTH, "zero-length bone");
    memcpy(bad, legs, sizeof bad), bad[3].hip.y = nan;
    expect_init_error(&def, bad, 4, REACH_ERROR_NOT_FINITE, "NaN hip");
    memcpy(bad, legs, sizeof bad), bad[0].reach = 3;
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "reach beyond the chain");
    memcpy(bad, legs, sizeof bad), bad[0].group = -1;
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "negative group");
    memcpy(bad, legs, sizeof bad), bad[0].knee = reach_vec3_zero();
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "no knee direction");
    memcpy(bad, legs, sizeof bad), bad[0].rest = reach_vec2_make(5, 5);
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "rest out of reach");
    memcpy(bad, legs, sizeof bad), bad[0].solver = REACH_LEG_FABRIK, bad[0].bone_count = REACH_WALKER_MAX_BONES + 1;
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "too many FABRIK bones");
    memcpy(bad, legs, sizeof bad), bad[0].solver = REACH_LEG_FABRIK, bad[0].limited = 1;
    bad[0].min_angle[0] = 1, bad[0].max_angle[0] = 0;
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "inverted limit");
    bad[0].min_angle[0] = -4;
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "limit beyond pi");
    bad[0].min_angle[0] = nan;
    expect_init_error(&def, bad, 4, REACH_ERROR_NOT_FINITE, "NaN limit");
    memcpy(bad, legs, sizeof bad), bad[0].hip = reach_vec3_make(100, 0, 0);
    expect_init_error(&def, bad, 4, REACH_ERROR_INVALID_ARGUMENT, "hip far from its rest");

    /* Finite numbers beyond the walker's extent, each of which once came out NaN. */
    const reach_real beyond = REACH_R(1e30);
    memcpy(bad, legs, sizeof bad), bad[0].hip = reach_vec3_make(beyond, 0, 0);
    expect_init_error(&def, bad, 4, REACH_ERROR_OUT_OF_RANGE, "hip beyond the extent");
    memcpy(bad, legs, sizeof bad), bad[1].rest.y = -beyond;
    expect_init_error(&def, bad, 4, REACH_ERROR_OUT_OF_RANGE, "rest beyond the extent");
    memcpy(bad, legs, sizeof bad), bad[1].bone_lengths[1] = REACH_R(1e22);
    expect_init_error(&def, bad, 4, REACH_ERROR_OUT_OF_RANGE, "bone beyond the extent");
    memcpy(bad, legs, sizeof bad), bad[1].bone_lengths[0] = bad[1].bone_lengths[1] = REACH_R(1e-12);
    expect_init_error(&def, bad, 4, REACH_ERROR_OUT_OF_RANGE, "bones below the extent's reciprocal");
    def = def_3d(), def.step_height = beyond;
    expect_init_error(&def, legs, 4, REACH_ERROR_OUT_OF_RANGE, "swing arc beyond the extent");
    def = def_3d(), def.step_duration = beyond;
    expect_init_error(&def, legs, 4, REACH_ERROR_OUT_OF_RANGE, "step duration beyond the extent");
    def = def_3d();
    /* A leg the two-bone solver would refuse every frame is refused here, once. */
    memcpy(bad, legs, sizeof bad), bad[2].bone_lengths[1] = REACH_ZERO_LENGTH_RATIO / 2 * bad[2].bone_lengths[0];
    expect_init_error(&def, bad, 4, REACH_ERROR_ZERO_LENGTH, "lopsided two-bone leg");
    memcpy(bad, legs, sizeof bad), bad[2].solver = REACH_LEG_FABRIK, bad[2].bone_count = 3;
    bad[2].bone_lengths[2] = REACH_ZERO_LENGTH_RATIO / 4 * bad[2].bone_lengths[0];
    expect_init_error(&def, bad, 4, REACH_ERROR_ZERO_LENGTH, "FABRIK leg with a bone of no length");

    static reach_walker w;
    assert_int_equal(reach_walker_init(&w, &def, legs, 4, reach_vec2_make(nan, 0), 0), REACH_ERROR_NOT_FINITE);
    assert_int_equal(reach_walker_init(&w, &def, legs, 4, reach_vec2_make(0, 0), nan), REACH_ERROR_NOT_FINITE);
    assert_int_equal(reach_walker_init(&w, &def, legs, 4, reach_vec2_make(0, beyond), 0), REACH_ERROR_OUT_OF_RANGE);
}

/* Only the knee's direction counts, however long or short it is given: the walker keeps a unit
 * vector, in the ground plane in 2-D, and bends the same way. */
static void test_knee_directions_of_any_length(void **state) {
    (void)state;
    static reach_walker unit, huge, tiny;
    reach_walker_leg_def legs[6];
    for (int dimensions = 2; dimensions <= 3; dimensions++) {
        reach_walker_def def = def_3d();
        def.dimensions = dimensions;
        assert_int_equal(reach_walker_standard_legs(6, REACH_LEG_TWO_BONE, legs), REACH_OK);
        assert_int_equal(reach_walker_init(&unit, &def, legs, 6, reach_vec2_make(0, 0), 0), REACH_OK);
        for (int i = 0; i < 6; i++)
            legs[i].knee = reach_vec3_scale(legs[i].knee, KNEE_HUGE);
        assert_int_equal(reach_walker_init(&huge, &def, legs, 6, reach_vec2_make(0, 0), 0), REACH_OK);
        for (int i = 0; i < 6; i++)
            legs[i].knee = reach_vec3_scale(reach_vec3_scale(legs[i].knee, 1 / KNEE_HUGE), KNEE_TINY);
        assert_int_equal(reach_walker_init(&tiny, &def, legs, 6, reach_vec2_make(0, 0), 0), REACH_OK);
        for (int f = 1; f <= 120; f++) {
            reach_vec2 p = reach_vec2_make(REACH_R(0.02) * (reach_real)f, 0);
            assert_int_equal(reach_walker_update(&unit, p, REACH_R(0.01) * (reach_real)f, DT), REACH_OK);
            assert_int_equal(reach_walker_update(&huge, p, REACH_R(0.01) * (reach_real)f, DT), REACH_OK);
            assert_int_equal(reach_walker_update(&tiny, p, REACH_R(0.01) * (reach_real)f, DT), REACH_OK);
        }
        for (int i = 0; i < 6; i++) {
            ASSERT_NEAR(reach_vec3_length(huge.legs[i].def.knee), 1, 1e-6, "knee kept as a unit vector");
            if (dimensions == 2) assert_true(huge.legs[i].def.knee.z == 0);
            for (int k = 0; k <= 2; k++) {
                ASSERT_VEC3_NEAR(huge.legs[i].joints[k], unit.legs[i].joints[k], 1e-4, "same bend, huge knee");
                ASSERT_VEC3_NEAR(tiny.legs[i].joints[k], unit.legs[i].joints[k], 1e-4, "same bend, tiny knee");
            }
        }
    }
}

static void test_bad_updates_leave_the_walker_alone(void **state) {
    (void)state;
    static reach_walker w, copy;
    reach_walker_def def = def_3d();
    standard(&w, &def, 6);
    walk_straight(&w, 1, 1, NULL, NULL);
    copy = w;
    const reach_real nan = (reach_real)NAN;
    reach_vec2 here = reach_vec2_make(w.position.x, w.position.y);
    assert_int_equal(reach_walker_update(&w, reach_vec2_make(nan, 0), 0, DT), REACH_ERROR_NOT_FINITE);
    assert_int_equal(reach_walker_update(&w, here, (reach_real)INFINITY, DT), REACH_ERROR_NOT_FINITE);
    assert_int_equal(reach_walker_update(&w, here, 0, nan), REACH_ERROR_NOT_FINITE);
    assert_int_equal(reach_walker_update(&w, here, 0, 0), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_walker_update(&w, here, 0, -DT), REACH_ERROR_INVALID_ARGUMENT);
    /* Positions and time steps beyond the walker's extent, and a jump within it whose velocity
     * overflows. */
    reach_real huge = REACH_R(0.9) * (sizeof(reach_real) == 4 ? (reach_real)3.4e38 : (reach_real)1.7e308);
    assert_int_equal(reach_walker_update(&w, reach_vec2_make(huge, 0), 0, REACH_R(1e-3)), REACH_ERROR_OUT_OF_RANGE);
    assert_int_equal(reach_walker_update(&w, reach_vec2_make(0, REACH_R(2e9)), 0, DT), REACH_ERROR_OUT_OF_RANGE);
    assert_int_equal(reach_walker_update(&w, here, 0, REACH_R(2e9)), REACH_ERROR_OUT_OF_RANGE);
    assert_int_equal(reach_walker_update(&w, reach_vec2_make(REACH_R(1e9), 0), 0, DT_TINY), REACH_ERROR_OUT_OF_RANGE);
    assert_true(same_walker(&w, &copy));
}

/* A body standing still over the shortest time step there is stands still (1/dt overflows; the
 * velocity was 0 · ∞ and refused), and a heading of any size turns the short way round: the
 * turn over the step is at most π, whatever multiple of 2π the heading carries. */
static void test_still_bodies_and_headings_of_any_size(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    standard(&w, &def, 6);
    walk_straight(&w, 1, 1, NULL, NULL);
    reach_vec2 here = reach_vec2_make(w.position.x, w.position.y);
    reach_real shortest = sizeof(reach_real) == 4 ? (reach_real)1e-45f : (reach_real)5e-324;
    assert_true(shortest > 0);
    assert_int_equal(reach_walker_update(&w, here, w.heading, shortest), REACH_OK);
    assert_true(w.velocity.x == 0 && w.velocity.y == 0 && w.turn_rate == 0);
    const reach_real headings[] = {REACH_R(1e3), REACH_R(-1e6), REACH_R(1e9), REACH_R(-1e12), REACH_R(3e30)};
    for (size_t i = 0; i < sizeof headings / sizeof headings[0]; i++) {
        reach_real before = w.heading;
        assert_int_equal(reach_walker_update(&w, here, headings[i], DT), REACH_OK);
        if (!(reach_fabs(w.turn_rate) * DT <= REACH_PI * (1 + 4 * REACH_REAL_EPSILON)))
            fail_msg("from %g to %g the walker turned %g rad in one step", (double)before, (double)headings[i],
                     (double)(w.turn_rate * DT));
    }
    /* Headings at the ends of the range: from the largest to the most negative, whose difference
     * overflows (the update was refused), and on from there with turns of up to π in steps so
     * short that heading plus the turn to come overflowed (the feet's rest positions came out
     * NaN, and in 2-D so did every swinging foot). Each step is taken and leaves every foot and
     * joint finite. */
    reach_real largest = sizeof(reach_real) == 4 ? (reach_real)FLT_MAX : (reach_real)DBL_MAX;
    reach_real short_step = sizeof(reach_real) == 4 ? (reach_real)1e-36f : (reach_real)1e-306;
    def.dimensions = 2; /* in 3-D a NaN landing point fell back to the ground below the hip */
    standard(&w, &def, 6);
    walk_straight(&w, 1, 1, NULL, NULL);
    here = reach_vec2_make(w.position.x, w.position.y);
    assert_int_equal(reach_walker_update(&w, here, largest, DT), REACH_OK);
    assert_int_equal(reach_walker_update(&w, here, -largest, DT), REACH_OK);
    /* The turn measured is the one between the two yaws the body is turned by. */
    double yaw_turn =
        atan2(sin(-(double)largest) * cos((double)largest) - cos(-(double)largest) * sin((double)largest),
              cos(-(double)largest) * cos((double)largest) + sin(-(double)largest) * sin((double)largest));
    ASSERT_NEAR(w.turn_rate * DT, yaw_turn, 1e-4, "the turn between the yaws");
    assert_int_equal(reach_walker_update(&w, here, largest, DT), REACH_OK);
    for (int f = 0; f < 60; f++) {
        /* Even steps a few roundings in from an end, odd ones back to it in the short step: the
         * turn's sign and size vary with those roundings. */
        reach_real end = f < 30 ? largest : -largest;
        reach_real next = f % 2 ? end : end - (reach_real)(1 + f) * (4 * REACH_REAL_EPSILON * end);
        here.x += REACH_R(0.05);
        assert_int_equal(reach_walker_update(&w, here, next, f % 2 ? short_step : DT), REACH_OK);
        for (int i = 0; i < w.leg_count; i++) {
            assert_true(reach_vec3_is_finite(w.legs[i].foot) && reach_vec3_is_finite(w.legs[i].swing_to));
            for (int k = 0; k <= w.legs[i].def.bone_count; k++)
                assert_true(reach_vec3_is_finite(w.legs[i].joints[k]));
        }
    }
}

/* ---- determinism ------------------------------------------------------------------------ */

static void test_same_inputs_same_bits(void **state) {
    (void)state;
    static reach_walker a, b, c;
    reach_walk_terrain terrain = reach_walk_terrain_default(REACH_WALK_TERRAIN_WAVES);
    reach_walker_def def = def_3d();
    def.ground = reach_walk_terrain_ground;
    def.ground_user = &terrain;
    standard(&a, &def, 8);
    standard(&b, &def, 8);
    reach_walk_path path = reach_walk_path_default(REACH_WALK_PATH_FIGURE8);
    for (int f = 1; f <= 1200; f++) {
        reach_vec2 p;
        reach_real heading;
        assert_int_equal(reach_walk_path_sample(&path, (reach_real)f * DT, &p, &heading), REACH_OK);
        assert_int_equal(reach_walker_update(&a, p, heading, DT), REACH_OK);
        assert_int_equal(reach_walker_update(&b, p, heading, DT), REACH_OK);
        if (f == 600) c = a; /* a copy is the whole creature and walks on the same */
        if (f > 600) assert_int_equal(reach_walker_update(&c, p, heading, DT), REACH_OK);
        if (!same_walker(&a, &b)) fail_msg("frame %d differs", f);
        if (f >= 600 && !same_walker(&a, &c)) fail_msg("copy differs at frame %d", f);
    }
}

/* ---- gait groups ------------------------------------------------------------------------ */

static void test_gait_groups(void **state) {
    (void)state;
    /* 8: alternating tetrapod L1 R2 L3 R4 / R1 L2 R3 L4; 6: tripod L1 R2 L3 / R1 L2 R3;
     * 4: diagonal pairs; 2: left and right. Legs are L1 R1 L2 R2 ... */
    const int eight[] = {0, 1, 1, 0, 0, 1, 1, 0}, six[] = {0, 1, 1, 0, 0, 1}, four[] = {0, 1, 1, 0}, two[] = {0, 1};
    for (int i = 0; i < 8; i++)
        assert_int_equal(reach_walker_gait_group(8, i), eight[i]);
    for (int i = 0; i < 6; i++)
        assert_int_equal(reach_walker_gait_group(6, i), six[i]);
    for (int i = 0; i < 4; i++)
        assert_int_equal(reach_walker_gait_group(4, i), four[i]);
    for (int i = 0; i < 2; i++)
        assert_int_equal(reach_walker_gait_group(2, i), two[i]);
    assert_int_equal(reach_walker_gait_group(8, 8), -1);
    assert_int_equal(reach_walker_gait_group(8, -1), -1);
    /* In general: a leg's neighbours along its side and across the body are in the other group. */
    for (int n = 2; n <= REACH_WALKER_MAX_LEGS; n += 2)
        for (int i = 0; i < n; i++) {
            int across = i ^ 1, behind = i + 2;
            assert_int_not_equal(reach_walker_gait_group(n, i), reach_walker_gait_group(n, across));
            if (behind < n) assert_int_not_equal(reach_walker_gait_group(n, i), reach_walker_gait_group(n, behind));
        }
}

/* ---- step rules ------------------------------------------------------------------------- */

typedef struct landing_check {
    int landings, lifts;
    reach_real speed;
} landing_check;

/* At landing, an unclamped foot is exactly where its rest position will be lead_time later
 * (on flat ground and at constant velocity that is rest + velocity × lead_time); at lift-off it
 * is further than half the threshold from rest. */
static void check_landing(const reach_walker *before, const reach_walker *w, void *user) {
    landing_check *check = (landing_check *)user;
    for (int i = 0; i < w->leg_count; i++) {
        const reach_walker_leg *leg = &w->legs[i], *was = &before->legs[i];
        reach_real c = reach_cos(w->heading), s = reach_sin(w->heading);
        reach_vec2 rest = reach_vec2_make(w->position.x + c * leg->def.rest.x - s * leg->def.rest.y,
                                          w->position.y + s * leg->def.rest.x + c * leg->def.rest.y);
        reach_real d = reach_vec2_distance(reach_vec2_make(leg->foot.x, leg->foot.y), rest);
        if (leg->planted && !was->planted) {
            check->landings++;
            ASSERT_NEAR(leg->foot.x, rest.x + check->speed * w->def.lead_time, 1e-4, "lands ahead by velocity");
            ASSERT_NEAR(leg->foot.y, rest.y, 1e-4, "lands beside its rest position");
            ASSERT_NEAR(leg->foot.z, 0, 0, "on the ground");
        }
        if (leg->steps != was->steps) {
            check->lifts++;
            /* It was planted a frame ago, and at least half the threshold from rest. */
            if (!(d > w->def.step_threshold / 2)) fail_msg("leg %d lifted %g from rest", i, (double)d);
        }
    }
}

static void test_feet_land_ahead_by_velocity(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    standard(&w, &def, 6);
    landing_check check = {0, 0, REACH_R(0.8)};
    walk_straight(&w, check.speed, 10, check_landing, &check);
    assert_true(check.landings > 20);
    assert_true(check.lifts >= check.landings);
}

/* A swing takes step_duration and rises to step_height halfway. */
typedef struct swing_check {
    int leg;
    int lift_frame, land_frame, frame;
    reach_real top;
} swing_check;

static void watch_swing(const reach_walker *before, const reach_walker *w, void *user) {
    swing_check *check = (swing_check *)user;
    const reach_walker_leg *leg = &w->legs[check->leg];
    check->frame++;
    if (leg->steps == 1 && before->legs[check->leg].steps == 0) check->lift_frame = check->frame;
    if (check->lift_frame && !check->land_frame && leg->planted) check->land_frame = check->frame;
    if (check->lift_frame && !check->land_frame) check->top = reach_max(check->top, leg->lift);
}

static void test_swing_arc(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    standard(&w, &def, 4);
    swing_check check = {0, 0, 0, 0, 0};
    walk_straight(&w, REACH_R(0.5), 3, watch_swing, &check);
    assert_true(check.lift_frame > 0 && check.land_frame > check.lift_frame);
    ASSERT_NEAR((reach_real)(check.land_frame - check.lift_frame) * DT, def.step_duration, DT, "swing duration");
    ASSERT_NEAR(check.top, def.step_height, def.step_height * REACH_R(0.02), "arc height");
}

/* A body moving too fast for the step settings: legs step out of turn (counted), yet no foot
 * is ever out of reach and nothing is NaN; a teleport the same. */
static void test_forced_steps_keep_feet_in_reach(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    standard(&w, &def, 8);
    walk_straight(&w, 8, 3, NULL, NULL);
    assert_true(w.forced_steps > 0);
    assert_int_equal(reach_walker_update(&w, reach_vec2_make(w.position.x + 50, 3), 2, DT), REACH_OK);
    for (int i = 0; i < w.leg_count; i++) {
        const reach_walker_leg *leg = &w.legs[i];
        assert_true(reach_vec3_is_finite(leg->foot));
        if (reach_vec3_distance(leg->foot, leg->hip) > leg->def.reach * (1 + REL_TOL))
            fail_msg("leg %d out of reach", i);
        assert_false(leg->planted);
    }
    walk_straight(&w, 1, 2, NULL, NULL);
    for (int i = 0; i < w.leg_count; i++) {
        const reach_walker_leg *leg = &w.legs[i];
        assert_true(reach_vec3_distance(leg->foot, leg->hip) <= leg->def.reach * (1 + REL_TOL));
    }
}

/* ---- ground ----------------------------------------------------------------------------- */

/* A slope z = 0.2 x, except a strip where the query fails (NaN height) and one where it gives
 * a normal pointing down. */
static void broken_slope(void *user, reach_real x, reach_real y, reach_real *height, reach_vec3 *normal) {
    (void)user;
    (void)y;
    *height = REACH_R(0.2) * x;
    *normal = reach_vec3_make(REACH_R(-0.2), 0, 1);
    if (x > 2 && x < 3) *height = (reach_real)NAN;
    if (x > 5 && x < 6) *normal = reach_vec3_make(0, 0, -1);
    if (x > 7 && x < REACH_R(7.5)) *height = HEIGHT_HUGE; /* finite, absurd */
}

static void test_failed_ground_queries_never_give_nan(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    def.ground = broken_slope;
    standard(&w, &def, 6);
    walk_straight(&w, 1, 8, NULL, NULL);
    assert_true(reach_vec3_is_finite(w.position));
    assert_true(reach_fabs(w.position.z) < 10); /* the absurd heights were not believed */
    for (int i = 0; i < w.leg_count; i++) {
        const reach_walker_leg *leg = &w.legs[i];
        for (int k = 0; k <= leg->def.bone_count; k++)
            assert_true(reach_vec3_is_finite(leg->joints[k]));
        assert_true(reach_vec3_is_finite(leg->normal) && leg->normal.z > 0);
    }
}

/* A plane through the origin with slopes along x and y (user: two reals). */
static void plane_ground(void *user, reach_real x, reach_real y, reach_real *height, reach_vec3 *normal) {
    const reach_real *slope = user;
    *height = slope[0] * x + slope[1] * y;
    *normal = reach_vec3_normalize_safe(reach_vec3_make(-slope[0], -slope[1], 1), reach_vec3_make(0, 0, 1));
}

/* Standing on a plane, the body settles ride_height above it at its origin and tilts to its
 * normal, and no further than max_tilt on a steeper one. */
static void test_body_follows_the_planted_feet(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    reach_real slope = REACH_R(0.2);
    reach_real gentle[2] = {slope, 0}, steep[2] = {1, 0};
    def.ground = plane_ground;
    def.ground_user = gentle;
    standard(&w, &def, 8);
    for (int f = 0; f < 120; f++)
        assert_int_equal(reach_walker_update(&w, reach_vec2_make(1, 0), 0, DT), REACH_OK);
    ASSERT_NEAR(w.position.z, slope * 1 + def.ride_height, 0.01, "height above the slope");
    reach_vec3 normal = reach_vec3_normalize_safe(reach_vec3_make(-slope, 0, 1), reach_vec3_zero());
    ASSERT_VEC3_NEAR(w.up, normal, 0.01, "tilted to the slope");
    ASSERT_VEC3_NEAR(reach_quat_rotate(w.rotation, reach_vec3_make(0, 0, 1)), w.up, 1e-5, "rotation has the tilt");

    def.ground_user = steep;
    def.max_tilt = REACH_R(0.3);
    standard(&w, &def, 8);
    ASSERT_NEAR(reach_acos(reach_clamp(w.up.z, -1, 1)), 0.3, 1e-4, "tilt capped");
    ASSERT_NEAR(w.up.y, 0, 1e-6, "tilted along the slope");
}

/* ---- knees and 2-D ---------------------------------------------------------------------- */

static void test_knees_bend_toward_their_side(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    standard(&w, &def, 6);
    walk_straight(&w, 1, 2, NULL, NULL);
    for (int i = 0; i < w.leg_count; i++) {
        const reach_walker_leg *leg = &w.legs[i];
        /* The knee is above the hip→foot line (the standard knee direction is mostly up). */
        reach_vec3 u = reach_vec3_normalize_safe(reach_vec3_sub(leg->foot, leg->hip), reach_vec3_zero());
        reach_vec3 off = reach_vec3_reject(reach_vec3_sub(leg->joints[1], leg->hip), u);
        assert_true(off.z > 0);
    }
    def.dimensions = 2;
    standard(&w, &def, 6);
    walk_straight(&w, 1, 2, NULL, NULL);
    for (int i = 0; i < w.leg_count; i++) {
        const reach_walker_leg *leg = &w.legs[i];
        reach_vec3 to_foot = reach_vec3_sub(leg->foot, leg->hip), to_knee = reach_vec3_sub(leg->joints[1], leg->hip);
        reach_real side = to_foot.x * to_knee.y - to_foot.y * to_knee.x;
        /* Knees point forward on the front half, back on the rear half. */
        reach_vec3 knee_world = reach_quat_rotate(w.rotation, leg->def.knee);
        reach_real want = to_foot.x * knee_world.y - to_foot.y * knee_world.x;
        assert_true(side * want > 0);
        assert_true(leg->lift >= 0 && leg->lift <= def.step_height);
    }
}

/* Any number of groups and legs: a three-legged creature whose legs each have a group of their
 * own, one with a shorter reach than its chain, walks a line without breaking a rule. */
static void test_custom_creature(void **state) {
    (void)state;
    static reach_walker w;
    reach_walker_def def = def_3d();
    reach_walker_leg_def legs[3];
    for (int i = 0; i < 3; i++) {
        reach_real a = 2 * REACH_PI * (reach_real)i / 3;
        legs[i] = reach_walker_default_leg_def();
        legs[i].hip = reach_vec3_make(REACH_R(0.4) * reach_cos(a), REACH_R(0.4) * reach_sin(a), 0);
        legs[i].rest = reach_vec2_make(REACH_R(1.4) * reach_cos(a), REACH_R(1.4) * reach_sin(a));
        legs[i].group = i;
        legs[i].knee = reach_vec3_make(reach_cos(a), reach_sin(a), 1);
    }
    legs[1].reach = 2;
    assert_int_equal(reach_walker_init(&w, &def, legs, 3, reach_vec2_make(0, 0), 0), REACH_OK);
    assert_true(w.legs[0].def.reach == legs[0].bone_lengths[0] + legs[0].bone_lengths[1]);
    for (int f = 1; f <= 600; f++) {
        assert_int_equal(reach_walker_update(&w, reach_vec2_make(REACH_R(0.5) * DT * (reach_real)f, 0), 0, DT),
                         REACH_OK);
        int swinging = 0;
        for (int i = 0; i < 3; i++) {
            swinging += !w.legs[i].planted;
            assert_true(reach_vec3_distance(w.legs[i].foot, w.legs[i].hip) <= w.legs[i].def.reach * (1 + REL_TOL));
        }
        assert_true(swinging <= 1);
    }
    assert_int_equal(w.forced_steps, 0);
    for (int i = 0; i < 3; i++)
        assert_true(w.legs[i].steps > 2);
}

/* Limited three-bone FABRIK legs: every bone stays in the vertical plane through hip and foot
 * and within its range, frame after frame of a walk over the waves. */
static void test_limited_fabrik_legs(void **state) {
    (void)state;
    static reach_walker w;
    reach_walk_terrain terrain = reach_walk_terrain_default(REACH_WALK_TERRAIN_WAVES);
    reach_walker_def def = def_3d();
    def.ground = reach_walk_terrain_ground;
    def.ground_user = &terrain;
    reach_walker_leg_def legs[6];
    assert_int_equal(reach_walker_standard_legs(6, REACH_LEG_FABRIK, legs), REACH_OK);
    const reach_real lo[3] = {REACH_R(-1.2), REACH_R(-3.0), REACH_R(-2.5)}, hi[3] = {REACH_R(1.57), REACH_R(0.6), 2};
    for (int i = 0; i < 6; i++) {
        legs[i].limited = 1;
        memcpy(legs[i].min_angle, lo, sizeof lo);
        memcpy(legs[i].max_angle, hi, sizeof hi);
    }
    assert_int_equal(reach_walker_init(&w, &def, legs, 6, reach_vec2_make(0, 0), 0), REACH_OK);
    reach_walk_path path = reach_walk_path_default(REACH_WALK_PATH_CIRCLE);
    for (int f = 1; f <= 900; f++) {
        reach_vec2 p;
        reach_real heading;
        assert_int_equal(reach_walk_path_sample(&path, (reach_real)f * DT, &p, &heading), REACH_OK);
        assert_int_equal(reach_walker_update(&w, p, heading, DT), REACH_OK);
        for (int i = 0; i < 6; i++) {
            const reach_walker_leg *leg = &w.legs[i];
            reach_vec3 x_axis = reach_vec3_normalize_safe(reach_vec3_reject(reach_vec3_sub(leg->foot, leg->hip), w.up),
                                                          reach_vec3_zero());
            reach_vec3 across = reach_vec3_cross(x_axis, w.up);
            reach_real previous = 0;
            for (int k = 0; k < 3; k++) {
                reach_vec3 bone = reach_vec3_sub(leg->joints[k + 1], leg->joints[k]);
                ASSERT_NEAR(reach_vec3_dot(bone, across), 0, 1e-4, "bone in the leg's plane");
                reach_real angle = reach_atan2(reach_vec3_dot(bone, w.up), reach_vec3_dot(bone, x_axis));
                reach_real turn = angle - previous;
                turn -= 2 * REACH_PI * reach_floor((turn + REACH_PI) / (2 * REACH_PI));
                if (turn < lo[k] - REACH_R(1e-3) || turn > hi[k] + REACH_R(1e-3))
                    fail_msg("frame %d leg %d bone %d turns %g, outside [%g, %g]", f, i, k, (double)turn, (double)lo[k],
                             (double)hi[k]);
                previous = angle;
            }
        }
    }
    assert_int_equal(w.forced_steps, 0);
}

/* FABRIK legs whose feet stand on the body's up axis through their hips, but for a few
 * roundings: a body riding at ground level on a plane tilted by a hair, its hips hung straight
 * below their rest points. The hip-to-foot line then gives no direction along the ground to
 * solve a leg in; every leg must keep its bone lengths, limited or not, for 1 000 seeded tilts
 * from 1e-5 to 1e-1 in every direction, and reach feet a hair off that axis. */
static void test_fabrik_legs_along_the_body_axis(void **state) {
    (void)state;
    static reach_walker w;
    test_rng rng = test_rng_make(0x77a1c);
    reach_real slope[2];
    reach_walker_def def = def_3d();
    def.ground = plane_ground;
    def.ground_user = slope;
    def.ride_height = 0;
    reach_walker_leg_def legs[4];
    const reach_real lengths[3] = {1, REACH_R(0.8), REACH_R(0.6)};
    const reach_real lo[3] = {REACH_R(-1.2), REACH_R(-3.0), REACH_R(-2.5)}, hi[3] = {REACH_R(1.57), REACH_R(0.6), 2};
    for (int i = 0; i < 4; i++) {
        legs[i] = reach_walker_default_leg_def();
        legs[i].solver = REACH_LEG_FABRIK;
        legs[i].bone_count = 3;
        memcpy(legs[i].bone_lengths, lengths, sizeof lengths);
        memcpy(legs[i].min_angle, lo, sizeof lo);
        memcpy(legs[i].max_angle, hi, sizeof hi);
        legs[i].hip = reach_vec3_make(i & 1 ? 1 : -1, i & 2 ? 1 : -1, REACH_R(-1.2));
        legs[i].rest = reach_vec2_make(legs[i].hip.x, legs[i].hip.y);
        legs[i].knee = reach_vec3_make(legs[i].hip.x, legs[i].hip.y, 1);
        legs[i].group = i % 2;
    }
    double worst = 0;
    for (int trial = 0; trial < 1000; trial++) {
        reach_real size = (reach_real)pow(10, (double)test_uniform(&rng, -5, -1));
        reach_real turn = test_uniform(&rng, -REACH_PI, REACH_PI);
        slope[0] = size * reach_cos(turn);
        slope[1] = size * reach_sin(turn);
        for (int i = 0; i < 4; i++)
            legs[i].limited = trial % 2;
        reach_vec2 at = reach_vec2_make(test_uniform(&rng, -3, 3), test_uniform(&rng, -3, 3));
        assert_int_equal(reach_walker_init(&w, &def, legs, 4, at, test_uniform(&rng, -REACH_PI, REACH_PI)), REACH_OK);
        for (int f = 0; f <= 10; f++) {
            if (f > 0) assert_int_equal(reach_walker_update(&w, at, w.heading, DT), REACH_OK);
            for (int i = 0; i < 4; i++) {
                const reach_vec3 *joints = w.legs[i].joints;
                for (int k = 0; k < 3; k++) {
                    reach_real length = reach_vec3_distance(joints[k], joints[k + 1]);
                    double error = fabs((double)length - (double)lengths[k]);
                    worst = fmax(worst, error);
                    if (!(error <= 1e3 * REACH_REAL_EPSILON))
                        fail_msg("tilt %g, frame %d, leg %d: bone %d is %.9g long, should be %g", (double)size, f, i, k,
                                 (double)length, (double)lengths[k]);
                }
            }
        }
    }
    print_message("worst bone length error %g\n", worst);

    /* On level ground, the body moved a hair: every foot stays planted a hair off the vertical
     * through its hip, and every leg still reaches its foot (a threshold of a thousandth of the
     * leg for "upright" left them that far short). */
    def.ground = NULL;
    def.ground_user = NULL;
    for (int i = 0; i < 4; i++)
        legs[i].limited = 0; /* the limits keep these legs from folding onto a foot right below */
    const reach_real moves[] = {REACH_R(1e-6), REACH_R(2e-4), REACH_R(1e-3), REACH_R(1.1e-3), REACH_R(3e-3)};
    for (size_t m = 0; m < sizeof moves / sizeof moves[0]; m++) {
        assert_int_equal(reach_walker_init(&w, &def, legs, 4, reach_vec2_make(0, 0), 0), REACH_OK);
        assert_int_equal(reach_walker_update(&w, reach_vec2_make(moves[m], 0), 0, DT), REACH_OK);
        for (int i = 0; i < 4; i++) {
            assert_true(w.legs[i].planted);
            reach_real miss = reach_vec3_distance(w.legs[i].joints[3], w.legs[i].foot);
            if (!(miss <= REACH_R(2e-5) * w.legs[i].def.reach))
                fail_msg("moved %g: leg %d misses its foot by %g", (double)moves[m], i, (double)miss);
        }
    }
}

/* The defaults walker.h documents are the ones the code sets. */
static void test_documented_defaults(void **state) {
    (void)state;
    reach_walker_def d = reach_walker_default_def();
    ASSERT_NEAR(d.step_threshold, 0.35, 1e-6, "step_threshold");
    ASSERT_NEAR(d.step_duration, 0.2, 1e-6, "step_duration");
    ASSERT_NEAR(d.step_height, 0.3, 1e-6, "step_height");
    ASSERT_NEAR(d.lead_time, 0.15, 1e-6, "lead_time");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_documented_defaults),
        cmocka_unit_test(test_standard_creatures_initialise),
        cmocka_unit_test(test_bad_definitions_are_refused),
        cmocka_unit_test(test_bad_updates_leave_the_walker_alone),
        cmocka_unit_test(test_still_bodies_and_headings_of_any_size),
        cmocka_unit_test(test_knee_directions_of_any_length),
        cmocka_unit_test(test_same_inputs_same_bits),
        cmocka_unit_test(test_gait_groups),
        cmocka_unit_test(test_feet_land_ahead_by_velocity),
        cmocka_unit_test(test_swing_arc),
        cmocka_unit_test(test_forced_steps_keep_feet_in_reach),
        cmocka_unit_test(test_failed_ground_queries_never_give_nan),
        cmocka_unit_test(test_body_follows_the_planted_feet),
        cmocka_unit_test(test_knees_bend_toward_their_side),
        cmocka_unit_test(test_custom_creature),
        cmocka_unit_test(test_limited_fabrik_legs),
        cmocka_unit_test(test_fabrik_legs_along_the_body_axis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
