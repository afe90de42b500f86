/* The benches' humanoid: 25 bones with plain names (the roles find them), standing 1.8 high in a
 * T-pose facing +z, its left at +x. */
#ifndef REACH_BENCH_HUMANOID25_H
#define REACH_BENCH_HUMANOID25_H

#include "reach/vecmath.h"

#define HUMANOID25_BONES 25

/* name, parent (index into this table), joint offset from the parent in a 1.8-high T-pose. */
typedef struct humanoid25_part {
    const char *name;
    int parent;
    reach_real x, y, z;
} humanoid25_part;

static const humanoid25_part humanoid25[HUMANOID25_BONES] = {
    {"hips", -1, 0, REACH_R(0.95), 0},
    {"spine", 0, 0, REACH_R(0.1), 0},
    {"chest", 1, 0, REACH_R(0.15), 0},
    {"upper_chest", 2, 0, REACH_R(0.15), REACH_R(0.01)},
    {"neck", 3, 0, REACH_R(0.15), 0},
    {"head", 4, 0, REACH_R(0.1), REACH_R(0.02)},
    {"head_end", 5, 0, REACH_R(0.2), 0},
    {"left_shoulder", 3, REACH_R(0.03), REACH_R(0.1), 0},
    {"left_upper_arm", 7, REACH_R(0.15), 0, 0},
    {"left_lower_arm", 8, REACH_R(0.3), 0, 0},
    {"left_hand", 9, REACH_R(0.26), 0, 0},
    {"right_shoulder", 3, REACH_R(-0.03), REACH_R(0.1), 0},
    {"right_upper_arm", 11, REACH_R(-0.15), 0, 0},
    {"right_lower_arm", 12, REACH_R(-0.3), 0, 0},
    {"right_hand", 13, REACH_R(-0.26), 0, 0},
    {"left_upper_leg", 0, REACH_R(0.1), REACH_R(-0.05), 0},
    {"left_lower_leg", 15, 0, REACH_R(-0.42), 0},
    {"left_foot", 16, 0, REACH_R(-0.42), 0},
    {"left_toes", 17, 0, REACH_R(-0.06), REACH_R(0.13)},
    {"left_toes_end", 18, 0, 0, REACH_R(0.06)},
    {"right_upper_leg", 0, REACH_R(-0.1), REACH_R(-0.05), 0},
    {"right_lower_leg", 20, 0, REACH_R(-0.42), 0},
    {"right_foot", 21, 0, REACH_R(-0.42), 0},
    {"right_toes", 22, 0, REACH_R(-0.06), REACH_R(0.13)},
    {"right_toes_end", 23, 0, 0, REACH_R(0.06)},
};

#endif
