/* Marks that the 2-D scenes share: a grid behind the view, a fading trail along a target's
 * path, and a chain of bones that tapers from root to tip. */
#ifndef DEMO_SCENERY2D_H
#define DEMO_SCENERY2D_H

#include "projection.h"

/* Grid lines every `spacing` scene units through the view's origin, clipped to the pixel
 * rectangle (left, top, width, height) and drawn on pixel centres so they stay crisp. */
void demo_draw_grid_2d(demo_canvas *canvas, const demo_view2d *view, double left, double top, double width,
                       double height, double spacing);

/* The picture of a 2-D scene left of an information column `info_width` wide: the largest
 * view of [min, max] that fits between the header and legend bands, with the grid drawn every
 * `grid` units. *area_right (may be NULL) gets the picture's right edge. */
demo_view2d demo_begin_view_2d(demo_canvas *canvas, reach_vec2 min, reach_vec2 max, double info_width, double grid,
                               double *area_right);

/* A path as a function of time; trails ask for times before 0 too (a looping path wraps, so
 * the first frame's trail is the end of the loop). */
typedef reach_vec2 (*demo_path_fn)(double time);

/* The last `seconds` of the path up to time t, fading out with age. */
void demo_draw_trail_2d(demo_canvas *canvas, const demo_view2d *view, demo_path_fn path, double t, double seconds,
                        demo_colour colour);

/* Bones through joints[0 .. count) (count - 1 bones), each `width` pixels wide at the root
 * narrowing to `tip_width` at the tip, with joint dots; the root in DEMO_ROOT. */
void demo_draw_chain_2d(demo_canvas *canvas, const demo_view2d *view, const reach_vec2 *joints, int count, double width,
                        double tip_width, demo_colour colour);

#endif
