/* The demo's colours. Every scene draws with these, so the pictures look like one set and the
 * GIF palette (gif_palette.h) can be built around them: each colour, and its antialiased
 * blends with the background, maps back to itself exactly. */
#ifndef DEMO_PALETTE_H
#define DEMO_PALETTE_H

typedef enum demo_colour {
    DEMO_BACKGROUND,
    DEMO_GRID,         /* ground grid, axes, faint guides */
    DEMO_GUIDE,        /* reach circles, guide lines */
    DEMO_CONSTRUCTION, /* geometric construction behind a solution: faint, warm */
    DEMO_BONE,         /* bones and the text on them */
    DEMO_JOINT,        /* the solved middle joint (elbow, knee) */
    DEMO_ROOT,         /* fixed joints: shoulder, hip */
    DEMO_TARGET,       /* where the end should go */
    DEMO_REACHED,      /* status: on target */
    DEMO_UNREACHED,    /* status: out of reach */
    DEMO_POLE,         /* pole (hint) points */
    DEMO_TEXT,         /* titles and values */
    DEMO_TEXT_MUTED,   /* captions, legends */
    DEMO_PANEL,        /* label backgrounds */
    DEMO_SOLID_TOP,    /* lit faces of solid 3-D objects (stair treads) */
    DEMO_SOLID_FRONT,  /* faces turned from the light (risers) */
    DEMO_SOLID_SIDE,   /* faces in between (stair sides) */
    DEMO_AXIS_X,       /* coordinate frames: the x, y and z axes (tool frames, targets) */
    DEMO_AXIS_Y,
    DEMO_AXIS_Z,
    DEMO_COLOUR_COUNT
} demo_colour;

typedef struct demo_rgb {
    unsigned char r, g, b;
} demo_rgb;

demo_rgb demo_palette_rgb(demo_colour colour);

/* Steps of the blend between a colour and the background that the GIF palette holds exactly:
 * eighths, as antialiased edges produce them. */
#define DEMO_BLEND_STEPS 8

/* The colour `step` / DEMO_BLEND_STEPS of the way from the background to `colour` (0: the
 * background, DEMO_BLEND_STEPS: the colour), rounded as cairo composites. Shades drawn opaque in
 * these colours stay exact in the GIF, whatever they are drawn over. */
demo_rgb demo_palette_blend(demo_colour colour, int step);

/* The colour as a CSS "#rrggbb" string, for index.html. */
void demo_palette_css(demo_colour colour, char css[8]);

#endif
