/* The character suite: full-body IK on a 25-bone humanoid (plain names, natural limits) and an
 * aim chain (spine, chest, upper chest, neck, head).
 *   character/full_body/cold   from the rest pose to the hands, feet and head (positions and
 *                              rotations) of a random natural pose, hips moved and turned
 *   character/full_body/warm   frames along eased paths between such poses, each solve started
 *                              from the last one's pose (targets move under 1 % of the height a
 *                              frame)
 *   character/aim_chain        the head aimed at random points in front, the turn shared along
 *                              the five bones inside their limits
 * Before anything is timed, every problem is solved once and checked: the share of full-body
 * target sets reached (1e-3 of the height, 1 degree) and of aims within 0.1 degree. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "humanoid25.h"
#include "random.h"
#include "reach/reach.h"
#include "suites.h"

#define SEED        0xc4a7ac7e75eedu
#define COLD_SETS   256
#define WARM_FRAMES 512
#define LEG_FRAMES  128 /* frames from one pose to the next on the warm path */
#define AIMS        1024
#define BONES       HUMANOID25_BONES

typedef struct humanoid_bench {
    int parents[BONES];
    reach_transform rest[BONES];
    reach_joint joints[BONES];
    const char *names[BONES];
    reach_skeleton skeleton;
    reach_humanoid roles;
    void *scratch;
    size_t scratch_size;
    reach_full_body_targets cold[COLD_SETS], warm[WARM_FRAMES];
    reach_transform warm_start[BONES], pose[BONES];
    reach_vec3 aims[AIMS];
    int chain[5];
    int unreached;
} humanoid_bench;

static int make_humanoid(humanoid_bench *h) {
    for (int b = 0; b < BONES; b++) {
        h->parents[b] = humanoid25[b].parent;
        h->rest[b] = reach_transform_make(reach_quat_identity(),
                                          reach_vec3_make(humanoid25[b].x, humanoid25[b].y, humanoid25[b].z));
        h->joints[b] = reach_joint_ball();
        h->names[b] = humanoid25[b].name;
    }
    reach_skeleton s = {BONES, h->parents, h->rest, h->joints};
    h->skeleton = s;
    if (reach_humanoid_find(&h->skeleton, h->names, &h->roles, NULL) != REACH_OK) return 0;
    if (reach_humanoid_natural_joints(&h->skeleton, &h->roles, h->joints) != REACH_OK) return 0;
    h->scratch_size = reach_full_body_scratch_size(&h->skeleton);
    h->scratch = bench_aligned_calloc(64, h->scratch_size);
    for (int k = 0; k < 5; k++)
        h->chain[k] = k + 1;
    return 1;
}

static void random_pose(bench_random *r, const humanoid_bench *h, double yaw, reach_transform *pose) {
    reach_pose_rest(&h->skeleton, pose);
    for (int b = 0; b < BONES; b++) {
        reach_quat turn = reach_quat_from_axis_angle(bench_random_direction(r), bench_random_real(r, 0, 0.8));
        reach_joint_project_rotation(&h->joints[b], h->rest[b].rotation, turn, &pose[b].rotation);
    }
    pose[0].translation = reach_vec3_add(pose[0].translation, bench_random_point(r, 0.15));
    pose[0].rotation = reach_quat_mul(
        reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), bench_random_real(r, -yaw, yaw)), pose[0].rotation);
}

static const reach_humanoid_role part_roles[REACH_BODY_PART_COUNT] = {REACH_ROLE_HIPS,      REACH_ROLE_HEAD,
                                                                      REACH_ROLE_LEFT_HAND, REACH_ROLE_RIGHT_HAND,
                                                                      REACH_ROLE_LEFT_FOOT, REACH_ROLE_RIGHT_FOOT};

static reach_full_body_targets targets_of(const humanoid_bench *h, const reach_transform *pose) {
    reach_transform world[BONES];
    reach_forward_kinematics(&h->skeleton, pose, world);
    reach_full_body_targets t = reach_full_body_no_targets();
    for (int p = REACH_BODY_HEAD; p < REACH_BODY_PART_COUNT; p++) {
        const reach_transform *w = &world[h->roles.bones[part_roles[p]]];
        t.parts[p].use_position = t.parts[p].use_rotation = 1;
        t.parts[p].position = w->translation;
        t.parts[p].rotation = w->rotation;
    }
    return t;
}

static void make_problems(humanoid_bench *h) {
    bench_random r = {SEED};
    reach_transform pose[BONES], from[BONES], to[BONES];
    for (int i = 0; i < COLD_SETS; i++) {
        random_pose(&r, h, 3.14159, pose);
        h->cold[i] = targets_of(h, pose);
    }
    random_pose(&r, h, 0.3, to);
    for (int f = 0; f < WARM_FRAMES; f++) {
        if (f % LEG_FRAMES == 0) {
            memcpy(from, to, sizeof from);
            random_pose(&r, h, 0.3, to);
        }
        reach_real u = (reach_real)(f % LEG_FRAMES + 1) / LEG_FRAMES;
        u = u * u * (3 - 2 * u);
        for (int b = 0; b < BONES; b++) {
            pose[b].rotation = reach_quat_slerp(from[b].rotation, to[b].rotation, u);
            pose[b].translation = reach_vec3_lerp(from[b].translation, to[b].translation, u);
        }
        h->warm[f] = targets_of(h, pose);
    }
    /* The warm path starts from the solved pose of its first frame. */
    reach_pose_rest(&h->skeleton, h->warm_start);
    reach_full_body_solve(&h->skeleton, &h->roles, &h->warm[0], NULL, h->warm_start, h->scratch, h->scratch_size, NULL);
    for (int i = 0; i < AIMS; i++)
        h->aims[i] = reach_vec3_add(reach_vec3_make(0, REACH_R(1.7), 2), bench_random_point(&r, 1.5));
}

static void pass_cold(void *data) {
    humanoid_bench *h = data;
    int unreached = 0;
    for (int i = 0; i < COLD_SETS; i++) {
        reach_pose_rest(&h->skeleton, h->pose);
        reach_full_body_result result;
        reach_full_body_solve(&h->skeleton, &h->roles, &h->cold[i], NULL, h->pose, h->scratch, h->scratch_size,
                              &result);
        unreached += !(result.residual <= REACH_R(1.8e-3) && result.angle_residual <= REACH_R(0.01745));
    }
    h->unreached = unreached;
    bench_consume((double)h->pose[0].translation.y);
}

static void pass_warm(void *data) {
    humanoid_bench *h = data;
    int unreached = 0;
    memcpy(h->pose, h->warm_start, sizeof h->pose);
    for (int f = 0; f < WARM_FRAMES; f++) {
        reach_full_body_result result;
        reach_full_body_solve(&h->skeleton, &h->roles, &h->warm[f], NULL, h->pose, h->scratch, h->scratch_size,
                              &result);
        unreached += !(result.residual <= REACH_R(1.8e-3) && result.angle_residual <= REACH_R(0.01745));
    }
    h->unreached = unreached;
    bench_consume((double)h->pose[0].translation.y);
}

static void pass_aim(void *data) {
    humanoid_bench *h = data;
    int unreached = 0;
    reach_transform world[BONES];
    reach_aim_chain_settings settings = reach_aim_chain_default_settings();
    for (int i = 0; i < AIMS; i++) {
        reach_pose_rest(&h->skeleton, h->pose);
        reach_forward_kinematics(&h->skeleton, h->pose, world);
        reach_aim_output out;
        reach_aim_chain_solve(&h->skeleton, h->chain, 5, h->aims[i], reach_vec3_make(0, 1, 0), &settings, h->pose,
                              world, &out);
        unreached += !(out.error <= REACH_R(1.745e-3));
    }
    h->unreached = unreached;
    bench_consume((double)h->pose[5].rotation.w);
}

void bench_suite_character(bench_run *run) {
    if (!bench_wants(run, "character")) return;
    static humanoid_bench cold, warm, aim;
    humanoid_bench *all[3] = {&cold, &warm, &aim};
    for (int i = 0; i < 3; i++) {
        if (!make_humanoid(all[i])) {
            bench_check(run, 0, "the bench humanoid's roles and limits");
            return;
        }
        make_problems(all[i]);
    }
    pass_cold(&cold);
    bench_record_value(run, "character/full_body/cold/reached", "%", 100.0 * (COLD_SETS - cold.unreached) / COLD_SETS);
    pass_warm(&warm);
    bench_record_value(run, "character/full_body/warm/reached", "%",
                       100.0 * (WARM_FRAMES - warm.unreached) / WARM_FRAMES);
    pass_aim(&aim);
    bench_record_value(run, "character/aim_chain/reached", "%", 100.0 * (AIMS - aim.unreached) / AIMS);
    bench_check(run, cold.unreached <= COLD_SETS / 50, "full body: 98 % of cold target sets reached");
    bench_check(run, warm.unreached <= WARM_FRAMES / 50, "full body: 98 % of warm frames reached");
    const bench_timed timed[] = {
        {"character/full_body/cold", "solves/s", pass_cold, &cold, COLD_SETS},
        {"character/full_body/warm", "solves/s", pass_warm, &warm, WARM_FRAMES},
        {"character/aim_chain", "solves/s", pass_aim, &aim, AIMS},
    };
    bench_time(run, timed, 3);
    for (int i = 0; i < 3; i++)
        free(all[i]->scratch);
}
