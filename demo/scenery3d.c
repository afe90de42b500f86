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
        if (!demo_polygon_path_3d(canvas, camera, faces[i].corner, 4)) continue;
        demo_set_colour(cr, faces[i].colour, 1);
        cairo_fill_preserve(cr);
        /* A dark edge keeps neighbouring faces of one shade apart. */
        demo_set_colour(cr, DEMO_BACKGROUND, 1);
        cairo_stroke(cr);
    }
}

int demo_polygon_path_3d(demo_canvas *canvas, const demo_camera *camera, const reach_vec3 *points, int count) {
    cairo_t *cr = canvas->cr;
    cairo_new_path(cr);
    for (int i = 0; i < count; i++) {
        demo_point p;
        if (!demo_camera_project(camera, points[i], &p, NULL)) {
            cairo_new_path(cr);
            return 0;
        }
        cairo_line_to(cr, p.x, p.y);
    }
    cairo_close_path(cr);
    return 1;
}

void demo_draw_shadow(demo_canvas *canvas, const demo_camera *camera, reach_vec3 centre, double radius) {
    reach_vec3 rim[SHADOW_SEGMENTS];
    for (int i = 0; i < SHADOW_SEGMENTS; i++) {
        double a = 6.283185307179586 * i / SHADOW_SEGMENTS;
        rim[i] = vec3((double)centre.x + radius * cos(a), (double)centre.y, (double)centre.z + radius * sin(a));
    }
    if (!demo_polygon_path_3d(canvas, camera, rim, SHADOW_SEGMENTS)) return;
    demo_set_colour(canvas->cr, DEMO_BACKGROUND, 0.5);
    cairo_fill(canvas->cr);
}

/* ---- height fields ---------------------------------------------------------------------- */

/* Shades for lit ground: every blend with the background of the palette's slate greys (the
 * solid colours and the guide colour), so each is exact in the GIF, ordered by lightness. Many
 * close steps keep the bands that flat shading shows on a curved surface faint. */
#define RAMP_MAX    (4 * DEMO_BLEND_STEPS)
#define LINE_DARKER 14.0 /* grid lines on the ground: this much darker than their quad */
#define LIT_DARKEST 0.30 /* slopes turned from the light: this far up the ramp's range */

typedef struct shade {
    demo_rgb rgb;
    double lightness; /* 0..255 */
} shade;

static double lightness_of(demo_rgb c) { return 0.3 * c.r + 0.59 * c.g + 0.11 * c.b; }

static int lighter_last(const void *a, const void *b) {
    double la = ((const shade *)a)->lightness, lb = ((const shade *)b)->lightness;
    return (la > lb) - (la < lb);
}

static int shade_ramp(shade *ramp) {
    static const demo_colour greys[] = {DEMO_SOLID_FRONT, DEMO_SOLID_SIDE, DEMO_SOLID_TOP, DEMO_GUIDE};
    int n = 0;
    for (size_t g = 0; g < sizeof greys / sizeof greys[0]; g++) {
        for (int step = 1; step <= DEMO_BLEND_STEPS; step++) {
            ramp[n].rgb = demo_palette_blend(greys[g], step);
            ramp[n].lightness = lightness_of(ramp[n].rgb);
            n++;
        }
    }
    qsort(ramp, (size_t)n, sizeof ramp[0], lighter_last);
    return n;
}

/* The ramp's shade nearest to `lightness`. */
static demo_rgb nearest_shade(const shade *ramp, int n, double lightness) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (fabs(ramp[i].lightness - lightness) < fabs(ramp[best].lightness - lightness)) best = i;
    return ramp[best].rgb;
}

typedef struct quad {
    reach_vec3 corner[4];
    double distance;
    double lit;     /* 0 (turned from the light) to 1 (facing it) */
    int line_edges; /* bit 0: edge corner 0→1 is on a grid line, bit 1: edge 3→0 */
} quad;

static int quad_farther_first(const void *a, const void *b) {
    double da = ((const quad *)a)->distance, db = ((const quad *)b)->distance;
    return (da < db) - (da > db);
}

static double lit_of(const reach_vec3 c[4], reach_vec3 light) {
    /* The normal from the quad's diagonals: flat shading of a possibly non-planar quad. */
    reach_vec3 normal = reach_vec3_cross(reach_vec3_sub(c[2], c[0]), reach_vec3_sub(c[1], c[3]));
    normal = reach_vec3_normalize_safe(normal, vec3(0, 1, 0));
    if (normal.y < 0) normal = reach_vec3_neg(normal);
    double lit = (double)reach_vec3_dot(normal, light);
    return lit < 0 ? 0 : lit;
}

static void fill_quad(cairo_t *cr, const demo_point p[4], demo_rgb rgb) {
    cairo_move_to(cr, p[0].x, p[0].y);
    for (int k = 1; k < 4; k++)
        cairo_line_to(cr, p[k].x, p[k].y);
    cairo_close_path(cr);
    demo_set_rgb(cr, rgb);
    /* Stroking in the fill's own colour closes the hairline seams antialiasing leaves between
     * neighbouring quads. */
    cairo_fill_preserve(cr);
    cairo_stroke(cr);
}

int demo_draw_height_field(demo_canvas *canvas, const demo_camera *camera, const demo_height_field *f) {
    int nx = (int)ceil((f->x1 - f->x0) / f->cell - 1e-9), nz = (int)ceil((f->z1 - f->z0) / f->cell - 1e-9);
    if (nx < 1 || nz < 1) return 0;
    quad *quads = malloc((size_t)nx * (size_t)nz * sizeof *quads);
    if (!quads) return -1;
    int n = 0;
    for (int i = 0; i < nx; i++) {
        for (int k = 0; k < nz; k++) {
            double xa = f->x0 + i * f->cell, xb = fmin(xa + f->cell, f->x1);
            double za = f->z0 + k * f->cell, zb = fmin(za + f->cell, f->z1);
            quad *q = &quads[n++];
            q->corner[0] = vec3(xa, f->height(f->user, xa, za), za);
            q->corner[1] = vec3(xb, f->height(f->user, xb, za), za);
            q->corner[2] = vec3(xb, f->height(f->user, xb, zb), zb);
            q->corner[3] = vec3(xa, f->height(f->user, xa, zb), zb);
            reach_vec3 centre = reach_vec3_scale(reach_vec3_add(q->corner[0], q->corner[2]), (reach_real)0.5);
            q->distance = demo_camera_distance(camera, centre);
            q->lit = lit_of(q->corner, f->light);
            q->line_edges = f->line_every > 0 ? (k % f->line_every == 0) | (i % f->line_every == 0) << 1 : 0;
        }
    }
    qsort(quads, (size_t)n, sizeof quads[0], quad_farther_first);
    shade ramp[RAMP_MAX];
    int shades = shade_ramp(ramp);
    /* From the dim solid colour to the lit one. */
    double dark = lightness_of(demo_palette_blend(DEMO_SOLID_TOP, 3)),
           light = lightness_of(demo_palette_rgb(DEMO_SOLID_TOP));
    cairo_t *cr = canvas->cr;
    cairo_set_line_width(cr, 1);
    for (int i = 0; i < n; i++) {
        demo_point p[4];
        int projected = 1;
        for (int k = 0; k < 4; k++)
            projected = projected && demo_camera_project(camera, quads[i].corner[k], &p[k], NULL);
        if (!projected) continue;
        double lightness = dark + (light - dark) * (LIT_DARKEST + (1 - LIT_DARKEST) * quads[i].lit);
        fill_quad(cr, p, nearest_shade(ramp, shades, lightness));
        if (!quads[i].line_edges) continue;
        if (quads[i].line_edges & 1) {
            cairo_move_to(cr, p[0].x, p[0].y);
            cairo_line_to(cr, p[1].x, p[1].y);
        }
        if (quads[i].line_edges & 2) {
            cairo_move_to(cr, p[3].x, p[3].y);
            cairo_line_to(cr, p[0].x, p[0].y);
        }
        demo_set_rgb(cr, nearest_shade(ramp, shades, lightness - LINE_DARKER));
        cairo_stroke(cr);
    }
    free(quads);
    return 0;
}

/* ---- frames ----------------------------------------------------------------------------- */

void demo_draw_frame_axes(demo_canvas *canvas, const demo_camera *camera, reach_vec3 origin, const reach_vec3 axes[3],
                          double length, double width, int dashed) {
    static const demo_colour colours[3] = {DEMO_AXIS_X, DEMO_AXIS_Y, DEMO_AXIS_Z};
    demo_point o;
    if (!demo_camera_project(camera, origin, &o, NULL)) return;
    for (int a = 0; a < 3; a++) {
        demo_point tip;
        if (!demo_camera_project(camera, reach_vec3_mad(origin, axes[a], (reach_real)length), &tip, NULL)) continue;
        if (dashed)
            demo_draw_dashed_segment(canvas, o, tip, width, colours[a]);
        else
            demo_draw_segment(canvas, o, tip, width, colours[a], 1);
    }
}

static int item_farther_first(const void *a, const void *b) {
    double da = ((const demo_depth_item *)a)->distance, db = ((const demo_depth_item *)b)->distance;
    return (da < db) - (da > db);
}

void demo_sort_far_first(demo_depth_item *items, int count) {
    if (count > 1) qsort(items, (size_t)count, sizeof items[0], item_farther_first);
}
