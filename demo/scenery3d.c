/* Ground grid, shaded boxes and contact shadows in perspective. */
#include <math.h>
#include <stdlib.h>

#include "scenery3d.h"

#define FACES_PER_BOX   6
#define SHADOW_SEGMENTS 24

typedef struct face {
    reach_vec3 corner[4];
    demo_colour colour;
    double distance; /* eye to the face's centre */
} face;

static reach_vec3 vec3(double x, double y, double z) {
    return reach_vec3_make((reach_real)x, (reach_real)y, (reach_real)z);
}

static void grid_line(demo_canvas *canvas, const demo_camera *camera, reach_vec3 a, reach_vec3 b) {
    demo_point pa, pb;
    if (!demo_camera_project(camera, a, &pa, NULL) || !demo_camera_project(camera, b, &pb, NULL)) return;
    cairo_move_to(canvas->cr, pa.x, pa.y);
    cairo_line_to(canvas->cr, pb.x, pb.y);
}

void demo_draw_ground_grid(demo_canvas *canvas, const demo_camera *camera, double x0, double x1, double z0, double z1,
                           double step) {
    int nx = (int)floor((x1 - x0) / step + 0.5), nz = (int)floor((z1 - z0) / step + 0.5);
    for (int i = 0; i <= nx; i++)
        grid_line(canvas, camera, vec3(x0 + i * step, 0, z0), vec3(x0 + i * step, 0, z1));
    for (int i = 0; i <= nz; i++)
        grid_line(canvas, camera, vec3(x0, 0, z0 + i * step), vec3(x1, 0, z0 + i * step));
    demo_set_colour(canvas->cr, DEMO_GRID, 1);
    cairo_set_line_width(canvas->cr, 1);
    cairo_stroke(canvas->cr);
}

/* The box's six faces, each with an outward normal: kept when it faces the eye. */
static int visible_faces(const demo_camera *camera, const demo_box *b, face *out) {
    reach_vec3 lo = b->min, hi = b->max;
    struct {
        reach_vec3 c[4];
        reach_vec3 normal;
        demo_colour colour;
    } all[FACES_PER_BOX] = {
        {{{lo.x, hi.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}}, {0, 1, 0}, DEMO_SOLID_TOP},
        {{{lo.x, lo.y, lo.z}, {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, lo.y, lo.z}},
         {0, -1, 0},
         DEMO_SOLID_FRONT},
        {{{lo.x, lo.y, lo.z}, {lo.x, hi.y, lo.z}, {lo.x, hi.y, hi.z}, {lo.x, lo.y, hi.z}},
         {-1, 0, 0},
         DEMO_SOLID_FRONT},
        {{{hi.x, lo.y, lo.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {hi.x, hi.y, lo.z}}, {1, 0, 0}, DEMO_SOLID_FRONT},
        {{{lo.x, lo.y, hi.z}, {lo.x, hi.y, hi.z}, {hi.x, hi.y, hi.z}, {hi.x, lo.y, hi.z}}, {0, 0, 1}, DEMO_SOLID_SIDE},
        {{{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z}}, {0, 0, -1}, DEMO_SOLID_SIDE},
    };
    int count = 0;
    for (int i = 0; i < FACES_PER_BOX; i++) {
        reach_vec3 centre = reach_vec3_scale(
            reach_vec3_add(reach_vec3_add(all[i].c[0], all[i].c[1]), reach_vec3_add(all[i].c[2], all[i].c[3])),
            (reach_real)0.25);
        if (reach_vec3_dot(all[i].normal, reach_vec3_sub(camera->eye, centre)) <= 0) continue;
        for (int k = 0; k < 4; k++)
            out[count].corner[k] = all[i].c[k];
        out[count].colour = all[i].colour;
        out[count].distance = demo_camera_distance(camera, centre);
        count++;
    }
    return count;
}

static int farther_first(const void *a, const void *b) {
    double da = ((const face *)a)->distance, db = ((const face *)b)->distance;
    return (da < db) - (da > db);
}

void demo_draw_boxes(demo_canvas *canvas, const demo_camera *camera, const demo_box *boxes, int count) {
    face faces[DEMO_MAX_BOXES * FACES_PER_BOX];
    int n = 0;
    if (count > DEMO_MAX_BOXES) count = DEMO_MAX_BOXES;
    for (int i = 0; i < count; i++)
        n += visible_faces(camera, &boxes[i], faces + n);
    qsort(faces, (size_t)n, sizeof faces[0], farther_first);
    cairo_t *cr = canvas->cr;
    cairo_set_line_width(cr, 1);
    for (int i = 0; i < n; i++) {
        demo_point corner[4];
        int projected = 1;
        for (int k = 0; k < 4; k++)
            projected = projected && demo_camera_project(camera, faces[i].corner[k], &corner[k], NULL);
        if (!projected) continue;
        cairo_move_to(cr, corner[0].x, corner[0].y);
        for (int k = 1; k < 4; k++)
            cairo_line_to(cr, corner[k].x, corner[k].y);
        cairo_close_path(cr);
        demo_set_colour(cr, faces[i].colour, 1);
        cairo_fill_preserve(cr);
        /* A dark edge keeps neighbouring faces of one shade apart. */
        demo_set_colour(cr, DEMO_BACKGROUND, 1);
        cairo_stroke(cr);
    }
}

void demo_draw_shadow(demo_canvas *canvas, const demo_camera *camera, reach_vec3 centre, double radius) {
    cairo_t *cr = canvas->cr;
    for (int i = 0; i < SHADOW_SEGMENTS; i++) {
        double a = 6.283185307179586 * i / SHADOW_SEGMENTS;
        demo_point p;
        if (!demo_camera_project(
                camera, vec3((double)centre.x + radius * cos(a), (double)centre.y, (double)centre.z + radius * sin(a)),
                &p, NULL)) {
            cairo_new_path(cr);
            return;
        }
        cairo_line_to(cr, p.x, p.y);
    }
    cairo_close_path(cr);
    demo_set_colour(cr, DEMO_BACKGROUND, 0.5);
    cairo_fill(cr);
}
