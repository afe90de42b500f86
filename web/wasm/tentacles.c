/* Tentacles on the page: a field of chains rooted on the ground, all reaching for one target,
 * solved together by batch FABRIK (include/reach/fabrik_batch.h, wasm SIMD inside). The joints
 * are kept as the batch takes them, one array per joint and coordinate, and solved in place, so
 * each frame starts from the last. Units are the walker's: z up, the ground the plane z = 0. */
#include "reach_wasm.h"
#include "reach/fabrik_batch.h"

#include <string.h>

#define TENTACLE_MAX     1024
#define TENTACLE_JOINTS  (REACH_WASM_TENTACLE_BONES + 1)
#define TENTACLE_SPACING REACH_R(0.6) /* between neighbouring roots */
/* Each bone this much shorter than the one below it, as a tentacle thins toward its tip. */
#define TENTACLE_TAPER REACH_R(0.07)

/* Joint j of tentacle i: joints[axis][j][i]; bone b's length: lengths[b][i]. */
static reach_real joints[3][TENTACLE_JOINTS][TENTACLE_MAX];
static reach_real lengths[REACH_WASM_TENTACLE_BONES][TENTACLE_MAX];
/* The pose before the last follow, so that the page can time that solve again. */
static reach_real before[3][TENTACLE_JOINTS][TENTACLE_MAX];
static reach_real roots[3][TENTACLE_MAX], targets[3][TENTACLE_MAX];
static reach_real residual[TENTACLE_MAX];
static unsigned char reached[TENTACLE_MAX];
static int iterations[TENTACLE_MAX];
static int count;
static int followed; /* a follow succeeded since the last start: `before` is its start */

int reach_wasm_tentacles_start(int chains) {
    if (chains < 1 || chains > TENTACLE_MAX) return REACH_ERROR_INVALID_ARGUMENT;
    unsigned state = 2025u;
    for (int i = 0; i < chains; i++) {
        reach_wasm_grid_place(i, chains, TENTACLE_SPACING, &roots[0][i], &roots[1][i]);
        roots[2][i] = 0;
        reach_real first = REACH_R(0.2) + REACH_R(0.1) * reach_wasm_spread(&state), height = 0;
        for (int j = 0; j < TENTACLE_JOINTS; j++) {
            if (j > 0) {
                lengths[j - 1][i] = first * (1 - TENTACLE_TAPER * (reach_real)(j - 1));
                height += lengths[j - 1][i];
            }
            joints[0][j][i] = roots[0][i];
            joints[1][j][i] = roots[1][i];
            joints[2][j][i] = height;
        }
        residual[i] = 0;
        reached[i] = 1;
        iterations[i] = 0;
    }
    count = chains;
    followed = 0;
    return REACH_OK;
}

static int solve(void) {
    reach_fabrik_batch batch;
    batch.count = count;
    batch.bone_count = REACH_WASM_TENTACLE_BONES;
    batch.stride = TENTACLE_MAX;
    batch.lengths = &lengths[0][0];
    reach_const_vec3_soa root = {roots[0], roots[1], roots[2]}, target = {targets[0], targets[1], targets[2]};
    reach_vec3_soa pose = {&joints[0][0][0], &joints[1][0][0], &joints[2][0][0]};
    batch.root = root;
    batch.target = target;
    batch.joints = pose;
    batch.out_residual = residual;
    batch.out_iterations = iterations;
    batch.out_reached = reached;
    batch.out_status = 0;
    /* A bad chain leaves its own joints as they were; the call reports the first error. */
    return (int)reach_fabrik_solve_batch(&batch, NULL);
}

/* Copies the first count entries of every joint array. */
static void copy_pose(reach_real (*to)[TENTACLE_JOINTS][TENTACLE_MAX],
                      reach_real (*from)[TENTACLE_JOINTS][TENTACLE_MAX]) {
    for (int axis = 0; axis < 3; axis++)
        for (int j = 0; j < TENTACLE_JOINTS; j++)
            memcpy(to[axis][j], from[axis][j], (size_t)count * sizeof(reach_real));
}

int reach_wasm_tentacles_follow(reach_real target_x, reach_real target_y, reach_real target_z) {
    if (count == 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(target_x) || !reach_is_finite(target_y) || !reach_is_finite(target_z))
        return REACH_ERROR_NOT_FINITE;
    for (int i = 0; i < count; i++) {
        targets[0][i] = target_x;
        targets[1][i] = target_y;
        targets[2][i] = target_z;
    }
    copy_pose(before, joints);
    int status = solve();
    followed = status == REACH_OK;
    return status;
}

int reach_wasm_tentacles_again(void) {
    if (!followed) return REACH_ERROR_INVALID_ARGUMENT;
    copy_pose(joints, before);
    return solve();
}

int reach_wasm_tentacles_count(void) { return count; }
int reach_wasm_tentacles_bone_count(void) { return REACH_WASM_TENTACLE_BONES; }
int reach_wasm_tentacles_capacity(void) { return TENTACLE_MAX; }
const reach_real *reach_wasm_tentacles_joints(void) { return &joints[0][0][0]; }
const reach_real *reach_wasm_tentacles_residuals(void) { return residual; }
const unsigned char *reach_wasm_tentacles_reached(void) { return reached; }
const int *reach_wasm_tentacles_iterations(void) { return iterations; }
const char *reach_wasm_tentacles_isa(void) { return reach_batch_isa(); }
