/* Hashes what the solvers that run on packed vectors (src/packed_vec3.h) return on seeded
 * problems: forward kinematics of random trees, two-bone solves with rotations (ordinary limbs,
 * straight and folded ones, targets out of reach, poles on the line), rig two-bone solves under
 * scaled and mirrored parents, and FABRIK and CCD on chains of free joints and of cones, cold
 * and warm. Built twice, against the library and against a copy built with REACH_NO_PACKED (the
 * scalar operations everywhere): the two must print the same lines, which is the promise that a
 * packed build gives a scalar build's bits. Every solve must succeed (exit status 1 otherwise),
 * so that matching hashes of errors cannot pass for a check. REACH_TEST_QUICK (under Valgrind)
 * runs a tenth of the problems. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "reach/reach.h"

#define BONES 12

static uint64_t hash_state;
static int failures;
static int scale = 1;

static void hash_bytes(const void *data, size_t size) {
    const unsigned char *bytes = data;
    for (size_t i = 0; i < size; ++i) {
        hash_state ^= bytes[i];
        hash_state *= 0x100000001b3ull;
    }
}

static void hash_begin(void) { hash_state = 0xcbf29ce484222325ull; }

static void expect_ok(reach_status status) {
    hash_bytes(&status, sizeof status);
    if (status != REACH_OK) ++failures;
}

/* splitmix64, and reals from it: the same sequence in both programs. Each draw is its own
 * statement: the order in which a call's arguments are evaluated is unspecified. */
static uint64_t rng_state;
static uint64_t next(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static reach_real uniform(double lo, double hi) {
    return (reach_real)(lo + (hi - lo) * (double)(next() >> 11) * (1.0 / 9007199254740992.0));
}
static reach_vec3 any_point(double radius) {
    reach_real x = uniform(-radius, radius);
    reach_real y = uniform(-radius, radius);
    reach_real z = uniform(-radius, radius);
    return reach_vec3_make(x, y, z);
}
static reach_quat any_rotation(void) {
    reach_real x = uniform(-1, 1);
    reach_real y = uniform(-1, 1);
    reach_real z = uniform(-1, 1);
    reach_real w = uniform(-1, 1);
    return reach_quat_normalize_safe(reach_quat_make(x, y, z, w));
}
static reach_transform any_transform(void) {
    reach_quat rotation = any_rotation();
    reach_vec3 translation = any_point(2);
    return reach_transform_make(rotation, translation);
}
/* A vector of the given length in a random direction. */
static reach_vec3 any_bone(reach_real length, reach_vec3 fallback) {
    reach_vec3 direction = reach_vec3_normalize_safe(any_point(1), fallback);
    return reach_vec3_scale(direction, length);
}

/* What every two-bone output holds, field by field: a struct's padding holds no defined bits. */
static void hash_limb(reach_vec3 mid, reach_vec3 end, reach_quat root_rotation, reach_quat mid_rotation,
                      reach_real residual, int reached) {
    hash_bytes(&mid, sizeof mid);
    hash_bytes(&end, sizeof end);
    hash_bytes(&root_rotation, sizeof root_rotation);
    hash_bytes(&mid_rotation, sizeof mid_rotation);
    hash_bytes(&residual, sizeof residual);
    hash_bytes(&reached, sizeof reached);
}

static void forward_kinematics(void) {
    int parents[BONES];
    reach_transform rest[BONES], local[BONES], world[BONES];
    hash_begin();
    for (int round = 0; round < 2000 / scale; ++round) {
        for (int i = 0; i < BONES; ++i) {
            parents[i] = i == 0 ? -1 : (int)(next() % (uint64_t)i);
            rest[i] = any_transform();
            local[i] = any_transform();
        }
        reach_skeleton skeleton = {BONES, parents, rest, NULL};
        reach_forward_kinematics(&skeleton, local, world);
        hash_bytes(world, sizeof world);
    }
    printf("forward kinematics %016llx\n", (unsigned long long)hash_state);
}

static void two_bone(void) {
    reach_two_bone_settings options = reach_two_bone_default_settings();
    options.rotations = 1;
    hash_begin();
    for (int k = 0; k < 20000 / scale; ++k) {
        reach_two_bone_input in;
        in.root = any_point(1);
        reach_vec3 upper = any_bone(uniform(0.2, 2), reach_vec3_make(0, 1, 0));
        reach_vec3 lower = any_bone(uniform(0.2, 2), reach_vec3_make(1, 0, 0));
        switch (k % 5) {
        case 1: lower = reach_vec3_scale(upper, uniform(0.2, 1.5)); break;  /* straight */
        case 2: lower = reach_vec3_scale(upper, -uniform(0.2, 0.9)); break; /* folded back */
        default: break;
        }
        in.mid = reach_vec3_add(in.root, upper);
        in.end = reach_vec3_add(in.mid, lower);
        in.target = reach_vec3_add(in.root, any_point(k % 5 == 3 ? 6 : 2)); /* 3: mostly out of reach */
        in.use_pole = k % 7 != 0;
        in.pole = k % 11 == 0 ? reach_vec3_lerp(in.root, in.target, uniform(0, 1)) : any_point(3);
        reach_two_bone_output out;
        reach_status status = reach_two_bone_solve(&in, &options, &out);
        expect_ok(status);
        if (status != REACH_OK) continue;
        hash_limb(out.mid, out.end, out.root_rotation, out.mid_rotation, out.residual, out.reached);
        hash_bytes(&out.upper_length, sizeof out.upper_length);
        hash_bytes(&out.lower_length, sizeof out.lower_length);
    }
    printf("two-bone %016llx\n", (unsigned long long)hash_state);
}

/* The rig solve's short path (solved in the root's frame on packed vectors): limbs under
 * rotated, scaled and mirrored parents, targets within and out of reach, with and without a
 * pole, and straight limbs reaching behind themselves (its half-turn arcs). */
static void two_bone_rig(void) {
    hash_begin();
    for (int k = 0; k < 20000 / scale; ++k) {
        reach_two_bone_rig_input in;
        in.parent_world.linear = reach_mat3_from_quat(any_rotation());
        for (int c = 0; c < 3; ++c) {
            reach_real s = uniform(0.3, 3);
            if (k % 4 == 1 && c == 1) s = -s; /* mirrored */
            in.parent_world.linear.col[c] = reach_vec3_scale(in.parent_world.linear.col[c], s);
        }
        in.parent_world.translation = any_point(2);
        in.root_local = any_transform();
        in.mid_local = any_transform();
        in.end_local = any_transform();
        in.target = any_point(4);
        if (k % 9 == 4) { /* straight, reaching behind itself */
            reach_vec3 axis = reach_vec3_normalize_safe(in.mid_local.translation, reach_vec3_make(1, 0, 0));
            in.end_local.translation =
                reach_vec3_scale(reach_quat_rotate(reach_quat_conjugate(in.mid_local.rotation), axis), uniform(0.2, 2));
            reach_vec3 behind = reach_vec3_mad(in.root_local.translation,
                                               reach_quat_rotate(in.root_local.rotation, axis), -uniform(0.1, 6));
            in.target = reach_affine_point(in.parent_world, behind);
        }
        in.use_pole = k % 7 != 0;
        in.pole = any_point(4);
        in.use_end_orientation = 0;
        in.end_orientation = reach_quat_identity();
        reach_two_bone_rig_output out;
        reach_status status = reach_two_bone_solve_rig(&in, NULL, &out);
        expect_ok(status);
        if (status != REACH_OK) continue;
        hash_limb(out.mid, out.end, out.root_rotation, out.mid_rotation, out.residual, out.reached);
        hash_bytes(&out.end_rotation, sizeof out.end_rotation);
    }
    printf("two-bone rig %016llx\n", (unsigned long long)hash_state);
}

typedef reach_status (*chain_solver)(const reach_skeleton *, const reach_target *, int, const reach_solver_settings *,
                                     reach_transform *, void *, size_t, reach_solve_result *);

/* Chains of free joints (FABRIK's free-chain path) and of cones (its general one), each target
 * solved from rest and then again from the answer with the target nudged. */
static void chains(const char *name, chain_solver solve) {
    int parents[BONES];
    reach_transform rest[BONES], pose[BONES];
    reach_joint joints[BONES];
    static unsigned char scratch[1 << 16];
    hash_begin();
    for (int round = 0; round < 600 / scale; ++round) {
        int cones = round % 2;
        for (int i = 0; i < BONES; ++i) {
            parents[i] = i - 1;
            rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, i ? uniform(0.3, 1.2) : 0, 0));
            joints[i] =
                cones && i > 0 ? reach_joint_cone(reach_vec3_make(0, 1, 0), uniform(0.4, 1.4)) : reach_joint_ball();
        }
        reach_skeleton skeleton = {BONES, parents, rest, joints};
        reach_pose_rest(&skeleton, pose);
        reach_target target = reach_target_position(BONES - 1, any_point(6));
        for (int warm = 0; warm < 2; ++warm) {
            reach_solve_result result = {0, 0, 0, 0, 0};
            reach_status status = solve(&skeleton, &target, 1, NULL, pose, scratch, sizeof scratch, &result);
            expect_ok(status);
            hash_bytes(pose, sizeof pose);
            hash_bytes(&result.iterations, sizeof result.iterations);
            hash_bytes(&result.residual, sizeof result.residual);
            hash_bytes(&result.angle_residual, sizeof result.angle_residual);
            hash_bytes(&result.reached, sizeof result.reached);
            hash_bytes(&result.limited, sizeof result.limited);
            target.position = reach_vec3_add(target.position, any_point(0.2));
        }
    }
    printf("%s %016llx\n", name, (unsigned long long)hash_state);
}

int main(void) {
    const char *quick = getenv("REACH_TEST_QUICK");
    if (quick && *quick && *quick != '0') scale = 10;
    rng_state = 0x5eed;
    forward_kinematics();
    two_bone();
    chains("fabrik", reach_fabrik_solve);
    chains("ccd", reach_ccd_solve);
    two_bone_rig();
    if (failures) fprintf(stderr, "%d solves failed\n", failures);
    return failures ? 1 : 0;
}
