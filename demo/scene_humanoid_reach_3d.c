/* A humanoid reaches for a ball that wanders in front of it, low and high, while its feet stay
 * where they stand and its head follows the ball: one full-body solve a frame (reach/full_body.h),
 * warm started from the last, with the feet's positions and rotations as targets, the right
 * hand's position, an elbow hint out to the side, and a look-at. The hips get a position too,
 * from a posture rule (down and back as the ball goes low, as a person squats): the solver
 * alone, which knows nothing of balance, would carry them far out over the toes. Their
 * rotation, the spine's bend and twist, the knees and the arms are the solver's. */
#include <math.h>
#include <stdio.h>

#include "humanoid_body.h"
#include "readout.h"
#include "replay.h"
#include "scene.h"
#include "scenery3d.h"

#define PI     3.14159265358979323846
#define LOOP   12.0
#define STEP   0.05
#define WARMUP 240 /* LOOP / STEP: a whole loop before the first frame, which then follows the last */
#define INFO_W 190

static reach_vec3 vec3(double x, double y, double z) {
    return reach_vec3_make((reach_real)x, (reach_real)y, (reach_real)z);
}

/* The ball: a slow loop in front of the body, from knee height to above the head and across
 * from the right side to the middle. */
static reach_vec3 ball_at(double t) {
    double a = 2 * PI * t / LOOP;
    return vec3(-0.28 + 0.26 * sin(a) + 0.06 * sin(3 * a), 1.05 + 0.5 * sin(2 * a + 0.6) + 0.08 * cos(a),
                0.42 + 0.12 * cos(a));
}

typedef struct scene_state {
    demo_body body;
    reach_full_body_result result;
    reach_vec3 feet[2];
    reach_quat feet_rotation[2];
} scene_state;

static scene_state state;
static demo_replay replay = {STEP, WARMUP, 0, 0};

static reach_status reset(scene_state *s) {
    reach_status status = demo_body_init(&s->body);
    for (int side = 0; side < 2; side++) {
        int foot = demo_body_bone(&s->body, side == 0 ? REACH_ROLE_LEFT_FOOT : REACH_ROLE_RIGHT_FOOT);
        s->feet[side] = s->body.world[foot].translation;
        s->feet_rotation[side] = s->body.world[foot].rotation;
    }
    return status;
}

/* Above the feet with the knees a little bent, lower and further back as the ball goes below
 * the waist. */
static reach_vec3 hips_at(const scene_state *s, reach_vec3 ball) {
    double drop = fmin(0.3, fmax(0, (1.05 - (double)ball.y) * 0.55));
    return vec3(0.5 * (double)(s->feet[0].x + s->feet[1].x), 0.95 - drop, -0.45 * drop);
}

/* Out to the right of the shoulder, a little behind and below it. */
static reach_vec3 elbow_hint(const demo_body *body) {
    int shoulder = demo_body_bone(body, REACH_ROLE_RIGHT_UPPER_ARM);
    return reach_vec3_add(body->world[shoulder].translation, vec3(-0.35, -0.2, -0.15));
}

static reach_status solve(scene_state *s, double t) {
    reach_full_body_targets targets = reach_full_body_no_targets();
    for (int side = 0; side < 2; side++) {
        reach_body_target *foot = &targets.parts[side == 0 ? REACH_BODY_LEFT_FOOT : REACH_BODY_RIGHT_FOOT];
        foot->use_position = foot->use_rotation = 1;
        foot->position = s->feet[side];
        foot->rotation = s->feet_rotation[side];
    }
    reach_vec3 ball = ball_at(t);
    reach_body_target *hips = &targets.parts[REACH_BODY_HIPS];
    hips->use_position = 1;
    hips->position = hips_at(s, ball);
    /* The free hand rests on the hip, its elbow out: left alone, it would swing behind the back
     * as the chest turns toward the ball. */
    reach_body_target *rest = &targets.parts[REACH_BODY_LEFT_HAND];
    rest->use_position = rest->use_hint = 1;
    rest->position = reach_vec3_add(hips->position, vec3(0.19, 0.06, 0.03));
    rest->hint = reach_vec3_add(hips->position, vec3(0.6, 0.3, -0.2));
    reach_body_target *hand = &targets.parts[REACH_BODY_RIGHT_HAND];
    hand->use_position = hand->use_hint = 1;
    hand->position = ball;
    hand->hint = elbow_hint(&s->body);
    targets.use_look_at = 1;
    targets.look_at = ball;
    return demo_body_solve(&s->body, &targets, &s->result);
}

static int reset_state(void) { return (int)reset(&state); }

static int step_state(int k) { return (int)solve(&state, k * STEP); }

static demo_camera camera_for(const demo_canvas *canvas) {
    double view_width = canvas->width - INFO_W - DEMO_MARGIN;
    double top = DEMO_HEADER_HEIGHT, height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    return demo_camera_look_at(vec3(-2.7, 1.5, 2.0), vec3(-0.1, 0.8, 0.12), vec3(0, 1, 0), 640,
                               view_width / 2 + DEMO_MARGIN / 2, top + height / 2);
}

static void draw_ground(demo_canvas *canvas, void *user) {
    (void)user;
    demo_camera camera = camera_for(canvas);
    demo_draw_ground_grid(canvas, &camera, -1.25, 1.0, -0.75, 1.25, 0.25);
}

static double look_error(const demo_body *body, reach_vec3 ball) {
    int head = demo_body_bone(body, REACH_ROLE_HEAD);
    reach_vec3 forward = reach_quat_rotate(body->world[head].rotation, vec3(0, 0, 1));
    reach_vec3 way = reach_vec3_sub(ball, body->world[head].translation);
    return atan2((double)reach_vec3_length(reach_vec3_cross(forward, way)), (double)reach_vec3_dot(forward, way));
}

static void draw_marks(demo_canvas *canvas, const demo_camera *camera, const scene_state *s, reach_vec3 ball,
                       int behind) {
    demo_point pixel, eyes, hint;
    double scale = demo_camera_scale_at(camera, ball);
    if (behind) {
        demo_draw_shadow(canvas, camera, vec3((double)ball.x, 0, (double)ball.z), 0.08);
        for (int side = 0; side < 2; side++)
            demo_draw_shadow(canvas, camera, vec3((double)s->feet[side].x, 0, (double)s->feet[side].z + 0.03), 0.13);
        if (demo_camera_project(camera, elbow_hint(&s->body), &hint, NULL))
            demo_draw_diamond(canvas, hint, 6, DEMO_POLE);
        return;
    }
    if (!demo_camera_project(camera, ball, &pixel, NULL)) return;
    if (demo_camera_project(camera, demo_body_eyes(&s->body), &eyes, NULL))
        demo_draw_dashed_segment(canvas, eyes, pixel, 1.5, DEMO_GUIDE);
    demo_draw_joint(canvas, pixel, 0.055 * scale, DEMO_TARGET);
    demo_draw_circle(canvas, pixel, 0.055 * scale + 4, 1.5, DEMO_TARGET, 0);
    for (int side = 0; side < 2; side++) {
        demo_point foot;
        if (demo_camera_project(camera, s->feet[side], &foot, NULL))
            demo_draw_target(canvas, foot, 0.05 * demo_camera_scale_at(camera, s->feet[side]), DEMO_REACHED);
    }
}

static void draw_info(demo_canvas *canvas, const scene_state *s, reach_vec3 ball) {
    demo_colour colour;
    reach_solve_result r = {s->result.iterations, s->result.residual, s->result.angle_residual, s->result.reached, 0};
    const char *status = demo_solve_status(&r, 0, &colour);
    demo_info info = demo_info_begin(canvas, INFO_W, 84, "full_body", status, colour);
    char value[48];
    int hand = demo_body_bone(&s->body, REACH_ROLE_RIGHT_HAND);
    demo_format_residual((double)reach_vec3_distance(s->body.world[hand].translation, ball), value, sizeof value);
    demo_info_row(&info, "hand", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%.1f°", look_error(&s->body, ball) * 180 / PI);
    demo_info_row(&info, "look", value, DEMO_TEXT);
    int hips = demo_body_bone(&s->body, REACH_ROLE_HIPS);
    snprintf(value, sizeof value, "%.2f m", (double)s->body.world[hips].translation.y);
    demo_info_row(&info, "hips", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%.2f m", (double)ball.y);
    demo_info_row(&info, "ball", value, DEMO_TEXT);
    demo_info_note(&info, "feet: position and");
    demo_info_note(&info, "rotation targets");
    demo_info_note(&info, "head: look-at (neck too)");
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "body"},          {DEMO_MARK_LINE, DEMO_ROOT, "right limbs"},
    {DEMO_MARK_DOT, DEMO_TARGET, "ball"},         {DEMO_MARK_RING, DEMO_REACHED, "foot targets"},
    {DEMO_MARK_DIAMOND, DEMO_POLE, "elbow hint"}, {DEMO_MARK_DASHED, DEMO_GUIDE, "gaze"},
};

static reach_status draw_humanoid_reach_3d(demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = (reach_status)demo_replay_run(&replay, frame->time, reset_state, step_state);
    if (status != REACH_OK) return status;
    static demo_backdrop ground;
    if (demo_backdrop_paint(&ground, canvas, draw_ground, NULL)) return REACH_ERROR_BUFFER_TOO_SMALL;
    double t = demo_replay_step_at(&replay, frame->time) * STEP;
    reach_vec3 ball = ball_at(t);
    demo_camera camera = camera_for(canvas);
    draw_marks(canvas, &camera, &state, ball, 1);
    demo_body_draw(canvas, &camera, &state.body, DEMO_BONE, DEMO_ROOT);
    draw_marks(canvas, &camera, &state, ball, 0);
    draw_info(canvas, &state, ball);
    return REACH_OK;
}

const demo_scene demo_scene_humanoid_reach_3d = {
    .name = "humanoid_reach_3d",
    .title = "Full-body IK: reaching for a ball, feet planted",
    .subtitle = "One solve a frame from the feet, the right hand, an elbow hint and a look-at; the hips drop for "
                "low balls.",
    .caption = "A humanoid posed by reach_full_body_solve: its feet are held where they stand (position and rotation "
               "targets), its right hand follows a ball from knee height to above its head with the elbow hinted "
               "out, and its neck and head turn to watch the ball; the spine bends and the hips drop and shift as the "
               "ball demands. Warm started frame after frame.",
    .draw = draw_humanoid_reach_3d,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = LOOP,
    .frame_delay_cs = 5,
    .still_time = 2.0,
};
