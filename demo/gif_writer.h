/* An animated GIF written frame by frame from cairo image surfaces, over giflib.
 *
 * Frames are mapped onto the fixed palette of gif_palette.h. Each frame after the first stores
 * only the rectangle that changed since the one before (the rest stays on screen), which keeps
 * files small for scenes where a limb moves over a still background; inside that rectangle,
 * unchanged pixels are transparent. The GIF loops forever. */
#ifndef DEMO_GIF_WRITER_H
#define DEMO_GIF_WRITER_H

#include <cairo.h>

#include "gif_palette.h"

typedef struct demo_gif_writer demo_gif_writer;

/* Creates the file. Returns NULL on success, else a message (and *out is NULL). */
const char *demo_gif_writer_open(demo_gif_writer **out, const char *path, int width, int height);

/* Appends one frame shown for delay_cs hundredths of a second. The surface must be an opaque
 * image surface of the writer's size. Returns NULL on success, else a message. */
const char *demo_gif_writer_add_frame(demo_gif_writer *writer, cairo_surface_t *frame, int delay_cs);

/* Finishes the file and frees the writer (also after an error). Returns NULL or a message. */
const char *demo_gif_writer_close(demo_gif_writer *writer);

#endif
