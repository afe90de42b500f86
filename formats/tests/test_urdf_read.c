/* Reading URDF: the tree, origins, axes, limits and mimic couplings of hand-written files; names
 * and values by name; and random trees (branches, rpy origins, non-unit axes, mimic joints,
 * shuffled elements, skipped elements) against a plain reference's forward kinematics. */
#include "urdf_check.h"
#include "urdf_reference.h"

#ifdef REACH_DOUBLE
#define FK_TOL 1e-9
#else
#define FK_TOL 2e-4
#endif

static const char *gripper =
    "<?xml version='1.0'?>\n"
    "<robot name='gripper'>\n"
    "  <joint name='finger_right_joint' type='prismatic'>\n"
    "    <parent link='hand'/><child link='finger_right'/>\n"
    "    <origin xyz='0 -0.02 0.1'/><axis xyz='0 -1 0'/>\n"
    "    <limit lower='0' upper='0.04' effort='20' velocity='0.2'/>\n"
    "    <mimic joint='finger_left_joint' multiplier='1' offset='0'/>\n"
    "  </joint>\n"
    "  <link name='finger_right'><visual><geometry><mesh "
    "filename='package://none/finger.dae'/></geometry></visual></link>\n"
    "  <material name='grey'><color rgba='0.5 0.5 0.5 1'/></material>\n"
    "  <link name='base'><inertial><mass value='3'/></inertial></link>\n"
    "  <joint name='wrist' type='continuous'>\n"
    "    <parent link='base'/><child link='hand'/>\n"
    "    <origin xyz='0 0 0.5' rpy='0.1 0.2 0.3'/><axis xyz='0 0 2'/>\n"
    "    <dynamics damping='0.1'/>\n"
    "  </joint>\n"
    "  <link name='hand'><collision><geometry><box size='1 1 1'/></geometry></collision></link>\n"
    "  <joint name='finger_left_joint' type='prismatic'>\n"
    "    <parent link='hand'/><child link='finger_left'/>\n"
    "    <origin xyz='0 0.02 0.1'/><axis xyz='0 1 0'/>\n"
    "    <limit lower='0' upper='0.04' effort='20' velocity='0.2'/>\n"
    "  </joint>\n"
    "  <link name='finger_left'/>\n"
    "  <joint name='camera_mount' type='fixed'><parent link='hand'/><child link='camera'/></joint>\n"
    "  <link name='camera'/>\n"
    "  <transmission name='t'><joint name='wrist'/></transmission>\n"
    "  <gazebo reference='hand'><sensor name='cam' type='camera'/></gazebo>\n"
    "</robot>\n";

static void test_tree_in_bone_order(void **state) {
    (void)state;
    reach_rig rig;
    urdf_read_ok(gripper, &rig);
    assert_int_equal(rig.bone_count, 5);
    /* Root first, then depth first with children in the order of their joints in the file. */
    const char *bones[] = {"base", "hand", "finger_right", "finger_left", "camera"};
    const char *joints[] = {NULL, "wrist", "finger_right_joint", "finger_left_joint", "camera_mount"};
    const int parents[] = {-1, 0, 1, 1, 1};
    for (int b = 0; b < 5; ++b) {
        assert_string_equal(rig.bone_names[b], bones[b]);
        if (joints[b])
            assert_string_equal(rig.joint_names[b], joints[b]);
        else
            assert_null(rig.joint_names[b]);
        assert_int_equal(rig.parents[b], parents[b]);
        assert_int_equal(reach_rig_find_bone(&rig, bones[b]), b);
        if (joints[b]) assert_int_equal(reach_rig_find_joint(&rig, joints[b]), b);
    }
    assert_int_equal(reach_rig_find_bone(&rig, "nothing"), -1);
    assert_int_equal(reach_rig_find_joint(&rig, "hand"), -1);
    assert_int_equal(reach_skeleton_validate(&rig.skeleton, NULL), REACH_OK);
    reach_rig_free(&rig);
    assert_int_equal(rig.bone_count, 0);
}

static void test_joints_origins_and_limits(void **state) {
    (void)state;
    reach_rig rig;
    urdf_read_ok(gripper, &rig);
    reach_joint root = rig.joints[0], wrist = rig.joints[1], right = rig.joints[2], left = rig.joints[3];
    assert_int_equal(root.type, REACH_JOINT_FIXED);
    assert_int_equal(wrist.type, REACH_JOINT_HINGE);
    ASSERT_VEC3_NEAR(wrist.axis, reach_vec3_make(0, 0, 1), TEST_LENGTH_TOL, "axis made unit");
    ASSERT_NEAR(wrist.min, -REACH_PI, TEST_LENGTH_TOL, "continuous: a whole turn");
    ASSERT_NEAR(wrist.max, REACH_PI, TEST_LENGTH_TOL, "continuous: a whole turn");
    assert_int_equal(left.type, REACH_JOINT_PRISMATIC);
    ASSERT_NEAR(left.max, 0.04, TEST_LENGTH_TOL, "upper limit");
    assert_false(left.mimic);
    assert_true(right.mimic);
    assert_int_equal(right.mimic_leader, 3);
    ASSERT_NEAR(right.mimic_multiplier, 1, 0, "multiplier");
    assert_int_equal(rig.joints[4].type, REACH_JOINT_FIXED);
    /* rpy is fixed-axis: Rz(0.3) · Ry(0.2) · Rx(0.1). */
    reach_quat expected =
        reach_quat_mul(reach_quat_from_axis_angle(reach_vec3_make(0, 0, 1), REACH_R(0.3)),
                       reach_quat_mul(reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), REACH_R(0.2)),
                                      reach_quat_from_axis_angle(reach_vec3_make(1, 0, 0), REACH_R(0.1))));
    ASSERT_QUAT_NEAR(rig.rest[1].rotation, expected, TEST_LENGTH_TOL, "rpy");
    ASSERT_VEC3_NEAR(rig.rest[1].translation, reach_vec3_make(0, 0, REACH_R(0.5)), 0, "xyz");
    reach_rig_free(&rig);
}

static void test_values_by_name_and_mimic(void **state) {
    (void)state;
    reach_rig rig;
    urdf_read_ok(gripper, &rig);
    assert_int_equal(reach_skeleton_value_count(&rig.skeleton), 3);
    assert_int_equal(reach_rig_value_index(&rig, "wrist"), 0);
    assert_int_equal(reach_rig_value_index(&rig, "finger_right_joint"), 1);
    assert_int_equal(reach_rig_value_index(&rig, "finger_left_joint"), 2);
    assert_int_equal(reach_rig_value_index(&rig, "camera_mount"), -1);
    assert_string_equal(reach_rig_value_name(&rig, 2), "finger_left_joint");
    assert_null(reach_rig_value_name(&rig, 3));

    reach_transform pose[5];
    reach_pose_rest(&rig.skeleton, pose);
    reach_real scratch[3], values[3];
    const char *names[] = {"finger_left_joint", "wrist"};
    const reach_real given[] = {REACH_R(0.03), REACH_R(0.7)};
    assert_int_equal(reach_rig_set_values_by_name(&rig, names, given, 2, 0, scratch, pose, NULL), REACH_OK);
    reach_pose_get_values(&rig.skeleton, pose, values);
    ASSERT_NEAR(values[0], 0.7, TEST_REACH_TOL, "wrist");
    ASSERT_NEAR(values[2], 0.03, TEST_REACH_TOL, "leader");
    ASSERT_NEAR(values[1], 0.03, TEST_REACH_TOL, "follower derived");
    /* The follower slides along its own axis, -y of the hand, as far as the leader along +y. */
    ASSERT_VEC3_NEAR(pose[2].translation, reach_vec3_make(0, REACH_R(-0.05), REACH_R(0.1)), TEST_REACH_TOL,
                     "follower moved");

    /* A follower's name, an unknown name, a repeated name, a value out of range: refused, pose kept. */
    reach_transform before[5];
    memcpy(before, pose, sizeof pose);
    const char *bad_names[][2] = {{"wrist", "finger_right_joint"}, {"wrist", "nothing"}, {"wrist", "wrist"}};
    for (int k = 0; k < 3; ++k) {
        int bad = -2;
        assert_int_equal(reach_rig_set_values_by_name(&rig, bad_names[k], given, 2, 0, scratch, pose, &bad),
                         REACH_ERROR_INVALID_ARGUMENT);
        assert_int_equal(bad, 1);
    }
    const reach_real too_far[] = {REACH_R(0.05)};
    int bad = -2;
    assert_int_equal(reach_rig_set_values_by_name(&rig, names, too_far, 1, 0, scratch, pose, &bad),
                     REACH_ERROR_INVALID_ARGUMENT);
    assert_int_equal(bad, -1);
    assert_true(test_bytes_equal(before, pose, sizeof pose));
    reach_rig_free(&rig);
}

/* ---- random trees ----------------------------------------------------------------------- */

#define TREE_MAX_LINKS 24
#define TREE_TEXT_SIZE 65536

typedef struct random_tree {
    int links;
    int parent[TREE_MAX_LINKS];
    int type[TREE_MAX_LINKS]; /* 0 revolute, 1 continuous, 2 prismatic, 3 fixed */
    double xyz[TREE_MAX_LINKS][3], rpy[TREE_MAX_LINKS][3], axis[TREE_MAX_LINKS][3];
    double lower[TREE_MAX_LINKS], upper[TREE_MAX_LINKS];
    int leader[TREE_MAX_LINKS]; /* -1 or the link whose joint this one's mimics */
    double multiplier[TREE_MAX_LINKS], offset[TREE_MAX_LINKS];
    int name[TREE_MAX_LINKS]; /* the number in each link's name: not its tree position */
} random_tree;

static void make_random_tree(random_tree *t, test_rng *rng) {
    t->links = 2 + (int)(test_rng_next(rng) % (TREE_MAX_LINKS - 1));
    for (int i = 0; i < t->links; ++i) {
        t->name[i] = i;
        t->parent[i] = i == 0 ? -1 : (int)(test_rng_next(rng) % (uint64_t)i);
        t->type[i] = (int)(test_rng_next(rng) % 4);
        for (int k = 0; k < 3; ++k) {
            t->xyz[i][k] = test_uniform_double(rng, -1, 1);
            t->rpy[i][k] = test_uniform_double(rng, -3.14, 3.14);
            t->axis[i][k] = test_uniform_double(rng, -2, 2);
        }
        t->lower[i] = test_uniform_double(rng, -3, 0);
        t->upper[i] = test_uniform_double(rng, 0, 3);
        t->leader[i] = -1;
        /* Some revolute and prismatic joints follow an earlier valued joint that follows no one;
         * their own range wide enough to hold every derived value (a continuous joint's range is
         * one turn, which a derived value may leave). */
        if (i > 1 && (t->type[i] == 0 || t->type[i] == 2) && test_rng_next(rng) % 3 == 0) {
            int leader = 1 + (int)(test_rng_next(rng) % (uint64_t)(i - 1));
            if (t->type[leader] != 3 && t->leader[leader] < 0) {
                t->leader[i] = leader;
                t->multiplier[i] = test_uniform_double(rng, -1.5, 1.5);
                t->offset[i] = test_uniform_double(rng, -0.5, 0.5);
                t->lower[i] = -6;
                t->upper[i] = 6;
            }
        }
    }
    /* Names shuffled, so that name order says nothing of tree order. */
    for (int i = t->links - 1; i > 0; --i) {
        int j = (int)(test_rng_next(rng) % (uint64_t)(i + 1));
        int swap = t->name[i];
        t->name[i] = t->name[j];
        t->name[j] = swap;
    }
}

static const char *type_names[] = {"revolute", "continuous", "prismatic", "fixed"};

/* The file: links and joints as elements in a shuffled order, with elements IK skips between. */
static void write_random_tree(const random_tree *t, test_rng *rng, char *text, size_t size) {
    char elements[2 * TREE_MAX_LINKS][1024];
    int count = 0;
    for (int i = 0; i < t->links; ++i) {
        snprintf(elements[count++], sizeof elements[0],
                 "<link name='l%d'><visual><geometry><mesh filename='package://x/l%d.stl'/></geometry></visual>"
                 "<inertial><mass value='1'/></inertial></link>\n",
                 t->name[i], t->name[i]);
        if (i == 0) continue;
        char mimic[160] = "";
        if (t->leader[i] >= 0)
            snprintf(mimic, sizeof mimic, "<mimic joint='j%d' multiplier='%.17g' offset='%.17g'/>",
                     t->name[t->leader[i]], t->multiplier[i], t->offset[i]);
        snprintf(elements[count++], sizeof elements[0],
                 "<joint type='%s' name='j%d'>%s<axis xyz='%.17g %.17g %.17g'/><child link='l%d'/>"
                 "<origin rpy='%.17g %.17g %.17g' xyz='%.17g %.17g %.17g'/><parent link='l%d'/>"
                 "<limit upper='%.17g' lower='%.17g' effort='1' velocity='1'/><dynamics damping='1'/></joint>\n",
                 type_names[t->type[i]], t->name[i], mimic, t->axis[i][0], t->axis[i][1], t->axis[i][2], t->name[i],
                 t->rpy[i][0], t->rpy[i][1], t->rpy[i][2], t->xyz[i][0], t->xyz[i][1], t->xyz[i][2],
                 t->name[t->parent[i]], t->upper[i], t->lower[i]);
    }
    for (int i = count - 1; i > 0; --i) {
        int j = (int)(test_rng_next(rng) % (uint64_t)(i + 1));
        char swap[1024];
        memcpy(swap, elements[i], sizeof swap);
        memcpy(elements[i], elements[j], sizeof swap);
        memcpy(elements[j], swap, sizeof swap);
    }
    size_t used = (size_t)snprintf(text, size, "<?xml version='1.0'?>\n<robot name='random'>\n");
    for (int k = 0; k < count; ++k) {
        used += (size_t)snprintf(text + used, size - used, "%s<gazebo reference='l0'/>\n", elements[k]);
        assert_true(used < size);
    }
    snprintf(text + used, size - used, "<transmission name='t'/></robot>\n");
}

/* The reference's world transform of link i at joint values q (per link; followers derived). */
static ref_matrix reference_world(const random_tree *t, const double *q, int i) {
    if (i == 0) return ref_identity();
    ref_matrix parent = reference_world(t, q, t->parent[i]);
    ref_matrix origin = ref_origin(t->xyz[i], t->rpy[i]);
    ref_matrix at = ref_mul(&parent, &origin);
    double n = sqrt(t->axis[i][0] * t->axis[i][0] + t->axis[i][1] * t->axis[i][1] + t->axis[i][2] * t->axis[i][2]);
    double axis[3] = {t->axis[i][0] / n, t->axis[i][1] / n, t->axis[i][2] / n};
    ref_matrix motion = ref_identity();
    if (t->type[i] == 0 || t->type[i] == 1) motion = ref_rotation(axis, q[i]);
    if (t->type[i] == 2) motion = ref_translation(axis[0] * q[i], axis[1] * q[i], axis[2] * q[i]);
    return ref_mul(&at, &motion);
}

static void test_random_trees_match_reference(void **state) {
    (void)state;
    test_rng rng = test_rng_make(2401);
    char *text = malloc(TREE_TEXT_SIZE);
    assert_non_null(text);
    int trees = test_scaled(2000);
    for (int n = 0; n < trees; ++n) {
        random_tree t;
        make_random_tree(&t, &rng);
        write_random_tree(&t, &rng, text, TREE_TEXT_SIZE);
        reach_rig rig;
        urdf_read_ok(text, &rig);
        assert_int_equal(rig.bone_count, t.links);
        int value_count = reach_skeleton_value_count(&rig.skeleton);
        reach_real values[TREE_MAX_LINKS];
        double q[TREE_MAX_LINKS] = {0};
        for (int i = 1; i < t.links; ++i) {
            if (t.type[i] == 3 || t.leader[i] >= 0) continue;
            double lo = t.type[i] == 1 ? -3.14 : t.lower[i], hi = t.type[i] == 1 ? 3.14 : t.upper[i];
            q[i] = (double)(reach_real)test_uniform_double(&rng, lo, hi);
            char name[16];
            snprintf(name, sizeof name, "j%d", t.name[i]);
            int index = reach_rig_value_index(&rig, name);
            assert_true(index >= 0 && index < value_count);
            values[index] = (reach_real)q[i];
        }
        for (int i = 1; i < t.links; ++i)
            if (t.leader[i] >= 0) {
                q[i] = t.multiplier[i] * q[t.leader[i]] + t.offset[i];
                char name[16];
                snprintf(name, sizeof name, "j%d", t.name[i]);
                values[reach_rig_value_index(&rig, name)] = 1e3; /* never read: derived */
            }
        reach_transform pose[TREE_MAX_LINKS], world[TREE_MAX_LINKS];
        reach_pose_rest(&rig.skeleton, pose);
        assert_int_equal(reach_pose_set_values(&rig.skeleton, values, value_count, 0, pose), REACH_OK);
        reach_forward_kinematics(&rig.skeleton, pose, world);
        for (int i = 0; i < t.links; ++i) {
            char name[16];
            snprintf(name, sizeof name, "l%d", t.name[i]);
            int bone = reach_rig_find_bone(&rig, name);
            assert_true(bone >= 0);
            ref_matrix expected = reference_world(&t, q, i);
            double difference = ref_difference(&expected, world[bone]);
            if (!(difference <= FK_TOL)) fail_msg("tree %d link %s: differs by %g", n, name, difference);
        }
        reach_rig_free(&rig);
    }
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree_in_bone_order),
        cmocka_unit_test(test_joints_origins_and_limits),
        cmocka_unit_test(test_values_by_name_and_mimic),
        cmocka_unit_test(test_random_trees_match_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
