/* Rigs and checks shared by the FABRIK, CCD, limits and round-trip tests: random chains, forward
 * kinematics in double (so measured bone lengths are not blurred by float world coordinates),
 * and solving through a scratch buffer fenced with poisoned bytes. */
#ifndef REACH_TEST_FABRIK_RIGS_H
#define REACH_TEST_FABRIK_RIGS_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define RIG_MAX_BONES 80

/* How far outside its limits a solved joint may be. */
#ifdef REACH_DOUBLE
#define RIG_LIMIT_TOL 1e-9
#else
#define RIG_LIMIT_TOL 1e-5
#endif

/* A chain of `links` bones through links + 1 skeleton bones (the last is the end effector, whose
 * joint is the chain's tip). Each bone's child sits along +y of its frame. */
typedef struct rig {
    int parents[RIG_MAX_BONES];
    reach_transform rest[RIG_MAX_BONES];
    reach_joint joints[RIG_MAX_BONES];
    reach_skeleton skeleton;
    reach_real length; /* sum of the links */
} rig;

static inline void rig_finish(rig *r, int bone_count, int with_joints) {
    r->skeleton.bone_count = bone_count;
    r->skeleton.parents = r->parents;
    r->skeleton.rest = r->rest;
    r->skeleton.joints = with_joints ? r->joints : NULL;
    r->length = 0;
    for (int i = 0; i < bone_count; ++i) {
        if (r->parents[i] >= 0) r->length += reach_vec3_length(r->rest[i].translation);
        if (!with_joints) r->joints[i] = reach_joint_ball();
    }
}

/* A random chain: link lengths in [0.5, 1.5] × scale, random rest rotations, ball joints. */
static inline void rig_random_chain(rig *r, test_rng *rng, int links, reach_real scale) {
    for (int i = 0; i <= links; ++i) {
        r->parents[i] = i - 1;
        reach_real length = i == 0 ? 0 : test_uniform(rng, REACH_R(0.5), REACH_R(1.5)) * scale;
        r->rest[i] = reach_transform_make(test_unit_quat(rng), reach_vec3_make(0, length, 0));
        r->joints[i] = reach_joint_ball();
    }
    rig_finish(r, links + 1, 0);
}

/* A random joint: a hinge across the bone or about a random axis, a cone along the bone with a
 * twist range or about a random axis, a ball, or (rarely) a fixed joint. */
static inline reach_joint rig_random_joint(test_rng *rng) {
    reach_real a = test_uniform(rng, -2, 2), b = test_uniform(rng, -2, 2);
    reach_real lo = reach_min(a, b), hi = reach_max(a, b);
    reach_real cone = test_uniform(rng, REACH_R(0.2), REACH_R(1.5));
    switch (test_rng_next(rng) % 11) {
    case 0:
    case 1:
    case 2: return reach_joint_hinge(reach_vec3_make(0, 0, 1), lo, hi);
    case 3: return reach_joint_hinge(test_unit_vec3(rng), lo, hi);
    case 4:
    case 5:
    case 6: return reach_joint_cone_twist(reach_vec3_make(0, 1, 0), cone, REACH_R(-0.5), REACH_R(0.5));
    case 7: return reach_joint_cone(test_unit_vec3(rng), cone);
    case 8:
    case 9: return reach_joint_ball();
    default: return reach_joint_fixed();
    }
}

static inline void rig_random_limited_chain(rig *r, test_rng *rng, int links) {
    rig_random_chain(r, rng, links, 1);
    for (int i = 0; i <= links; ++i)
        r->joints[i] = rig_random_joint(rng);
    rig_finish(r, links + 1, 1);
}

/* A straight chain along +y from the origin: `links` bones of the given lengths, rest identity. */
static inline void rig_straight_chain(rig *r, int links, const reach_real *lengths) {
    for (int i = 0; i <= links; ++i) {
        r->parents[i] = i - 1;
        r->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, i == 0 ? 0 : lengths[i - 1], 0));
    }
    rig_finish(r, links + 1, 0);
}

static inline void rig_straight_chain_equal(rig *r, int links, reach_real length) {
    reach_real lengths[RIG_MAX_BONES];
    for (int i = 0; i < links; ++i)
        lengths[i] = length;
    rig_straight_chain(r, links, lengths);
}

/* ---- forward kinematics in double ------------------------------------------------------- */

typedef struct dvec3 {
    double x, y, z;
} dvec3;

typedef struct dquat {
    double x, y, z, w;
} dquat;

static inline dquat dquat_from(reach_quat q) {
    double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    dquat d = {q.x / n, q.y / n, q.z / n, q.w / n};
    return d;
}

static inline dquat dquat_mul(dquat a, dquat b) {
    dquat q = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
               a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return q;
}

static inline dvec3 dquat_rotate(dquat q, dvec3 v) {
    dvec3 t = {2 * (q.y * v.z - q.z * v.y), 2 * (q.z * v.x - q.x * v.z), 2 * (q.x * v.y - q.y * v.x)};
    dvec3 r = {v.x + q.w * t.x + (q.y * t.z - q.z * t.y), v.y + q.w * t.y + (q.z * t.x - q.x * t.z),
               v.z + q.w * t.z + (q.x * t.y - q.y * t.x)};
    return r;
}

static inline double ddistance(dvec3 a, dvec3 b) {
    return sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

/* World joint positions of every bone, in double. */
static inline void rig_positions_double(const reach_skeleton *sk, const reach_transform *pose, dvec3 *out) {
    dquat rot[RIG_MAX_BONES];
    for (int i = 0; i < sk->bone_count; ++i) {
        dquat q = dquat_from(pose[i].rotation);
        dvec3 t = {pose[i].translation.x, pose[i].translation.y, pose[i].translation.z};
        int p = sk->parents[i];
        if (p < 0) {
            rot[i] = q;
            out[i] = t;
        } else {
            rot[i] = dquat_mul(rot[p], q);
            dvec3 r = dquat_rotate(rot[p], t);
            out[i].x = out[p].x + r.x;
            out[i].y = out[p].y + r.y;
            out[i].z = out[p].z + r.z;
        }
    }
}

/* The largest relative change of a link length between the rest and a pose, in double. */
static inline double rig_length_error(const reach_skeleton *sk, const reach_transform *pose) {
    dvec3 p[RIG_MAX_BONES];
    rig_positions_double(sk, pose, p);
    double worst = 0;
    for (int i = 0; i < sk->bone_count; ++i) {
        int parent = sk->parents[i];
        double rest = (double)reach_vec3_length(sk->rest[i].translation);
        if (parent < 0 || rest == 0) continue;
        double e = fabs(ddistance(p[i], p[parent]) - rest) / rest;
        if (e > worst) worst = e;
    }
    return worst;
}

/* The largest change of a link length measured by forward kinematics in reach_real, relative
 * to the chain's length: the rounding of world coordinates, whatever the solver did. */
static inline double rig_world_length_error(const reach_skeleton *sk, const reach_transform *pose, reach_real chain) {
    reach_transform world[RIG_MAX_BONES];
    reach_forward_kinematics(sk, pose, world);
    double worst = 0;
    for (int i = 0; i < sk->bone_count; ++i) {
        int parent = sk->parents[i];
        if (parent < 0) continue;
        double length = (double)reach_vec3_distance(world[i].translation, world[parent].translation);
        double e = fabs(length - (double)reach_vec3_length(sk->rest[i].translation)) / (double)chain;
        if (e > worst) worst = e;
    }
    return worst;
}

static inline reach_vec3 rig_joint_position(const reach_skeleton *sk, const reach_transform *pose, int bone) {
    reach_transform world[RIG_MAX_BONES];
    reach_forward_kinematics(sk, pose, world);
    return world[bone].translation;
}

/* A solve toward `goal`, beyond the chain's reach from a root at the origin, lies straight toward
 * it: what is left is the distance past the chain's length, and every joint lies within
 * `off_line` chain lengths of the line from the root to the goal. */
static inline void rig_assert_straight_toward(const rig *r, const reach_transform *pose, reach_vec3 goal,
                                              const reach_solve_result *result, double off_line) {
    assert_false(result->reached);
    ASSERT_NEAR(result->residual, reach_vec3_length(goal) - r->length, 1e-4 * r->length, "residual beyond reach");
    reach_vec3 line = reach_vec3_scale(goal, 1 / reach_vec3_length(goal));
    reach_transform world[RIG_MAX_BONES];
    reach_forward_kinematics(&r->skeleton, pose, world);
    for (int i = 0; i < r->skeleton.bone_count; ++i)
        assert_true(reach_vec3_length(reach_vec3_reject(world[i].translation, line)) <= off_line * r->length);
}

static inline int rig_pose_is_finite(const reach_skeleton *sk, const reach_transform *pose) {
    for (int i = 0; i < sk->bone_count; ++i)
        if (!reach_quat_is_finite(pose[i].rotation) || !reach_vec3_is_finite(pose[i].translation)) return 0;
    return 1;
}

/* A random pose with every joint inside its limits (random local rotations, projected). */
static inline void rig_random_pose(const reach_skeleton *sk, test_rng *rng, reach_transform *pose) {
    for (int i = 0; i < sk->bone_count; ++i) {
        reach_joint joint = reach_skeleton_joint(sk, i);
        pose[i] = sk->rest[i];
        pose[i].rotation = reach_quat_mul(sk->rest[i].rotation, test_unit_quat(rng));
        reach_joint_project_local(&joint, &sk->rest[i], &pose[i]);
    }
}

/* The bytes of a pose array a skeleton uses: pose arrays are RIG_MAX_BONES long and only the
 * first bone_count entries are ever written, so comparisons stop there. */
static inline size_t rig_pose_bytes(const reach_skeleton *sk) {
    return sizeof(reach_transform) * (size_t)sk->bone_count;
}

/* Two results with the same bits in every field (the struct itself may have padding). */
static inline int rig_same_result(const reach_solve_result *a, const reach_solve_result *b) {
    return a->iterations == b->iterations && a->reached == b->reached && a->limited == b->limited &&
           test_bytes_equal(&a->residual, &b->residual, sizeof a->residual) &&
           test_bytes_equal(&a->angle_residual, &b->angle_residual, sizeof a->angle_residual);
}

/* ---- solving through fenced scratch ----------------------------------------------------- */

typedef reach_status (*rig_solver)(const reach_skeleton *, const reach_target *, int, const reach_solver_settings *,
                                   reach_transform *, void *, size_t, reach_solve_result *);
typedef size_t (*rig_scratch_size)(const reach_skeleton *, int);

#define RIG_FENCE      64
#define RIG_FENCE_BYTE 0xA5

/* Solves with exactly the scratch the size query asks for, placed one byte past an aligned
 * address (the solver must cope with any alignment), and fails the test if a single byte past
 * the end of that region changed. */
static inline reach_status rig_solve(rig_solver solve, rig_scratch_size size, const reach_skeleton *sk,
                                     const reach_target *targets, int count, const reach_solver_settings *settings,
                                     reach_transform *pose, reach_solve_result *result) {
    size_t need = size(sk, count);
    unsigned char *block = (unsigned char *)malloc(need + RIG_FENCE + 1);
    assert_non_null(block);
    memset(block, RIG_FENCE_BYTE, need + RIG_FENCE + 1);
    unsigned char *scratch = block + 1;
    reach_status st = solve(sk, targets, count, settings, pose, scratch, need, result);
    for (size_t i = need; i < need + RIG_FENCE; ++i)
        if (scratch[i] != RIG_FENCE_BYTE)
            fail_msg("solver wrote %zu bytes past its %zu-byte scratch", i - need + 1, need);
    free(block);
    return st;
}

/* FABRIK and CCD by name, for the tests that run both on one rig:
 *     static const rig_named_solver solvers[] = RIG_FABRIK_AND_CCD; */
typedef struct rig_named_solver {
    const char *name;
    rig_solver solve;
    rig_scratch_size size;
} rig_named_solver;

#define RIG_FABRIK_AND_CCD                                                                                             \
    {                                                                                                                  \
        {"fabrik", reach_fabrik_solve, reach_fabrik_scratch_size}, { "ccd", reach_ccd_solve, reach_ccd_scratch_size }  \
    }

static inline reach_status rig_solve_named(const rig_named_solver *s, const reach_skeleton *sk,
                                           const reach_target *targets, int count,
                                           const reach_solver_settings *settings, reach_transform *pose,
                                           reach_solve_result *result) {
    return rig_solve(s->solve, s->size, sk, targets, count, settings, pose, result);
}

/* ---- reach rate over random reachable targets ------------------------------------------ */

typedef struct rig_stats {
    long cases, reached, iterations;
    double worst_length_error; /* relative to the bone, from forward kinematics in double */
    double worst_world_error;  /* relative to the chain, from forward kinematics in reach_real */
} rig_stats;

/* Random chains of `links` bones, each solved from its rest pose toward the tip of a random pose
 * of the same chain (so the target is reachable). Checks every case: a finite pose, lengths
 * kept, the residual the solver reports is the true one, reached means within tolerance, and
 * the iteration cap holds. Counts what reached. */
static inline rig_stats rig_reach_random_targets(rig_solver solve, rig_scratch_size size, int links, int cases,
                                                 uint64_t seed) {
    rig_stats stats = {0, 0, 0, 0, 0};
    test_rng rng = test_rng_make(seed);
    rig r;
    reach_transform pose[RIG_MAX_BONES];
    reach_solver_settings settings = reach_solver_default_settings();
    for (int c = 0; c < cases; ++c) {
        rig_random_chain(&r, &rng, links, 1);
        const reach_skeleton *sk = &r.skeleton;
        rig_random_pose(sk, &rng, pose);
        reach_target target = reach_target_position(links, rig_joint_position(sk, pose, links));
        reach_pose_rest(sk, pose);
        reach_solve_result result;
        assert_int_equal(rig_solve(solve, size, sk, &target, 1, &settings, pose, &result), REACH_OK);
        assert_true(rig_pose_is_finite(sk, pose));
        double length_error = rig_length_error(sk, pose);
        if (length_error > stats.worst_length_error) stats.worst_length_error = length_error;
        double world_error = rig_world_length_error(sk, pose, r.length);
        if (world_error > stats.worst_world_error) stats.worst_world_error = world_error;
        dvec3 p[RIG_MAX_BONES];
        rig_positions_double(sk, pose, p);
        dvec3 goal = {target.position.x, target.position.y, target.position.z};
        double tolerance = 1e-4 * (double)r.length;
        ASSERT_NEAR(result.residual, ddistance(p[links], goal), 1e-3 * tolerance + 4 * TEST_LENGTH_TOL * r.length,
                    "reported residual");
        assert_int_equal(result.reached, result.residual <= (reach_real)tolerance);
        assert_true(result.iterations >= 0 && result.iterations <= settings.max_iterations);
        stats.cases += 1;
        stats.reached += result.reached;
        stats.iterations += result.iterations;
    }
    return stats;
}

/* ---- limited chains -------------------------------------------------------------------- */

typedef struct rig_limit_stats {
    long cases, reachable, reached_reachable, limited_unreached;
    double worst_limit_error;
} rig_limit_stats;

/* Random chains with random joints, started from a random pose inside the limits. Every other
 * target is the tip of another such pose (reachable within the limits), the rest random points
 * out to 1.3 chain lengths. Checks every case: limits held, lengths kept, the residual true,
 * reached meaning within tolerance. */
static inline rig_limit_stats rig_limited_random_targets(rig_solver solve, rig_scratch_size size, int cases,
                                                         uint64_t seed) {
    rig_limit_stats stats = {0, 0, 0, 0, 0};
    test_rng rng = test_rng_make(seed);
    for (int c = 0; c < cases; ++c) {
        rig r;
        int links = 2 + c % 10;
        rig_random_limited_chain(&r, &rng, links);
        const reach_skeleton *sk = &r.skeleton;
        reach_transform pose[RIG_MAX_BONES];
        int reachable = c % 2 == 0;
        reach_vec3 goal = test_in_ball(&rng, REACH_R(1.3) * r.length);
        if (reachable) {
            rig_random_pose(sk, &rng, pose);
            goal = rig_joint_position(sk, pose, links);
        }
        rig_random_pose(sk, &rng, pose);
        reach_target target = reach_target_position(links, goal);
        reach_solve_result result;
        assert_int_equal(rig_solve(solve, size, sk, &target, 1, NULL, pose, &result), REACH_OK);
        assert_true(rig_pose_is_finite(sk, pose));
        double limit_error = (double)reach_pose_limit_error(sk, pose, NULL);
        if (limit_error > stats.worst_limit_error) stats.worst_limit_error = limit_error;
        assert_true(rig_length_error(sk, pose) <= TEST_LENGTH_TOL);
        ASSERT_NEAR(result.residual, reach_vec3_distance(rig_joint_position(sk, pose, links), goal), 1e-5 * r.length,
                    "reported residual");
        assert_int_equal(result.reached, result.residual <= REACH_R(1e-4) * r.length);
        stats.cases += 1;
        stats.reachable += reachable;
        stats.reached_reachable += reachable && result.reached;
        stats.limited_unreached += !result.reached && result.limited;
    }
    return stats;
}

/* A planar arm of two hinged bones (about z, each within its own random range) and a random
 * target in the plane within the arm's length, with the smallest distance any allowed pose
 * leaves, from a grid of 1001 × 1001 angle pairs: steps of at most 3e-3 rad, so the grid's best
 * is within 3e-3 arm lengths of the true best. */
static inline reach_vec3 rig_two_hinge_arm(rig *r, test_rng *rng, double *best) {
    reach_real l1 = test_uniform(rng, REACH_R(0.5), REACH_R(1.5)), l2 = test_uniform(rng, REACH_R(0.5), REACH_R(1.5));
    reach_real lo1 = test_uniform(rng, REACH_R(-1.5), 0), hi1 = test_uniform(rng, 0, REACH_R(1.5));
    reach_real lo2 = test_uniform(rng, REACH_R(-1.5), 0), hi2 = test_uniform(rng, 0, REACH_R(1.5));
    reach_vec3 z = reach_vec3_make(0, 0, 1);
    for (int i = 0; i < 3; ++i) {
        r->parents[i] = i - 1;
        r->rest[i] =
            reach_transform_make(reach_quat_identity(), reach_vec3_make(0, i == 0 ? 0 : (i == 1 ? l1 : l2), 0));
    }
    r->joints[0] = reach_joint_hinge(z, lo1, hi1);
    r->joints[1] = reach_joint_hinge(z, lo2, hi2);
    r->joints[2] = reach_joint_ball();
    rig_finish(r, 3, 1);
    reach_real angle = test_uniform(rng, -REACH_PI, REACH_PI), distance = test_uniform(rng, 0, l1 + l2);
    reach_vec3 goal = reach_vec3_make(-reach_sin(angle) * distance, reach_cos(angle) * distance, 0);
    /* Angles t1 (first bone) and t1 + t2: the tip is (−l1 sin t1 − l2 sin(t1 + t2), l1 cos t1 + l2 cos(t1 + t2)),
     * with sin(t1 + t2) and cos(t1 + t2) from the sums of the two angles' sines and cosines. */
    enum { STEPS = 1000 };
    static double s1[STEPS + 1], c1[STEPS + 1], s2[STEPS + 1], c2[STEPS + 1];
    for (int k = 0; k <= STEPS; ++k) {
        double t1 = lo1 + (double)(hi1 - lo1) * k / STEPS, t2 = lo2 + (double)(hi2 - lo2) * k / STEPS;
        s1[k] = sin(t1);
        c1[k] = cos(t1);
        s2[k] = sin(t2);
        c2[k] = cos(t2);
    }
    *best = 1e30;
    for (int a = 0; a <= STEPS; ++a) {
        for (int b = 0; b <= STEPS; ++b) {
            double s = s1[a] * c2[b] + c1[a] * s2[b], c = c1[a] * c2[b] - s1[a] * s2[b];
            double x = -s1[a] * l1 - s * l2 - goal.x, y = c1[a] * l1 + c * l2 - goal.y;
            double d = x * x + y * y;
            if (d < *best) *best = d;
        }
    }
    *best = sqrt(*best);
    return goal;
}

/* Solves rig_two_hinge_arm cases from the rest pose, checks that limits hold, that the residual
 * never beats the best allowed pose (it is the true one), and that a target the best pose
 * misses is reported unreached. Returns how many cases settled at the best pose. */
static inline int rig_two_hinge_nearest(rig_solver solve, rig_scratch_size size, int cases, uint64_t seed) {
    test_rng rng = test_rng_make(seed);
    int at_best = 0;
    for (int c = 0; c < cases; ++c) {
        rig r;
        double best;
        reach_vec3 goal = rig_two_hinge_arm(&r, &rng, &best);
        reach_transform pose[RIG_MAX_BONES];
        reach_pose_rest(&r.skeleton, pose);
        reach_target target = reach_target_position(2, goal);
        reach_solve_result result;
        assert_int_equal(rig_solve(solve, size, &r.skeleton, &target, 1, NULL, pose, &result), REACH_OK);
        assert_true(reach_pose_limit_error(&r.skeleton, pose, NULL) <= RIG_LIMIT_TOL);
        assert_true(result.residual >= best - 3e-3 * r.length);
        if (best > 3e-3 * r.length) assert_false(result.reached);
        at_best += result.residual <= best + 2e-3 * r.length;
    }
    return at_best;
}

/* rig_reach_random_targets for chains of 2 to 64 bones, 10 000 cases each (1 % of that under
 * REACH_TEST_QUICK): prints the rate and the mean iterations per length and asserts the rate
 * and the lengths kept. */
static inline void rig_reach_rates(const char *name, rig_solver solve, rig_scratch_size size, double min_rate,
                                   uint64_t seed) {
    static const int lengths[] = {2, 3, 4, 5, 8, 16, 32, 64};
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
        rig_stats s = rig_reach_random_targets(solve, size, lengths[k], test_scaled(10000), seed + (uint64_t)k);
        double rate = (double)s.reached / (double)s.cases;
        print_message("%s %2d bones: %ld cases, reached %.4f%%, mean iterations %.3f, length error %.2g (bone), "
                      "%.2g (world, of the chain)\n",
                      name, lengths[k], s.cases, 100 * rate, (double)s.iterations / (double)s.cases,
                      s.worst_length_error, s.worst_world_error);
        assert_true(rate >= min_rate);
        assert_true(s.worst_length_error <= TEST_LENGTH_TOL);
        assert_true(s.worst_world_error <= TEST_LENGTH_TOL);
    }
}

#endif
