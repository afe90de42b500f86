/* Drawing over cairo with the demo's palette: an image the size of one frame, and helpers for
 * the marks every scene uses (bones, joints, targets, poles, guides) and for labels (a header
 * with the scene's title, status badges, values, a legend), so all scenes look alike. */
#ifndef DEMO_CANVAS_H
#define DEMO_CANVAS_H

#include <cairo.h>

#include "palette.h"

/* Height of the title band at the top and of the legend band at the bottom, in pixels. */
#define DEMO_HEADER_HEIGHT 62
#define DEMO_FOOTER_HEIGHT 34
#define DEMO_MARGIN        16

typedef struct demo_point {
    double x, y;
} demo_point;

typedef struct demo_canvas {
    cairo_surface_t *surface; /* opaque RGB24 image */
    cairo_t *cr;
    int width, height;
} demo_canvas;

typedef enum demo_align { DEMO_ALIGN_LEFT, DEMO_ALIGN_CENTRE, DEMO_ALIGN_RIGHT } demo_align;

/* How a legend entry shows its colour. */
typedef enum demo_mark {
    DEMO_MARK_LINE,   /* a thick stroke: bones */
    DEMO_MARK_THIN,   /* a thin stroke: guides */
    DEMO_MARK_DASHED, /* a thin dashed stroke: alternatives, misses */
    DEMO_MARK_DOT,    /* a filled disc: joints */
    DEMO_MARK_RING,   /* a ring with a cross: targets */
    DEMO_MARK_CIRCLE, /* a plain ring: feet in the air, outlines */
    DEMO_MARK_DIAMOND /* poles */
} demo_mark;

typedef struct demo_legend_entry {
    demo_mark mark;
    demo_colour colour;
    const char *label;
} demo_legend_entry;

/* Returns NULL on success, else a message. */
const char *demo_canvas_create(demo_canvas *canvas, int width, int height);
void demo_canvas_destroy(demo_canvas *canvas);

/* Fills the frame with the background and resets cairo's state. */
void demo_canvas_clear(demo_canvas *canvas);

/* A picture that is the same in every frame (scenery seen by a fixed camera): drawn once onto
 * a cleared canvas of the frame's size, kept, and painted over the whole frame after that. */
typedef void (*demo_backdrop_fn)(demo_canvas *canvas, void *user);
typedef struct demo_backdrop {
    cairo_surface_t *surface;
} demo_backdrop;

/* Paints the backdrop, drawing it first if there is none yet of this canvas's size. Returns
 * NULL, or a message when its surface could not be made (nothing is painted then). */
const char *demo_backdrop_paint(demo_backdrop *backdrop, demo_canvas *canvas, demo_backdrop_fn draw, void *user);

void demo_set_colour(cairo_t *cr, demo_colour colour, double alpha);
/* An exact colour, opaque: for shades from demo_palette_blend. */
void demo_set_rgb(cairo_t *cr, demo_rgb rgb);

void demo_draw_segment(demo_canvas *canvas, demo_point a, demo_point b, double width, demo_colour colour, double alpha);
void demo_draw_dashed_segment(demo_canvas *canvas, demo_point a, demo_point b, double width, demo_colour colour);
void demo_draw_circle(demo_canvas *canvas, demo_point centre, double radius, double width, demo_colour colour,
                      int dashed);
/* A bone: a rounded stroke with a darker edge so bones stay distinct where they cross. */
void demo_draw_bone(demo_canvas *canvas, demo_point a, demo_point b, double width, demo_colour colour);
/* A joint: a filled disc with a background-coloured rim. */
void demo_draw_joint(demo_canvas *canvas, demo_point centre, double radius, demo_colour colour);
/* A target: a ring with a cross through it. */
void demo_draw_target(demo_canvas *canvas, demo_point centre, double radius, demo_colour colour);
/* A pole: a small diamond. */
void demo_draw_diamond(demo_canvas *canvas, demo_point centre, double radius, demo_colour colour);
/* A filled pie slice from angle `from` to angle `to` (radians, counter-clockwise on the
 * picture, 0 pointing right), with its two edges stroked: the range a joint allows. */
void demo_draw_wedge(demo_canvas *canvas, demo_point centre, double radius, double from, double to, demo_colour colour,
                     double fill_alpha);

/* Text with its baseline at y; returns the advance width in pixels. */
double demo_draw_text(demo_canvas *canvas, double x, double y, const char *text, double size, demo_colour colour,
                      demo_align align, int bold);
/* One row of a readout: a muted label at x and its value at x + label_width. */
void demo_draw_field(demo_canvas *canvas, double x, double y, double label_width, const char *label, const char *value,
                     demo_colour value_colour);
/* The scene's title and one line of what is drawn, in the header band. */
void demo_draw_header(demo_canvas *canvas, const char *title, const char *subtitle);
/* A status label ("reached", "out of reach") on a panel with a coloured dot; x is the left
 * (DEMO_ALIGN_LEFT), middle or right edge and y the top. Returns the badge's width. */
double demo_draw_badge(demo_canvas *canvas, double x, double y, const char *text, demo_colour colour, demo_align align);
/* A row of legend entries along the bottom band. */
void demo_draw_legend(demo_canvas *canvas, const demo_legend_entry *entries, int count);

#endif
