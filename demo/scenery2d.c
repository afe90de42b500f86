/* Grid, trail and chain in a 2-D view. */
#include <math.h>

#include "scenery2d.h"

#define TRAIL_SAMPLES 30

void demo_draw_grid_2d(demo_canvas *canvas, const demo_view2d *view, double left, double top, double width,
                       double height, double spacing) {
    cairo_t *cr = canvas->cr;
    cairo_save(cr);
    cairo_rectangle(cr, left, top, width, height);
    cairo_clip(cr);
    demo_set_colour(cr, DEMO_GRID, 1);
    cairo_set_line_width(cr, 1);
    double step = spacing * view->scale;
    /* The first line left of (above) the rectangle, then every step across it. */
    double x0 = view->origin_x - ceil((view->origin_x - left) / step) * step;
    double y0 = view->origin_y - ceil((view->origin_y - top) / step) * step;
    for (double x = x0; x <= left + width; x += step) {
        cairo_move_to(cr, floor(x) + 0.5, top);
        cairo_line_to(cr, floor(x) + 0.5, top + height);
    }
    for (double y = y0; y <= top + height; y += step) {
        cairo_move_to(cr, left, floor(y) + 0.5);
        cairo_line_to(cr, left + width, floor(y) + 0.5);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

demo_view2d demo_begin_view_2d(demo_canvas *canvas, reach_vec2 min, reach_vec2 max, double info_width, double grid,
                               double *area_right) {
    double right = canvas->width - info_width - DEMO_MARGIN;
    double top = DEMO_HEADER_HEIGHT, height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    demo_view2d view = demo_view2d_fit(min, max, DEMO_MARGIN, top + 8, right - DEMO_MARGIN, height - 16);
    demo_draw_grid_2d(canvas, &view, 0, top, right, height, grid);
    if (area_right) *area_right = right;
    return view;
}

void demo_draw_trail_2d(demo_canvas *canvas, const demo_view2d *view, demo_path_fn path, double t, double seconds,
                        demo_colour colour) {
    /* Butt caps: round ones would overlap at every joint and show as beads. */
    cairo_set_line_cap(canvas->cr, CAIRO_LINE_CAP_BUTT);
    for (int k = 0; k < TRAIL_SAMPLES; k++) {
        double t0 = t - seconds * k / TRAIL_SAMPLES, t1 = t - seconds * (k + 1) / TRAIL_SAMPLES;
        double fade = 1.0 - (double)k / TRAIL_SAMPLES;
        demo_draw_segment(canvas, demo_view2d_point(view, path(t0)), demo_view2d_point(view, path(t1)), 2.5, colour,
                          0.85 * fade);
    }
    cairo_set_line_cap(canvas->cr, CAIRO_LINE_CAP_ROUND);
}

void demo_draw_chain_2d(demo_canvas *canvas, const demo_view2d *view, const reach_vec2 *joints, int count, double width,
                        double tip_width, demo_colour colour) {
    int bones = count - 1;
    for (int i = 0; i < bones; i++) {
        double w = bones > 1 ? width + (tip_width - width) * i / (bones - 1) : width;
        demo_draw_bone(canvas, demo_view2d_point(view, joints[i]), demo_view2d_point(view, joints[i + 1]), w, colour);
    }
    for (int i = 1; i < count; i++) {
        double w = bones > 1 ? width + (tip_width - width) * (i - 1) / (bones - 1) : width;
        demo_draw_joint(canvas, demo_view2d_point(view, joints[i]), 0.45 * w + 1, i == count - 1 ? colour : DEMO_JOINT);
    }
    demo_draw_joint(canvas, demo_view2d_point(view, joints[0]), 0.6 * width + 2, DEMO_ROOT);
}
