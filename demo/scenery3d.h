/* Scenery for 3-D scenes: a ground grid, solid axis-aligned boxes (steps, blocks) and height
 * fields (terrain) drawn through a demo_camera, flat-shaded with the palette's solid colours;
 * contact shadows and coordinate frames. */
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

/* Starts a closed path through the projections of points[0 .. count). Returns 0, with no
 * path, when one of them is too close to or behind the eye. */
int demo_polygon_path_3d(demo_canvas *canvas, const demo_camera *camera, const reach_vec3 *points, int count);

/* A soft shadow: a flat disc of `radius` on the horizontal plane through `centre`. */
void demo_draw_shadow(demo_canvas *canvas, const demo_camera *camera, reach_vec3 centre, double radius);

/* Ground given by its height: y = height(user, x, z), scene units. */
typedef double (*demo_height_fn)(void *user, double x, double z);

typedef struct demo_height_field {
    demo_height_fn height;
    void *user;
    double x0, x1, z0, z1; /* the area drawn */
    double cell;           /* quad size */
    int line_every;        /* a grid line along every this many cells' edges; 0 for none */
    reach_vec3 light;      /* unit vector toward the light */
} demo_height_field;

/* The field as flat-shaded quads, far ones first (painter's algorithm, right for a height
 * field seen from above it). Each quad's shade is one of the solid colour's blends with the
 * background (palette.h), picked by how squarely it faces the light, so shades are exact in
 * the GIF and show slopes as bands. Returns 0, or -1 when memory for the quads ran out. */
int demo_draw_height_field(demo_canvas *canvas, const demo_camera *camera, const demo_height_field *field);

/* A coordinate frame at `origin`: its x, y and z axes (scene space, unit) `length` long in
 * the palette's axis colours, dashed when `dashed` (a target frame), solid otherwise. */
void demo_draw_frame_axes(demo_canvas *canvas, const demo_camera *camera, reach_vec3 origin, const reach_vec3 axes[3],
                          double length, double width, int dashed);

/* Something drawn in 3-D (its index in the caller's list) and its distance from the eye. */
typedef struct demo_depth_item {
    int index;
    double distance;
} demo_depth_item;

/* Sorts items farthest first: the painter's order. */
void demo_sort_far_first(demo_depth_item *items, int count);

#endif
