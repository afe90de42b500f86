/* Solving on several threads at once gives the same bits as solving on one: the library keeps
 * no global or hidden state. Built and run under ThreadSanitizer by `make test` as well. */
#include <pthread.h>
#include <string.h>

#include "test_support.h"

#define THREADS 4
#define LIMBS   20000

static reach_two_bone_input inputs[LIMBS];
static reach_two_bone_output expected[LIMBS];
static reach_two_bone_output results[THREADS][LIMBS];

static void *solve_all(void *slot) {
    reach_two_bone_output *out = slot;
    reach_two_bone_settings opt = reach_two_bone_default_settings();
    opt.soft_distance = REACH_R(0.05);
    for (int i = 0; i < LIMBS; ++i)
        if (reach_two_bone_solve(&inputs[i], &opt, &out[i]) != REACH_OK) return slot;
    return NULL;
}

static void two_bone_on_many_threads_matches_one_thread(void **state) {
    (void)state;
    test_rng rng = test_rng_make(40);
    for (int i = 0; i < LIMBS; ++i) {
        reach_two_bone_input *in = &inputs[i];
        in->root = test_in_ball(&rng, 1);
        in->mid = reach_vec3_mad(in->root, test_unit_vec3(&rng), test_uniform(&rng, REACH_R(0.2), 1));
        in->end = reach_vec3_mad(in->mid, test_unit_vec3(&rng), test_uniform(&rng, REACH_R(0.2), 1));
        in->target = test_in_ball(&rng, 2);
        in->pole = test_in_ball(&rng, 2);
        in->use_pole = i % 2;
    }
    assert_null(solve_all(expected));
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t)
        assert_int_equal(pthread_create(&threads[t], NULL, solve_all, results[t]), 0);
    for (int t = 0; t < THREADS; ++t) {
        void *failed = NULL;
        assert_int_equal(pthread_join(threads[t], &failed), 0);
        assert_null(failed);
        for (int i = 0; i < LIMBS; ++i) {
            /* Field by field: the struct may have padding that copies leave undefined. */
            const reach_two_bone_output *a = &results[t][i], *b = &expected[i];
            assert_true(test_bytes_equal(&a->mid, &b->mid, sizeof a->mid) &&
                        test_bytes_equal(&a->end, &b->end, sizeof a->end) &&
                        test_bytes_equal(&a->residual, &b->residual, sizeof a->residual) && a->reached == b->reached);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_bone_on_many_threads_matches_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
