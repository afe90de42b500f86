/* Streaming animated GIF output with giflib 5. */
#include <errno.h>
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gif_writer.h"

struct demo_gif_writer {
    FILE *file;
    GifFileType *gif;
    int width, height;
    int frames;
    demo_gif_palette palette;
    unsigned char *indices;  /* this frame, width * height */
    unsigned char *previous; /* the frame before, as it is on screen */
    unsigned char *line;     /* one row of the stored rectangle */
};

typedef struct rect {
    int left, top, width, height;
} rect;

static const char *gif_error(int code) {
    const char *message = GifErrorString(code);
    return message ? message : "unknown giflib error";
}

/* The NETSCAPE2.0 application block: loop count 0 plays the animation forever. */
static int put_loop_forever(GifFileType *gif) {
    static const unsigned char loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR) return GIF_ERROR;
    if (EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR) return GIF_ERROR;
    if (EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR) return GIF_ERROR;
    return EGifPutExtensionTrailer(gif);
}

/* giflib hands encoded bytes here; the file is ours, so it gets the usual permissions. */
static int write_bytes(GifFileType *gif, const GifByteType *bytes, int count) {
    return (int)fwrite(bytes, 1, (size_t)count, (FILE *)gif->UserData);
}

/* Frees what open allocated, closing the GIF stream and the file if they are open. */
static const char *destroy(demo_gif_writer *w) {
    const char *message = NULL;
    int error = 0;
    if (w->gif && EGifCloseFile(w->gif, &error) == GIF_ERROR) message = gif_error(error);
    if (w->file && fclose(w->file) != 0 && !message) message = strerror(errno);
    free(w->indices);
    free(w->previous);
    free(w->line);
    free(w);
    return message;
}

static const char *put_header(demo_gif_writer *w) {
    GifColorType colours[DEMO_GIF_COLOURS];
    for (int i = 0; i < DEMO_GIF_COLOURS; i++) {
        colours[i].Red = w->palette.colours[i].r;
        colours[i].Green = w->palette.colours[i].g;
        colours[i].Blue = w->palette.colours[i].b;
    }
    ColorMapObject *map = GifMakeMapObject(DEMO_GIF_COLOURS, colours);
    if (!map) return "out of memory";
    /* Frame delays, transparency and looping are GIF89a extensions. */
    EGifSetGifVersion(w->gif, true);
    int status = EGifPutScreenDesc(w->gif, w->width, w->height, 8, 0, map);
    GifFreeMapObject(map);
    if (status == GIF_ERROR || put_loop_forever(w->gif) == GIF_ERROR) return gif_error(w->gif->Error);
    return NULL;
}

const char *demo_gif_writer_open(demo_gif_writer **out, const char *path, int width, int height) {
    *out = NULL;
    if (width <= 0 || height <= 0 || width > 65535 || height > 65535) return "GIF size out of range";
    demo_gif_writer *w = calloc(1, sizeof *w);
    if (!w) return "out of memory";
    size_t pixels = (size_t)width * (size_t)height;
    w->width = width;
    w->height = height;
    w->indices = malloc(pixels);
    w->previous = malloc(pixels);
    w->line = malloc((size_t)width);
    if (!w->indices || !w->previous || !w->line) {
        destroy(w);
        return "out of memory";
    }
    demo_gif_palette_build(&w->palette);
    w->file = fopen(path, "wb");
    if (!w->file) {
        const char *message = strerror(errno);
        destroy(w);
        return message;
    }
    int error = 0;
    w->gif = EGifOpen(w->file, write_bytes, &error);
    const char *message = w->gif ? put_header(w) : gif_error(error);
    if (message) {
        destroy(w);
        return message;
    }
    *out = w;
    return NULL;
}

/* The smallest rectangle holding every pixel that differs from the previous frame; the whole
 * frame for the first one, and one pixel when nothing changed (the frame still takes its time). */
static rect changed_rect(const demo_gif_writer *w) {
    rect whole = {0, 0, w->width, w->height};
    if (w->frames == 0) return whole;
    int left = w->width, right = -1, top = w->height, bottom = -1;
    for (int y = 0; y < w->height; y++) {
        const unsigned char *now = w->indices + (size_t)y * (size_t)w->width;
        const unsigned char *before = w->previous + (size_t)y * (size_t)w->width;
        if (memcmp(now, before, (size_t)w->width) == 0) continue;
        int x0 = 0, x1 = w->width - 1;
        while (now[x0] == before[x0])
            x0++;
        while (now[x1] == before[x1])
            x1--;
        if (x0 < left) left = x0;
        if (x1 > right) right = x1;
        if (y < top) top = y;
        bottom = y;
    }
    if (bottom < 0) {
        rect one = {0, 0, 1, 1};
        return one;
    }
    rect r = {left, top, right - left + 1, bottom - top + 1};
    return r;
}

const char *demo_gif_writer_add_frame(demo_gif_writer *w, cairo_surface_t *frame, int delay_cs) {
    if (cairo_surface_get_type(frame) != CAIRO_SURFACE_TYPE_IMAGE || cairo_image_surface_get_width(frame) != w->width ||
        cairo_image_surface_get_height(frame) != w->height)
        return "frame is not an image of the GIF's size";
    if (delay_cs < 0 || delay_cs > 65535) return "frame delay out of range";
    demo_gif_palette_map_surface(&w->palette, frame, w->indices);
    rect r = changed_rect(w);

    /* After the first frame, pixels that did not change are transparent: the frame before
     * shows through, and the long runs of one index compress well. */
    int transparent = w->frames > 0 ? DEMO_GIF_TRANSPARENT : NO_TRANSPARENT_COLOR;
    GraphicsControlBlock control = {DISPOSE_DO_NOT, false, delay_cs, transparent};
    GifByteType extension[4];
    EGifGCBToExtension(&control, extension);
    if (EGifPutExtension(w->gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_ERROR ||
        EGifPutImageDesc(w->gif, r.left, r.top, r.width, r.height, false, NULL) == GIF_ERROR)
        return gif_error(w->gif->Error);
    for (int y = r.top; y < r.top + r.height; y++) {
        size_t start = (size_t)y * (size_t)w->width + (size_t)r.left;
        for (int x = 0; x < r.width; x++) {
            unsigned char now = w->indices[start + (size_t)x];
            w->line[x] = w->frames > 0 && now == w->previous[start + (size_t)x] ? DEMO_GIF_TRANSPARENT : now;
        }
        if (EGifPutLine(w->gif, w->line, r.width) == GIF_ERROR) return gif_error(w->gif->Error);
    }
    unsigned char *swap = w->previous;
    w->previous = w->indices;
    w->indices = swap;
    w->frames++;
    return NULL;
}

const char *demo_gif_writer_close(demo_gif_writer *w) { return w ? destroy(w) : NULL; }
