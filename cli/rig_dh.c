/* The Denavit–Hartenberg rig: {"dh": {"convention": "standard" | "modified", "joints": [{"a",
 * "alpha", "d", "theta", "type", "min", "max", "name"}, ...], "tool": NAME}}, built by
 * reach_dh_build into a chain of one bone per row plus the tool bone (see include/reach/dh.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "rig.h"
#include "reach/dh.h"

static const char *const table_fields[] = {"convention", "joints", "tool", NULL};
static const char *const row_fields[] = {"a", "alpha", "d", "theta", "type", "min", "max", "name", NULL};

static int read_convention(const cJSON *dh, reach_dh_convention *convention, cli_error *err) {
    const char *name = NULL;
    if (!jr_get_string(dh, "dh", "convention", 1, &name, err)) return 0;
    if (strcmp(name, "standard") == 0) {
        *convention = REACH_DH_STANDARD;
        return 1;
    }
    if (strcmp(name, "modified") == 0) {
        *convention = REACH_DH_MODIFIED;
        return 1;
    }
    return cli_fail(err, "dh.convention: unknown convention '%s' (expected standard or modified)", name);
}

/* The joint's kind and the range of its value: radians for a revolute joint (default [-pi,
 * pi]), rig units for a prismatic one (required, as a slider has no natural range); a fixed row
 * has no value and so no range. */
static int read_joint_kind(const cJSON *json, const char *path, reach_dh_row *row, cli_error *err) {
    const char *type = "revolute";
    if (!jr_get_string(json, path, "type", 0, &type, err)) return 0;
    if (strcmp(type, "revolute") == 0) {
        row->type = REACH_DH_REVOLUTE;
        return cli_angle_range_read(json, path, &row->min, &row->max, err);
    }
    if (strcmp(type, "prismatic") == 0) {
        row->type = REACH_DH_PRISMATIC;
        return cli_range_read(json, path, 1, &row->min, &row->max, err);
    }
    if (strcmp(type, "fixed") == 0) {
        row->type = REACH_DH_FIXED;
        if (jr_get(json, "min") || jr_get(json, "max"))
            return cli_fail(err, "%s: a fixed joint has no value, so no min or max", path);
        return 1;
    }
    return cli_fail(err, "%s.type: unknown joint type '%s' (expected revolute, prismatic or fixed)", path, type);
}

static int read_row(const cJSON *json, const char *path, reach_dh_row *row, cli_error *err) {
    *row = reach_dh_default_row();
    if (!jr_object(json, path, err) || !jr_check_fields(json, path, row_fields, err)) return 0;
    if (!jr_get_number(json, path, "a", 0, &row->a, err) || !jr_get_number(json, path, "alpha", 0, &row->alpha, err) ||
        !jr_get_number(json, path, "d", 0, &row->d, err) || !jr_get_number(json, path, "theta", 0, &row->theta, err) ||
        !jr_get_string(json, path, "name", 0, &row->name, err))
        return 0;
    if (row->name && row->name[0] == '\0') return cli_fail(err, "%s.name: a bone name cannot be empty", path);
    return read_joint_kind(json, path, row, err);
}

static int read_rows(const cJSON *joints, reach_dh_row *rows, cli_error *err) {
    int i = 0;
    for (const cJSON *json = joints->child; json; json = json->next, i++) {
        char path[CLI_PATH_SIZE];
        jr_index_path(path, sizeof path, "dh.joints", i);
        if (!read_row(json, path, &rows[i], err)) return 0;
    }
    return 1;
}

/* Where a name is given: "dh.joints[i].name", or "dh.tool" for the tool bone. */
static void name_path(char *buf, size_t size, int bone, int row_count) {
    if (bone == row_count)
        snprintf(buf, size, "dh.tool");
    else
        snprintf(buf, size, "dh.joints[%d].name", bone);
}

/* Every bone's name, unique, as reach_dh_bone_name gives it. */
static int name_bones(const reach_dh_table *table, cli_rig *rig, cli_error *err) {
    for (int bone = 0; bone < rig->bone_count; bone++) {
        char buffer[32], path[CLI_PATH_SIZE];
        const char *name = reach_dh_bone_name(table, bone, buffer, sizeof buffer);
        int earlier = cli_rig_find_bone(rig, name);
        if (earlier >= 0) {
            char earlier_path[CLI_PATH_SIZE];
            name_path(path, sizeof path, bone, table->row_count);
            name_path(earlier_path, sizeof earlier_path, earlier, table->row_count);
            return cli_fail(err, "%s: duplicate bone name '%s' (also %s)", path, name, earlier_path);
        }
        if (!cli_rig_name_bone(rig, bone, name, err)) return 0;
    }
    return 1;
}

static int build(const reach_dh_table *table, cli_rig *rig, cli_error *err) {
    int bad_row = 0;
    reach_status status =
        reach_dh_build(table, rig->parents, rig->rest, rig->joints, rig->bone_count, &rig->skeleton, &bad_row);
    if (status != REACH_OK) return cli_fail(err, "dh.joints[%d]: %s", bad_row, reach_status_string(status));
    return name_bones(table, rig, err) && cli_rig_validate(rig, err);
}

int cli_rig_read_dh(const cJSON *dh, cli_rig *rig, cli_error *err) {
    reach_dh_table table = {REACH_DH_STANDARD, 0, NULL, NULL};
    if (!jr_object(dh, "dh", err) || !jr_check_fields(dh, "dh", table_fields, err) ||
        !read_convention(dh, &table.convention, err) || !jr_get_string(dh, "dh", "tool", 0, &table.tool_name, err))
        return 0;
    if (table.tool_name && table.tool_name[0] == '\0') return cli_fail(err, "dh.tool: a bone name cannot be empty");
    const cJSON *joints = jr_get(dh, "joints");
    if (!joints) return cli_fail(err, "dh.joints: required field is missing");
    if (!jr_array(joints, "dh.joints", err)) return 0;
    table.row_count = cJSON_GetArraySize(joints);
    if (table.row_count == 0) return cli_fail(err, "dh.joints: a table needs at least one joint");
    reach_dh_row *rows = malloc((size_t)table.row_count * sizeof *rows);
    if (!rows) return cli_fail(err, "out of memory reading a table of %d joints", table.row_count);
    table.rows = rows;
    int ok = read_rows(joints, rows, err) && cli_rig_allocate(rig, table.row_count + 1, err) && build(&table, rig, err);
    free(rows);
    return ok;
}
