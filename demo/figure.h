/* A two-armed figure seen from the front, as a reach skeleton in the plane z = 0 (x right, y
 * up, metres): hips, a two-bone spine, neck and head, two three-bone arms ending in hands, and
 * two legs that are separate roots, so they stand still whatever the upper body does. Every
 * moving joint is a hinge about z: the hips and spine lean a little, shoulders swing widely,
 * elbows bend one way. */
#ifndef DEMO_FIGURE_H
#define DEMO_FIGURE_H

#include <reach/reach.h>

#include "projection.h"

typedef enum demo_figure_bone {
    DEMO_FIG_HIPS,
    DEMO_FIG_SPINE,
    DEMO_FIG_CHEST,
    DEMO_FIG_NECK,
    DEMO_FIG_HEAD,
    DEMO_FIG_L_UPPER,
    DEMO_FIG_L_FORE,
    DEMO_FIG_L_HAND,
    DEMO_FIG_R_UPPER,
    DEMO_FIG_R_FORE,
    DEMO_FIG_R_HAND,
    DEMO_FIG_L_THIGH,
    DEMO_FIG_L_SHIN,
    DEMO_FIG_L_FOOT,
    DEMO_FIG_R_THIGH,
    DEMO_FIG_R_SHIN,
    DEMO_FIG_R_FOOT,
    DEMO_FIG_BONES
} demo_figure_bone;

typedef struct demo_figure {
    int parents[DEMO_FIG_BONES];
    reach_transform rest[DEMO_FIG_BONES];
    reach_joint joints[DEMO_FIG_BONES];
    reach_skeleton skeleton;
    reach_transform pose[DEMO_FIG_BONES];
} demo_figure;

/* Builds the figure at rest, arms hanging a little out from the body. The skeleton points
 * into the struct: do not copy a built figure. */
void demo_figure_init(demo_figure *figure);

/* The farthest the two hands can be apart, whatever the joints do: shoulder to shoulder plus
 * both arms at full length. Targets farther apart than this are out of reach together. */
double demo_figure_hand_span(void);

/* Joint positions (x, y) of the pose, one per bone. */
void demo_figure_points(const demo_figure *figure, reach_vec2 *points);

/* The body in the palette's bone colours: legs first, then torso, head and arms, the joints
 * that the solver turns marked. */
void demo_figure_draw(demo_canvas *canvas, const demo_view2d *view, const demo_figure *figure);

#endif
