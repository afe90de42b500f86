/* The Jacobian suite: reach_jacobian_solve on the UR5, the LBR iiwa 14 and the Panda (robots.h),
 * full 6-D goals (tool position and orientation), with each method:
 *   transpose, pseudoinverse, dls, sdls   the library's default settings (at most 64 iterations,
 *                                         no restarts) with that method
 *   robust                                DLS with 50 seeded restarts and at most 1000
 *                                         iterations: what `reach solve` uses when the request
 *                                         names no method (cli/solve_jacobian.c)
 * The problems are TRAC-IK's (robots.h: random reachable goals, every solve from the middle of
 * the ranges); a goal counts as reached within 1e-5 m and 1e-5 rad, as TRAC-IK's eps, with every
 * joint within its limits. Each solve is timed on its own
 * (samples.h); the robot and method pairs take turns round by round. The first round checks
 * every answer, untimed: REACH_OK, the reported residuals are those of the pose (forward
 * kinematics), `reached` only when within both tolerances, and every joint within its limits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "robots.h"
#include "samples.h"
#include "suites.h"

#define POSITION_TOLERANCE 1e-5 /* m */
#define ANGLE_TOLERANCE    1e-5 /* rad */
#define ROBUST_RESTARTS    50
#define ROBUST_ITERATIONS  1000

/* Slack for what is read back from a solved pose: residuals from forward kinematics, and joint
 * angles from quaternions (the limits themselves are met exactly in joint values). */
#ifdef REACH_DOUBLE
#define READBACK_SLACK 1e-9
#else
#define READBACK_SLACK 2e-5
#endif

/* How far past a tolerance the pose read back may lie where the solver reported it reached: the
 * solver and this check measure the angle by different formulas, which in float differ by about
 * 1e-7 rad at 1e-5 (a Panda pose the solver measured at 9.95e-6 rad reads back at 1.002e-5). */
#ifdef REACH_DOUBLE
#define CLAIM_SLACK 1e-12
#else
#define CLAIM_SLACK 4e-7
#endif

typedef struct jacobian_method {
    const char *name;
    reach_jacobian_method method;
    int restarts, max_iterations; /* 0: the default */
} jacobian_method;

static const jacobian_method methods[] = {
    {"transpose", REACH_JACOBIAN_TRANSPOSE, 0, 0},
    {"pseudoinverse", REACH_JACOBIAN_PSEUDOINVERSE, 0, 0},
    {"dls", REACH_JACOBIAN_DLS, 0, 0},
    {"sdls", REACH_JACOBIAN_SDLS, 0, 0},
    {"robust", REACH_JACOBIAN_DLS, ROBUST_RESTARTS, ROBUST_ITERATIONS},
};
#define METHOD_COUNT ((int)(sizeof methods / sizeof methods[0]))

typedef struct method_run {
    char name[64];
    const bench_robot *robot;
    const bench_robot_poses *poses;
    reach_solver_settings settings;
    bench_samples samples;
} method_run;

typedef struct check_totals {
    long failures, wrong_reports, outside_limits;
} check_totals;

static reach_solver_settings settings_for(const jacobian_method *m) {
    reach_solver_settings s = reach_solver_default_settings();
    s.jacobian_method = m->method;
    s.tolerance = (reach_real)POSITION_TOLERANCE;
    s.angle_tolerance = (reach_real)ANGLE_TOLERANCE;
    if (m->restarts) s.restarts = m->restarts;
    if (m->max_iterations) s.max_iterations = m->max_iterations;
    return s;
}

/* Untimed: the reported residuals are those of the pose, `reached` is true only within the
 * tolerances, and the joints are within their limits. */
static void check_answer(const method_run *m, const reach_transform *pose, reach_transform goal,
                         const reach_solve_result *result, check_totals *totals) {
    const bench_robot *robot = m->robot;
    reach_transform world[BENCH_ROBOT_MAX_ROWS + 1];
    reach_forward_kinematics(&robot->skeleton, pose, world);
    double distance = (double)reach_vec3_distance(world[robot->tool].translation, goal.translation);
    double angle = (double)reach_quat_angle_between(world[robot->tool].rotation, goal.rotation);
    int truthful = fabs((double)result->residual - distance) <= READBACK_SLACK &&
                   fabs((double)result->angle_residual - angle) <= 4 * READBACK_SLACK;
    int within = distance <= POSITION_TOLERANCE + CLAIM_SLACK && angle <= ANGLE_TOLERANCE + CLAIM_SLACK;
    totals->wrong_reports += !truthful || (result->reached && !within);
    reach_real values[BENCH_ROBOT_MAX_DOF];
    double q[BENCH_ROBOT_MAX_DOF];
    reach_pose_get_values(&robot->skeleton, pose, values);
    for (int i = 0; i < robot->dof; i++)
        q[i] = (double)values[i];
    totals->outside_limits += !bench_robot_within_limits(robot, q, READBACK_SLACK);
}

static void solve_round(method_run *m, int round, void *scratch, size_t scratch_size, check_totals *totals) {
    const bench_robot *robot = m->robot;
    reach_transform pose[BENCH_ROBOT_MAX_ROWS + 1];
    for (int k = 0; k < m->poses->count; k++) {
        reach_transform goal = m->poses->goals[k];
        reach_target target = reach_target_position(robot->tool, goal.translation);
        target.orientation = goal.rotation;
        target.use_orientation = 1;
        if (!bench_robot_set_values(robot, &m->poses->start_values[k * robot->dof], pose)) totals->failures++;
        reach_solve_result result;
        double start = bench_seconds();
        reach_status st =
            reach_jacobian_solve(&robot->skeleton, &target, 1, &m->settings, pose, scratch, scratch_size, &result);
        bench_samples_put(&m->samples, k, round, bench_seconds() - start);
        if (round > 0) continue;
        m->samples.iterations[k] = result.iterations;
        m->samples.reached[k] = st == REACH_OK && result.reached;
        if (st != REACH_OK)
            totals->failures++;
        else
            check_answer(m, pose, goal, &result, totals);
    }
}

static void report_checks(bench_run *run, const check_totals *totals) {
    char message[160];
    snprintf(message, sizeof message, "jacobian: every solve returns REACH_OK (%ld did not)", totals->failures);
    bench_check(run, totals->failures == 0, message);
    snprintf(message, sizeof message, "jacobian: residuals and `reached` are reported truthfully (%ld are not)",
             totals->wrong_reports);
    bench_check(run, totals->wrong_reports == 0, message);
    snprintf(message, sizeof message, "jacobian: every joint within its limits (%ld poses are not)",
             totals->outside_limits);
    bench_check(run, totals->outside_limits == 0, message);
}

static void record_bytes(bench_run *run, const bench_robot *robot) {
    char name[96];
    snprintf(name, sizeof name, "jacobian/%s/bytes/scratch", robot->name);
    bench_record_value(run, name, "bytes/chain", (double)reach_jacobian_scratch_size(&robot->skeleton, 1));
    /* Parents, rest transforms, joints and one pose per bone, the skeleton and one target. */
    size_t per_bone = sizeof(int) + 2 * sizeof(reach_transform) + sizeof(reach_joint);
    snprintf(name, sizeof name, "jacobian/%s/bytes/chain", robot->name);
    bench_record_value(
        run, name, "bytes/chain",
        (double)(per_bone * (size_t)robot->skeleton.bone_count + sizeof(reach_skeleton) + sizeof(reach_target)));
}

void bench_suite_jacobian(bench_run *run) {
    int rounds = bench_rounds(run), count = bench_is_quick(run) ? BENCH_ROBOT_QUICK_POSES : BENCH_ROBOT_POSES;
    bench_robot robots[BENCH_ROBOT_COUNT];
    bench_robot_poses poses[BENCH_ROBOT_COUNT];
    method_run runs[BENCH_ROBOT_COUNT * METHOD_COUNT];
    int run_count = 0;
    size_t scratch_size = 0;
    for (int r = 0; r < BENCH_ROBOT_COUNT; r++) {
        bench_check(run, bench_robot_build(&robots[r], r), "the robot's DH table builds");
        bench_robot_poses_make(&poses[r], &robots[r], count);
        size_t need = reach_jacobian_scratch_size(&robots[r].skeleton, 1);
        scratch_size = need > scratch_size ? need : scratch_size;
        for (int k = 0; k < METHOD_COUNT; k++) {
            method_run *m = &runs[run_count];
            snprintf(m->name, sizeof m->name, "jacobian/%s/%s", robots[r].name, methods[k].name);
            if (!bench_wants(run, m->name)) continue;
            m->robot = &robots[r];
            m->poses = &poses[r];
            m->settings = settings_for(&methods[k]);
            bench_samples_init(&m->samples, count, rounds);
            run_count++;
        }
    }
    void *scratch = bench_calloc(scratch_size, 1);
    check_totals totals = {0, 0, 0};
    bench_span span = bench_span_start();
    for (int round = 0; round < rounds; round++)
        for (int k = 0; k < run_count; k++)
            solve_round(&runs[(round + k) % run_count], round, scratch, scratch_size, &totals);
    bench_span_end(run, span);
    if (run_count) report_checks(run, &totals);
    for (int k = 0; k < run_count; k++) {
        bench_samples_record(run, runs[k].name, &runs[k].samples);
        bench_samples_free(&runs[k].samples);
    }
    for (int r = 0; r < BENCH_ROBOT_COUNT; r++) {
        record_bytes(run, &robots[r]);
        bench_robot_poses_free(&poses[r]);
    }
    free(scratch);
}
