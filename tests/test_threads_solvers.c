/* FABRIK, CCD and the Jacobian solver (with seeded restarts) on four threads at once give the
 * same bits as on one: the solvers keep no global or hidden state, and share nothing but the
 * read-only skeletons and targets. `make test` runs this under ThreadSanitizer as well (every
 * test named *threads*). */
#include <pthread.h>
#include <string.h>

#include "test_fabrik_rigs.h"

#define THREADS 4
/* Problems per solver: 400, or 40 under REACH_TEST_QUICK (Valgrind runs the threads one at a
 * time, some fifty times slower) and in builds without NDEBUG (the Debug sanitizer build). The
 * ThreadSanitizer build is RelWithDebInfo: all 400. */
#define PROBLEMS 400
#define SOLVERS  3
/* Per thread: enough for the largest chain below. */
#define SCRATCH_BYTES (1 << 16)

typedef struct problem {
    rig r;
    reach_transform start[RIG_MAX_BONES];
    reach_target target;
    reach_solver_settings settings;
} problem;

typedef struct answer {
    reach_status status;
    reach_transform pose[RIG_MAX_BONES];
    reach_solve_result result;
} answer;

typedef struct worker {
    answer answers[SOLVERS][PROBLEMS];
    unsigned char scratch[SCRATCH_BYTES];
} worker;

static const rig_solver solvers[SOLVERS] = {reach_fabrik_solve, reach_ccd_solve, reach_jacobian_solve};
static const rig_scratch_size sizes[SOLVERS] = {reach_fabrik_scratch_size, reach_ccd_scratch_size,
                                                reach_jacobian_scratch_size};

static problem problems[PROBLEMS];
static int problem_count;
static worker one_thread, workers[THREADS];

static void make_problems(void) {
    test_rng rng = test_rng_make(0x7f);
#ifdef NDEBUG
    problem_count = test_scaled(10 * PROBLEMS) < PROBLEMS ? test_scaled(10 * PROBLEMS) : PROBLEMS;
#else
    problem_count = PROBLEMS / 10;
#endif
    for (int p = 0; p < problem_count; ++p) {
        problem *pr = &problems[p];
        int links = 2 + p % 10;
        rig_random_limited_chain(&pr->r, &rng, links);
        rig_random_pose(&pr->r.skeleton, &rng, pr->start);
        pr->target = reach_target_position(links, test_in_ball(&rng, REACH_R(1.2) * pr->r.length));
        pr->settings = reach_solver_default_settings();
        pr->settings.restarts = 2;
        pr->settings.seed = test_rng_next(&rng);
    }
}

/* Solves every problem with every solver into the worker's answers. Threads start at different
 * problems so that different solves overlap in time. */
static void *solve_all(void *slot) {
    worker *w = slot;
    int offset = w == &one_thread ? 0 : (int)(w - workers) * problem_count / THREADS;
    for (int k = 0; k < SOLVERS * problem_count; ++k) {
        int s = k % SOLVERS, p = (k / SOLVERS + offset) % problem_count;
        const problem *pr = &problems[p];
        answer *a = &w->answers[s][p];
        const reach_skeleton *sk = &pr->r.skeleton;
        memcpy(a->pose, pr->start, sizeof a->pose);
        memset(&a->result, 0, sizeof a->result);
        size_t need = sizes[s](sk, 1);
        if (need > SCRATCH_BYTES) return slot;
        a->status = solvers[s](sk, &pr->target, 1, &pr->settings, a->pose, w->scratch, need, &a->result);
    }
    return NULL;
}

/* Field by field: struct padding is not the solvers' to write, and differs from stack to stack. */
static int same_answer(const answer *a, const answer *b, int bone_count) {
    const reach_solve_result *ra = &a->result, *rb = &b->result;
    return a->status == b->status && test_bytes_equal(a->pose, b->pose, sizeof(reach_transform) * (size_t)bone_count) &&
           ra->iterations == rb->iterations && test_bytes_equal(&ra->residual, &rb->residual, sizeof ra->residual) &&
           test_bytes_equal(&ra->angle_residual, &rb->angle_residual, sizeof ra->angle_residual) &&
           ra->reached == rb->reached && ra->limited == rb->limited;
}

static void solvers_on_four_threads_match_one_thread(void **state) {
    (void)state;
    make_problems();
    assert_null(solve_all(&one_thread));
    for (int s = 0; s < SOLVERS; ++s)
        for (int p = 0; p < problem_count; ++p)
            assert_int_equal(one_thread.answers[s][p].status, REACH_OK);
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t)
        assert_int_equal(pthread_create(&threads[t], NULL, solve_all, &workers[t]), 0);
    for (int t = 0; t < THREADS; ++t) {
        void *failed = NULL;
        assert_int_equal(pthread_join(threads[t], &failed), 0);
        assert_null(failed);
        for (int s = 0; s < SOLVERS; ++s)
            for (int p = 0; p < problem_count; ++p)
                if (!same_answer(&workers[t].answers[s][p], &one_thread.answers[s][p],
                                 problems[p].r.skeleton.bone_count))
                    fail_msg("thread %d, solver %d, problem %d: not the bits of the single thread", t, s, p);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(solvers_on_four_threads_match_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
