/* The rig two-bone solve's short path (the everyday call, solved in the root joint's frame)
 * against its general path (reach_two_bone_solve_rig_general) and against an oracle of its own:
 * forward kinematics of the returned local rotations, computed here from the local transforms,
 * must put the end on a reachable target, on the root→target line at the limb's full or folded
 * length otherwise, and the mid joint in the plane of root, target and pole on the pole's side;
 * the end keeps its frame. Parents of every kind: rigid, scaled uniformly and not, mirrored,
 * nearly singular; targets within reach, beyond it and inside the fold; with and without a pole,
 * with a pole on the root, and limbs straight away from their target (the arcs' half turns). */
#include <math.h>
#include <string.h>

#include "reach/testing.h"
#include "test_support.h"
#include "test_two_bone_rig_pose.h"

typedef enum parent_kind { RIGID, UNIFORM, STRETCHED, MIRRORED, NEARLY_FLAT, PARENT_KINDS } parent_kind;
static const char *const parent_names[] = {"rigid", "uniform", "stretched", "mirrored", "nearly flat"};

typedef enum target_kind { WITHIN, BEYOND, INSIDE_FOLD, TARGET_KINDS } target_kind;

static reach_affine random_parent(test_rng *rng, parent_kind kind) {
    reach_affine a;
    a.linear = reach_mat3_from_quat(test_unit_quat(rng));
    a.translation = test_in_ball(rng, 10);
    reach_real s[3] = {1, 1, 1};
    if (kind == UNIFORM) s[0] = s[1] = s[2] = test_uniform(rng, REACH_R(0.2), 5);
    if (kind == STRETCHED || kind == MIRRORED)
        for (int i = 0; i < 3; ++i)
            s[i] = test_uniform(rng, REACH_R(0.3), 3);
    if (kind == MIRRORED) s[test_rng_next(rng) % 3] *= -1;
    /* One axis squashed to a thousandth: the determinant is small but the parent invertible. */
    if (kind == NEARLY_FLAT) s[test_rng_next(rng) % 3] = REACH_R(1e-3);
    for (int i = 0; i < 3; ++i)
        a.linear.col[i] = reach_vec3_scale(a.linear.col[i], s[i]);
    return a;
}

/* Forward kinematics of rotations that may be a few roundings off unit length. */
static rig_pose forward(const reach_two_bone_rig_input *in, reach_quat root_r, reach_quat mid_r, reach_quat end_r) {
    return rig_forward(in, reach_quat_normalize_safe(root_r), reach_quat_normalize_safe(mid_r),
                       reach_quat_normalize_safe(end_r), in->mid_local.translation, in->end_local.translation);
}

static rig_pose placed_by(const reach_two_bone_rig_input *in, const reach_two_bone_rig_output *out) {
    return forward(in, out->root_rotation, out->mid_rotation, out->end_rotation);
}

/* A point of the parent's space at distance `distance` from the limb's root, as the world sees it. */
static reach_vec3 world_at(const reach_two_bone_rig_input *in, reach_vec3 direction, reach_real distance) {
    return reach_affine_point(in->parent_world, reach_vec3_mad(in->root_local.translation, direction, distance));
}

typedef struct limb_case {
    reach_two_bone_rig_input in;
    target_kind target;
    reach_real upper, lower; /* bone lengths, in the parent's units */
    int pole_on_root;
    int straight_away; /* a straight limb pointing (nearly) away from its target */
} limb_case;

static limb_case random_case(test_rng *rng, parent_kind parent, int n) {
    limb_case c;
    reach_two_bone_rig_input *in = &c.in;
    memset(in, 0, sizeof *in);
    in->parent_world = random_parent(rng, parent);
    c.upper = test_uniform(rng, REACH_R(0.3), 2);
    c.lower = test_uniform(rng, REACH_R(0.3), 2);
    /* Rotations a few roundings off unit length, as rigs hold them after blending. */
    reach_quat root = test_unit_quat(rng);
    if (n % 4 == 1) root = reach_quat_make(root.x * REACH_R(1.001), root.y * REACH_R(1.001), root.z, root.w);
    in->root_local = reach_transform_make(root, test_in_ball(rng, 1));
    in->mid_local = reach_transform_make(test_unit_quat(rng), reach_vec3_scale(test_unit_vec3(rng), c.upper));
    in->end_local = reach_transform_make(test_unit_quat(rng), reach_vec3_scale(test_unit_vec3(rng), c.lower));
    /* Target distances kept a little off the ends of the range, where the two paths' roundings
     * could put one just within reach and the other just out of it. */
    c.target = (target_kind)(n % TARGET_KINDS);
    reach_real longest = c.upper + c.lower, shortest = (reach_real)fabs((double)(c.upper - c.lower));
    reach_real distance = c.target == WITHIN   ? test_uniform(rng, shortest + REACH_R(0.01), longest - REACH_R(0.01))
                          : c.target == BEYOND ? longest * test_uniform(rng, REACH_R(1.01), 3)
                                               : shortest * test_uniform(rng, REACH_R(0.05), REACH_R(0.99));
    reach_vec3 target_direction = test_unit_vec3(rng);
    in->target = world_at(in, target_direction, distance);
    in->use_pole = n % 5 != 0;
    in->pole = world_at(in, test_unit_vec3(rng), test_uniform(rng, REACH_R(0.5), 5));
    /* A pole on the root says nothing: the limb keeps its bend. */
    c.pole_on_root = in->use_pole && n % 23 == 7;
    if (c.pole_on_root) in->pole = world_at(in, reach_vec3_zero(), 0);
    /* A straight limb pointing away from its target, exactly or off by 1e-8 to 0.1 radians:
     * the root turns half way round, or nearly. */
    c.straight_away = n % 17 == 3;
    if (c.straight_away) {
        reach_vec3 upper_axis = reach_vec3_scale(in->mid_local.translation, 1 / c.upper);
        reach_vec3 lower_in_mid = reach_quat_rotate(reach_quat_conjugate(in->mid_local.rotation), upper_axis);
        in->end_local.translation = reach_vec3_scale(lower_in_mid, c.lower);
        reach_vec3 away = reach_vec3_neg(reach_quat_rotate(reach_quat_normalize_safe(root), upper_axis));
        int exponent = (n / 17) % 9;
        if (exponent > 0) {
            reach_real tilt = (reach_real)pow(10.0, -exponent);
            away = reach_vec3_normalize_safe(reach_vec3_mad(away, test_unit_vec3(rng), tilt), away);
        }
        in->target = world_at(in, away, distance);
    }
    return c;
}

static reach_real frobenius(reach_mat3 m) {
    return reach_sqrt(reach_vec3_length_sq(m.col[0]) + reach_vec3_length_sq(m.col[1]) + reach_vec3_length_sq(m.col[2]));
}

/* How much the parent's inverse magnifies rounding (its condition number, to a small factor):
 * 1 for a rigid parent, about 3000 for the nearly flat ones. */
static reach_real parent_condition(const reach_two_bone_rig_input *in) {
    reach_affine inverse = reach_affine_identity();
    assert_true(reach_affine_inverse(in->parent_world, &inverse));
    return reach_max(1, frobenius(in->parent_world.linear) * frobenius(inverse.linear) / 3);
}

/* The oracle: where forward kinematics of the result puts the joints, in the parent's space. */
static void expect_the_oracle(const limb_case *c, const reach_two_bone_rig_output *out, const char *what) {
    const reach_two_bone_rig_input *in = &c->in;
    rig_pose before = forward(in, in->root_local.rotation, in->mid_local.rotation, in->end_local.rotation);
    rig_pose after = placed_by(in, out);
    reach_affine to_parent = reach_affine_identity();
    assert_true(reach_affine_inverse(in->parent_world, &to_parent));
    reach_vec3 root = in->root_local.translation;
    reach_vec3 mid = reach_affine_point(to_parent, after.mid), end = reach_affine_point(to_parent, after.end);
    reach_vec3 target = reach_affine_point(to_parent, in->target);
    reach_real size = c->upper + c->lower + reach_vec3_length(root) + 1;
    /* The parent's inverse rounds relative to its scale; a nearly flat parent magnifies it. */
    reach_real tol = TEST_REACH_TOL * 100 * size * parent_condition(in);
    ASSERT_NEAR(reach_vec3_distance(root, mid), c->upper, tol, what);
    ASSERT_NEAR(reach_vec3_distance(mid, end), c->lower, tol, what);
    reach_vec3 to_target = reach_vec3_sub(target, root), to_end = reach_vec3_sub(end, root);
    reach_real d = reach_vec3_length(to_target);
    switch (c->target) {
    case WITHIN: ASSERT_VEC3_NEAR(end, target, tol, what); break;
    case BEYOND: ASSERT_VEC3_NEAR(to_end, reach_vec3_scale(to_target, (c->upper + c->lower) / d), tol, what); break;
    default: {
        /* Folded, the longer bone toward the target: the end on the line at |l1 − l2|. */
        reach_real folded = (reach_real)fabs((double)(c->upper - c->lower));
        ASSERT_VEC3_NEAR(to_end, reach_vec3_scale(to_target, folded / d), tol, what);
    }
    }
    /* The mid joint in the plane of root, target and pole, on the pole's side of the line. */
    reach_vec3 to_pole = reach_vec3_sub(reach_affine_point(to_parent, in->pole), root);
    reach_vec3 to_mid = reach_vec3_sub(mid, root);
    reach_vec3 normal = reach_vec3_cross(to_target, to_pole);
    reach_real normal_length = reach_vec3_length(normal);
    reach_real pole_distance = reach_vec3_length(to_pole);
    if (in->use_pole && pole_distance > REACH_R(0.01) * size && normal_length > REACH_R(0.2) * d * pole_distance &&
        c->target == WITHIN) {
        ASSERT_NEAR(reach_vec3_dot(normal, to_mid) / normal_length, 0, tol, what);
        assert_true(reach_vec3_dot(normal, reach_vec3_cross(to_target, to_mid)) >= 0);
    }
    ASSERT_QUAT_NEAR(after.end_frame, before.end_frame, TEST_REACH_TOL * 10, what);
    ASSERT_VEC3_NEAR(after.root, before.root, tol, "the root does not move");
    /* The reported positions are where forward kinematics puts the joints. */
    ASSERT_VEC3_NEAR(out->mid, after.mid, tol * 10, what);
    ASSERT_VEC3_NEAR(out->end, after.end, tol * 10, what);
}

static void short_path_meets_the_oracle_and_the_general_path(void **state) {
    (void)state;
    for (int kind = 0; kind < PARENT_KINDS; ++kind) {
        test_rng rng = test_rng_make(3100 + (uint64_t)kind);
        int short_path = 0;
        for (int n = 0; n < TEST_CASES; ++n) {
            limb_case c = random_case(&rng, (parent_kind)kind, n);
            reach_two_bone_settings options = reach_two_bone_default_settings();
            /* Half the calls with a tolerance of their own, which the short path takes too. */
            if (n % 2) options.tolerance = REACH_R(1e-3);
            reach_two_bone_rig_output fast, general;
            assert_int_equal(reach_two_bone_solve_rig(&c.in, &options, &fast), REACH_OK);
            assert_int_equal(reach_two_bone_solve_rig_general(&c.in, &options, &general), REACH_OK);
            expect_the_oracle(&c, &fast, parent_names[kind]);
            expect_the_oracle(&c, &general, parent_names[kind]);

            rig_pose a = placed_by(&c.in, &fast), b = placed_by(&c.in, &general);
            reach_real size = reach_vec3_distance(a.root, b.end) + reach_vec3_length(a.root) + 1;
            reach_real tol = TEST_REACH_TOL * 100 * size * parent_condition(&c.in);
            /* A target close to the root has a direction only to the rounding of its coordinates
             * relative to its distance: the mid joint turns with it. A pole on the root says
             * nothing, but brought into the parent's space it may land a rounding away from the
             * root, on a side the rounding picks: there the two paths may bend the limb in
             * different planes, each as the oracle allows. */
            reach_real target_distance = reach_vec3_distance(a.root, c.in.target);
            reach_real mid_tol = tol * (1 + size / target_distance);
            if (!c.pole_on_root) ASSERT_VEC3_NEAR(a.mid, b.mid, mid_tol, parent_names[kind]);
            ASSERT_VEC3_NEAR(a.end, b.end, tol, parent_names[kind]);
            ASSERT_QUAT_NEAR(a.end_frame, b.end_frame, TEST_REACH_TOL * 10, "end frame");
            assert_true(test_bytes_equal(&fast.mid_translation, &c.in.mid_local.translation, sizeof(reach_vec3)));
            assert_true(test_bytes_equal(&fast.end_translation, &c.in.end_local.translation, sizeof(reach_vec3)));
            ASSERT_NEAR(fast.residual, general.residual, tol, "residual");
            if (c.target == WITHIN)
                assert_true(fast.reached && general.reached);
            else if (fast.residual > 2 * tol)
                assert_int_equal(fast.reached, general.reached);
            /* The two paths round differently: a result to the general path's bits is its own. */
            short_path += !test_bytes_equal(&fast.root_rotation, &general.root_rotation, sizeof(reach_quat));
        }
        /* The short path takes all but the calls it must hand on (a pole too near the target
         * line, a straight limb without a pole, the range's ends). */
        if (short_path < TEST_CASES * 3 / 4)
            fail_msg("%s: the short path took %d calls of %d", parent_names[kind], short_path, TEST_CASES);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_path_meets_the_oracle_and_the_general_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
