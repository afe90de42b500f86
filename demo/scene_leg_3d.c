/* A pair of 3-D legs climbs a flight of steps. Each foot target lifts off one tread and lands
 * two treads higher; the hips follow the feet; each leg is solved by reach_two_bone_solve with
 * a pole ahead of the knee, so the knee bends forward in the plane of hip, target and pole.
 * Drawn in perspective over a ground grid, with contact shadows for depth. */
#include <math.h>
#include <stdio.h>

#include "scenery3d.h"
#include "scene.h"

/* The flight: treads 1..TREADS, each TREAD_DEPTH deep and RISER higher than the last, then a
 * landing. Metres, y up, climbing along +x; +z is the walker's right. */
#define STAIR_START      0.3
#define TREAD_DEPTH      0.28
#define RISER            0.17
#define TREADS           5
#define LANDING_DEPTH    0.6
#define STAIR_HALF_WIDTH 0.45

#define THIGH          0.46
#define SHIN           0.46
#define HIP_HALF_WIDTH 0.11
#define ANKLE_HEIGHT   0.07 /* ankle above the sole */
#define TOE_LENGTH     0.13
#define HEEL_LENGTH    0.05

/* Timing: a pause, one step after another, a pause on the landing. */
#define START_PAUSE     0.5
#define STEP_SECONDS    0.7
#define END_PAUSE       0.6
#define SWING_CLEARANCE 0.08

typedef enum leg_side { LEFT, RIGHT, LEG_COUNT } leg_side;

/* Step over step: each foot skips a tread, and the last step brings the feet together. A step
 * starts where that foot's previous step ended (both start on the ground). */
typedef struct step {
    leg_side foot;
    int to; /* foothold, see foothold() */
} step;

static const step steps[] = {
    {RIGHT, 1}, {LEFT, 2}, {RIGHT, 3}, {LEFT, 4}, {RIGHT, 5}, {LEFT, 6}, {RIGHT, 6},
};
#define STEP_COUNT ((int)(sizeof steps / sizeof steps[0]))

static reach_vec3 vec3(double x, double y, double z) {
    return reach_vec3_make((reach_real)x, (reach_real)y, (reach_real)z);
}

static double side_z(leg_side side) { return side == RIGHT ? HIP_HALF_WIDTH : -HIP_HALF_WIDTH; }

static double smoothstep(double edge0, double edge1, double x) {
    double t = (x - edge0) / (edge1 - edge0);
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    return t * t * (3 - 2 * t);
}

/* Where a sole rests: 0 is the ground before the steps, 1..TREADS the treads (a little behind
 * their middle), TREADS + 1 the landing. */
static reach_vec3 foothold(int index, leg_side side) {
    double x, y;
    if (index <= 0) {
        x = STAIR_START - 0.3;
        y = 0;
    } else if (index <= TREADS) {
        x = STAIR_START + (index - 1) * TREAD_DEPTH + 0.45 * TREAD_DEPTH;
        y = index * RISER;
    } else {
        x = STAIR_START + TREADS * TREAD_DEPTH + 0.3;
        y = (TREADS + 1) * RISER;
    }
    return vec3(x, y, side_z(side));
}

/* Height of the surface under x: ground, a tread, or the landing. */
static double surface_height(double x) {
    if (x < STAIR_START) return 0;
    int column = (int)((x - STAIR_START) / TREAD_DEPTH) + 1;
    return (column > TREADS + 1 ? TREADS + 1 : column) * RISER;
}

/* Where the sole is during a swing from a to b, u in [0, 1]: it rises first and moves forward
 * later, so heel and toe clear the tread edges, with a small arc on top. */
static reach_vec3 swing(reach_vec3 a, reach_vec3 b, double u) {
    double x = (double)a.x + (double)(b.x - a.x) * smoothstep(0.25, 0.95, u);
    double y = (double)a.y + (double)(b.y - a.y) * smoothstep(0, 0.5, u) + SWING_CLEARANCE * sin(3.14159265 * u);
    return vec3(x, y, (double)a.z);
}

/* Soles after the first `done` steps. */
static void soles_after(int done, reach_vec3 sole[LEG_COUNT]) {
    int hold[LEG_COUNT] = {0, 0};
    for (int i = 0; i < done && i < STEP_COUNT; i++)
        hold[steps[i].foot] = steps[i].to;
    for (int s = 0; s < LEG_COUNT; s++)
        sole[s] = foothold(hold[s], (leg_side)s);
}

/* The pelvis centre over standing soles: a little ahead of them, as high as the legs allow,
 * with the trailing leg just short of straight. */
static reach_vec3 pelvis_over(const reach_vec3 sole[LEG_COUNT]) {
    double x = 0.5 * (double)(sole[LEFT].x + sole[RIGHT].x) + 0.06;
    double low = fmin((double)sole[LEFT].y, (double)sole[RIGHT].y) + ANKLE_HEIGHT;
    double high = fmax((double)sole[LEFT].y, (double)sole[RIGHT].y) + ANKLE_HEIGHT;
    double trailing_x = (double)(sole[LEFT].y < sole[RIGHT].y ? sole[LEFT].x : sole[RIGHT].x);
    double reach = 0.96 * (THIGH + SHIN), dx = x - trailing_x;
    double y = fmin(high + 0.82, low + sqrt(reach * reach - dx * dx));
    return vec3(x, y, 0);
}

typedef struct pose {
    reach_vec3 pelvis;
    reach_vec3 sole[LEG_COUNT];
    int step;          /* the step under way, or -1 in a pause */
    double step_phase; /* 0..1 through it */
} pose;

static pose pose_at(double t) {
    pose p;
    double s = (t - START_PAUSE) / STEP_SECONDS;
    int done = s < 0 ? 0 : (int)floor(s);
    if (done >= STEP_COUNT) done = STEP_COUNT;
    double u = s < 0 || done >= STEP_COUNT ? 0 : s - done;
    reach_vec3 before[LEG_COUNT], after[LEG_COUNT];
    soles_after(done, before);
    soles_after(done + 1, after);
    p.step = s < 0 || done >= STEP_COUNT ? -1 : done;
    p.step_phase = u;
    for (int i = 0; i < LEG_COUNT; i++)
        p.sole[i] = before[i];
    if (p.step >= 0) p.sole[steps[p.step].foot] = swing(before[steps[p.step].foot], after[steps[p.step].foot], u);
    p.pelvis = reach_vec3_lerp(pelvis_over(before), pelvis_over(after), (reach_real)smoothstep(0, 1, u));
    return p;
}

typedef struct leg {
    reach_vec3 hip, target, pole;
    reach_two_bone_output solved;
} leg;

static reach_status solve_leg(const pose *p, leg_side side, leg *out) {
    out->hip = reach_vec3_add(p->pelvis, vec3(0, 0, side_z(side)));
    out->target = reach_vec3_add(p->sole[side], vec3(0, ANKLE_HEIGHT, 0));
    /* Ahead of and below the hip: the knee bends forward, as a knee does. */
    out->pole = reach_vec3_add(out->hip, vec3(0.6, -0.4, 0));
    reach_two_bone_input in;
    in.root = out->hip;
    in.mid = reach_vec3_add(out->hip, vec3(0, -THIGH, 0));
    in.end = reach_vec3_add(out->hip, vec3(0, -THIGH - SHIN, 0));
    in.target = out->target;
    in.pole = out->pole;
    in.use_pole = 1;
    reach_two_bone_settings options = reach_two_bone_default_settings();
    options.rotations = 0;
    return reach_two_bone_solve(&in, &options, &out->solved);
}

static int project(const demo_camera *camera, reach_vec3 p, demo_point *pixel) {
    return demo_camera_project(camera, p, pixel, NULL);
}

static void draw_stairs(demo_canvas *canvas, const demo_camera *camera) {
    demo_box boxes[TREADS + 1];
    for (int i = 0; i <= TREADS; i++) {
        double x0 = STAIR_START + i * TREAD_DEPTH;
        double x1 = i < TREADS ? x0 + TREAD_DEPTH : x0 + LANDING_DEPTH;
        boxes[i].min = vec3(x0, 0, -STAIR_HALF_WIDTH);
        boxes[i].max = vec3(x1, (i + 1) * RISER, STAIR_HALF_WIDTH);
    }
    demo_draw_boxes(canvas, camera, boxes, TREADS + 1);
}

/* Hip to knee to ankle, a flat foot under the solved ankle, the pole and its guide line. */
static void draw_leg(demo_canvas *canvas, const demo_camera *camera, const leg *l, demo_colour colour) {
    demo_point hip, knee, ankle, toe, heel, pole, target;
    reach_vec3 end = l->solved.end;
    if (!project(camera, l->hip, &hip) || !project(camera, l->solved.mid, &knee) || !project(camera, end, &ankle) ||
        !project(camera, reach_vec3_add(end, vec3(TOE_LENGTH, -ANKLE_HEIGHT, 0)), &toe) ||
        !project(camera, reach_vec3_add(end, vec3(-HEEL_LENGTH, -ANKLE_HEIGHT, 0)), &heel) ||
        !project(camera, l->pole, &pole) || !project(camera, l->target, &target))
        return;
    double width = 0.055 * demo_camera_scale_at(camera, l->solved.mid);
    demo_draw_dashed_segment(canvas, knee, pole, 1.5, DEMO_POLE);
    demo_draw_diamond(canvas, pole, 6, DEMO_POLE);
    demo_draw_bone(canvas, heel, toe, width * 0.8, colour);
    demo_draw_bone(canvas, ankle, heel, width * 0.8, colour);
    demo_draw_bone(canvas, ankle, toe, width * 0.8, colour);
    demo_draw_bone(canvas, hip, knee, width, colour);
    demo_draw_bone(canvas, knee, ankle, width, colour);
    demo_draw_joint(canvas, knee, width * 0.75, DEMO_JOINT);
    demo_draw_joint(canvas, ankle, width * 0.5, colour);
    demo_draw_target(canvas, target, 6, l->solved.reached ? DEMO_TARGET : DEMO_UNREACHED);
}

static void draw_pelvis(demo_canvas *canvas, const demo_camera *camera, const leg legs[LEG_COUNT]) {
    demo_point left, right;
    if (!project(camera, legs[LEFT].hip, &left) || !project(camera, legs[RIGHT].hip, &right)) return;
    double width = 0.07 * demo_camera_scale_at(camera, legs[LEFT].hip);
    demo_draw_bone(canvas, left, right, width, DEMO_ROOT);
    demo_draw_joint(canvas, left, width * 0.7, DEMO_ROOT);
    demo_draw_joint(canvas, right, width * 0.7, DEMO_ROOT);
}

/* Where a foothold is, in words. */
static void describe_foothold(int index, char *text, size_t size) {
    if (index <= 0)
        snprintf(text, size, "the ground");
    else if (index <= TREADS)
        snprintf(text, size, "tread %d", index);
    else
        snprintf(text, size, "the landing");
}

/* Which step is under way, then one badge per leg with its status and residual, top left:
 * the walker starts low on the left and ends high on the right, so it never goes there. */
static void draw_info(demo_canvas *canvas, const leg legs[LEG_COUNT], const pose *p) {
    const char *names[LEG_COUNT] = {"left", "right"};
    char line[96];
    if (p->step >= 0) {
        char where[32];
        describe_foothold(steps[p->step].to, where, sizeof where);
        snprintf(line, sizeof line, "step %d of %d: %s foot to %s", p->step + 1, STEP_COUNT, names[steps[p->step].foot],
                 where);
    } else {
        snprintf(line, sizeof line, "%s",
                 p->sole[LEFT].y > 0 ? "both feet on the landing" : "at the foot of the steps");
    }
    double y = DEMO_HEADER_HEIGHT + 28;
    demo_draw_text(canvas, DEMO_MARGIN, y, line, 13.5, DEMO_TEXT, DEMO_ALIGN_LEFT, 0);
    for (int s = 0; s < LEG_COUNT; s++) {
        const reach_two_bone_output *o = &legs[s].solved;
        snprintf(line, sizeof line, "%s: %s, residual %.3f m", names[s], o->reached ? "reached" : "out of reach",
                 (double)o->residual);
        demo_draw_badge(canvas, DEMO_MARGIN, y + 14 + 32 * s, line, o->reached ? DEMO_REACHED : DEMO_UNREACHED,
                        DEMO_ALIGN_LEFT);
    }
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "right leg (near)"}, {DEMO_MARK_LINE, DEMO_ROOT, "left leg, pelvis"},
    {DEMO_MARK_DOT, DEMO_JOINT, "knee (solved)"},    {DEMO_MARK_RING, DEMO_TARGET, "ankle target"},
    {DEMO_MARK_DIAMOND, DEMO_POLE, "pole"},
};

static reach_status draw_leg_3d(demo_canvas *canvas, const demo_frame *frame) {
    pose p = pose_at(frame->time);
    leg legs[LEG_COUNT];
    for (int s = 0; s < LEG_COUNT; s++) {
        reach_status status = solve_leg(&p, (leg_side)s, &legs[s]);
        if (status != REACH_OK) return status;
    }
    double view_top = DEMO_HEADER_HEIGHT, view_height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    demo_camera camera = demo_camera_look_at(vec3(-0.7, 2.1, 3.4), vec3(1.15, 1.02, 0), vec3(0, 1, 0), 600,
                                             canvas->width / 2.0, view_top + view_height / 2);
    demo_draw_ground_grid(canvas, &camera, -1.25, 3.25, -1.5, 1.5, 0.25);
    draw_stairs(canvas, &camera);
    for (int s = 0; s < LEG_COUNT; s++) {
        double x = (double)p.sole[s].x;
        demo_draw_shadow(canvas, &camera, vec3(x, surface_height(x), (double)p.sole[s].z), 0.09);
    }
    /* The far leg first and darker, then the pelvis, then the near leg over both. */
    draw_leg(canvas, &camera, &legs[LEFT], DEMO_ROOT);
    draw_pelvis(canvas, &camera, legs);
    draw_leg(canvas, &camera, &legs[RIGHT], DEMO_BONE);

    draw_info(canvas, legs, &p);
    return REACH_OK;
}

const demo_scene demo_scene_leg_3d = {
    .name = "leg_3d",
    .title = "3-D two-bone legs with a pole, climbing steps",
    .subtitle = "Each foot target climbs the steps; the knee bends in the plane of hip, target and pole.",
    .caption = "Two legs climb a flight of steps: each foot target lifts off a tread and lands two higher, and the "
               "3-D two-bone solver with a pole ahead of the knee keeps each knee bending forward.",
    .draw = draw_leg_3d,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = START_PAUSE + STEP_COUNT * STEP_SECONDS + END_PAUSE,
    .frame_delay_cs = 4,
    .still_time = 2.6,
};
