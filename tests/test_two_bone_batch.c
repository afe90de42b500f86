/* Batch two-bone IK: every SIMD kernel this machine runs agrees with the scalar solver limb by
 * limb, edge lanes behave exactly as the scalar solver documents, bad lanes keep their pose,
 * and solving in place works. */
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "reach/testing.h"

typedef struct soa {
    reach_real *v[15]; /* root, mid, end, target, pole: x, y, z each */
    reach_real *out[6];
    reach_real *residual;
    unsigned char *reached, *status;
    int count;
} soa;

static soa soa_make(int count) {
    soa s;
    s.count = count;
    for (int k = 0; k < 15; ++k)
        s.v[k] = calloc((size_t)count, sizeof(reach_real));
    for (int k = 0; k < 6; ++k)
        s.out[k] = calloc((size_t)count, sizeof(reach_real));
    s.residual = calloc((size_t)count, sizeof(reach_real));
    s.reached = calloc((size_t)count, 1);
    s.status = calloc((size_t)count, 1);
    return s;
}

static void soa_free(soa *s) {
    for (int k = 0; k < 15; ++k)
        free(s->v[k]);
    for (int k = 0; k < 6; ++k)
        free(s->out[k]);
    free(s->residual);
    free(s->reached);
    free(s->status);
}

static void soa_set(soa *s, int i, const reach_two_bone_input *in) {
    const reach_vec3 p[5] = {in->root, in->mid, in->end, in->target, in->pole};
    for (int k = 0; k < 5; ++k) {
        s->v[3 * k][i] = p[k].x;
        s->v[3 * k + 1][i] = p[k].y;
        s->v[3 * k + 2][i] = p[k].z;
    }
}

static reach_two_bone_input soa_get(const soa *s, int i) {
    reach_two_bone_input in;
    reach_vec3 *p[5] = {&in.root, &in.mid, &in.end, &in.target, &in.pole};
    for (int k = 0; k < 5; ++k)
        *p[k] = reach_vec3_make(s->v[3 * k][i], s->v[3 * k + 1][i], s->v[3 * k + 2][i]);
    in.use_pole = 1;
    return in;
}

static reach_const_vec3_soa cview(const soa *s, int k) {
    reach_const_vec3_soa c = {s->v[3 * k], s->v[3 * k + 1], s->v[3 * k + 2]};
    return c;
}

static reach_two_bone_batch batch_of(soa *s, int poles) {
    reach_two_bone_batch b;
    memset(&b, 0, sizeof b);
    b.count = s->count;
    b.root = cview(s, 0);
    b.mid = cview(s, 1);
    b.end = cview(s, 2);
    b.target = cview(s, 3);
    if (poles) b.pole = cview(s, 4);
    reach_vec3_soa mid = {s->out[0], s->out[1], s->out[2]}, end = {s->out[3], s->out[4], s->out[5]};
    b.out_mid = mid;
    b.out_end = end;
    b.out_residual = s->residual;
    b.out_reached = s->reached;
    b.out_status = s->status;
    return b;
}

static reach_two_bone_input random_input(test_rng *rng) {
    reach_two_bone_input in;
    in.root = test_in_ball(rng, 3);
    in.mid = reach_vec3_mad(in.root, test_unit_vec3(rng), test_uniform(rng, REACH_R(0.1), 2));
    in.end = reach_vec3_mad(in.mid, test_unit_vec3(rng), test_uniform(rng, REACH_R(0.1), 2));
    in.target = reach_vec3_add(in.root, test_in_ball(rng, 5));
    in.pole = reach_vec3_add(in.root, test_in_ball(rng, 3));
    in.use_pole = 1;
    return in;
}

/* Every kernel name a build may have; reach_two_bone_solve_batch_isa refuses those this build
 * or this machine lacks. */
static const char *const isa_names[] = {"avx512", "avx2", "sse2", "neon", "wasm-simd", "scalar"};
#define ISA_COUNT ((int)(sizeof isa_names / sizeof isa_names[0]))

/* Solves the batch on the kernel isa_names[k]; 0 if this machine cannot run it. */
static int solve_on(int k, const reach_two_bone_batch *b, const reach_two_bone_settings *opt, reach_status *st) {
    *st = reach_two_bone_solve_batch_isa(b, opt, isa_names[k]);
    return *st != REACH_ERROR_INVALID_ARGUMENT;
}

/* Each lane of the batch against reach_two_bone_solve on that limb alone. */
static void check_lanes(const soa *s, int poles, const reach_two_bone_settings *opt) {
    for (int i = 0; i < s->count; ++i) {
        reach_two_bone_input in = soa_get(s, i);
        in.use_pole = poles;
        reach_two_bone_output out;
        reach_status st = reach_two_bone_solve(&in, opt, &out);
        assert_int_equal(s->status[i], st);
        if (st != REACH_OK) {
            /* Not solved: the current pose comes back. */
            assert_true(s->out[0][i] == in.mid.x && s->out[4][i] == in.end.y);
            assert_int_equal(s->reached[i], 0);
            continue;
        }
        reach_real chain = reach_vec3_distance(in.mid, in.root) + reach_vec3_distance(in.end, in.mid);
        reach_real tol = TEST_REACH_TOL * 16 * chain;
        /* The mid joint is ill-conditioned where the limb is nearly straight or folded: its
         * height h off the root→end line moves by about eps·L²/h for a rounding of eps in the
         * foot. Two correct solvers may differ by that much there. */
        reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(out.end, in.root), reach_vec3_make(1, 0, 0));
        reach_real h = reach_vec3_length(reach_vec3_reject(reach_vec3_sub(out.mid, in.root), axis));
        reach_real floor_h = reach_sqrt(REACH_REAL_EPSILON) * chain;
        reach_real mid_tol = tol + 16 * REACH_REAL_EPSILON * chain * chain / reach_max(h, floor_h);
        ASSERT_VEC3_NEAR(reach_vec3_make(s->out[0][i], s->out[1][i], s->out[2][i]), out.mid, mid_tol, "batch mid");
        ASSERT_VEC3_NEAR(reach_vec3_make(s->out[3][i], s->out[4][i], s->out[5][i]), out.end, tol, "batch end");
        ASSERT_NEAR(s->residual[i], out.residual, tol, "batch residual");
        /* Reached may differ only where the residual sits on the tolerance itself. */
        if (s->reached[i] != out.reached)
            ASSERT_NEAR(out.residual, REACH_R(1e-4) * chain, tol, "reached differs only at the threshold");
    }
}

/* The batch solved on each kernel this machine runs, each checked lane by lane. */
static void check_every_kernel(soa *s, int poles, const reach_two_bone_settings *opt, reach_status expected) {
    reach_two_bone_batch b = batch_of(s, poles);
    for (int k = 0; k < ISA_COUNT; ++k) {
        reach_status st;
        if (!solve_on(k, &b, opt, &st)) continue;
        assert_int_equal(st, expected);
        check_lanes(s, poles, opt);
    }
}

static void batch_agrees_with_the_scalar_solver(void **state) {
    (void)state;
    const int count = TEST_CASES + 13; /* not a multiple of any vector width: tails too */
    soa s = soa_make(count);
    test_rng rng = test_rng_make(50);
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input in = random_input(&rng);
        soa_set(&s, i, &in);
    }
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    reach_real *first = malloc((size_t)count * sizeof(reach_real));
    for (int poles = 0; poles <= 1; ++poles) {
        reach_two_bone_batch b = batch_of(&s, poles);
        assert_int_equal(reach_two_bone_solve_batch(&b, &opt), REACH_OK);
        check_lanes(&s, poles, &opt);
        /* And twice gives the same bits. */
        memcpy(first, s.out[0], (size_t)count * sizeof(reach_real));
        assert_int_equal(reach_two_bone_solve_batch(&b, &opt), REACH_OK);
        assert_true(test_bytes_equal(first, s.out[0], (size_t)count * sizeof(reach_real)));
        /* Every other kernel this machine runs, not only the one the batch picks. */
        check_every_kernel(&s, poles, &opt, REACH_OK);
    }
    free(first);
    soa_free(&s);
}

/* The kernel reach_batch_isa names runs, and so does the scalar path; an unknown name is
 * refused with the outputs untouched. */
static void the_kernels_this_machine_runs_are_reachable_by_name(void **state) {
    (void)state;
    soa s = soa_make(20);
    test_rng rng = test_rng_make(56);
    for (int i = 0; i < s.count; ++i) {
        reach_two_bone_input in = random_input(&rng);
        soa_set(&s, i, &in);
    }
    reach_two_bone_batch b = batch_of(&s, 1);
    int picked_runs = 0, runs = 0;
    for (int k = 0; k < ISA_COUNT; ++k) {
        reach_status st;
        if (!solve_on(k, &b, NULL, &st)) continue;
        assert_int_equal(st, REACH_OK);
        runs++;
        picked_runs |= strcmp(isa_names[k], reach_batch_isa()) == 0;
    }
    assert_true(picked_runs);
    assert_true(runs >= (strcmp(reach_batch_isa(), "scalar") == 0 ? 1 : 2));
    memset(s.out[0], 0, (size_t)s.count * sizeof(reach_real));
    assert_int_equal(reach_two_bone_solve_batch_isa(&b, NULL, "mmx"), REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(reach_two_bone_solve_batch_isa(&b, NULL, NULL), REACH_ERROR_INVALID_ARGUMENT);
    for (int i = 0; i < s.count; ++i)
        assert_true(s.out[0][i] == 0);
    soa_free(&s);
}

/* Bones equal to a few roundings, the target inside the fold: the longer bone points at the
 * target in every kernel as in the scalar solver (the mid joint would be two bone lengths off
 * the other way). The squared lengths decide, in both. */
static void folded_limbs_with_nearly_equal_bones_agree(void **state) {
    (void)state;
    const int count = 512;
    soa s = soa_make(count);
    test_rng rng = test_rng_make(57);
    const int ulps[] = {-64, -16, -4, -1, 1, 4, 16, 64};
    for (int i = 0; i < count; ++i) {
        int k = ulps[i % 8];
        /* Along the axes the lengths are the coordinates; in random directions, the rounding
         * of the coordinates changes them by about ε, so only the larger gaps. */
        int axes = (i / 8) % 2 == 0 || k * k < 256;
        reach_vec3 dir1 = axes ? reach_vec3_make(1, 0, 0) : test_unit_vec3(&rng);
        reach_vec3 dir2 = axes ? reach_vec3_make(0, 1, 0) : test_unit_vec3(&rng);
        reach_real l1 = test_uniform(&rng, REACH_R(0.5), 2), l2 = l1 * (1 + (reach_real)k * REACH_REAL_EPSILON);
        reach_two_bone_input in;
        in.root = reach_vec3_zero();
        in.mid = reach_vec3_scale(dir1, l1);
        in.end = reach_vec3_mad(in.mid, dir2, l2);
        reach_real fold = reach_fabs(l2 - l1);
        in.target = reach_vec3_scale(test_unit_vec3(&rng), fold * test_uniform(&rng, REACH_R(0.05), REACH_R(0.5)));
        in.pole = test_in_ball(&rng, 3);
        in.use_pole = 1;
        soa_set(&s, i, &in);
    }
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    for (int poles = 0; poles <= 1; ++poles)
        check_every_kernel(&s, poles, &opt, REACH_OK);
    soa_free(&s);
}

/* Every awkward lane the scalar solver names, mixed among ordinary ones. */
static void edge_lanes_behave_as_the_scalar_solver_says(void **state) {
    (void)state;
    const int count = 64;
    soa s = soa_make(count);
    test_rng rng = test_rng_make(51);
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input in = random_input(&rng);
        switch (i % 8) {
        case 1: in.target = in.root; break;                              /* target at the root */
        case 2: in.pole = reach_vec3_lerp(in.root, in.target, 3); break; /* pole on the line */
        case 3: in.mid.y = (reach_real)NAN; break;                       /* not finite */
        case 4: in.end = in.mid; break;                                  /* zero-length bone */
        case 5:
            in.root = reach_vec3_add(in.root, reach_vec3_make(REACH_R(1e30), 0, 0));
            in.mid.x += REACH_R(1e30);
            in.end.x += REACH_R(1e30);
            in.target.x += REACH_R(1e30);
            in.pole.x += REACH_R(1e30);
            break;                        /* below coordinate resolution */
        case 6: in.pole = in.root; break; /* pole at the root */
        case 7: in.end = reach_vec3_add(in.mid, reach_vec3_sub(in.mid, in.root)); break; /* straight */
        default: break;
        }
        soa_set(&s, i, &in);
    }
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    for (int poles = 0; poles <= 1; ++poles) {
        reach_two_bone_batch b = batch_of(&s, poles);
        reach_status st = reach_two_bone_solve_batch(&b, &opt);
        assert_int_equal(st, REACH_ERROR_NOT_FINITE); /* the first bad lane's error */
        check_lanes(&s, poles, &opt);
        check_every_kernel(&s, poles, &opt, REACH_ERROR_NOT_FINITE);
    }
    soa_free(&s);
}

static void solving_in_place_reads_each_lane_before_writing_it(void **state) {
    (void)state;
    const int count = 1000;
    soa s = soa_make(count), copy = soa_make(count);
    test_rng rng = test_rng_make(52);
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input in = random_input(&rng);
        if (i % 7 == 0) in.target = in.root; /* some lanes through the scalar path */
        soa_set(&s, i, &in);
        soa_set(&copy, i, &in);
    }
    reach_two_bone_batch expected = batch_of(&copy, 1);
    assert_int_equal(reach_two_bone_solve_batch(&expected, NULL), REACH_OK);
    reach_two_bone_batch in_place = batch_of(&s, 1);
    reach_vec3_soa mid = {s.v[3], s.v[4], s.v[5]}, end = {s.v[6], s.v[7], s.v[8]};
    in_place.out_mid = mid;
    in_place.out_end = end;
    assert_int_equal(reach_two_bone_solve_batch(&in_place, NULL), REACH_OK);
    for (int k = 0; k < 6; ++k)
        assert_true(test_bytes_equal(s.v[3 + k], copy.out[k], (size_t)count * sizeof(reach_real)));
    soa_free(&s);
    soa_free(&copy);
}

static void scalar_batch_equals_the_scalar_solver_bit_for_bit(void **state) {
    (void)state;
    const int count = 5000;
    soa s = soa_make(count);
    test_rng rng = test_rng_make(53);
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input in = random_input(&rng);
        soa_set(&s, i, &in);
    }
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    opt.soft_distance = REACH_R(0.1); /* soft IK: the scalar solver for every lane */
    reach_two_bone_batch b = batch_of(&s, 1);
    assert_int_equal(reach_two_bone_solve_batch_scalar(&b, &opt), REACH_OK);
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input in = soa_get(&s, i);
        reach_two_bone_output out;
        assert_int_equal(reach_two_bone_solve(&in, &opt, &out), REACH_OK);
        assert_true(s.out[0][i] == out.mid.x && s.out[1][i] == out.mid.y && s.out[5][i] == out.end.z);
    }
    soa_free(&s);
}

static void the_first_lane_error_is_returned_without_a_status_array(void **state) {
    (void)state;
    soa s = soa_make(40);
    test_rng rng = test_rng_make(54);
    for (int i = 0; i < 40; ++i) {
        reach_two_bone_input in = random_input(&rng);
        if (i == 33) in.target.x = (reach_real)NAN;
        soa_set(&s, i, &in);
    }
    reach_two_bone_batch b = batch_of(&s, 1);
    b.out_status = NULL;
    assert_int_equal(reach_two_bone_solve_batch(&b, NULL), REACH_ERROR_NOT_FINITE);
    assert_int_equal(reach_two_bone_solve_batch_scalar(&b, NULL), REACH_ERROR_NOT_FINITE);
    soa_free(&s);
}

/* Two halves solved as slices give what the whole batch gives. */
static void slices_solve_like_the_whole(void **state) {
    (void)state;
    const int count = 1001;
    soa whole = soa_make(count), halves = soa_make(count);
    test_rng rng = test_rng_make(55);
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input in = random_input(&rng);
        soa_set(&whole, i, &in);
        soa_set(&halves, i, &in);
    }
    reach_two_bone_batch a = batch_of(&whole, 1), b = batch_of(&halves, 1);
    assert_int_equal(reach_two_bone_solve_batch(&a, NULL), REACH_OK);
    reach_two_bone_batch first = reach_two_bone_batch_slice(&b, 0, 500);
    reach_two_bone_batch second = reach_two_bone_batch_slice(&b, 500, count - 500);
    assert_int_equal(reach_two_bone_solve_batch(&first, NULL), REACH_OK);
    assert_int_equal(reach_two_bone_solve_batch(&second, NULL), REACH_OK);
    /* Every lane goes through the same operations wherever a slice puts it: the same bits. */
    for (int k = 0; k < 6; ++k)
        assert_true(test_bytes_equal(whole.out[k], halves.out[k], (size_t)count * sizeof(reach_real)));
    assert_true(test_bytes_equal(whole.residual, halves.residual, (size_t)count * sizeof(reach_real)));
    assert_true(test_bytes_equal(whole.reached, halves.reached, (size_t)count));
    soa_free(&whole);
    soa_free(&halves);
}

/* The outputs of limbs [first, first + count) of a and of b, and their statuses, are the same
 * bits. */
static void assert_same_lanes(const soa *a, const soa *b, int first, int count) {
    for (int k = 0; k < 6; ++k)
        assert_true(test_bytes_equal(a->out[k] + first, b->out[k] + first, (size_t)count * sizeof(reach_real)));
    assert_true(test_bytes_equal(a->residual + first, b->residual + first, (size_t)count * sizeof(reach_real)));
    assert_true(test_bytes_equal(a->reached + first, b->reached + first, (size_t)count));
    assert_true(test_bytes_equal(a->status + first, b->status + first, (size_t)count));
}

/* Batches of every size up to three groups of the widest kernel, each solved alone: the limbs
 * after the last whole group and batches shorter than one group give the bits the same limbs
 * give inside a larger batch, limbs for the scalar solver among them, and each call returns
 * the first error among its own limbs. */
static void every_batch_size_gives_the_same_bits(void **state) {
    (void)state;
    const int most = 3 * (int)(64 / sizeof(reach_real)) + 1;
    soa whole = soa_make(most), part = soa_make(most);
    test_rng rng = test_rng_make(58);
    for (int i = 0; i < most; ++i) {
        reach_two_bone_input in = random_input(&rng);
        if (i % 9 == 4) in.target = in.root;          /* the scalar solver, which succeeds */
        if (i % 13 == 11) in.end.z = (reach_real)NAN; /* an error */
        soa_set(&whole, i, &in);
        soa_set(&part, i, &in);
    }
    reach_two_bone_batch all = batch_of(&whole, 1), some = batch_of(&part, 1);
    for (int k = 0; k < ISA_COUNT; ++k) {
        reach_status st;
        if (!solve_on(k, &all, NULL, &st)) continue;
        assert_int_equal(st, REACH_ERROR_NOT_FINITE);
        for (int count = 1; count <= most; ++count) {
            reach_two_bone_batch first = reach_two_bone_batch_slice(&some, 0, count);
            assert_true(solve_on(k, &first, NULL, &st));
            assert_int_equal(st, count > 11 ? REACH_ERROR_NOT_FINITE : REACH_OK);
            assert_same_lanes(&whole, &part, 0, count);
            /* And from an offset, so that no group starts where the whole batch's do. */
            reach_two_bone_batch later = reach_two_bone_batch_slice(&some, most - count, count);
            assert_true(solve_on(k, &later, NULL, &st));
            assert_same_lanes(&whole, &part, most - count, count);
        }
    }
    soa_free(&whole);
    soa_free(&part);
}

/* A batch large enough to stream its outputs past the caches, its arrays a limb off the vector
 * alignment so that its first limbs go alone, gives the bits it gives in small slices, which
 * are stored as usual. */
static void streamed_batches_give_the_same_bits(void **state) {
    (void)state;
    /* Past the 32 MB of coordinate arrays (21 per limb) from which the library streams. */
    const int count = (int)(((size_t)32 << 20) / (21 * sizeof(reach_real))) + 21;
    soa big = soa_make(count + 1), small = soa_make(count + 1);
    test_rng rng = test_rng_make(59);
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input in = random_input(&rng);
        if (i % 100003 == 17) in.mid.x = (reach_real)NAN;
        soa_set(&big, i + 1, &in);
        soa_set(&small, i + 1, &in);
    }
    reach_two_bone_batch streamed = reach_two_bone_batch_slice((reach_two_bone_batch[]){batch_of(&big, 1)}, 1, count);
    reach_two_bone_batch sliced = batch_of(&small, 1);
    for (int k = 0; k < ISA_COUNT; ++k) {
        reach_status st;
        /* The scalar path never streams. */
        if (strcmp(isa_names[k], "scalar") == 0 || !solve_on(k, &streamed, NULL, &st)) continue;
        assert_int_equal(st, REACH_ERROR_NOT_FINITE);
        for (int first = 1; first <= count; first += 1000) {
            reach_two_bone_batch slice =
                reach_two_bone_batch_slice(&sliced, first, count + 1 - first < 1000 ? count + 1 - first : 1000);
            solve_on(k, &slice, NULL, &st);
        }
        assert_same_lanes(&big, &small, 1, count);
    }
    soa_free(&big);
    soa_free(&small);
}

static void bad_batches_are_errors(void **state) {
    (void)state;
    soa s = soa_make(4);
    reach_two_bone_batch b = batch_of(&s, 1);
    b.count = -1;
    assert_int_equal(reach_two_bone_solve_batch(&b, NULL), REACH_ERROR_INVALID_ARGUMENT);
    b = batch_of(&s, 1);
    b.out_end.y = NULL;
    assert_int_equal(reach_two_bone_solve_batch(&b, NULL), REACH_ERROR_INVALID_ARGUMENT);
    b = batch_of(&s, 1);
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    opt.weight = 3;
    assert_int_equal(reach_two_bone_solve_batch(&b, &opt), REACH_ERROR_INVALID_ARGUMENT);
    b.count = 0;
    assert_int_equal(reach_two_bone_solve_batch(&b, NULL), REACH_OK);
    const char *isa = reach_batch_isa();
    assert_true(strcmp(isa, "avx512") == 0 || strcmp(isa, "avx2") == 0 || strcmp(isa, "sse2") == 0 ||
                strcmp(isa, "neon") == 0 || strcmp(isa, "wasm-simd") == 0 || strcmp(isa, "scalar") == 0);
    soa_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_agrees_with_the_scalar_solver),
        cmocka_unit_test(edge_lanes_behave_as_the_scalar_solver_says),
        cmocka_unit_test(the_kernels_this_machine_runs_are_reachable_by_name),
        cmocka_unit_test(folded_limbs_with_nearly_equal_bones_agree),
        cmocka_unit_test(solving_in_place_reads_each_lane_before_writing_it),
        cmocka_unit_test(scalar_batch_equals_the_scalar_solver_bit_for_bit),
        cmocka_unit_test(the_first_lane_error_is_returned_without_a_status_array),
        cmocka_unit_test(slices_solve_like_the_whole),
        cmocka_unit_test(every_batch_size_gives_the_same_bits),
        cmocka_unit_test(streamed_batches_give_the_same_bits),
        cmocka_unit_test(bad_batches_are_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
