/* solver.type "full_body": the whole humanoid posed from targets on its hips, head, hands and
 * feet (reach_full_body_solve). The roles come from "humanoid" ("auto", the default: from the
 * bone names; or a map). A hand's or foot's "pole" is the elbow's or knee's hint; a "look_at"
 * target on the head aims it (its "forward" and "up" the head's axes). Bones with a free ball
 * joint take the natural limits of their role (reach_humanoid_natural_joints) unless
 * "natural_limits" is false; a joint the rig states is kept. "tolerance" is in the rig's units
 * (default 1e-4 of the body's height), "angle_tolerance" in radians (default 1e-3). */
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "solvers.h"
#include "reach/full_body.h"

static const reach_humanoid_role part_roles[REACH_BODY_PART_COUNT] = {REACH_ROLE_HIPS,      REACH_ROLE_HEAD,
                                                                      REACH_ROLE_LEFT_HAND, REACH_ROLE_RIGHT_HAND,
                                                                      REACH_ROLE_LEFT_FOOT, REACH_ROLE_RIGHT_FOOT};

typedef struct body_request {
    reach_full_body_targets targets;
    reach_full_body_settings settings;
    int owner[REACH_BODY_PART_COUNT]; /* the target given for each part, -1 for none */
    int look_at_owner;
} body_request;

static int target_part(const cli_request *request, int i, int *part, cli_error *err) {
    const cli_target *target = &request->targets[i];
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++)
        if (request->humanoid.bones[part_roles[p]] == target->goal.bone) {
            *part = p;
            return 1;
        }
    return cli_fail(err,
                    "targets[%d].%s: full_body takes targets on the hips, head, hands and feet; '%s' is none of them",
                    i, target->role >= 0 ? "role" : "bone", request->rig->names[target->goal.bone]);
}

static int read_look_at(const cli_request *request, int i, int part, body_request *body, cli_error *err) {
    const cli_target *target = &request->targets[i];
    if (part != REACH_BODY_HEAD)
        return cli_fail(err, "targets[%d].look_at: full_body looks with the head, not '%s' (aim turns any bone)", i,
                        request->rig->names[target->goal.bone]);
    if (target->use_offset)
        return cli_fail(err, "targets[%d].offset: full_body looks from the head's joint (aim takes an offset)", i);
    if (target->use_pole)
        return cli_fail(err, "targets[%d].pole: full_body keeps the head's up axis toward the body's", i);
    if (body->look_at_owner >= 0)
        return cli_fail(err, "targets[%d]: a second look_at (targets[%d] has one)", i, body->look_at_owner);
    body->look_at_owner = i;
    body->targets.use_look_at = 1;
    body->targets.look_at = target->look_at;
    body->settings.head_forward = target->forward;
    body->settings.head_up = target->up;
    return 1;
}

static int read_part(const cli_request *request, int i, int part, body_request *body, cli_error *err) {
    const cli_target *target = &request->targets[i];
    const char *part_name = reach_humanoid_role_name(part_roles[part]);
    if (body->owner[part] >= 0)
        return cli_fail(err, "targets[%d]: a second target on the %s (targets[%d] is one)", i, part_name,
                        body->owner[part]);
    if (target->use_pole && (part == REACH_BODY_HIPS || part == REACH_BODY_HEAD))
        return cli_fail(err, "targets[%d].pole: only hands and feet take a pole (their elbow or knee turns toward it)",
                        i);
    body->owner[part] = i;
    reach_body_target *b = &body->targets.parts[part];
    b->use_position = target->use_position;
    b->position = target->goal.position;
    b->use_rotation = target->goal.use_orientation;
    b->rotation = target->goal.orientation;
    b->use_hint = target->use_pole;
    b->hint = target->pole;
    b->weight = target->goal.weight;
    return 1;
}

static int read_targets(const cli_request *request, body_request *body, cli_error *err) {
    body->targets = reach_full_body_no_targets();
    body->look_at_owner = -1;
    for (int p = 0; p < REACH_BODY_PART_COUNT; p++)
        body->owner[p] = -1;
    for (int i = 0; i < request->target_count; i++) {
        const cli_target *target = &request->targets[i];
        int part = 0;
        if (target->goal.kind == REACH_TARGET_MEET)
            return cli_fail(err,
                            "targets[%d].meet: full_body reaches for positions and rotations; fabrik, ccd and "
                            "jacobian close loops",
                            i);
        if (!target_part(request, i, &part, err)) return 0;
        if (!(target->use_look_at ? read_look_at(request, i, part, body, err) : read_part(request, i, part, body, err)))
            return 0;
    }
    return 1;
}

/* The body's size as the library measures it: hips to head plus hips to a sole, at rest. */
static reach_real body_height(const cli_rig *rig, const reach_humanoid *h, reach_transform *world) {
    reach_forward_kinematics(&rig->skeleton, rig->rest, world);
    reach_vec3 hips = world[h->bones[REACH_ROLE_HIPS]].translation;
    return reach_vec3_distance(world[h->bones[REACH_ROLE_HEAD]].translation, hips) +
           reach_vec3_distance(world[h->bones[REACH_ROLE_LEFT_FOOT]].translation, hips);
}

static int read_settings(const cli_request *request, reach_transform *world, body_request *body, cli_error *err) {
    reach_full_body_settings *s = &body->settings;
    if (request->settings.max_iterations > 0) s->max_iterations = request->settings.max_iterations;
    if (jr_get(request->solver_json, "angle_tolerance")) s->angle_tolerance = request->settings.angle_tolerance;
    if (request->settings.tolerance > 0) {
        reach_real height = body_height(request->rig, &request->humanoid, world);
        if (!(height > 0))
            return cli_fail(err, "solver.humanoid: the body has no height (its hips, head and feet meet)");
        s->tolerance = request->settings.tolerance / height;
    }
    return 1;
}

/* The rig's joints, with the natural limits of their roles where the rig leaves a bone free. */
static int body_joints(const cli_request *request, reach_joint *joints, cli_error *err) {
    const cli_rig *rig = request->rig;
    int natural = 1;
    if (!jr_get_bool(request->solver_json, "solver", "natural_limits", &natural, err)) return 0;
    memcpy(joints, rig->joints, (size_t)rig->bone_count * sizeof *joints);
    if (!natural) return 1;
    reach_status status = reach_humanoid_natural_joints(&rig->skeleton, &request->humanoid, joints);
    if (status != REACH_OK) return cli_fail(err, "solver.natural_limits: %s", reach_status_string(status));
    for (int b = 0; b < rig->bone_count; b++)
        if (rig->joints[b].type != REACH_JOINT_BALL) joints[b] = rig->joints[b];
    return 1;
}

/* The angle between the head's forward axis and the way to the look-at point. */
static reach_real look_at_error(const reach_transform *head, const reach_full_body_targets *targets,
                                const reach_full_body_settings *s) {
    reach_vec3 way = reach_vec3_sub(targets->look_at, head->translation);
    if (reach_vec3_max_abs(way) == 0) return 0;
    reach_vec3 forward = reach_quat_rotate(head->rotation, s->head_forward);
    return reach_atan2(reach_vec3_length(reach_vec3_cross(forward, way)), reach_vec3_dot(forward, way));
}

static int solve_body(cli_request *request, body_request *body, reach_joint *joints, reach_transform *world,
                      reach_solve_result *result, cli_error *err) {
    const cli_rig *rig = request->rig;
    reach_skeleton skeleton = rig->skeleton;
    skeleton.joints = joints;
    size_t size = reach_full_body_scratch_size(&skeleton);
    void *scratch = malloc(size);
    if (!scratch) return cli_fail(err, "out of memory");
    reach_full_body_result solved;
    reach_status status = reach_full_body_solve(&skeleton, &request->humanoid, &body->targets, &body->settings,
                                                request->pose, scratch, size, &solved);
    free(scratch);
    if (status != REACH_OK) return cli_fail(err, "full_body: %s", reach_status_string(status));
    result->iterations = solved.iterations;
    result->residual = solved.residual;
    result->angle_residual = solved.angle_residual;
    result->reached = solved.reached;
    if (body->targets.use_look_at && !body->targets.parts[REACH_BODY_HEAD].use_rotation) {
        reach_forward_kinematics(&rig->skeleton, request->pose, world);
        reach_real error =
            look_at_error(&world[request->humanoid.bones[REACH_ROLE_HEAD]], &body->targets, &body->settings);
        result->angle_residual = reach_max(result->angle_residual, error);
        result->reached = result->reached && error <= body->settings.angle_tolerance;
    }
    return 1;
}

int cli_solve_full_body(cli_request *request, reach_solve_result *result, cJSON *warnings, cli_error *err) {
    (void)warnings;
    const cli_rig *rig = request->rig;
    body_request body;
    body.settings = reach_full_body_default_settings();
    if (!cli_request_humanoid(request, "solver.humanoid", err) || !read_targets(request, &body, err)) return 0;
    reach_transform *world = malloc((size_t)rig->bone_count * sizeof *world);
    reach_joint *joints = malloc((size_t)rig->bone_count * sizeof *joints);
    int ok = world && joints ? 1 : cli_fail(err, "out of memory");
    ok = ok && read_settings(request, world, &body, err) && body_joints(request, joints, err) &&
         solve_body(request, &body, joints, world, result, err);
    free(joints);
    free(world);
    return ok;
}
