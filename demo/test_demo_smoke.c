/* Smoke test of the demo renderer: short renders of each scene into a temporary folder, read
 * back with giflib and cairo. Checks that the GIF is valid with the expected frame count,
 * size, palette, delays and looping; that replaying its frames (changed rectangles with
 * transparent unchanged pixels) gives exactly each frame as rendered; that the PNG still is
 * the frame it names; that output is identical from run to run; that index.html lists
 * every scene, with its title once; and that the retarget scene loops.
 *
 * Usage: test_demo_smoke DIR (a folder in which to make the temporary one). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <gif_lib.h>

#include "gif_palette.h"
#include "index_html.h"
#include "render.h"

/* Few frames, so the test stays quick; enough to include changed and unchanged regions. */
#define SMOKE_FRAMES 6

static char temp_dir[DEMO_PATH_MAX];

/* Renders frame `index` of `count` directly and maps it onto the GIF palette. */
static unsigned char *render_indices(const demo_scene *scene, int index, int count, demo_gif_palette *palette) {
    demo_canvas canvas;
    assert_null(demo_canvas_create(&canvas, scene->width, scene->height));
    demo_frame frame = demo_scene_frame(scene, index, count);
    assert_int_equal(demo_draw_scene_frame(scene, &canvas, &frame), REACH_OK);
    unsigned char *indices = malloc((size_t)scene->width * (size_t)scene->height);
    assert_non_null(indices);
    demo_gif_palette_map_surface(palette, canvas.surface, indices);
    demo_canvas_destroy(&canvas);
    return indices;
}

static int has_loop_extension(const SavedImage *first) {
    for (int i = 0; i < first->ExtensionBlockCount; i++) {
        const ExtensionBlock *b = &first->ExtensionBlocks[i];
        if (b->Function == APPLICATION_EXT_FUNC_CODE && b->ByteCount == 11 && memcmp(b->Bytes, "NETSCAPE2.0", 11) == 0)
            return 1;
    }
    return 0;
}

/* Draws one stored image over the screen, skipping its transparent pixels. */
static void replay_image(const SavedImage *image, int transparent, unsigned char *screen, int screen_width) {
    const GifImageDesc *d = &image->ImageDesc;
    for (int y = 0; y < d->Height; y++) {
        for (int x = 0; x < d->Width; x++) {
            int index = image->RasterBits[(size_t)y * (size_t)d->Width + (size_t)x];
            if (index == transparent) continue;
            screen[(size_t)(d->Top + y) * (size_t)screen_width + (size_t)(d->Left + x)] = (unsigned char)index;
        }
    }
}

static void check_gif(const demo_scene *scene, const demo_render_result *result) {
    int error = 0;
    GifFileType *gif = DGifOpenFileName(result->gif_path, &error);
    assert_non_null(gif);
    assert_int_equal(DGifSlurp(gif), GIF_OK);
    assert_int_equal(gif->ImageCount, SMOKE_FRAMES);
    assert_int_equal(gif->SWidth, scene->width);
    assert_int_equal(gif->SHeight, scene->height);
    assert_non_null(gif->SColorMap);
    assert_int_equal(gif->SColorMap->ColorCount, DEMO_GIF_COLOURS);
    assert_true(has_loop_extension(&gif->SavedImages[0]));

    demo_gif_palette *palette = malloc(sizeof *palette);
    assert_non_null(palette);
    demo_gif_palette_build(palette);
    size_t pixels = (size_t)scene->width * (size_t)scene->height;
    unsigned char *screen = calloc(pixels, 1);
    assert_non_null(screen);
    int changed_frames = 0;
    for (int i = 0; i < gif->ImageCount; i++) {
        const SavedImage *image = &gif->SavedImages[i];
        const GifImageDesc *d = &image->ImageDesc;
        assert_true(d->Left >= 0 && d->Top >= 0 && d->Left + d->Width <= scene->width &&
                    d->Top + d->Height <= scene->height);
        GraphicsControlBlock control;
        assert_int_equal(DGifSavedExtensionToGCB(gif, i, &control), GIF_OK);
        assert_int_equal(control.DelayTime, scene->frame_delay_cs);
        assert_int_equal(control.TransparentColor, i == 0 ? NO_TRANSPARENT_COLOR : DEMO_GIF_TRANSPARENT);
        if (i == 0) assert_true(d->Width == scene->width && d->Height == scene->height);
        if (i > 0 && d->Width * d->Height > 1) changed_frames++;
        replay_image(image, control.TransparentColor, screen, scene->width);
        unsigned char *expected = render_indices(scene, i, SMOKE_FRAMES, palette);
        assert_memory_equal(screen, expected, pixels);
        free(expected);
    }
    /* The scene moves: most frames store a real rectangle of change. */
    assert_true(changed_frames >= SMOKE_FRAMES / 2);
    free(screen);
    free(palette);
    DGifCloseFile(gif, &error);
}

/* The PNG holds exactly the frame named as the still. */
static void check_still(const demo_scene *scene, const demo_render_result *result) {
    cairo_surface_t *png = cairo_image_surface_create_from_png(result->png_path);
    assert_int_equal(cairo_surface_status(png), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_width(png), scene->width);
    assert_int_equal(cairo_image_surface_get_height(png), scene->height);
    assert_int_equal(result->still_frame, demo_still_frame(scene, SMOKE_FRAMES));

    demo_canvas canvas;
    assert_null(demo_canvas_create(&canvas, scene->width, scene->height));
    demo_frame frame = demo_scene_frame(scene, result->still_frame, SMOKE_FRAMES);
    assert_int_equal(demo_draw_scene_frame(scene, &canvas, &frame), REACH_OK);
    cairo_surface_flush(canvas.surface);
    cairo_surface_flush(png);
    const unsigned char *a = cairo_image_surface_get_data(canvas.surface), *b = cairo_image_surface_get_data(png);
    int stride_a = cairo_image_surface_get_stride(canvas.surface), stride_b = cairo_image_surface_get_stride(png);
    for (int y = 0; y < scene->height; y++) {
        const uint32_t *row_a = (const uint32_t *)(const void *)(a + (size_t)y * (size_t)stride_a);
        const uint32_t *row_b = (const uint32_t *)(const void *)(b + (size_t)y * (size_t)stride_b);
        for (int x = 0; x < scene->width; x++)
            assert_int_equal(row_a[x] & 0xffffffu, row_b[x] & 0xffffffu);
    }
    demo_canvas_destroy(&canvas);
    cairo_surface_destroy(png);
}

static void render_and_check(const char *name) {
    const demo_scene *scene = demo_scene_find(name);
    assert_non_null(scene);
    demo_render_result result;
    char error[DEMO_PATH_MAX + 256];
    int status = demo_render_scene(scene, temp_dir, SMOKE_FRAMES, &result, error, sizeof error);
    if (status != 0) fail_msg("%s", error);
    assert_int_equal(result.frames, SMOKE_FRAMES);
    check_gif(scene, &result);
    check_still(scene, &result);
}

/* Every scene in the table, so a new scene is covered as soon as it is listed. */
static void every_scene_renders_a_valid_gif_and_still(void **state) {
    (void)state;
    for (int i = 0; i < demo_scene_count; i++) {
        print_message("scene %s\n", demo_scenes[i]->name);
        render_and_check(demo_scenes[i]->name);
    }
}

static unsigned char *read_file(const char *path, long *size) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    *size = ftell(f);
    assert_true(*size > 0);
    rewind(f);
    unsigned char *bytes = malloc((size_t)*size);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, (size_t)*size, f), (size_t)*size);
    fclose(f);
    return bytes;
}

/* No clock, no unseeded randomness, and scenes that carry state from frame to frame (replay.h)
 * start it over: rendering a scene again gives the same bytes. */
static void renders_are_identical_from_run_to_run(void **state) {
    (void)state;
    for (int i = 0; i < demo_scene_count; i++) {
        const demo_scene *scene = demo_scenes[i];
        demo_render_result result;
        char error[DEMO_PATH_MAX + 256];
        assert_int_equal(demo_render_scene(scene, temp_dir, SMOKE_FRAMES, &result, error, sizeof error), 0);
        long first_size = 0, second_size = 0;
        unsigned char *first = read_file(result.gif_path, &first_size);
        assert_int_equal(demo_render_scene(scene, temp_dir, SMOKE_FRAMES, &result, error, sizeof error), 0);
        unsigned char *second = read_file(result.gif_path, &second_size);
        assert_int_equal(first_size, second_size);
        assert_memory_equal(first, second, (size_t)first_size);
        free(first);
        free(second);
    }
}

/* Every demo colour, and every palette entry, maps to itself; nothing maps to the transparent
 * index. */
static void palette_keeps_the_demo_colours_exact(void **state) {
    (void)state;
    demo_gif_palette *palette = malloc(sizeof *palette);
    assert_non_null(palette);
    demo_gif_palette_build(palette);
    assert_int_equal(palette->count, DEMO_GIF_TRANSPARENT);
    for (int c = 0; c < DEMO_COLOUR_COUNT; c++) {
        demo_rgb rgb = demo_palette_rgb((demo_colour)c);
        demo_rgb got = palette->colours[demo_gif_palette_index(palette, rgb.r, rgb.g, rgb.b)];
        assert_true(got.r == rgb.r && got.g == rgb.g && got.b == rgb.b);
    }
    for (int i = 0; i < palette->count; i++) {
        demo_rgb rgb = palette->colours[i];
        assert_int_equal(demo_gif_palette_index(palette, rgb.r, rgb.g, rgb.b), i);
    }
    for (unsigned r = 0; r < 256; r += 15)
        for (unsigned g = 0; g < 256; g += 15)
            for (unsigned b = 0; b < 256; b += 15)
                assert_int_not_equal(demo_gif_palette_index(palette, r, g, b), DEMO_GIF_TRANSPARENT);
    free(palette);
}

static int occurrences(const char *text, const char *part) {
    int count = 0;
    for (const char *at = strstr(text, part); at; at = strstr(at + 1, part))
        count++;
    return count;
}

/* Every scene's animation and caption are on the page, and its title once: the animation
 * prints the title in its header, so the page does not print it again. */
static void index_lists_every_scene(void **state) {
    (void)state;
    static demo_render_result results[DEMO_MAX_SCENES];
    memset(results, 0, sizeof results);
    char path[DEMO_PATH_MAX], error[DEMO_PATH_MAX + 256];
    assert_int_equal(demo_join_path(path, sizeof path, temp_dir, "index", ".html"), 0);
    assert_int_equal(demo_write_index_html(path, demo_scenes, results, demo_scene_count, error, sizeof error), 0);
    long size = 0;
    unsigned char *bytes = read_file(path, &size);
    char *page = malloc((size_t)size + 1);
    assert_non_null(page);
    memcpy(page, bytes, (size_t)size);
    page[size] = '\0';
    for (int i = 0; i < demo_scene_count; i++) {
        char image[256];
        snprintf(image, sizeof image, "src=\"%s.gif\"", demo_scenes[i]->name);
        assert_non_null(strstr(page, image));
        assert_non_null(strstr(page, demo_scenes[i]->caption));
        assert_int_equal(occurrences(page, demo_scenes[i]->title), 1);
    }
    free(page);
    free(bytes);
}

/* Every scene in the table can be found by name, and lasts at least three seconds at its own
 * frame rate. */
static void scene_table_is_consistent(void **state) {
    (void)state;
    assert_true(demo_scene_count >= 1 && demo_scene_count <= DEMO_MAX_SCENES);
    for (int i = 0; i < demo_scene_count; i++) {
        const demo_scene *s = demo_scenes[i];
        assert_true(demo_scene_frame_count(s) * s->frame_delay_cs >= 300);
        assert_true(s->still_time >= 0 && s->still_time < s->duration);
        assert_ptr_equal(demo_scene_find(s->name), s);
    }
    assert_null(demo_scene_find("no_such_scene"));
}

/* The retarget scene is listed, and its GIF loops without a jump: a lap of warm-up and a floor
 * grid that the figures' travel in a lap moves by whole cells, so the frame a lap on is the first
 * frame again, but for the robot's joint values, which its warm start carries from lap to lap
 * (a few edge pixels at the most). */
static void retarget_scene_loops(void **state) {
    (void)state;
    const demo_scene *scene = demo_scene_find("retarget");
    assert_non_null(scene);
    demo_gif_palette *palette = malloc(sizeof *palette);
    assert_non_null(palette);
    demo_gif_palette_build(palette);
    unsigned char *first = render_indices(scene, 0, SMOKE_FRAMES, palette);
    unsigned char *lap = render_indices(scene, SMOKE_FRAMES, SMOKE_FRAMES, palette);
    size_t pixels = (size_t)scene->width * (size_t)scene->height, differing = 0;
    for (size_t i = 0; i < pixels; i++)
        differing += first[i] != lap[i];
    print_message("retarget: %zu pixels differ a lap on\n", differing);
    assert_true(differing <= 64);
    free(first);
    free(lap);
    free(palette);
}

static int remove_temp_dir(void **state) {
    (void)state;
    const char *suffixes[] = {".gif", ".png"};
    char path[DEMO_PATH_MAX];
    for (int i = 0; i < demo_scene_count; i++) {
        for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
            if (demo_join_path(path, sizeof path, temp_dir, demo_scenes[i]->name, suffixes[k]) == 0) remove(path);
        }
    }
    if (demo_join_path(path, sizeof path, temp_dir, "index", ".html") == 0) remove(path);
    return rmdir(temp_dir);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: test_demo_smoke DIR\n");
        return 2;
    }
    if (demo_join_path(temp_dir, sizeof temp_dir, argv[1], "demo-smoke-", "XXXXXX") != 0 || !mkdtemp(temp_dir)) {
        fprintf(stderr, "test_demo_smoke: cannot make a temporary folder in %s\n", argv[1]);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scene_table_is_consistent),
        cmocka_unit_test(palette_keeps_the_demo_colours_exact),
        cmocka_unit_test(every_scene_renders_a_valid_gif_and_still),
        cmocka_unit_test(renders_are_identical_from_run_to_run),
        cmocka_unit_test(index_lists_every_scene),
        cmocka_unit_test(retarget_scene_loops),
    };
    return cmocka_run_group_tests(tests, NULL, remove_temp_dir);
}
