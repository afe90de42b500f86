/* Building the demo's GIF palette and mapping pixels onto it. */
#include <string.h>

#include "gif_palette.h"

/* Levels per channel of the colour cube that fills the rest of the palette. */
#define CUBE_LEVELS 5

static void add_colour(demo_gif_palette *p, unsigned r, unsigned g, unsigned b) {
    if (p->count >= DEMO_GIF_TRANSPARENT) return;
    for (int i = 0; i < p->count; i++) {
        if (p->colours[i].r == r && p->colours[i].g == g && p->colours[i].b == b) return;
    }
    demo_rgb c = {(unsigned char)r, (unsigned char)g, (unsigned char)b};
    p->colours[p->count++] = c;
}

void demo_gif_palette_build(demo_gif_palette *p) {
    memset(p, 0, sizeof *p);
    for (int c = 0; c < DEMO_COLOUR_COUNT; c++) {
        demo_rgb rgb = demo_palette_rgb((demo_colour)c);
        add_colour(p, rgb.r, rgb.g, rgb.b);
    }
    /* Antialiased edges and translucent strokes over the background. */
    for (int c = 0; c < DEMO_COLOUR_COUNT; c++) {
        for (int step = 1; step < DEMO_BLEND_STEPS; step++) {
            demo_rgb blend = demo_palette_blend((demo_colour)c, step);
            add_colour(p, blend.r, blend.g, blend.b);
        }
    }
    /* Everything else (one colour over another) lands on the nearest cube entry. */
    for (int r = 0; r < CUBE_LEVELS; r++) {
        for (int g = 0; g < CUBE_LEVELS; g++) {
            for (int b = 0; b < CUBE_LEVELS; b++) {
                add_colour(p, (unsigned)(r * 255 / (CUBE_LEVELS - 1)), (unsigned)(g * 255 / (CUBE_LEVELS - 1)),
                           (unsigned)(b * 255 / (CUBE_LEVELS - 1)));
            }
        }
    }
    /* A grey ramp for what is left, so the palette is always full and deterministic. */
    for (int step = 0; p->count < DEMO_GIF_TRANSPARENT && step < 256; step++) {
        unsigned v = (unsigned)((step * 37) % 256);
        add_colour(p, v, v, v);
    }
    /* The transparent entry's colour is never shown; the background keeps viewers that ignore
     * transparency close to right. */
    p->colours[DEMO_GIF_TRANSPARENT] = demo_palette_rgb(DEMO_BACKGROUND);
}

/* Squared distance with the eye's weights: green counts most, blue least. */
static long colour_distance(demo_rgb c, unsigned r, unsigned g, unsigned b) {
    long dr = (long)c.r - (long)r, dg = (long)c.g - (long)g, db = (long)c.b - (long)b;
    return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

static unsigned char nearest(const demo_gif_palette *p, unsigned r, unsigned g, unsigned b) {
    int best = 0;
    long best_distance = colour_distance(p->colours[0], r, g, b);
    for (int i = 1; i < p->count && best_distance > 0; i++) {
        long d = colour_distance(p->colours[i], r, g, b);
        if (d < best_distance) {
            best = i;
            best_distance = d;
        }
    }
    return (unsigned char)best;
}

unsigned char demo_gif_palette_index(demo_gif_palette *p, unsigned r, unsigned g, unsigned b) {
    uint32_t key = ((r & 0xffu) << 16 | (g & 0xffu) << 8 | (b & 0xffu)) + 1u;
    /* Fibonacci hashing spreads nearby colours over the table. */
    uint32_t slot = (uint32_t)((key * 2654435769u) >> 16) & (DEMO_GIF_CACHE_SIZE - 1);
    for (int probe = 0; probe < 64; probe++) {
        uint32_t s = (slot + (uint32_t)probe) & (DEMO_GIF_CACHE_SIZE - 1);
        if (p->cache_keys[s] == key) return p->cache_values[s];
        if (p->cache_keys[s] == 0) {
            unsigned char index = nearest(p, r, g, b);
            /* Keep the table at most three quarters full so probes stay short. */
            if (p->cache_used < DEMO_GIF_CACHE_SIZE / 4 * 3) {
                p->cache_keys[s] = key;
                p->cache_values[s] = index;
                p->cache_used++;
            }
            return index;
        }
    }
    return nearest(p, r, g, b);
}

void demo_gif_palette_map_surface(demo_gif_palette *p, cairo_surface_t *surface, unsigned char *indices) {
    cairo_surface_flush(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    int width = cairo_image_surface_get_width(surface);
    int height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < height; y++) {
        /* cairo stores each pixel as one native-endian 32-bit word 0xAARRGGBB. */
        const uint32_t *row = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        unsigned char *out = indices + (size_t)y * (size_t)width;
        /* Runs of one colour are the common case (background, filled shapes). */
        uint32_t last_pixel = 0;
        unsigned char last_index = 0;
        for (int x = 0; x < width; x++) {
            uint32_t px = row[x] & 0xffffffu;
            if (x == 0 || px != last_pixel) {
                last_pixel = px;
                last_index = demo_gif_palette_index(p, (px >> 16) & 0xffu, (px >> 8) & 0xffu, px & 0xffu);
            }
            out[x] = last_index;
        }
    }
}
