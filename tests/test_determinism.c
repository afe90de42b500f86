/* Determinism, as docs/reliability.md promises it: the same build given the same inputs gives
 * the same bits, whatever ran before, whatever garbage the scratch memory held: two-bone (3-D,
 * 2-D, rig), batch, FABRIK, CCD, the Jacobian family with seeded restarts, and the walker. And
 * the batch's vector path gives the scalar solver's answer within the documented tolerance,
 * while its scalar path gives the very same bits. (Threads: test_threads_solvers.c.) */
#include <stdlib.h>
#include <string.h>

#include "test_fabrik_rigs.h"
#include "reach/testing.h"

#define SCRATCH_BYTES (1 << 16)

/* How many cases: as test_scaled, and in builds without NDEBUG (Debug, and the sanitizer build
 * `make test` runs, some fifty times slower) as under REACH_TEST_QUICK. */
static int cases(int n) {
#ifdef NDEBUG
    return test_scaled(n);
#else
    return n / 100 > 0 ? n / 100 : 1;
#endif
}

/* The same bits in one field. Structs are compared field by field throughout: their padding
 * (copied from wherever a struct was built) is not the library's output. */
#define SAME(a, b) test_bytes_equal(&(a), &(b), sizeof(a))

static unsigned char scratch_a[SCRATCH_BYTES], scratch_b[SCRATCH_BYTES];

/* An unrelated solve between the two runs under comparison: state left behind by it (there must
 * be none) would show as a difference. */
static void solve_something_else(rig_solver solve, rig_scratch_size size, test_rng *rng) {
    rig other;
    rig_random_limited_chain(&other, rng, 7);
    reach_transform pose[RIG_MAX_BONES];
    rig_random_pose(&other.skeleton, rng, pose);
    reach_target target = reach_target_position(7, test_in_ball(rng, other.length));
    reach_solver_settings settings = reach_solver_default_settings();
    settings.restarts = 2;
    reach_solve_result result;
    assert_true(size(&other.skeleton, 1) <= SCRATCH_BYTES);
    assert_int_equal(solve(&other.skeleton, &target, 1, &settings, pose, scratch_a, SCRATCH_BYTES, &result), REACH_OK);
}

/* Solves the same problem twice, the scratch filled differently each time and another problem
 * solved in between, and requires the same status, pose bits and result bits. */
static void expect_same_bits(rig_solver solve, rig_scratch_size size, const rig *r, const reach_target *targets,
                             int count, const reach_solver_settings *settings, const reach_transform *start,
                             test_rng *rng) {
    const reach_skeleton *sk = &r->skeleton;
    size_t need = size(sk, count), bytes = sizeof(reach_transform) * (size_t)sk->bone_count;
    assert_true(need <= SCRATCH_BYTES);
    reach_transform a[RIG_MAX_BONES], b[RIG_MAX_BONES];
    reach_solve_result ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    memcpy(a, start, bytes);
    memcpy(b, start, bytes);
    memset(scratch_a, 0x00, need);
    reach_status sa = solve(sk, targets, count, settings, a, scratch_a, need, &ra);
    solve_something_else(solve, size, rng);
    memset(scratch_b, 0xff, need);
    reach_status sb = solve(sk, targets, count, settings, b, scratch_b, need, &rb);
    assert_int_equal(sa, REACH_OK);
    assert_int_equal(sb, REACH_OK);
    assert_true(test_bytes_equal(a, b, bytes));
    assert_int_equal(ra.iterations, rb.iterations);
    assert_true(SAME(ra.residual, rb.residual));
    assert_true(SAME(ra.angle_residual, rb.angle_residual));
    assert_int_equal(ra.reached, rb.reached);
    assert_int_equal(ra.limited, rb.limited);
}

/* Random limited chains from random limited poses; targets anywhere out to 1.3 chain lengths,
 * every third with an orientation, every fourth a second target on a middle bone. */
static void iterative_solver_repeats_itself(rig_solver solve, rig_scratch_size size, uint64_t seed, int restarts) {
    test_rng rng = test_rng_make(seed);
    int count = cases(2000);
    for (int c = 0; c < count; ++c) {
        rig r;
        int links = 2 + c % 9;
        rig_random_limited_chain(&r, &rng, links);
        reach_transform start[RIG_MAX_BONES], world[RIG_MAX_BONES];
        rig_random_pose(&r.skeleton, &rng, start);
        reach_forward_kinematics(&r.skeleton, start, world);
        reach_target targets[2];
        targets[0] = reach_target_position(links, test_in_ball(&rng, REACH_R(1.3) * r.length));
        if (c % 3 == 0) {
            targets[0].use_orientation = 1;
            targets[0].orientation = test_unit_quat(&rng);
        }
        targets[1] = reach_target_position(links / 2, world[links / 2].translation);
        reach_solver_settings settings = reach_solver_default_settings();
        settings.jacobian_method = (reach_jacobian_method)(c % 4);
        settings.restarts = restarts;
        settings.seed = test_rng_next(&rng);
        expect_same_bits(solve, size, &r, targets, c % 4 == 0 ? 2 : 1, &settings, start, &rng);
    }
}

static void fabrik_same_inputs_same_bits(void **state) {
    (void)state;
    iterative_solver_repeats_itself(reach_fabrik_solve, reach_fabrik_scratch_size, 0xd1, 0);
}

static void ccd_same_inputs_same_bits(void **state) {
    (void)state;
    iterative_solver_repeats_itself(reach_ccd_solve, reach_ccd_scratch_size, 0xd2, 0);
}

/* Every method, with seeded random restarts: the restarts draw from settings.seed alone. */
static void jacobian_with_restarts_same_inputs_same_bits(void **state) {
    (void)state;
    iterative_solver_repeats_itself(reach_jacobian_solve, reach_jacobian_scratch_size, 0xd3, 3);
}

/* ---- two-bone and batch ----------------------------------------------------------------- */

/* A limb of two bones 0.2 to 1.5 long somewhere near the origin, a target out to 1.2 times its
 * reach, a pole one unit from the root. */
static reach_two_bone_input random_limb(test_rng *rng) {
    reach_real upper = test_uniform(rng, REACH_R(0.2), REACH_R(1.5));
    reach_real lower = test_uniform(rng, REACH_R(0.2), REACH_R(1.5));
    reach_two_bone_input in;
    in.root = test_in_ball(rng, 2);
    in.mid = reach_vec3_mad(in.root, test_unit_vec3(rng), upper);
    in.end = reach_vec3_mad(in.mid, test_unit_vec3(rng), lower);
    in.target = reach_vec3_add(in.root, test_in_ball(rng, REACH_R(1.2) * (upper + lower)));
    in.pole = reach_vec3_add(in.root, test_unit_vec3(rng));
    in.use_pole = 1;
    return in;
}

static int same_two_bone(const reach_two_bone_output *a, const reach_two_bone_output *b) {
    return SAME(a->mid, b->mid) && SAME(a->end, b->end) && SAME(a->root_rotation, b->root_rotation) &&
           SAME(a->mid_rotation, b->mid_rotation) && SAME(a->upper_length, b->upper_length) &&
           SAME(a->lower_length, b->lower_length) && SAME(a->residual, b->residual) && a->reached == b->reached;
}

static int same_two_bone_2d(const reach_two_bone_2d_output *a, const reach_two_bone_2d_output *b) {
    return SAME(a->mid, b->mid) && SAME(a->end, b->end) && SAME(a->mid_mirror, b->mid_mirror) &&
           SAME(a->root_rotation, b->root_rotation) && SAME(a->mid_rotation, b->mid_rotation) &&
           SAME(a->upper_length, b->upper_length) && SAME(a->lower_length, b->lower_length) &&
           SAME(a->residual, b->residual) && a->reached == b->reached;
}

static void two_bone_same_inputs_same_bits(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xd4);
    reach_two_bone_settings options = reach_two_bone_default_settings();
    for (int c = 0; c < cases(20000); ++c) {
        reach_two_bone_input in = random_limb(&rng);
        in.use_pole = c % 2;
        options.soft_distance = c % 3 == 0 ? REACH_R(0.1) : 0;
        reach_two_bone_output a, b;
        assert_int_equal(reach_two_bone_solve(&in, &options, &a), REACH_OK);
        reach_two_bone_input other = random_limb(&rng);
        reach_two_bone_output ignored;
        (void)reach_two_bone_solve(&other, NULL, &ignored);
        assert_int_equal(reach_two_bone_solve(&in, &options, &b), REACH_OK);
        assert_true(same_two_bone(&a, &b));

        reach_two_bone_2d_input in2 = {reach_vec2_make(in.root.x, in.root.y), reach_vec2_make(in.mid.x, in.mid.y),
                                       reach_vec2_make(in.end.x, in.end.y), reach_vec2_make(in.target.x, in.target.y),
                                       c % 2 ? REACH_BEND_CCW : REACH_BEND_CW};
        reach_two_bone_2d_output a2, b2;
        reach_status sa = reach_two_bone_solve_2d(&in2, &options, &a2);
        reach_status sb = reach_two_bone_solve_2d(&in2, &options, &b2);
        assert_int_equal(sa, sb);
        if (sa == REACH_OK) assert_true(same_two_bone_2d(&a2, &b2));
    }
}

/* Structure-of-arrays storage for n limbs, in one block: 15 input arrays (root, mid, end,
 * target, pole: x, y, z), 6 output arrays (mid, end) and the residuals, then the bytes. */
typedef struct soa {
    int count;
    reach_real *block, *in[15], *out[6], *residual;
    unsigned char *reached, *status;
} soa;

static soa soa_make(test_rng *rng, int count) {
    soa s;
    size_t n = (size_t)count;
    s.count = count;
    s.block = malloc(sizeof(reach_real) * 22 * n + 2 * n);
    assert_non_null(s.block);
    for (int k = 0; k < 15; ++k)
        s.in[k] = s.block + (size_t)k * n;
    for (int k = 0; k < 6; ++k)
        s.out[k] = s.block + (size_t)(15 + k) * n;
    s.residual = s.block + 21 * n;
    s.reached = (unsigned char *)(s.block + 22 * n);
    s.status = s.reached + n;
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input limb = random_limb(rng);
        if (i % 17 == 0) limb.target = limb.root; /* an edge lane, through the scalar solver */
        const reach_vec3 p[5] = {limb.root, limb.mid, limb.end, limb.target, limb.pole};
        for (int k = 0; k < 5; ++k) {
            s.in[3 * k][i] = p[k].x;
            s.in[3 * k + 1][i] = p[k].y;
            s.in[3 * k + 2][i] = p[k].z;
        }
    }
    return s;
}

static reach_two_bone_batch soa_batch(soa *s) {
    reach_two_bone_batch b;
    memset(&b, 0, sizeof b);
    b.count = s->count;
    reach_const_vec3_soa *points[5] = {&b.root, &b.mid, &b.end, &b.target, &b.pole};
    for (int k = 0; k < 5; ++k) {
        points[k]->x = s->in[3 * k];
        points[k]->y = s->in[3 * k + 1];
        points[k]->z = s->in[3 * k + 2];
    }
    b.out_mid.x = s->out[0];
    b.out_mid.y = s->out[1];
    b.out_mid.z = s->out[2];
    b.out_end.x = s->out[3];
    b.out_end.y = s->out[4];
    b.out_end.z = s->out[5];
    b.out_residual = s->residual;
    b.out_reached = s->reached;
    b.out_status = s->status;
    return b;
}

static reach_vec3 soa_point(const soa *s, int point, int i) {
    return reach_vec3_make(s->in[3 * point][i], s->in[3 * point + 1][i], s->in[3 * point + 2][i]);
}

static reach_vec3 soa_out(const soa *s, int which, int i) {
    return reach_vec3_make(s->out[3 * which][i], s->out[3 * which + 1][i], s->out[3 * which + 2][i]);
}

/* The vector path twice gives the same bits; its scalar path gives reach_two_bone_solve's bits;
 * and the vector path agrees with the scalar solver within the tolerance tests/test_two_bone_batch.c
 * documents: 16 × TEST_REACH_TOL of the limb for the end, the mid joint looser by its conditioning
 * near full extension (16 ε L² / h). */
static void batch_repeats_itself_and_agrees_with_scalar(void **state) {
    (void)state;
    test_rng rng = test_rng_make(0xd5);
    const int count = cases(20000) + 13;
    soa s = soa_make(&rng, count);
    reach_two_bone_batch batch = soa_batch(&s);
    assert_int_equal(reach_two_bone_solve_batch(&batch, NULL), REACH_OK);
    soa first = soa_make(&rng, count);
    for (int k = 0; k < 6; ++k)
        memcpy(first.out[k], s.out[k], sizeof(reach_real) * (size_t)count);
    memcpy(first.residual, s.residual, sizeof(reach_real) * (size_t)count);
    assert_int_equal(reach_two_bone_solve_batch(&batch, NULL), REACH_OK);
    for (int k = 0; k < 6; ++k)
        assert_true(test_bytes_equal(first.out[k], s.out[k], sizeof(reach_real) * (size_t)count));
    assert_true(test_bytes_equal(first.residual, s.residual, sizeof(reach_real) * (size_t)count));

    for (int i = 0; i < count; ++i) {
        reach_two_bone_input limb = {soa_point(&s, 0, i), soa_point(&s, 1, i), soa_point(&s, 2, i),
                                     soa_point(&s, 3, i), soa_point(&s, 4, i), 1};
        reach_two_bone_output out;
        assert_int_equal(reach_two_bone_solve(&limb, NULL, &out), REACH_OK);
        reach_real chain = reach_vec3_distance(limb.mid, limb.root) + reach_vec3_distance(limb.end, limb.mid);
        reach_real tol = TEST_REACH_TOL * 16 * chain;
        reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(out.end, limb.root), reach_vec3_make(1, 0, 0));
        reach_real h = reach_vec3_length(reach_vec3_reject(reach_vec3_sub(out.mid, limb.root), axis));
        reach_real mid_tol =
            tol + 16 * REACH_REAL_EPSILON * chain * chain / reach_max(h, reach_sqrt(REACH_REAL_EPSILON) * chain);
        ASSERT_VEC3_NEAR(soa_out(&s, 0, i), out.mid, mid_tol, "vector path mid");
        ASSERT_VEC3_NEAR(soa_out(&s, 1, i), out.end, tol, "vector path end");
    }

    assert_int_equal(reach_two_bone_solve_batch_scalar(&batch, NULL), REACH_OK);
    for (int i = 0; i < count; ++i) {
        reach_two_bone_input limb = {soa_point(&s, 0, i), soa_point(&s, 1, i), soa_point(&s, 2, i),
                                     soa_point(&s, 3, i), soa_point(&s, 4, i), 1};
        reach_two_bone_output out;
        assert_int_equal(reach_two_bone_solve(&limb, NULL, &out), REACH_OK);
        reach_vec3 mid = soa_out(&s, 0, i), end = soa_out(&s, 1, i);
        assert_true(test_bytes_equal(&mid, &out.mid, sizeof mid));
        assert_true(test_bytes_equal(&end, &out.end, sizeof end));
        assert_true(test_bytes_equal(&s.residual[i], &out.residual, sizeof out.residual));
    }
    free(s.block);
    free(first.block);
}

/* ---- walker ----------------------------------------------------------------------------- */

static void walk(reach_walker *w, int frames, uint64_t seed) {
    test_rng rng = test_rng_make(seed);
    reach_real heading = 0, x = 0, y = 0;
    for (int f = 0; f < frames; ++f) {
        heading += test_uniform(&rng, REACH_R(-0.03), REACH_R(0.03));
        reach_real speed = test_uniform(&rng, 0, REACH_R(1.2));
        x += speed * reach_cos(heading) / 60;
        y += speed * reach_sin(heading) / 60;
        assert_int_equal(reach_walker_update(w, reach_vec2_make(x, y), heading, REACH_R(1.0) / 60), REACH_OK);
    }
}

static int same_walker(const reach_walker *a, const reach_walker *b) {
    int same = a->leg_count == b->leg_count && SAME(a->position, b->position) && SAME(a->heading, b->heading) &&
               SAME(a->up, b->up) && SAME(a->rotation, b->rotation) && SAME(a->velocity, b->velocity) &&
               SAME(a->turn_rate, b->turn_rate) && SAME(a->time, b->time) && a->frame == b->frame &&
               a->forced_steps == b->forced_steps;
    for (int i = 0; same && i < a->leg_count; ++i) {
        const reach_walker_leg *la = &a->legs[i], *lb = &b->legs[i];
        same = SAME(la->hip, lb->hip) && SAME(la->foot, lb->foot) && la->planted == lb->planted &&
               SAME(la->normal, lb->normal) && SAME(la->lift, lb->lift) && la->steps == lb->steps &&
               SAME(la->swing, lb->swing) && SAME(la->swing_from, lb->swing_from) && SAME(la->swing_to, lb->swing_to) &&
               SAME(la->from_normal, lb->from_normal) && SAME(la->to_normal, lb->to_normal) && la->bend == lb->bend &&
               test_bytes_equal(la->joints, lb->joints, sizeof la->joints[0] * (size_t)(la->def.bone_count + 1));
    }
    return same;
}

static void walker_same_inputs_same_bits(void **state) {
    (void)state;
    static const reach_leg_solver solvers[2] = {REACH_LEG_TWO_BONE, REACH_LEG_FABRIK};
    for (int k = 0; k < 4; ++k) {
        reach_walker_def def = reach_walker_default_def();
        def.dimensions = k < 2 ? 3 : 2;
        reach_walk_terrain terrain = reach_walk_terrain_default(REACH_WALK_TERRAIN_WAVES);
        if (def.dimensions == 3) {
            def.ground = reach_walk_terrain_ground;
            def.ground_user = &terrain;
        }
        reach_walker_leg_def legs[REACH_WALKER_MAX_LEGS];
        assert_int_equal(reach_walker_standard_legs(6, solvers[k % 2], legs), REACH_OK);
        static reach_walker a, b, other;
        assert_int_equal(reach_walker_init(&a, &def, legs, 6, reach_vec2_make(0, 0), 0), REACH_OK);
        walk(&a, cases(60000), 0xd6 + (uint64_t)k);
        assert_int_equal(reach_walker_init(&other, &def, legs, 6, reach_vec2_make(1, 2), 1), REACH_OK);
        walk(&other, cases(6000), 0xd7);
        assert_int_equal(reach_walker_init(&b, &def, legs, 6, reach_vec2_make(0, 0), 0), REACH_OK);
        walk(&b, cases(60000), 0xd6 + (uint64_t)k);
        assert_true(same_walker(&a, &b));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fabrik_same_inputs_same_bits),
        cmocka_unit_test(ccd_same_inputs_same_bits),
        cmocka_unit_test(jacobian_with_restarts_same_inputs_same_bits),
        cmocka_unit_test(two_bone_same_inputs_same_bits),
        cmocka_unit_test(batch_repeats_itself_and_agrees_with_scalar),
        cmocka_unit_test(walker_same_inputs_same_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
