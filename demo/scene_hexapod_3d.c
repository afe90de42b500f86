/* The walker in 3-D: the standard six-legged creature walks a figure-eight over the waves
 * terrain, in perspective. The body rides above the plane through its planted feet and tilts
 * with it; swinging feet arc over the ground and land on it; the tripod gait alternates. The
 * terrain is a shaded height field drawn back to front; planted feet are marked on the ground.
 * Legs behind the body are drawn before it, legs in front after it. */
#include <math.h>
#include <stdio.h>

#include "readout.h"
#include "scene.h"
#include "scenery3d.h"
#include "walk_run.h"

#define PI     3.14159265358979323846
#define LEGS   6
#define INFO_W 176
/* A figure-eight of size 2.5 at speed 1.2: 2π × 2.5 / 1.2 seconds a lap, in 262 frames of
 * 1/20 s. */
#define SIZE         2.5
#define SPEED        1.2
#define LAP          (2 * PI * SIZE / SPEED)
#define FRAMES       262
#define PATH_SAMPLES 160

static demo_walk walk;
static int configured;

static reach_vec3 vec3(double x, double y, double z) {
    return reach_vec3_make((reach_real)x, (reach_real)y, (reach_real)z);
}

static reach_status configure(void) {
    reach_walk_path path = reach_walk_path_default(REACH_WALK_PATH_FIGURE8);
    path.size = (reach_real)SIZE;
    path.speed = (reach_real)SPEED;
    /* At this step the gait repeats exactly from lap to lap; one lap settles the start. */
    reach_status status = demo_walk_setup(&walk, 3, LEGS, path, REACH_WALK_TERRAIN_WAVES, FRAMES, 1);
    configured = status == REACH_OK;
    return status;
}

static double ground_height(double x, double y) {
    reach_real height;
    reach_vec3 normal;
    reach_walk_terrain_ground(&walk.terrain, (reach_real)x, (reach_real)y, &height, &normal);
    return (double)height;
}

/* The height field in the scenery's frame (y up): scene (x, z) is the walker's (x, -y). */
static double scene_height(void *user, double x, double z) {
    (void)user;
    return ground_height(x, -z);
}

static int project(const demo_camera *camera, reach_vec3 p, demo_point *pixel) {
    return demo_camera_project(camera, demo_from_z_up(p), pixel, NULL);
}

static demo_camera camera_for(const demo_canvas *canvas) {
    double view_width = canvas->width - INFO_W - DEMO_MARGIN;
    double top = DEMO_HEADER_HEIGHT, height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    return demo_camera_look_at(demo_from_z_up(vec3(2.4, -8.6, 7.0)), demo_from_z_up(vec3(0, -0.3, 0)), vec3(0, 1, 0),
                               500, view_width / 2 + DEMO_MARGIN / 2, top + height / 2);
}

static void draw_path(demo_canvas *canvas, const demo_camera *camera) {
    cairo_t *cr = canvas->cr;
    for (int i = 0; i <= PATH_SAMPLES; i++) {
        reach_vec2 p;
        reach_real heading;
        reach_walk_path_sample(&walk.path, (reach_real)(LAP * i / PATH_SAMPLES), &p, &heading);
        demo_point pixel;
        if (project(camera, vec3((double)p.x, (double)p.y, ground_height((double)p.x, (double)p.y) + 0.02), &pixel))
            cairo_line_to(cr, pixel.x, pixel.y);
    }
    demo_set_colour(cr, DEMO_GUIDE, 1);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
}

/* The terrain and the path: the camera does not move, so they are drawn once. */
static void draw_ground(demo_canvas *canvas, void *user) {
    (void)user;
    demo_camera camera = camera_for(canvas);
    demo_height_field field = {scene_height, NULL, -4.8, 4.8, -3.6, 3.6, 0.1, 10, {0, 0, 0}};
    field.light = reach_vec3_normalize_safe(vec3(-0.5, 0.75, 0.45), vec3(0, 1, 0));
    demo_draw_height_field(canvas, &camera, &field);
    draw_path(canvas, &camera);
}

static void draw_shadows(demo_canvas *canvas, const demo_camera *camera, const reach_walker *w) {
    double x = (double)w->position.x, y = (double)w->position.y;
    demo_draw_shadow(canvas, camera, demo_from_z_up(vec3(x, y, ground_height(x, y))), 0.9);
    for (int i = 0; i < w->leg_count; i++) {
        const reach_walker_leg *leg = &w->legs[i];
        if (leg->planted) continue;
        double fx = (double)leg->foot.x, fy = (double)leg->foot.y;
        demo_draw_shadow(canvas, camera, demo_from_z_up(vec3(fx, fy, ground_height(fx, fy))), 0.12);
    }
}

static void draw_leg(demo_canvas *canvas, const demo_camera *camera, const reach_walker_leg *leg) {
    demo_colour colour = leg->def.group == 0 ? DEMO_BONE : DEMO_ROOT;
    demo_point joint[REACH_WALKER_MAX_BONES + 1];
    for (int b = 0; b <= leg->def.bone_count; b++)
        if (!project(camera, leg->joints[b], &joint[b])) return;
    double scale = demo_camera_scale_at(camera, demo_from_z_up(leg->joints[1]));
    for (int b = 0; b < leg->def.bone_count; b++)
        demo_draw_bone(canvas, joint[b], joint[b + 1], (b == 0 ? 0.12 : 0.09) * scale, colour);
    for (int b = 1; b < leg->def.bone_count; b++)
        demo_draw_joint(canvas, joint[b], 0.07 * scale, DEMO_JOINT);
    demo_point foot = joint[leg->def.bone_count];
    if (leg->planted)
        demo_draw_joint(canvas, foot, 0.09 * scale, DEMO_TARGET);
    else
        demo_draw_circle(canvas, foot, 0.09 * scale, 2, DEMO_TARGET, 0);
}

/* A flat hexagon through the hips, in the body's tilted plane. */
static void draw_body(demo_canvas *canvas, const demo_camera *camera, const reach_walker *w) {
    static const double outline[6][2] = {{1.15, 0},  {0.85, 0.62},   {-0.85, 0.62},
                                         {-1.15, 0}, {-0.85, -0.62}, {0.85, -0.62}};
    reach_vec3 corners[6];
    for (int i = 0; i < 6; i++)
        corners[i] = demo_from_z_up(
            reach_vec3_add(w->position, reach_quat_rotate(w->rotation, vec3(outline[i][0], outline[i][1], 0))));
    if (!demo_polygon_path_3d(canvas, camera, corners, 6)) return;
    cairo_t *cr = canvas->cr;
    demo_set_colour(cr, DEMO_SOLID_TOP, 1);
    cairo_fill_preserve(cr);
    demo_set_colour(cr, DEMO_BONE, 1);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
    demo_point head;
    double scale = demo_camera_scale_at(camera, demo_from_z_up(w->position));
    if (project(camera, reach_vec3_add(w->position, reach_quat_rotate(w->rotation, vec3(1.25, 0, 0.05))), &head))
        demo_draw_joint(canvas, head, 0.22 * scale, DEMO_SOLID_TOP);
}

/* Legs whose hips are further from the eye than the body's centre go behind it. */
static void draw_walker(demo_canvas *canvas, const demo_camera *camera, const reach_walker *w) {
    demo_depth_item order[REACH_WALKER_MAX_LEGS];
    for (int i = 0; i < w->leg_count; i++) {
        order[i].index = i;
        order[i].distance = demo_camera_distance(camera, demo_from_z_up(w->legs[i].joints[1]));
    }
    demo_sort_far_first(order, w->leg_count);
    double body = demo_camera_distance(camera, demo_from_z_up(w->position));
    int i = 0;
    for (; i < w->leg_count && order[i].distance > body; i++)
        draw_leg(canvas, camera, &w->legs[order[i].index]);
    draw_body(canvas, camera, w);
    for (; i < w->leg_count; i++)
        draw_leg(canvas, camera, &w->legs[order[i].index]);
}

static void draw_info(demo_canvas *canvas, const reach_walker *w) {
    demo_info info = demo_walk_info(canvas, &walk, INFO_W, 66);
    char value[48];
    snprintf(value, sizeof value, "%.2f", (double)w->position.z);
    demo_info_row(&info, "height", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%.1f°", acos(fmin(1.0, (double)w->up.z)) * 180 / PI);
    demo_info_row(&info, "tilt", value, DEMO_TEXT);
    demo_info_note(&info, "gait: alternating tripod");
    demo_info_note(&info, "ground: waves");
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "legs, tripod A"}, {DEMO_MARK_LINE, DEMO_ROOT, "tripod B"},
    {DEMO_MARK_DOT, DEMO_TARGET, "planted foot"},  {DEMO_MARK_CIRCLE, DEMO_TARGET, "swinging"},
    {DEMO_MARK_THIN, DEMO_GUIDE, "path"},
};

static reach_status draw_hexapod_3d(demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = configured ? REACH_OK : configure();
    if (status == REACH_OK) status = demo_walk_advance(&walk, frame->time);
    if (status != REACH_OK) return status;
    static demo_backdrop ground;
    /* The only failure is memory for the kept picture: reported as a buffer too small. */
    if (demo_backdrop_paint(&ground, canvas, draw_ground, NULL)) return REACH_ERROR_BUFFER_TOO_SMALL;
    demo_camera camera = camera_for(canvas);
    draw_shadows(canvas, &camera, &walk.walker);
    draw_walker(canvas, &camera, &walk.walker);
    draw_info(canvas, &walk.walker);
    return REACH_OK;
}

const demo_scene demo_scene_hexapod_3d = {
    .name = "hexapod_3d",
    .title = "The walker in 3-D: a hexapod on waves",
    .subtitle = "The body rides the plane of its planted feet; swinging feet arc over the ground and land on it.",
    .caption = "The six-legged walker crosses the waves terrain on a figure-eight, in perspective: its body rises "
               "and tilts with the plane of its planted feet (the filled discs), and the two tripods swing in turn.",
    .draw = draw_hexapod_3d,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LAP,
    .frame_delay_cs = 5,
    .still_time = 3.0,
};
