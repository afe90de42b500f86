/* A character from files: the skeleton read from a glTF (demo/assets/character.gltf) plays a walk
 * read from a BVH of the same joints (demo/assets/walk.bvh), both written by
 * demo/assets/make_character.py and read by the formats library. Each frame the clip is sampled
 * (slerp between its frames), its rotations and the hips' position put on the glTF rig by joint
 * name, and forward kinematics places every joint. Drawn in perspective on a ground grid: the
 * left limbs in one colour, the right in another, the spine and head in a third; limbs further
 * from the eye drawn first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/bvh.h"
#include "reach/gltf.h"
#include "readout.h"
#include "scene.h"
#include "scenery3d.h"

#define MAX_BONES 64
#define INFO_W    176

typedef struct character {
    reach_gltf_character model;
    reach_rig clip_rig;
    reach_clip clip;
    int clip_bone[MAX_BONES]; /* per model bone: the clip's bone of its name, or -1 */
    int shared;               /* model bones the clip moves */
    int loaded;
} character;

static character hero;

static reach_status load(void) {
    char error[512];
    reach_status status =
        reach_gltf_read_file(REACH_DEMO_ASSETS "/character.gltf", -1, 0, &hero.model, error, sizeof error);
    if (status == REACH_OK)
        status = reach_bvh_read_file(REACH_DEMO_ASSETS "/walk.bvh", &hero.clip_rig, &hero.clip, error, sizeof error);
    if (status == REACH_OK && hero.model.rig.bone_count > MAX_BONES) status = REACH_ERROR_BUFFER_TOO_SMALL;
    if (status != REACH_OK) {
        fprintf(stderr, "character_3d: %s\n", error);
        return status;
    }
    hero.shared = 0;
    for (int b = 0; b < hero.model.rig.bone_count; b++) {
        hero.clip_bone[b] = reach_rig_find_bone(&hero.clip_rig, hero.model.rig.bone_names[b]);
        hero.shared += hero.clip_bone[b] >= 0;
    }
    hero.loaded = 1;
    return REACH_OK;
}

/* The model's pose at `time`: its rest, with each joint the clip moves turned as the clip turns
 * it (both rests have no rotation) and the hips where the clip puts them. */
static reach_status pose_at(double time, reach_transform *local) {
    reach_transform sampled[MAX_BONES * 2];
    if (hero.clip.bone_count > MAX_BONES * 2) return REACH_ERROR_BUFFER_TOO_SMALL;
    double loop = hero.clip.frame_count / (double)hero.clip.frame_rate;
    reach_status status = reach_clip_sample(&hero.clip, (reach_real)fmod(time, loop), REACH_CLIP_SLERP, sampled);
    if (status != REACH_OK) return status;
    const reach_rig *rig = &hero.model.rig;
    for (int b = 0; b < rig->bone_count; b++) {
        local[b] = rig->rest[b];
        int c = hero.clip_bone[b];
        if (c < 0) continue;
        local[b].rotation = sampled[c].rotation;
        if (rig->parents[b] < 0) local[b].translation = sampled[c].translation;
    }
    return REACH_OK;
}

static demo_camera camera_for(const demo_canvas *canvas) {
    double view_width = canvas->width - INFO_W - DEMO_MARGIN;
    double top = DEMO_HEADER_HEIGHT, height = canvas->height - DEMO_HEADER_HEIGHT - DEMO_FOOTER_HEIGHT;
    return demo_camera_look_at(reach_vec3_make(REACH_R(2.4), REACH_R(1.3), REACH_R(2.9)),
                               reach_vec3_make(0, REACH_R(0.86), 0), reach_vec3_make(0, 1, 0), 760,
                               view_width / 2 + DEMO_MARGIN / 2, top + height / 2);
}

static void draw_ground(demo_canvas *canvas, void *user) {
    (void)user;
    demo_camera camera = camera_for(canvas);
    demo_draw_ground_grid(canvas, &camera, -1.25, 1.25, -1.25, 1.25, 0.25);
}

/* Left limbs, right limbs, and the trunk and head, by the bones' names. */
static demo_colour colour_of(const char *name) {
    if (strncmp(name, "left", 4) == 0) return DEMO_BONE;
    if (strncmp(name, "right", 5) == 0) return DEMO_ROOT;
    return DEMO_JOINT;
}

typedef struct bone_order {
    int bone;
    double distance;
} bone_order;

static int farther_first(const void *a, const void *b) {
    double da = ((const bone_order *)a)->distance, db = ((const bone_order *)b)->distance;
    return (da < db) - (da > db);
}

static void draw_skeleton(demo_canvas *canvas, const demo_camera *camera, const reach_transform *world) {
    const reach_rig *rig = &hero.model.rig;
    demo_point pixel[MAX_BONES];
    for (int b = 0; b < rig->bone_count; b++)
        if (!demo_camera_project(camera, world[b].translation, &pixel[b], NULL)) return;
    bone_order order[MAX_BONES];
    int count = 0;
    for (int b = 0; b < rig->bone_count; b++) {
        if (rig->parents[b] < 0) continue;
        reach_vec3 middle =
            reach_vec3_scale(reach_vec3_add(world[b].translation, world[rig->parents[b]].translation), REACH_R(0.5));
        order[count].bone = b;
        order[count++].distance = demo_camera_distance(camera, middle);
    }
    qsort(order, (size_t)count, sizeof order[0], farther_first);
    for (int k = 0; k < count; k++) {
        int b = order[k].bone, parent = rig->parents[b];
        double scale = demo_camera_scale_at(camera, world[b].translation);
        demo_draw_bone(canvas, pixel[parent], pixel[b], 0.04 * scale, colour_of(rig->bone_names[b]));
        demo_draw_joint(canvas, pixel[b], 0.022 * scale, DEMO_JOINT);
    }
    double scale = demo_camera_scale_at(camera, world[0].translation);
    demo_draw_joint(canvas, pixel[0], 0.032 * scale, DEMO_ROOT);
}

static void draw_info(demo_canvas *canvas, double time) {
    demo_info info = demo_info_begin(canvas, INFO_W, 78, "playback", "from files", DEMO_REACHED);
    char value[48];
    snprintf(value, sizeof value, "%d", hero.model.rig.bone_count);
    demo_info_row(&info, "glTF bones", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%d of them", hero.shared);
    demo_info_row(&info, "moved", value, DEMO_TEXT);
    snprintf(value, sizeof value, "%d at %.0f/s", hero.clip.frame_count, (double)hero.clip.frame_rate);
    demo_info_row(&info, "BVH frames", value, DEMO_TEXT);
    double loop = hero.clip.frame_count / (double)hero.clip.frame_rate;
    snprintf(value, sizeof value, "%.1f", fmod(time, loop) * (double)hero.clip.frame_rate);
    demo_info_row(&info, "frame", value, DEMO_TEXT);
    demo_info_note(&info, "character.gltf + walk.bvh");
    demo_info_note(&info, "sampled with slerp");
}

static const demo_legend_entry legend[] = {
    {DEMO_MARK_LINE, DEMO_BONE, "left limbs"},
    {DEMO_MARK_LINE, DEMO_ROOT, "right limbs"},
    {DEMO_MARK_LINE, DEMO_JOINT, "spine and head"},
    {DEMO_MARK_THIN, DEMO_GRID, "ground"},
};

static reach_status draw_character_3d(demo_canvas *canvas, const demo_frame *frame) {
    reach_status status = hero.loaded ? REACH_OK : load();
    reach_transform local[MAX_BONES], world[MAX_BONES];
    if (status == REACH_OK) status = pose_at(frame->time, local);
    if (status != REACH_OK) return status;
    reach_forward_kinematics(&hero.model.rig.skeleton, local, world);
    static demo_backdrop ground;
    /* The only failure is memory for the kept picture: reported as a buffer too small. */
    if (demo_backdrop_paint(&ground, canvas, draw_ground, NULL)) return REACH_ERROR_BUFFER_TOO_SMALL;
    demo_camera camera = camera_for(canvas);
    reach_vec3 below = world[0].translation;
    below.y = 0;
    demo_draw_shadow(canvas, &camera, below, 0.35);
    draw_skeleton(canvas, &camera, world);
    draw_info(canvas, frame->time);
    return REACH_OK;
}

const demo_scene demo_scene_character_3d = {
    .name = "character_3d",
    .title = "A character from files: glTF skeleton, BVH walk",
    .subtitle = "The skeleton read from a glTF plays a walk read from a BVH of the same joints, joint by joint.",
    .caption = "A 22-joint character read from a glTF file by the formats library plays a walk cycle read from a BVH "
               "file of the same joints: each frame the clip is sampled with slerp, its rotations put on the glTF "
               "rig by joint name, and forward kinematics places every joint.",
    .draw = draw_character_3d,
    DEMO_LEGEND(legend),
    .width = 720,
    .height = 540,
    .duration = 4.0,
    .frame_delay_cs = 4,
    .still_time = 0.3,
};
