/* A FABRIK tentacle with angle limits: ten bones in the plane, each allowed to turn at most
 * BEND from the bone before it (the first from straight up), follow a target that wanders
 * inside the reach, rises beyond it (the tentacle points straight at it), and swings low
 * beside the base, where the limits stop the tentacle curling far enough. Each joint's
 * allowed range is drawn as a wedge around its parent bone's direction; wedges whose bone sits
 * at a limit are drawn in the status colour. Solved by reach_fabrik_solve_2d, warm-started
 * from the previous frame's pose, as a game would. */
#include <math.h>
#include <stdio.h>

#include "readout.h"
#include "replay.h"
#include "scene.h"
#include "scenery2d.h"

#define BONES     10
#define BEND      0.42 /* radians each joint may turn, either way */
#define ROOT_BEND 0.7  /* the first bone, from straight up */
#define PI        3.14159265358979323846
#define LOOP      10.0 /* seconds: the target's path closes */
#define STEP      0.04 /* simulation step: one frame at 25 frames per second */
#define WARMUP    250  /* LOOP / STEP: a whole loop before the first frame, which then follows the last */
#define AT_LIMIT  1e-3 /* radians from an end of its range that counts as at the limit */
#define REACH_M   1.25 /* the sum of the lengths */

static const double lengths_m[BONES] = {0.17, 0.16, 0.15, 0.14, 0.13, 0.12, 0.11, 0.1, 0.09, 0.08};

static reach_vec2 vec2(double x, double y) { return reach_vec2_make((reach_real)x, (reach_real)y); }

/* Around the top of the reach and out past it (reach 1.25), down one side and low beside the
 * base, across over the top and low on the other side; it closes after LOOP seconds. */
static reach_vec2 target_at(double t) {
    double a = 2 * PI * t / LOOP;
    double phi = 1.95 * sin(a);                /* from straight up, radians */
    double r = 0.93 + 0.38 * sin(3 * a + 0.6); /* distance from the base */
    return vec2(r * sin(phi), r * cos(phi));
}

typedef struct tentacle {
    reach_vec2 joints[BONES + 1];
    reach_real lengths[BONES], min_angle[BONES], max_angle[BONES];
    reach_solve_result result;
} tentacle;

static tentacle state;
static demo_replay replay = {STEP, WARMUP, 0, 0};

static void reset(tentacle *s) {
    double y = 0;
    s->joints[0] = vec2(0, 0);
    for (int i = 0; i < BONES; i++) {
        s->lengths[i] = (reach_real)lengths_m[i];
        s->min_angle[i] = (reach_real)(i == 0 ? -ROOT_BEND : -BEND);
        s->max_angle[i] = (reach_real)(i == 0 ? ROOT_BEND : BEND);
        y += lengths_m[i];
        s->joints[i + 1] = vec2(0, y);
    }
}

static reach_status solve(tentacle *s, double t) {
    reach_fabrik_2d_chain chain = {BONES, s->joints, s->lengths, s->min_angle, s->max_angle, vec2(0, 1)};
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = 64;
    return reach_fabrik_solve_2d(&chain, target_at(t), &settings, &s->result);
}

static reach_status advance(double t) {
    int first, last;
    demo_replay_range(&replay, t, &first, &last);
    for (int k = first; k <= last; k++) {
        if (demo_replay_is_start(&replay, k)) reset(&state);
        reach_status status = solve(&state, k * STEP);
        if (status != REACH_OK) return status;
    }
    return REACH_OK;
}

static double angle_of(reach_vec2 v) { return atan2((double)v.y, (double)v.x); }

/* Bone i's turn from its parent's direction (straight up for the first). */
static double turn_of(const tentacle *s, int i, double *parent_angle) {
    reach_vec2 parent = i == 0 ? vec2(0, 1) : reach_vec2_sub(s->joints[i], s->joints[i - 1]);
    double from = angle_of(parent), to = angle_of(reach_vec2_sub(s->joints[i + 1], s->joints[i]));
    *parent_angle = from;
    double turn = to - from;
    while (turn > PI)
        turn -= 2 * PI;
    while (turn < -PI)
        turn += 2 * PI;
    return turn;
}

static int draw_wedges(demo_canvas *canvas, const demo_view2d *view, const tentacle *s) {
    int at_limit = 0;
    for (int i = 0; i < BONES; i++) {
        double parent, turn = turn_of(s, i, &parent);
        int hit = turn <= (double)s->min_angle[i] + AT_LIMIT || turn >= (double)s->max_angle[i] - AT_LIMIT;
        at_limit += hit;
        double radius = lengths_m[i] * view->scale;
        demo_draw_wedge(canvas, demo_view2d_point(view, s->joints[i]), radius, parent + (double)s->min_angle[i],
                        parent + (double)s->max_angle[i], hit ? DEMO_UNREACHED : DEMO_CONSTRUCTION, hit ? 0.4 : 0.5);
    }
    return at_limit;
}

static void draw_info(demo_canvas *canvas, const tentacle *s, int at_limit, double t) {
    demo_colour colour;
    const char *status = demo_solve_status(&s->result, (double)reach_vec2_length(target_at(t)) > REACH_M, &colour);
    demo_info info = demo_info_begin(canvas, DEMO_INFO_WIDTH, 78, "FABRIK 2-D", status, colour);
    char value[48];
    snprintf(value, sizeof value, "%d", s->result.iterations);
    demo_info_row(&info, "iterations", value, DEMO_TEXT);
    demo_format_residual((double)s->result.residual, value, sizeof value);
    demo_info_row(&info, "residual", value, colour);
    snprintf(value, sizeof value, "%d of %d", at_limit, BONES);
    demo_info_row(&info, "at a limit", value, at_limit ? DEMO_UNREACHED : DEMO_TEXT);
    snprintf(value, sizeof value, "±%.0f° a joint", BEND * 180 / PI);
    demo_info_row(&info, "limits", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%d, reach %.2f", BONES, REACH_M);
    demo_info_row(&info, "bones", value, DEMO_TEXT);
    snprintf(value, sizeof value, "t = %.2f s", t);
    demo_info_note(&info, value);
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "bones"},
    {DEMO_MARK_DOT, DEMO_JOINT, "joints"},
    {DEMO_MARK_RING, DEMO_TARGET, "target"},
    {DEMO_MARK_DASHED, DEMO_GUIDE, "reach"},
    {DEMO_MARK_LINE, DEMO_CONSTRUCTION, "allowed turn"},
    {DEMO_MARK_LINE, DEMO_UNREACHED, "at its limit"},
};

static reach_status draw_fabrik_tentacle(demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = advance(frame->time);
    if (status != REACH_OK) return status;
    demo_view2d view = demo_begin_view_2d(canvas, vec2(-1.35, -0.55), vec2(1.35, 1.38), DEMO_INFO_WIDTH, 0.25, NULL);
    demo_draw_circle(canvas, demo_view2d_point(&view, vec2(0, 0)), REACH_M * view.scale, 1.5, DEMO_GUIDE, 1);
    int at_limit = draw_wedges(canvas, &view, &state);
    demo_draw_trail_2d(canvas, &view, target_at, frame->time, 1.5, DEMO_TARGET);
    demo_point tip = demo_view2d_point(&view, state.joints[BONES]),
               goal = demo_view2d_point(&view, target_at(frame->time));
    if (!state.result.reached) demo_draw_dashed_segment(canvas, tip, goal, 2, DEMO_UNREACHED);
    demo_draw_chain_2d(canvas, &view, state.joints, BONES + 1, 9, 4, DEMO_BONE);
    demo_draw_target(canvas, goal, 8, state.result.reached ? DEMO_TARGET : DEMO_UNREACHED);
    draw_info(canvas, &state, at_limit, frame->time);
    return REACH_OK;
}

const demo_scene demo_scene_fabrik_tentacle = {
    .name = "fabrik_tentacle",
    .title = "FABRIK tentacle with angle limits",
    .subtitle = "Ten bones, each turning at most ±24° from the one before; wedges show what each joint allows.",
    .caption = "A ten-bone FABRIK tentacle follows a target around, past the edge of its reach (it points straight "
               "at it) and low beside its base, where the angle limits (the wedges) stop it curling far enough.",
    .draw = draw_fabrik_tentacle,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LOOP,
    .frame_delay_cs = 4,
    .still_time = 5.0,
};
