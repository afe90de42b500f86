/* Batch FABRIK: over large seeded sets every chain keeps its lengths, reaches what it can and
 * lies straight toward what it cannot; every SIMD kernel gives the scalar kernel's bits; lanes
 * stop on their own; reachable chains reach what reach_fabrik_solve reaches; bad input is
 * named and leaves the chain untouched. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "reach/testing.h"

#ifdef REACH_DOUBLE
#define LARGEST DBL_MAX
#define BEYOND  1e200 /* finite, past the coordinate limit */
#else
#define LARGEST FLT_MAX
#define BEYOND  1e30f
#endif

/* Targets that cannot be reached: beyond the chain's length, or nearer the root than the
 * chain can fold. */
enum { BEYOND_REACH = 0, INSIDE_REACH = 2 };

static const char *const simd_kernels[] = {"avx512", "avx2", "sse2", "neon", "wasm-simd"};
#define SIMD_KERNEL_COUNT ((int)(sizeof simd_kernels / sizeof simd_kernels[0]))

/* ---- a batch and its arrays ------------------------------------------------------------- */

typedef struct chains {
    int count, bones, stride;
    reach_real *lengths;
    reach_real *root[3], *target[3], *joints[3];
    reach_real *residual;
    int *iterations;
    unsigned char *reached, *status;
    unsigned char *reachable; /* what the generator meant: 1 reachable, else BEYOND or INSIDE_REACH */
} chains;

static chains chains_make(int count, int bones, int stride) {
    chains c;
    memset(&c, 0, sizeof c);
    c.count = count;
    c.bones = bones;
    c.stride = stride;
    size_t rows = (size_t)(stride > 0 ? stride : 1), per = (size_t)(count > 0 ? count : 1);
    c.lengths = calloc((size_t)bones * rows, sizeof(reach_real));
    for (int k = 0; k < 3; ++k) {
        c.root[k] = calloc(per, sizeof(reach_real));
        c.target[k] = calloc(per, sizeof(reach_real));
        c.joints[k] = calloc((size_t)(bones + 1) * rows, sizeof(reach_real));
    }
    c.residual = calloc(per, sizeof(reach_real));
    c.iterations = calloc(per, sizeof(int));
    c.reached = calloc(per, 1);
    c.status = calloc(per, 1);
    c.reachable = calloc(per, 1);
    return c;
}

static void chains_free(chains *c) {
    free(c->lengths);
    for (int k = 0; k < 3; ++k) {
        free(c->root[k]);
        free(c->target[k]);
        free(c->joints[k]);
    }
    free(c->residual);
    free(c->iterations);
    free(c->reached);
    free(c->status);
    free(c->reachable);
}

/* A copy with the same inputs and joints (outputs copied too). */
static chains chains_copy(const chains *c) {
    chains d = chains_make(c->count, c->bones, c->stride);
    size_t rows = (size_t)(c->stride > 0 ? c->stride : 1), per = (size_t)(c->count > 0 ? c->count : 1);
    memcpy(d.lengths, c->lengths, (size_t)c->bones * rows * sizeof(reach_real));
    for (int k = 0; k < 3; ++k) {
        memcpy(d.root[k], c->root[k], per * sizeof(reach_real));
        memcpy(d.target[k], c->target[k], per * sizeof(reach_real));
        memcpy(d.joints[k], c->joints[k], (size_t)(c->bones + 1) * rows * sizeof(reach_real));
    }
    memcpy(d.residual, c->residual, per * sizeof(reach_real));
    memcpy(d.iterations, c->iterations, per * sizeof(int));
    memcpy(d.reached, c->reached, per);
    memcpy(d.status, c->status, per);
    memcpy(d.reachable, c->reachable, per);
    return d;
}

static reach_fabrik_batch batch_of(chains *c) {
    reach_fabrik_batch b;
    memset(&b, 0, sizeof b);
    b.count = c->count;
    b.bone_count = c->bones;
    b.stride = c->stride;
    b.lengths = c->lengths;
    reach_const_vec3_soa root = {c->root[0], c->root[1], c->root[2]},
                         target = {c->target[0], c->target[1], c->target[2]};
    reach_vec3_soa joints = {c->joints[0], c->joints[1], c->joints[2]};
    b.root = root;
    b.target = target;
    b.joints = joints;
    b.out_residual = c->residual;
    b.out_iterations = c->iterations;
    b.out_reached = c->reached;
    b.out_status = c->status;
    return b;
}

static size_t at(const chains *c, int row, int i) { return (size_t)row * (size_t)c->stride + (size_t)i; }

static reach_vec3 joint(const chains *c, int j, int i) {
    size_t k = at(c, j, i);
    return reach_vec3_make(c->joints[0][k], c->joints[1][k], c->joints[2][k]);
}

static void set_joint(chains *c, int j, int i, reach_vec3 p) {
    size_t k = at(c, j, i);
    c->joints[0][k] = p.x;
    c->joints[1][k] = p.y;
    c->joints[2][k] = p.z;
}

static int same_point(reach_vec3 a, reach_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static reach_vec3 unit(reach_vec3 v) { return reach_vec3_normalize_safe(v, reach_vec3_zero()); }

static reach_vec3 get3(reach_real *const a[3], int i) { return reach_vec3_make(a[0][i], a[1][i], a[2][i]); }

static void set3(reach_real *a[3], int i, reach_vec3 p) {
    a[0][i] = p.x;
    a[1][i] = p.y;
    a[2][i] = p.z;
}

static reach_real chain_length(const chains *c, int i) {
    reach_real total = 0;
    for (int b = 0; b < c->bones; ++b)
        total += c->lengths[at(c, b, i)];
    return total;
}

/* The end of a random pose (each bone turned off the last by up to `bend` radians): reachable. */
static reach_vec3 random_reachable(const chains *c, int i, test_rng *rng, reach_real bend) {
    reach_vec3 p = get3(c->root, i), dir = test_unit_vec3(rng);
    for (int b = 0; b < c->bones; ++b) {
        reach_vec3 turned = reach_vec3_mad(dir, test_unit_vec3(rng), bend);
        dir = reach_vec3_normalize_safe(turned, dir);
        p = reach_vec3_mad(p, dir, c->lengths[at(c, b, i)]);
    }
    return p;
}

/* Lengths 0.5 … 1.5 times a per-chain scale, roots in a ball, targets: mostly reachable, some
 * beyond reach, a few on the root. Joints: a random warm pose (not at the lengths). */
static void fill_random(chains *c, test_rng *rng) {
    for (int i = 0; i < c->count; ++i) {
        reach_real scale = test_uniform(rng, REACH_R(0.2), 3);
        for (int b = 0; b < c->bones; ++b)
            c->lengths[at(c, b, i)] = scale * test_uniform(rng, REACH_R(0.5), REACH_R(1.5));
        set3(c->root, i, test_in_ball(rng, 10));
        reach_real length = chain_length(c, i);
        uint64_t kind = test_rng_next(rng) % 10;
        reach_vec3 target;
        if (kind < 7) {
            target = random_reachable(c, i, rng, REACH_R(1.2));
            c->reachable[i] = 1;
        } else if (kind < 9) {
            target =
                reach_vec3_mad(get3(c->root, i), test_unit_vec3(rng), length * test_uniform(rng, REACH_R(1.01), 3));
            c->reachable[i] = BEYOND_REACH;
        } else {
            /* On the root: reachable when no bone is longer than all the others together. */
            target = get3(c->root, i);
            reach_real longest = 0;
            for (int b = 0; b < c->bones; ++b)
                longest = reach_max(longest, c->lengths[at(c, b, i)]);
            c->reachable[i] = 2 * longest <= REACH_R(0.999) * length ? 1 : INSIDE_REACH;
        }
        set3(c->target, i, target);
        for (int j = 0; j <= c->bones; ++j)
            set_joint(c, j, i, reach_vec3_add(get3(c->root, i), test_in_ball(rng, length)));
    }
}

static reach_fabrik_batch_settings cold_options(void) {
    reach_fabrik_batch_settings o = reach_fabrik_batch_default_settings();
    o.cold_start = 1;
    return o;
}

/* The tolerance fabrik_batch.h defines, for the default setting. */
static reach_real tolerance_of(const chains *c, int i) {
    reach_vec3 r = get3(c->root, i), t = get3(c->target, i);
    reach_real extent = reach_max(reach_vec3_max_abs(r), reach_vec3_max_abs(t)) + chain_length(c, i);
    return reach_max(REACH_R(1e-4) * chain_length(c, i), 16 * REACH_REAL_EPSILON * extent);
}

/* ---- what every solved chain must satisfy ------------------------------------------------ */

/* Returns 1 when a reachable target was missed: a chain can crawl for more iterations than the
 * cap allows (near full extension, or near the inside of its reach), so the large sets bound the
 * share of misses rather than forbid them. */
static int check_solved_chain(const chains *c, int i) {
    assert_int_equal(c->status[i], REACH_OK);
    reach_vec3 root = get3(c->root, i), target = get3(c->target, i);
    assert_true(same_point(joint(c, 0, i), root));
    reach_real length = chain_length(c, i);
    for (int b = 0; b < c->bones; ++b) {
        reach_real l = c->lengths[at(c, b, i)];
        ASSERT_NEAR(reach_vec3_distance(joint(c, b + 1, i), joint(c, b, i)), l, TEST_LENGTH_TOL * length,
                    "bone length kept");
    }
    reach_vec3 end = joint(c, c->bones, i);
    ASSERT_NEAR(c->residual[i], reach_vec3_distance(end, target), 4 * REACH_REAL_EPSILON * length,
                "the residual is the true one");
    assert_int_equal(c->reached[i], c->residual[i] <= tolerance_of(c, i));
    if (c->reachable[i] == 1) return !c->reached[i];
    if (c->reachable[i] == INSIDE_REACH) return 0;
    /* Out of reach: straight from the root toward the target, every joint on that line in
     * order. */
    reach_vec3 axis = unit(reach_vec3_sub(target, root));
    reach_real along = 0;
    for (int j = 1; j <= c->bones; ++j) {
        reach_vec3 v = reach_vec3_sub(joint(c, j, i), root);
        along += c->lengths[at(c, j - 1, i)];
        ASSERT_NEAR(reach_vec3_dot(v, axis), along, TEST_LENGTH_TOL * length, "straight: distance along the line");
        ASSERT_NEAR(reach_vec3_length(reach_vec3_reject(v, axis)), 0, TEST_LENGTH_TOL * length,
                    "straight: on the line");
    }
    assert_int_equal(c->reached[i], 0);
    assert_int_equal(c->iterations[i], 1);
    return 0;
}

/* Every chain checked; at most one reachable target in a thousand missed. */
static void check_solved_batch(const chains *c) {
    int missed = 0, reachable = 0;
    for (int i = 0; i < c->count; ++i) {
        if (c->status[i] != REACH_OK) continue;
        missed += check_solved_chain(c, i);
        reachable += c->reachable[i] == 1;
    }
    if (missed > 0) print_message("%d of %d reachable targets missed\n", missed, reachable);
    assert_true(missed * 1000 <= reachable);
}

static void assert_same_bits(const chains *a, const chains *b) {
    size_t rows = (size_t)(a->stride > 0 ? a->stride : 1), per = (size_t)(a->count > 0 ? a->count : 1);
    for (int k = 0; k < 3; ++k)
        assert_true(test_bytes_equal(a->joints[k], b->joints[k], (size_t)(a->bones + 1) * rows * sizeof(reach_real)));
    assert_true(test_bytes_equal(a->residual, b->residual, per * sizeof(reach_real)));
    assert_true(test_bytes_equal(a->iterations, b->iterations, per * sizeof(int)));
    assert_true(test_bytes_equal(a->reached, b->reached, per));
    assert_true(test_bytes_equal(a->status, b->status, per));
}

/* ---- large random sets ------------------------------------------------------------------- */

static void random_chains_keep_lengths_and_reach(void **state) {
    (void)state;
    static const int bone_counts[] = {1, 2, 3, 10, 33};
    test_rng rng = test_rng_make(0xfab1b47c4u);
    for (size_t n = 0; n < sizeof bone_counts / sizeof bone_counts[0]; ++n) {
        int count = test_scaled(20000) + (int)n; /* not a multiple of any lane width */
        for (int cold = 0; cold <= 1; ++cold) {
            chains c = chains_make(count, bone_counts[n], count + 3);
            fill_random(&c, &rng);
            reach_fabrik_batch b = batch_of(&c);
            reach_fabrik_batch_settings o = cold ? cold_options() : reach_fabrik_batch_default_settings();
            assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
            check_solved_batch(&c);
            chains_free(&c);
        }
    }
}

/* Solves copies of start with every kernel under o: each SIMD kernel this machine runs gives
 * the scalar kernel's bits, each it does not run writes nothing, and the default kernel gives
 * them too. Returns the SIMD kernels run. */
static int assert_kernels_give_scalar_bits(const chains *start, const reach_fabrik_batch_settings *o) {
    chains scalar = chains_copy(start);
    reach_fabrik_batch b = batch_of(&scalar);
    assert_int_equal(reach_fabrik_solve_batch_isa(&b, o, "scalar"), REACH_OK);
    int run = 0;
    for (int k = 0; k < SIMD_KERNEL_COUNT; ++k) {
        chains simd = chains_copy(start);
        reach_fabrik_batch v = batch_of(&simd);
        reach_status st = reach_fabrik_solve_batch_isa(&v, o, simd_kernels[k]);
        if (st == REACH_ERROR_INVALID_ARGUMENT) {
            /* Not on this machine or build: nothing may have been written. */
            assert_same_bits(&simd, start);
        } else {
            assert_int_equal(st, REACH_OK);
            assert_same_bits(&simd, &scalar);
            ++run;
        }
        chains_free(&simd);
    }
    chains defaulted = chains_copy(start);
    reach_fabrik_batch d = batch_of(&defaulted);
    assert_int_equal(reach_fabrik_solve_batch(&d, o), REACH_OK);
    assert_same_bits(&defaulted, &scalar);
    chains_free(&defaulted);
    chains_free(&scalar);
    return run;
}

static void every_kernel_gives_the_scalar_bits(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5eed4b175u);
    int kernels_run = 0;
    for (int cold = 0; cold <= 1; ++cold) {
        int count = test_scaled(10000) + 13;
        chains start = chains_make(count, 10, count);
        fill_random(&start, &rng);
        reach_fabrik_batch_settings o = cold ? cold_options() : reach_fabrik_batch_default_settings();
        kernels_run += assert_kernels_give_scalar_bits(&start, &o);
        chains_free(&start);
    }
    /* The default kernel is one of them, so at least it ran wherever a SIMD kernel is built. */
    if (strcmp(reach_batch_isa(), "scalar") != 0) assert_true(kernels_run >= 2);
}

static void counts_of_every_size_solve_alike(void **state) {
    (void)state;
    /* 0, 1, and counts around every lane width: each chain's bits do not depend on where it
     * sits, so every prefix of one batch solves to the same bits as the whole. */
    test_rng rng = test_rng_make(0xc0017u);
    const int total = 70;
    chains whole = chains_make(total, 7, total);
    fill_random(&whole, &rng);
    chains start = chains_copy(&whole);
    reach_fabrik_batch_settings o = cold_options();
    reach_fabrik_batch b = batch_of(&whole);
    assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
    for (int count = 0; count <= total; ++count) {
        chains part = chains_copy(&start);
        reach_fabrik_batch p = batch_of(&part);
        p.count = count;
        assert_int_equal(reach_fabrik_solve_batch(&p, &o), REACH_OK);
        for (int i = 0; i < total; ++i) {
            const chains *expect = i < count ? &whole : &start;
            for (int j = 0; j <= whole.bones; ++j)
                assert_true(same_point(joint(&part, j, i), joint(expect, j, i)));
            if (i < count) assert_true(part.residual[i] == whole.residual[i]);
        }
        chains_free(&part);
    }
    chains_free(&start);
    chains_free(&whole);
}

static void solving_twice_gives_the_same_bits(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xde7e4u);
    int count = test_scaled(5000) + 5;
    chains a = chains_make(count, 10, count);
    fill_random(&a, &rng);
    chains b = chains_copy(&a);
    reach_fabrik_batch ba = batch_of(&a), bb = batch_of(&b);
    assert_int_equal(reach_fabrik_solve_batch(&ba, NULL), REACH_OK);
    /* Something else solved in between. */
    chains other = chains_make(40, 3, 40);
    fill_random(&other, &rng);
    reach_fabrik_batch bo = batch_of(&other);
    assert_int_equal(reach_fabrik_solve_batch(&bo, NULL), REACH_OK);
    assert_int_equal(reach_fabrik_solve_batch(&bb, NULL), REACH_OK);
    assert_same_bits(&a, &b);
    chains_free(&other);
    chains_free(&a);
    chains_free(&b);
}

/* ---- lanes on their own ------------------------------------------------------------------ */

static void lanes_stop_independently(void **state) {
    (void)state;
    /* Every other chain already reaches (the previous solve's answer, warm); the rest start far
     * from their targets. The solved ones keep their bits and report 0 iterations, while their
     * neighbours in the same lanes iterate. */
    test_rng rng = test_rng_make(0x1a4e5u);
    int count = 67;
    chains c = chains_make(count, 10, count);
    fill_random(&c, &rng);
    for (int i = 0; i < count; ++i)
        c.reachable[i] = 1;
    for (int i = 0; i < count; ++i)
        set3(c.target, i, random_reachable(&c, i, &rng, REACH_R(1.0)));
    reach_fabrik_batch b = batch_of(&c);
    reach_fabrik_batch_settings o = cold_options();
    assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
    chains solved = chains_copy(&c);
    for (int i = 1; i < count; i += 2)
        set3(c.target, i, random_reachable(&c, i, &rng, REACH_R(1.0)));
    o.cold_start = 0;
    assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
    int moved_iterated = 0;
    check_solved_batch(&c);
    for (int i = 0; i < count; ++i) {
        if (i % 2 == 0) {
            assert_int_equal(c.iterations[i], 0);
            for (int j = 0; j <= c.bones; ++j)
                assert_true(
                    test_bytes_equal(&c.joints[0][at(&c, j, i)], &solved.joints[0][at(&c, j, i)], sizeof(reach_real)) &&
                    same_point(joint(&c, j, i), joint(&solved, j, i)));
        } else {
            moved_iterated += c.iterations[i] > 0;
        }
    }
    assert_int_equal(moved_iterated, count / 2);
    chains_free(&solved);
    chains_free(&c);
}

static void iteration_cap_and_zero_iterations(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xca9u);
    chains c = chains_make(33, 10, 33);
    fill_random(&c, &rng);
    chains start = chains_copy(&c);
    reach_fabrik_batch b = batch_of(&c);
    reach_fabrik_batch_settings o = reach_fabrik_batch_default_settings();
    /* Cap 0, warm: the joints are only re-spaced along their lines; nothing iterates. */
    o.max_iterations = 0;
    assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
    for (int i = 0; i < c.count; ++i) {
        assert_int_equal(c.iterations[i], 0);
        assert_true(same_point(joint(&c, 0, i), get3(c.root, i)));
        for (int j = 1; j <= c.bones; ++j) {
            /* joint j lies on the line from joint j − 1 to where it was */
            reach_vec3 from = joint(&c, j - 1, i);
            reach_vec3 was = unit(reach_vec3_sub(joint(&start, j, i), from));
            reach_vec3 now = unit(reach_vec3_sub(joint(&c, j, i), from));
            ASSERT_VEC3_NEAR(now, was, 1e-4, "re-spaced along the line");
        }
    }
    /* Cap 1: at most one iteration each. */
    chains one = chains_copy(&start);
    reach_fabrik_batch b1 = batch_of(&one);
    o.max_iterations = 1;
    assert_int_equal(reach_fabrik_solve_batch(&b1, &o), REACH_OK);
    for (int i = 0; i < one.count; ++i)
        assert_true(one.iterations[i] <= 1);
    chains_free(&one);
    chains_free(&start);
    chains_free(&c);
}

static void slices_solve_like_the_whole(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x511ce5u);
    int count = 101;
    chains whole = chains_make(count, 6, count);
    fill_random(&whole, &rng);
    chains parts = chains_copy(&whole);
    reach_fabrik_batch bw = batch_of(&whole), bp = batch_of(&parts);
    assert_int_equal(reach_fabrik_solve_batch(&bw, NULL), REACH_OK);
    const int cuts[] = {0, 1, 18, 50, 83, 101};
    for (int k = 0; k + 1 < 6; ++k) {
        reach_fabrik_batch s = reach_fabrik_batch_slice(&bp, cuts[k], cuts[k + 1] - cuts[k]);
        assert_int_equal(reach_fabrik_solve_batch(&s, NULL), REACH_OK);
    }
    assert_same_bits(&whole, &parts);
    chains_free(&parts);
    chains_free(&whole);
}

/* ---- against the single-chain solver ----------------------------------------------------- */

static void reaches_what_the_single_chain_solver_reaches(void **state) {
    (void)state;
    /* The same chains as skeletons of ball joints (bone k + 1 one length along bone k's +y, the
     * root at the chain's root), from the straight rest pose; the batch cold along +y. */
    test_rng rng = test_rng_make(0x51a91eu);
    const int bones = 10, count = test_scaled(2000) + 1;
    chains c = chains_make(count, bones, count);
    fill_random(&c, &rng);
    reach_fabrik_batch b = batch_of(&c);
    reach_fabrik_batch_settings o = cold_options();
    assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);

    int parents[11];
    reach_transform rest[11], pose[11], world[11];
    unsigned char scratch[4096];
    int both = 0, close = 0;
    for (int i = 0; i < count; ++i) {
        for (int k = 0; k <= bones; ++k) {
            parents[k] = k - 1;
            rest[k] = reach_transform_identity();
            rest[k].translation = k == 0 ? get3(c.root, i) : reach_vec3_make(0, c.lengths[at(&c, k - 1, i)], 0);
        }
        reach_skeleton sk = {bones + 1, parents, rest, NULL};
        memcpy(pose, rest, sizeof pose);
        reach_target t = reach_target_position(bones, get3(c.target, i));
        reach_solve_result r;
        assert_true(reach_fabrik_scratch_size(&sk, 1) <= sizeof scratch);
        assert_int_equal(reach_fabrik_solve(&sk, &t, 1, NULL, pose, scratch, sizeof scratch, &r), REACH_OK);
        reach_forward_kinematics(&sk, pose, world);
        /* Out of reach both lie straight toward the target: the same pose. */
        if (c.reachable[i] == BEYOND_REACH)
            for (int j = 0; j <= bones; ++j)
                ASSERT_VEC3_NEAR(joint(&c, j, i), world[j].translation, 1e-3 * chain_length(&c, i), "straight alike");
        if (c.reachable[i] != 1) continue;
        /* Reachable: whatever the single solver reaches, the batch reaches. */
        if (r.reached) assert_int_equal(c.reached[i], 1);
        both += r.reached && c.reached[i];
        reach_real worst = 0;
        for (int j = 0; j <= bones; ++j)
            worst = reach_max(worst, reach_vec3_distance(joint(&c, j, i), world[j].translation));
        close += worst <= REACH_R(1e-2) * chain_length(&c, i);
    }
    print_message("batch and single chain: %d reached by both, %d of them with every joint within 1%% of the "
                  "chain length\n",
                  both, close);
    assert_true(both > 0);
    chains_free(&c);
}

/* Chain i of c: bone `heavy` 1 to 2 long, the others 0.1 to 0.3, its root in a ball. Returns
 * the radius of the sphere about the root that the end cannot get inside. */
static reach_real one_heavy_bone(chains *c, int i, int heavy, test_rng *rng) {
    for (int b = 0; b < c->bones; ++b)
        c->lengths[at(c, b, i)] = b == heavy ? test_uniform(rng, 1, 2) : test_uniform(rng, REACH_R(0.1), REACH_R(0.3));
    set3(c->root, i, test_in_ball(rng, 2));
    return 2 * c->lengths[at(c, heavy, i)] - chain_length(c, i);
}

/* Chain i's target `distance` from its root in a random direction: one it can reach. */
static void reachable_target_at(chains *c, int i, reach_real distance, test_rng *rng) {
    set3(c->target, i, reach_vec3_mad(get3(c->root, i), test_unit_vec3(rng), distance));
    c->reachable[i] = 1;
}

/* Folding chains: a long first bone and five short ones, targets from just outside the sphere
 * the chain cannot get inside (the first bone's length less the rest) to a third of the way
 * out. No straight run from the root fits them; the folded bridge (two straight runs) does. */
static chains folding_chains(test_rng *rng, int count) {
    const int bones = 6;
    chains c = chains_make(count, bones, count);
    for (int i = 0; i < count; ++i) {
        reach_real inner = one_heavy_bone(&c, i, 0, rng), length = chain_length(&c, i);
        reachable_target_at(&c, i, inner + test_uniform(rng, REACH_R(0.01), REACH_R(0.3)) * (length - inner), rng);
        for (int j = 0; j <= bones; ++j)
            set_joint(&c, j, i, reach_vec3_add(get3(c.root, i), test_in_ball(rng, length)));
    }
    return c;
}

/* Cold or warm from random poses, they reach in the first iteration (before the folded bridge,
 * FABRIK's passes crawled and 22 % were missed at the default cap). */
static void folding_chains_reach_through_the_folded_bridge(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xf01d5u);
    const int count = test_scaled(4000) + 1;
    for (int cold = 0; cold < 2; ++cold) {
        chains c = folding_chains(&rng, count);
        reach_fabrik_batch b = batch_of(&c);
        reach_fabrik_batch_settings o = cold ? cold_options() : reach_fabrik_batch_default_settings();
        assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
        int missed = 0;
        long iterations = 0;
        for (int i = 0; i < count; ++i) {
            missed += check_solved_chain(&c, i);
            iterations += c.iterations[i];
            assert_int_equal(c.iterations[i], 1);
        }
        print_message("folding chains, %s: %d of %d missed, %.2f iterations on average\n", cold ? "cold" : "warm",
                      missed, count, (double)iterations / count);
        assert_int_equal(missed, 0);
        chains_free(&c);
    }
}

/* Chains with a long bone in the middle (two short ones either side) and targets in the band
 * [low, high] of the way from the inside of their reach to the narrowest gap two straight runs
 * leave: no bridge fits the end there. */
static chains middle_heavy_chains(test_rng *rng, int count, reach_real low, reach_real high) {
    const int bones = 5;
    chains c = chains_make(count, bones, count);
    for (int i = 0; i < count; ++i) {
        reach_real inner = one_heavy_bone(&c, i, 2, rng), length = chain_length(&c, i);
        reach_real two_runs = reach_min(reach_fabs(2 * (c.lengths[at(&c, 0, i)] + c.lengths[at(&c, 1, i)]) - length),
                                        reach_fabs(length - 2 * (c.lengths[at(&c, 3, i)] + c.lengths[at(&c, 4, i)])));
        reachable_target_at(&c, i, inner + test_uniform(rng, low, high) * (two_runs - inner), rng);
    }
    return c;
}

/* Whether reach_fabrik_solve reaches chain i's target from the straight chain along +y (a
 * skeleton of ball joints, the batch's cold start). */
static int single_chain_reaches(const chains *c, int i) {
    int parents[8];
    reach_transform rest[8], pose[8];
    assert_true(c->bones < 8);
    for (int k = 0; k <= c->bones; ++k) {
        parents[k] = k - 1;
        rest[k] = reach_transform_identity();
        rest[k].translation = k == 0 ? get3(c->root, i) : reach_vec3_make(0, c->lengths[at(c, k - 1, i)], 0);
        pose[k] = rest[k];
    }
    reach_skeleton sk = {c->bones + 1, parents, rest, NULL};
    unsigned char scratch[4096];
    assert_true(reach_fabrik_scratch_size(&sk, 1) <= sizeof scratch);
    reach_target t = reach_target_position(c->bones, get3(c->target, i));
    reach_solve_result r;
    assert_int_equal(reach_fabrik_solve(&sk, &t, 1, NULL, pose, scratch, sizeof scratch, &r), REACH_OK);
    return r.reached;
}

/* Middle-heavy chains: over most of the band FABRIK's passes reach in a couple of iterations.
 * Right at the inside of the reach they crawl; there the lanes that stop halving their error go
 * on with CCD sweeps between the passes, and the batch misses at most a tenth of the targets
 * (measured when the sweeps came in: about 7 %, where FABRIK's passes alone missed 19 % and
 * sweeps alone 24 %). So does the single-chain solver from the straight rest: 18 % then, about
 * 5 % since it lays the chain on the arc to its target first (fabrik_arc.c), which the batch does
 * not. */
static void sweeps_between_passes_reach_near_the_inside(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xccd5u);
    /* Enough chains even in a quick run for the shares below to mean something. */
    const int count = test_scaled(4000) + 400;
    reach_fabrik_batch_settings o = cold_options();
    for (int inside = 0; inside < 2; ++inside) {
        chains c = inside ? middle_heavy_chains(&rng, count, 0, REACH_R(0.05))
                          : middle_heavy_chains(&rng, count, REACH_R(0.05), REACH_R(0.95));
        reach_fabrik_batch b = batch_of(&c);
        assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
        int missed = 0, single_missed = 0;
        long iterations = 0;
        for (int i = 0; i < count; ++i) {
            missed += check_solved_chain(&c, i);
            iterations += c.iterations[i];
            if (inside) single_missed += !single_chain_reaches(&c, i);
        }
        print_message("middle-heavy chains, %s: %d of %d missed (single-chain solver %d), %.2f iterations on "
                      "average\n",
                      inside ? "at the inside of the reach" : "across the band", missed, count, single_missed,
                      (double)iterations / count);
        if (inside) {
            assert_true(missed * 10 <= count);
            assert_true(single_missed * 10 <= count);
        } else {
            assert_int_equal(missed, 0);
        }
        chains_free(&c);
    }
}

/* The kernels agree bit for bit on the chains that take the folded bridge, the CCD sweeps and
 * the bends too, under caps that stop them at every stage. */
static void every_kernel_gives_the_scalar_bits_on_hard_chains(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xba7d5u);
    const int count = test_scaled(1000) + 13;
    const int caps[] = {2, 3, 9, 17, 64};
    for (int set = 0; set < 2; ++set) {
        chains start = set ? middle_heavy_chains(&rng, count, 0, REACH_R(0.05)) : folding_chains(&rng, count);
        for (int k = 0; k < (int)(sizeof caps / sizeof caps[0]); ++k) {
            reach_fabrik_batch_settings o = set ? cold_options() : reach_fabrik_batch_default_settings();
            o.max_iterations = caps[k];
            (void)assert_kernels_give_scalar_bits(&start, &o);
        }
        chains_free(&start);
    }
}

/* ---- exact cases --------------------------------------------------------------------------- */

/* One chain of `bones` equal bones of length 1 rooted at the origin, target given. */
static chains one_chain(int bones, reach_vec3 target) {
    chains c = chains_make(1, bones, 1);
    for (int b = 0; b < bones; ++b)
        c.lengths[b] = 1;
    set3(c.target, 0, target);
    c.reachable[0] = reach_vec3_length(target) < (reach_real)bones;
    return c;
}

static void targets_on_the_straight_line_and_on_the_root(void **state) {
    (void)state;
    /* Cold along +y: a target on that line at half the length (the chain must leave the line),
     * one on the root, one behind it, one exactly at full length, one beyond. */
    const reach_vec3 targets[] = {reach_vec3_make(0, 5, 0),  reach_vec3_make(0, 0, 0),  reach_vec3_make(0, -3, 0),
                                  reach_vec3_make(0, 10, 0), reach_vec3_make(0, 12, 0), reach_vec3_make(3, 4, 0)};
    for (size_t k = 0; k < sizeof targets / sizeof targets[0]; ++k) {
        chains c = one_chain(10, targets[k]);
        reach_fabrik_batch b = batch_of(&c);
        reach_fabrik_batch_settings o = cold_options();
        assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
        c.reachable[0] = reach_vec3_length(targets[k]) <= 10;
        if (reach_vec3_length(targets[k]) == 10) {
            /* exactly at full length: already there from the cold start, 0 iterations */
            assert_int_equal(c.iterations[0], 0);
        }
        if (reach_vec3_length(targets[k]) > 10) c.reachable[0] = BEYOND_REACH;
        assert_int_equal(check_solved_chain(&c, 0), 0);
        chains_free(&c);
    }
}

static void warm_joints_on_top_of_each_other(void **state) {
    (void)state;
    /* Every warm joint on the root: re-spaced along the cold direction, then solved. */
    chains c = one_chain(5, reach_vec3_make(1, 2, 1));
    reach_fabrik_batch b = batch_of(&c);
    reach_fabrik_batch_settings o = reach_fabrik_batch_default_settings();
    o.cold_direction = reach_vec3_make(0, 0, 2);
    assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
    assert_int_equal(check_solved_chain(&c, 0), 0);
    /* With the cap at 0, the re-spaced start: a joint that was on the one below continues the
     * bone below (the first bone: the cold direction), any other goes back toward where it was
     * (the root). */
    const reach_real expected_z[6] = {0, 1, 0, -1, 0, 1};
    chains d = one_chain(5, reach_vec3_make(1, 2, 1));
    reach_fabrik_batch bd = batch_of(&d);
    o.max_iterations = 0;
    assert_int_equal(reach_fabrik_solve_batch(&bd, &o), REACH_OK);
    for (int j = 0; j <= 5; ++j)
        ASSERT_VEC3_NEAR(joint(&d, j, 0), reach_vec3_make(0, 0, expected_z[j]), 1e-6, "re-spaced");
    chains_free(&d);
    chains_free(&c);
}

static void a_settled_warm_pose_is_left_bit_for_bit(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0x5e771edu);
    chains c = chains_make(45, 8, 45);
    fill_random(&c, &rng);
    reach_fabrik_batch b = batch_of(&c);
    assert_int_equal(reach_fabrik_solve_batch(&b, NULL), REACH_OK);
    chains first = chains_copy(&c);
    assert_int_equal(reach_fabrik_solve_batch(&b, NULL), REACH_OK);
    for (int i = 0; i < c.count; ++i) {
        if (!first.reached[i]) continue;
        assert_int_equal(c.iterations[i], 0);
        for (int j = 0; j <= c.bones; ++j)
            assert_true(same_point(joint(&c, j, i), joint(&first, j, i)));
    }
    chains_free(&first);
    chains_free(&c);
}

/* ---- bad input ----------------------------------------------------------------------------- */

typedef enum poison_at { AT_LENGTH, AT_ROOT, AT_TARGET, AT_JOINT } poison_at;

typedef struct bad_lane {
    const char *name;
    poison_at where;
    reach_real value;
    int cold; /* warm joints are only read on a warm start */
    reach_status expect;
} bad_lane;

static void each_bad_chain_is_named_and_left_untouched(void **state) {
    (void)state;
    const reach_real tiny_length =
#ifdef REACH_DOUBLE
        1e-150;
#else
        1e-13f;
#endif
    const bad_lane cases[] = {
        {"NaN length", AT_LENGTH, (reach_real)NAN, 1, REACH_ERROR_NOT_FINITE},
        {"infinite length", AT_LENGTH, (reach_real)INFINITY, 1, REACH_ERROR_NOT_FINITE},
        {"negative length", AT_LENGTH, -1, 1, REACH_ERROR_ZERO_LENGTH},
        {"zero length", AT_LENGTH, 0, 1, REACH_ERROR_ZERO_LENGTH},
        {"length tiny beside the chain", AT_LENGTH, REACH_ZERO_LENGTH_RATIO / 10, 1, REACH_ERROR_ZERO_LENGTH},
        {"length beyond the range", AT_LENGTH, BEYOND, 1, REACH_ERROR_OUT_OF_RANGE},
        {"NaN root", AT_ROOT, (reach_real)NAN, 1, REACH_ERROR_NOT_FINITE},
        {"infinite root", AT_ROOT, -(reach_real)INFINITY, 1, REACH_ERROR_NOT_FINITE},
        {"root beyond the range", AT_ROOT, BEYOND, 1, REACH_ERROR_OUT_OF_RANGE},
        {"NaN target", AT_TARGET, (reach_real)NAN, 1, REACH_ERROR_NOT_FINITE},
        {"infinite target", AT_TARGET, (reach_real)INFINITY, 0, REACH_ERROR_NOT_FINITE},
        {"target beyond the range", AT_TARGET, -BEYOND, 1, REACH_ERROR_OUT_OF_RANGE},
        {"NaN warm joint", AT_JOINT, (reach_real)NAN, 0, REACH_ERROR_NOT_FINITE},
        {"infinite warm joint", AT_JOINT, (reach_real)INFINITY, 0, REACH_ERROR_NOT_FINITE},
        {"warm joint beyond the range", AT_JOINT, BEYOND, 0, REACH_ERROR_OUT_OF_RANGE},
    };
    test_rng rng = test_rng_make(0xbad1a4e5u);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0] + 1; ++k) {
        /* The last round: every length tiny in absolute terms. */
        int tiny = k == sizeof cases / sizeof cases[0];
        const bad_lane *bad = tiny ? NULL : &cases[k];
        for (int lane = 0; lane < 37; lane += 9) {
            chains c = chains_make(37, 4, 37);
            fill_random(&c, &rng);
            if (tiny) {
                for (int bone = 0; bone < 4; ++bone)
                    c.lengths[at(&c, bone, lane)] = tiny_length;
            } else if (bad->where == AT_LENGTH) {
                c.lengths[at(&c, 2, lane)] = bad->value;
            } else if (bad->where == AT_ROOT) {
                c.root[1][lane] = bad->value;
            } else if (bad->where == AT_TARGET) {
                c.target[2][lane] = bad->value;
            } else {
                c.joints[0][at(&c, 3, lane)] = bad->value;
            }
            chains start = chains_copy(&c);
            reach_fabrik_batch b = batch_of(&c);
            reach_fabrik_batch_settings o = bad && bad->cold ? cold_options() : reach_fabrik_batch_default_settings();
            reach_status expect = tiny ? REACH_ERROR_ZERO_LENGTH : bad->expect;
            assert_int_equal(reach_fabrik_solve_batch(&b, &o), expect);
            assert_int_equal(c.status[lane], expect);
            assert_true(c.residual[lane] == LARGEST);
            assert_int_equal(c.reached[lane], 0);
            assert_int_equal(c.iterations[lane], 0);
            for (int j = 0; j <= c.bones; ++j)
                for (int a = 0; a < 3; ++a)
                    assert_true(test_bytes_equal(&c.joints[a][at(&c, j, lane)], &start.joints[a][at(&c, j, lane)],
                                                 sizeof(reach_real)));
            /* Every other chain is solved as usual. */
            check_solved_batch(&c);
            /* Without a status array the call still names the error. */
            chains again = chains_copy(&start);
            reach_fabrik_batch ba = batch_of(&again);
            ba.out_status = NULL;
            assert_int_equal(reach_fabrik_solve_batch(&ba, &o), expect);
            chains_free(&again);
            chains_free(&start);
            chains_free(&c);
        }
    }
}

static void the_first_error_is_returned(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xf1457u);
    chains c = chains_make(40, 3, 40);
    fill_random(&c, &rng);
    c.lengths[at(&c, 1, 20)] = 0;
    c.root[0][30] = (reach_real)NAN;
    reach_fabrik_batch b = batch_of(&c);
    reach_fabrik_batch_settings o = cold_options();
    assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_ERROR_ZERO_LENGTH);
    assert_int_equal(c.status[30], REACH_ERROR_NOT_FINITE);
    chains_free(&c);
}

/* Batch-wide errors write nothing at all. */
static void expect_nothing_written(chains *c, const reach_fabrik_batch *b, const reach_fabrik_batch_settings *o,
                                   reach_status expect) {
    chains start = chains_copy(c);
    assert_int_equal(reach_fabrik_solve_batch(b, o), expect);
    assert_int_equal(reach_fabrik_solve_batch_isa(b, o, "scalar"), expect);
    assert_same_bits(c, &start);
    chains_free(&start);
}

static void bad_batches_and_options_are_errors(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xbadba7c4u);
    chains c = chains_make(20, 4, 20);
    fill_random(&c, &rng);
    /* Fill the outputs with something to see that they stay. */
    memset(c.residual, 0x55, 20 * sizeof(reach_real));
    memset(c.status, 0x77, 20);
    memset(c.iterations, 0x11, 20 * sizeof(int));
    const reach_fabrik_batch good = batch_of(&c);
    reach_fabrik_batch_settings o = reach_fabrik_batch_default_settings();
    assert_int_equal(reach_fabrik_solve_batch(NULL, &o), REACH_ERROR_INVALID_ARGUMENT);

    reach_fabrik_batch b = good;
    b.count = -1;
    expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    b = good;
    b.bone_count = 0;
    expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    b = good;
    b.bone_count = -3;
    expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    b = good;
    b.stride = 19;
    expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    const reach_real **inputs[] = {&b.lengths, &b.root.x, &b.root.y, &b.root.z, &b.target.x, &b.target.y, &b.target.z};
    for (size_t k = 0; k < sizeof inputs / sizeof inputs[0]; ++k) {
        b = good;
        *inputs[k] = NULL;
        expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    }
    reach_real **outputs[] = {&b.joints.x, &b.joints.y, &b.joints.z};
    for (size_t k = 0; k < 3; ++k) {
        b = good;
        *outputs[k] = NULL;
        expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    }

    b = good;
    o.max_iterations = -1;
    expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    o = reach_fabrik_batch_default_settings();
    o.tolerance = -1;
    expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    o.tolerance = (reach_real)NAN;
    expect_nothing_written(&c, &b, &o, REACH_ERROR_NOT_FINITE);
    o.tolerance = (reach_real)INFINITY;
    expect_nothing_written(&c, &b, &o, REACH_ERROR_NOT_FINITE);
    o = cold_options();
    o.cold_direction = reach_vec3_zero();
    expect_nothing_written(&c, &b, &o, REACH_ERROR_INVALID_ARGUMENT);
    o.cold_direction = reach_vec3_make(0, (reach_real)NAN, 1);
    expect_nothing_written(&c, &b, &o, REACH_ERROR_NOT_FINITE);

    /* An unknown kernel name, or none. */
    o = reach_fabrik_batch_default_settings();
    chains start = chains_copy(&c);
    assert_int_equal(reach_fabrik_solve_batch_isa(&b, &o, "mmx"), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_fabrik_solve_batch_isa(&b, &o, NULL), REACH_ERROR_INVALID_ARGUMENT);
    assert_same_bits(&c, &start);
    chains_free(&start);

    /* count 0 needs no arrays at all. */
    reach_fabrik_batch empty;
    memset(&empty, 0, sizeof empty);
    empty.bone_count = 3;
    assert_int_equal(reach_fabrik_solve_batch(&empty, NULL), REACH_OK);
    chains_free(&c);
}

/* Found by fuzz_fabrik_batch: on a warm start the cold direction was not checked, yet a kick
 * turns a stalled chain whose target is on its root toward it; NaN in it gave NaN joints with
 * REACH_OK. It is the options' NaN there too; a zero direction is still only a cold start's
 * error (a warm one falls back to +y). */
static void a_warm_start_checks_the_cold_direction_too(void **state) {
    (void)state;
    chains c = chains_make(1, 1, 1);
    c.lengths[0] = REACH_R(0.125);
    set3(c.root, 0, reach_vec3_make(0, -2, -2));
    set3(c.target, 0, reach_vec3_make(0, -2, -2)); /* on the root: the chain stalls and is kicked */
    set_joint(&c, 0, 0, reach_vec3_make(REACH_R(-1.875), REACH_R(-0.125), 0));
    set_joint(&c, 1, 0, reach_vec3_make(1e6, 999998, -2));
    memset(c.residual, 0x55, sizeof(reach_real));
    const reach_fabrik_batch b = batch_of(&c);
    reach_fabrik_batch_settings o = reach_fabrik_batch_default_settings();
    assert_int_equal(o.cold_start, 0);
    o.cold_direction = reach_vec3_make(REACH_R(1e-45), (reach_real)NAN, REACH_R(1.875));
    expect_nothing_written(&c, &b, &o, REACH_ERROR_NOT_FINITE);
    o.cold_direction = reach_vec3_make(0, 0, (reach_real)INFINITY);
    expect_nothing_written(&c, &b, &o, REACH_ERROR_NOT_FINITE);

    o.cold_direction = reach_vec3_zero();
    assert_int_equal(reach_fabrik_solve_batch(&b, &o), REACH_OK);
    assert_int_equal(c.status[0], REACH_OK);
    assert_true(reach_vec3_is_finite(joint(&c, 1, 0)));
    assert_true(same_point(joint(&c, 0, 0), get3(c.root, 0)));
    ASSERT_NEAR(reach_vec3_distance(joint(&c, 1, 0), joint(&c, 0, 0)), c.lengths[0], TEST_LENGTH_TOL,
                "bone length kept");
    chains_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_chains_keep_lengths_and_reach),
        cmocka_unit_test(every_kernel_gives_the_scalar_bits),
        cmocka_unit_test(counts_of_every_size_solve_alike),
        cmocka_unit_test(solving_twice_gives_the_same_bits),
        cmocka_unit_test(lanes_stop_independently),
        cmocka_unit_test(iteration_cap_and_zero_iterations),
        cmocka_unit_test(slices_solve_like_the_whole),
        cmocka_unit_test(reaches_what_the_single_chain_solver_reaches),
        cmocka_unit_test(folding_chains_reach_through_the_folded_bridge),
        cmocka_unit_test(sweeps_between_passes_reach_near_the_inside),
        cmocka_unit_test(every_kernel_gives_the_scalar_bits_on_hard_chains),
        cmocka_unit_test(targets_on_the_straight_line_and_on_the_root),
        cmocka_unit_test(warm_joints_on_top_of_each_other),
        cmocka_unit_test(a_settled_warm_pose_is_left_bit_for_bit),
        cmocka_unit_test(each_bad_chain_is_named_and_left_untouched),
        cmocka_unit_test(the_first_error_is_returned),
        cmocka_unit_test(bad_batches_and_options_are_errors),
        cmocka_unit_test(a_warm_start_checks_the_cold_direction_too),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
