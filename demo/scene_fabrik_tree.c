/* FABRIK on a tree: a figure whose two hands follow two targets. Both arms hang from the
 * chest, so the spine is shared: FABRIK's backward pass sends each hand's chain toward its
 * target, puts the chest at the weighted centroid of where the two arms ask for it, and the
 * forward pass turns the spine and hips to the best fit for both. The hands first wave within
 * reach; then the targets pull apart beyond it, and the weights (drawn at each target) swing
 * from one side to the other: the body leans toward the heavier target, whose hand gets
 * nearer, while the other falls further short. */
#include <math.h>
#include <stdio.h>

#include "figure.h"
#include "readout.h"
#include "replay.h"
#include "scene.h"
#include "scenery2d.h"

#define PI      3.14159265358979323846
#define LOOP    10.0
#define STEP    0.04
#define WARMUP  250 /* LOOP / STEP: a whole loop before the first frame, which then follows the last */
#define SCRATCH (64 * 1024)

static reach_vec2 vec2(double x, double y) { return reach_vec2_make((reach_real)x, (reach_real)y); }

static double smoothstep(double edge0, double edge1, double x) {
    double t = (x - edge0) / (edge1 - edge0);
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return t * t * (3 - 2 * t);
}

/* Seconds into the loop (the warm-up runs at negative times). */
static double loop_time(double t) {
    double u = fmod(t, LOOP);
    return u < 0 ? u + LOOP : u;
}

/* 0 while the hands wave, 1 while the targets are apart. */
static double apart(double t) {
    t = loop_time(t);
    return smoothstep(3.0, 4.2, t) * (1 - smoothstep(8.8, 10.0, t));
}

/* Weights as powers of 3: equal while waving, then the left heavier, then the right. */
static double weight_exponent(double t) {
    t = loop_time(t);
    return sin(2 * PI * (t - 4.2) / 4.6) * smoothstep(4.0, 4.6, t) * (t < 8.8);
}

static reach_vec2 target_of(int side, double t) {
    double sign = side == 0 ? -1 : 1, a = 2 * PI * t / (LOOP / 3);
    /* Waving: circles in front of the shoulders, the two hands half a turn apart. */
    reach_vec2 wave = vec2(sign * (0.5 + 0.16 * cos(a + side * PI)), 1.5 + 0.2 * sin(a + side * PI));
    /* Apart: out to each side at shoulder height, slowly rising and falling. */
    reach_vec2 out = vec2(sign * (0.88 + 0.04 * sin(a)), 1.5 + 0.1 * sin(0.5 * a + side));
    return reach_vec2_lerp(wave, out, (reach_real)apart(t));
}

static reach_vec2 left_target(double t) { return target_of(0, t); }
static reach_vec2 right_target(double t) { return target_of(1, t); }

static double weight_of(int side, double t) { return pow(3.0, (side == 0 ? 1 : -1) * weight_exponent(t)); }

typedef struct tree_state {
    demo_figure figure;
    reach_solve_result result;
} tree_state;

static tree_state state;
static demo_replay replay = {STEP, WARMUP, 0, 0};
static double scratch[SCRATCH / sizeof(double)];

static void make_targets(double t, reach_target targets[2]) {
    static const int hands[2] = {DEMO_FIG_L_HAND, DEMO_FIG_R_HAND};
    for (int side = 0; side < 2; side++) {
        reach_vec2 p = target_of(side, t);
        targets[side] = reach_target_position(hands[side], reach_vec3_make(p.x, p.y, 0));
        targets[side].weight = (reach_real)weight_of(side, t);
    }
}

static reach_status solve(tree_state *s, double t) {
    reach_target targets[2];
    make_targets(t, targets);
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = 32;
    const reach_skeleton *sk = &s->figure.skeleton;
    if (reach_fabrik_scratch_size(sk, 2) > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
    return reach_fabrik_solve(sk, targets, 2, &settings, s->figure.pose, scratch, sizeof scratch, &s->result);
}

static reach_status advance(double t) {
    int first, last;
    demo_replay_range(&replay, t, &first, &last);
    for (int k = first; k <= last; k++) {
        if (demo_replay_is_start(&replay, k)) demo_figure_init(&state.figure);
        reach_status status = solve(&state, k * STEP);
        if (status != REACH_OK) return status;
    }
    return REACH_OK;
}

/* Each target with its weight beside it; a dashed line from a hand that falls short. */
static void draw_targets(demo_canvas *canvas, const demo_view2d *view, const reach_vec2 *points, double t,
                         double tolerance) {
    static const int hands[2] = {DEMO_FIG_L_HAND, DEMO_FIG_R_HAND};
    for (int side = 0; side < 2; side++) {
        reach_vec2 goal = target_of(side, t);
        demo_point g = demo_view2d_point(view, goal), hand = demo_view2d_point(view, points[hands[side]]);
        int reached = (double)reach_vec2_distance(goal, points[hands[side]]) <= tolerance;
        if (!reached) demo_draw_dashed_segment(canvas, hand, g, 2, DEMO_UNREACHED);
        double w = weight_of(side, t);
        demo_draw_target(canvas, g, 5 + 3 * sqrt(w), reached ? DEMO_TARGET : DEMO_UNREACHED);
        /* Outward of the target, clear of the arms. */
        char label[32];
        snprintf(label, sizeof label, "weight %.1f", w);
        double offset = 14 + 3 * sqrt(w);
        demo_draw_text(canvas, g.x + (side == 0 ? -offset : offset), g.y + 4.5, label, 12.5, DEMO_TEXT,
                       side == 0 ? DEMO_ALIGN_RIGHT : DEMO_ALIGN_LEFT, 1);
    }
}

/* Whether the targets are farther apart than the hands can span: then no pose reaches both, however
 * the joints turn. (The solver reports `limited` there too, for a reason of its own: each arm
 * reaches out straight, its elbow at the end of its range.) */
static int beyond_reach(double t) {
    return (double)reach_vec2_distance(left_target(t), right_target(t)) > demo_figure_hand_span();
}

static void draw_info(demo_canvas *canvas, const reach_vec2 *points, double t) {
    static const int hands[2] = {DEMO_FIG_L_HAND, DEMO_FIG_R_HAND};
    static const char *names[2] = {"left miss", "right miss"};
    demo_colour colour;
    int beyond = beyond_reach(t);
    const char *status = demo_solve_status(&state.result, beyond, &colour);
    demo_info info = demo_info_begin(canvas, DEMO_INFO_WIDTH, 78, "FABRIK, tree",
                                     state.result.reached ? "both reached" : status, colour);
    char value[48];
    snprintf(value, sizeof value, "%d", state.result.iterations);
    demo_info_row(&info, "iterations", value, DEMO_TEXT);
    for (int side = 0; side < 2; side++) {
        demo_format_residual((double)reach_vec2_distance(target_of(side, t), points[hands[side]]), value, sizeof value);
        demo_info_row(&info, names[side], value, DEMO_TEXT);
    }
    snprintf(value, sizeof value, "%.1f : %.1f", weight_of(0, t), weight_of(1, t));
    demo_info_row(&info, "weights", value, DEMO_TEXT);
    if (beyond) {
        demo_info_note(&info, "targets beyond reach:");
        demo_info_note(&info, "the heavier one gets nearer");
    } else {
        demo_info_note(&info, "both targets within reach");
    }
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "moving bones"}, {DEMO_MARK_DOT, DEMO_JOINT, "solved joints"},
    {DEMO_MARK_LINE, DEMO_ROOT, "fixed (legs)"}, {DEMO_MARK_RING, DEMO_TARGET, "hand targets (size: weight)"},
    {DEMO_MARK_DASHED, DEMO_UNREACHED, "miss"},
};

static reach_status draw_fabrik_tree(demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = advance(frame->time);
    if (status != REACH_OK) return status;
    double t = demo_replay_step_at(&replay, frame->time) * STEP;
    demo_view2d view = demo_begin_view_2d(canvas, vec2(-1.45, 0), vec2(1.45, 2.0), DEMO_INFO_WIDTH, 0.25, NULL);
    demo_draw_trail_2d(canvas, &view, left_target, t, 1.0, DEMO_TARGET);
    demo_draw_trail_2d(canvas, &view, right_target, t, 1.0, DEMO_TARGET);
    demo_figure_draw(canvas, &view, &state.figure);
    reach_vec2 points[DEMO_FIG_BONES];
    demo_figure_points(&state.figure, points);
    /* The solver's default tolerance: 1e-4 of the moving bones' length. */
    draw_targets(canvas, &view, points, t, 2e-4);
    draw_info(canvas, points, t);
    return REACH_OK;
}

const demo_scene demo_scene_fabrik_tree = {
    .name = "fabrik_tree",
    .title = "FABRIK on a tree: two hands, two weighted targets",
    .subtitle = "Both arms share the spine; where the targets conflict, the weights decide which hand gets there.",
    .caption = "A figure's two hands follow two targets with FABRIK's multiple-effector method; when the targets "
               "pull apart beyond reach, the body leans toward the heavier one, and the weights swing from side to "
               "side.",
    .draw = draw_fabrik_tree,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LOOP,
    .frame_delay_cs = 4,
    .still_time = 5.4,
};
