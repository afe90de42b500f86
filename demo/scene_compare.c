/* FABRIK, CCD and the four Jacobian methods side by side on one chain and one target path.
 * The chain is six hinges in the plane; each solver keeps its own pose from frame to frame
 * (warm start) under the same settings (64 iterations at most, tolerance 1e-4 × the chain's
 * length). The path runs inside the reach, out past it at the top and round below the root,
 * where the chain must fold. Under each panel: iterations and residual of every frame so far. */
#include <math.h>
#include <stdio.h>

#include "plot.h"
#include "planar_chain.h"
#include "readout.h"
#include "replay.h"
#include "scene.h"
#include "scenery2d.h"

#define PI       3.14159265358979323846
#define LOOP     12.0
#define STEP     0.04
#define STEPS    301 /* LOOP / STEP + 1 */
#define BONES    6
#define SOLVERS  6
#define MAX_ITER 64
#define SCRATCH  (64 * 1024)

#define WIDTH       960
#define HEIGHT      880
#define COLUMNS     3
#define PANEL_GAP   12
#define TITLE_BAND  24
#define VIEW_HEIGHT 216
#define PLOT_HEIGHT 38

static const double lengths_m[BONES] = {0.3, 0.26, 0.22, 0.18, 0.14, 0.1};
#define REACH_M   1.2
#define TOLERANCE (1e-4 * REACH_M)

typedef enum solver_kind { FABRIK, CCD, JACOBIAN } solver_kind;

typedef struct solver_def {
    const char *name;
    solver_kind kind;
    reach_jacobian_method method;
} solver_def;

static const solver_def solvers[SOLVERS] = {
    {"FABRIK", FABRIK, REACH_JACOBIAN_SDLS},
    {"CCD", CCD, REACH_JACOBIAN_SDLS},
    {"Jacobian transpose", JACOBIAN, REACH_JACOBIAN_TRANSPOSE},
    {"Jacobian pseudoinverse", JACOBIAN, REACH_JACOBIAN_PSEUDOINVERSE},
    {"damped least squares", JACOBIAN, REACH_JACOBIAN_DLS},
    {"selectively damped (SDLS)", JACOBIAN, REACH_JACOBIAN_SDLS},
};

static reach_vec2 vec2(double x, double y) { return reach_vec2_make((reach_real)x, (reach_real)y); }

/* Starts beyond the reach at the top, sweeps both sides and passes below the root. */
static reach_vec2 target_at(double t) {
    double a = 2 * PI * t / LOOP;
    return vec2(0.95 * sin(a) + 0.2 * sin(3 * a), 0.45 + 0.9 * cos(2 * a) * cos(a));
}

typedef struct run {
    demo_planar_chain chain;
    reach_solve_result result;
    double iterations[STEPS], residual[STEPS];
} run;

static run runs[SOLVERS];
static demo_replay replay = {STEP, 0, 0, 0};
/* Scratch for every solver: doubles keep it aligned for reach_real and pointers. */
static double scratch[SCRATCH / sizeof(double)];

static reach_status solve(run *r, const solver_def *def, reach_vec2 goal) {
    reach_target target = demo_planar_chain_target(&r->chain, goal);
    reach_solver_settings settings = reach_solver_default_settings();
    settings.max_iterations = MAX_ITER;
    settings.tolerance = (reach_real)TOLERANCE;
    settings.jacobian_method = def->method;
    const reach_skeleton *sk = &r->chain.skeleton;
    size_t need = def->kind == FABRIK ? reach_fabrik_scratch_size(sk, 1)
                  : def->kind == CCD  ? reach_ccd_scratch_size(sk, 1)
                                      : reach_jacobian_scratch_size(sk, 1);
    if (need > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
    if (def->kind == FABRIK)
        return reach_fabrik_solve(sk, &target, 1, &settings, r->chain.pose, scratch, sizeof scratch, &r->result);
    if (def->kind == CCD)
        return reach_ccd_solve(sk, &target, 1, &settings, r->chain.pose, scratch, sizeof scratch, &r->result);
    return reach_jacobian_solve(sk, &target, 1, &settings, r->chain.pose, scratch, sizeof scratch, &r->result);
}

static reach_status advance(double t, int *shown) {
    int first, last;
    demo_replay_range(&replay, t, &first, &last);
    *shown = last;
    for (int k = first; k <= last && k < STEPS; k++) {
        for (int s = 0; s < SOLVERS; s++) {
            run *r = &runs[s];
            /* Every chain starts at rest, pointing straight up. */
            if (demo_replay_is_start(&replay, k))
                demo_planar_chain_init(&r->chain, vec2(0, 0), PI / 2, lengths_m, BONES, -PI, PI);
            reach_status status = solve(r, &solvers[s], target_at(k * STEP));
            if (status != REACH_OK) return status;
            r->iterations[k] = r->result.iterations;
            r->residual[k] = (double)r->result.residual;
        }
    }
    if (*shown >= STEPS) *shown = STEPS - 1;
    return REACH_OK;
}

/* ---- one panel -------------------------------------------------------------------------- */

typedef struct panel {
    double left, top, width, height;
} panel;

static panel panel_of(int index) {
    double width = (WIDTH - (COLUMNS + 1) * PANEL_GAP) / (double)COLUMNS;
    double height = (HEIGHT - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT - PANEL_GAP) / 2.0;
    panel p = {PANEL_GAP + (index % COLUMNS) * (width + PANEL_GAP), DEMO_HEADER_HEIGHT + 6 + (index / COLUMNS) * height,
               width, height - 6};
    return p;
}

static void draw_view(demo_canvas *canvas, const panel *p, const run *r, double t) {
    double top = p->top + TITLE_BAND;
    /* The whole reach circle and the path's top beyond it. */
    demo_view2d view = demo_view2d_fit(vec2(-REACH_M - 0.05, -REACH_M - 0.05), vec2(REACH_M + 0.05, 1.42), p->left,
                                       top + 4, p->width, VIEW_HEIGHT - 8);
    demo_draw_grid_2d(canvas, &view, p->left, top, p->width, VIEW_HEIGHT, 0.5);
    cairo_save(canvas->cr);
    cairo_rectangle(canvas->cr, p->left, top, p->width, VIEW_HEIGHT);
    cairo_clip(canvas->cr);
    demo_draw_circle(canvas, demo_view2d_point(&view, vec2(0, 0)), REACH_M * view.scale, 1, DEMO_GUIDE, 1);
    demo_draw_trail_2d(canvas, &view, target_at, t, 1.2, DEMO_TARGET);
    reach_vec2 points[BONES + 1];
    demo_planar_chain_points(&r->chain, points);
    demo_point tip = demo_view2d_point(&view, points[BONES]), goal = demo_view2d_point(&view, target_at(t));
    if (!r->result.reached) demo_draw_dashed_segment(canvas, tip, goal, 1.5, DEMO_UNREACHED);
    demo_draw_chain_2d(canvas, &view, points, BONES + 1, 6, 3, DEMO_BONE);
    demo_draw_target(canvas, goal, 5, r->result.reached ? DEMO_TARGET : DEMO_UNREACHED);
    cairo_restore(canvas->cr);
}

static void draw_title(demo_canvas *canvas, const panel *p, const run *r, const solver_def *def, double t) {
    double y = p->top + 16;
    demo_draw_text(canvas, p->left, y, def->name, 14, DEMO_TEXT, DEMO_ALIGN_LEFT, 1);
    demo_colour colour;
    int beyond = (double)reach_vec2_length(target_at(t)) > REACH_M;
    const char *status = demo_solve_status(&r->result, beyond, &colour);
    demo_draw_text(canvas, p->left + p->width, y, status, 12.5, colour, DEMO_ALIGN_RIGHT, 1);
    char line[64], residual[24];
    demo_format_residual((double)r->result.residual, residual, sizeof residual);
    snprintf(line, sizeof line, "%d iteration%s", r->result.iterations, r->result.iterations == 1 ? "" : "s");
    demo_draw_text(canvas, p->left + p->width - 4, y + 22, line, 11.5, DEMO_TEXT_MUTED, DEMO_ALIGN_RIGHT, 0);
    snprintf(line, sizeof line, "residual %s", residual);
    demo_draw_text(canvas, p->left + p->width - 4, y + 37, line, 11.5, DEMO_TEXT_MUTED, DEMO_ALIGN_RIGHT, 0);
}

static void draw_plots(demo_canvas *canvas, const panel *p, const run *r, int shown) {
    static double times[STEPS];
    for (int k = 0; k <= shown; k++)
        times[k] = k * STEP;
    double left = p->left + 34, width = p->width - 40;
    double top = p->top + TITLE_BAND + VIEW_HEIGHT + 18;
    demo_plot iterations = {left, top, width, PLOT_HEIGHT, 0, LOOP, 0, MAX_ITER, 0, "iterations", NULL};
    static const double iteration_ticks[] = {0, 32, 64};
    demo_plot_axes(canvas, &iterations, iteration_ticks, 3, 2);
    demo_plot_series(canvas, &iterations, times, r->iterations, shown + 1, DEMO_JOINT, 1.5);
    demo_plot_cursor(canvas, &iterations, shown * STEP, DEMO_GUIDE);

    top += PLOT_HEIGHT + 24;
    demo_plot residual = {left, top, width, PLOT_HEIGHT, 0, LOOP, 1e-7, 1, 1, "residual", "t (s)"};
    static const double residual_ticks[] = {1e-6, 1e-4, 1e-2, 1};
    demo_plot_axes(canvas, &residual, residual_ticks, 4, 2);
    demo_plot_level(canvas, &residual, TOLERANCE, DEMO_REACHED, NULL);
    demo_plot_series(canvas, &residual, times, r->residual, shown + 1, DEMO_TARGET, 1.5);
    demo_plot_cursor(canvas, &residual, shown * STEP, DEMO_GUIDE);
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "six hinges"},
    {DEMO_MARK_RING, DEMO_TARGET, "target"},
    {DEMO_MARK_DASHED, DEMO_GUIDE, "reach"},
    {DEMO_MARK_THIN, DEMO_JOINT, "iterations per frame"},
    {DEMO_MARK_THIN, DEMO_TARGET, "residual per frame"},
    {DEMO_MARK_DASHED, DEMO_REACHED, "tolerance"},
};

static reach_status draw_compare(demo_canvas *canvas, const demo_frame *frame) {
    int shown;
    reach_status status = advance(frame->time, &shown);
    if (status != REACH_OK) return status;
    double t = shown * STEP;
    for (int s = 0; s < SOLVERS; s++) {
        panel p = panel_of(s);
        draw_view(canvas, &p, &runs[s], t);
        draw_title(canvas, &p, &runs[s], &solvers[s], t);
        draw_plots(canvas, &p, &runs[s], shown);
    }
    return REACH_OK;
}

const demo_scene demo_scene_compare = {
    .name = "compare",
    .title = "FABRIK, CCD and the Jacobian methods on one chain",
    .subtitle = "Six hinges, one target path, each solver warm-started from its last pose; 64 iterations at most.",
    .caption = "Six solvers chase the same target with the same six-hinge chain: FABRIK and the pseudoinverse "
               "settle in a few iterations, CCD and the transpose take many; beyond the reach each stops short in "
               "its own way. Iterations and residual of every frame are plotted under each.",
    .draw = draw_compare,
    DEMO_LEGEND(legend),
    .width = WIDTH,
    .height = HEIGHT,
    .duration = LOOP,
    .frame_delay_cs = 4,
    .still_time = 6.4,
};
