/* Ball-joint chains and reachable targets (see chain.h). */
#include "chain.h"

#include <math.h>
#include <stdlib.h>

#include "bench.h"

#define DEGREE (3.14159265358979323846 / 180)

void bench_chain_make(bench_chain *chain, int bones, bench_random *r) {
    size_t n = (size_t)bones + 1;
    chain->bones = bones;
    chain->parents = bench_calloc(n, sizeof *chain->parents);
    chain->rest = bench_calloc(n, sizeof *chain->rest);
    chain->joints = bench_calloc(n, sizeof *chain->joints);
    chain->length = 0;
    for (int i = 0; i <= bones; i++) {
        reach_real length = i == 0 ? 0 : bench_random_real(r, 0.5, 1.5);
        chain->parents[i] = i - 1;
        chain->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, length, 0));
        chain->joints[i] = reach_joint_ball();
        chain->length += (double)length;
    }
    chain->skeleton.bone_count = bones + 1;
    chain->skeleton.parents = chain->parents;
    chain->skeleton.rest = chain->rest;
    chain->skeleton.joints = chain->joints;
}

void bench_chain_free(bench_chain *chain) {
    free(chain->parents);
    free(chain->rest);
    free(chain->joints);
}

/* A rotation by a uniform angle up to max_degrees about a uniformly random axis. */
static reach_quat random_turn(bench_random *r, double max_degrees) {
    double angle = bench_random_uniform(r, 0, max_degrees) * DEGREE;
    return reach_quat_from_axis_angle(bench_random_direction(r), (reach_real)angle);
}

void bench_chain_random_pose(const bench_chain *chain, bench_random *r, double max_degrees, reach_transform *pose) {
    reach_pose_rest(&chain->skeleton, pose);
    bench_chain_nudge_pose(chain, r, max_degrees, pose);
}

void bench_chain_nudge_pose(const bench_chain *chain, bench_random *r, double max_degrees, reach_transform *pose) {
    /* The end bone's own rotation moves nothing, so it stays. */
    for (int i = 0; i < chain->bones; i++)
        pose[i].rotation = reach_quat_normalize_safe(reach_quat_mul(pose[i].rotation, random_turn(r, max_degrees)));
}

reach_vec3 bench_chain_end(const bench_chain *chain, const reach_transform *pose, reach_transform *world) {
    reach_forward_kinematics(&chain->skeleton, pose, world);
    return world[chain->bones].translation;
}

double bench_chain_length_error(const bench_chain *chain, const reach_transform *pose, reach_transform *world) {
    reach_forward_kinematics(&chain->skeleton, pose, world);
    double worst = 0;
    for (int i = 1; i <= chain->bones; i++) {
        double length = bench_distance(world[i - 1].translation, world[i].translation);
        double error = fabs(length - (double)chain->rest[i].translation.y);
        if (isnan(error)) return NAN;
        worst = fmax(worst, error);
    }
    return worst / chain->length;
}

size_t bench_chain_bytes(const bench_chain *chain) {
    size_t per_bone = sizeof(int) + sizeof(reach_transform) + sizeof(reach_joint) + sizeof(reach_transform);
    return sizeof(reach_skeleton) + per_bone * (size_t)chain->skeleton.bone_count;
}
