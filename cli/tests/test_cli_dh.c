/* Denavit–Hartenberg rigs through the CLI: `reach fk` of a UR5, a Panda and a made-up arm with
 * offsets and a slider matches the product of the textbook DH matrices; a `jacobian` solve
 * reaches 6-D poses that forward kinematics made; names follow the contract. */
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dh_reference.h"

#define REQUEST_SIZE 8192

static double next_unit(uint64_t *seed) {
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    return (double)(*seed >> 11) / 9007199254740992.0;
}

/* Joint values inside the robot's limits. */
static void random_values(const dh_robot *robot, uint64_t *seed, double *q) {
    int n = 0;
    for (int i = 0; i < robot->rows; i++)
        if (robot->type[i] != 'f') q[n++] = robot->min[i] + (robot->max[i] - robot->min[i]) * next_unit(seed);
}

static void values_json(const double *q, int count, char *buf, size_t size) {
    size_t used = (size_t)snprintf(buf, size, "[");
    for (int i = 0; i < count && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%.17g", i ? "," : "", q[i]);
    if (used < size) snprintf(buf + used, size - used, "]");
}

static cli_run fk(const dh_robot *robot, const double *q) {
    char rig[REQUEST_SIZE / 2], values[512], request[REQUEST_SIZE];
    dh_rig_json(robot, rig, sizeof rig);
    values_json(q, dh_value_count(robot), values, sizeof values);
    snprintf(request, sizeof request, "{'rig':%s,'joints':%s}", rig, values);
    cli_run run = run_cli(request, "fk", "-", NULL);
    if (run.status != 0) fail_msg("fk failed: %s", run.out);
    return run;
}

/* The printed tool bone (the last) against the DH matrices' product at q. */
static void assert_tool_matches(const cJSON *result, const dh_robot *robot, const double *q, double tolerance) {
    double position[3], expected[9], printed[9], quat[4];
    dh_reference_fk(robot, q, position, expected);
    char path[64];
    snprintf(path, sizeof path, "bones[%d].world_position", robot->rows);
    assert_vec3_near(json_vec3(result, path), reach_vec3_make(position[0], position[1], position[2]), tolerance);
    snprintf(path, sizeof path, "bones[%d].world_rotation", robot->rows);
    reach_quat q_printed = json_quat(result, path);
    quat[0] = q_printed.x, quat[1] = q_printed.y, quat[2] = q_printed.z, quat[3] = q_printed.w;
    dh_quat_matrix(quat, printed);
    for (int k = 0; k < 9; k++)
        if (!(fabs(printed[k] - expected[k]) <= tolerance))
            fail_msg("rotation element %d: %.17g, expected %.17g", k, printed[k], expected[k]);
}

/* The UR5 pointing straight up: shoulder and wrist 1 at -pi/2 put every link on the z axis, the
 * tool 0.19145 (d4 + d6) to -y and 1.001059 (d1 + a2 + a3 + d5, with a2, a3 < 0) up. */
static void ur5_upright_pose(void **state) {
    (void)state;
    dh_robot ur5 = dh_ur5();
    const double q[6] = {0, -REACH_PI / 2, 0, -REACH_PI / 2, 0, 0};
    cli_run run = fk(&ur5, q);
    assert_vec3_near(json_vec3(run.json, "bones[6].world_position"), reach_vec3_make(0, -0.19145, 1.001059), 1e-12);
    assert_tool_matches(run.json, &ur5, q, 1e-12);
    static const char *const names[] = {"joint1", "joint2", "joint3", "joint4", "joint5", "joint6", "tool"};
    for (int i = 0; i < 7; i++) {
        char path[32];
        snprintf(path, sizeof path, "bones[%d].name", i);
        assert_string_equal(json_at(run.json, path)->valuestring, names[i]);
    }
    for (int i = 0; i < 6; i++) {
        char path[32];
        snprintf(path, sizeof path, "joints[%d]", i);
        assert_true(fabs(json_number(run.json, path) - q[i]) < 1e-12);
    }
    static const int parents[7] = {-1, 0, 1, 2, 3, 4, 5};
    assert_self_consistent(run.json, parents, 7);
    cli_run_free(&run);
}

/* Seeded joint values on every robot and both conventions of the made-up arm. */
static void fk_matches_the_dh_matrices(void **state) {
    (void)state;
    const dh_robot robots[] = {dh_ur5(), dh_panda(), dh_offsets_arm("standard"), dh_offsets_arm("modified")};
    uint64_t seed = 77;
    for (size_t r = 0; r < sizeof robots / sizeof robots[0]; r++) {
        for (int i = 0; i < 10; i++) {
            double q[DH_MAX_ROWS];
            random_values(&robots[r], &seed, q);
            cli_run run = fk(&robots[r], q);
            assert_tool_matches(run.json, &robots[r], q, 1e-12);
            assert_int_equal(cJSON_GetArraySize(json_at(run.json, "joints")), dh_value_count(&robots[r]));
            cli_run_free(&run);
        }
    }
}

static void names_and_tool(void **state) {
    (void)state;
    const char *request = "{'rig':{'dh':{'convention':'standard','tool':'flange','joints':[{'a':0.3,'name':'base'},"
                          "{'a':0.2}]}},'joints':[0.5,-0.5]}";
    cli_run run = run_cli(request, "fk", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(json_at(run.json, "bones[0].name")->valuestring, "base");
    assert_string_equal(json_at(run.json, "bones[1].name")->valuestring, "joint2");
    assert_string_equal(json_at(run.json, "bones[2].name")->valuestring, "flange");
    /* Two links of 0.3 and 0.2 turning about z by 0.5 and then back by 0.5. */
    assert_vec3_near(json_vec3(run.json, "bones[2].world_position"),
                     reach_vec3_make(0.3 * cos(0.5) + 0.2, 0.3 * sin(0.5), 0), 1e-12);
    cli_run_free(&run);
}

/* A revolute range past pi: printed angles are the turn that lies in the range, and a solve
 * there prints its solution in the range too (so it reads back as a starting pose). */
static void angles_print_in_their_range(void **state) {
    (void)state;
    const char *rig = "{'dh':{'convention':'standard','joints':[{'a':1,'min':2,'max':5}]}}";
    for (double q = 2; q <= 5; q += 0.25) {
        char request[512];
        snprintf(request, sizeof request, "{'rig':%s,'joints':[%.17g]}", rig, q);
        cli_run run = run_cli(request, "fk", "-", NULL);
        assert_int_equal(run.status, 0);
        assert_true(fabs(json_number(run.json, "joints[0]") - q) < 1e-12);
        cli_run_free(&run);
    }
    char request[512];
    snprintf(
        request, sizeof request,
        "{'rig':%s,'solver':{'type':'jacobian'},'joints':[2],'targets':[{'bone':'tool','position':[%.17g,%.17g,0]}]}",
        rig, cos(4.0), sin(4.0));
    cli_run run = solve_ok(request);
    assert_true(cJSON_IsTrue(json_at(run.json, "reached")));
    assert_true(fabs(json_number(run.json, "joints[0]") - 4) < 1e-3);
    cli_run_free(&run);
}

/* 6-D targets from forward kinematics of joint values inside the limits, solved from other
 * joint values with the default (most robust) settings: reached, and the reference forward
 * kinematics of the printed joints lands on the target. */
static void jacobian_reaches_fk_poses(void **state) {
    (void)state;
    const dh_robot robots[] = {dh_ur5(), dh_panda()};
    uint64_t seed = 4242;
    for (size_t r = 0; r < sizeof robots / sizeof robots[0]; r++) {
        const dh_robot *robot = &robots[r];
        int n = dh_value_count(robot);
        for (int i = 0; i < 5; i++) {
            double goal[DH_MAX_ROWS], start[DH_MAX_ROWS], solved[DH_MAX_ROWS], position[3], rotation[9];
            random_values(robot, &seed, goal);
            random_values(robot, &seed, start);
            cli_run made = fk(robot, goal);
            char tool[64], rig[REQUEST_SIZE / 2], values[512], request[REQUEST_SIZE];
            snprintf(tool, sizeof tool, "bones[%d]", robot->rows);
            reach_vec3 p = json_vec3(json_at(made.json, tool), "world_position");
            reach_quat o = json_quat(json_at(made.json, tool), "world_rotation");
            dh_rig_json(robot, rig, sizeof rig);
            values_json(start, n, values, sizeof values);
            snprintf(request, sizeof request,
                     "{'rig':%s,'solver':{'type':'jacobian','tolerance':1e-6},'joints':%s,'targets':[{'bone':'tool',"
                     "'position':[%.17g,%.17g,%.17g],'orientation':[%.17g,%.17g,%.17g,%.17g]}]}",
                     rig, values, p.x, p.y, p.z, o.x, o.y, o.z, o.w);
            cli_run run = solve_ok(request);
            if (!cJSON_IsTrue(json_at(run.json, "reached"))) fail_msg("robot %zu pose %d: %s", r, i, run.out);
            assert_true(json_number(run.json, "residual") <= 1e-6);
            assert_true(json_number(run.json, "angle_residual") <= 1e-4);
            for (int k = 0; k < n; k++) {
                char path[32];
                snprintf(path, sizeof path, "joints[%d]", k);
                solved[k] = json_number(run.json, path);
            }
            dh_reference_fk(robot, solved, position, rotation);
            assert_vec3_near(reach_vec3_make(position[0], position[1], position[2]), p, 1e-6 + 1e-12);
            cli_run_free(&made);
            cli_run_free(&run);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ur5_upright_pose),
        cmocka_unit_test(fk_matches_the_dh_matrices),
        cmocka_unit_test(names_and_tool),
        cmocka_unit_test(angles_print_in_their_range),
        cmocka_unit_test(jacobian_reaches_fk_poses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
