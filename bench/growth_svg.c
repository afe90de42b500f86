/* The growth plot, written by hand as SVG: two panels over the chain length (log scale), median
 * time per solve (log scale) on the left and mean iterations on the right. */
#include "growth_svg.h"

#include <math.h>
#include <stdio.h>

static const int bones[] = {4, 8, 16, 32, 64, 128, 256};
#define POINTS ((int)(sizeof bones / sizeof bones[0]))

typedef struct series {
    const char *solver, *label, *colour;
    double time[POINTS], iterations[POINTS]; /* NaN where the figure was not recorded */
} series;

typedef struct panel {
    double left, top, width, height;
    double y_min, y_max, y_step; /* in plotted units: log10(µs) or iterations; grid step */
    int log_y;
} panel;

#define WIDTH  860
#define HEIGHT 420

static void read_series(const bench_run *run, series *s) {
    for (int i = 0; i < POINTS; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s/%d/single", s->solver, bones[i]);
        const bench_stats *time = bench_find(run, name);
        snprintf(name, sizeof name, "%s/%d/single/iterations", s->solver, bones[i]);
        const bench_stats *iterations = bench_find(run, name);
        s->time[i] = time ? time->median : NAN;
        s->iterations[i] = iterations ? iterations->median : NAN;
    }
}

static double x_of(const panel *p, int i) {
    return p->left + p->width * (log2(bones[i]) - log2(bones[0])) / (log2(bones[POINTS - 1]) - log2(bones[0]));
}

static double y_of(const panel *p, double value) {
    double v = p->log_y ? log10(value) : value;
    return p->top + p->height * (1 - (v - p->y_min) / (p->y_max - p->y_min));
}

/* Text with the XML specials escaped (the CPU name comes from the machine). */
static void xml_text(FILE *f, const char *text) {
    for (; *text; text++) {
        if (*text == '&')
            fputs("&amp;", f);
        else if (*text == '<')
            fputs("&lt;", f);
        else if (*text == '>')
            fputs("&gt;", f);
        else
            fputc(*text, f);
    }
}

static void axes(FILE *f, const panel *p, const char *title) {
    fprintf(f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='none' stroke='#444'/>\n", p->left, p->top,
            p->width, p->height);
    fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle' font-weight='bold'>%s</text>\n", p->left + p->width / 2,
            p->top - 10, title);
    for (int i = 0; i < POINTS; i++) {
        double x = x_of(p, i);
        fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>\n", x, p->top, x, p->top + p->height);
        fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle'>%d</text>\n", x, p->top + p->height + 16, bones[i]);
    }
    fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='middle'>bones</text>\n", p->left + p->width / 2,
            p->top + p->height + 34);
}

/* Horizontal grid lines, one per step. */
static void y_grid(FILE *f, const panel *p) {
    for (double v = p->y_min; v <= p->y_max + 1e-9; v += p->y_step) {
        double y = p->top + p->height * (1 - (v - p->y_min) / (p->y_max - p->y_min));
        fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#ddd'/>\n", p->left, y, p->left + p->width,
                y);
        if (p->log_y)
            fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='end'>%g</text>\n", p->left - 6, y + 4, pow(10, v));
        else
            fprintf(f, "<text x='%.1f' y='%.1f' text-anchor='end'>%g</text>\n", p->left - 6, y + 4, v);
    }
}

static void plot(FILE *f, const panel *p, const series *s, const double *values) {
    fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='", s->colour);
    for (int i = 0; i < POINTS; i++)
        if (isfinite(values[i]) && (!p->log_y || values[i] > 0))
            fprintf(f, "%.1f,%.1f ", x_of(p, i), y_of(p, values[i]));
    fputs("'/>\n", f);
    for (int i = 0; i < POINTS; i++)
        if (isfinite(values[i]) && (!p->log_y || values[i] > 0))
            fprintf(f, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'/>\n", x_of(p, i), y_of(p, values[i]), s->colour);
}

/* A dashed line through the first point of a series with slope 1 on the log-log panel: where
 * the series would go if its cost grew in proportion to the bones. */
static void linear_guide(FILE *f, const panel *p, const double *values) {
    if (!(isfinite(values[0]) && values[0] > 0)) return;
    int end = POINTS - 1;
    while (end > 0 && values[0] * bones[end] / bones[0] > pow(10, p->y_max))
        end--; /* stay inside the panel */
    double last = values[0] * bones[end] / bones[0];
    fprintf(f, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#888' stroke-dasharray='5,4'/>\n", x_of(p, 0),
            y_of(p, values[0]), x_of(p, end), y_of(p, last));
}

/* The range of the plotted values over all series, NaN-free; lo > hi when there are none. */
static void value_range(const series *all, int count, int iterations, double *lo, double *hi) {
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int k = 0; k < count; k++)
        for (int i = 0; i < POINTS; i++) {
            double v = iterations ? all[k].iterations[i] : all[k].time[i];
            if (!isfinite(v) || (!iterations && v <= 0)) continue;
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
        }
}

int growth_svg_write(const bench_run *run, const char *path) {
    series all[2] = {{"fabrik", "FABRIK", "#1f77b4", {0}, {0}}, {"ccd", "CCD", "#d62728", {0}, {0}}};
    for (int k = 0; k < 2; k++)
        read_series(run, &all[k]);
    double lo, hi;
    panel time = {70, 90, 320, 250, 0, 1, 1, 1}, iterations = {500, 90, 320, 250, 0, 10, 2, 0};
    value_range(all, 2, 0, &lo, &hi);
    if (lo <= hi) {
        time.y_min = floor(log10(lo));
        time.y_max = fmax(ceil(log10(hi)), time.y_min + 1);
    }
    value_range(all, 2, 1, &lo, &hi);
    if (lo <= hi && hi > iterations.y_max) {
        /* A round step (1, 2 or 5 times a power of ten) giving 3 to 6 grid lines. */
        double power = pow(10, floor(log10(hi))), step = hi / power > 5   ? power
                                                         : hi / power > 2 ? power / 2
                                                                          : power / 5;
        iterations.y_step = step;
        iterations.y_max = step * ceil(hi / step);
    }

    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fprintf(f,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d' "
            "font-family='sans-serif' font-size='12'>\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT);
    fputs("<rect width='100%' height='100%' fill='white'/>\n", f);
    fputs("<text x='20' y='24' font-size='15' font-weight='bold'>FABRIK and CCD: the cost of one solve against "
          "the chain's length</text>\n",
          f);
    fputs("<text x='20' y='44' fill='#555'>cold start from a straight chain, tolerance 1e-4 × chain length, at most "
          "64 iterations; dashed: time proportional to the bones</text>\n",
          f);
    axes(f, &time, "median time per solve (µs)");
    y_grid(f, &time);
    axes(f, &iterations, "mean iterations per solve");
    y_grid(f, &iterations);
    linear_guide(f, &time, all[0].time);
    for (int k = 0; k < 2; k++) {
        plot(f, &time, &all[k], all[k].time);
        plot(f, &iterations, &all[k], all[k].iterations);
        fprintf(f, "<rect x='%d' y='%d' width='14' height='4' fill='%s'/>\n", 80 + 90 * k, 404 - 4, all[k].colour);
        fprintf(f, "<text x='%d' y='%d'>%s</text>\n", 100 + 90 * k, 404, all[k].label);
    }
    const bench_machine *m = bench_machine_of(run);
    fputs("<text x='280' y='404' fill='#555'>", f);
    fprintf(f, "reach %s, %s, ", m->library_version, m->precision);
    xml_text(f, m->cpu);
    fprintf(f, ", %s</text>\n", m->date);
    fputs("</svg>\n", f);
    return fclose(f) == 0;
}
