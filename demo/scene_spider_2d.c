/* The spider from above: the standard eight-legged creature walks a figure-eight in
 * 2-D. The body follows the path; each foot stays planted until it strays further than the
 * step threshold from its rest position (the faint circles), then swings to land ahead of it.
 * The two gait groups (the alternating tetrapod) never swing together. Each leg is solved by
 * the two-bone solver from hip to foot, its knee on the side the leg bends to. */
#include <math.h>
#include <stdio.h>

#include "readout.h"
#include "scene.h"
#include "scenery2d.h"
#include "walk_run.h"

#define PI     3.14159265358979323846
#define LEGS   8
#define INFO_W 176
/* The path: a figure-eight of size 3 at speed 1.5 takes 2π × 3 / 1.5 = 4π seconds a lap. */
#define SIZE   3.0
#define SPEED  1.5
#define LAP    (4 * PI)
#define FRAMES 314 /* one lap at 25 frames per second */

static demo_walk walk;
static int configured;

static reach_status configure(void) {
    reach_walk_path path = reach_walk_path_default(REACH_WALK_PATH_FIGURE8);
    path.size = (reach_real)SIZE;
    path.speed = (reach_real)SPEED;
    /* From rest, this gait repeats exactly from the second lap on. */
    reach_status status = demo_walk_setup(&walk, 2, LEGS, path, REACH_WALK_TERRAIN_FLAT, FRAMES, 1);
    configured = status == REACH_OK;
    return status;
}

static reach_vec2 xy(reach_vec3 p) { return reach_vec2_make(p.x, p.y); }

static reach_vec2 path_point(double t) {
    reach_vec2 position;
    reach_real heading;
    reach_walk_path_sample(&walk.path, (reach_real)t, &position, &heading);
    return position;
}

/* A point of body space (x forward, y left) in the world. */
static reach_vec2 body_to_world(const reach_walker *w, reach_vec2 p) {
    double c = cos((double)w->heading), s = sin((double)w->heading);
    return reach_vec2_make((reach_real)((double)w->position.x + c * (double)p.x - s * (double)p.y),
                           (reach_real)((double)w->position.y + s * (double)p.x + c * (double)p.y));
}

static void draw_path(demo_canvas *canvas, const demo_view2d *view, double t) {
    cairo_t *cr = canvas->cr;
    for (int i = 0; i <= 200; i++) {
        demo_point p = demo_view2d_point(view, path_point(LAP * i / 200));
        cairo_line_to(cr, p.x, p.y);
    }
    demo_set_colour(cr, DEMO_GRID, 1);
    cairo_set_line_width(cr, 6);
    cairo_stroke(cr);
    /* Where the body has been in the last seconds: a plain line (a fading one would change
     * every pixel along it in every frame and swell the GIF). */
    for (int i = 0; i <= 40; i++) {
        demo_point p = demo_view2d_point(view, path_point(t - 3.0 * i / 40));
        cairo_line_to(cr, p.x, p.y);
    }
    demo_set_colour(cr, DEMO_GUIDE, 1);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
}

static void draw_rest_circles(demo_canvas *canvas, const demo_view2d *view, const reach_walker *w) {
    double radius = (double)w->def.step_threshold * view->scale;
    for (int i = 0; i < w->leg_count; i++) {
        demo_point rest = demo_view2d_point(view, body_to_world(w, w->legs[i].def.rest));
        demo_draw_circle(canvas, rest, radius, 1, DEMO_GUIDE, 1);
        demo_draw_segment(canvas, (demo_point){rest.x - 3, rest.y}, (demo_point){rest.x + 3, rest.y}, 1, DEMO_GUIDE, 1);
        demo_draw_segment(canvas, (demo_point){rest.x, rest.y - 3}, (demo_point){rest.x, rest.y + 3}, 1, DEMO_GUIDE, 1);
    }
}

static void draw_body(demo_canvas *canvas, const demo_view2d *view, const reach_walker *w) {
    cairo_t *cr = canvas->cr;
    demo_point centre = demo_view2d_point(view, xy(w->position));
    cairo_save(cr);
    cairo_translate(cr, centre.x, centre.y);
    cairo_rotate(cr, -(double)w->heading);
    cairo_scale(cr, 1.0 * view->scale, 0.55 * view->scale);
    cairo_arc(cr, 0, 0, 1, 0, 2 * PI);
    cairo_restore(cr);
    demo_set_colour(cr, DEMO_SOLID_TOP, 1);
    cairo_fill_preserve(cr);
    demo_set_colour(cr, DEMO_BONE, 1);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
    /* The head, at the front. */
    demo_draw_joint(canvas, demo_view2d_point(view, body_to_world(w, reach_vec2_make(1.05f, 0))), 0.28 * view->scale,
                    DEMO_SOLID_TOP);
    demo_draw_joint(canvas, demo_view2d_point(view, body_to_world(w, reach_vec2_make(1.2f, 0.1f))), 3, DEMO_BONE);
    demo_draw_joint(canvas, demo_view2d_point(view, body_to_world(w, reach_vec2_make(1.2f, -0.1f))), 3, DEMO_BONE);
}

/* Legs of gait group 0 in the bone colour, group 1 in the root colour; planted feet as filled
 * discs, swinging ones as rings that grow with the height of the swing. */
static void draw_legs(demo_canvas *canvas, const demo_view2d *view, const reach_walker *w) {
    for (int i = 0; i < w->leg_count; i++) {
        const reach_walker_leg *leg = &w->legs[i];
        demo_colour colour = leg->def.group == 0 ? DEMO_BONE : DEMO_ROOT;
        demo_point joint[REACH_WALKER_MAX_BONES + 1];
        for (int b = 0; b <= leg->def.bone_count; b++)
            joint[b] = demo_view2d_point(view, xy(leg->joints[b]));
        for (int b = 0; b < leg->def.bone_count; b++)
            demo_draw_bone(canvas, joint[b], joint[b + 1], b == 0 ? 6 : 4.5, colour);
        for (int b = 1; b < leg->def.bone_count; b++)
            demo_draw_joint(canvas, joint[b], 4, DEMO_JOINT);
        demo_point foot = demo_view2d_point(view, xy(leg->foot));
        if (leg->planted) {
            demo_draw_joint(canvas, foot, 6, DEMO_TARGET);
        } else {
            double lift = (double)leg->lift / (double)w->def.step_height;
            demo_draw_circle(canvas, foot, 6 + 5 * lift, 2.5, DEMO_TARGET, 0);
        }
    }
}

static void draw_info(demo_canvas *canvas, const reach_walker *w) {
    int swinging_group = -1;
    for (int i = 0; i < w->leg_count; i++)
        if (!w->legs[i].planted) swinging_group = w->legs[i].def.group;
    demo_info info = demo_walk_info(canvas, &walk, INFO_W, 76);
    demo_info_row(&info, "swinging", swinging_group < 0 ? "none" : (swinging_group == 0 ? "group A" : "group B"),
                  DEMO_TEXT);
    char value[48];
    snprintf(value, sizeof value, "%.2f /s", sqrt((double)reach_vec2_dot(w->velocity, w->velocity)));
    demo_info_row(&info, "speed", value, DEMO_TEXT);
    demo_info_note(&info, "gait: alternating tetrapod");
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "legs, group A"},     {DEMO_MARK_LINE, DEMO_ROOT, "group B"},
    {DEMO_MARK_DOT, DEMO_TARGET, "planted foot"},     {DEMO_MARK_CIRCLE, DEMO_TARGET, "swinging"},
    {DEMO_MARK_DASHED, DEMO_GUIDE, "step threshold"},
};

static reach_status draw_spider_2d(demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = configured ? REACH_OK : configure();
    if (status == REACH_OK) status = demo_walk_advance(&walk, frame->time);
    if (status != REACH_OK) return status;
    const reach_walker *w = &walk.walker;
    demo_view2d view =
        demo_begin_view_2d(canvas, reach_vec2_make(-4.9f, -3.3f), reach_vec2_make(4.9f, 3.3f), INFO_W, 0.5, NULL);
    draw_path(canvas, &view, demo_walk_path_time(&walk, frame->time));
    draw_rest_circles(canvas, &view, w);
    draw_legs(canvas, &view, w);
    draw_body(canvas, &view, w);
    draw_info(canvas, w);
    return REACH_OK;
}

const demo_scene demo_scene_spider_2d = {
    .name = "spider_2d",
    .title = "The walker: an eight-legged spider on a figure-eight",
    .subtitle = "A foot steps when it strays past the threshold circle; the two gait groups never swing together.",
    .caption = "The library's standard eight-legged creature, seen from above, walks a figure-eight: planted feet stay "
               "put until they stray past their step threshold, then swing ahead, the two groups of the alternating "
               "tetrapod in turn, each leg solved by the two-bone solver.",
    .draw = draw_spider_2d,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LAP,
    .frame_delay_cs = 4,
    .still_time = 2.0,
};
