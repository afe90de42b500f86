/* Solve status in words. */
#include <stdio.h>

#include "readout.h"

const char *demo_solve_status(const reach_solve_result *result, int beyond_reach, demo_colour *colour) {
    *colour = result->reached ? DEMO_REACHED : DEMO_UNREACHED;
    if (result->reached) return "reached";
    if (beyond_reach) return "out of reach";
    return result->limited ? "held by limits" : "stopped short";
}

void demo_format_residual(double value, char *text, size_t size) {
    if (value >= 1e-3 || value == 0)
        snprintf(text, size, "%.4f", value);
    else
        snprintf(text, size, "%.1e", value);
}

#define ROW 22

demo_info demo_info_begin(demo_canvas *canvas, double width, double label_width, const char *solver, const char *status,
                          demo_colour status_colour) {
    demo_info info = {canvas, canvas->width - width, DEMO_HEADER_HEIGHT + 24, label_width};
    demo_draw_field(canvas, info.x, info.y, label_width, "solver", solver, DEMO_TEXT);
    demo_draw_badge(canvas, info.x, info.y + 16, status, status_colour, DEMO_ALIGN_LEFT);
    info.y += 74;
    return info;
}

void demo_info_row(demo_info *info, const char *label, const char *value, demo_colour colour) {
    demo_draw_field(info->canvas, info->x, info->y, info->label_width, label, value, colour);
    info->y += ROW;
}

void demo_info_note(demo_info *info, const char *text) {
    demo_draw_text(info->canvas, info->x, info->y + 8, text, 12.5, DEMO_TEXT_MUTED, DEMO_ALIGN_LEFT, 0);
    info->y += ROW - 4;
}

/* Legs solved this close count as reaching their feet. */
#define FOOT_TOLERANCE 1e-4

demo_info demo_walk_info(demo_canvas *canvas, const demo_walk *walk, double width, double label_width) {
    const reach_walker *w = &walk->walker;
    int planted = 0, steps = 0;
    for (int i = 0; i < w->leg_count; i++) {
        planted += w->legs[i].planted != 0;
        steps += w->legs[i].steps;
    }
    double residual = demo_walk_residual(w);
    demo_colour colour = residual < FOOT_TOLERANCE ? DEMO_REACHED : DEMO_UNREACHED;
    demo_info info = demo_info_begin(canvas, width, label_width, "two-bone legs",
                                     residual < FOOT_TOLERANCE ? "feet reached" : "foot missed", colour);
    char value[48];
    demo_format_residual(residual, value, sizeof value);
    demo_info_row(&info, "residual", value, colour);
    snprintf(value, sizeof value, "%d of %d", planted, w->leg_count);
    demo_info_row(&info, "planted", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%d this lap", steps - walk->lap_start_steps);
    demo_info_row(&info, "steps", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%ld", w->forced_steps);
    demo_info_row(&info, "forced", value, DEMO_TEXT);
    return info;
}
