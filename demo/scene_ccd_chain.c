/* CCD on a chain of eight hinges mounted on a wall. The target jumps from place to place and
 * the animation runs one sweep every two frames, so the way CCD closes in shows: each sweep turns one
 * joint at a time, tip to root, to point the tip at the target, and the joints near the tip
 * move first and most. Each place is solved from the pose the last one left. The last place
 * is out of reach straight ahead of the wall, so the arm ends straight, as it started, and
 * the GIF loops without a jump. A plot of the residual after each sweep shows CCD's steady,
 * linear convergence. */
#include <math.h>
#include <stdio.h>

#include "planar_chain.h"
#include "plot.h"
#include "readout.h"
#include "scene.h"
#include "scenery2d.h"

#define PI            3.14159265358979323846
#define BONES         8
#define BEND          (100 * PI / 180) /* each hinge, either way */
#define SWEEP_FRAMES  2                /* frames per sweep, at 25 frames per second */
#define FRAME_SECONDS 0.04
#define PLACE_SWEEPS  24 /* sweeps at each place */
#define PLACE_SECONDS (PLACE_SWEEPS * SWEEP_FRAMES * FRAME_SECONDS)
#define SCRATCH       (32 * 1024)

static const double lengths_m[BONES] = {0.32, 0.28, 0.24, 0.22, 0.2, 0.18, 0.16, 0.14};
#define REACH_M 1.74

static reach_vec2 vec2(double x, double y) { return reach_vec2_make((reach_real)x, (reach_real)y); }

static const reach_vec2 root_position = {-1.0, 0.0};

/* Up, down, folded back near the wall, ahead, and out of reach straight ahead. */
static const double places[][2] = {{0.25, 0.62}, {0.05, -0.72}, {-0.55, 0.3}, {0.45, -0.15}, {0.2, 0.45}, {1.05, 0}};
#define PLACES ((int)(sizeof places / sizeof places[0]))

static double scratch[SCRATCH / sizeof(double)];

static reach_status sweep(demo_planar_chain *chain, int place, int sweeps, reach_solve_result *result) {
    reach_target target = demo_planar_chain_target(chain, vec2(places[place][0], places[place][1]));
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = sweeps;
    if (reach_ccd_scratch_size(&chain->skeleton, 1) > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
    return reach_ccd_solve(&chain->skeleton, &target, 1, &settings, chain->pose, scratch, sizeof scratch, result);
}

typedef struct moment {
    int place, sweeps;                          /* the place being solved, sweeps run so far */
    reach_vec2 now[BONES + 1], last[BONES + 1]; /* the pose, and the one a sweep before */
    reach_solve_result result;
    int residual_count;
    double residuals[PLACE_SWEEPS + 1]; /* after 0, 1, ... sweeps at this place */
} moment;

/* Everything at time t, from the rest pose: the earlier places solved to the end of their
 * time, then this one sweep by sweep. */
static reach_status moment_at(double t, moment *m) {
    static demo_planar_chain chain;
    demo_planar_chain_init(&chain, root_position, 0, lengths_m, BONES, -BEND, BEND);
    int sweep_index = (int)floor(t / FRAME_SECONDS + 0.5) / SWEEP_FRAMES;
    m->place = sweep_index / PLACE_SWEEPS % PLACES;
    m->sweeps = sweep_index % PLACE_SWEEPS;
    reach_solve_result result;
    for (int p = 0; p < m->place; p++) {
        reach_status status = sweep(&chain, p, PLACE_SWEEPS - 1, &result);
        if (status != REACH_OK) return status;
    }
    /* The residual before any sweep: a solve with no iterations only measures. */
    reach_status status = sweep(&chain, m->place, 0, &m->result);
    m->residual_count = 0;
    m->residuals[m->residual_count++] = (double)m->result.residual;
    demo_planar_chain_points(&chain, m->now);
    for (int s = 1; s <= m->sweeps; s++) {
        for (int j = 0; j <= BONES; j++)
            m->last[j] = m->now[j];
        if (status == REACH_OK && !m->result.reached) status = sweep(&chain, m->place, 1, &m->result);
        if (status != REACH_OK) return status;
        demo_planar_chain_points(&chain, m->now);
        m->residuals[m->residual_count++] = (double)m->result.residual;
    }
    if (m->sweeps == 0) {
        for (int j = 0; j <= BONES; j++)
            m->last[j] = m->now[j];
    }
    return REACH_OK;
}

static void draw_wall(demo_canvas *canvas, const demo_view2d *view) {
    demo_point top = demo_view2d_point(view, vec2(-1.0, 0.5)), bottom = demo_view2d_point(view, vec2(-1.0, -0.5));
    cairo_t *cr = canvas->cr;
    cairo_rectangle(cr, top.x - 14, top.y, 14, bottom.y - top.y);
    demo_set_colour(cr, DEMO_SOLID_FRONT, 1);
    cairo_fill(cr);
    demo_draw_segment(canvas, top, bottom, 2, DEMO_SOLID_TOP, 1);
}

static void draw_info(demo_canvas *canvas, const moment *m) {
    demo_colour colour;
    reach_vec2 goal = vec2(places[m->place][0], places[m->place][1]);
    int beyond = (double)reach_vec2_distance(goal, root_position) > REACH_M;
    const char *status = demo_solve_status(&m->result, beyond, &colour);
    if (!m->result.reached && m->place < PLACES - 1) {
        status = "closing in";
        colour = DEMO_JOINT;
    }
    char value[48];
    snprintf(value, sizeof value, "CCD, target %d of %d", m->place + 1, PLACES);
    demo_info info = demo_info_begin(canvas, DEMO_INFO_WIDTH, 70, value, status, colour);
    snprintf(value, sizeof value, "%d", m->sweeps);
    demo_info_row(&info, "sweeps", value, DEMO_TEXT);
    demo_format_residual((double)m->result.residual, value, sizeof value);
    demo_info_row(&info, "residual", value, colour);
    snprintf(value, sizeof value, "%d, ±%.0f°", BONES, BEND * 180 / PI);
    demo_info_row(&info, "hinges", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%.2f", REACH_M);
    demo_info_row(&info, "reach", value, DEMO_TEXT);

    demo_plot plot = {.left = info.x + 34, .top = info.y + 24, .width = DEMO_INFO_WIDTH - 50, .height = 110};
    plot.x_max = PLACE_SWEEPS;
    plot.y_min = 1e-5;
    plot.y_max = 10;
    plot.log_y = 1;
    plot.title = "residual";
    plot.x_label = "sweep";
    static const double ticks[] = {1e-4, 1e-2, 1};
    demo_plot_axes(canvas, &plot, ticks, 3, 8);
    demo_plot_level(canvas, &plot, 1e-4 * REACH_M, DEMO_REACHED, NULL);
    double sweeps[PLACE_SWEEPS + 1];
    for (int i = 0; i < m->residual_count; i++)
        sweeps[i] = i;
    demo_plot_series(canvas, &plot, sweeps, m->residuals, m->residual_count, DEMO_TARGET, 1.5);
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "bones"},    {DEMO_MARK_DOT, DEMO_JOINT, "hinges"},
    {DEMO_MARK_RING, DEMO_TARGET, "target"}, {DEMO_MARK_LINE, DEMO_GUIDE, "a sweep before"},
    {DEMO_MARK_DASHED, DEMO_GUIDE, "reach"}, {DEMO_MARK_DASHED, DEMO_REACHED, "tolerance"},
};

static reach_status draw_ccd_chain(demo_canvas *canvas, const demo_frame *frame) {
    static moment m;
    reach_status status = moment_at(frame->time, &m);
    if (status != REACH_OK) return status;
    double right_edge;
    demo_view2d view =
        demo_begin_view_2d(canvas, vec2(-1.15, -1.0), vec2(1.15, 1.0), DEMO_INFO_WIDTH, 0.25, &right_edge);
    double top = DEMO_HEADER_HEIGHT, height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    cairo_save(canvas->cr);
    cairo_rectangle(canvas->cr, 0, top, right_edge, height);
    cairo_clip(canvas->cr);
    demo_draw_circle(canvas, demo_view2d_point(&view, root_position), REACH_M * view.scale, 1.5, DEMO_GUIDE, 1);
    cairo_restore(canvas->cr);
    for (int b = 0; b < BONES; b++)
        demo_draw_segment(canvas, demo_view2d_point(&view, m.last[b]), demo_view2d_point(&view, m.last[b + 1]), 5,
                          DEMO_GUIDE, 0.6);
    demo_point tip = demo_view2d_point(&view, m.now[BONES]);
    demo_point goal = demo_view2d_point(&view, vec2(places[m.place][0], places[m.place][1]));
    if (!m.result.reached) demo_draw_dashed_segment(canvas, tip, goal, 2, DEMO_UNREACHED);
    draw_wall(canvas, &view);
    demo_draw_chain_2d(canvas, &view, m.now, BONES + 1, 11, 5, DEMO_BONE);
    demo_draw_target(canvas, goal, 8, m.place == PLACES - 1 ? DEMO_UNREACHED : DEMO_TARGET);
    draw_info(canvas, &m);
    return REACH_OK;
}

const demo_scene demo_scene_ccd_chain = {
    .name = "ccd_chain",
    .title = "CCD: cyclic coordinate descent, sweep by sweep",
    .subtitle = "Each sweep turns one joint at a time, tip to root, to point the tip at the target.",
    .caption = "An eight-hinge arm on a wall follows a target that jumps from place to place, shown one CCD sweep at "
               "a time: the joints near the tip move first and most, and the residual falls steadily, sweep after "
               "sweep; the last place is out of reach, and the arm ends straight toward it.",
    .draw = draw_ccd_chain,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = PLACES * PLACE_SECONDS,
    .frame_delay_cs = 4,
    .still_time = 0.28,
};
