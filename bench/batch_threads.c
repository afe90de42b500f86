/* One two-bone batch over several threads (see batch_threads.h). */
#define _POSIX_C_SOURCE 200809L

#include "batch_threads.h"

#include <pthread.h>

/* Slices start on multiples of this many limbs: a 64-byte cache line of floats holds 16. */
#define SLICE_ALIGNMENT 64

typedef struct slice_job {
    reach_two_bone_batch batch;
    const reach_two_bone_settings *options;
    reach_status status;
} slice_job;

static void *solve_slice(void *data) {
    slice_job *job = data;
    job->status = reach_two_bone_solve_batch(&job->batch, job->options);
    return NULL;
}

reach_status batch_solve_threads(const reach_two_bone_batch *batch, const reach_two_bone_settings *options,
                                 int threads) {
    if (threads < 1 || threads > BATCH_THREADS_MAX) return REACH_ERROR_INVALID_ARGUMENT;
    /* Equal slices, rounded up to the alignment; the last one takes what is left. */
    int per_thread = (batch->count + threads - 1) / threads;
    per_thread = (per_thread + SLICE_ALIGNMENT - 1) / SLICE_ALIGNMENT * SLICE_ALIGNMENT;
    slice_job jobs[BATCH_THREADS_MAX];
    pthread_t workers[BATCH_THREADS_MAX];
    int started[BATCH_THREADS_MAX] = {0};
    for (int t = 0; t < threads; t++) {
        int first = t * per_thread < batch->count ? t * per_thread : batch->count;
        int last = first + per_thread < batch->count ? first + per_thread : batch->count;
        jobs[t].batch = reach_two_bone_batch_slice(batch, first, last - first);
        jobs[t].options = options;
        jobs[t].status = REACH_OK;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&workers[t], NULL, solve_slice, &jobs[t]) == 0;
    /* The calling thread works too; a thread that could not start has its slice solved here. */
    solve_slice(&jobs[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(workers[t], NULL);
        else
            solve_slice(&jobs[t]);
    }
    for (int t = 0; t < threads; t++)
        if (jobs[t].status != REACH_OK) return jobs[t].status;
    return REACH_OK;
}
