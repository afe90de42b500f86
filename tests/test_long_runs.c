/* Long runs: a game or a robot calls IK every frame for hours. Each solver runs frame after frame
 * on one limited chain, warm started from the pose it solved the frame before, toward a target
 * that moves smoothly, jumps now and then, and leaves the chain's reach for stretches. Every
 * frame is checked: no error, no NaN, every bone length (measured by forward kinematics in
 * reach_real, as a caller would) within LENGTH_TOL of its rest length, every joint limit held,
 * iterations within the cap. Nothing is renormalised between frames: drift would accumulate.
 * How many frames each solver runs, and why, is in docs/reliability.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "test_fabrik_rigs.h"

/* Bone lengths relative to the rest length. Float: world coordinates of a chain about 5 long
 * round at 5e-7, about 1e-6 of the shortest bone; double far tighter. */
#ifdef REACH_DOUBLE
#define LENGTH_TOL 1e-12
#else
#define LENGTH_TOL 1e-5
#endif

/* Frames per solver (fewer in quick, sanitized and unoptimised runs: frames()). A million frames of the
 * Jacobian solver; FABRIK and CCD cost one and a half to two times more a frame on this chain (11 and
 * 8 iterations a frame against 3.4), so they run fewer frames to keep the whole Release run near a
 * minute on the two-core build machine (docs/reliability.md has the measurements). Each run is
 * split into test cases of a quarter of a million frames or less that carry the pose on. */
#define FABRIK_FRAMES   250000
#define CCD_FRAMES      400000
#define JACOBIAN_FRAMES 1000000
#define PART_FRAMES     250000
#define DT              (1.0 / 60)
/* Every JUMP_EVERY frames the target jumps somewhere random and stays there a while; in each
 * AWAY_EVERY frames the path is stretched beyond reach for AWAY_FOR frames. */
#define JUMP_EVERY 997
#define JUMP_HOLD  30
#define AWAY_EVERY 2000
#define AWAY_FOR   200

/* Sanitizers make every frame a few times slower (AddressSanitizer with UndefinedBehaviorSanitizer
 * about 2.5 times, measured); an unoptimised build some fifty times. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif

/* n frames; a tenth of them under a sanitizer, a hundredth under REACH_TEST_QUICK or in a build
 * without NDEBUG, so that every build `make test` runs stays near a minute or less. */
static long frames(long n) {
#ifndef NDEBUG
    return n / 100 > 0 ? n / 100 : 1;
#elif defined(SANITIZED)
    return test_scaled((int)(n / 10));
#else
    return test_scaled((int)n);
#endif
}

typedef struct long_run {
    rig r;
    reach_transform pose[RIG_MAX_BONES];
    unsigned char scratch[1 << 16];
    reach_solver_settings settings;
    test_rng rng;
    reach_vec3 jump;
    /* What the run saw, for the message at its end. */
    long frames, reached, iterations;
    double worst_length, worst_limit;
    clock_t cpu; /* processor time spent solving and checking */
} long_run;

/* A chain of six links: hinges, cones with and without twist limits and a ball, bone lengths
 * from 0.5 to 1.1, so that the limits matter and the chain can fold. */
static void long_run_init(long_run *run, uint64_t seed) {
    static const reach_real lengths[] = {
        0, REACH_R(1.1), REACH_R(0.9), REACH_R(0.8), REACH_R(0.7), REACH_R(0.6), REACH_R(0.5)};
    rig *r = &run->r;
    for (int i = 0; i <= 6; ++i) {
        r->parents[i] = i - 1;
        r->rest[i] = reach_transform_make(reach_quat_identity(), reach_vec3_make(0, lengths[i], 0));
    }
    reach_vec3 x = reach_vec3_make(1, 0, 0), y = reach_vec3_make(0, 1, 0), z = reach_vec3_make(0, 0, 1);
    r->joints[0] = reach_joint_ball();
    r->joints[1] = reach_joint_hinge(z, REACH_R(-2.0), REACH_R(2.0));
    r->joints[2] = reach_joint_cone_twist(y, REACH_R(1.2), REACH_R(-0.6), REACH_R(0.6));
    r->joints[3] = reach_joint_hinge(x, REACH_R(-1.5), REACH_R(2.2));
    r->joints[4] = reach_joint_cone(y, REACH_R(1.0));
    r->joints[5] = reach_joint_hinge(z, REACH_R(-1.8), REACH_R(1.8));
    r->joints[6] = reach_joint_ball();
    rig_finish(r, 7, 1);
    reach_pose_rest(&r->skeleton, run->pose);
    run->settings = reach_solver_default_settings();
    run->rng = test_rng_make(seed);
    run->jump = reach_vec3_zero();
    run->frames = run->reached = run->iterations = 0;
    run->worst_length = run->worst_limit = 0;
    run->cpu = 0;
}

/* The target at frame f: a smooth Lissajous path through the reachable space, jumps, and
 * stretches beyond reach. */
static reach_vec3 target_at(long_run *run, long f) {
    double t = (double)f * DT, length = (double)run->r.length;
    reach_vec3 smooth = reach_vec3_make((reach_real)(0.45 * length * sin(0.7 * t)),
                                        (reach_real)(length * (0.45 + 0.3 * sin(1.1 * t + 1))),
                                        (reach_real)(0.4 * length * cos(0.5 * t)));
    if (f % JUMP_EVERY == 0) run->jump = test_in_ball(&run->rng, run->r.length * REACH_R(1.2));
    if (f % JUMP_EVERY < JUMP_HOLD) return run->jump;
    if (f % AWAY_EVERY >= AWAY_EVERY - AWAY_FOR) return reach_vec3_scale(smooth, REACH_R(1.8));
    return smooth;
}

/* The checks every frame gets. */
static void check_frame(long_run *run, const reach_solve_result *result, long f) {
    const reach_skeleton *sk = &run->r.skeleton;
    reach_transform world[RIG_MAX_BONES];
    reach_forward_kinematics(sk, run->pose, world);
    for (int i = 0; i < sk->bone_count; ++i) {
        if (!reach_quat_is_finite(run->pose[i].rotation) || !reach_vec3_is_finite(run->pose[i].translation))
            fail_msg("frame %ld: bone %d not finite", f, i);
        if (i == 0) continue;
        double rest = (double)reach_vec3_length(sk->rest[i].translation);
        double e = fabs((double)reach_vec3_distance(world[i].translation, world[i - 1].translation) - rest) / rest;
        if (e > run->worst_length) run->worst_length = e;
    }
    if (run->worst_length > LENGTH_TOL) fail_msg("frame %ld: a bone length is off by %g", f, run->worst_length);
    int bone = -1;
    double limit = (double)reach_pose_limit_error(sk, run->pose, &bone);
    if (limit > run->worst_limit) run->worst_limit = limit;
    if (limit > RIG_LIMIT_TOL) fail_msg("frame %ld: bone %d is %g outside its limits", f, bone, limit);
    if (result->iterations < 0 || result->iterations > run->settings.max_iterations)
        fail_msg("frame %ld: %d iterations, the cap is %d", f, result->iterations, run->settings.max_iterations);
    if (!reach_is_finite(result->residual)) fail_msg("frame %ld: residual not finite", f);
}

static void run_frames(long_run *run, rig_solver solve, rig_scratch_size size, long first, long count) {
    const reach_skeleton *sk = &run->r.skeleton;
    assert_true(size(sk, 1) <= sizeof run->scratch);
    clock_t start = clock();
    for (long f = first; f < first + count; ++f) {
        reach_target target = reach_target_position(sk->bone_count - 1, target_at(run, f));
        reach_solve_result result;
        reach_status st = solve(sk, &target, 1, &run->settings, run->pose, run->scratch, size(sk, 1), &result);
        if (st != REACH_OK) fail_msg("frame %ld: %s", f, reach_status_string(st));
        check_frame(run, &result, f);
        run->frames++;
        run->reached += result.reached;
        run->iterations += result.iterations;
    }
    run->cpu += clock() - start;
}

static void report(const char *name, const long_run *run) {
    double seconds = (double)run->cpu / CLOCKS_PER_SEC;
    print_message("%s: %ld frames in %.1f s of processor time (%.2f us a frame with the checks), reached %.1f%% (a "
                  "fifth of the path is out of reach or jumps), mean iterations %.2f, worst bone length error %.2g, "
                  "worst limit error %.2g\n",
                  name, run->frames, seconds, 1e6 * seconds / (double)run->frames,
                  100.0 * (double)run->reached / (double)run->frames, (double)run->iterations / (double)run->frames,
                  run->worst_length, run->worst_limit);
}

typedef struct solver_run {
    const char *name;
    rig_solver solve;
    rig_scratch_size size;
    long frames;
    uint64_t seed;
} solver_run;

static const solver_run fabrik = {"fabrik", reach_fabrik_solve, reach_fabrik_scratch_size, FABRIK_FRAMES, 0x1f};
static const solver_run ccd = {"ccd", reach_ccd_solve, reach_ccd_scratch_size, CCD_FRAMES, 0xcc};
static const solver_run jacobian = {"jacobian (sdls)", reach_jacobian_solve, reach_jacobian_scratch_size,
                                    JACOBIAN_FRAMES, 0x1ac};

static long_run the_run;

/* Part `part` of a solver's run: its frames from part × PART_FRAMES on. The first part starts
 * the run, the last reports it; the ones between carry the pose on. */
static void run_part(const solver_run *solver, int part) {
    long_run *run = &the_run;
    long total = frames(solver->frames), per_part = frames(PART_FRAMES);
    long first = part * per_part, count = total - first < per_part ? total - first : per_part;
    if (part == 0) long_run_init(run, solver->seed);
    if (count > 0) run_frames(run, solver->solve, solver->size, first, count);
    if (first + count >= total && count > 0) report(solver->name, run);
}

#define PART(solver, n)                                                                                                \
    static void solver##_part_##n(void **state) {                                                                      \
        (void)state;                                                                                                   \
        run_part(&solver, n - 1);                                                                                      \
    }
PART(fabrik, 1)
PART(ccd, 1)
PART(ccd, 2)
PART(jacobian, 1)
PART(jacobian, 2)
PART(jacobian, 3)
PART(jacobian, 4)

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fabrik_part_1),   cmocka_unit_test(ccd_part_1),      cmocka_unit_test(ccd_part_2),
        cmocka_unit_test(jacobian_part_1), cmocka_unit_test(jacobian_part_2), cmocka_unit_test(jacobian_part_3),
        cmocka_unit_test(jacobian_part_4),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
