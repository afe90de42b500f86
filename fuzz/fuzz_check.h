/* The contract every iterative solver (FABRIK, CCD, the Jacobian family) shares, checked on one
 * fuzzed problem:
 *   - a solver never accepts what reach_skeleton_validate rejects;
 *   - an error leaves the pose and the result byte for byte as they were;
 *   - too little scratch is always an error;
 *   - success gives a finite pose and a finite result, at most max_iterations iterations;
 *   - every bone the solver wrote is inside its joint's limits, turns by a unit quaternion and
 *     keeps its bone length (its translation's length) unless its joint slides;
 *   - so forward kinematics of the output keeps every bone length in world space (checked in
 *     double with the rotations as written, which would show any non-unit rotation).
 * Tolerances, and why they are what they are, are next to their definitions. */
#ifndef REACH_FUZZ_CHECK_H
#define REACH_FUZZ_CHECK_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_rig.h"

/* A written rotation is a normalised quaternion: |q|² - 1 is a few roundings. */
#define FUZZ_UNIT_TOL (64 * (double)REACH_REAL_EPSILON)
/* World bone lengths: each ancestor's rotation scales lengths by |q|², so the relative error is
 * at most the sum of FUZZ_UNIT_TOL over at most FUZZ_MAX_BONES ancestors. */
#define FUZZ_LENGTH_TOL (FUZZ_MAX_BONES * FUZZ_UNIT_TOL)
/* Joint limits: the solvers' own slack (64 ε, ik_state.h) plus the rounding of the
 * swing-twist split that measures it, in radians or, for slides, relative to the joint's scale. */
#define FUZZ_LIMIT_TOL (256 * (double)REACH_REAL_EPSILON)

typedef reach_status (*fuzz_solver)(const reach_skeleton *, const reach_target *, int, const reach_solver_settings *,
                                    reach_transform *, void *, size_t, reach_solve_result *);
typedef size_t (*fuzz_scratch_size)(const reach_skeleton *, int);

static inline double fuzz_quat_norm_sq(reach_quat q) {
    return (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w;
}

static inline double fuzz_length(reach_vec3 v) { return fuzz_norm3((double)v.x, (double)v.y, (double)v.z); }

/* Forward kinematics in double, rotations used as written (not normalised), positions only,
 * each tree measured from its root's joint: the root's translation moves everything below it
 * alike, and leaving it out keeps far-away rigs measurable. */
static inline void fuzz_world_positions(const reach_skeleton *sk, const reach_transform *pose, double (*out)[3]) {
    double rot[FUZZ_MAX_BONES][4];
    for (int i = 0; i < sk->bone_count; ++i) {
        double q[4] = {pose[i].rotation.x, pose[i].rotation.y, pose[i].rotation.z, pose[i].rotation.w};
        double t[3] = {pose[i].translation.x, pose[i].translation.y, pose[i].translation.z};
        int p = sk->parents[i];
        if (p < 0) {
            memcpy(rot[i], q, sizeof q);
            out[i][0] = out[i][1] = out[i][2] = 0;
            continue;
        }
        const double *a = rot[p];
        /* rot[i] = rot[p] · q */
        rot[i][0] = a[3] * q[0] + a[0] * q[3] + a[1] * q[2] - a[2] * q[1];
        rot[i][1] = a[3] * q[1] - a[0] * q[2] + a[1] * q[3] + a[2] * q[0];
        rot[i][2] = a[3] * q[2] + a[0] * q[1] - a[1] * q[0] + a[2] * q[3];
        rot[i][3] = a[3] * q[3] - a[0] * q[0] - a[1] * q[1] - a[2] * q[2];
        /* a t a* for a = (v, w) of any length n = |a|²: n t + 2w (v × t) + 2 v × (v × t), so a
         * non-unit rotation shows as a bone length scaled by n. */
        double n = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
        double c[3] = {a[1] * t[2] - a[2] * t[1], a[2] * t[0] - a[0] * t[2], a[0] * t[1] - a[1] * t[0]};
        double cc[3] = {a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]};
        for (int k = 0; k < 3; ++k)
            out[i][k] = out[p][k] + n * t[k] + 2 * a[3] * c[k] + 2 * cc[k];
    }
}

static inline int fuzz_pose_is_finite(const reach_transform *pose, int count) {
    for (int i = 0; i < count; ++i)
        if (!reach_quat_is_finite(pose[i].rotation) || !reach_vec3_is_finite(pose[i].translation)) return 0;
    return 1;
}

/* How well a cone's twist can be measured. The twist is read from the part of the joint's
 * rotation along its axis, of size r = cos(swing / 2): a rounding of the quaternion's
 * components (ε) moves the measured twist by about ε / r. At a half-turn swing r = 0 and the
 * twist is undefined (limits.h); near it a twist held exactly at its limit measures outside by
 * up to a few ε / r. Returns the allowance for that: 16 ε / r for a cone with a twist limit
 * (infinite at r = 0), 0 for every other joint. */
static inline double fuzz_twist_rounding(const reach_joint *joint, reach_quat rest, reach_quat rotation) {
    if (joint->type != REACH_JOINT_CONE || !joint->has_twist) return 0;
    reach_quat delta =
        reach_quat_normalize_safe(reach_quat_mul(reach_quat_conjugate(reach_quat_normalize_safe(rest)), rotation));
    reach_vec3 axis = reach_vec3_normalize_safe(joint->axis, reach_vec3_make(0, 0, 1));
    double along = (double)reach_vec3_dot(reach_vec3_make(delta.x, delta.y, delta.z), axis);
    double r = sqrt(along * along + (double)delta.w * delta.w);
    return r > 0 ? 16 * (double)REACH_REAL_EPSILON / r : INFINITY;
}

/* Every written bone: unit rotation, inside its limits, same length unless it slides. */
static inline void fuzz_check_written_bones(const fuzz_rig *r, const reach_transform *before,
                                            const reach_transform *after, int moving_root) {
    const reach_skeleton *sk = &r->skeleton;
    for (int i = 0; i < sk->bone_count; ++i) {
        if (memcmp(&before[i], &after[i], sizeof before[i]) == 0) continue;
        FUZZ_REQUIRE(fabs(fuzz_quat_norm_sq(after[i].rotation) - 1) <= FUZZ_UNIT_TOL);
        reach_joint joint = reach_skeleton_joint(sk, i);
        /* fabrik_move_root slides a root bone wherever the targets pull it, whatever its joint
         * (fabrik.h): only its rotation is the joint's to limit. */
        int moved_root = moving_root == i;
        reach_transform measured = after[i];
        if (moved_root) {
            reach_transform projected = after[i];
            reach_joint_project_local(&joint, &sk->rest[i], &projected);
            measured.translation = projected.translation;
        }
        double scale = 1;
        if (joint.type == REACH_JOINT_PRISMATIC || joint.type == REACH_JOINT_FIXED) {
            /* Slides are measured in rig units: their rounding follows the numbers involved. */
            scale = fmax(scale, fuzz_length(sk->rest[i].translation));
            scale = fmax(scale, fmax(fabs((double)joint.min), fabs((double)joint.max)));
        }
        double limit_error = (double)reach_joint_limit_error(&joint, &sk->rest[i], &measured);
        double allowed = FUZZ_LIMIT_TOL * scale + fuzz_twist_rounding(&joint, sk->rest[i].rotation, measured.rotation);
        if (!(limit_error <= allowed)) {
            fprintf(stderr, "bone %d (joint type %d): limit error %g, allowed %g\n", i, (int)joint.type, limit_error,
                    allowed);
            FUZZ_REQUIRE(limit_error <= allowed);
        }
        if (joint.type == REACH_JOINT_PRISMATIC || moved_root) continue;
        /* A fixed joint is put back at rest; every other joint keeps the translation it had. */
        double had = fuzz_length(before[i].translation), has = fuzz_length(after[i].translation);
        double rest = fuzz_length(sk->rest[i].translation);
        double slack = 4 * (double)REACH_REAL_EPSILON * fmax(had, rest);
        FUZZ_REQUIRE(fabs(has - had) <= slack || (joint.type == REACH_JOINT_FIXED && fabs(has - rest) <= slack));
    }
}

/* With every input rotation a unit quaternion, forward kinematics of the output keeps every
 * bone's length: the distance from its parent's joint is the length of its translation. The
 * check's own rounding (double, on coordinates as large as the tree's extent) is allowed for. */
static inline void fuzz_check_world_lengths(const fuzz_rig *r, const reach_transform *before,
                                            const reach_transform *after) {
    const reach_skeleton *sk = &r->skeleton;
    for (int i = 0; i < sk->bone_count; ++i)
        if (fabs(fuzz_quat_norm_sq(before[i].rotation) - 1) > FUZZ_UNIT_TOL) return;
    double world[FUZZ_MAX_BONES][3], extent = 0;
    fuzz_world_positions(sk, after, world);
    for (int i = 0; i < sk->bone_count; ++i)
        extent = fmax(extent, fmax(fabs(world[i][0]), fmax(fabs(world[i][1]), fabs(world[i][2]))));
    /* Past 1e150 the squares below overflow; nothing to measure there. */
    if (!(extent < 1e150)) return;
    for (int i = 0; i < sk->bone_count; ++i) {
        int p = sk->parents[i];
        if (p < 0) continue;
        double d[3] = {world[i][0] - world[p][0], world[i][1] - world[p][1], world[i][2] - world[p][2]};
        double length = fuzz_norm3(d[0], d[1], d[2]);
        double expected = fuzz_length(after[i].translation);
        double slack = FUZZ_LENGTH_TOL * expected + 64 * DBL_EPSILON * extent;
        if (!(fabs(length - expected) <= slack))
            fprintf(stderr, "bone %d: world length %.17g, translation length %.17g\n", i, length, expected);
        FUZZ_REQUIRE(fabs(length - expected) <= slack);
    }
}

static inline void fuzz_check_result(const fuzz_rig *r, const reach_solve_result *result) {
    int cap = r->use_settings ? r->settings.max_iterations : reach_solver_default_settings().max_iterations;
    FUZZ_REQUIRE(result->iterations >= 0 && result->iterations <= cap);
    FUZZ_REQUIRE(reach_is_finite(result->residual) && result->residual >= 0);
    FUZZ_REQUIRE(reach_is_finite(result->angle_residual) && result->angle_residual >= 0);
}

/* The bone a solve starts from: the root asked for, or the top of the first effector's tree. */
static inline int fuzz_solve_root(const fuzz_rig *r) {
    if (r->use_settings && r->settings.root_bone >= 0) return r->settings.root_bone;
    int bone = r->targets[0].bone;
    while (r->parents[bone] >= 0)
        bone = r->parents[bone];
    return bone;
}

/* Solves the fuzzed problem (with exactly the scratch asked for, or one byte less when the
 * next byte says so) and checks the contract above. may_move_root: the solver honours
 * fabrik_move_root. Returns the status. */
static inline reach_status fuzz_solve_and_check(fuzz_rig *r, fuzz_solver solve, fuzz_scratch_size scratch_size,
                                                int may_move_root, fuzz_input *in) {
    const reach_skeleton *sk = &r->skeleton;
    size_t need = scratch_size(sk, r->target_count);
    int short_scratch = (fuzz_byte(in) & 15) == 0 && need > 0;
    size_t given = short_scratch ? need - 1 : need;
    /* Exactly the size given, so AddressSanitizer sees a write one byte past it; filled with
     * garbage, which must not matter. */
    unsigned char *scratch = malloc(given > 0 ? given : 1);
    FUZZ_REQUIRE(scratch != NULL);
    memset(scratch, 0xa5, given > 0 ? given : 1);

    reach_transform before[FUZZ_MAX_BONES];
    memcpy(before, r->pose, sizeof before);
    reach_solve_result result, result_before;
    memset(&result, 0x5a, sizeof result);
    result_before = result;
    reach_status st =
        solve(sk, r->targets, r->target_count, r->use_settings ? &r->settings : NULL, r->pose, scratch, given, &result);
    free(scratch);

    FUZZ_REQUIRE(st >= REACH_OK && st <= REACH_ERROR_SETTINGS_NOT_INITIALIZED);
    if (st != REACH_OK) {
        FUZZ_REQUIRE(memcmp(before, r->pose, sizeof before) == 0);
        FUZZ_REQUIRE(memcmp(&result, &result_before, sizeof result) == 0);
        return st;
    }
    FUZZ_REQUIRE(!short_scratch);
    FUZZ_REQUIRE(reach_skeleton_validate(sk, NULL) == REACH_OK);
    FUZZ_REQUIRE(fuzz_pose_is_finite(r->pose, sk->bone_count));
    fuzz_check_result(r, &result);
    int moving_root = -1;
    if (may_move_root && r->use_settings && r->settings.fabrik_move_root && r->target_count > 0)
        moving_root = fuzz_solve_root(r);
    fuzz_check_written_bones(r, before, r->pose, moving_root);
    fuzz_check_world_lengths(r, before, r->pose);
    return st;
}

#endif
