/* Line plots: axes, series, levels and cursor. */
#include <math.h>
#include <stdio.h>

#include "plot.h"

#define TICK_FONT  10.5
#define TITLE_FONT 11.5

static double y_fraction(const demo_plot *plot, double y) {
    if (plot->log_y) {
        double lo = log10(plot->y_min), hi = log10(plot->y_max);
        double v = y > plot->y_min ? log10(y) : lo;
        return (v - lo) / (hi - lo);
    }
    return (y - plot->y_min) / (plot->y_max - plot->y_min);
}

demo_point demo_plot_point(const demo_plot *plot, double x, double y) {
    double fx = (x - plot->x_min) / (plot->x_max - plot->x_min), fy = y_fraction(plot, y);
    fy = fy < 0 ? 0 : (fy > 1 ? 1 : fy);
    demo_point p = {plot->left + fx * plot->width, plot->top + (1 - fy) * plot->height};
    return p;
}

static void y_tick_label(const demo_plot *plot, double value, char *text, size_t size) {
    if (!plot->log_y) {
        snprintf(text, size, "%g", value);
        return;
    }
    int power = (int)lround(log10(value));
    if (power == 0)
        snprintf(text, size, "1");
    else
        snprintf(text, size, "1e%d", power);
}

void demo_plot_axes(demo_canvas *canvas, const demo_plot *plot, const double *y_ticks, int y_tick_count,
                    double x_step) {
    cairo_t *cr = canvas->cr;
    double right = plot->left + plot->width, bottom = plot->top + plot->height;
    char text[32];
    /* Faint lines across the data area at each y tick, then the frame over them. */
    demo_set_colour(cr, DEMO_GRID, 1);
    cairo_set_line_width(cr, 1);
    for (int i = 0; i < y_tick_count; i++) {
        double y = floor(demo_plot_point(plot, plot->x_min, y_ticks[i]).y) + 0.5;
        cairo_move_to(cr, plot->left, y);
        cairo_line_to(cr, right, y);
    }
    cairo_stroke(cr);
    for (int i = 0; i < y_tick_count; i++) {
        double y = demo_plot_point(plot, plot->x_min, y_ticks[i]).y;
        y_tick_label(plot, y_ticks[i], text, sizeof text);
        demo_draw_text(canvas, plot->left - 4, y + 3.5, text, TICK_FONT, DEMO_TEXT_MUTED, DEMO_ALIGN_RIGHT, 0);
    }
    int x_ticks = (int)floor((plot->x_max - plot->x_min) / x_step + 1e-9);
    for (int i = 0; i <= x_ticks; i++) {
        double value = plot->x_min + i * x_step;
        double x = floor(demo_plot_point(plot, value, plot->y_min).x) + 0.5;
        demo_draw_segment(canvas, (demo_point){x, bottom}, (demo_point){x, bottom + 3}, 1, DEMO_GUIDE, 1);
        /* The last tick's place is the x label's. */
        if (!plot->x_label || i == x_ticks) continue;
        snprintf(text, sizeof text, "%g", value);
        demo_draw_text(canvas, x, bottom + 14, text, TICK_FONT, DEMO_TEXT_MUTED, DEMO_ALIGN_CENTRE, 0);
    }
    demo_set_colour(cr, DEMO_GUIDE, 1);
    cairo_rectangle(cr, floor(plot->left) + 0.5, floor(plot->top) + 0.5, floor(plot->width), floor(plot->height));
    cairo_stroke(cr);
    demo_draw_text(canvas, plot->left, plot->top - 5, plot->title, TITLE_FONT, DEMO_TEXT, DEMO_ALIGN_LEFT, 0);
    if (plot->x_label)
        demo_draw_text(canvas, right, bottom + 14, plot->x_label, TICK_FONT, DEMO_TEXT_MUTED, DEMO_ALIGN_RIGHT, 0);
}

void demo_plot_series(demo_canvas *canvas, const demo_plot *plot, const double *x, const double *y, int count,
                      demo_colour colour, double width) {
    if (count < 1) return;
    cairo_t *cr = canvas->cr;
    for (int i = 0; i < count; i++) {
        demo_point p = demo_plot_point(plot, x[i], y[i]);
        cairo_line_to(cr, p.x, p.y);
    }
    demo_set_colour(cr, colour, 1);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

void demo_plot_level(demo_canvas *canvas, const demo_plot *plot, double y, demo_colour colour, const char *label) {
    demo_point a = demo_plot_point(plot, plot->x_min, y), b = demo_plot_point(plot, plot->x_max, y);
    demo_draw_dashed_segment(canvas, a, b, 1, colour);
    if (label) demo_draw_text(canvas, b.x - 3, b.y - 3, label, TICK_FONT, colour, DEMO_ALIGN_RIGHT, 0);
}

void demo_plot_cursor(demo_canvas *canvas, const demo_plot *plot, double x, demo_colour colour) {
    double px = demo_plot_point(plot, x, plot->y_min).x;
    demo_draw_segment(canvas, (demo_point){px, plot->top}, (demo_point){px, plot->top + plot->height}, 1, colour, 1);
}
