/* The NEON kernels of both batches against the scalar ones, built for 64-bit Arm and run under
 * qemu-user (`make test-arm64`; the unit tests do the same for every x86 kernel, but their test
 * framework is not built for Arm here). Two-bone, world-space and rig: the same statuses on every
 * limb, coordinates within the tests' tolerance. Batch FABRIK: the same bits, on ordinary, folding and
 * middle-heavy chains, cold and warm, under caps that stop them at every stage. Prints what it
 * compared; exit status 1 on any disagreement. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/reach.h"
#include "reach/testing.h"

static unsigned long long rng_state = 0x5eedull;

/* Uniform in [lo, hi), from a 64-bit linear congruential generator: the same numbers everywhere. */
static reach_real uniform(reach_real lo, reach_real hi) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    double unit = (double)(rng_state >> 11) / 9007199254740992.0;
    return lo + (hi - lo) * (reach_real)unit;
}

static reach_real *reals(size_t count) {
    reach_real *p = calloc(count ? count : 1, sizeof(reach_real));
    if (!p) exit(2);
    return p;
}

/* Random limbs in the unit cube, every seventh with its target on the root (through the scalar
 * solver) and every eleventh with a NaN (an error either way). */
static int two_bone_agrees(int count) {
    size_t n = (size_t)count;
    reach_real *in[15], *neon[7], *scalar[7];
    unsigned char *flags = calloc(4 * n, 1);
    if (!flags) exit(2);
    for (int k = 0; k < 15; ++k) {
        in[k] = reals(n);
        for (size_t i = 0; i < n; ++i)
            in[k][i] = uniform(-1, 1);
    }
    for (size_t i = 0; i < n; i += 7)
        for (int k = 0; k < 3; ++k)
            in[9 + k][i] = in[k][i];
    for (size_t i = 3; i < n; i += 11)
        in[3][i] = (reach_real)NAN;
    for (int k = 0; k < 7; ++k) {
        neon[k] = reals(n);
        scalar[k] = reals(n);
    }
    reach_two_bone_batch a;
    memset(&a, 0, sizeof a);
    a.count = count;
    reach_const_vec3_soa *points[5] = {&a.root, &a.mid, &a.end, &a.target, &a.pole};
    for (int k = 0; k < 5; ++k) {
        points[k]->x = in[3 * k];
        points[k]->y = in[3 * k + 1];
        points[k]->z = in[3 * k + 2];
    }
    reach_two_bone_batch b = a;
    a.out_mid = (reach_vec3_soa){neon[0], neon[1], neon[2]};
    a.out_end = (reach_vec3_soa){neon[3], neon[4], neon[5]};
    a.out_residual = neon[6];
    a.out_reached = flags;
    a.out_status = flags + n;
    b.out_mid = (reach_vec3_soa){scalar[0], scalar[1], scalar[2]};
    b.out_end = (reach_vec3_soa){scalar[3], scalar[4], scalar[5]};
    b.out_residual = scalar[6];
    b.out_reached = flags + 2 * n;
    b.out_status = flags + 3 * n;
    int differ = reach_two_bone_solve_batch_isa(&a, NULL, "neon") != reach_two_bone_solve_batch_isa(&b, NULL, "scalar");
    double worst = 0;
    for (size_t i = 0; i < n; ++i) {
        if (a.out_status[i] != b.out_status[i]) {
            differ = 1;
            continue;
        }
        if (a.out_status[i] != REACH_OK) continue;
        for (int k = 0; k < 6; ++k)
            worst = fmax(worst, fabs((double)neon[k][i] - (double)scalar[k][i]));
    }
    /* Limbs of up to 2√3 in the unit cube: 16 × the tests' 1e-4 reach tolerance of the chain,
     * as tests/test_two_bone_batch.c allows the vector path (looser than any real difference). */
    int far = worst > 16 * 1e-4 * 2 * 1.7320508;
    printf("two-bone, %4d limbs: statuses %s, largest coordinate difference %.3g\n", count, differ ? "DIFFER" : "agree",
           worst);
    for (int k = 0; k < 15; ++k)
        free(in[k]);
    for (int k = 0; k < 7; ++k) {
        free(neon[k]);
        free(scalar[k]);
    }
    free(flags);
    return differ || far;
}

/* Rig limbs under rotated parents scaled by 0.5 to 2, bones of 0.5 to 1.5, targets between the
 * fold and a fifth beyond reach, every seventh with a NaN target (an error either way) and every
 * fifth without a pole: the NEON kernel of the rig batch against its scalar one (which is
 * reach_two_bone_solve_rig limb by limb), the same statuses and `reached`, world joints, the joints
 * the rotations place and the residual within 64 units in the last place of the limb's size (the
 * mid joint's more where the target is near the root, as in the unit tests), and most limbs on
 * the vector lanes. */
static reach_quat random_rotation(void) {
    reach_quat q = reach_quat_make(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    return reach_quat_normalize_safe(q);
}

/* Where a limb's output rotations and translations place its mid joint and end in the world. */
static void rig_placed(const reach_two_bone_rig_input *in, const reach_two_bone_rig_output *out, reach_vec3 *mid,
                       reach_vec3 *end) {
    const reach_transform root =
        reach_transform_make(reach_quat_normalize_safe(out->root_rotation), in->root_local.translation);
    const reach_transform m = reach_transform_mul(
        root, reach_transform_make(reach_quat_normalize_safe(out->mid_rotation), out->mid_translation));
    const reach_transform e = reach_transform_mul(
        m, reach_transform_make(reach_quat_normalize_safe(out->end_rotation), out->end_translation));
    *mid = reach_affine_point(in->parent_world, m.translation);
    *end = reach_affine_point(in->parent_world, e.translation);
}

static double gap(reach_vec3 a, reach_vec3 b) { return (double)reach_vec3_length(reach_vec3_sub(a, b)); }

static int rig_agrees(int count) {
    const size_t n = (size_t)count;
    reach_two_bone_rig_input *in = calloc(n, sizeof *in);
    reach_two_bone_rig_output *neon = calloc(n, sizeof *neon), *scalar = calloc(n, sizeof *scalar);
    unsigned char *flags = calloc(3 * n, 1), *vector = flags + 2 * n;
    if (!in || !neon || !scalar || !flags) exit(2);
    for (size_t i = 0; i < n; ++i) {
        const reach_real scale = uniform(REACH_R(0.5), 2), upper = uniform(REACH_R(0.5), REACH_R(1.5));
        const reach_real lower = uniform(REACH_R(0.5), REACH_R(1.5));
        in[i].parent_world.linear = reach_mat3_from_quat(random_rotation());
        for (int c = 0; c < 3; ++c)
            in[i].parent_world.linear.col[c] = reach_vec3_scale(in[i].parent_world.linear.col[c], scale);
        in[i].parent_world.translation = reach_vec3_make(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
        in[i].root_local = reach_transform_make(random_rotation(), reach_vec3_make(uniform(-1, 1), 0, 0));
        in[i].mid_local = reach_transform_make(random_rotation(), reach_vec3_make(0, upper, 0));
        in[i].end_local = reach_transform_make(random_rotation(), reach_vec3_make(lower, 0, 0));
        const reach_real shortest = upper > lower ? upper - lower : lower - upper;
        const reach_real distance = uniform(shortest + REACH_R(0.05), REACH_R(1.2) * (upper + lower));
        const reach_vec3 direction = reach_vec3_normalize_safe(
            reach_vec3_make(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)), reach_vec3_make(1, 0, 0));
        const reach_vec3 root = reach_affine_point(in[i].parent_world, in[i].root_local.translation);
        in[i].target = reach_vec3_mad(root, direction, distance * scale);
        in[i].pole = reach_vec3_add(root, reach_vec3_make(uniform(-2, 2), uniform(-2, 2), uniform(-2, 2)));
        in[i].use_pole = i % 5 != 0;
        if (i % 7 == 3) in[i].target.x = (reach_real)NAN;
    }
    int differ = reach_two_bone_solve_rig_batch_lanes(in, count, NULL, neon, flags, "neon", vector) !=
                 reach_two_bone_solve_rig_batch_isa(in, count, NULL, scalar, flags + n, "scalar");
    /* The largest gap in units of its allowance: above 1 is a disagreement. */
    double worst = 0;
    int taken = 0, solved = 0;
    for (size_t i = 0; i < n; ++i) {
        if (flags[i] != flags[n + i] || (flags[i] == REACH_OK && neon[i].reached != scalar[i].reached)) {
            differ = 1;
            continue;
        }
        if (flags[i] != REACH_OK) continue;
        ++solved;
        taken += vector[i];
        const reach_vec3 root = reach_affine_point(in[i].parent_world, in[i].root_local.translation);
        const double size =
            (double)reach_vec3_length(root) + gap(scalar[i].mid, root) + gap(scalar[i].end, scalar[i].mid) + 1;
        /* The two paths round differently in a few dozen operations (up to about 13 units in the
         * last place of the size in the unit tests); a target close to the root turns the mid
         * joint with the rounding of its direction. */
        const double tol = 64 * (double)REACH_REAL_EPSILON * size;
        const double mid_tol = tol * (1 + size / gap(in[i].target, root));
        reach_vec3 placed_mid[2], placed_end[2];
        rig_placed(&in[i], &neon[i], &placed_mid[0], &placed_end[0]);
        rig_placed(&in[i], &scalar[i], &placed_mid[1], &placed_end[1]);
        const double ratios[5] = {gap(neon[i].mid, scalar[i].mid) / mid_tol, gap(neon[i].end, scalar[i].end) / tol,
                                  gap(placed_mid[0], placed_mid[1]) / mid_tol, gap(placed_end[0], placed_end[1]) / tol,
                                  fabs((double)neon[i].residual - (double)scalar[i].residual) / tol};
        for (int k = 0; k < 5; ++k)
            worst = fmax(worst, ratios[k] == ratios[k] ? ratios[k] : INFINITY);
    }
    /* The vector lanes took most limbs (a kernel that declined them all would agree trivially). */
    const int few = taken < solved * 9 / 10;
    const int far = worst > 1;
    printf("rig two-bone, %4d limbs: statuses and reached %s, %d of %d solved on the vector lanes, largest "
           "difference %.3g of its allowance\n",
           count, differ ? "DIFFER" : "agree", taken, solved, worst);
    free(in);
    free(neon);
    free(scalar);
    free(flags);
    return differ || far || few;
}

enum { ORDINARY, FOLDING, MIDDLE_HEAVY, KINDS };
static const char *const kind_names[KINDS] = {"ordinary", "folding", "middle-heavy"};

/* One bone's length in a chain of the kind: ordinary 0.5 … 1.5; folding a long first bone and
 * short ones after it; middle-heavy a long bone in the middle. */
static reach_real bone_length(int kind, int bone, int bones) {
    if (kind == ORDINARY) return uniform(REACH_R(0.5), REACH_R(1.5));
    int long_one = kind == FOLDING ? 0 : bones / 2;
    return bone == long_one ? uniform(1, 2) : uniform(REACH_R(0.1), REACH_R(0.3));
}

static int fabrik_agrees(int kind, int cap, int cold) {
    const int count = 1021, bones = kind == ORDINARY ? 10 : 6;
    const size_t n = (size_t)count, joints = n * (size_t)(bones + 1);
    reach_real *lengths = reals(n * (size_t)bones), *root[3], *target[3], *neon[3], *scalar[3];
    reach_real *residual = reals(2 * n);
    int *iterations = calloc(2 * n, sizeof(int));
    unsigned char *flags = calloc(4 * n, 1);
    if (!iterations || !flags) exit(2);
    for (int k = 0; k < 3; ++k) {
        root[k] = reals(n);
        target[k] = reals(n);
        neon[k] = reals(joints);
        scalar[k] = reals(joints);
    }
    for (size_t i = 0; i < n; ++i) {
        reach_real total = 0, longest = 0;
        for (int b = 0; b < bones; ++b) {
            reach_real l = bone_length(kind, b, bones);
            lengths[(size_t)b * n + i] = l;
            total += l;
            longest = l > longest ? l : longest;
        }
        /* Ordinary: anywhere up to a fifth beyond reach. The others: just outside the sphere
         * they cannot get inside, where they must fold. */
        reach_real inner = 2 * longest - total > 0 ? 2 * longest - total : 0;
        reach_real distance = kind == ORDINARY ? uniform(0, REACH_R(1.2)) * total
                                               : inner + uniform(REACH_R(0.001), REACH_R(0.3)) * (total - inner);
        reach_vec3 direction;
        do {
            direction = reach_vec3_make(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
        } while (!(reach_vec3_length_sq(direction) > REACH_R(1e-3) && reach_vec3_length_sq(direction) <= 1));
        direction = reach_vec3_normalize_safe(direction, reach_vec3_make(0, 1, 0));
        reach_vec3 r = reach_vec3_make(uniform(-2, 2), uniform(-2, 2), uniform(-2, 2));
        reach_vec3 t = reach_vec3_mad(r, direction, distance);
        root[0][i] = r.x, root[1][i] = r.y, root[2][i] = r.z;
        target[0][i] = t.x, target[1][i] = t.y, target[2][i] = t.z;
        for (size_t j = 0; j <= (size_t)bones; ++j)
            for (int k = 0; k < 3; ++k)
                neon[k][j * n + i] = scalar[k][j * n + i] = (k == 0   ? r.x
                                                             : k == 1 ? r.y
                                                                      : r.z) +
                                                            uniform(-1, 1) * total;
    }
    reach_fabrik_batch a;
    memset(&a, 0, sizeof a);
    a.count = count;
    a.bone_count = bones;
    a.lengths = lengths;
    a.root = (reach_const_vec3_soa){root[0], root[1], root[2]};
    a.target = (reach_const_vec3_soa){target[0], target[1], target[2]};
    reach_fabrik_batch b = a;
    a.joints = (reach_vec3_soa){neon[0], neon[1], neon[2]};
    a.out_residual = residual;
    a.out_iterations = iterations;
    a.out_reached = flags;
    a.out_status = flags + n;
    b.joints = (reach_vec3_soa){scalar[0], scalar[1], scalar[2]};
    b.out_residual = residual + n;
    b.out_iterations = iterations + n;
    b.out_reached = flags + 2 * n;
    b.out_status = flags + 3 * n;
    reach_fabrik_batch_settings options = reach_fabrik_batch_default_settings();
    options.cold_start = cold;
    options.max_iterations = cap;
    int differ =
        reach_fabrik_solve_batch_isa(&a, &options, "neon") != reach_fabrik_solve_batch_isa(&b, &options, "scalar");
    differ |= memcmp(residual, residual + n, n * sizeof(reach_real)) != 0;
    differ |= memcmp(iterations, iterations + n, n * sizeof(int)) != 0;
    differ |= memcmp(flags, flags + 2 * n, n) != 0 || memcmp(flags + n, flags + 3 * n, n) != 0;
    for (int k = 0; k < 3; ++k)
        differ |= memcmp(neon[k], scalar[k], joints * sizeof(reach_real)) != 0;
    int reached = 0;
    for (size_t i = 0; i < n; ++i)
        reached += flags[i];
    printf("batch FABRIK, %d %s chains, cap %2d, %s: %s (%d reached)\n", count, kind_names[kind], cap,
           cold ? "cold" : "warm", differ ? "DIFFERENT BITS" : "the same bits", reached);
    free(lengths);
    free(residual);
    free(iterations);
    free(flags);
    for (int k = 0; k < 3; ++k) {
        free(root[k]);
        free(target[k]);
        free(neon[k]);
        free(scalar[k]);
    }
    return differ;
}

int main(void) {
    printf("reach %s, batch kernel %s\n", REACH_PRECISION_NAME, reach_batch_isa());
    if (strcmp(reach_batch_isa(), "neon") != 0) {
        puts("not a NEON build");
        return 1;
    }
    int failures = 0;
    static const int counts[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 100, 1000, 4093};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
        failures += two_bone_agrees(counts[c]) + rig_agrees(counts[c]);
    static const int caps[] = {1, 2, 3, 9, 17, 64};
    for (int kind = 0; kind < KINDS; ++kind)
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; ++c)
            for (int cold = 0; cold < 2; ++cold)
                failures += fabrik_agrees(kind, caps[c], cold);
    puts(failures ? "the NEON kernels disagree with the scalar ones" : "the NEON kernels agree with the scalar ones");
    return failures != 0;
}
