/* Three-point mode: a head and two hands, as a VR headset and two controllers give them, drive
 * a whole standing body (reach_three_point_solve). The head walks a circle, turned along it,
 * bobbing a little; the hands hold out in front and one of them waves. The feet stay planted on
 * the floor, step when the body moves away from them or turns, one at a time, and land ahead by
 * the head's velocity. The last footprints stay on the floor. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "humanoid_body.h"
#include "readout.h"
#include "replay.h"
#include "scene.h"
#include "scenery3d.h"

#define PI     3.14159265358979323846
#define RADIUS 0.75
#define SPEED  0.38 /* metres a second along the circle */
#define LOOP   (2 * PI * RADIUS / SPEED)
#define STEP   0.05
#define WARMUP 248 /* about LOOP / STEP: a lap before the first frame */
#define INFO_W 190
#define PRINTS 10 /* footprints kept on the floor */

static reach_vec3 vec3(double x, double y, double z) {
    return reach_vec3_make((reach_real)x, (reach_real)y, (reach_real)z);
}

typedef struct footprint {
    reach_vec3 at;
    double yaw;
    int side;
} footprint;

typedef struct scene_state {
    demo_body body;
    reach_three_point_state walk;
    reach_full_body_result result;
    reach_vec3 head_rest, hand_rest[2];
    footprint prints[PRINTS];
    int print_count;
    int steps_before; /* steps taken in the warm-up lap, before frame 0 */
} scene_state;

static scene_state state;
static demo_replay replay = {STEP, WARMUP, 0, 0};

/* The head's heading at time t: along the circle, counter-clockwise seen from above. */
static double angle_at(double t) { return 2 * PI * t / LOOP; }

static void head_at(const scene_state *s, double t, reach_body_target *head) {
    memset(head, 0, sizeof *head);
    double a = angle_at(t);
    head->use_position = head->use_rotation = 1;
    /* A little below standing height (the knees soft), bobbing twice a stride. */
    double height = (double)s->head_rest.y - 0.07 - 0.015 * cos(4 * PI * t / 0.9);
    head->position = vec3(RADIUS * cos(a) - RADIUS, height, RADIUS * sin(a));
    /* Facing along the circle: +z turned to (-sin a, 0, cos a). */
    head->rotation = reach_quat_from_axis_angle(vec3(0, 1, 0), (reach_real)(-a));
}

static void hands_at(const scene_state *s, double t, const reach_body_target *head, reach_body_target hands[2]) {
    for (int side = 0; side < 2; side++) {
        memset(&hands[side], 0, sizeof hands[side]);
        hands[side].use_position = 1;
        double across = side == 0 ? 0.2 : -0.2;
        /* The right hand waves up and down; the left holds its controller still. */
        double wave = side == 1 ? 0.18 * sin(2 * PI * t / 2.2) : 0;
        reach_vec3 in_front = vec3(across, -0.42 + wave, 0.32 + (side == 1 ? 0.05 * cos(2 * PI * t / 2.2) : 0));
        hands[side].position = reach_vec3_add(head->position, reach_quat_rotate(head->rotation, in_front));
    }
    (void)s;
}

static reach_status reset(scene_state *s) {
    reach_status status = demo_body_init(&s->body);
    if (status != REACH_OK) return status;
    s->head_rest = s->body.world[demo_body_bone(&s->body, REACH_ROLE_HEAD)].translation;
    s->print_count = s->steps_before = 0;
    /* The body stands where the circle starts, facing along it. */
    reach_body_target head;
    head_at(s, 0, &head);
    s->body.pose[0].translation =
        reach_vec3_add(s->body.pose[0].translation, vec3((double)head.position.x - (double)s->head_rest.x, 0,
                                                         (double)head.position.z - (double)s->head_rest.z));
    demo_body_update(&s->body);
    return reach_three_point_init(&s->body.skeleton, &s->body.roles, NULL, s->body.pose, &s->walk);
}

static void keep_prints(scene_state *s) {
    for (int side = 0; side < 2; side++) {
        if (s->walk.phase[side] != 0) continue;
        /* A foot that has just landed leaves a print (at most one per foot per landing). */
        int known = 0;
        for (int k = 0; k < s->print_count; k++)
            if (s->prints[k].side == side && reach_vec3_distance(s->prints[k].at, s->walk.planted[side]) < 1e-3f)
                known = 1;
        if (known) continue;
        if (s->print_count == PRINTS) {
            memmove(s->prints, s->prints + 1, (PRINTS - 1) * sizeof s->prints[0]);
            s->print_count--;
        }
        footprint p = {s->walk.planted[side], (double)s->walk.yaw[side], side};
        s->prints[s->print_count++] = p;
    }
}

static reach_status solve(scene_state *s, double t) {
    reach_body_target head, hands[2];
    head_at(s, t, &head);
    hands_at(s, t, &head, hands);
    reach_status status =
        reach_three_point_solve(&s->body.skeleton, &s->body.roles, NULL, &head, &hands[0], &hands[1], (reach_real)STEP,
                                &s->walk, s->body.pose, s->body.scratch, sizeof s->body.scratch, &s->result);
    demo_body_update(&s->body);
    keep_prints(s);
    return status;
}

static int reset_state(void) { return (int)reset(&state); }

static int step_state(int k) {
    reach_status status = solve(&state, k * STEP);
    if (k == 0) state.steps_before = state.walk.steps;
    return (int)status;
}

static demo_camera camera_for(const demo_canvas *canvas) {
    double view_width = canvas->width - INFO_W - DEMO_MARGIN;
    double top = DEMO_HEADER_HEIGHT, height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    return demo_camera_look_at(vec3(-0.75 - 0.9, 2.2, 3.1), vec3(-0.75, 0.72, 0), vec3(0, 1, 0), 600,
                               view_width / 2 + DEMO_MARGIN / 2, top + height / 2);
}

/* The floor, and the circle the head walks projected on it. */
static void draw_ground(demo_canvas *canvas, void *user) {
    (void)user;
    demo_camera camera = camera_for(canvas);
    demo_draw_ground_grid(canvas, &camera, -2.0, 0.5, -1.25, 1.25, 0.25);
    cairo_t *cr = canvas->cr;
    for (int i = 0; i <= 96; i++) {
        double a = 2 * PI * i / 96;
        demo_point p;
        if (demo_camera_project(&camera, vec3(RADIUS * cos(a) - RADIUS, 0, RADIUS * sin(a)), &p, NULL))
            cairo_line_to(cr, p.x, p.y);
    }
    demo_set_colour(cr, DEMO_GUIDE, 1);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
}

/* A sole's outline on the floor, toward its heading. */
static void draw_sole(demo_canvas *canvas, const demo_camera *camera, reach_vec3 ankle, double yaw, demo_colour colour,
                      int filled) {
    static const double outline[6][2] = {{-0.045, -0.07}, {0.045, -0.07}, {0.05, 0.08},
                                         {0.03, 0.15},    {-0.03, 0.15},  {-0.05, 0.08}};
    reach_vec3 corners[6];
    for (int i = 0; i < 6; i++) {
        double x = outline[i][0], z = outline[i][1];
        corners[i] =
            vec3((double)ankle.x + x * cos(yaw) + z * sin(yaw), 0.002, (double)ankle.z - x * sin(yaw) + z * cos(yaw));
    }
    if (!demo_polygon_path_3d(canvas, camera, corners, 6)) return;
    cairo_t *cr = canvas->cr;
    demo_set_colour(cr, colour, filled ? 0.55 : 0.25);
    cairo_fill_preserve(cr);
    demo_set_colour(cr, colour, 1);
    cairo_set_line_width(cr, 1.2);
    cairo_stroke(cr);
}

static void draw_floor_marks(demo_canvas *canvas, const demo_camera *camera, const scene_state *s) {
    for (int k = 0; k < s->print_count; k++) {
        const footprint *p = &s->prints[k];
        int current = reach_vec3_distance(p->at, s->walk.planted[p->side]) < 1e-3f && s->walk.phase[p->side] == 0;
        draw_sole(canvas, camera, p->at, p->yaw, current ? DEMO_REACHED : DEMO_GUIDE, current);
    }
    int hips = demo_body_bone(&s->body, REACH_ROLE_HIPS);
    reach_vec3 under = s->body.world[hips].translation;
    demo_draw_shadow(canvas, camera, vec3((double)under.x, 0, (double)under.z), 0.22);
}

/* The headset and the controllers: where the solve was asked to put the head and hands. */
static void draw_devices(demo_canvas *canvas, const demo_camera *camera, const reach_body_target *head,
                         const reach_body_target hands[2]) {
    const reach_body_target *devices[3] = {head, &hands[0], &hands[1]};
    for (int i = 0; i < 3; i++) {
        demo_point p;
        if (!demo_camera_project(camera, devices[i]->position, &p, NULL)) continue;
        double scale = demo_camera_scale_at(camera, devices[i]->position);
        demo_draw_target(canvas, p, (i == 0 ? 0.07 : 0.05) * scale, DEMO_TARGET);
    }
    /* Where the headset faces. */
    demo_point from, to;
    reach_vec3 ahead = reach_vec3_add(head->position, reach_quat_rotate(head->rotation, vec3(0, 0, 0.35)));
    if (demo_camera_project(camera, head->position, &from, NULL) && demo_camera_project(camera, ahead, &to, NULL))
        demo_draw_dashed_segment(canvas, from, to, 1.5, DEMO_TARGET);
}

static void draw_info(demo_canvas *canvas, const scene_state *s) {
    demo_colour colour;
    reach_solve_result r = {s->result.iterations, s->result.residual, s->result.angle_residual, s->result.reached, 0};
    const char *status = demo_solve_status(&r, 0, &colour);
    demo_info info = demo_info_begin(canvas, INFO_W, 84, "three-point", status, colour);
    char value[48];
    demo_format_residual((double)s->result.residual, value, sizeof value);
    demo_info_row(&info, "residual", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%d", s->walk.steps - s->steps_before);
    demo_info_row(&info, "steps", value, DEMO_TEXT);
    static const char *const sides[2] = {"left foot", "right foot"};
    for (int side = 0; side < 2; side++)
        demo_info_row(&info, sides[side], s->walk.phase[side] == 0 ? "planted" : "stepping",
                      s->walk.phase[side] == 0 ? DEMO_REACHED : DEMO_TEXT);
    demo_info_note(&info, "targets: head (position,");
    demo_info_note(&info, "rotation) and hands only");
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "body"},
    {DEMO_MARK_LINE, DEMO_ROOT, "right limbs"},
    {DEMO_MARK_RING, DEMO_TARGET, "headset, controllers"},
    {DEMO_MARK_DOT, DEMO_REACHED, "planted sole"},
    {DEMO_MARK_DOT, DEMO_GUIDE, "footprints"},
    {DEMO_MARK_THIN, DEMO_GUIDE, "head's path"},
};

static reach_status draw_three_point_3d(demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = (reach_status)demo_replay_run(&replay, frame->time, reset_state, step_state);
    if (status != REACH_OK) return status;
    static demo_backdrop ground;
    if (demo_backdrop_paint(&ground, canvas, draw_ground, NULL)) return REACH_ERROR_BUFFER_TOO_SMALL;
    double t = demo_replay_step_at(&replay, frame->time) * STEP;
    reach_body_target head, hands[2];
    head_at(&state, t, &head);
    hands_at(&state, t, &head, hands);
    demo_camera camera = camera_for(canvas);
    draw_floor_marks(canvas, &camera, &state);
    demo_body_draw(canvas, &camera, &state.body, DEMO_BONE, DEMO_ROOT);
    draw_devices(canvas, &camera, &head, hands);
    draw_info(canvas, &state);
    return REACH_OK;
}

const demo_scene demo_scene_three_point_3d = {
    .name = "three_point_3d",
    .title = "Three-point mode: a body from a headset and two controllers",
    .subtitle = "Only the head and hands are given; the feet stay planted and step, one at a time, to keep up.",
    .caption = "reach_three_point_solve poses a whole standing body from a head (position and heading) and two hands, "
               "as a VR headset and controllers give them: the head walks a circle, and the feet keep to the floor, "
               "planted until the body moves or turns away from them, then stepping one at a time to land ahead "
               "by the head's velocity. The last footprints stay on the floor.",
    .draw = draw_three_point_3d,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LOOP,
    .frame_delay_cs = 5,
    .still_time = 3.0,
};
