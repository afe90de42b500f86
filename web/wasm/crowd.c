/* The crowd on the page: many two-bone arms standing on a square grid, all reaching for one
 * target, solved together by the batch solver (include/reach/two_bone_batch.h, wasm SIMD inside). Arms
 * are kept as one array per coordinate, as the batch solver takes them, and solved in place, so
 * each frame starts from the last. Units are the walker's: z up, the ground the plane z = 0. */
#include "reach_wasm.h"
#include "reach/two_bone_batch.h"

#define CROWD_MAX     4096
#define CROWD_SPACING REACH_R(0.5)  /* between neighbouring shoulders */
#define CROWD_HEIGHT  REACH_R(0.25) /* shoulders stand this high */

/* root, mid, end, pole, then target: one array per coordinate each. */
enum { ROOT, MID, END, POLE, TARGET, POINTS };
static reach_real coordinates[POINTS][3][CROWD_MAX];
static reach_real residual[CROWD_MAX];
static unsigned char reached[CROWD_MAX];
static int count;

static reach_real *at(int point, int axis) { return coordinates[point][axis]; }

static void set_point(int point, int limb, reach_vec3 p) {
    at(point, 0)[limb] = p.x;
    at(point, 1)[limb] = p.y;
    at(point, 2)[limb] = p.z;
}

int reach_wasm_crowd_start(int limbs) {
    if (limbs < 1 || limbs > CROWD_MAX) return REACH_ERROR_INVALID_ARGUMENT;
    unsigned state = 2024u;
    for (int k = 0; k < limbs; k++) {
        reach_vec3 root = reach_vec3_make(0, 0, CROWD_HEIGHT);
        reach_wasm_grid_place(k, limbs, CROWD_SPACING, &root.x, &root.y);
        reach_real upper = REACH_R(0.35) + REACH_R(0.3) * reach_wasm_spread(&state);
        reach_real lower = REACH_R(0.3) + REACH_R(0.3) * reach_wasm_spread(&state);
        /* Standing up, elbows pointing away from the middle of the crowd. */
        reach_vec3 out = reach_vec3_normalize_safe(reach_vec3_make(root.x, root.y, 0), reach_vec3_make(1, 0, 0));
        set_point(ROOT, k, root);
        set_point(MID, k, reach_vec3_add(root, reach_vec3_make(0, 0, upper)));
        set_point(END, k, reach_vec3_add(root, reach_vec3_make(0, 0, upper + lower)));
        set_point(POLE, k, reach_vec3_add(root, reach_vec3_mad(reach_vec3_make(0, 0, upper), out, 1)));
        set_point(TARGET, k, reach_vec3_add(root, reach_vec3_make(0, 0, upper + lower)));
        residual[k] = 0;
        reached[k] = 1;
    }
    count = limbs;
    return REACH_OK;
}

int reach_wasm_crowd_follow(reach_real target_x, reach_real target_y, reach_real target_z) {
    if (count == 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(target_x) || !reach_is_finite(target_y) || !reach_is_finite(target_z))
        return REACH_ERROR_NOT_FINITE;
    for (int k = 0; k < count; k++)
        set_point(TARGET, k, reach_vec3_make(target_x, target_y, target_z));
    reach_two_bone_batch batch;
    reach_const_vec3_soa in[POINTS];
    for (int p = 0; p < POINTS; p++) {
        reach_const_vec3_soa soa = {at(p, 0), at(p, 1), at(p, 2)};
        in[p] = soa;
    }
    batch.count = count;
    batch.root = in[ROOT];
    batch.mid = in[MID];
    batch.end = in[END];
    batch.target = in[TARGET];
    batch.pole = in[POLE];
    reach_vec3_soa out_mid = {at(MID, 0), at(MID, 1), at(MID, 2)};
    reach_vec3_soa out_end = {at(END, 0), at(END, 1), at(END, 2)};
    batch.out_mid = out_mid;
    batch.out_end = out_end;
    batch.out_residual = residual;
    batch.out_reached = reached;
    batch.out_status = 0;
    reach_two_bone_settings options = reach_two_bone_default_settings();
    options.rotations = 0; /* the page draws joint positions only */
    /* A bad limb leaves its own mid and end as they were; the call reports the first error. */
    return (int)reach_two_bone_solve_batch(&batch, &options);
}

int reach_wasm_crowd_count(void) { return count; }
/* One array of CROWD_MAX reals per coordinate, point after point: root, mid, end, pole. */
const reach_real *reach_wasm_crowd_points(void) { return &coordinates[0][0][0]; }
int reach_wasm_crowd_capacity(void) { return CROWD_MAX; }
const reach_real *reach_wasm_crowd_residuals(void) { return residual; }
const unsigned char *reach_wasm_crowd_reached(void) { return reached; }
const char *reach_wasm_crowd_isa(void) { return reach_batch_isa(); }
