/* Solving (and retargeting) allocates nothing. This program is linked with the allocator wrapped
 * (-Wl,--wrap=malloc,...): every malloc, calloc and realloc made while `counting` is set is
 * counted, and each solver is called many times inside that window. */
#include <stdlib.h>
#include <string.h>

#include "test_humanoid_rigs.h"
#include "reach/testing.h"

static int counting;
static long allocations;

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);

void *__wrap_malloc(size_t size) {
    allocations += counting;
    return __real_malloc(size);
}
void *__wrap_calloc(size_t count, size_t size) {
    allocations += counting;
    return __real_calloc(count, size);
}
void *__wrap_realloc(void *p, size_t size) {
    allocations += counting;
    return __real_realloc(p, size);
}

#define BONES 10

/* A 10-bone chain along +y with hinge and cone joints, and its rest pose. */
typedef struct chain_rig {
    int parents[BONES];
    reach_transform rest[BONES];
    reach_joint joints[BONES];
    reach_skeleton skeleton;
} chain_rig;

static void chain_rig_make(chain_rig *r) {
    for (int i = 0; i < BONES; ++i) {
        r->parents[i] = i - 1;
        r->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, i ? REACH_R(0.5) : 0, 0));
        r->joints[i] = (i % 2) ? reach_joint_hinge(reach_vec3_make(0, 0, 1), -2, 2)
                               : reach_joint_cone(reach_vec3_make(0, 1, 0), REACH_R(1.2));
    }
    r->skeleton.bone_count = BONES;
    r->skeleton.parents = r->parents;
    r->skeleton.rest = r->rest;
    r->skeleton.joints = r->joints;
}

typedef reach_status (*chain_solver)(const reach_skeleton *, const reach_target *, int, const reach_solver_settings *,
                                     reach_transform *, void *, size_t, reach_solve_result *);

static void iterative_solvers_allocate_nothing(void **state) {
    (void)state;
    chain_rig rig;
    chain_rig_make(&rig);
    static unsigned char scratch[1 << 20];
    const chain_solver solvers[] = {reach_fabrik_solve, reach_ccd_solve, reach_jacobian_solve};
    const size_t needs[] = {reach_fabrik_scratch_size(&rig.skeleton, 1), reach_ccd_scratch_size(&rig.skeleton, 1),
                            reach_jacobian_scratch_size(&rig.skeleton, 1)};
    test_rng rng = test_rng_make(60);
    for (int s = 0; s < 3; ++s) {
        assert_true(needs[s] <= sizeof scratch);
        reach_solver_settings settings = reach_solver_default_settings();
        settings.restarts = 2;
        reach_transform pose[BONES];
        reach_pose_rest(&rig.skeleton, pose);
        counting = 1;
        allocations = 0;
        for (int n = 0; n < 200; ++n) {
            reach_target target = reach_target_position(BONES - 1, test_in_ball(&rng, 5));
            reach_solve_result result;
            reach_status st = solvers[s](&rig.skeleton, &target, 1, &settings, pose, scratch, needs[s], &result);
            if (st != REACH_OK) fail_msg("solver %d: %s", s, reach_status_string(st));
        }
        counting = 0;
        assert_int_equal(allocations, 0);
    }
}

static void two_bone_and_batch_allocate_nothing(void **state) {
    (void)state;
    enum { LIMBS = 1000 };
    static reach_real v[21][LIMBS];
    test_rng rng = test_rng_make(61);
    for (int k = 0; k < 15; ++k)
        for (int i = 0; i < LIMBS; ++i)
            v[k][i] = test_uniform(&rng, -1, 1);
    reach_two_bone_batch batch;
    memset(&batch, 0, sizeof batch);
    batch.count = LIMBS;
    reach_const_vec3_soa in[5];
    for (int k = 0; k < 5; ++k) {
        in[k].x = v[3 * k];
        in[k].y = v[3 * k + 1];
        in[k].z = v[3 * k + 2];
    }
    batch.root = in[0];
    batch.mid = in[1];
    batch.end = in[2];
    batch.target = in[3];
    batch.pole = in[4];
    reach_vec3_soa mid = {v[15], v[16], v[17]}, end = {v[18], v[19], v[20]};
    batch.out_mid = mid;
    batch.out_end = end;
    counting = 1;
    allocations = 0;
    reach_status batch_status = REACH_OK;
    for (int n = 0; n < 20; ++n)
        if (reach_two_bone_solve_batch(&batch, NULL) != REACH_OK) batch_status = REACH_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < LIMBS; ++i) {
        reach_two_bone_input limb = {
            reach_vec3_make(v[0][i], v[1][i], v[2][i]),    reach_vec3_make(v[3][i], v[4][i], v[5][i]),
            reach_vec3_make(v[6][i], v[7][i], v[8][i]),    reach_vec3_make(v[9][i], v[10][i], v[11][i]),
            reach_vec3_make(v[12][i], v[13][i], v[14][i]), 1};
        reach_two_bone_output out;
        if (reach_two_bone_solve(&limb, NULL, &out) != REACH_OK) batch_status = REACH_ERROR_INVALID_ARGUMENT;
    }
    counting = 0;
    assert_int_equal(allocations, 0);
    assert_int_equal(batch_status, REACH_OK);
}

static void fabrik_batch_allocates_nothing(void **state) {
    (void)state;
    enum { CHAINS = 300 }; /* not a multiple of any SIMD width: the narrower kernels run too */
    static reach_real lengths[BONES * CHAINS], points[6][CHAINS], joints[3][(BONES + 1) * CHAINS];
    static reach_real residual[CHAINS];
    static int iterations[CHAINS];
    static unsigned char reached[CHAINS], status[CHAINS];
    test_rng rng = test_rng_make(62);
    for (int i = 0; i < CHAINS; ++i) {
        for (int b = 0; b < BONES; ++b)
            lengths[b * CHAINS + i] = test_uniform(&rng, REACH_R(0.1), REACH_R(0.5));
        for (int k = 0; k < 6; ++k)
            points[k][i] = test_uniform(&rng, -2, 2);
    }
    reach_fabrik_batch batch;
    memset(&batch, 0, sizeof batch);
    batch.count = CHAINS;
    batch.bone_count = BONES;
    batch.lengths = lengths;
    reach_const_vec3_soa root = {points[0], points[1], points[2]}, target = {points[3], points[4], points[5]};
    reach_vec3_soa out = {joints[0], joints[1], joints[2]};
    batch.root = root;
    batch.target = target;
    batch.joints = out;
    batch.out_residual = residual;
    batch.out_iterations = iterations;
    batch.out_reached = reached;
    batch.out_status = status;
    reach_fabrik_batch_settings cold = reach_fabrik_batch_default_settings();
    cold.cold_start = 1;
    counting = 1;
    allocations = 0;
    reach_status batch_status = reach_fabrik_solve_batch(&batch, &cold);
    for (int n = 0; n < 20; ++n) {
        points[3][n] += REACH_R(0.1); /* move a few targets: the warm solves have work to do */
        if (reach_fabrik_solve_batch(&batch, NULL) != REACH_OK) batch_status = REACH_ERROR_INVALID_ARGUMENT;
    }
    if (reach_fabrik_solve_batch_isa(&batch, &cold, "scalar") != REACH_OK) batch_status = REACH_ERROR_INVALID_ARGUMENT;
    reach_fabrik_batch half = reach_fabrik_batch_slice(&batch, CHAINS / 2, CHAINS - CHAINS / 2);
    if (reach_fabrik_solve_batch(&half, &cold) != REACH_OK) batch_status = REACH_ERROR_INVALID_ARGUMENT;
    counting = 0;
    assert_int_equal(allocations, 0);
    assert_int_equal(batch_status, REACH_OK);
}

static void walker_updates_allocate_nothing(void **state) {
    (void)state;
    reach_walker_leg_def legs[8];
    assert_int_equal(reach_walker_standard_legs(8, REACH_LEG_TWO_BONE, legs), REACH_OK);
    reach_walker_def def = reach_walker_default_def();
    static reach_walker walker;
    assert_int_equal(reach_walker_init(&walker, &def, legs, 8, reach_vec2_make(0, 0), 0), REACH_OK);
    counting = 1;
    allocations = 0;
    for (int frame = 1; frame <= 600; ++frame) {
        reach_real t = (reach_real)frame * REACH_R(0.016);
        if (reach_walker_update(&walker, reach_vec2_make(t, 0), 0, REACH_R(0.016)) != REACH_OK) fail_msg("update");
    }
    counting = 0;
    assert_int_equal(allocations, 0);
}

/* Aim (one bone and a chain), humanoid roles and full-body solves, cold and warm. */
static void character_solvers_allocate_nothing(void **state) {
    (void)state;
    test_rng rng = test_rng_make(7);
    humanoid_rig rig;
    humanoid_rig_make(&rng, S_MIXAMO, &rig);
    static unsigned char scratch[256 * 1024];
    size_t need = reach_full_body_scratch_size(&rig.skeleton);
    assert_true(need <= sizeof scratch);
    reach_transform pose[PART_COUNT], world[PART_COUNT];
    reach_pose_rest(&rig.skeleton, pose);
    reach_forward_kinematics(&rig.skeleton, pose, world);
    chain_rig chain;
    chain_rig_make(&chain);
    int bones[BONES];
    for (int i = 0; i < BONES; i++)
        bones[i] = i;
    reach_transform chain_pose[BONES], chain_world[BONES];
    reach_pose_rest(&chain.skeleton, chain_pose);
    reach_forward_kinematics(&chain.skeleton, chain_pose, chain_world);
    counting = 1;
    allocations = 0;
    reach_humanoid roles;
    int ok = reach_humanoid_find(&rig.skeleton, rig.names, &roles, NULL) == REACH_OK &&
             reach_humanoid_natural_joints(&rig.skeleton, &roles, rig.joints) == REACH_OK;
    reach_full_body_targets targets = reach_full_body_no_targets();
    int hand = roles.bones[REACH_ROLE_LEFT_HAND];
    for (int frame = 0; ok && frame < 50; frame++) {
        targets.parts[REACH_BODY_LEFT_HAND].use_position = 1;
        targets.parts[REACH_BODY_LEFT_HAND].position = reach_vec3_add(
            world[hand].translation, reach_vec3_make(0, REACH_R(-0.005) * (reach_real)frame, REACH_R(0.1)));
        targets.use_look_at = 1;
        targets.look_at = reach_vec3_make(0, 1, 2);
        ok = reach_full_body_solve(&rig.skeleton, &roles, &targets, NULL, pose, scratch, need, NULL) == REACH_OK;
        reach_aim_input in = {world[hand], reach_vec3_make(1, 2, 3), reach_vec3_make(0, 1, 0), reach_quat_identity()};
        reach_aim_output out;
        ok = ok && reach_aim_solve(&in, NULL, &out) == REACH_OK;
        ok = ok && reach_aim_chain_solve(&chain.skeleton, bones, BONES, reach_vec3_make(1, 2, (reach_real)frame),
                                         reach_vec3_make(0, 1, 0), NULL, chain_pose, chain_world, &out) == REACH_OK;
    }
    counting = 0;
    assert_true(ok);
    assert_int_equal(allocations, 0);
}

/* Set-up and frames alike: a body of one style carried onto one of another, its frames the
 * source's rest with the hips bobbing and a leg swinging. */
static void retargeting_allocates_nothing(void **state) {
    (void)state;
    test_rng rng = test_rng_make(8);
    body source, target;
    body_make(&rng, S_CMU, &source);
    body_make(&rng, S_MIXAMO, &target);
    static unsigned char memory[512 * 1024];
    size_t need = reach_retarget_memory_size(&source.rig.skeleton, &target.rig.skeleton);
    assert_true(need <= sizeof memory);
    reach_transform frame[PART_COUNT], pose[PART_COUNT];
    int leg = source.roles.bones[REACH_ROLE_LEFT_UPPER_LEG];
    counting = 1;
    allocations = 0;
    reach_retarget *r = NULL;
    int ok = reach_retarget_init(&source.rig.skeleton, &source.roles, &target.rig.skeleton, &target.roles, NULL, memory,
                                 need, &r, NULL, NULL) == REACH_OK;
    for (int f = 0; ok && f < 50; f++) {
        reach_pose_rest(&source.rig.skeleton, frame);
        frame[0].translation.y += REACH_R(0.01) * reach_sin((reach_real)f / 5);
        frame[leg].rotation =
            reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(0.3) * reach_sin((reach_real)f / 8));
        ok = reach_retarget_frame(r, frame, REACH_R(1.0) / 60, pose, NULL) == REACH_OK;
    }
    counting = 0;
    assert_true(ok);
    assert_int_equal(allocations, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(character_solvers_allocate_nothing),  cmocka_unit_test(iterative_solvers_allocate_nothing),
        cmocka_unit_test(two_bone_and_batch_allocate_nothing), cmocka_unit_test(fabrik_batch_allocates_nothing),
        cmocka_unit_test(walker_updates_allocate_nothing),     cmocka_unit_test(retargeting_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
