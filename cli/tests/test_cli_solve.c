/* End-to-end two_bone solves through the CLI: targets reached, the printed pose consistent
 * with itself, the pole side kept, options doing what the docs say. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int leg_parents[3] = {-1, 0, 1};

#define LEG_BONES                                                                                                      \
    "{'name':'hip','parent':null,'position':[0,1,0],'rotation':[0,0,0,1]},"                                            \
    "{'name':'knee','parent':'hip','position':[0,-0.45,0]},"                                                           \
    "{'name':'ankle','parent':'knee','position':[0,-0.42,0]}"

/* Solves the leg towards target with extra target fields (e.g. ",'pole':[0,0,1]") and extra
 * solver fields; the run must succeed. */
static cli_run solve_leg(const char *solver_extra, reach_vec3 target, const char *target_extra) {
    char request[2048];
    snprintf(request, sizeof request,
             "{'rig':{'bones':[" LEG_BONES "]},'solver':{'type':'two_bone'%s},"
             "'targets':[{'bone':'ankle','position':[%.17g,%.17g,%.17g]%s}]}",
             solver_extra, target.x, target.y, target.z, target_extra);
    return solve_ok(request);
}

static void spec_example_reaches_its_target(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0.1, 0.3, 0.2);
    cli_run run = solve_leg("", target, ",'orientation':[0,0,0,1],'pole':[0,0,1],'weight':1");
    assert_string_equal(json_at(run.json, "status")->valuestring, "ok");
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    assert_int_equal((int)json_number(run.json, "iterations"), 1);
    assert_true(json_number(run.json, "residual") < 1e-12);
    assert_true(json_number(run.json, "angle_residual") < 1e-12);
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), target, 1e-12);
    assert_string_equal(json_at(run.json, "bones[1].name")->valuestring, "knee");
    assert_int_equal(cJSON_GetArraySize(json_at(run.json, "joints")), 0);
    assert_null(json_at(run.json, "warnings"));
    assert_self_consistent(run.json, leg_parents, 3);
    cli_run_free(&run);
}

static void bone_lengths_are_kept(void **state) {
    (void)state;
    cli_run run = solve_leg("", reach_vec3_make(-0.3, 0.5, 0.1), "");
    reach_vec3 hip = json_vec3(run.json, "bones[0].world_position");
    reach_vec3 knee = json_vec3(run.json, "bones[1].world_position");
    reach_vec3 ankle = json_vec3(run.json, "bones[2].world_position");
    assert_true(fabs(reach_vec3_distance(hip, knee) - 0.45) < 1e-12);
    assert_true(fabs(reach_vec3_distance(knee, ankle) - 0.42) < 1e-12);
    cli_run_free(&run);
}

/* A leg at the ends of double's range (squared lengths overflow or underflow) solves as the leg
 * at unit scale does: lengths kept, the target reached, reached judged on the true length. */
static void legs_at_the_ends_of_the_range_keep_their_lengths(void **state) {
    (void)state;
    const double scales[] = {1e160, 1e-160};
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
        double s = scales[i];
        char request[1024];
        snprintf(request, sizeof request,
                 "{'rig':{'bones':[{'name':'hip'},{'name':'knee','parent':'hip','position':[0,%.17g,0]},"
                 "{'name':'ankle','parent':'knee','position':[0,%.17g,0]}]},'solver':{'type':'two_bone'},"
                 "'targets':[{'bone':'ankle','position':[%.17g,0,0]}]}",
                 -s, -s, s);
        cli_run run = solve_ok(request);
        assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
        assert_true(json_number(run.json, "residual") <= 1e-12 * s);
        reach_vec3 knee = reach_vec3_scale(json_vec3(run.json, "bones[1].world_position"), 1 / s);
        reach_vec3 ankle = reach_vec3_scale(json_vec3(run.json, "bones[2].world_position"), 1 / s);
        assert_true(fabs(reach_vec3_length(knee) - 1) < 1e-12);
        assert_true(fabs(reach_vec3_distance(knee, ankle) - 1) < 1e-12);
        assert_vec3_near(ankle, reach_vec3_make(1, 0, 0), 1e-12);
        cli_run_free(&run);
        /* Out of reach by half the leg: not reached, judged against the leg's true length (its
         * squared length would overflow or underflow). */
        snprintf(request, sizeof request,
                 "{'rig':{'bones':[{'name':'hip'},{'name':'knee','parent':'hip','position':[0,%.17g,0]},"
                 "{'name':'ankle','parent':'knee','position':[0,%.17g,0]}]},'solver':{'type':'two_bone'},"
                 "'targets':[{'bone':'ankle','position':[%.17g,0,0]}]}",
                 -s, -s, 3 * s);
        run = solve_ok(request);
        assert_true(cJSON_IsFalse(json_at(run.json, "reached")));
        assert_true(fabs(json_number(run.json, "residual") / s - 1) < 1e-12);
        cli_run_free(&run);
    }
}

/* The knee lands on the pole's side of the hip→target line, whichever side that is. */
static void pole_side_is_respected(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0.1, 0.3, 0.0);
    const reach_vec3 poles[] = {{0, 0.6, 1}, {0, 0.6, -1}, {1, 0.6, 0}, {-1, 0.6, 0.2}};
    for (size_t i = 0; i < sizeof poles / sizeof poles[0]; i++) {
        char extra[128];
        snprintf(extra, sizeof extra, ",'pole':[%g,%g,%g]", poles[i].x, poles[i].y, poles[i].z);
        cli_run run = solve_leg("", target, extra);
        reach_vec3 hip = json_vec3(run.json, "bones[0].world_position");
        reach_vec3 knee = json_vec3(run.json, "bones[1].world_position");
        reach_vec3 axis = reach_vec3_normalize_safe(reach_vec3_sub(target, hip), reach_vec3_zero());
        reach_vec3 knee_off = reach_vec3_reject(reach_vec3_sub(knee, hip), axis);
        reach_vec3 pole_off = reach_vec3_reject(reach_vec3_sub(poles[i], hip), axis);
        assert_true(reach_vec3_dot(knee_off, pole_off) > 0);
        /* and in the plane of hip, target and pole */
        assert_true(fabs(reach_vec3_dot(reach_vec3_sub(knee, hip), reach_vec3_cross(axis, pole_off))) < 1e-12);
        cli_run_free(&run);
    }
}

static void out_of_reach_points_straight(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(2, 1, 0);
    cli_run run = solve_leg("", target, "");
    assert_true(cJSON_IsFalse(json_at(run.json, "reached")));
    /* From the hip at (0, 1, 0) the target is 2 away; the leg reaches 0.87. */
    assert_true(fabs(json_number(run.json, "residual") - (2 - 0.87)) < 1e-12);
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(0.45, 1, 0), 1e-12);
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_make(0.87, 1, 0), 1e-12);
    cli_run_free(&run);
}

static void end_keeps_world_rotation_or_takes_orientation(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0.2, 0.4, 0.1);
    cli_run kept = solve_leg("", target, "");
    reach_quat end = json_quat(kept.json, "bones[2].world_rotation");
    assert_true(fabs(fabs(end.w) - 1) < 1e-12);
    assert_null(json_at(kept.json, "angle_residual"));
    cli_run_free(&kept);

    double s = sqrt(0.5);
    char extra[128];
    snprintf(extra, sizeof extra, ",'orientation':[%.17g,0,0,%.17g]", s, s);
    cli_run turned = solve_leg("", target, extra);
    reach_quat q = json_quat(turned.json, "bones[2].world_rotation");
    assert_true(fabs(fabs(reach_quat_dot(q, reach_quat_make(s, 0, 0, s))) - 1) < 1e-12);
    assert_true(json_number(turned.json, "angle_residual") < 1e-6);
    cli_run_free(&turned);
}

/* A limb below a moved and turned parent is solved in world space. */
static void limb_under_a_posed_parent(void **state) {
    (void)state;
    const char *request = "{'rig':{'bones':[{'name':'pelvis','position':[1,2,3],'rotation':[0,0,0.3826834323650898,"
                          "0.9238795325112867]},{'name':'hip','parent':'pelvis','position':[0.2,0,0],'rotation':[0.1,0,"
                          "0,0.99498743710662]},{'name':'knee','parent':'hip','position':[0,-0.45,0]},{'name':'ankle',"
                          "'parent':'knee','position':[0,-0.42,0]}]},'solver':{'type':'two_bone'},'chain_root':'hip',"
                          "'targets':[{'bone':'ankle','position':[1.3,1.5,3.2],'pole':[2,2,5]}]}";
    cli_run run = run_cli(request, "solve", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    assert_vec3_near(json_vec3(run.json, "bones[3].world_position"), reach_vec3_make(1.3, 1.5, 3.2), 1e-12);
    /* The pelvis does not move. */
    assert_vec3_near(json_vec3(run.json, "bones[0].world_position"), reach_vec3_make(1, 2, 3), 0);
    static const int parents[4] = {-1, 0, 1, 2};
    assert_self_consistent(run.json, parents, 4);
    cli_run_free(&run);
}

static void stretch_reaches_beyond_the_leg(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(1.0, 1, 0); /* 1.0 away; the leg is 0.87 long */
    cli_run run = solve_leg(",'max_stretch':1.2", target, "");
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    double ratio = 1.0 / 0.87;
    assert_true(fabs(reach_vec3_length(json_vec3(run.json, "bones[1].position")) - 0.45 * ratio) < 1e-12);
    assert_true(fabs(reach_vec3_length(json_vec3(run.json, "bones[2].position")) - 0.42 * ratio) < 1e-12);
    assert_self_consistent(run.json, leg_parents, 3);
    cli_run_free(&run);
}

/* With soft IK the end eases toward a target at full extension and stays short of it. */
static void soft_distance_softens_full_extension(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0.87, 1, 0);
    cli_run run = solve_leg(",'soft_distance':0.1", target, "");
    double residual = json_number(run.json, "residual");
    assert_true(cJSON_IsFalse(json_at(run.json, "reached")));
    /* L - s + s (1 - exp(-s / s)) = 0.77 + 0.1 (1 - 1/e) */
    assert_true(fabs(residual - (0.87 - (0.77 + 0.1 * (1 - exp(-1))))) < 1e-9);
    cli_run_free(&run);
}

static void weight_zero_keeps_the_pose(void **state) {
    (void)state;
    cli_run run = solve_leg("", reach_vec3_make(0.3, 0.5, 0.2), ",'weight':0");
    assert_vec3_near(json_vec3(run.json, "bones[1].world_position"), reach_vec3_make(0, 0.55, 0), 1e-15);
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"), reach_vec3_make(0, 0.13, 0), 1e-15);
    assert_true(cJSON_IsFalse(json_at(run.json, "reached")));
    cli_run_free(&run);
}

static void tolerance_decides_reached(void **state) {
    (void)state;
    reach_vec3 target = reach_vec3_make(0.9, 1, 0); /* 0.03 out of reach */
    cli_run loose = solve_leg(",'tolerance':0.05", target, "");
    assert_true(cJSON_IsTrue(json_at(loose.json, "reached")));
    cli_run_free(&loose);
    cli_run strict = solve_leg(",'tolerance':0.01", target, "");
    assert_true(cJSON_IsFalse(json_at(strict.json, "reached")));
    cli_run_free(&strict);
}

/* Limited joints are reported as not applied, and the other joints' values pass through. */
static void limited_joints_warn_and_values_pass_through(void **state) {
    (void)state;
    const char *request =
        "{'rig':{'bones':[{'name':'hip','position':[0,1,0]},{'name':'knee','parent':'hip','position':[0,"
        "-0.45,0],'joint':{'type':'hinge','axis':[1,0,0],'min':-2.5,'max':0}},{'name':'ankle','parent':"
        "'knee','position':[0,-0.42,0],'joint':{'type':'cone','axis':[0,-1,0],'angle':0.8,'twist':[-0.5,0.5]}},"
        "{'name':'toe','parent':'ankle','position':[0,0,0.1],'joint':{"
        "'type':'hinge','axis':[1,0,0],'min':-1,'max':1}}]},'solver':{'type':'two_bone'},"
        "'targets':[{'bone':'ankle','position':[0,0.4,0.3]}],'joints':[-0.5,0.25]}";
    cli_run run = run_cli(request, "solve", "-", NULL);
    assert_int_equal(run.status, 0);
    const cJSON *warnings = json_at(run.json, "warnings");
    /* The limb's knee and ankle; the toe is not part of the limb. */
    assert_int_equal(cJSON_GetArraySize(warnings), 2);
    assert_non_null(strstr(cJSON_GetArrayItem(warnings, 0)->valuestring, "bone 'knee': its hinge joint"));
    assert_non_null(strstr(cJSON_GetArrayItem(warnings, 1)->valuestring, "bone 'ankle': its cone joint"));
    assert_int_equal(cJSON_GetArraySize(json_at(run.json, "joints")), 2);
    assert_true(fabs(json_number(run.json, "joints[1]") - 0.25) < 1e-12);
    static const int parents[4] = {-1, 0, 1, 2};
    assert_self_consistent(run.json, parents, 4);
    cli_run_free(&run);
}

/* A 2-D rig gives [x, y] vectors; the solve stays in the plane. */
static void planar_rig(void **state) {
    (void)state;
    const char *request = "{'rig':{'bones':[{'name':'shoulder'},{'name':'elbow','parent':'shoulder','position':[1,0]},"
                          "{'name':'hand','parent':'elbow','position':[1,0]}]},'solver':{'type':'two_bone'},"
                          "'targets':[{'bone':'hand','position':[1,1],'pole':[0,2]}]}";
    cli_run run = run_cli(request, "solve", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    reach_vec3 elbow = json_vec3(run.json, "bones[1].world_position");
    assert_true(fabs(elbow.z) < 1e-15);
    assert_vec3_near(elbow, reach_vec3_make(0, 1, 0), 1e-12);
    cli_run_free(&run);
}

/* Seeded random targets all around the leg: reached when in range, otherwise the distance left
 * is what the reach range says; the printed pose is always consistent and finite. */
static void random_targets(void **state) {
    (void)state;
    uint64_t seed = 12345;
    for (int i = 0; i < 200; i++) {
        double c[3];
        for (int k = 0; k < 3; k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            c[k] = ((double)(seed >> 11) / 9007199254740992.0) * 2.4 - 1.2;
        }
        reach_vec3 target = reach_vec3_make(c[0], 1 + c[1], c[2]);
        double distance = reach_vec3_length(reach_vec3_make(c[0], c[1], c[2]));
        cli_run run = solve_leg("", target, ",'pole':[0,1,5]");
        double expected = distance > 0.87 ? distance - 0.87 : (distance < 0.03 ? 0.03 - distance : 0);
        assert_true(fabs(json_number(run.json, "residual") - expected) < 1e-9);
        assert_int_equal(cJSON_IsTrue(json_at(run.json, "reached")), expected < 1e-12);
        assert_self_consistent(run.json, leg_parents, 3);
        cli_run_free(&run);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spec_example_reaches_its_target),
        cmocka_unit_test(bone_lengths_are_kept),
        cmocka_unit_test(legs_at_the_ends_of_the_range_keep_their_lengths),
        cmocka_unit_test(pole_side_is_respected),
        cmocka_unit_test(out_of_reach_points_straight),
        cmocka_unit_test(end_keeps_world_rotation_or_takes_orientation),
        cmocka_unit_test(limb_under_a_posed_parent),
        cmocka_unit_test(stretch_reaches_beyond_the_leg),
        cmocka_unit_test(soft_distance_softens_full_extension),
        cmocka_unit_test(weight_zero_keeps_the_pose),
        cmocka_unit_test(tolerance_decides_reached),
        cmocka_unit_test(limited_joints_warn_and_values_pass_through),
        cmocka_unit_test(planar_rig),
        cmocka_unit_test(random_targets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
