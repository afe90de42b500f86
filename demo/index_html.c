/* A static page generated from the scene table; file names are relative, so the folder can
 * be moved or served as it is. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "index_html.h"

static void put_escaped(FILE *f, const char *text) {
    for (const char *c = text; *c; c++) {
        switch (*c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*c, f); break;
        }
    }
}

static void put_style(FILE *f) {
    char background[8], panel[8], text[8], muted[8], accent[8];
    demo_palette_css(DEMO_BACKGROUND, background);
    demo_palette_css(DEMO_PANEL, panel);
    demo_palette_css(DEMO_TEXT, text);
    demo_palette_css(DEMO_TEXT_MUTED, muted);
    demo_palette_css(DEMO_TARGET, accent);
    fprintf(f,
            "<style>\n"
            "body { background: %s; color: %s; font: 16px/1.5 \"DejaVu Sans\", sans-serif; margin: 2em auto;"
            " max-width: 1000px; padding: 0 1em; }\n"
            "h1 { font-size: 1.6em; margin-bottom: 0.2em; }\n"
            "p.lead, p.caption, p.meta { color: %s; }\n"
            "section { background: %s; border-radius: 8px; padding: 1em; margin: 1.5em 0; }\n"
            "section h2 { margin: 0; }\n"
            "img { display: block; max-width: 100%%; height: auto; border-radius: 4px; }\n"
            "a { color: %s; }\n"
            "</style>\n",
            background, text, muted, panel, accent);
}

/* Each animation prints its own title in its header, so the section's heading is the image
 * itself, named by its title: the title shows once, and is read once. */
static void put_scene(FILE *f, const demo_scene *scene, const demo_render_result *result) {
    fprintf(f, "<section id=\"%s\">\n<h2><img src=\"%s.gif\" width=\"%d\" height=\"%d\" alt=\"", scene->name,
            scene->name, scene->width, scene->height);
    put_escaped(f, scene->title);
    fputs("\"></h2>\n<p class=\"caption\">", f);
    put_escaped(f, scene->caption);
    fprintf(f,
            "</p>\n<p class=\"meta\">%d frames, %.1f s &middot; <a href=\"%s.gif\">GIF</a> &middot; "
            "<a href=\"%s.png\">still</a></p>\n</section>\n",
            result->frames, result->seconds, scene->name, scene->name);
}

int demo_write_index_html(const char *path, const demo_scene *const *scenes, const demo_render_result *results,
                          int count, char *error, size_t error_size) {
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(error, error_size, "%s: %s", path, strerror(errno));
        return -1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>reach: inverse kinematics, rendered</title>\n",
          f);
    put_style(f);
    fputs("</head>\n<body>\n<h1>reach, rendered</h1>\n"
          "<p class=\"lead\">Scripted targets move; every joint angle below is solved by the reach library, "
          "frame by frame.</p>\n",
          f);
    for (int i = 0; i < count; i++)
        put_scene(f, scenes[i], &results[i]);
    fputs("</body>\n</html>\n", f);
    int failed = ferror(f);
    if (fclose(f) != 0 || failed) {
        snprintf(error, error_size, "%s: could not write the page", path);
        return -1;
    }
    return 0;
}
