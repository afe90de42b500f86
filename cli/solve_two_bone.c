/* solver.type "two_bone": the analytic solver on the target bone, its parent and grandparent.
 *
 * The limb is solved in the space of the root bone's parent (reach_two_bone_solve_rig), so any
 * pose of the bones above it is respected. Being closed-form, it does not apply joint limits;
 * the result says so in "warnings" when the limb has limited joints. */
#include <stdio.h>
#include <stdlib.h>

#include "json_read.h"
#include "solvers.h"
#include "reach/two_bone.h"
#include "utf8.h"

static int read_options(const cli_request *request, reach_two_bone_settings *options, cli_error *err) {
    const cJSON *solver = request->solver_json;
    *options = reach_two_bone_default_settings();
    options->tolerance = request->settings.tolerance;
    options->weight = request->targets[0].goal.weight;
    if (options->weight > 1)
        return cli_fail(err, "targets[0].weight: two_bone blends by weight, which must be in [0, 1]");
    if (!jr_get_number(solver, "solver", "soft_distance", 0, &options->soft_distance, err) ||
        !jr_get_number(solver, "solver", "max_stretch", 0, &options->max_stretch, err))
        return 0;
    if (options->soft_distance < 0) return cli_fail(err, "solver.soft_distance: must not be negative");
    if (options->max_stretch < 1) return cli_fail(err, "solver.max_stretch: must be at least 1 (1 turns stretch off)");
    return 1;
}

/* The limb: chain[0] root, chain[1] mid, chain[2] end (the target's bone). */
static int find_limb(const cli_request *request, int chain[3], cli_error *err) {
    const cli_rig *rig = request->rig;
    chain[2] = request->targets[0].goal.bone;
    chain[1] = rig->parents[chain[2]];
    chain[0] = chain[1] >= 0 ? rig->parents[chain[1]] : -1;
    if (chain[1] < 0)
        return cli_fail(
            err,
            "targets[0].bone: two_bone needs the target bone, its parent and its grandparent, but '%s' has no parent",
            rig->names[chain[2]]);
    if (chain[0] < 0)
        return cli_fail(err,
                        "targets[0].bone: two_bone needs the target bone, its parent and its grandparent, but '%s' has "
                        "no grandparent",
                        rig->names[chain[2]]);
    int root_bone = request->settings.root_bone;
    if (root_bone >= 0 && root_bone != chain[0])
        return cli_fail(err, "chain_root: two_bone moves the grandparent of the target bone, '%s', not '%s'",
                        rig->names[chain[0]], rig->names[root_bone]);
    return 1;
}

/* A bone's length is its child's offset, so the upper bone's is the mid joint's translation. */
static int check_lengths(const cli_request *request, const int chain[3], cli_error *err) {
    const cli_rig *rig = request->rig;
    for (int k = 1; k < 3; k++) {
        if (reach_vec3_max_abs(request->pose[chain[k]].translation) > 0) continue;
        return cli_fail(err,
                        "bones[%d].position: bone '%s' has zero length ('%s' sits on its joint); two_bone needs both "
                        "bones to have a length",
                        chain[k], rig->names[chain[k - 1]], rig->names[chain[k]]);
    }
    return 1;
}

static void warn_unenforced_joints(const cli_rig *rig, const int chain[3], cJSON *warnings) {
    for (int k = 0; k < 3; k++) {
        reach_joint_type type = rig->joints[chain[k]].type;
        if (type == REACH_JOINT_BALL) continue;
        char text[CLI_MESSAGE_SIZE];
        snprintf(text, sizeof text, "bone '%s': its %s joint is not applied by the analytic two_bone solver",
                 rig->names[chain[k]], cli_joint_type_name(type));
        cli_utf8_clean(text); /* a long name may have been cut inside a character */
        cJSON_AddItemToArray(warnings, cJSON_CreateString(text));
    }
}

static reach_two_bone_rig_input limb_input(const cli_request *request, const int chain[3],
                                           const reach_transform *world) {
    const cli_target *target = &request->targets[0];
    int above = request->rig->parents[chain[0]];
    reach_two_bone_rig_input in;
    in.parent_world = above >= 0 ? reach_affine_from_transform(world[above]) : reach_affine_identity();
    in.root_local = request->pose[chain[0]];
    in.mid_local = request->pose[chain[1]];
    in.end_local = request->pose[chain[2]];
    in.target = target->goal.position;
    in.pole = target->pole;
    in.use_pole = target->use_pole;
    in.end_orientation = target->goal.orientation;
    in.use_end_orientation = target->goal.use_orientation;
    return in;
}

/* Without overflow: a limb whose squared length leaves the range still has a finite length. */
static reach_real limb_length(const reach_transform *world, const int chain[3]) {
    reach_vec3 upper = reach_vec3_sub(world[chain[1]].translation, world[chain[0]].translation);
    reach_vec3 lower = reach_vec3_sub(world[chain[2]].translation, world[chain[1]].translation);
    return reach_vec3_length_robust(upper) + reach_vec3_length_robust(lower);
}

int cli_solve_two_bone(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err) {
    const cli_rig *rig = request->rig;
    int chain[3];
    reach_two_bone_settings options;
    if (request->target_count != 1)
        return cli_fail(err, "targets: two_bone takes exactly one target, got %d", request->target_count);
    if (request->targets[0].goal.kind == REACH_TARGET_MEET)
        return cli_fail(err, "targets[0].meet: two_bone reaches for a position; fabrik, ccd and jacobian close loops");
    if (!find_limb(request, chain, err) || !read_options(request, &options, err) || !check_lengths(request, chain, err))
        return 0;
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    if (!world) return cli_fail(err, "out of memory");
    reach_forward_kinematics(&rig->skeleton, request->pose, world);
    reach_real tolerance = request->settings.tolerance > 0 ? request->settings.tolerance
                                                           : REACH_DEFAULT_TOLERANCE_RATIO * limb_length(world, chain);

    reach_two_bone_rig_input in = limb_input(request, chain, world);
    reach_two_bone_rig_output out;
    reach_status status = reach_two_bone_solve_rig(&in, &options, &out);
    if (status != REACH_OK) {
        free(world);
        if (status == REACH_ERROR_ZERO_LENGTH)
            return cli_fail(err,
                            "two_bone: a bone of the limb '%s' -> '%s' -> '%s' is too short next to the other to solve",
                            rig->names[chain[0]], rig->names[chain[1]], rig->names[chain[2]]);
        return cli_fail(err, "two_bone: %s", reach_status_string(status));
    }
    request->pose[chain[0]].rotation = out.root_rotation;
    request->pose[chain[1]].rotation = out.mid_rotation;
    request->pose[chain[1]].translation = out.mid_translation;
    request->pose[chain[2]].rotation = out.end_rotation;
    request->pose[chain[2]].translation = out.end_translation;

    reach_forward_kinematics(&rig->skeleton, request->pose, world);
    cli_measure_targets(request, world, tolerance, result);
    result->iterations = 1;
    free(world);
    warn_unenforced_joints(rig, chain, warnings);
    return 1;
}
