#include "iterative.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rig.h"
#include "utf8.h"

/* Whether bone is root or below it. */
static int descends_from(const cli_rig *rig, int bone, int root) {
    while (bone >= 0 && bone != root)
        bone = rig->parents[bone];
    return bone == root;
}

static int topmost(const cli_rig *rig, int bone) {
    while (rig->parents[bone] >= 0)
        bone = rig->parents[bone];
    return bone;
}

/* One bone a target moves (its own, or the one it meets) must lie below the solve's root, as the
 * library requires; checked here so the message can name the bones. */
static int check_below(const cli_request *request, int index, const char *field, int bone, int root, cli_error *err) {
    const cli_rig *rig = request->rig;
    if (descends_from(rig, bone, root)) return 1;
    if (request->settings.root_bone >= 0)
        return cli_fail(err, "targets[%d].%s: '%s' is not below chain_root '%s'", index, field, rig->names[bone],
                        rig->names[root]);
    return cli_fail(err,
                    "targets[%d].%s: '%s' and '%s' (targets[0].bone) have no common root; one solve moves one "
                    "hierarchy",
                    index, field, rig->names[bone], rig->names[request->targets[0].goal.bone]);
}

static int check_targets(const cli_iterative *solver, const cli_request *request, int root, cli_error *err) {
    for (int i = 0; i < request->target_count; i++) {
        const cli_target *target = &request->targets[i];
        if (target->use_pole)
            return cli_fail(err, "targets[%d].pole: %s has no pole (only two_bone bends toward one)", i, solver->name);
        if (!(target->goal.weight > 0))
            return cli_fail(err,
                            "targets[%d].weight: %s weighs targets against each other; the weight must be "
                            "greater than zero",
                            i, solver->name);
        if (!check_below(request, i, "bone", target->goal.bone, root, err)) return 0;
        if (target->goal.kind == REACH_TARGET_MEET &&
            !check_below(request, i, "meet", target->goal.meet_bone, root, err))
            return 0;
    }
    return 1;
}

static void mark_path(const cli_rig *rig, int bone, int root, unsigned char *moving) {
    for (; bone >= 0; bone = rig->parents[bone]) {
        moving[bone] = 1;
        if (bone == root) return;
    }
}

/* The bones the solve may move: every bone from the root down to each target's bone(s). */
static void mark_moving(const cli_request *request, int root, unsigned char *moving) {
    memset(moving, 0, (size_t)request->rig->bone_count);
    for (int i = 0; i < request->target_count; i++) {
        const reach_target *goal = &request->targets[i].goal;
        mark_path(request->rig, goal->bone, root, moving);
        if (goal->kind == REACH_TARGET_MEET) mark_path(request->rig, goal->meet_bone, root, moving);
    }
}

/* The default tolerance's length: the distances between the joints of the moving bones in the
 * starting pose (each bone's offset from its parent; the root's offset does not count, as it
 * does not join two moving joints). A rig whose moving joints all coincide counts as length 1. */
static reach_real moving_length(const cli_request *request, const unsigned char *moving, int root) {
    reach_real length = 0;
    for (int bone = 0; bone < request->rig->bone_count; bone++)
        if (moving[bone] && bone != root) length += reach_vec3_length_robust(request->pose[bone].translation);
    return length > 0 ? length : 1;
}

static void warn_fixed_prismatic(const cli_iterative *solver, const cli_rig *rig, const unsigned char *moving,
                                 cJSON *warnings) {
    if (solver->slides_prismatic) return;
    for (int bone = 0; bone < rig->bone_count; bone++) {
        if (!moving[bone] || rig->joints[bone].type != REACH_JOINT_PRISMATIC) continue;
        char text[CLI_MESSAGE_SIZE];
        snprintf(text, sizeof text,
                 "bone '%s': %s keeps its prismatic joint at its starting offset (ccd and jacobian slide it)",
                 rig->names[bone], solver->name);
        cli_utf8_clean(text); /* a long name may have been cut inside a character */
        cJSON_AddItemToArray(warnings, cJSON_CreateString(text));
    }
}

static int library_error(const cli_iterative *solver, reach_status status, cli_error *err) {
    if (status == REACH_ERROR_OUT_OF_RANGE)
        return cli_fail(err, "%s: the rig's or the targets' coordinates are too large to compute with", solver->name);
    return cli_fail(err, "%s: %s", solver->name, reach_status_string(status));
}

/* Runs the solver on the request's targets with the resolved settings. */
static int run(const cli_iterative *solver, cli_request *request, const reach_solver_settings *settings,
               reach_solve_result *result, cli_error *err) {
    const cli_rig *rig = request->rig;
    int count = request->target_count;
    reach_target *targets = malloc((size_t)count * sizeof *targets);
    size_t scratch_size = solver->scratch_size(&rig->skeleton, count);
    void *scratch = malloc(scratch_size > 0 ? scratch_size : 1);
    reach_status status = REACH_ERROR_BUFFER_TOO_SMALL;
    if (targets && scratch) {
        for (int i = 0; i < count; i++)
            targets[i] = request->targets[i].goal;
        status = solver->solve(&rig->skeleton, targets, count, settings, request->pose, scratch, scratch_size, result);
    }
    free(targets);
    free(scratch);
    if (!targets || !scratch) return cli_fail(err, "out of memory");
    return status == REACH_OK || library_error(solver, status, err);
}

/* FABRIK and CCD turn a mimic follower as a joint of its own: it is coupled to its leader again
 * after the solve (reach_pose_apply_mimic), which moves what hangs below it. */
static void couple_followers(const cli_iterative *solver, const cli_rig *rig, const unsigned char *moving,
                             reach_transform *pose, cJSON *warnings) {
    reach_pose_apply_mimic(&rig->skeleton, pose);
    if (strcmp(solver->name, "jacobian") == 0) return; /* coupled all along */
    for (int bone = 0; bone < rig->bone_count; bone++) {
        if (!moving[bone] || !rig->joints[bone].mimic) continue;
        char text[CLI_MESSAGE_SIZE];
        snprintf(text, sizeof text,
                 "bone '%s': %s turns mimic joints on their own; it was coupled to its leader after the solve (the "
                 "jacobian solver keeps the coupling throughout)",
                 rig->names[bone], solver->name);
        cli_utf8_clean(text);
        cJSON_AddItemToArray(warnings, cJSON_CreateString(text));
    }
}

int cli_solve_iterative(const cli_iterative *solver, cli_request *request, reach_solver_settings settings,
                        reach_solve_result *result, cJSON *warnings, cli_error *err) {
    const cli_rig *rig = request->rig;
    int root = settings.root_bone >= 0 ? settings.root_bone : topmost(rig, request->targets[0].goal.bone);
    if (!check_targets(solver, request, root, err)) return 0;
    unsigned char *moving = malloc((size_t)rig->bone_count);
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    int ok = moving && world ? 1 : cli_fail(err, "out of memory");
    if (ok) {
        mark_moving(request, root, moving);
        settings.root_bone = root;
        if (settings.max_iterations == 0) settings.max_iterations = CLI_ITERATIVE_DEFAULT_ITERATIONS;
        if (!(settings.tolerance > 0))
            settings.tolerance = REACH_DEFAULT_TOLERANCE_RATIO * moving_length(request, moving, root);
        ok = run(solver, request, &settings, result, err);
    }
    if (ok) {
        int iterations = result->iterations, limited = result->limited;
        couple_followers(solver, rig, moving, request->pose, warnings);
        reach_forward_kinematics(&rig->skeleton, request->pose, world);
        cli_measure_targets(request, world, settings.tolerance, result);
        result->iterations = iterations;
        result->limited = limited;
        warn_fixed_prismatic(solver, rig, moving, warnings);
    }
    free(moving);
    free(world);
    return ok;
}
