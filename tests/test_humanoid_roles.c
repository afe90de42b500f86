/* Humanoid roles: found from the names of rigs in each naming style (random proportions), the
 * sides of sideless names from the rest pose, role names, and the checks on a map. */
#include "test_humanoid_rigs.h"

static const char *const style_names[STYLE_COUNT] = {"Mixamo", "CMU BVH", "VRM",     "Unity",
                                                     "plain",  "Unreal",  "sideless"};

static void roles_found_in_every_style(void **state) {
    (void)state;
    test_rng rng = test_rng_make(31);
    for (int i = 0; i < test_scaled(7000); i++) {
        int style = i % STYLE_COUNT;
        humanoid_rig rig;
        humanoid_rig_make(&rng, style, &rig);
        assert_int_equal(reach_skeleton_validate(&rig.skeleton, NULL), REACH_OK);
        reach_humanoid found;
        int missing = -1;
        reach_status st = reach_humanoid_find(&rig.skeleton, rig.names, &found, &missing);
        if (st != REACH_OK)
            fail_msg("%s: %s, missing %s", style_names[style], reach_status_string(st),
                     reach_humanoid_role_name((reach_humanoid_role)missing));
        for (int r = 0; r < REACH_ROLE_COUNT; r++)
            if (found.bones[r] != rig.bone_of_part[role_part[r]])
                fail_msg("%s: %s is bone %d, expected %d", style_names[style],
                         reach_humanoid_role_name((reach_humanoid_role)r), found.bones[r],
                         rig.bone_of_part[role_part[r]]);
    }
}

/* Names split at every kind of word boundary, sides in front, behind, glued or abbreviated. */
static void names_by_hand(void **state) {
    (void)state;
    static const char *const names[] = {"Bip01 Pelvis",     "Bip01 Spine",      "Bip01 Neck",      "Bip01 Head",
                                        "Bip01 L Clavicle", "Bip01 L UpperArm", "Bip01 L Forearm", "Bip01 L Hand",
                                        "Bip01 R Clavicle", "Bip01 R UpperArm", "Bip01 R Forearm", "Bip01 R Hand",
                                        "Bip01 L Thigh",    "Bip01 L Calf",     "Bip01 L Foot",    "Bip01 L Toe0",
                                        "thigh.R",          "shin.R",           "foot.R",          "toe.R"};
    static const int parents[] = {-1, 0, 1, 2, 1, 4, 5, 6, 1, 8, 9, 10, 0, 12, 13, 14, 0, 16, 17, 18};
    reach_transform rest[20];
    for (int b = 0; b < 20; b++)
        rest[b] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, REACH_R(0.1), 0));
    reach_skeleton s = {20, parents, rest, NULL};
    reach_humanoid h;
    int missing = -1;
    reach_status st = reach_humanoid_find(&s, names, &h, &missing);
    if (st != REACH_OK) fail_msg("missing %s", reach_humanoid_role_name((reach_humanoid_role)missing));
    static const int expect[REACH_ROLE_COUNT] = {0, 1,  -1, -1, 2,  3,  4,  5,  6,  7,  8,
                                                 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19};
    for (int r = 0; r < REACH_ROLE_COUNT; r++)
        if (h.bones[r] != expect[r])
            fail_msg("%s is %d, expected %d", reach_humanoid_role_name((reach_humanoid_role)r), h.bones[r], expect[r]);
}

static void role_names_round_trip(void **state) {
    (void)state;
    for (int r = 0; r < REACH_ROLE_COUNT; r++)
        assert_int_equal(reach_humanoid_role_from_name(reach_humanoid_role_name((reach_humanoid_role)r)), r);
    assert_int_equal(reach_humanoid_role_from_name("tail"), -1);
    assert_int_equal(reach_humanoid_role_from_name(NULL), -1);
    assert_null(reach_humanoid_role_name(REACH_ROLE_COUNT));
}

/* A map: the found one passes; a limb out of order, a bone in two roles, a missing hand, a bone
 * out of range are refused, naming the role; a rig without legs is not a humanoid. */
static void maps_checked(void **state) {
    (void)state;
    test_rng rng = test_rng_make(32);
    humanoid_rig rig;
    humanoid_rig_make(&rng, S_PLAIN, &rig);
    reach_humanoid h;
    assert_int_equal(reach_humanoid_find(&rig.skeleton, rig.names, &h, NULL), REACH_OK);
    assert_int_equal(reach_humanoid_validate(&rig.skeleton, &h, NULL), REACH_OK);
    int bad = -1;
    reach_humanoid m = h;
    m.bones[REACH_ROLE_LEFT_HAND] = h.bones[REACH_ROLE_LEFT_UPPER_ARM];
    m.bones[REACH_ROLE_LEFT_UPPER_ARM] = h.bones[REACH_ROLE_LEFT_HAND];
    assert_int_equal(reach_humanoid_validate(&rig.skeleton, &m, &bad), REACH_ERROR_BAD_CHAIN);
    assert_int_equal(bad, REACH_ROLE_LEFT_LOWER_ARM); /* no longer below the upper arm */
    m = h;
    m.bones[REACH_ROLE_RIGHT_HAND] = h.bones[REACH_ROLE_LEFT_HAND];
    assert_int_equal(reach_humanoid_validate(&rig.skeleton, &m, &bad), REACH_ERROR_BAD_CHAIN);
    assert_int_equal(bad, REACH_ROLE_RIGHT_HAND);
    m = h;
    m.bones[REACH_ROLE_LEFT_HAND] = -1;
    assert_int_equal(reach_humanoid_validate(&rig.skeleton, &m, &bad), REACH_ERROR_BAD_CHAIN);
    assert_int_equal(bad, REACH_ROLE_LEFT_HAND);
    m = h;
    m.bones[REACH_ROLE_NECK] = rig.bone_count;
    assert_int_equal(reach_humanoid_validate(&rig.skeleton, &m, &bad), REACH_ERROR_BAD_CHAIN);
    assert_int_equal(bad, REACH_ROLE_NECK);
    /* Optional roles may be left out. */
    m = h;
    m.bones[REACH_ROLE_CHEST] = m.bones[REACH_ROLE_LEFT_SHOULDER] = m.bones[REACH_ROLE_RIGHT_TOES] = -1;
    assert_int_equal(reach_humanoid_validate(&rig.skeleton, &m, NULL), REACH_OK);

    const char *names[PART_COUNT];
    for (int b = 0; b < rig.bone_count; b++)
        names[b] = rig.names[b];
    names[rig.bone_of_part[P_L_FOOT]] = "left_boot";
    names[rig.bone_of_part[P_L_LOWER_LEG]] = "left_boot_shaft";
    names[rig.bone_of_part[P_L_UPPER_LEG]] = "left_boot_top";
    int missing = -1;
    reach_humanoid untouched;
    memset(&untouched, 0x7f, sizeof untouched);
    reach_humanoid out = untouched;
    assert_int_equal(reach_humanoid_find(&rig.skeleton, names, &out, &missing), REACH_ERROR_BAD_CHAIN);
    assert_int_equal(missing, REACH_ROLE_LEFT_UPPER_LEG);
    if (!test_bytes_equal(&out, &untouched, sizeof out)) fail_msg("written on failure");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roles_found_in_every_style),
        cmocka_unit_test(names_by_hand),
        cmocka_unit_test(role_names_round_trip),
        cmocka_unit_test(maps_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
