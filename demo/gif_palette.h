/* A fixed 256-colour palette for the demo's GIFs, and the mapping of cairo frames onto it.
 *
 * The palette is the same for every frame and every scene: the demo's colours exactly, their
 * antialiasing blends with the background, then a colour cube for anything else, and one
 * index kept for transparency. A fixed
 * palette keeps colours from shifting between frames (a per-frame median cut would), and no
 * dithering is applied, so a still part of the picture stays identical from frame to frame. */
#ifndef DEMO_GIF_PALETTE_H
#define DEMO_GIF_PALETTE_H

#include <cairo.h>
#include <stdint.h>

#include "palette.h"

#define DEMO_GIF_COLOURS 256
/* The last entry is never a colour: frames after the first mark unchanged pixels with it. */
#define DEMO_GIF_TRANSPARENT (DEMO_GIF_COLOURS - 1)
#define DEMO_GIF_CACHE_SIZE  (1 << 16)

typedef struct demo_gif_palette {
    demo_rgb colours[DEMO_GIF_COLOURS];
    int count; /* colours in use: DEMO_GIF_TRANSPARENT, so the transparent index is never chosen */
    /* Open-addressing cache from 0xRRGGBB + 1 (0 means empty) to palette index: a frame has
     * few distinct colours, so the nearest-colour search runs once per colour, not per pixel. */
    uint32_t cache_keys[DEMO_GIF_CACHE_SIZE];
    unsigned char cache_values[DEMO_GIF_CACHE_SIZE];
    int cache_used;
} demo_gif_palette;

void demo_gif_palette_build(demo_gif_palette *palette);

/* The index of the palette colour nearest to r, g, b. */
unsigned char demo_gif_palette_index(demo_gif_palette *palette, unsigned r, unsigned g, unsigned b);

/* Maps an opaque cairo image surface (RGB24 or ARGB32) to palette indices, row after row,
 * into indices[width * height]. */
void demo_gif_palette_map_surface(demo_gif_palette *palette, cairo_surface_t *surface, unsigned char *indices);

#endif
