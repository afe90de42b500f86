/* The bone-list rig: {"bones": [{"name", "parent", "position", "rotation", "joint"}, ...]},
 * parents listed before their children. */
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "rig.h"

static const char *const bone_fields[] = {"name", "parent", "position", "rotation", "joint", NULL};

/* Pass one: every bone's name, so that parents can be looked up (and misordered ones named). */
static int read_names(const cJSON *bones, cli_rig *rig, cli_error *err) {
    int i = 0;
    for (const cJSON *bone = bones->child; bone; bone = bone->next, i++) {
        char path[CLI_PATH_SIZE];
        const char *name = NULL;
        jr_index_path(path, sizeof path, "bones", i);
        if (!jr_object(bone, path, err) || !jr_check_fields(bone, path, bone_fields, err) ||
            !jr_get_string(bone, path, "name", 1, &name, err))
            return 0;
        if (name[0] == '\0') return cli_fail(err, "%s.name: a bone name cannot be empty", path);
        int earlier = cli_rig_find_bone(rig, name);
        if (earlier >= 0)
            return cli_fail(err, "%s.name: duplicate bone name '%s' (also bones[%d])", path, name, earlier);
        if (!cli_rig_name_bone(rig, i, name, err)) return 0;
    }
    return 1;
}

/* The parent name of a bone, NULL for a root (absent or null). */
static int parent_name(const cJSON *bone, const char *path, const char **name, cli_error *err) {
    const cJSON *parent = jr_get(bone, "parent");
    *name = NULL;
    if (!parent) return 1;
    if (!cJSON_IsString(parent))
        return cli_fail(err, "%s.parent: expected a bone name (a string) or null, got %s", path, jr_type_name(parent));
    *name = parent->valuestring;
    return 1;
}

/* Bone `child` names a parent listed after it. Explains why that is wrong: either the parents
 * loop back to `child` (a cycle, spelt out), or the list is merely out of order. */
static int misordered_parent(const cJSON *bones, const cli_rig *rig, int child, int parent, cli_error *err) {
    char cycle[CLI_MESSAGE_SIZE / 2];
    int used = snprintf(cycle, sizeof cycle, "'%s'", rig->names[child]);
    int bone = parent;
    for (int steps = 0; steps < rig->bone_count && bone >= 0; steps++) {
        if (used >= 0 && (size_t)used < sizeof cycle)
            used += snprintf(cycle + used, sizeof cycle - (size_t)used, " -> '%s'", rig->names[bone]);
        if (bone == child) return cli_fail(err, "bones[%d].parent: the parents form a cycle: %s", child, cycle);
        const char *next = NULL;
        cli_error ignored = {""};
        if (!parent_name(cJSON_GetArrayItem(bones, bone), "", &next, &ignored) || !next) break;
        bone = cli_rig_find_bone(rig, next);
    }
    return cli_fail(err, "bones[%d].parent: '%s' is listed after this bone; list parents before their children", child,
                    rig->names[parent]);
}

/* Pass two: parents, transforms and joints. */
static int read_bone(const cJSON *bones, const cJSON *bone, int i, cli_rig *rig, cli_error *err) {
    char path[CLI_PATH_SIZE];
    const char *parent = NULL;
    jr_index_path(path, sizeof path, "bones", i);
    if (!parent_name(bone, path, &parent, err)) return 0;
    if (parent) {
        int p = cli_rig_find_bone(rig, parent);
        if (p < 0) return cli_fail(err, "%s.parent: no bone named '%s'", path, parent);
        if (p == i) return cli_fail(err, "%s.parent: the bone '%s' cannot be its own parent", path, parent);
        if (p > i) return misordered_parent(bones, rig, i, p, err);
        rig->parents[i] = p;
    }
    if (!jr_get_vec3(bone, path, "position", 0, &rig->rest[i].translation, err) ||
        !jr_get_quat(bone, path, "rotation", 0, &rig->rest[i].rotation, err))
        return 0;
    const cJSON *joint = jr_get(bone, "joint");
    if (joint) {
        char joint_path[CLI_PATH_SIZE];
        jr_key_path(joint_path, sizeof joint_path, path, "joint");
        if (!cli_joint_read(joint, joint_path, &rig->joints[i], err)) return 0;
    }
    return 1;
}

int cli_rig_read_bones(const cJSON *bones, cli_rig *rig, cli_error *err) {
    if (!jr_array(bones, "bones", err)) return 0;
    int count = cJSON_GetArraySize(bones);
    if (count == 0) return cli_fail(err, "bones: a rig needs at least one bone");
    if (!cli_rig_allocate(rig, count, err) || !read_names(bones, rig, err)) return 0;
    int i = 0;
    for (const cJSON *bone = bones->child; bone; bone = bone->next, i++)
        if (!read_bone(bones, bone, i, rig, err)) return 0;
    return cli_rig_validate(rig, err);
}
