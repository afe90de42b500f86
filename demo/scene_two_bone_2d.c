/* A two-bone arm in the plane, solved without trigonometry, follows a target
 * along a Lissajous figure inside its reach, then along a spiral that leaves the reach annulus
 * on both sides (too far: the arm lies straight toward the target; too near: it folds). Both
 * reach circles are drawn, and the circles of radius L1 around the shoulder and L2 around the
 * target whose intersection is the elbow. */
#include <math.h>
#include <stdio.h>

#include "scene.h"
#include "scenery2d.h"

#define UPPER_LENGTH 0.8
#define LOWER_LENGTH 0.4
#define PI           3.14159265358979323846

/* The animation: a Lissajous figure, then a spiral; both start and end at PATH_CENTRE, so the
 * GIF loops without a jump. */
#define LISSAJOUS_SECONDS 5.0
#define SPIRAL_SECONDS    4.0
#define PATH_CENTRE_X     0.75
#define TRAIL_SECONDS     1.2

/* Room for the information column on the right. */
#define INFO_WIDTH 214

static reach_vec2 vec2(double x, double y) { return reach_vec2_make((reach_real)x, (reach_real)y); }

static int on_lissajous(double t) { return fmod(t, LISSAJOUS_SECONDS + SPIRAL_SECONDS) < LISSAJOUS_SECONDS; }

static reach_vec2 target_at(double t) {
    t = fmod(t, LISSAJOUS_SECONDS + SPIRAL_SECONDS);
    if (t < 0) t += LISSAJOUS_SECONDS + SPIRAL_SECONDS;
    double x, y;
    if (t < LISSAJOUS_SECONDS) {
        /* A 3:2 figure inside the annulus: it sweeps the arm from nearly folded to nearly straight. */
        double a = 2 * PI * t / LISSAJOUS_SECONDS;
        x = PATH_CENTRE_X + 0.3 * sin(3 * a);
        y = 0.45 * sin(2 * a);
    } else {
        /* One and a half turns whose radius swells and shrinks: past the root (too near) at a
         * third of the way, beyond the outer circle (too far) at two thirds. */
        double s = (t - LISSAJOUS_SECONDS) / SPIRAL_SECONDS;
        double radius = 0.85 * sin(PI * s), angle = 3 * PI * s;
        x = PATH_CENTRE_X + radius * cos(angle);
        y = radius * sin(angle);
    }
    return vec2(x, y);
}

static void draw_reach_circles(demo_canvas *canvas, const demo_view2d *view, demo_point root) {
    double outer = (UPPER_LENGTH + LOWER_LENGTH) * view->scale, inner = fabs(UPPER_LENGTH - LOWER_LENGTH) * view->scale;
    demo_draw_circle(canvas, root, outer, 1.5, DEMO_GUIDE, 0);
    demo_draw_circle(canvas, root, inner, 1.5, DEMO_GUIDE, 0);
    /* Labels inside the top of each circle, away from the target's paths. */
    demo_draw_text(canvas, root.x, root.y - outer + 20, "L1 + L2", 12.5, DEMO_GUIDE, DEMO_ALIGN_CENTRE, 0);
    demo_draw_text(canvas, root.x, root.y - inner + 20, "|L1 − L2|", 12.5, DEMO_GUIDE, DEMO_ALIGN_CENTRE, 0);
}

/* The circles of radius L1 around the shoulder and L2 around the target: where they cross is
 * where the elbow can be. Faint, because they are the construction, not the answer. */
static void draw_construction(demo_canvas *canvas, const demo_view2d *view, demo_point root, demo_point target) {
    demo_draw_circle(canvas, root, UPPER_LENGTH * view->scale, 1, DEMO_CONSTRUCTION, 0);
    demo_draw_circle(canvas, target, LOWER_LENGTH * view->scale, 1, DEMO_CONSTRUCTION, 0);
}

/* The status badge and the numbers, in the column on the right. */
static void draw_info(demo_canvas *canvas, const reach_two_bone_2d_output *out, double distance, double t) {
    double x = canvas->width - INFO_WIDTH, y = DEMO_HEADER_HEIGHT + 24;
    char line[64];
    demo_draw_text(canvas, x, y, "path", 12.5, DEMO_TEXT_MUTED, DEMO_ALIGN_LEFT, 0);
    demo_draw_text(canvas, x + 70, y, on_lissajous(t) ? "Lissajous 3:2" : "spiral", 13.5, DEMO_TEXT, DEMO_ALIGN_LEFT,
                   1);
    const char *status = "reached";
    demo_colour colour = DEMO_REACHED;
    if (!out->reached) {
        colour = DEMO_UNREACHED;
        status = distance > UPPER_LENGTH + LOWER_LENGTH ? "too far: arm straight" : "too near: arm folded";
    }
    demo_draw_badge(canvas, x, y + 16, status, colour, DEMO_ALIGN_LEFT);
    y += 74;
    const char *labels[4] = {"distance", "reach", "residual", "bones"};
    char values[4][32];
    snprintf(values[0], sizeof values[0], "%.3f", distance);
    snprintf(values[1], sizeof values[1], "%.2f to %.2f", fabs(UPPER_LENGTH - LOWER_LENGTH),
             UPPER_LENGTH + LOWER_LENGTH);
    snprintf(values[2], sizeof values[2], "%.3f", (double)out->residual);
    snprintf(values[3], sizeof values[3], "L1 %.2f, L2 %.2f", UPPER_LENGTH, LOWER_LENGTH);
    for (int i = 0; i < 4; i++) {
        demo_draw_text(canvas, x, y + 22 * i, labels[i], 12.5, DEMO_TEXT_MUTED, DEMO_ALIGN_LEFT, 0);
        demo_draw_text(canvas, x + 70, y + 22 * i, values[i], 13.5, i == 2 ? colour : DEMO_TEXT, DEMO_ALIGN_LEFT, 0);
    }
    snprintf(line, sizeof line, "t = %.2f s", t);
    demo_draw_text(canvas, x, y + 22 * 4 + 12, line, 12.5, DEMO_TEXT_MUTED, DEMO_ALIGN_LEFT, 0);
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "bones"},
    {DEMO_MARK_DOT, DEMO_JOINT, "elbow (solved)"},
    {DEMO_MARK_RING, DEMO_TARGET, "target"},
    {DEMO_MARK_THIN, DEMO_GUIDE, "reach circles"},
    {DEMO_MARK_THIN, DEMO_CONSTRUCTION, "radius L1, L2"},
    {DEMO_MARK_DASHED, DEMO_GUIDE, "other solution"},
};

static reach_status draw_two_bone_2d(demo_canvas *canvas, const demo_frame *frame) {
    reach_two_bone_2d_input in;
    in.root = vec2(0, 0);
    in.mid = vec2(UPPER_LENGTH, 0);
    in.end = vec2(UPPER_LENGTH + LOWER_LENGTH, 0);
    in.target = target_at(frame->time);
    in.bend = REACH_BEND_CCW;
    reach_two_bone_settings options = reach_two_bone_default_settings();
    options.rotations = 0;
    reach_two_bone_2d_output out;
    reach_status status = reach_two_bone_solve_2d(&in, &options, &out);
    if (status != REACH_OK) return status;

    /* The view holds both circles and the spiral's far side, left of the information column. */
    double right_edge = canvas->width - INFO_WIDTH - DEMO_MARGIN;
    demo_view2d view =
        demo_view2d_fit(vec2(-1.28, -1.28), vec2(1.66, 1.28), DEMO_MARGIN, DEMO_HEADER_HEIGHT + 8,
                        right_edge - DEMO_MARGIN, canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT - 16);
    demo_point root = demo_view2d_point(&view, in.root), mid = demo_view2d_point(&view, out.mid);
    demo_point end = demo_view2d_point(&view, out.end), target = demo_view2d_point(&view, in.target);
    demo_point mirror = demo_view2d_point(&view, out.mid_mirror);

    double view_height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    demo_draw_grid_2d(canvas, &view, 0, DEMO_HEADER_HEIGHT, right_edge, view_height, 0.5);
    draw_reach_circles(canvas, &view, root);
    if (out.reached) draw_construction(canvas, &view, root, target);
    demo_draw_trail_2d(canvas, &view, target_at, frame->time, TRAIL_SECONDS, DEMO_TARGET);
    demo_draw_dashed_segment(canvas, root, mirror, 1.5, DEMO_GUIDE);
    demo_draw_dashed_segment(canvas, mirror, end, 1.5, DEMO_GUIDE);
    if (!out.reached) demo_draw_dashed_segment(canvas, end, target, 2, DEMO_UNREACHED);
    demo_draw_bone(canvas, root, mid, 8, DEMO_BONE);
    demo_draw_bone(canvas, mid, end, 8, DEMO_BONE);
    demo_draw_joint(canvas, root, 8, DEMO_ROOT);
    demo_draw_joint(canvas, mid, 7, DEMO_JOINT);
    demo_draw_joint(canvas, end, 5, DEMO_BONE);
    demo_draw_target(canvas, target, 8, out.reached ? DEMO_TARGET : DEMO_UNREACHED);

    draw_info(canvas, &out, (double)reach_vec2_length(in.target), frame->time);
    return REACH_OK;
}

const demo_scene demo_scene_two_bone_2d = {
    .name = "two_bone_2d",
    .title = "Two-bone IK in 2-D, without trigonometry",
    .subtitle = "The elbow is where the circle of radius L1 around the shoulder meets radius L2 around the target.",
    .caption = "A two-bone arm follows a target along a Lissajous figure, then along a spiral that leaves the "
               "reach annulus on both sides: too far and the arm points straight at the target, too near and it "
               "folds.",
    .draw = draw_two_bone_2d,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LISSAJOUS_SECONDS + SPIRAL_SECONDS,
    .frame_delay_cs = 4,
    .still_time = 1.1,
};
