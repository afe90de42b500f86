/* The FABRIK and CCD suites: single chains of ball joints (chain.h) solved to reach's default
 * tolerance, 1e-4 × the chain's length, with the default settings (at most 64 iterations).
 *
 *   SOLVER/10/single/cold   10 bones, every solve from the straight rest pose
 *   SOLVER/10/single/warm   10 bones, every solve from the previous solution, the target having
 *                           moved a little (each joint of the pose that made it turned by ≤ 1°)
 *   SOLVER/10/single/bent   10 bones, every solve from a bent start of its own (every joint
 *                           turned by up to 60° from the rest, as the targets' poses are)
 *   SOLVER/10/single/straight  10 bones, every solve from a straight start of its own that is
 *                           not the rest: the chain along a random direction (the root turned
 *                           by a random rotation), every other joint twisted about its bone by
 *                           a random angle
 *   SOLVER/N/single         N = 4 … 256 bones, cold: how time and iterations grow
 *
 * FABRIK's four 10-bone sets are also solved by a textbook FABRIK (reference_fabrik.h) on the
 * same targets and starts, as fabrik/textbook/10/single/..., in turn with reach's sets.
 *
 * Targets are the end of a random pose (every joint bent by up to 60°), so all are reachable.
 * Each solve is timed on its own (samples.h); the problem sets take turns round by round. The
 * first round also checks every answer, untimed: the solve returns REACH_OK, bone lengths hold,
 * the reported residual is the true distance to the target and `reached` says whether it is
 * within the tolerance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "chain.h"
#include "reference_fabrik.h"
#include "samples.h"
#include "suites.h"

#define SEED          0xc4a175eedu
#define TARGET_BEND   60.0 /* degrees per joint, for the poses that make targets */
#define WARM_NUDGE    1.0  /* degrees per joint between one warm target and the next */
#define COLD_PROBLEMS 2000
#define WARM_RUNS     100 /* warm sequences */
#define WARM_STEPS    20  /* solves per sequence */
#define QUICK_COLD    60
#define QUICK_RUNS    6
#define QUICK_STEPS   5
/* Growth: problems per chain length, fewer for long chains (their solves take longer). */
#define GROWTH_WORK  40000 /* bones × problems */
#define GROWTH_MIN   60
#define QUICK_GROWTH 8

/* Bone lengths must hold to rounding: forward kinematics through N bones in reach_real. */
#ifdef REACH_DOUBLE
#define LENGTH_LIMIT 1e-12
#else
#define LENGTH_LIMIT 1e-5
#endif

static const int growth_bones[] = {4, 8, 16, 32, 64, 128, 256};
#define GROWTH_COUNT ((int)(sizeof growth_bones / sizeof growth_bones[0]))

typedef reach_status (*chain_solve_fn)(const reach_skeleton *, const reach_target *, int, const reach_solver_settings *,
                                       reach_transform *, void *, size_t, reach_solve_result *);
typedef size_t (*chain_scratch_fn)(const reach_skeleton *, int);

typedef struct chain_solver {
    const char *name;
    chain_solve_fn solve;
    chain_scratch_fn scratch_size;
} chain_solver;

/* Problems on one chain, solved in sequences: each sequence starts from its start pose (the rest
 * pose when starts is NULL) and every later problem from the previous one's solution. */
typedef struct problem_set {
    char name[64];
    const bench_chain *chain;
    int count, sequence_length;
    reach_vec3 *targets;
    reach_transform *starts; /* count / sequence_length poses of bones + 1, or NULL */
    reach_transform *pose, *world;
    void *scratch;
    size_t scratch_size;
    bench_samples samples;
} problem_set;

typedef struct check_totals {
    long failures;         /* solves that did not return REACH_OK */
    double length_error;   /* worst, chain lengths */
    double residual_error; /* worst |reported − true| residual, chain lengths */
    long wrong_reached;    /* `reached` that disagrees with the residual */
} check_totals;

/* ---- problem sets --------------------------------------------------------------------------- */

static void set_init(problem_set *set, const chain_solver *solver, const bench_chain *chain, const char *name,
                     int count, int sequence_length, int rounds) {
    size_t bones = (size_t)chain->bones + 1;
    snprintf(set->name, sizeof set->name, "%s/%s", solver->name, name);
    set->chain = chain;
    set->count = count;
    set->sequence_length = sequence_length;
    set->targets = bench_calloc((size_t)count, sizeof *set->targets);
    set->starts = NULL;
    set->pose = bench_calloc(bones, sizeof *set->pose);
    set->world = bench_calloc(bones, sizeof *set->world);
    set->scratch_size = solver->scratch_size(&chain->skeleton, 1);
    set->scratch = bench_calloc(set->scratch_size, 1);
    bench_samples_init(&set->samples, count, rounds);
}

static void set_free(problem_set *set) {
    free(set->targets);
    free(set->starts);
    free(set->pose);
    free(set->world);
    free(set->scratch);
    bench_samples_free(&set->samples);
}

/* Cold problems: independent targets, each solved from the rest pose. */
static void make_cold(problem_set *set, bench_random *r) {
    for (int p = 0; p < set->count; p++) {
        bench_chain_random_pose(set->chain, r, TARGET_BEND, set->pose);
        set->targets[p] = bench_chain_end(set->chain, set->pose, set->world);
    }
}

/* A bent start: every joint turned by up to TARGET_BEND, as the targets' poses are. */
static void bent_start(const bench_chain *chain, bench_random *r, reach_transform *start) {
    bench_chain_random_pose(chain, r, TARGET_BEND, start);
}

/* A straight start that is not the rest: the chain along a random direction, its joints
 * twisted about their bones (a chain's +y). */
static void straight_start(const bench_chain *chain, bench_random *r, reach_transform *start) {
    reach_pose_rest(&chain->skeleton, start);
    start[0].rotation = bench_random_rotation(r);
    for (int i = 1; i < chain->bones; i++)
        start[i].rotation =
            reach_quat_from_axis_angle(reach_vec3_make(0, 1, 0), bench_random_real(r, -3.14159265, 3.14159265));
}

/* Cold problems each solved from a start of its own. */
static void make_started(problem_set *set, bench_random *r,
                         void (*make_start)(const bench_chain *, bench_random *, reach_transform *)) {
    size_t bones = (size_t)set->chain->bones + 1;
    set->starts = bench_calloc((size_t)set->count * bones, sizeof *set->starts);
    for (int p = 0; p < set->count; p++) {
        bench_chain_random_pose(set->chain, r, TARGET_BEND, set->pose);
        set->targets[p] = bench_chain_end(set->chain, set->pose, set->world);
        make_start(set->chain, r, &set->starts[(size_t)p * bones]);
    }
}

/* The same problems (targets and starts) for another solver. */
static void copy_problems(problem_set *to, const problem_set *from) {
    size_t bones = (size_t)from->chain->bones + 1;
    memcpy(to->targets, from->targets, (size_t)from->count * sizeof *to->targets);
    if (!from->starts) return;
    size_t starts = (size_t)(from->count / from->sequence_length) * bones;
    to->starts = bench_calloc(starts, sizeof *to->starts);
    memcpy(to->starts, from->starts, starts * sizeof *to->starts);
}

/* Warm sequences: the pose that makes the targets is nudged a little between solves. Each
 * sequence starts from the solution for a target just before its first, solved here from rest. */
static void make_warm(problem_set *set, const chain_solver *solver, bench_random *r) {
    size_t bones = (size_t)set->chain->bones + 1;
    int runs = set->count / set->sequence_length;
    const reach_skeleton *skeleton = &set->chain->skeleton;
    set->starts = bench_calloc((size_t)runs * bones, sizeof *set->starts);
    reach_transform *maker = bench_calloc(bones, sizeof *maker);
    for (int s = 0; s < runs; s++) {
        bench_chain_random_pose(set->chain, r, TARGET_BEND, maker);
        reach_target first = reach_target_position(set->chain->bones, bench_chain_end(set->chain, maker, set->world));
        reach_transform *start = &set->starts[(size_t)s * bones];
        reach_pose_rest(skeleton, start);
        solver->solve(skeleton, &first, 1, NULL, start, set->scratch, set->scratch_size, NULL);
        for (int k = 0; k < set->sequence_length; k++) {
            bench_chain_nudge_pose(set->chain, r, WARM_NUDGE, maker);
            set->targets[s * set->sequence_length + k] = bench_chain_end(set->chain, maker, set->world);
        }
    }
    free(maker);
}

/* ---- solving ------------------------------------------------------------------------------- */

/* Untimed: is the answer what the solver says it is? */
static void check_answer(problem_set *set, reach_status status, const reach_solve_result *result, reach_vec3 target,
                         check_totals *totals) {
    const bench_chain *chain = set->chain;
    if (status != REACH_OK) {
        totals->failures++;
        return;
    }
    double length_error = bench_chain_length_error(chain, set->pose, set->world);
    double residual = bench_distance(set->world[chain->bones].translation, target);
    double residual_error = fabs((double)result->residual - residual) / chain->length;
    totals->length_error = isnan(length_error) ? NAN : fmax(totals->length_error, length_error);
    totals->residual_error = isnan(residual_error) ? NAN : fmax(totals->residual_error, residual_error);
    double tolerance = 1e-4 * chain->length;
    totals->wrong_reached += result->reached != ((double)result->residual <= tolerance);
}

static void solve_round(problem_set *set, const chain_solver *solver, int round, check_totals *totals) {
    const reach_skeleton *skeleton = &set->chain->skeleton;
    size_t bones = (size_t)set->chain->bones + 1;
    for (int p = 0; p < set->count; p++) {
        if (p % set->sequence_length == 0) {
            if (set->starts)
                memcpy(set->pose, &set->starts[(size_t)(p / set->sequence_length) * bones], bones * sizeof *set->pose);
            else
                reach_pose_rest(skeleton, set->pose);
        }
        reach_target target = reach_target_position(set->chain->bones, set->targets[p]);
        reach_solve_result result;
        double start = bench_seconds();
        reach_status status =
            solver->solve(skeleton, &target, 1, NULL, set->pose, set->scratch, set->scratch_size, &result);
        bench_samples_put(&set->samples, p, round, bench_seconds() - start);
        if (round > 0) continue;
        set->samples.iterations[p] = result.iterations;
        set->samples.reached[p] = status == REACH_OK && result.reached;
        check_answer(set, status, &result, target.position, totals);
    }
}

static void report_checks(bench_run *run, const chain_solver *solver, const check_totals *totals) {
    char message[200];
    snprintf(message, sizeof message, "%s: every solve returns REACH_OK (%ld did not)", solver->name, totals->failures);
    bench_check(run, totals->failures == 0, message);
    snprintf(message, sizeof message, "%s: bone lengths hold within %.3g chain lengths (worst %.3g)", solver->name,
             LENGTH_LIMIT, totals->length_error);
    bench_check(run, totals->length_error <= LENGTH_LIMIT, message);
    snprintf(message, sizeof message, "%s: the reported residual is the true one (worst error %.3g chain lengths)",
             solver->name, totals->residual_error);
    bench_check(run, totals->residual_error <= 1e-7 + 4 * LENGTH_LIMIT, message);
    snprintf(message, sizeof message, "%s: `reached` agrees with the residual (%ld disagree)", solver->name,
             totals->wrong_reached);
    bench_check(run, totals->wrong_reached == 0, message);
}

/* ---- memory --------------------------------------------------------------------------------- */

static void record_bytes(bench_run *run, const chain_solver *solver, const bench_chain *chain) {
    char name[96];
    snprintf(name, sizeof name, "%s/%d/bytes/scratch", solver->name, chain->bones);
    bench_record_value(run, name, "bytes/chain", (double)solver->scratch_size(&chain->skeleton, 1));
    snprintf(name, sizeof name, "%s/%d/bytes/chain", solver->name, chain->bones);
    bench_record_value(run, name, "bytes/chain", (double)(bench_chain_bytes(chain) + sizeof(reach_target)));
}

/* ---- the suites ----------------------------------------------------------------------------- */

static int wanted(const bench_run *run, const char *prefix, const char *name) {
    char full[96];
    snprintf(full, sizeof full, "%s/%s", prefix, name);
    return bench_wants(run, full);
}

/* The same problems for the reference solver, when there is one and its figure is wanted. */
static void add_reference_set(bench_run *run, const chain_solver *reference, const problem_set *from, const char *name,
                              problem_set *sets, int *set_count, const chain_solver **solvers, int rounds) {
    if (!reference || !wanted(run, reference->name, name)) return;
    problem_set *set = &sets[*set_count];
    solvers[(*set_count)++] = reference;
    set_init(set, reference, from->chain, name, from->count, from->sequence_length, rounds);
    copy_problems(set, from);
}

static void run_suite(bench_run *run, const chain_solver *solver, const chain_solver *reference) {
    int quick = bench_is_quick(run), rounds = bench_rounds(run);
    bench_random r = {SEED};
    bench_chain chains[GROWTH_COUNT + 1];
    problem_set sets[GROWTH_COUNT + 8];
    const chain_solver *solvers[GROWTH_COUNT + 8];
    int set_count = 0;

    /* The 10-bone chain, cold, warm and from bent starts. */
    bench_chain_make(&chains[GROWTH_COUNT], 10, &r);
    if (wanted(run, solver->name, "10/single/cold")) {
        problem_set *set = &sets[set_count];
        solvers[set_count++] = solver;
        set_init(set, solver, &chains[GROWTH_COUNT], "10/single/cold", quick ? QUICK_COLD : COLD_PROBLEMS, 1, rounds);
        make_cold(set, &r);
        add_reference_set(run, reference, set, "10/single/cold", sets, &set_count, solvers, rounds);
    }
    if (wanted(run, solver->name, "10/single/warm")) {
        int runs = quick ? QUICK_RUNS : WARM_RUNS, steps = quick ? QUICK_STEPS : WARM_STEPS;
        problem_set *set = &sets[set_count];
        solvers[set_count++] = solver;
        set_init(set, solver, &chains[GROWTH_COUNT], "10/single/warm", runs * steps, steps, rounds);
        make_warm(set, solver, &r);
        add_reference_set(run, reference, set, "10/single/warm", sets, &set_count, solvers, rounds);
    }
    if (wanted(run, solver->name, "10/single/bent")) {
        problem_set *set = &sets[set_count];
        solvers[set_count++] = solver;
        set_init(set, solver, &chains[GROWTH_COUNT], "10/single/bent", quick ? QUICK_COLD : COLD_PROBLEMS, 1, rounds);
        make_started(set, &r, bent_start);
        add_reference_set(run, reference, set, "10/single/bent", sets, &set_count, solvers, rounds);
    }
    if (wanted(run, solver->name, "10/single/straight")) {
        problem_set *set = &sets[set_count];
        solvers[set_count++] = solver;
        set_init(set, solver, &chains[GROWTH_COUNT], "10/single/straight", quick ? QUICK_COLD : COLD_PROBLEMS, 1,
                 rounds);
        /* A stream of its own, so the sets made after it get the problems they had before it. */
        bench_random straight = {SEED ^ 0x57a1947u};
        make_started(set, &straight, straight_start);
        add_reference_set(run, reference, set, "10/single/straight", sets, &set_count, solvers, rounds);
    }
    for (int g = 0; g < GROWTH_COUNT; g++) {
        int bones = growth_bones[g];
        bench_chain_make(&chains[g], bones, &r);
        char name[32];
        snprintf(name, sizeof name, "%d/single", bones);
        if (!wanted(run, solver->name, name)) continue;
        int count = quick ? QUICK_GROWTH : GROWTH_WORK / bones > GROWTH_MIN ? GROWTH_WORK / bones : GROWTH_MIN;
        problem_set *set = &sets[set_count];
        solvers[set_count++] = solver;
        set_init(set, solver, &chains[g], name, count, 1, rounds);
        make_cold(set, &r);
    }

    /* Round r visits the sets starting at a different one, as bench_time does. */
    check_totals totals = {0, 0, 0, 0}, reference_totals = {0, 0, 0, 0};
    bench_span span = bench_span_start();
    for (int round = 0; round < rounds; round++)
        for (int k = 0; k < set_count; k++) {
            int which = (round + k) % set_count;
            solve_round(&sets[which], solvers[which], round, solvers[which] == solver ? &totals : &reference_totals);
        }
    bench_span_end(run, span);
    if (set_count) report_checks(run, solver, &totals);
    if (reference && set_count) report_checks(run, reference, &reference_totals);

    for (int k = 0; k < set_count; k++) {
        bench_samples_record(run, sets[k].name, &sets[k].samples);
        set_free(&sets[k]);
    }
    record_bytes(run, solver, &chains[GROWTH_COUNT]);
    for (int g = 0; g < GROWTH_COUNT; g++)
        record_bytes(run, solver, &chains[g]);
    for (int c = 0; c <= GROWTH_COUNT; c++)
        bench_chain_free(&chains[c]);
}

void bench_suite_fabrik(bench_run *run) {
    const chain_solver fabrik = {"fabrik", reach_fabrik_solve, reach_fabrik_scratch_size};
    const chain_solver textbook = {"fabrik/textbook", reference_fabrik_solve, reference_fabrik_scratch_size};
    /* Textbook time over reach's: how many times faster reach is, from each start. */
    static const char *const starts[] = {"cold", "warm", "bent", "straight"};
    char names[4][3][64];
    for (int k = 0; k < 4; k++) {
        snprintf(names[k][0], sizeof names[k][0], "fabrik/speedup/%s", starts[k]);
        snprintf(names[k][1], sizeof names[k][1], "fabrik/textbook/10/single/%s", starts[k]);
        snprintf(names[k][2], sizeof names[k][2], "fabrik/10/single/%s", starts[k]);
        bench_want_ratio(run, names[k][0], names[k][1], names[k][2]);
    }
    run_suite(run, &fabrik, &textbook);
    for (int k = 0; k < 4; k++)
        bench_ratio(run, names[k][0], names[k][1], names[k][2]);
}

void bench_suite_ccd(bench_run *run) {
    const chain_solver ccd = {"ccd", reach_ccd_solve, reach_ccd_scratch_size};
    run_suite(run, &ccd, NULL);
}
