/* solver.type "aim": turns the bones from chain_root (default: the target's bone alone) down to
 * the target's bone so that the bone's forward axis points at "look_at", the turn shared along
 * the chain (reach_aim_chain_solve), each bone inside its joint's limits. The error is an angle:
 * "angle_residual", within "angle_tolerance" when reached. */
#include <stdio.h>
#include <stdlib.h>

#include "json_read.h"
#include "solvers.h"
#include "reach/aim.h"

/* The chain from chain_root down to the target's bone, into a new array. */
static int find_chain(const cli_request *request, int **chain, int *count, cli_error *err) {
    const cli_rig *rig = request->rig;
    int tip = request->targets[0].goal.bone;
    int root = request->settings.root_bone >= 0 ? request->settings.root_bone : tip;
    if (reach_chain_find(&rig->skeleton, root, tip, NULL, 0, count) != REACH_ERROR_BUFFER_TOO_SMALL)
        return cli_fail(err,
                        "chain_root: '%s' is not above '%s' (aim turns the bones from chain_root down to the target's)",
                        rig->names[root], rig->names[tip]);
    *chain = malloc((size_t)*count * sizeof **chain);
    if (!*chain) return cli_fail(err, "out of memory");
    reach_chain_find(&rig->skeleton, root, tip, *chain, *count, count);
    return 1;
}

/* "shares": one number >= 0 per chain bone, root first, with a positive sum. */
static int read_shares(const cli_request *request, const int *chain, int count, reach_real **shares, cli_error *err) {
    const cJSON *json = jr_get(request->solver_json, "shares");
    *shares = NULL;
    if (!json) return 1;
    *shares = malloc((size_t)count * sizeof **shares);
    if (!*shares) return cli_fail(err, "out of memory");
    char what[CLI_MESSAGE_SIZE / 2];
    snprintf(what, sizeof what, "%d number%s (one per bone from '%s' to '%s')", count, count == 1 ? "" : "s",
             request->rig->names[chain[0]], request->rig->names[chain[count - 1]]);
    int n = 0;
    if (!jr_numbers(json, "solver.shares", count, count, what, *shares, &n, err)) return 0;
    reach_real sum = 0;
    for (int k = 0; k < count; k++) {
        if ((*shares)[k] < 0) return cli_fail(err, "solver.shares[%d]: must not be negative", k);
        sum += (*shares)[k];
    }
    if (!(sum > 0)) return cli_fail(err, "solver.shares: at least one share must be greater than zero");
    return 1;
}

static int read_settings(const cli_request *request, reach_aim_chain_settings *s, cli_error *err) {
    const cli_target *target = &request->targets[0];
    if (jr_get(request->solver_json, "tolerance"))
        return cli_fail(err, "solver.tolerance: aim's error is an angle; give angle_tolerance");
    if (target->goal.weight > 1)
        return cli_fail(err, "targets[0].weight: aim blends by weight, which must be in [0, 1]");
    if (target->use_up && reach_vec3_max_abs(target->pole) == 0)
        return cli_fail(err, "targets[0].pole: the direction the up axis leans toward must not be zero");
    *s = reach_aim_chain_default_settings();
    s->aim.forward = target->forward;
    s->aim.up = target->up;
    s->aim.offset = target->offset;
    s->aim.keep_up = target->use_up;
    s->aim.weight = target->goal.weight;
    s->aim.tolerance = request->settings.angle_tolerance;
    if (request->settings.max_iterations > 0) s->iterations = request->settings.max_iterations;
    return 1;
}

int cli_solve_aim(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err) {
    (void)warnings;
    if (request->target_count != 1)
        return cli_fail(err, "targets: aim takes exactly one target, got %d", request->target_count);
    const cli_target *target = &request->targets[0];
    if (!target->use_look_at) return cli_fail(err, "targets[0]: aim turns a bone to look at a point: give \"look_at\"");
    reach_aim_chain_settings settings;
    if (!read_settings(request, &settings, err)) return 0;
    int *chain = NULL, count = 0;
    reach_real *shares = NULL;
    const cli_rig *rig = request->rig;
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    int ok = world ? find_chain(request, &chain, &count, err) : cli_fail(err, "out of memory");
    ok = ok && read_shares(request, chain, count, &shares, err);
    if (ok) {
        settings.shares = shares;
        reach_forward_kinematics(&rig->skeleton, request->pose, world);
        reach_aim_output out;
        reach_status status = reach_aim_chain_solve(&rig->skeleton, chain, count, target->look_at, target->pole,
                                                    &settings, request->pose, world, &out);
        if (status != REACH_OK) {
            ok = cli_fail(err, "aim: %s", reach_status_string(status));
        } else {
            result->iterations = 1;
            result->residual = 0;
            result->angle_residual = out.error;
            result->reached = out.reached;
            result->limited = out.limited;
        }
    }
    free(shares);
    free(chain);
    free(world);
    return ok;
}
