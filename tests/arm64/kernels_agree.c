/* The NEON kernels of both batches against the scalar ones, built for 64-bit Arm and run under
 * qemu-user (`make test-arm64`; the unit tests do the same for every x86 kernel, but their test
 * framework is not built for Arm here). Two-bone: the same statuses on every limb, coordinates
 * within the tests' tolerance. Batch FABRIK: the same bits, on ordinary, folding and
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
        failures += two_bone_agrees(counts[c]);
    static const int caps[] = {1, 2, 3, 9, 17, 64};
    for (int kind = 0; kind < KINDS; ++kind)
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; ++c)
            for (int cold = 0; cold < 2; ++cold)
                failures += fabrik_agrees(kind, caps[c], cold);
    puts(failures ? "the NEON kernels disagree with the scalar ones" : "the NEON kernels agree with the scalar ones");
    return failures != 0;
}
