/* A bone's "joint" object: {"type": "ball" | "hinge" | "cone" | "prismatic" | "fixed", ...}. */
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "rig.h"

/* A joint axis, normalised: a file may give any non-zero direction. */
static int read_axis(const cJSON *json, const char *path, reach_vec3 *axis, cli_error *err) {
    if (!jr_get_vec3(json, path, "axis", 1, axis, err)) return 0;
    reach_vec3 unit = reach_vec3_normalize_safe(*axis, reach_vec3_zero());
    if (reach_vec3_length_sq(unit) == 0) return cli_fail(err, "%s.axis: axis has length zero", path);
    *axis = unit;
    return 1;
}

int cli_range_read(const cJSON *json, const char *path, int required, reach_real *min, reach_real *max,
                   cli_error *err) {
    if (!jr_get_number(json, path, "min", required, min, err) || !jr_get_number(json, path, "max", required, max, err))
        return 0;
    if (*min > *max) return cli_fail(err, "%s: min (%g) is greater than max (%g)", path, *min, *max);
    return 1;
}

static int read_ball(const cJSON *json, const char *path, reach_joint *out, cli_error *err) {
    (void)json, (void)path, (void)err;
    *out = reach_joint_ball();
    return 1;
}

static int read_fixed(const cJSON *json, const char *path, reach_joint *out, cli_error *err) {
    (void)json, (void)path, (void)err;
    *out = reach_joint_fixed();
    return 1;
}

/* Without limits a joint turns freely: [-pi, pi] covers every angle once. */
int cli_angle_range_read(const cJSON *json, const char *path, reach_real *min, reach_real *max, cli_error *err) {
    *min = -REACH_PI;
    *max = REACH_PI;
    if (!cli_range_read(json, path, 0, min, max, err)) return 0;
    if (*min < -2 * REACH_PI || *max > 2 * REACH_PI)
        return cli_fail(err, "%s: angle limits must lie within [-2*pi, 2*pi] radians", path);
    return 1;
}

static int read_hinge(const cJSON *json, const char *path, reach_joint *out, cli_error *err) {
    reach_vec3 axis;
    reach_real min, max;
    if (!read_axis(json, path, &axis, err) || !cli_angle_range_read(json, path, &min, &max, err)) return 0;
    *out = reach_joint_hinge(axis, min, max);
    return 1;
}

/* A slider has no natural range, so its limits are required. */
static int read_prismatic(const cJSON *json, const char *path, reach_joint *out, cli_error *err) {
    reach_vec3 axis;
    reach_real min = 0, max = 0;
    if (!read_axis(json, path, &axis, err) || !cli_range_read(json, path, 1, &min, &max, err)) return 0;
    *out = reach_joint_prismatic(axis, min, max);
    return 1;
}

static int read_cone(const cJSON *json, const char *path, reach_joint *out, cli_error *err) {
    reach_vec3 axis;
    reach_real angle = 0;
    if (!read_axis(json, path, &axis, err) || !jr_get_number(json, path, "angle", 1, &angle, err)) return 0;
    if (angle < 0 || angle > REACH_PI) return cli_fail(err, "%s.angle: must lie within [0, pi] radians", path);
    const cJSON *twist = jr_get(json, "twist");
    if (!twist) {
        *out = reach_joint_cone(axis, angle);
        return 1;
    }
    char twist_path[CLI_PATH_SIZE];
    reach_real range[2];
    int count;
    jr_key_path(twist_path, sizeof twist_path, path, "twist");
    if (!jr_numbers(twist, twist_path, 2, 2, "[min, max]", range, &count, err)) return 0;
    if (range[0] > range[1] || range[0] < -REACH_PI || range[1] > REACH_PI)
        return cli_fail(err, "%s: expected min <= max within [-pi, pi] radians", twist_path);
    *out = reach_joint_cone_twist(axis, angle, range[0], range[1]);
    return 1;
}

typedef struct joint_kind {
    const char *name;
    reach_joint_type type;
    const char *const *fields;
    int (*read)(const cJSON *json, const char *path, reach_joint *out, cli_error *err);
} joint_kind;

static const char *const plain_fields[] = {"type", NULL};
static const char *const ranged_fields[] = {"type", "axis", "min", "max", NULL};
static const char *const cone_fields[] = {"type", "axis", "angle", "twist", NULL};

static const joint_kind joint_kinds[] = {
    {"ball", REACH_JOINT_BALL, plain_fields, read_ball},
    {"hinge", REACH_JOINT_HINGE, ranged_fields, read_hinge},
    {"cone", REACH_JOINT_CONE, cone_fields, read_cone},
    {"prismatic", REACH_JOINT_PRISMATIC, ranged_fields, read_prismatic},
    {"fixed", REACH_JOINT_FIXED, plain_fields, read_fixed},
};

int cli_joint_read(const cJSON *json, const char *path, reach_joint *out, cli_error *err) {
    const char *type = NULL;
    if (!jr_object(json, path, err) || !jr_get_string(json, path, "type", 1, &type, err)) return 0;
    for (size_t k = 0; k < sizeof joint_kinds / sizeof joint_kinds[0]; k++) {
        if (strcmp(type, joint_kinds[k].name) != 0) continue;
        return jr_check_fields(json, path, joint_kinds[k].fields, err) && joint_kinds[k].read(json, path, out, err);
    }
    return cli_fail(err, "%s.type: unknown joint type '%s' (expected ball, hinge, cone, prismatic or fixed)", path,
                    type);
}

const char *cli_joint_type_name(reach_joint_type type) {
    for (size_t k = 0; k < sizeof joint_kinds / sizeof joint_kinds[0]; k++)
        if (joint_kinds[k].type == type) return joint_kinds[k].name;
    return "unknown";
}
