/* FABRIK with a closed loop: a four-bar linkage. Two chains hang from one fixed ground bone:
 * the crank and the coupler from pivot A, the rocker from pivot B. A position target turns the
 * crank (its pin goes round a circle), and a REACH_TARGET_MEET target asks the coupler's far
 * end and the rocker's end to coincide: each iteration pulls both to their midpoint, so the
 * loop closes and the rocker rocks although nothing tells it where to go. A point on the
 * coupler traces the linkage's coupler curve. The whole revolution is solved once, frame by
 * frame, each from the last pose (which keeps the linkage on one branch), and then drawn. */
#include <math.h>
#include <stdio.h>

#include "readout.h"
#include "scene.h"
#include "scenery2d.h"

#define PI      3.14159265358979323846
#define LOOP    8.0 /* one turn of the crank */
#define STEP    0.04
#define STEPS   200 /* LOOP / STEP */
#define SCRATCH (32 * 1024)

/* A crank-rocker (Grashof: shortest + longest <= the other two, the crank shortest). */
#define GROUND  1.0
#define CRANK   0.3
#define COUPLER 0.9
#define ROCKER  0.7

enum { GROUND_BONE, CRANK_BONE, COUPLER_BONE, COUPLER_END, ROCKER_BONE, ROCKER_END, BONES };

/* The traced point, in the coupler's frame (x along it from the crank pin). */
static const double tracer[2] = {0.5, 0.32};

static reach_vec2 vec2(double x, double y) { return reach_vec2_make((reach_real)x, (reach_real)y); }

static const reach_vec2 pivot_a = {-0.5, 0}, pivot_b = {0.5, 0};

static double crank_angle(double t) { return PI / 2 + 2 * PI * t / LOOP; }

static reach_vec2 crank_pin_target(double t) {
    double a = crank_angle(t);
    return vec2((double)pivot_a.x + CRANK * cos(a), (double)pivot_a.y + CRANK * sin(a));
}

typedef struct linkage {
    int parents[BONES];
    reach_transform rest[BONES];
    reach_joint joints[BONES];
    reach_skeleton skeleton;
} linkage;

typedef struct frame_state {
    reach_vec2 points[BONES]; /* joint positions */
    reach_vec2 traced;        /* the coupler point */
    reach_solve_result result;
} frame_state;

static linkage rig;
static frame_state frames[STEPS];
static int solved;
static double scratch[SCRATCH / sizeof(double)];

static void build(linkage *l) {
    static const int parents[BONES] = {-1, GROUND_BONE, CRANK_BONE, COUPLER_BONE, GROUND_BONE, ROCKER_BONE};
    static const double offsets[BONES] = {0, 0, CRANK, COUPLER, GROUND, ROCKER};
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    for (int i = 0; i < BONES; i++) {
        l->parents[i] = parents[i];
        l->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make((reach_real)offsets[i], 0, 0));
        l->joints[i] = reach_joint_fixed();
    }
    l->rest[GROUND_BONE].translation = reach_vec3_make(pivot_a.x, pivot_a.y, 0);
    /* Hinges about z that turn all the way round; the rest pose is a closed loop with the
     * crank straight up. */
    l->joints[CRANK_BONE] = l->joints[COUPLER_BONE] = l->joints[ROCKER_BONE] =
        reach_joint_hinge(z, (reach_real)-PI, (reach_real)PI);
    l->rest[CRANK_BONE].rotation = reach_quat_from_axis_angle(z, (reach_real)(PI / 2));
    l->skeleton.bone_count = BONES;
    l->skeleton.parents = l->parents;
    l->skeleton.rest = l->rest;
    l->skeleton.joints = l->joints;
}

/* A pose that closes the loop with the crank up: the coupler and rocker meet where circles
 * of their lengths around the crank pin and pivot B cross (the upper crossing). */
static void closed_start(const linkage *l, reach_transform *pose) {
    reach_pose_rest(&l->skeleton, pose);
    reach_vec2 pin = crank_pin_target(0);
    reach_vec2 d = reach_vec2_sub(pivot_b, pin);
    double dist = (double)reach_vec2_length(d);
    double along = (COUPLER * COUPLER - ROCKER * ROCKER + dist * dist) / (2 * dist);
    double across = sqrt(COUPLER * COUPLER - along * along);
    reach_vec2 unit = reach_vec2_scale(d, (reach_real)(1 / dist));
    reach_vec2 meet = reach_vec2_add(reach_vec2_add(pin, reach_vec2_scale(unit, (reach_real)along)),
                                     reach_vec2_scale(reach_vec2_perp(unit), (reach_real)across));
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    /* Local rotations: the coupler relative to the crank (which points up), the rocker
     * relative to the ground (along +x). */
    double coupler = atan2((double)(meet.y - pin.y), (double)(meet.x - pin.x)) - PI / 2;
    double rocker = atan2((double)(meet.y - pivot_b.y), (double)(meet.x - pivot_b.x));
    pose[COUPLER_BONE].rotation = reach_quat_from_axis_angle(z, (reach_real)coupler);
    pose[ROCKER_BONE].rotation = reach_quat_from_axis_angle(z, (reach_real)rocker);
}

static void record(const linkage *l, const reach_transform *pose, frame_state *f) {
    reach_transform world[BONES];
    reach_forward_kinematics(&l->skeleton, pose, world);
    for (int i = 0; i < BONES; i++)
        f->points[i] = reach_vec2_make(world[i].translation.x, world[i].translation.y);
    reach_vec3 p =
        reach_transform_point(world[COUPLER_BONE], reach_vec3_make((reach_real)tracer[0], (reach_real)tracer[1], 0));
    f->traced = reach_vec2_make(p.x, p.y);
}

static reach_status solve_all(void) {
    build(&rig);
    reach_transform pose[BONES];
    closed_start(&rig, pose);
    if (reach_fabrik_scratch_size(&rig.skeleton, 2) > sizeof scratch) return REACH_ERROR_BUFFER_TOO_SMALL;
    for (int k = 0; k < STEPS; k++) {
        reach_vec2 pin = crank_pin_target(k * STEP);
        reach_target targets[2];
        targets[0] = reach_target_position(COUPLER_BONE, reach_vec3_make(pin.x, pin.y, 0));
        targets[1] = reach_target_meet(COUPLER_END, ROCKER_END);
        reach_solver_settings settings = reach_solver_default_settings();
        reach_status status =
            reach_fabrik_solve(&rig.skeleton, targets, 2, &settings, pose, scratch, sizeof scratch, &frames[k].result);
        if (status != REACH_OK) return status;
        record(&rig, pose, &frames[k]);
    }
    solved = 1;
    return REACH_OK;
}

static void draw_pivot(demo_canvas *canvas, demo_point p, double size) {
    cairo_t *cr = canvas->cr;
    cairo_move_to(cr, p.x, p.y);
    cairo_line_to(cr, p.x - size, p.y + 1.6 * size);
    cairo_line_to(cr, p.x + size, p.y + 1.6 * size);
    cairo_close_path(cr);
    demo_set_colour(cr, DEMO_SOLID_TOP, 1);
    cairo_fill(cr);
    demo_draw_segment(canvas, (demo_point){p.x - 1.6 * size, p.y + 1.6 * size},
                      (demo_point){p.x + 1.6 * size, p.y + 1.6 * size}, 2, DEMO_GUIDE, 1);
}

static void draw_curve(demo_canvas *canvas, const demo_view2d *view, int upto) {
    cairo_t *cr = canvas->cr;
    for (int k = 0; k <= STEPS; k++) {
        demo_point p = demo_view2d_point(view, frames[k % STEPS].traced);
        cairo_line_to(cr, p.x, p.y);
    }
    demo_set_colour(cr, DEMO_CONSTRUCTION, 1);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    for (int k = 0; k <= upto; k++) {
        demo_point p = demo_view2d_point(view, frames[k].traced);
        cairo_line_to(cr, p.x, p.y);
    }
    demo_set_colour(cr, DEMO_JOINT, 1);
    cairo_set_line_width(cr, 2.5);
    cairo_stroke(cr);
}

static void draw_linkage(demo_canvas *canvas, const demo_view2d *view, const frame_state *f) {
    demo_point p[BONES];
    for (int i = 0; i < BONES; i++)
        p[i] = demo_view2d_point(view, f->points[i]);
    demo_point traced = demo_view2d_point(view, f->traced), b = demo_view2d_point(view, pivot_b);
    double w = 0.05 * view->scale;
    draw_pivot(canvas, p[GROUND_BONE], 0.06 * view->scale);
    draw_pivot(canvas, b, 0.06 * view->scale);
    demo_draw_dashed_segment(canvas, p[GROUND_BONE], b, 1.5, DEMO_GUIDE);
    /* The coupler is a plate: pin, far end and the traced point. */
    cairo_t *cr = canvas->cr;
    cairo_move_to(cr, p[COUPLER_BONE].x, p[COUPLER_BONE].y);
    cairo_line_to(cr, traced.x, traced.y);
    cairo_line_to(cr, p[COUPLER_END].x, p[COUPLER_END].y);
    cairo_close_path(cr);
    demo_set_colour(cr, DEMO_BONE, 0.25);
    cairo_fill(cr);
    demo_draw_bone(canvas, p[ROCKER_BONE], p[ROCKER_END], w, DEMO_ROOT);
    demo_draw_bone(canvas, p[COUPLER_BONE], p[COUPLER_END], w, DEMO_BONE);
    demo_draw_bone(canvas, p[COUPLER_BONE], traced, w * 0.5, DEMO_BONE);
    demo_draw_bone(canvas, traced, p[COUPLER_END], w * 0.5, DEMO_BONE);
    demo_draw_bone(canvas, p[CRANK_BONE], p[COUPLER_BONE], w * 1.2, DEMO_BONE);
    demo_draw_joint(canvas, p[CRANK_BONE], w * 0.6, DEMO_ROOT);
    demo_draw_joint(canvas, p[ROCKER_BONE], w * 0.6, DEMO_ROOT);
    demo_draw_joint(canvas, p[COUPLER_BONE], w * 0.6, DEMO_JOINT);
    demo_draw_joint(canvas, traced, w * 0.45, DEMO_JOINT);
    /* The loop's two ends: where they meet. */
    demo_draw_joint(canvas, p[ROCKER_END], w * 0.6, DEMO_POLE);
    demo_draw_circle(canvas, p[COUPLER_END], w * 0.95, 2, DEMO_POLE, 0);
}

static void draw_info(demo_canvas *canvas, const frame_state *f) {
    demo_colour colour;
    /* The crank's target lies on the crank's circle: never beyond reach. */
    const char *status = demo_solve_status(&f->result, 0, &colour);
    demo_info info = demo_info_begin(canvas, DEMO_INFO_WIDTH, 80, "FABRIK, loop",
                                     f->result.reached ? "loop closed" : status, colour);
    char value[48];
    snprintf(value, sizeof value, "%d", f->result.iterations);
    demo_info_row(&info, "iterations", value, DEMO_TEXT);
    demo_format_residual((double)reach_vec2_distance(f->points[COUPLER_END], f->points[ROCKER_END]), value,
                         sizeof value);
    demo_info_row(&info, "loop gap", value, colour);
    demo_format_residual((double)f->result.residual, value, sizeof value);
    demo_info_row(&info, "residual", value, colour);
    reach_vec2 rocker = reach_vec2_sub(f->points[ROCKER_END], f->points[ROCKER_BONE]);
    snprintf(value, sizeof value, "%.0f°", atan2((double)rocker.y, (double)rocker.x) * 180 / PI);
    demo_info_row(&info, "rocker", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%.1f %.1f %.1f %.1f", GROUND, CRANK, COUPLER, ROCKER);
    demo_info_row(&info, "links", value, DEMO_TEXT);
    demo_info_note(&info, "targets: the crank pin, and");
    demo_info_note(&info, "coupler end meets rocker end");
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "crank, coupler"},     {DEMO_MARK_LINE, DEMO_ROOT, "rocker"},
    {DEMO_MARK_RING, DEMO_TARGET, "crank pin target"}, {DEMO_MARK_DOT, DEMO_POLE, "ends that must meet"},
    {DEMO_MARK_THIN, DEMO_JOINT, "coupler curve"},
};

static reach_status draw_fabrik_loop(demo_canvas *canvas, const demo_frame *frame) {
    if (!solved) {
        reach_status status = solve_all();
        if (status != REACH_OK) return status;
    }
    int k = (int)floor(frame->time / STEP + 0.5) % STEPS;
    const frame_state *f = &frames[k];
    demo_view2d view = demo_begin_view_2d(canvas, vec2(-0.95, -0.35), vec2(1.05, 1.35), DEMO_INFO_WIDTH, 0.25, NULL);
    demo_draw_circle(canvas, demo_view2d_point(&view, pivot_a), CRANK * view.scale, 1, DEMO_GUIDE, 1);
    draw_curve(canvas, &view, k);
    draw_linkage(canvas, &view, f);
    demo_draw_target(canvas, demo_view2d_point(&view, crank_pin_target(k * STEP)), 9,
                     f->result.reached ? DEMO_TARGET : DEMO_UNREACHED);
    draw_info(canvas, f);
    return REACH_OK;
}

const demo_scene demo_scene_fabrik_loop = {
    .name = "fabrik_loop",
    .title = "FABRIK with a closed loop: a four-bar linkage",
    .subtitle = "A target turns the crank; REACH_TARGET_MEET keeps the coupler's end on the rocker's.",
    .caption = "A closed loop: a crank-rocker four-bar linkage as two chains from one ground bone. A target turns "
               "the crank, a meeting constraint joins the coupler to the rocker, and FABRIK keeps the loop closed "
               "all the way round while a point on the coupler traces its curve.",
    .draw = draw_fabrik_loop,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LOOP,
    .frame_delay_cs = 4,
    .still_time = 2.4,
};
