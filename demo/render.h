/* Rendering one scene to files: every frame into an animated GIF, one frame into a PNG. */
#ifndef DEMO_RENDER_H
#define DEMO_RENDER_H

#include <stddef.h>

#include "scene.h"

#define DEMO_PATH_MAX 4096

typedef struct demo_render_result {
    char gif_path[DEMO_PATH_MAX];
    char png_path[DEMO_PATH_MAX];
    int frames;
    double seconds;  /* playing time of the GIF */
    int still_frame; /* which frame the PNG shows */
} demo_render_result;

/* Renders `scene` into out_dir (which must exist) as <name>.gif and <name>.png. frame_count 0
 * means the scene's own frame rate; another count samples the same animation more coarsely
 * (for quick checks) at the same per-frame delay. Returns 0, or -1 with a message in error. */
int demo_render_scene(const demo_scene *scene, const char *out_dir, int frame_count, demo_render_result *result,
                      char *error, size_t error_size);

/* One whole frame: the background, the scene's drawing, its header and legend. */
reach_status demo_draw_scene_frame(const demo_scene *scene, demo_canvas *canvas, const demo_frame *frame);

/* The frame shown in the PNG still for an animation of `count` frames. */
int demo_still_frame(const demo_scene *scene, int count);

/* dir + "/" + name + suffix into out; returns 0, or -1 when it does not fit. */
int demo_join_path(char *out, size_t size, const char *dir, const char *name, const char *suffix);

#endif
