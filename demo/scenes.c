/* The table of scenes, and the timing every scene shares. */
#include <math.h>
#include <string.h>

#include "scene.h"

const demo_scene *const demo_scenes[] = {
    &demo_scene_two_bone_2d, &demo_scene_leg_3d,    &demo_scene_fabrik_tentacle, &demo_scene_fabrik_tree,
    &demo_scene_fabrik_loop, &demo_scene_ccd_chain, &demo_scene_compare,
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
