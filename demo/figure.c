/* The two-armed figure: skeleton and drawing. */
#include <math.h>

#include "figure.h"

#define PI 3.14159265358979323846

typedef struct bone_def {
    int parent;
    double x, y;   /* rest translation from the parent's joint (the world, for a root) */
    double lo, hi; /* hinge range about z, radians; lo > hi marks a fixed joint */
} bone_def;

/* Arms: 0.28 upper, 0.26 forearm; shoulders 0.19 out and 0.17 up from the chest joint. The
 * left elbow bends clockwise as seen, the right counter-clockwise: reaching out and up, the
 * elbows stay below the line from shoulder to hand, as a person's do seen from the front.
 * The hips and spine lean at most 0.45 rad between them: enough to show a lean, not to fold. */
static const bone_def bones[DEMO_FIG_BONES] = {
    [DEMO_FIG_HIPS] = {-1, 0, 1.0, -0.2, 0.2},
    [DEMO_FIG_SPINE] = {DEMO_FIG_HIPS, 0, 0.22, -0.15, 0.15},
    [DEMO_FIG_CHEST] = {DEMO_FIG_SPINE, 0, 0.22, -0.1, 0.1},
    [DEMO_FIG_NECK] = {DEMO_FIG_CHEST, 0, 0.2, 1, 0},
    [DEMO_FIG_HEAD] = {DEMO_FIG_NECK, 0, 0.2, 1, 0},
    [DEMO_FIG_L_UPPER] = {DEMO_FIG_CHEST, -0.19, 0.17, -2.6, 2.6},
    [DEMO_FIG_L_FORE] = {DEMO_FIG_L_UPPER, -0.28, 0, -2.5, 0},
    [DEMO_FIG_L_HAND] = {DEMO_FIG_L_FORE, -0.26, 0, 1, 0},
    [DEMO_FIG_R_UPPER] = {DEMO_FIG_CHEST, 0.19, 0.17, -2.6, 2.6},
    [DEMO_FIG_R_FORE] = {DEMO_FIG_R_UPPER, 0.28, 0, 0, 2.5},
    [DEMO_FIG_R_HAND] = {DEMO_FIG_R_FORE, 0.26, 0, 1, 0},
    [DEMO_FIG_L_THIGH] = {-1, -0.1, 0.98, 1, 0},
    [DEMO_FIG_L_SHIN] = {DEMO_FIG_L_THIGH, -0.02, -0.46, 1, 0},
    [DEMO_FIG_L_FOOT] = {DEMO_FIG_L_SHIN, -0.02, -0.46, 1, 0},
    [DEMO_FIG_R_THIGH] = {-1, 0.1, 0.98, 1, 0},
    [DEMO_FIG_R_SHIN] = {DEMO_FIG_R_THIGH, 0.02, -0.46, 1, 0},
    [DEMO_FIG_R_FOOT] = {DEMO_FIG_R_SHIN, 0.02, -0.46, 1, 0},
};

void demo_figure_init(demo_figure *f) {
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    for (int i = 0; i < DEMO_FIG_BONES; i++) {
        const bone_def *b = &bones[i];
        f->parents[i] = b->parent;
        reach_vec3 offset = reach_vec3_make((reach_real)b->x, (reach_real)b->y, 0);
        f->rest[i] = reach_transform_make(reach_quat_identity(), offset);
        f->joints[i] =
            b->lo <= b->hi ? reach_joint_hinge(z, (reach_real)b->lo, (reach_real)b->hi) : reach_joint_fixed();
    }
    /* Arms hang down and out a little at rest: turn each upper arm about z. */
    f->rest[DEMO_FIG_L_UPPER].rotation = reach_quat_from_axis_angle(z, (reach_real)(PI / 2 - 0.25));
    f->rest[DEMO_FIG_R_UPPER].rotation = reach_quat_from_axis_angle(z, (reach_real)(-PI / 2 + 0.25));
    f->skeleton.bone_count = DEMO_FIG_BONES;
    f->skeleton.parents = f->parents;
    f->skeleton.rest = f->rest;
    f->skeleton.joints = f->joints;
    reach_pose_rest(&f->skeleton, f->pose);
}

/* A bone's length: its rest offset from its parent's joint. */
static double offset_length(int bone) { return hypot(bones[bone].x, bones[bone].y); }

double demo_figure_hand_span(void) {
    const bone_def *left = &bones[DEMO_FIG_L_UPPER], *right = &bones[DEMO_FIG_R_UPPER];
    double shoulders = hypot(right->x - left->x, right->y - left->y);
    /* Each arm: the upper arm is the forearm's offset, the forearm the hand's. */
    return shoulders + offset_length(DEMO_FIG_L_FORE) + offset_length(DEMO_FIG_L_HAND) +
           offset_length(DEMO_FIG_R_FORE) + offset_length(DEMO_FIG_R_HAND);
}

void demo_figure_points(const demo_figure *f, reach_vec2 *points) {
    reach_transform world[DEMO_FIG_BONES];
    reach_forward_kinematics(&f->skeleton, f->pose, world);
    for (int i = 0; i < DEMO_FIG_BONES; i++)
        points[i] = reach_vec2_make(world[i].translation.x, world[i].translation.y);
}

static void limb(demo_canvas *canvas, const demo_point *p, int a, int b, double width, demo_colour colour) {
    demo_draw_bone(canvas, p[a], p[b], width, colour);
}

void demo_figure_draw(demo_canvas *canvas, const demo_view2d *view, const demo_figure *f) {
    reach_vec2 points[DEMO_FIG_BONES];
    demo_point p[DEMO_FIG_BONES];
    demo_figure_points(f, points);
    for (int i = 0; i < DEMO_FIG_BONES; i++)
        p[i] = demo_view2d_point(view, points[i]);
    double w = 0.07 * view->scale;
    /* Legs stand still: drawn in the fixed joints' colour. */
    limb(canvas, p, DEMO_FIG_L_THIGH, DEMO_FIG_L_SHIN, w, DEMO_ROOT);
    limb(canvas, p, DEMO_FIG_L_SHIN, DEMO_FIG_L_FOOT, w * 0.85, DEMO_ROOT);
    limb(canvas, p, DEMO_FIG_R_THIGH, DEMO_FIG_R_SHIN, w, DEMO_ROOT);
    limb(canvas, p, DEMO_FIG_R_SHIN, DEMO_FIG_R_FOOT, w * 0.85, DEMO_ROOT);
    limb(canvas, p, DEMO_FIG_L_THIGH, DEMO_FIG_R_THIGH, w, DEMO_ROOT);
    /* The torso: hips to chest to neck, shoulders across. */
    limb(canvas, p, DEMO_FIG_HIPS, DEMO_FIG_SPINE, w * 1.3, DEMO_BONE);
    limb(canvas, p, DEMO_FIG_SPINE, DEMO_FIG_CHEST, w * 1.3, DEMO_BONE);
    limb(canvas, p, DEMO_FIG_CHEST, DEMO_FIG_NECK, w, DEMO_BONE);
    limb(canvas, p, DEMO_FIG_L_UPPER, DEMO_FIG_R_UPPER, w, DEMO_BONE);
    limb(canvas, p, DEMO_FIG_CHEST, DEMO_FIG_L_UPPER, w * 0.8, DEMO_BONE);
    limb(canvas, p, DEMO_FIG_CHEST, DEMO_FIG_R_UPPER, w * 0.8, DEMO_BONE);
    /* The head: a disc around the middle of the head bone. */
    demo_point head = {(p[DEMO_FIG_NECK].x + p[DEMO_FIG_HEAD].x) / 2, (p[DEMO_FIG_NECK].y + p[DEMO_FIG_HEAD].y) / 2};
    demo_draw_joint(canvas, head, 0.085 * view->scale, DEMO_BONE);
    static const int arms[2][3] = {{DEMO_FIG_L_UPPER, DEMO_FIG_L_FORE, DEMO_FIG_L_HAND},
                                   {DEMO_FIG_R_UPPER, DEMO_FIG_R_FORE, DEMO_FIG_R_HAND}};
    for (int a = 0; a < 2; a++) {
        limb(canvas, p, arms[a][0], arms[a][1], w, DEMO_BONE);
        limb(canvas, p, arms[a][1], arms[a][2], w * 0.9, DEMO_BONE);
        demo_draw_joint(canvas, p[arms[a][0]], w * 0.55, DEMO_JOINT);
        demo_draw_joint(canvas, p[arms[a][1]], w * 0.55, DEMO_JOINT);
        demo_draw_joint(canvas, p[arms[a][2]], w * 0.7, DEMO_BONE);
    }
    demo_draw_joint(canvas, p[DEMO_FIG_SPINE], w * 0.5, DEMO_JOINT);
    demo_draw_joint(canvas, p[DEMO_FIG_CHEST], w * 0.5, DEMO_JOINT);
    demo_draw_joint(canvas, p[DEMO_FIG_HIPS], w * 0.6, DEMO_ROOT);
}
