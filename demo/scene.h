/* The demo's scenes. Each scene is one file (scene_*.c) that defines a demo_scene: its name,
 * title, caption, timing and a function that draws one frame. The table in scenes.c lists
 * them; the renderer (render.h) turns each into <name>.gif and <name>.png, and index.html is
 * generated from the same table.
 *
 * Adding a scene: write scene_<name>.c defining demo_scene_<name>, declare it below, and add
 * it to the table in scenes.c. */
#ifndef DEMO_SCENE_H
#define DEMO_SCENE_H

#include <reach/reach.h>

#include "canvas.h"

/* One frame of an animation. Frames are drawn in order, 0 first. */
typedef struct demo_frame {
    int index, count;
    double time;     /* seconds from the start: index × duration / count */
    double duration; /* the scene's length in seconds */
} demo_frame;

/* Draws one frame onto the canvas (already cleared to the background) between the header and
 * legend bands, which the renderer draws afterwards from the scene's title, subtitle and
 * legend. Returns REACH_OK, or the status of a library call that failed, which stops the
 * render. */
typedef reach_status (*demo_draw_fn)(demo_canvas *canvas, const demo_frame *frame);

typedef struct demo_scene {
    const char *name;     /* command-line name and file stem: <name>.gif, <name>.png */
    const char *title;    /* heading on every frame and in index.html */
    const char *subtitle; /* under the title on every frame: what the picture shows */
    const char *caption;  /* one line of explanation for index.html */
    demo_draw_fn draw;
    const demo_legend_entry *legend; /* along the bottom of every frame */
    int legend_count;
    int width, height;  /* pixels */
    double duration;    /* seconds; at least 3 for the shipped GIFs */
    int frame_delay_cs; /* hundredths of a second per frame */
    double still_time;  /* the moment shown in the PNG still, in seconds */
} demo_scene;

/* In a scene's definition: its legend, from an array of entries. */
#define DEMO_LEGEND(entries) .legend = (entries), .legend_count = (int)(sizeof(entries) / sizeof((entries)[0]))

extern const demo_scene demo_scene_two_bone_2d;
extern const demo_scene demo_scene_leg_3d;
extern const demo_scene demo_scene_fabrik_tentacle;
extern const demo_scene demo_scene_fabrik_tree;
extern const demo_scene demo_scene_fabrik_loop;
extern const demo_scene demo_scene_ccd_chain;
extern const demo_scene demo_scene_compare;
extern const demo_scene demo_scene_robot_arm;
extern const demo_scene demo_scene_robot_urdf;
extern const demo_scene demo_scene_spider_2d;
extern const demo_scene demo_scene_hexapod_3d;
extern const demo_scene demo_scene_humanoid_reach_3d;
extern const demo_scene demo_scene_three_point_3d;
extern const demo_scene demo_scene_character_3d;
extern const demo_scene demo_scene_retarget;

/* The table, in the order the index shows them; at most DEMO_MAX_SCENES. */
#define DEMO_MAX_SCENES 64
extern const demo_scene *const demo_scenes[];
extern const int demo_scene_count;

/* The scene with this name, or NULL. */
const demo_scene *demo_scene_find(const char *name);

/* Frames at the scene's own frame rate. */
int demo_scene_frame_count(const demo_scene *scene);

/* Frame `index` of an animation of `count` frames spread over the scene's duration. */
demo_frame demo_scene_frame(const demo_scene *scene, int index, int count);

#endif
