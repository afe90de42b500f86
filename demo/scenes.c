/* The table of scenes, and the timing every scene shares. */
#include <math.h>
#include <string.h>

#include "scene.h"

const demo_scene *const demo_scenes[] = {
    &demo_scene_two_bone_2d,       /* the analytic two-bone arm in the plane */
    &demo_scene_leg_3d,            /* two-bone legs with poles on steps */
    &demo_scene_fabrik_tentacle,   /* FABRIK 2-D with angle limits */
    &demo_scene_fabrik_tree,       /* FABRIK with two weighted effectors */
    &demo_scene_fabrik_loop,       /* FABRIK with a closed loop */
    &demo_scene_ccd_chain,         /* CCD, sweep by sweep */
    &demo_scene_compare,           /* every iterative solver on one chain */
    &demo_scene_robot_arm,         /* the Jacobian family on a DH robot */
    &demo_scene_robot_urdf,        /* the same robot read from a URDF */
    &demo_scene_spider_2d,         /* the walker in 2-D */
    &demo_scene_hexapod_3d,        /* the walker in 3-D on terrain */
    &demo_scene_humanoid_reach_3d, /* full-body IK: reach and look, feet planted */
    &demo_scene_three_point_3d,    /* three-point mode: a body from a head and two hands */
    &demo_scene_character_3d,      /* a glTF character playing a BVH walk */
    &demo_scene_retarget,          /* one walk on a character and a robot */
};
const int demo_scene_count = (int)(sizeof demo_scenes / sizeof demo_scenes[0]);

const demo_scene *demo_scene_find(const char *name) {
    for (int i = 0; i < demo_scene_count; i++) {
        if (strcmp(demo_scenes[i]->name, name) == 0) return demo_scenes[i];
    }
    return NULL;
}

int demo_scene_frame_count(const demo_scene *scene) {
    return (int)lround(scene->duration * 100.0 / scene->frame_delay_cs);
}

demo_frame demo_scene_frame(const demo_scene *scene, int index, int count) {
    demo_frame frame;
    frame.index = index;
    frame.count = count;
    frame.duration = scene->duration;
    frame.time = count > 0 ? scene->duration * index / count : 0;
    return frame;
}
