/* Scenery for 3-D scenes: a ground grid and solid axis-aligned boxes (steps, blocks, terrain)
 * drawn through a demo_camera, flat-shaded with the palette's solid colours. */
#ifndef DEMO_SCENERY3D_H
#define DEMO_SCENERY3D_H

#include "projection.h"

/* An axis-aligned box from min to max corner, y up. */
typedef struct demo_box {
    reach_vec3 min, max;
} demo_box;

/* Grid lines on the plane y = 0 over [x0, x1] × [z0, z1], every `step`. */
void demo_draw_ground_grid(demo_canvas *canvas, const demo_camera *camera, double x0, double x1, double z0, double z1,
                           double step);

/* The faces of the boxes that face the camera, far ones first (painter's algorithm). Good for
 * boxes that do not interpenetrate, such as a flight of steps built as columns. At most
 * DEMO_MAX_BOXES boxes are drawn. */
#define DEMO_MAX_BOXES 64
void demo_draw_boxes(demo_canvas *canvas, const demo_camera *camera, const demo_box *boxes, int count);

/* A soft shadow: a flat disc of `radius` on the horizontal plane through `centre`. */
void demo_draw_shadow(demo_canvas *canvas, const demo_camera *camera, reach_vec3 centre, double radius);

#endif
