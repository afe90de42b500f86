/* out/index.html: every rendered scene with its title, caption, animation and still. */
#ifndef DEMO_INDEX_HTML_H
#define DEMO_INDEX_HTML_H

#include <stddef.h>

#include "render.h"

/* Writes the page to path; results[i] belongs to scenes[i]. Returns 0, or -1 with a message. */
int demo_write_index_html(const char *path, const demo_scene *const *scenes, const demo_render_result *results,
                          int count, char *error, size_t error_size);

#endif
