/* Words and colours for how a solve ended, and the information column on the right of the
 * 2-D scenes: the solver, a status badge, then rows of labelled values. */
#ifndef DEMO_READOUT_H
#define DEMO_READOUT_H

#include <reach/reach.h>

#include "canvas.h"
#include "walk_run.h"

/* How a solve ended, in words: "reached"; "out of reach" when the scene knows its targets lie
 * beyond what the bones can span, whatever their limits (beyond_reach nonzero); else "held by
 * limits" when the solver reports a joint at an end of its range; else "stopped short" (the
 * solve ran out of iterations or stalled). The solver's `limited` alone cannot tell the first
 * from the second: an arm stretched toward a target too far away has its elbow straight, at the
 * end of its range. *colour gets the status colour. */
const char *demo_solve_status(const reach_solve_result *result, int beyond_reach, demo_colour *colour);

/* A distance in scene units, compactly: fixed point down to 1e-3, powers of ten below. */
void demo_format_residual(double value, char *text, size_t size);

/* The information column: rows go down from the top, each a muted label and its value. */
typedef struct demo_info {
    demo_canvas *canvas;
    double x, y;        /* where the next row's baseline starts */
    double label_width; /* from a label to its value */
} demo_info;

#define DEMO_INFO_WIDTH 200 /* the column's usual width, from the right edge */

/* Starts the column `width` pixels from the right edge: a "solver" row and a status badge. */
demo_info demo_info_begin(demo_canvas *canvas, double width, double label_width, const char *solver, const char *status,
                          demo_colour status_colour);
void demo_info_row(demo_info *info, const char *label, const char *value, demo_colour colour);
/* A line of muted text, after a little space. */
void demo_info_note(demo_info *info, const char *text);

/* The column every walker scene starts with: the legs' solver and whether every foot is where
 * its leg ends, then the legs' residual, planted feet, steps this lap and forced steps. */
demo_info demo_walk_info(demo_canvas *canvas, const demo_walk *walk, double width, double label_width);

#endif
