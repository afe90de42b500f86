/* `reach walk`: every line parses, frames and feet are counted right, planted feet stay put,
 * no foot goes beyond its reach, the gait groups take turns, every leg steps, the body follows
 * the path docs/walker.md describes, forced steps are counted where the groups do not take
 * turns; bad options are usage errors. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FEET 32

typedef struct foot {
    reach_vec3 position, hip;
    int planted, group;
    double reach;
} foot;

typedef struct frame {
    int index, feet;
    long forced_steps;
    double t, heading;
    reach_vec3 body;
    foot foot[MAX_FEET];
} frame;

static void read_frame(const char *line, frame *f) {
    cJSON *json = cJSON_Parse(line);
    if (!json) fail_msg("not JSON: %s", line);
    f->index = (int)json_number(json, "frame");
    f->t = json_number(json, "t");
    f->forced_steps = (long)json_number(json, "forced_steps");
    f->body = json_vec3(json, "body.position");
    f->heading = json_number(json, "body.heading");
    const cJSON *feet = json_at(json, "feet");
    f->feet = cJSON_GetArraySize(feet);
    assert_true(f->feet <= MAX_FEET);
    for (int i = 0; i < f->feet; i++) {
        const cJSON *item = cJSON_GetArrayItem(feet, i);
        f->foot[i].position = json_vec3(item, "position");
        f->foot[i].hip = json_vec3(item, "hip");
        f->foot[i].group = (int)json_number(item, "group");
        f->foot[i].reach = json_number(item, "reach");
        assert_true(cJSON_IsBool(json_at(item, "planted")));
        f->foot[i].planted = cJSON_IsTrue(json_at(item, "planted"));
    }
    cJSON_Delete(json);
}

/* The circle path: radius 6 at speed 1 from the origin heading +x, turning left. */
static reach_vec3 circle_at(double t) { return reach_vec3_make(6 * sin(t / 6), 6 * (1 - cos(t / 6)), 0); }

/* Runs a walk and checks every frame against the one before. */
static void check_walk(const char *legs, const char *path, const char *terrain, int frames) {
    char frames_text[16];
    snprintf(frames_text, sizeof frames_text, "%d", frames);
    cli_run run = run_cli(NULL, "walk", "--legs", legs, "--frames", frames_text, "--dt", "0.016", "--path", path,
                          "--terrain", terrain, NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(run.err, "");
    assert_all_finite_text(run.out);
    int leg_count = atoi(legs), count = 0, steps[MAX_FEET] = {0};
    frame previous, current;
    for (char *line = run.out; *line; count++) {
        char *end = strchr(line, '\n');
        assert_non_null(end);
        *end = '\0';
        read_frame(line, &current);
        line = end + 1;
        assert_int_equal(current.index, count);
        assert_true(fabs(current.t - 0.016 * count) < 1e-9);
        assert_int_equal(current.feet, leg_count);
        /* At this time step every standard walk keeps its gait. */
        assert_int_equal(current.forced_steps, 0);
        int swinging_group = -1;
        for (int i = 0; i < leg_count; i++) {
            const foot *f = &current.foot[i];
            assert_true(reach_vec3_distance(f->position, f->hip) <= f->reach * (1 + 1e-12));
            if (count > 0 && previous.foot[i].planted && f->planted)
                assert_vec3_near(f->position, previous.foot[i].position, 0);
            if (count > 0 && previous.foot[i].planted && !f->planted) steps[i]++;
            if (!f->planted) {
                /* Legs of different groups never swing together. */
                assert_true(swinging_group < 0 || swinging_group == f->group);
                swinging_group = f->group;
            }
        }
        if (strcmp(path, "circle") == 0) {
            reach_vec3 body = reach_vec3_make(current.body.x, current.body.y, 0);
            assert_vec3_near(body, circle_at(current.t), 1e-9);
            assert_true(fabs(current.heading - current.t / 6) < 1e-9);
        }
        previous = current;
    }
    assert_int_equal(count, frames);
    for (int i = 0; i < leg_count; i++)
        if (steps[i] == 0) fail_msg("leg %d never stepped (%s legs, %s, %s)", i, legs, path, terrain);
    cli_run_free(&run);
}

static void every_creature_path_and_terrain(void **state) {
    (void)state;
    static const char *const legs[] = {"8", "6", "4", "2"};
    static const char *const paths[] = {"circle", "line", "figure8"};
    static const char *const terrains[] = {"flat", "waves", "steps"};
    for (size_t l = 0; l < 4; l++)
        for (size_t p = 0; p < 3; p++)
            for (size_t t = 0; t < 3; t++)
                check_walk(legs[l], paths[p], terrains[t], 300);
}

/* The command line, whole: 600 frames of the eight-legged creature. */
static void the_default_walk(void **state) {
    (void)state;
    check_walk("8", "circle", "flat", 600);
    cli_run run = run_cli(NULL, "walk", NULL);
    assert_int_equal(run.status, 0);
    int lines = 0;
    for (const char *c = run.out; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 600);
    cJSON *first = cJSON_ParseWithOpts(run.out, NULL, 0);
    assert_int_equal(cJSON_GetArraySize(json_at(first, "feet")), 8);
    assert_true(json_number(first, "t") == 0);
    cJSON_Delete(first);
    cli_run_free(&run);
}

/* With a time step too long for the gait a foot about to overstretch lifts out of its group's
 * turn: the frame it lifts in counts it. A swing lasts less than a frame at this step, so two
 * groups swing together only in such a frame. */
static void forced_steps_are_counted(void **state) {
    (void)state;
    cli_run run = run_cli(NULL, "walk", "--legs", "8", "--path", "figure8", "--dt", "1", "--frames", "30", NULL);
    assert_int_equal(run.status, 0);
    long before = 0;
    int mixed_frames = 0, count = 0;
    for (char *line = run.out; *line; count++) {
        char *end = strchr(line, '\n');
        assert_non_null(end);
        *end = '\0';
        frame f;
        read_frame(line, &f);
        line = end + 1;
        assert_true(f.forced_steps >= before);
        int groups_swinging = 0, first_group = -1;
        for (int i = 0; i < f.feet; i++) {
            if (f.foot[i].planted) continue;
            if (first_group < 0) first_group = f.foot[i].group;
            if (f.foot[i].group != first_group) groups_swinging = 2;
        }
        if (groups_swinging == 2) {
            assert_true(f.forced_steps > before);
            mixed_frames++;
        }
        before = f.forced_steps;
    }
    assert_int_equal(count, 30);
    assert_true(before > 0);
    assert_true(mixed_frames > 0);
    cli_run_free(&run);
}

/* Each bad command line (after "walk") and its message. */
static const struct {
    const char *a, *b, *message;
} bad_walks[] = {
    {"--legs", "3", "--legs: expected an even number of legs from 2 to 32, got '3'"},
    {"--legs", "0", "--legs: expected an even number of legs from 2 to 32, got '0'"},
    {"--legs", "34", "--legs: expected an even number of legs from 2 to 32, got '34'"},
    {"--legs", "eight", "--legs: expected an even number of legs from 2 to 32, got 'eight'"},
    {"--frames", "0", "--frames: expected a whole number from 1 to 10000000, got '0'"},
    {"--frames", "2.5", "--frames: expected a whole number from 1 to 10000000, got '2.5'"},
    {"--frames", "99999999999999999999",
     "--frames: expected a whole number from 1 to 10000000, got '99999999999999999999'"},
    {"--dt", "0", "--dt: expected seconds per frame from 1e-6 to 1, got '0'"},
    {"--dt", "-0.1", "--dt: expected seconds per frame from 1e-6 to 1, got '-0.1'"},
    {"--dt", "nan", "--dt: expected seconds per frame from 1e-6 to 1, got 'nan'"},
    {"--dt", "2", "--dt: expected seconds per frame from 1e-6 to 1, got '2'"},
    {"--dt", "4e-320", "--dt: expected seconds per frame from 1e-6 to 1, got '4e-320'"},
    {"--dt", "0.01s", "--dt: expected seconds per frame from 1e-6 to 1, got '0.01s'"},
    {"--path", "spiral", "--path: unknown path 'spiral' (expected circle, line or figure8)"},
    {"--terrain", "lava", "--terrain: unknown terrain 'lava' (expected flat, waves or steps)"},
    {"--legs", NULL, "--legs needs a value"},
    {"--speed", "2", "unknown option '--speed' for 'walk'"},
    {"spider.json", NULL, "unexpected argument 'spider.json': walk reads no FILE"},
};

static void bad_options(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof bad_walks / sizeof bad_walks[0]; i++) {
        cli_run run = run_cli(NULL, "walk", bad_walks[i].a, bad_walks[i].b, NULL);
        char expected[512];
        snprintf(expected, sizeof expected, "%s (see 'reach --help')", bad_walks[i].message);
        assert_cli_error(&run, 2, expected);
        cli_run_free(&run);
    }
}

static void help(void **state) {
    (void)state;
    cli_run run = run_cli(NULL, "walk", "--help", NULL);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(run.out, "--terrain T"));
    cli_run_free(&run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_creature_path_and_terrain),
        cmocka_unit_test(the_default_walk),
        cmocka_unit_test(forced_steps_are_counted),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(help),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
