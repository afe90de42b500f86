/* Small line plots over time, drawn with cairo: a framed data area with labelled ticks, a
 * title, series as polylines, reference lines and a cursor at the present moment. */
#ifndef DEMO_PLOT_H
#define DEMO_PLOT_H

#include "canvas.h"

typedef struct demo_plot {
    double left, top, width, height; /* the data area, pixels; tick labels go left of it and
                                        under it, the title above it */
    double x_min, x_max;
    double y_min, y_max; /* with log_y: values > 0, drawn on a log10 scale */
    int log_y;
    const char *title;   /* above the data area, left: what y is */
    const char *x_label; /* under the x ticks, right: what x is. x ticks are labelled only
                            when there is one (stacked plots label the bottom one) */
} demo_plot;

/* Pixels of (x, y), with y clamped into the plot's range (and non-positive values to y_min
 * on a log scale), so a series never leaves its frame. */
demo_point demo_plot_point(const demo_plot *plot, double x, double y);

/* The frame, ticks at y_ticks (labelled "%g", or as powers of ten on a log scale) and every
 * x_step along x (labelled "%g" but for the last, where the x label goes), the title and the
 * x label. */
void demo_plot_axes(demo_canvas *canvas, const demo_plot *plot, const double *y_ticks, int y_tick_count, double x_step);

/* A polyline through (x[i], y[i]) for i in [0, count). */
void demo_plot_series(demo_canvas *canvas, const demo_plot *plot, const double *x, const double *y, int count,
                      demo_colour colour, double width);

/* A dashed horizontal line at y, with a label at its right end (NULL for none). */
void demo_plot_level(demo_canvas *canvas, const demo_plot *plot, double y, demo_colour colour, const char *label);

/* A vertical line at x: where the animation is now. */
void demo_plot_cursor(demo_canvas *canvas, const demo_plot *plot, double x, demo_colour colour);

#endif
