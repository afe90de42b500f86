/* Cairo drawing with the demo's palette and label styles. */
#include <math.h>
#include <stddef.h>

#include "canvas.h"

#define FONT_FAMILY "DejaVu Sans"
#define TWO_PI      6.283185307179586

const char *demo_canvas_create(demo_canvas *canvas, int width, int height) {
    canvas->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(canvas->surface) != CAIRO_STATUS_SUCCESS) {
        const char *message = cairo_status_to_string(cairo_surface_status(canvas->surface));
        cairo_surface_destroy(canvas->surface);
        canvas->surface = NULL;
        return message;
    }
    canvas->cr = cairo_create(canvas->surface);
    canvas->width = width;
    canvas->height = height;
    /* Greyscale antialiasing and no hinting: subpixel colour fringes would fall outside the
     * GIF palette, and hinting would make glyphs jitter as values change. */
    cairo_font_options_t *font = cairo_font_options_create();
    cairo_font_options_set_antialias(font, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(font, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(font, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(canvas->cr, font);
    cairo_font_options_destroy(font);
    return NULL;
}

void demo_canvas_destroy(demo_canvas *canvas) {
    if (canvas->cr) cairo_destroy(canvas->cr);
    if (canvas->surface) cairo_surface_destroy(canvas->surface);
    canvas->cr = NULL;
    canvas->surface = NULL;
}

void demo_set_colour(cairo_t *cr, demo_colour colour, double alpha) {
    demo_rgb c = demo_palette_rgb(colour);
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, alpha);
}

void demo_set_rgb(cairo_t *cr, demo_rgb rgb) { cairo_set_source_rgb(cr, rgb.r / 255.0, rgb.g / 255.0, rgb.b / 255.0); }

void demo_canvas_clear(demo_canvas *canvas) {
    cairo_t *cr = canvas->cr;
    cairo_identity_matrix(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    demo_set_colour(cr, DEMO_BACKGROUND, 1);
    cairo_paint(cr);
}

const char *demo_backdrop_paint(demo_backdrop *backdrop, demo_canvas *canvas, demo_backdrop_fn draw, void *user) {
    cairo_surface_t *kept = backdrop->surface;
    if (kept && (cairo_image_surface_get_width(kept) != canvas->width ||
                 cairo_image_surface_get_height(kept) != canvas->height)) {
        cairo_surface_destroy(kept);
        backdrop->surface = kept = NULL;
    }
    if (!kept) {
        demo_canvas once;
        const char *message = demo_canvas_create(&once, canvas->width, canvas->height);
        if (message) return message;
        demo_canvas_clear(&once);
        draw(&once, user);
        backdrop->surface = cairo_surface_reference(once.surface);
        demo_canvas_destroy(&once);
    }
    cairo_save(canvas->cr);
    cairo_set_source_surface(canvas->cr, backdrop->surface, 0, 0);
    cairo_set_operator(canvas->cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(canvas->cr);
    cairo_restore(canvas->cr);
    return NULL;
}

static void stroke_line(cairo_t *cr, demo_point a, demo_point b, double width) {
    cairo_set_line_width(cr, width);
    cairo_move_to(cr, a.x, a.y);
    cairo_line_to(cr, b.x, b.y);
    cairo_stroke(cr);
}

void demo_draw_segment(demo_canvas *canvas, demo_point a, demo_point b, double width, demo_colour colour,
                       double alpha) {
    demo_set_colour(canvas->cr, colour, alpha);
    stroke_line(canvas->cr, a, b, width);
}

static void set_dash(cairo_t *cr, double width) {
    double dash[2] = {4 * width + 2, 3 * width + 2};
    cairo_set_dash(cr, dash, 2, 0);
}

void demo_draw_dashed_segment(demo_canvas *canvas, demo_point a, demo_point b, double width, demo_colour colour) {
    cairo_t *cr = canvas->cr;
    set_dash(cr, width);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    demo_draw_segment(canvas, a, b, width, colour, 1);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_dash(cr, NULL, 0, 0);
}

void demo_draw_circle(demo_canvas *canvas, demo_point centre, double radius, double width, demo_colour colour,
                      int dashed) {
    cairo_t *cr = canvas->cr;
    if (dashed) {
        set_dash(cr, width);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    }
    demo_set_colour(cr, colour, 1);
    cairo_set_line_width(cr, width);
    cairo_new_sub_path(cr);
    cairo_arc(cr, centre.x, centre.y, radius, 0, TWO_PI);
    cairo_stroke(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_dash(cr, NULL, 0, 0);
}

void demo_draw_bone(demo_canvas *canvas, demo_point a, demo_point b, double width, demo_colour colour) {
    demo_draw_segment(canvas, a, b, width + 3, DEMO_BACKGROUND, 1);
    demo_draw_segment(canvas, a, b, width, colour, 1);
}

static void fill_disc(cairo_t *cr, demo_point centre, double radius) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, centre.x, centre.y, radius, 0, TWO_PI);
    cairo_fill(cr);
}

void demo_draw_joint(demo_canvas *canvas, demo_point centre, double radius, demo_colour colour) {
    demo_set_colour(canvas->cr, DEMO_BACKGROUND, 1);
    fill_disc(canvas->cr, centre, radius + 2);
    demo_set_colour(canvas->cr, colour, 1);
    fill_disc(canvas->cr, centre, radius);
}

void demo_draw_target(demo_canvas *canvas, demo_point centre, double radius, demo_colour colour) {
    cairo_t *cr = canvas->cr;
    demo_set_colour(cr, colour, 1);
    cairo_set_line_width(cr, 2);
    cairo_new_sub_path(cr);
    cairo_arc(cr, centre.x, centre.y, radius, 0, TWO_PI);
    cairo_stroke(cr);
    double arm = radius * 1.6;
    stroke_line(cr, (demo_point){centre.x - arm, centre.y}, (demo_point){centre.x - radius * 0.4, centre.y}, 2);
    stroke_line(cr, (demo_point){centre.x + radius * 0.4, centre.y}, (demo_point){centre.x + arm, centre.y}, 2);
    stroke_line(cr, (demo_point){centre.x, centre.y - arm}, (demo_point){centre.x, centre.y - radius * 0.4}, 2);
    stroke_line(cr, (demo_point){centre.x, centre.y + radius * 0.4}, (demo_point){centre.x, centre.y + arm}, 2);
}

void demo_draw_diamond(demo_canvas *canvas, demo_point centre, double radius, demo_colour colour) {
    cairo_t *cr = canvas->cr;
    demo_set_colour(cr, colour, 1);
    cairo_move_to(cr, centre.x, centre.y - radius);
    cairo_line_to(cr, centre.x + radius, centre.y);
    cairo_line_to(cr, centre.x, centre.y + radius);
    cairo_line_to(cr, centre.x - radius, centre.y);
    cairo_close_path(cr);
    cairo_fill(cr);
}

void demo_draw_wedge(demo_canvas *canvas, demo_point centre, double radius, double from, double to, demo_colour colour,
                     double fill_alpha) {
    cairo_t *cr = canvas->cr;
    /* The picture's y grows downward, so counter-clockwise on it is clockwise for cairo. */
    cairo_move_to(cr, centre.x, centre.y);
    cairo_arc_negative(cr, centre.x, centre.y, radius, -from, -to);
    cairo_close_path(cr);
    demo_set_colour(cr, colour, fill_alpha);
    cairo_fill_preserve(cr);
    demo_set_colour(cr, colour, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
}

static void set_font(cairo_t *cr, double size, int bold) {
    cairo_select_font_face(cr, FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

double demo_draw_text(demo_canvas *canvas, double x, double y, const char *text, double size, demo_colour colour,
                      demo_align align, int bold) {
    cairo_t *cr = canvas->cr;
    set_font(cr, size, bold);
    cairo_text_extents_t extents;
    cairo_text_extents(cr, text, &extents);
    double left = x;
    if (align == DEMO_ALIGN_CENTRE) left = x - extents.x_advance / 2;
    if (align == DEMO_ALIGN_RIGHT) left = x - extents.x_advance;
    demo_set_colour(cr, colour, 1);
    cairo_move_to(cr, left, y);
    cairo_show_text(cr, text);
    cairo_new_path(cr);
    return extents.x_advance;
}

void demo_draw_field(demo_canvas *canvas, double x, double y, double label_width, const char *label, const char *value,
                     demo_colour value_colour) {
    demo_draw_text(canvas, x, y, label, 12.5, DEMO_TEXT_MUTED, DEMO_ALIGN_LEFT, 0);
    demo_draw_text(canvas, x + label_width, y, value, 13.5, value_colour, DEMO_ALIGN_LEFT, 0);
}

void demo_draw_header(demo_canvas *canvas, const char *title, const char *subtitle) {
    demo_set_colour(canvas->cr, DEMO_PANEL, 1);
    cairo_rectangle(canvas->cr, 0, 0, canvas->width, DEMO_HEADER_HEIGHT);
    cairo_fill(canvas->cr);
    demo_draw_text(canvas, DEMO_MARGIN, 27, title, 19, DEMO_TEXT, DEMO_ALIGN_LEFT, 1);
    demo_draw_text(canvas, DEMO_MARGIN, 49, subtitle, 13, DEMO_TEXT_MUTED, DEMO_ALIGN_LEFT, 0);
}

static void rounded_rectangle(cairo_t *cr, double x, double y, double w, double h, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -TWO_PI / 4, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, TWO_PI / 4);
    cairo_arc(cr, x + r, y + h - r, r, TWO_PI / 4, TWO_PI / 2);
    cairo_arc(cr, x + r, y + r, r, TWO_PI / 2, TWO_PI * 3 / 4);
    cairo_close_path(cr);
}

double demo_draw_badge(demo_canvas *canvas, double x, double y, const char *text, demo_colour colour,
                       demo_align align) {
    const double size = 14, height = 26, pad = 10, dot = 5;
    cairo_t *cr = canvas->cr;
    set_font(cr, size, 1);
    cairo_text_extents_t extents;
    cairo_text_extents(cr, text, &extents);
    double width = pad + 2 * dot + 8 + extents.x_advance + pad;
    if (align == DEMO_ALIGN_CENTRE) x -= width / 2;
    if (align == DEMO_ALIGN_RIGHT) x -= width;
    demo_set_colour(cr, DEMO_PANEL, 1);
    rounded_rectangle(cr, x, y, width, height, height / 2);
    cairo_fill_preserve(cr);
    demo_set_colour(cr, colour, 1);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    fill_disc(cr, (demo_point){x + pad + dot, y + height / 2}, dot);
    demo_draw_text(canvas, x + pad + 2 * dot + 8, y + height / 2 + size * 0.36, text, size, colour, DEMO_ALIGN_LEFT, 1);
    return width;
}

/* The mark of one legend entry, centred on (x, y), about 22 pixels wide. */
static void draw_mark(demo_canvas *canvas, demo_mark mark, demo_colour colour, double x, double y) {
    demo_point a = {x - 11, y}, b = {x + 11, y}, centre = {x, y};
    switch (mark) {
    case DEMO_MARK_LINE: demo_draw_bone(canvas, a, b, 5, colour); break;
    case DEMO_MARK_THIN: demo_draw_segment(canvas, a, b, 1.5, colour, 1); break;
    case DEMO_MARK_DASHED: demo_draw_dashed_segment(canvas, a, b, 1.5, colour); break;
    case DEMO_MARK_DOT: demo_draw_joint(canvas, centre, 5, colour); break;
    case DEMO_MARK_RING: demo_draw_target(canvas, centre, 5, colour); break;
    case DEMO_MARK_CIRCLE: demo_draw_circle(canvas, centre, 6, 2.5, colour, 0); break;
    case DEMO_MARK_DIAMOND: demo_draw_diamond(canvas, centre, 6, colour); break;
    }
}

void demo_draw_legend(demo_canvas *canvas, const demo_legend_entry *entries, int count) {
    demo_set_colour(canvas->cr, DEMO_PANEL, 1);
    cairo_rectangle(canvas->cr, 0, canvas->height - DEMO_FOOTER_HEIGHT, canvas->width, DEMO_FOOTER_HEIGHT);
    cairo_fill(canvas->cr);
    double y = canvas->height - DEMO_FOOTER_HEIGHT / 2.0;
    double x = DEMO_MARGIN + 11;
    for (int i = 0; i < count; i++) {
        draw_mark(canvas, entries[i].mark, entries[i].colour, x, y);
        x += 18;
        x += demo_draw_text(canvas, x, y + 4.5, entries[i].label, 12.5, DEMO_TEXT_MUTED, DEMO_ALIGN_LEFT, 0);
        x += 26;
    }
}
