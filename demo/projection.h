/* From scene coordinates to pixels: a 2-D view (uniform scale, y up) and a 3-D pinhole camera
 * (perspective), both for the canvas of canvas.h. Scene coordinates are reach's own vectors,
 * so scenes hand solver output straight to the drawing code. */
#ifndef DEMO_PROJECTION_H
#define DEMO_PROJECTION_H

#include <reach/reach.h>

#include "canvas.h"

/* ---- 2-D -------------------------------------------------------------------------------- */

typedef struct demo_view2d {
    double origin_x, origin_y; /* pixel of the scene's (0, 0) */
    double scale;              /* pixels per scene unit */
} demo_view2d;

/* The largest view that shows the scene rectangle [min, max] centred in the pixel rectangle
 * (left, top, width, height). */
demo_view2d demo_view2d_fit(reach_vec2 min, reach_vec2 max, double left, double top, double width, double height);
demo_point demo_view2d_point(const demo_view2d *view, reach_vec2 p);

/* ---- 3-D -------------------------------------------------------------------------------- */

typedef struct demo_camera {
    reach_vec3 eye;
    reach_vec3 right, up, forward; /* orthonormal camera axes in scene space */
    double focal;                  /* pixels per unit at depth 1 */
    double centre_x, centre_y;     /* pixel the camera looks through */
} demo_camera;

/* A camera at eye looking at look_at, with up roughly up; focal in pixels (the view's half
 * width divided by the tangent of half the field of view). */
demo_camera demo_camera_look_at(reach_vec3 eye, reach_vec3 look_at, reach_vec3 up, double focal, double centre_x,
                                double centre_y);

/* Projects p; *depth is its distance in front of the camera along the view direction.
 * Returns 0 (and leaves *pixel alone) for points too close to or behind the eye. */
int demo_camera_project(const demo_camera *camera, reach_vec3 p, demo_point *pixel, double *depth);

/* Pixels per scene unit at p's depth: for widths and radii that shrink with distance. */
double demo_camera_scale_at(const demo_camera *camera, reach_vec3 p);

/* Distance from the eye, for painter's-algorithm ordering (far things first). */
double demo_camera_distance(const demo_camera *camera, reach_vec3 p);

/* The demo's 3-D scenery is y up. Robots and the walker are z up: this turns a z-up point or
 * direction into the scenery's frame (x stays, z becomes y, y becomes -z), a rotation, so
 * handedness and lengths are kept. */
reach_vec3 demo_from_z_up(reach_vec3 p);

#endif
