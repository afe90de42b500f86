// urdfdom, the reference URDF parser, as an independent oracle: it reads the same files (the
// project's own robots and the real robots in ../shared/data/urdf), and its tree, origins, axes,
// limits and mimic fields agree with reach's rig; forward kinematics built from urdfdom's model
// agrees with reach's for random joint values. The real robots are skipped, saying so, when
// ../shared/data is absent.
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <string>

extern "C" {
#include "urdf_check.h"
#include "urdf_reference.h"
}

#ifdef REACH_DOUBLE
#define FIELD_TOL 1e-12
#define FK_TOL    1e-9
#else
#define FIELD_TOL 1e-6
#define FK_TOL    2e-5
#endif

namespace {

ref_matrix pose_matrix(const urdf::Pose &pose) {
    double x = pose.rotation.x, y = pose.rotation.y, z = pose.rotation.z, w = pose.rotation.w;
    ref_matrix m = ref_translation(pose.position.x, pose.position.y, pose.position.z);
    double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            m.m[i][j] = r[i][j];
    return m;
}

bool has_value(int type) {
    return type == urdf::Joint::REVOLUTE || type == urdf::Joint::CONTINUOUS || type == urdf::Joint::PRISMATIC;
}

reach_joint_type expected_type(int type) {
    if (type == urdf::Joint::PRISMATIC) return REACH_JOINT_PRISMATIC;
    if (type == urdf::Joint::FIXED) return REACH_JOINT_FIXED;
    return REACH_JOINT_HINGE;
}

// The fields: every link a bone with the same parent, every joint the same origin, axis, type,
// limits and mimic coupling.
void same_fields(const urdf::ModelInterface &model, const reach_rig &rig) {
    assert_int_equal(rig.bone_count, (int)model.links_.size());
    assert_string_equal(rig.bone_names[0], model.getRoot()->name.c_str());
    for (const auto &entry : model.joints_) {
        const urdf::Joint &joint = *entry.second;
        int bone = reach_rig_find_joint(&rig, joint.name.c_str());
        assert_true(bone >= 0);
        assert_string_equal(rig.bone_names[bone], joint.child_link_name.c_str());
        assert_string_equal(rig.bone_names[rig.parents[bone]], joint.parent_link_name.c_str());
        const reach_joint &j = rig.joints[bone];
        assert_int_equal(j.type, expected_type(joint.type));
        const urdf::Pose &origin = joint.parent_to_joint_origin_transform;
        ASSERT_VEC3_NEAR(rig.rest[bone].translation,
                         reach_vec3_make((reach_real)origin.position.x, (reach_real)origin.position.y,
                                         (reach_real)origin.position.z),
                         FIELD_TOL, "origin xyz");
        reach_quat q = reach_quat_make((reach_real)origin.rotation.x, (reach_real)origin.rotation.y,
                                       (reach_real)origin.rotation.z, (reach_real)origin.rotation.w);
        ASSERT_NEAR(reach_quat_angle_between(rig.rest[bone].rotation, q), 0, 10 * FIELD_TOL, "origin rpy");
        if (!has_value(joint.type)) continue;
        double n = std::sqrt(joint.axis.x * joint.axis.x + joint.axis.y * joint.axis.y + joint.axis.z * joint.axis.z);
        ASSERT_VEC3_NEAR(j.axis,
                         reach_vec3_make((reach_real)(joint.axis.x / n), (reach_real)(joint.axis.y / n),
                                         (reach_real)(joint.axis.z / n)),
                         FIELD_TOL, "axis");
        if (joint.type != urdf::Joint::CONTINUOUS) {
            assert_non_null(joint.limits.get());
            ASSERT_NEAR(j.min, std::fmax(joint.limits->lower, -2 * M_PI), FIELD_TOL, "lower limit");
            ASSERT_NEAR(j.max, std::fmin(joint.limits->upper, 2 * M_PI), FIELD_TOL, "upper limit");
        }
        assert_int_equal(j.mimic != 0, joint.mimic != nullptr);
        if (joint.mimic) {
            int leader = reach_rig_find_joint(&rig, joint.mimic->joint_name.c_str());
            assert_int_equal(j.mimic_leader, leader);
            ASSERT_NEAR(j.mimic_multiplier, joint.mimic->multiplier, FIELD_TOL, "mimic multiplier");
            ASSERT_NEAR(j.mimic_offset, joint.mimic->offset, FIELD_TOL, "mimic offset");
        }
    }
}

// urdfdom's model turned into world transforms for joint values q (by joint name).
ref_matrix oracle_world(const urdf::ModelInterface &model, const std::string &link_name,
                        const std::map<std::string, double> &q) {
    urdf::LinkConstSharedPtr link = model.getLink(link_name);
    if (!link->parent_joint) return ref_identity();
    const urdf::Joint &joint = *link->parent_joint;
    ref_matrix parent = oracle_world(model, joint.parent_link_name, q);
    ref_matrix origin = pose_matrix(joint.parent_to_joint_origin_transform);
    ref_matrix at = ref_mul(&parent, &origin);
    if (!has_value(joint.type)) return at;
    double value = q.at(joint.name);
    double n = std::sqrt(joint.axis.x * joint.axis.x + joint.axis.y * joint.axis.y + joint.axis.z * joint.axis.z);
    double axis[3] = {joint.axis.x / n, joint.axis.y / n, joint.axis.z / n};
    ref_matrix motion = joint.type == urdf::Joint::PRISMATIC
                            ? ref_translation(axis[0] * value, axis[1] * value, axis[2] * value)
                            : ref_rotation(axis, value);
    return ref_mul(&at, &motion);
}

void same_forward_kinematics(const urdf::ModelInterface &model, const reach_rig &rig, uint64_t seed) {
    test_rng rng = test_rng_make(seed);
    int count = reach_skeleton_value_count(&rig.skeleton);
    std::vector<reach_real> values((size_t)count);
    std::vector<reach_transform> pose((size_t)rig.bone_count), world((size_t)rig.bone_count);
    double worst = 0;
    for (int k = 0; k < test_scaled(1000); ++k) {
        std::map<std::string, double> q;
        for (const auto &entry : model.joints_) {
            const urdf::Joint &joint = *entry.second;
            if (!has_value(joint.type) || joint.mimic) continue;
            int bone = reach_rig_find_joint(&rig, joint.name.c_str());
            reach_real v = test_uniform(&rng, rig.joints[bone].min, rig.joints[bone].max);
            values[(size_t)reach_rig_value_index(&rig, joint.name.c_str())] = v;
            q[joint.name] = (double)v;
        }
        for (const auto &entry : model.joints_) {
            const urdf::Joint &joint = *entry.second;
            if (joint.mimic)
                q[joint.name] = joint.mimic->multiplier * q.at(joint.mimic->joint_name) + joint.mimic->offset;
        }
        reach_pose_rest(&rig.skeleton, pose.data());
        assert_int_equal(reach_pose_set_values(&rig.skeleton, values.data(), count, 0, pose.data()), REACH_OK);
        reach_forward_kinematics(&rig.skeleton, pose.data(), world.data());
        for (int b = 0; b < rig.bone_count; ++b) {
            ref_matrix expected = oracle_world(model, rig.bone_names[b], q);
            worst = std::fmax(worst, ref_difference(&expected, world[(size_t)b]));
        }
    }
    print_message("%-20s forward kinematics against urdfdom: largest difference %.3g\n", model.getName().c_str(),
                  worst);
    if (!(worst <= FK_TOL)) fail_msg("%s: differs from urdfdom by %g", model.getName().c_str(), worst);
}

void check_file(const std::string &path, uint64_t seed) {
    urdf::ModelInterfaceSharedPtr model = urdf::parseURDFFile(path);
    if (!model) fail_msg("urdfdom cannot read %s", path.c_str());
    reach_rig rig;
    char error[URDF_ERROR_SIZE];
    if (reach_urdf_read_file(path.c_str(), &rig, error, sizeof error) != REACH_OK) fail_msg("%s", error);
    same_fields(*model, rig);
    same_forward_kinematics(*model, rig, seed);
    reach_rig_free(&rig);
}

bool shared_data_present(const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    std::fclose(f);
    return true;
}

void check_shared(const char *name, uint64_t seed) {
    std::string path = std::string(REACH_SHARED_DATA) + "/urdf/" + name;
    if (!shared_data_present(path)) {
        print_message("skipped: %s is absent (the real robots live in ../shared/data)\n", path.c_str());
        skip();
    }
    check_file(path, seed);
}

void test_own_robots(void **) {
    check_file(REACH_FORMATS_ASSETS "/ur5.urdf", 1);
    check_file(REACH_FORMATS_ASSETS "/iiwa14.urdf", 2);
    check_file(REACH_FORMATS_ASSETS "/panda_dh.urdf", 3);
    check_file(REACH_FORMATS_ASSETS "/gripper.urdf", 4);
}

void test_panda(void **) { check_shared("panda.urdf", 5); }
void test_sawyer(void **) { check_shared("sawyer.urdf", 6); }
void test_laikago(void **) { check_shared("laikago.urdf", 7); }

} // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_robots),
        cmocka_unit_test(test_panda),
        cmocka_unit_test(test_sawyer),
        cmocka_unit_test(test_laikago),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
