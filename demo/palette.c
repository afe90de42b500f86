/* The demo's colours: a dark slate ground with light bones, a warm joint and a cool target,
 * after the look of the two-bone scene. Status colours (green, red) are kept for
 * status only. */
#include <stdio.h>

#include "palette.h"

static const demo_rgb palette[DEMO_COLOUR_COUNT] = {
    [DEMO_BACKGROUND] = {0x1d, 0x22, 0x2a}, [DEMO_GRID] = {0x33, 0x3b, 0x47},
    [DEMO_GUIDE] = {0x6e, 0x7a, 0x8c},      [DEMO_CONSTRUCTION] = {0x6a, 0x5f, 0x3a},
    [DEMO_BONE] = {0xec, 0xe8, 0xdf},       [DEMO_JOINT] = {0xf2, 0xc1, 0x4e},
    [DEMO_ROOT] = {0xa7, 0xb2, 0xc1},       [DEMO_TARGET] = {0x4f, 0xc3, 0xf7},
    [DEMO_REACHED] = {0x7b, 0xd8, 0x8f},    [DEMO_UNREACHED] = {0xff, 0x6b, 0x6b},
    [DEMO_POLE] = {0xc7, 0x92, 0xea},       [DEMO_TEXT] = {0xec, 0xe8, 0xdf},
    [DEMO_TEXT_MUTED] = {0x94, 0x9f, 0xae}, [DEMO_PANEL] = {0x27, 0x2d, 0x37},
    [DEMO_SOLID_TOP] = {0x6a, 0x72, 0x7e},  [DEMO_SOLID_FRONT] = {0x43, 0x4a, 0x55},
    [DEMO_SOLID_SIDE] = {0x55, 0x5d, 0x69}, [DEMO_AXIS_X] = {0xf0, 0x6e, 0x50},
    [DEMO_AXIS_Y] = {0x9c, 0xd0, 0x5a},     [DEMO_AXIS_Z] = {0x5a, 0x8d, 0xf0},
};

demo_rgb demo_palette_rgb(demo_colour colour) {
    if ((int)colour < 0 || colour >= DEMO_COLOUR_COUNT) return palette[DEMO_TEXT];
    return palette[colour];
}

/* a + (b - a) * step / steps, rounded to nearest as cairo's compositing does. */
static unsigned char blend_channel(unsigned char a, unsigned char b, int step) {
    int v = (int)a * (DEMO_BLEND_STEPS - step) + (int)b * step;
    return (unsigned char)((v + DEMO_BLEND_STEPS / 2) / DEMO_BLEND_STEPS);
}

demo_rgb demo_palette_blend(demo_colour colour, int step) {
    demo_rgb bg = palette[DEMO_BACKGROUND], fg = demo_palette_rgb(colour);
    if (step < 0) step = 0;
    if (step > DEMO_BLEND_STEPS) step = DEMO_BLEND_STEPS;
    demo_rgb c = {blend_channel(bg.r, fg.r, step), blend_channel(bg.g, fg.g, step), blend_channel(bg.b, fg.b, step)};
    return c;
}

void demo_palette_css(demo_colour colour, char css[8]) {
    demo_rgb c = demo_palette_rgb(colour);
    snprintf(css, 8, "#%02x%02x%02x", c.r, c.g, c.b);
}
