/* The URDF suite (reach::formats):
 *   urdf/read/panda          µs to read the project's Panda URDF (formats/tests/assets), text in
 *                            memory to a rig, freed after
 *   urdf/read/panda_franka   the same for Franka's own Panda URDF with its hand and mimic fingers
 *                            (../shared/data/urdf/panda.urdf), when that file is there
 *   urdf/panda/dls           DLS (the library's defaults) on the URDF Panda, the jacobian suite's
 *                            Panda pose set (the same goals and starts)
 *   urdf/panda_dh/dls        the same solves on the DH Panda, in the same rounds
 * The two Panda rigs have the same kinematics (test_urdf_dh), so the solve figures should match
 * within noise; the URDF rig has one more bone, the fixed base link. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "reach/urdf.h"
#include "robots.h"
#include "samples.h"
#include "suites.h"

#define PANDA_INDEX     2 /* in robots.c */
#define READS_PER_ROUND 200

static char *read_text(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size > 0 ? malloc((size_t)size) : NULL;
    *length = text ? fread(text, 1, (size_t)size, f) : 0;
    fclose(f);
    return text;
}

/* µs per read: the mean of READS_PER_ROUND reads, each round; median, min and max over rounds. */
static void time_reading(bench_run *run, const char *name, const char *path) {
    if (!bench_wants(run, name)) return;
    size_t length = 0;
    char *text = read_text(path, &length);
    if (!text) {
        printf("%s: %s is absent; not measured\n", name, path);
        return;
    }
    reach_rig rig;
    char error[256];
    bench_check(run, reach_urdf_read(text, length, &rig, error, sizeof error) == REACH_OK, "the URDF reads");
    reach_rig_free(&rig);
    int rounds = bench_rounds(run);
    double *per_read = bench_calloc((size_t)rounds, sizeof *per_read);
    for (int round = 0; round < rounds; round++) {
        double start = bench_seconds();
        for (int k = 0; k < READS_PER_ROUND; k++) {
            reach_urdf_read(text, length, &rig, NULL, 0);
            bench_consume((double)rig.bone_count);
            reach_rig_free(&rig);
        }
        per_read[round] = (bench_seconds() - start) / READS_PER_ROUND * 1e6;
    }
    bench_record(run, name, "us/read", bench_stats_of(per_read, rounds));
    free(per_read);
    free(text);
}

typedef struct panda_run {
    const reach_skeleton *skeleton;
    int tool;
    bench_samples samples;
} panda_run;

static void solve_round(panda_run *p, const bench_robot_poses *poses, const bench_robot *dh, int round, void *scratch,
                        size_t scratch_size, long *failures) {
    reach_solver_settings settings = reach_solver_default_settings();
    settings.jacobian_method = REACH_JACOBIAN_DLS;
    settings.tolerance = REACH_R(1e-5);
    settings.angle_tolerance = REACH_R(1e-4);
    reach_transform pose[BENCH_ROBOT_MAX_ROWS + 2];
    reach_real values[BENCH_ROBOT_MAX_DOF];
    for (int k = 0; k < poses->count; k++) {
        reach_target target = reach_target_position(p->tool, poses->goals[k].translation);
        target.orientation = poses->goals[k].rotation;
        target.use_orientation = 1;
        for (int i = 0; i < dh->dof; i++)
            values[i] = (reach_real)poses->start_values[k * dh->dof + i];
        reach_pose_rest(p->skeleton, pose);
        *failures += reach_pose_set_values(p->skeleton, values, dh->dof, 0, pose) != REACH_OK;
        reach_solve_result result;
        double start = bench_seconds();
        reach_status st =
            reach_jacobian_solve(p->skeleton, &target, 1, &settings, pose, scratch, scratch_size, &result);
        bench_samples_put(&p->samples, k, round, bench_seconds() - start);
        if (round > 0) continue;
        *failures += st != REACH_OK;
        p->samples.iterations[k] = result.iterations;
        p->samples.reached[k] = st == REACH_OK && result.reached;
    }
}

static void time_panda_solves(bench_run *run, const char *path) {
    if (!bench_wants(run, "urdf/panda")) return;
    bench_robot dh;
    bench_check(run, bench_robot_build(&dh, PANDA_INDEX), "the Panda's DH table builds");
    reach_rig rig;
    char error[256];
    if (reach_urdf_read_file(path, &rig, error, sizeof error) != REACH_OK) {
        bench_check(run, 0, error);
        return;
    }
    bench_check(run, reach_skeleton_value_count(&rig.skeleton) == dh.dof, "the URDF Panda has the DH Panda's joints");
    int count = bench_is_quick(run) ? BENCH_ROBOT_QUICK_POSES : BENCH_ROBOT_POSES, rounds = bench_rounds(run);
    bench_robot_poses poses;
    bench_robot_poses_make(&poses, &dh, count);
    panda_run runs[2] = {{&rig.skeleton, reach_rig_find_bone(&rig, "panda_link8"), {0, 0, NULL, NULL, NULL}},
                         {&dh.skeleton, dh.tool, {0, 0, NULL, NULL, NULL}}};
    const char *names[2] = {"urdf/panda/dls", "urdf/panda_dh/dls"};
    size_t scratch_size = reach_jacobian_scratch_size(&rig.skeleton, 1);
    size_t dh_size = reach_jacobian_scratch_size(&dh.skeleton, 1);
    if (dh_size > scratch_size) scratch_size = dh_size;
    void *scratch = bench_calloc(scratch_size, 1);
    for (int r = 0; r < 2; r++)
        bench_samples_init(&runs[r].samples, count, rounds);
    long failures = 0;
    for (int round = 0; round < rounds; round++)
        for (int r = 0; r < 2; r++)
            solve_round(&runs[(round + r) % 2], &poses, &dh, round, scratch, scratch_size, &failures);
    bench_check(run, failures == 0, "urdf: every Panda solve returns REACH_OK from a valid start");
    for (int r = 0; r < 2; r++) {
        bench_samples_record(run, names[r], &runs[r].samples);
        bench_samples_free(&runs[r].samples);
    }
    bench_ratio(run, "urdf/panda/dls_over_dh", "urdf/panda/dls", "urdf/panda_dh/dls");
    bench_robot_poses_free(&poses);
    free(scratch);
    reach_rig_free(&rig);
}

void bench_suite_urdf(bench_run *run) {
    time_reading(run, "urdf/read/panda", REACH_BENCH_URDF_ASSETS "/panda_dh.urdf");
    time_reading(run, "urdf/read/panda_franka", REACH_BENCH_SHARED_DATA "/urdf/panda.urdf");
    time_panda_solves(run, REACH_BENCH_URDF_ASSETS "/panda_dh.urdf");
}
