/* Aim of a chain (spine → neck → head): random points the limits allow aimed within 0.1 degree,
 * every joint inside its limits, points beyond them at an aim no sampled allowed pose and no pose
 * on a grid over two joints' limits beats, shares, weight, and bad input leaving the pose
 * untouched. */
#include <math.h>
#include <string.h>

#include "test_support.h"

#define AIM_TOL   REACH_R(1.745e-3) /* 0.1 degree */
#define MAX_BONES 6
/* Rounding: the solve and the grid work the error out apart. */
#define ORACLE_SLACK REACH_R(1e-4)

typedef struct rig {
    int count; /* chain bones; bone 0 is a hips root that does not aim */
    int parents[MAX_BONES + 1];
    reach_transform rest[MAX_BONES + 1];
    reach_joint joints[MAX_BONES + 1];
    int chain[MAX_BONES];
    reach_skeleton skeleton;
} rig;

/* Hips, then a chain of 2..MAX_BONES bones up +Y (spine, neck, head) with cone joints (twist
 * limited on some), of random lengths; the head looks along +Z. */
static void make_rig_of(test_rng *rng, rig *r, int count, reach_real cone_lo, reach_real cone_hi) {
    r->count = count;
    r->parents[0] = -1;
    r->rest[0] = reach_transform_make(reach_quat_identity(), test_in_ball(rng, 2));
    r->joints[0] = reach_joint_ball();
    for (int k = 0; k < r->count; k++) {
        int b = k + 1;
        r->parents[b] = k;
        r->rest[b] = reach_transform_make(
            reach_quat_identity(),
            reach_vec3_make(0, k == 0 ? REACH_R(0.1) : test_uniform(rng, REACH_R(0.05), REACH_R(0.3)), 0));
        reach_real cone = test_uniform(rng, cone_lo, cone_hi);
        r->joints[b] = (k % 2) ? reach_joint_cone_twist(reach_vec3_make(0, 1, 0), cone, -cone, cone)
                               : reach_joint_cone(reach_vec3_make(0, 1, 0), cone);
        r->chain[k] = b;
    }
    r->skeleton.bone_count = r->count + 1;
    r->skeleton.parents = r->parents;
    r->skeleton.rest = r->rest;
    r->skeleton.joints = r->joints;
}

static void make_rig(test_rng *rng, rig *r, reach_real cone_lo, reach_real cone_hi) {
    make_rig_of(rng, r, 2 + (int)(test_rng_next(rng) % (MAX_BONES - 1)), cone_lo, cone_hi);
}

/* A random pose each joint allows: a random turn projected onto the joint. */
static void random_allowed_pose(test_rng *rng, const rig *r, reach_real spread, reach_transform *local) {
    reach_pose_rest(&r->skeleton, local);
    for (int b = 1; b <= r->count; b++) {
        reach_quat turn = reach_quat_from_axis_angle(test_unit_vec3(rng), test_uniform(rng, 0, spread));
        reach_joint_project_rotation(&r->joints[b], r->rest[b].rotation, turn, &local[b].rotation);
    }
}

static reach_real head_error(const rig *r, const reach_transform *world, reach_vec3 target) {
    const reach_transform *head = &world[r->count];
    reach_vec3 way = reach_vec3_sub(target, head->translation);
    reach_vec3 f = reach_quat_rotate(head->rotation, reach_vec3_make(0, 0, 1));
    return reach_atan2(reach_vec3_length(reach_vec3_cross(f, way)), reach_vec3_dot(f, way));
}

static reach_aim_output solve_ok(const rig *r, reach_vec3 target, const reach_aim_chain_settings *s,
                                 reach_transform *local, reach_transform *world) {
    reach_aim_output out;
    reach_forward_kinematics(&r->skeleton, local, world);
    reach_status st = reach_aim_chain_solve(&r->skeleton, r->chain, r->count, target, reach_vec3_make(0, 1, 0), s,
                                            local, world, &out);
    if (st != REACH_OK) fail_msg("aim chain failed: %s", reach_status_string(st));
    /* The updated world transforms are the pose's. */
    reach_transform check[MAX_BONES + 1];
    reach_forward_kinematics(&r->skeleton, local, check);
    for (int b = 0; b <= r->count; b++) {
        ASSERT_VEC3_NEAR(world[b].translation, check[b].translation, 1e-4, "world kept consistent");
        ASSERT_QUAT_NEAR(world[b].rotation, check[b].rotation, 1e-4, "world kept consistent");
    }
    if (reach_pose_limit_error(&r->skeleton, local, NULL) > REACH_R(1e-4)) fail_msg("a joint left its limits");
    ASSERT_NEAR(out.error, head_error(r, world, target), 1e-4, "reported error");
    return out;
}

static void points_within_limits_aimed(void **state) {
    (void)state;
    test_rng rng = test_rng_make(21);
    int n = test_scaled(20000), missed = 0;
    reach_real worst = 0;
    for (int i = 0; i < n; i++) {
        rig r;
        make_rig(&rng, &r, REACH_R(0.2), REACH_R(0.8));
        reach_transform local[MAX_BONES + 1], world[MAX_BONES + 1];
        random_allowed_pose(&rng, &r, 3, local);
        reach_forward_kinematics(&r.skeleton, local, world);
        const reach_transform *head = &world[r.count];
        reach_vec3 target =
            reach_vec3_mad(head->translation, reach_quat_rotate(head->rotation, reach_vec3_make(0, 0, 1)),
                           test_uniform(&rng, REACH_R(0.3), 5));
        random_allowed_pose(&rng, &r, 3, local);
        reach_aim_chain_settings s = reach_aim_chain_default_settings();
        s.aim.keep_up = 0; /* the pose was made without a pole: any roll will do */
        reach_aim_output out = solve_ok(&r, target, &s, local, world);
        if (out.error > AIM_TOL) missed++;
        worst = reach_max(worst, out.error);
    }
    /* Every one: the sweeps crawl where two limits hold at once, and the Gauss-Newton polish on
     * the joints' swings and twists finishes. Measured on 200 000 cases (this seed, 20 000 run
     * here): none missed and the worst within the solve's tolerance of 1e-4 rad, with gcc in
     * float and double and with clang's sanitizer build (ASan + UBSan) in float. */
    if (missed > 0) fail_msg("missed %d of %d by more than 0.1 degree, worst %g rad", missed, n, (double)worst);
}

/* From the rest pose, aims at a random point 3 away from the head (mostly beyond cones this
 * narrow) with the given sweeps; world and *target receive the solved pose and the point. */
static reach_aim_output aim_from_rest_beyond_limits(test_rng *rng, const rig *r, int iterations, reach_transform *world,
                                                    reach_vec3 *target) {
    reach_transform local[MAX_BONES + 1];
    reach_pose_rest(&r->skeleton, local);
    reach_forward_kinematics(&r->skeleton, local, world);
    *target = reach_vec3_mad(world[r->count].translation, test_unit_vec3(rng), 3);
    reach_aim_chain_settings s = reach_aim_chain_default_settings();
    s.aim.keep_up = 0;
    s.iterations = iterations;
    return solve_ok(r, *target, &s, local, world);
}

/* Beyond the limits: no allowed pose among many samples aims nearer than the solve (by more than
 * a sampling margin). */
static void points_beyond_limits_at_nearest_allowed_aim(void **state) {
    (void)state;
    test_rng rng = test_rng_make(22);
    int n = test_scaled(300);
    for (int i = 0; i < n; i++) {
        rig r;
        make_rig(&rng, &r, REACH_R(0.1), REACH_R(0.3));
        reach_transform world[MAX_BONES + 1];
        reach_vec3 target;
        reach_aim_output out = aim_from_rest_beyond_limits(&rng, &r, 32, world, &target);
        reach_real best = REACH_PI;
        for (int k = 0; k < 400; k++) {
            reach_transform sample[MAX_BONES + 1], sample_world[MAX_BONES + 1];
            random_allowed_pose(&rng, &r, 3, sample);
            reach_forward_kinematics(&r.skeleton, sample, sample_world);
            best = reach_min(best, head_error(&r, sample_world, target));
        }
        if (out.error > best + REACH_R(0.01))
            fail_msg("case %d: %g rad, a sample %g", i, (double)out.error, (double)best);
    }
}

/* The oracle's grid for one joint of the rig (a cone about +Y, its twist range or a full turn):
 * local rotations rest · swing · twist, the swing on a square grid within the cone. */
#define GRID_SIDE  13
#define GRID_TWIST 13
#define GRID_MAX   (GRID_SIDE * GRID_SIDE * GRID_TWIST)

static int joint_grid(const reach_joint *joint, reach_quat *out) {
    int n = 0;
    reach_real lo = joint->has_twist ? joint->twist_min : -REACH_PI;
    reach_real hi = joint->has_twist ? joint->twist_max : REACH_PI;
    for (int a = 0; a < GRID_SIDE; a++)
        for (int b = 0; b < GRID_SIDE; b++) {
            reach_real x = joint->cone_angle * (2 * (reach_real)a / (GRID_SIDE - 1) - 1);
            reach_real z = joint->cone_angle * (2 * (reach_real)b / (GRID_SIDE - 1) - 1);
            reach_real angle = reach_sqrt(x * x + z * z);
            if (angle > joint->cone_angle) continue;
            reach_quat swing = angle > 0 ? reach_quat_from_axis_angle(reach_vec3_make(x / angle, 0, z / angle), angle)
                                         : reach_quat_identity();
            for (int t = 0; t < GRID_TWIST; t++) {
                reach_real twist = lo + (hi - lo) * (reach_real)t / (GRID_TWIST - 1);
                out[n++] = reach_quat_mul(swing, reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), twist));
            }
        }
    return n;
}

/* Beyond the limits of two-bone chains (a cone, then a cone and a twist): no pose on a grid over
 * both joints' allowed swings and twists aims nearer than the solve. */
static void points_beyond_limits_beat_a_grid_of_allowed_poses(void **state) {
    (void)state;
    test_rng rng = test_rng_make(25);
    static reach_quat first[GRID_MAX], second[GRID_MAX];
    static reach_vec3 second_forward[GRID_MAX];
    reach_real worst_gap = -REACH_PI;
    for (int i = 0; i < test_scaled(40); i++) {
        rig r;
        make_rig_of(&rng, &r, 2, REACH_R(0.1), REACH_R(0.5));
        reach_transform world[MAX_BONES + 1];
        reach_vec3 target;
        reach_aim_output out = aim_from_rest_beyond_limits(&rng, &r, 64, world, &target);

        int n1 = joint_grid(&r.joints[1], first), n2 = joint_grid(&r.joints[2], second);
        for (int b = 0; b < n2; b++)
            second_forward[b] = reach_quat_rotate(second[b], reach_vec3_make(0, 0, 1));
        const reach_transform *hips = &world[0];
        reach_real best = REACH_PI;
        for (int a = 0; a < n1; a++) {
            reach_quat spine = reach_quat_mul(hips->rotation, first[a]);
            reach_vec3 head =
                reach_transform_point(reach_transform_make(spine, world[1].translation), r.rest[2].translation);
            reach_vec3 way = reach_vec3_sub(target, head);
            for (int b = 0; b < n2; b++) {
                reach_vec3 f = reach_quat_rotate(spine, second_forward[b]);
                best =
                    reach_min(best, reach_atan2(reach_vec3_length(reach_vec3_cross(f, way)), reach_vec3_dot(f, way)));
            }
        }
        if (out.error > best + ORACLE_SLACK)
            fail_msg("case %d: %g rad, the grid %g", i, (double)out.error, (double)best);
        worst_gap = reach_max(worst_gap, out.error - best);
    }
    print_message("worst gap to the grid %g\n", (double)worst_gap);
}

/* Zero shares keep their bones; weight 0 keeps the pose; with the pole, the head's up leans to it. */
static void shares_weight_and_pole(void **state) {
    (void)state;
    test_rng rng = test_rng_make(23);
    for (int i = 0; i < test_scaled(2000); i++) {
        rig r;
        make_rig(&rng, &r, REACH_R(2.5), REACH_R(3.0));
        reach_transform local[MAX_BONES + 1], world[MAX_BONES + 1], start[MAX_BONES + 1];
        random_allowed_pose(&rng, &r, REACH_R(0.5), local);
        memcpy(start, local, sizeof start);
        reach_vec3 target = reach_vec3_add(reach_vec3_make(0, 1, 2), test_in_ball(&rng, 1));
        reach_real shares[MAX_BONES] = {0};
        shares[r.count - 1] = 1;
        reach_aim_chain_settings s = reach_aim_chain_default_settings();
        s.shares = shares;
        reach_aim_output out = solve_ok(&r, target, &s, local, world);
        for (int b = 1; b < r.count; b++)
            ASSERT_QUAT_NEAR(local[b].rotation, start[b].rotation, 1e-6, "a zero share");
        if (!out.limited && out.error > AIM_TOL) fail_msg("the head alone aims");
        reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(target, world[r.count].translation), target);
        reach_vec3 up = reach_vec3_reject(reach_quat_rotate(world[r.count].rotation, reach_vec3_make(0, 1, 0)), axis);
        reach_vec3 pole = reach_vec3_reject(reach_vec3_make(0, 1, 0), axis);
        if (!out.limited && reach_vec3_length(pole) > REACH_R(0.1))
            ASSERT_NEAR(reach_vec3_dot(reach_vec3_normalize_safe(up, axis), reach_vec3_normalize_safe(pole, axis)), 1,
                        1e-3, "up toward the pole");

        memcpy(local, start, sizeof start);
        s = reach_aim_chain_default_settings();
        out = solve_ok(&r, target, &s, local, world);
        if (!out.limited && out.error > AIM_TOL) fail_msg("equal shares aim");
        for (int b = 1; b <= r.count; b++)
            if (reach_quat_angle_between(local[b].rotation, start[b].rotation) < REACH_R(1e-4) &&
                reach_quat_angle(out.correction) > REACH_R(0.1))
                fail_msg("bone %d took no share of the turn", b);

        memcpy(local, start, sizeof start);
        s.aim.weight = 0;
        solve_ok(&r, target, &s, local, world);
        for (int b = 1; b <= r.count; b++)
            ASSERT_QUAT_NEAR(local[b].rotation, start[b].rotation, 1e-6, "weight 0");
    }
}

static void bad_input_leaves_pose_untouched(void **state) {
    (void)state;
    test_rng rng = test_rng_make(24);
    rig r;
    make_rig(&rng, &r, REACH_R(0.3), REACH_R(0.5));
    reach_transform local[MAX_BONES + 1], world[MAX_BONES + 1], local0[MAX_BONES + 1], world0[MAX_BONES + 1];
    memset(local0, 0, sizeof local0); /* the rig may use fewer bones than the arrays hold */
    memset(world0, 0, sizeof world0);
    reach_pose_rest(&r.skeleton, local0);
    reach_forward_kinematics(&r.skeleton, local0, world0);
    reach_real bad_shares[MAX_BONES] = {0};
    for (int c = 0; c < 6; c++) {
        memcpy(local, local0, sizeof local);
        memcpy(world, world0, sizeof world);
        reach_aim_chain_settings s = reach_aim_chain_default_settings();
        reach_vec3 target = reach_vec3_make(0, 1, 1);
        int chain[MAX_BONES];
        memcpy(chain, r.chain, sizeof chain);
        reach_status expect;
        switch (c) {
        case 0:
            target.y = (reach_real)NAN;
            expect = REACH_ERROR_NOT_FINITE;
            break;
        case 1:
            chain[1] = 0;
            expect = REACH_ERROR_BAD_CHAIN;
            break;
        case 2:
            s.shares = bad_shares;
            expect = REACH_ERROR_INVALID_ARGUMENT;
            break;
        case 3:
            memset(&s, 0, sizeof s);
            expect = REACH_ERROR_SETTINGS_NOT_INITIALIZED;
            break;
        case 4:
            world[r.chain[0]].rotation.x = (reach_real)INFINITY;
            expect = REACH_ERROR_NOT_FINITE;
            break;
        default:
            s.aim.forward = reach_vec3_zero();
            expect = REACH_ERROR_INVALID_ARGUMENT;
            break;
        }
        reach_transform world_before[MAX_BONES + 1];
        memcpy(world_before, world, sizeof world);
        reach_status st = reach_aim_chain_solve(&r.skeleton, chain, r.count, target, reach_vec3_make(0, 1, 0), &s,
                                                local, world, NULL);
        if (st != expect) fail_msg("case %d: %s", c, reach_status_string(st));
        if (!test_bytes_equal(local, local0, sizeof local) || !test_bytes_equal(world, world_before, sizeof world))
            fail_msg("case %d: pose written", c);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(points_within_limits_aimed),
        cmocka_unit_test(points_beyond_limits_at_nearest_allowed_aim),
        cmocka_unit_test(points_beyond_limits_beat_a_grid_of_allowed_poses),
        cmocka_unit_test(shares_weight_and_pole),
        cmocka_unit_test(bad_input_leaves_pose_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
