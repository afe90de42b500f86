#include "request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "humanoid.h"
#include "json_read.h"
#include "solvers.h"

/* Accepts the shared solver fields and the chosen solver's own options. */
static int check_solver_fields(const cJSON *solver_json, const cli_solver *solver, cli_error *err) {
    const char *allowed[32];
    size_t n = 0;
    for (const char *const *f = cli_solver_common_fields; *f && n + 1 < sizeof allowed / sizeof allowed[0]; f++)
        allowed[n++] = *f;
    for (const char *const *f = solver->options; *f && n + 1 < sizeof allowed / sizeof allowed[0]; f++)
        allowed[n++] = *f;
    allowed[n] = NULL;
    return jr_check_fields(solver_json, "solver", allowed, err);
}

static int read_positive(const cJSON *obj, const char *key, reach_real *out, cli_error *err) {
    reach_real value = *out;
    if (!jr_get_number(obj, "solver", key, 0, &value, err)) return 0;
    if (!(value > 0)) return cli_fail(err, "solver.%s: must be greater than zero", key);
    *out = value;
    return 1;
}

static int read_solver(const cJSON *json, cli_request *request, cli_error *err) {
    const cJSON *solver_json = jr_get(json, "solver");
    const char *type = NULL;
    if (!solver_json) return cli_fail(err, "solver: required field is missing");
    if (!jr_object(solver_json, "solver", err) || !jr_get_string(solver_json, "solver", "type", 1, &type, err))
        return 0;
    const cli_solver *solver = cli_solver_find(type);
    if (!solver) {
        char names[256];
        cli_solver_names(names, sizeof names);
        return cli_fail(err, "solver.type: unknown solver '%s' (available: %s)", type, names);
    }
    if (!check_solver_fields(solver_json, solver, err)) return 0;
    request->solver = solver;
    request->solver_json = solver_json;
    reach_solver_settings *s = &request->settings;
    /* tolerance and max_iterations 0 stand for "the solver's default", so they are read as
     * optional and positive. */
    reach_real tolerance = 1;
    int has_tolerance = jr_get(solver_json, "tolerance") != NULL;
    s->max_iterations = 0;
    if (!jr_get_int(solver_json, "solver", "max_iterations", 1, 1000000, &s->max_iterations, err) ||
        !read_positive(solver_json, "tolerance", &tolerance, err) ||
        !read_positive(solver_json, "angle_tolerance", &s->angle_tolerance, err))
        return 0;
    s->tolerance = has_tolerance ? tolerance : 0;
    return 1;
}

static int read_bone_name(const cJSON *obj, const char *path, const char *key, const cli_rig *rig, int *bone,
                          cli_error *err) {
    const char *name = NULL;
    if (!jr_get_string(obj, path, key, 1, &name, err)) return 0;
    *bone = cli_rig_find_bone(rig, name);
    if (*bone >= 0) return 1;
    char field_path[CLI_PATH_SIZE];
    jr_key_path(field_path, sizeof field_path, path, key);
    return cli_fail(err, "%s: no bone named '%s'", field_path, name);
}

static const char *const target_fields[] = {"bone",   "role",    "position", "meet", "orientation", "pole",
                                            "weight", "look_at", "forward",  "up",   "offset",      NULL};

/* A closed loop: the target's bone and the "meet" bone come together wherever the solve puts
 * them, so a meeting has no position, orientation or pole of its own. */
static int read_meet(const cJSON *json, const char *path, const cli_rig *rig, cli_target *target, cli_error *err) {
    static const char *const excluded[] = {"position", "orientation", "pole"};
    for (size_t k = 0; k < sizeof excluded / sizeof excluded[0]; k++)
        if (jr_get(json, excluded[k]))
            return cli_fail(err, "%s: \"meet\" and \"%s\" exclude each other (two bones meet wherever they can)", path,
                            excluded[k]);
    int meet = -1;
    if (!read_bone_name(json, path, "meet", rig, &meet, err)) return 0;
    if (meet == target->goal.bone)
        return cli_fail(err, "%s.meet: bone '%s' cannot meet itself", path, rig->names[meet]);
    target->goal.kind = REACH_TARGET_MEET;
    target->goal.meet_bone = meet;
    return 1;
}

int cli_request_humanoid(cli_request *request, const char *path, cli_error *err) {
    if (request->has_humanoid) return 1;
    const cJSON *spec = jr_get(request->solver_json, "humanoid");
    if (!cli_humanoid_read(spec, spec || request->solver->character ? "solver.humanoid" : path, request->rig,
                           &request->humanoid, err))
        return 0;
    request->has_humanoid = 1;
    return 1;
}

/* "bone": a name, or "role": a humanoid role, whose bone the request's humanoid gives. */
static int read_target_bone(const cJSON *json, const char *path, cli_request *request, cli_target *target, int *bone,
                            cli_error *err) {
    target->role = -1;
    if (!jr_get(json, "role")) return read_bone_name(json, path, "bone", request->rig, bone, err);
    char role_path[CLI_PATH_SIZE];
    jr_key_path(role_path, sizeof role_path, path, "role");
    if (jr_get(json, "bone")) return cli_fail(err, "%s: \"bone\" and \"role\" exclude each other (give one)", path);
    const char *name = NULL;
    if (!jr_get_string(json, path, "role", 1, &name, err)) return 0;
    int role = reach_humanoid_role_from_name(name);
    if (role < 0) {
        char roles[512];
        cli_role_names(roles, sizeof roles);
        return cli_fail(err, "%s: no role named '%s' (roles: %s)", role_path, name, roles);
    }
    if (!cli_request_humanoid(request, role_path, err)) return 0;
    *bone = request->humanoid.bones[role];
    if (*bone < 0) return cli_fail(err, "%s: the rig's humanoid has no %s bone", role_path, name);
    target->role = role;
    return 1;
}

/* An aim target: look_at, and the bone's forward and up axes and offset in its own frame. */
static int read_aim(const cJSON *json, const char *path, const cli_solver *solver, cli_target *target, cli_error *err) {
    static const char *const excluded[] = {"position", "orientation", "meet"};
    char field_path[CLI_PATH_SIZE];
    jr_key_path(field_path, sizeof field_path, path, "look_at");
    if (!solver->character)
        return cli_fail(err,
                        "%s: %s reaches for positions; the aim and full_body solvers turn a bone to look at a point",
                        field_path, solver->name);
    for (size_t k = 0; k < sizeof excluded / sizeof excluded[0]; k++)
        if (jr_get(json, excluded[k]))
            return cli_fail(err,
                            "%s: \"look_at\" and \"%s\" exclude each other (an aim turns its bone where it stands)",
                            path, excluded[k]);
    target->use_look_at = 1;
    target->forward = reach_vec3_make(0, 0, 1);
    target->up = reach_vec3_make(0, 1, 0);
    target->pole = reach_vec3_make(0, 1, 0);
    target->use_up = jr_get(json, "up") != NULL;
    target->use_offset = jr_get(json, "offset") != NULL;
    if (!jr_get_vec3(json, path, "look_at", 1, &target->look_at, err) ||
        !jr_get_vec3(json, path, "forward", 0, &target->forward, err) ||
        !jr_get_vec3(json, path, "up", 0, &target->up, err) ||
        !jr_get_vec3(json, path, "offset", 0, &target->offset, err))
        return 0;
    if (reach_vec3_max_abs(target->forward) == 0) return cli_fail(err, "%s.forward: must not be zero", path);
    reach_vec3 across = reach_vec3_cross(reach_vec3_normalize_safe(target->forward, reach_vec3_zero()),
                                         reach_vec3_normalize_safe(target->up, reach_vec3_zero()));
    if (!(reach_vec3_length(across) > REACH_R(1e-6)))
        return cli_fail(err, "%s.up: must not be zero or along forward", path);
    return 1;
}

/* forward, up and offset belong to aim targets. */
static int check_aim_fields(const cJSON *json, const char *path, cli_error *err) {
    static const char *const aim_only[] = {"forward", "up", "offset"};
    for (size_t k = 0; k < sizeof aim_only / sizeof aim_only[0]; k++)
        if (jr_get(json, aim_only[k]))
            return cli_fail(err, "%s.%s: only an aim target (with \"look_at\") has one", path, aim_only[k]);
    return 1;
}

static int read_target(const cJSON *json, const char *path, cli_request *request, cli_target *target, cli_error *err) {
    if (!jr_object(json, path, err) || !jr_check_fields(json, path, target_fields, err)) return 0;
    int bone = -1;
    reach_vec3 position = reach_vec3_zero();
    if (!read_target_bone(json, path, request, target, &bone, err)) return 0;
    int meets = jr_get(json, "meet") != NULL;
    int aims = jr_get(json, "look_at") != NULL;
    /* A rotation alone is a target for the character solvers; the others reach for a position. */
    int rotation_alone = request->solver->character && jr_get(json, "orientation") != NULL;
    target->use_position = jr_get(json, "position") != NULL;
    if (!meets && !aims && !rotation_alone && !jr_get_vec3(json, path, "position", 1, &position, err)) return 0;
    if (!jr_get_vec3(json, path, "position", 0, &position, err)) return 0;
    target->goal = reach_target_position(bone, position);
    if (aims ? !read_aim(json, path, request->solver, target, err) : !check_aim_fields(json, path, err)) return 0;
    if (meets && !read_meet(json, path, request->rig, target, err)) return 0;
    target->goal.use_orientation = jr_get(json, "orientation") != NULL;
    target->use_pole = jr_get(json, "pole") != NULL;
    if (!jr_get_quat(json, path, "orientation", 0, &target->goal.orientation, err) ||
        !jr_get_vec3(json, path, "pole", 0, &target->pole, err) ||
        !jr_get_number(json, path, "weight", 0, &target->goal.weight, err))
        return 0;
    if (target->goal.weight < 0) return cli_fail(err, "%s.weight: must not be negative", path);
    return 1;
}

static int read_targets(const cJSON *json, cli_request *request, cli_error *err) {
    const cJSON *targets = jr_get(json, "targets");
    if (!targets) return cli_fail(err, "targets: required field is missing");
    if (!jr_array(targets, "targets", err)) return 0;
    int count = cJSON_GetArraySize(targets);
    if (count == 0) return cli_fail(err, "targets: give at least one target");
    request->targets = calloc((size_t)count, sizeof *request->targets);
    if (!request->targets) return cli_fail(err, "out of memory reading targets");
    request->target_count = count;
    int i = 0;
    for (const cJSON *target = targets->child; target; target = target->next, i++) {
        char path[CLI_PATH_SIZE];
        jr_index_path(path, sizeof path, "targets", i);
        if (!read_target(target, path, request, &request->targets[i], err)) return 0;
    }
    return 1;
}

static const char *const request_fields[] = {"rig", "solver", "chain_root", "targets", "joints", "frame", NULL};

int cli_request_read(const cJSON *json, const cli_rig *rig, cli_request *request, cli_error *err) {
    memset(request, 0, sizeof *request);
    request->rig = rig;
    request->settings = reach_solver_default_settings();
    int ok = jr_object(json, "request", err) && jr_check_fields(json, "", request_fields, err) &&
             read_solver(json, request, err);
    if (ok && jr_get(json, "chain_root"))
        ok = read_bone_name(json, "", "chain_root", rig, &request->settings.root_bone, err);
    ok = ok && read_targets(json, request, err);
    if (ok) {
        request->pose = malloc((size_t)rig->bone_count * sizeof *request->pose);
        ok = request->pose ? cli_pose_read(json, rig, request->pose, err) : cli_fail(err, "out of memory");
    }
    if (!ok) cli_request_free(request);
    return ok;
}

void cli_request_free(cli_request *request) {
    free(request->targets);
    free(request->pose);
    memset(request, 0, sizeof *request);
}

/* x in 15 significant digits, or 17 where 15 do not read back the same double: short for the
 * numbers people type, and exact enough that a value a rounding outside a limit does not print
 * as the limit itself. */
typedef struct exact_text {
    char text[32];
} exact_text;

static exact_text exact(double x) {
    exact_text t;
    snprintf(t.text, sizeof t.text, "%.15g", x);
    if (strtod(t.text, NULL) != x) snprintf(t.text, sizeof t.text, "%.17g", x);
    return t;
}

/* The path a joint value goes by in messages: joints[n], or joints.NAME when given by name. */
static void value_path(const cli_rig *rig, int bone, int n, int by_name, char *path, size_t size) {
    if (by_name)
        jr_key_path(path, size, "joints", cli_rig_joint_name(rig, bone));
    else
        jr_index_path(path, size, "joints", n);
}

/* Where a bone's value sits in a joint-value vector. */
static int value_index_of(const cli_rig *rig, int bone) {
    int n = 0;
    for (int b = 0; b < bone; b++)
        n += reach_joint_has_value(rig->joints[b].type);
    return n;
}

/* Checks each value against its joint's limits, naming the bone, before the library sets them.
 * A mimic follower's own entry is not read: the value its leader's gives it is checked. */
static int check_joint_values(const cli_rig *rig, const reach_real *values, int by_name, cli_error *err) {
    int n = 0;
    for (int bone = 0; bone < rig->bone_count; bone++) {
        const reach_joint *joint = &rig->joints[bone];
        if (!reach_joint_has_value(joint->type)) continue;
        char path[CLI_PATH_SIZE];
        value_path(rig, bone, n, by_name, path, sizeof path);
        reach_real value = values[n++];
        if (joint->mimic) {
            int leader = joint->mimic_leader;
            reach_real derived = joint->mimic_multiplier * values[value_index_of(rig, leader)] + joint->mimic_offset;
            if (derived < joint->min || derived > joint->max)
                return cli_fail(err, "joints: '%s' follows '%s' (mimic) to %s, outside its limits [%s, %s]",
                                cli_rig_joint_name(rig, bone), cli_rig_joint_name(rig, leader), exact(derived).text,
                                exact(joint->min).text, exact(joint->max).text);
            continue;
        }
        if (value < joint->min || value > joint->max)
            return cli_fail(err, "%s: %s is outside the limits [%s, %s] of bone '%s' (%s)", path, exact(value).text,
                            exact(joint->min).text, exact(joint->max).text, rig->names[bone],
                            cli_joint_type_name(joint->type));
    }
    return 1;
}

static int read_joint_array(const cJSON *joints, const cli_rig *rig, reach_real *values, cli_error *err) {
    int expected = reach_skeleton_value_count(&rig->skeleton);
    int count = cJSON_GetArraySize(joints);
    if (count != expected)
        return cli_fail(err, "joints: expected %d value%s (one per hinge or prismatic joint, in bone order), got %d",
                        expected, expected == 1 ? "" : "s", count);
    int i = 0;
    for (const cJSON *value = joints->child; value; value = value->next, i++) {
        char path[CLI_PATH_SIZE];
        jr_index_path(path, sizeof path, "joints", i);
        if (!jr_number(value, path, &values[i], err)) return 0;
    }
    return check_joint_values(rig, values, 0, err);
}

/* The bone of the joint with a value named name (its joint's name, or its bone's), or -1. */
static int find_value_joint(const cli_rig *rig, const char *name) {
    for (int bone = 0; bone < rig->bone_count; bone++)
        if (reach_joint_has_value(rig->joints[bone].type) && strcmp(cli_rig_joint_name(rig, bone), name) == 0)
            return bone;
    return -1;
}

/* {"name": value, ...}: the named joints' values; those left out keep their rest value, brought
 * inside their limits where the rest lies outside (a Panda's fourth joint). */
static int read_joint_names(const cJSON *joints, const cli_rig *rig, const reach_transform *rest, reach_real *values,
                            cli_error *err) {
    reach_pose_get_values(&rig->skeleton, rest, values);
    int n = 0;
    for (int bone = 0; bone < rig->bone_count; bone++) {
        const reach_joint *joint = &rig->joints[bone];
        if (!reach_joint_has_value(joint->type)) continue;
        values[n] = reach_clamp(values[n], joint->min, joint->max);
        n++;
    }
    for (const cJSON *item = joints->child; item; item = item->next) {
        char path[CLI_PATH_SIZE];
        jr_key_path(path, sizeof path, "joints", item->string);
        int bone = find_value_joint(rig, item->string);
        if (bone < 0) return cli_fail(err, "%s: no hinge or prismatic joint named '%s'", path, item->string);
        if (rig->joints[bone].mimic)
            return cli_fail(err, "%s: '%s' follows '%s' (mimic): its value is derived, not given", path, item->string,
                            cli_rig_joint_name(rig, rig->joints[bone].mimic_leader));
        if (!jr_number(item, path, &values[value_index_of(rig, bone)], err)) return 0;
    }
    return check_joint_values(rig, values, 1, err);
}

/* "frame": N, the pose of a character's motion (0-based); absent: the rest. */
static int read_frame(const cJSON *json, const cli_rig *rig, reach_transform *pose, cli_error *err) {
    reach_pose_rest(&rig->skeleton, pose);
    const cJSON *frame = jr_get(json, "frame");
    if (!frame) return 1;
    if (rig->frame_count == 0)
        return cli_fail(err, "frame: the rig has no motion (only BVH, glTF and FBX characters do)");
    double n = cJSON_IsNumber(frame) ? frame->valuedouble : -1;
    if (!(n >= 0 && n < rig->frame_count) || n != (double)(int)n)
        return cli_fail(err, "frame: expected a frame number from 0 to %d", rig->frame_count - 1);
    memcpy(pose, rig->frames + (size_t)n * (size_t)rig->bone_count, (size_t)rig->bone_count * sizeof *pose);
    return 1;
}

int cli_pose_read(const cJSON *json, const cli_rig *rig, reach_transform *pose, cli_error *err) {
    if (!read_frame(json, rig, pose, err)) return 0;
    const cJSON *joints = jr_get(json, "joints");
    if (!joints) return 1;
    if (!cJSON_IsArray(joints) && !cJSON_IsObject(joints))
        return cli_fail(err, "joints: expected an array of values or an object of values by joint name");
    int count = reach_skeleton_value_count(&rig->skeleton);
    reach_real *values = malloc((size_t)(count > 0 ? count : 1) * sizeof *values);
    if (!values) return cli_fail(err, "out of memory reading joint values");
    int ok = cJSON_IsArray(joints) ? read_joint_array(joints, rig, values, err)
                                   : read_joint_names(joints, rig, pose, values, err);
    if (ok) {
        reach_status status = reach_pose_set_values(&rig->skeleton, values, count, 0, pose);
        if (status != REACH_OK) ok = cli_fail(err, "joints: %s", reach_status_string(status));
    }
    free(values);
    return ok;
}

/* Where a target wants its bone's joint: its position, or the joint of the bone it meets. */
static reach_vec3 goal_point(const reach_target *goal, const reach_transform *world) {
    return goal->kind == REACH_TARGET_MEET ? world[goal->meet_bone].translation : goal->position;
}

void cli_measure_targets(const cli_request *request, const reach_transform *world, reach_real tolerance,
                         reach_solve_result *result) {
    reach_real residual = 0, angle_residual = 0;
    for (int i = 0; i < request->target_count; i++) {
        const reach_target *goal = &request->targets[i].goal;
        reach_transform effector = world[goal->bone];
        reach_vec3 offset = reach_vec3_sub(effector.translation, goal_point(goal, world));
        residual = reach_max(residual, reach_vec3_length_robust(offset));
        if (goal->use_orientation)
            angle_residual = reach_max(angle_residual, reach_quat_angle_between(effector.rotation, goal->orientation));
    }
    result->residual = residual;
    result->angle_residual = angle_residual;
    result->reached = residual <= tolerance && angle_residual <= request->settings.angle_tolerance;
}
