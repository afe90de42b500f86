/* The render loop: draw, write a GIF frame, and keep one frame as the PNG still. */
#include <math.h>
#include <stdio.h>

#include "gif_writer.h"
#include "render.h"

int demo_join_path(char *out, size_t size, const char *dir, const char *name, const char *suffix) {
    int n = snprintf(out, size, "%s/%s%s", dir, name, suffix);
    return n >= 0 && (size_t)n < size ? 0 : -1;
}

int demo_still_frame(const demo_scene *scene, int count) {
    int index = (int)lround(scene->still_time / scene->duration * count);
    if (index >= count) index = count - 1;
    return index < 0 ? 0 : index;
}

static int fail(char *error, size_t size, const demo_scene *scene, const char *what, const char *detail) {
    snprintf(error, size, "%s: %s: %s", scene->name, what, detail);
    return -1;
}

reach_status demo_draw_scene_frame(const demo_scene *scene, demo_canvas *canvas, const demo_frame *frame) {
    demo_canvas_clear(canvas);
    reach_status status = scene->draw(canvas, frame);
    if (status != REACH_OK) return status;
    demo_draw_header(canvas, scene->title, scene->subtitle);
    demo_draw_legend(canvas, scene->legend, scene->legend_count);
    return REACH_OK;
}

/* Draws every frame into the open GIF, saving the still as a PNG on the way. */
static int render_frames(const demo_scene *scene, demo_canvas *canvas, demo_gif_writer *gif, demo_render_result *result,
                         char *error, size_t error_size) {
    for (int i = 0; i < result->frames; i++) {
        demo_frame frame = demo_scene_frame(scene, i, result->frames);
        reach_status status = demo_draw_scene_frame(scene, canvas, &frame);
        if (status != REACH_OK) {
            char where[64];
            snprintf(where, sizeof where, "frame %d", i);
            return fail(error, error_size, scene, where, reach_status_string(status));
        }
        const char *message = demo_gif_writer_add_frame(gif, canvas->surface, scene->frame_delay_cs);
        if (message) return fail(error, error_size, scene, result->gif_path, message);
        if (i == result->still_frame) {
            cairo_status_t written = cairo_surface_write_to_png(canvas->surface, result->png_path);
            if (written != CAIRO_STATUS_SUCCESS)
                return fail(error, error_size, scene, result->png_path, cairo_status_to_string(written));
        }
    }
    return 0;
}

int demo_render_scene(const demo_scene *scene, const char *out_dir, int frame_count, demo_render_result *result,
                      char *error, size_t error_size) {
    if (frame_count < 0) return fail(error, error_size, scene, "frame count", "must not be negative");
    if (demo_join_path(result->gif_path, sizeof result->gif_path, out_dir, scene->name, ".gif") != 0 ||
        demo_join_path(result->png_path, sizeof result->png_path, out_dir, scene->name, ".png") != 0)
        return fail(error, error_size, scene, out_dir, "output path too long");
    result->frames = frame_count > 0 ? frame_count : demo_scene_frame_count(scene);
    result->seconds = result->frames * scene->frame_delay_cs / 100.0;
    result->still_frame = demo_still_frame(scene, result->frames);

    demo_canvas canvas;
    const char *message = demo_canvas_create(&canvas, scene->width, scene->height);
    if (message) return fail(error, error_size, scene, "canvas", message);
    demo_gif_writer *gif = NULL;
    message = demo_gif_writer_open(&gif, result->gif_path, scene->width, scene->height);
    if (message) {
        demo_canvas_destroy(&canvas);
        return fail(error, error_size, scene, result->gif_path, message);
    }
    int status = render_frames(scene, &canvas, gif, result, error, error_size);
    message = demo_gif_writer_close(gif);
    demo_canvas_destroy(&canvas);
    if (status == 0 && message) return fail(error, error_size, scene, result->gif_path, message);
    return status;
}
