#include "rig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

/* A rig from a file: {"urdf": PATH}, {"urdf_text": TEXT}, {"bvh": PATH}, {"gltf": PATH},
 * {"fbx": PATH} or {"file": PATH} (by extension). */
static int read_rig_file(const cJSON *json, const char *key, cli_rig *rig, cli_error *err) {
    const char *text = NULL;
    if (!jr_get_string(json, "rig", key, 1, &text, err)) return 0;
    if (strcmp(key, "urdf_text") == 0) return cli_rig_read_urdf_text(text, rig, err);
    if (strcmp(key, "fbx") == 0) return cli_rig_read_fbx_file(text, rig, err);
    if (strcmp(key, "bvh") == 0 || strcmp(key, "gltf") == 0) return cli_rig_read_character_file(text, rig, err);
    if (strcmp(key, "file") == 0 && !cli_is_rig_file_path(text))
        return cli_fail(err, "rig.file: '%s': unknown format (known: .urdf, .bvh, .gltf, .glb, .fbx)", text);
    return cli_rig_read_file(text, rig, err);
}

int cli_rig_read(const cJSON *json, cli_rig *rig, cli_error *err) {
    memset(rig, 0, sizeof *rig);
    if (!jr_object(json, "rig", err)) return 0;
    static const char *const fields[] = {"bones", "dh", "urdf", "urdf_text", "bvh", "gltf", "fbx", "file", NULL};
    const char *given = NULL;
    for (const char *const *field = fields; *field; field++) {
        if (!jr_get(json, *field)) continue;
        if (given) return cli_fail(err, "rig: give one of \"%s\" and \"%s\", not both", given, *field);
        given = *field;
    }
    if (!given)
        return cli_fail(err, "rig: expected a \"bones\" array, a \"dh\" table, or a file (\"urdf\", \"urdf_text\", "
                             "\"bvh\", \"gltf\", \"fbx\", \"file\")");
    if (!jr_check_fields(json, "rig", fields, err)) return 0;
    int ok = strcmp(given, "bones") == 0 ? cli_rig_read_bones(jr_get(json, given), rig, err)
             : strcmp(given, "dh") == 0  ? cli_rig_read_dh(jr_get(json, given), rig, err)
                                         : read_rig_file(json, given, rig, err);
    if (ok) return 1;
    cli_rig_free(rig);
    return 0;
}

const char *cli_rig_joint_name(const cli_rig *rig, int bone) {
    return rig->joint_names && rig->joint_names[bone] ? rig->joint_names[bone] : rig->names[bone];
}

void cli_rig_free(cli_rig *rig) {
    if (rig->names)
        for (int i = 0; i < rig->bone_count; i++)
            free(rig->names[i]);
    if (rig->joint_names)
        for (int i = 0; i < rig->bone_count; i++)
            free(rig->joint_names[i]);
    free(rig->names);
    free(rig->joint_names);
    free(rig->parents);
    free(rig->rest);
    free(rig->joints);
    free(rig->name_slots);
    free(rig->frames);
    memset(rig, 0, sizeof *rig);
}

/* FNV-1a. */
static size_t name_hash(const char *name) {
    uint64_t hash = 1469598103934665603u;
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        hash = (hash ^ *c) * 1099511628211u;
    return (size_t)hash;
}

/* The slot holding name, or the empty slot where it would go. */
static size_t name_slot(const cli_rig *rig, const char *name) {
    size_t slot = name_hash(name) & rig->slot_mask;
    while (rig->name_slots[slot] >= 0 && strcmp(rig->names[rig->name_slots[slot]], name) != 0)
        slot = (slot + 1) & rig->slot_mask;
    return slot;
}

int cli_rig_find_bone(const cli_rig *rig, const char *name) {
    if (!rig->name_slots) return -1;
    return rig->name_slots[name_slot(rig, name)];
}

int cli_rig_name_bone(cli_rig *rig, int bone, const char *name, cli_error *err) {
    rig->names[bone] = cli_strdup(name);
    if (!rig->names[bone]) return cli_fail(err, "out of memory reading bone names");
    rig->name_slots[name_slot(rig, name)] = bone;
    return 1;
}

int cli_rig_allocate(cli_rig *rig, int bone_count, cli_error *err) {
    size_t n = (size_t)bone_count;
    rig->bone_count = bone_count;
    rig->names = calloc(n, sizeof *rig->names);
    rig->parents = malloc(n * sizeof *rig->parents);
    rig->rest = malloc(n * sizeof *rig->rest);
    rig->joints = malloc(n * sizeof *rig->joints);
    size_t slots = 16;
    while (slots < 2 * n)
        slots *= 2;
    rig->slot_mask = slots - 1;
    rig->name_slots = malloc(slots * sizeof *rig->name_slots);
    if (!rig->names || !rig->parents || !rig->rest || !rig->joints || !rig->name_slots) {
        cli_rig_free(rig);
        return cli_fail(err, "out of memory reading a rig of %d bones", bone_count);
    }
    for (size_t slot = 0; slot < slots; slot++)
        rig->name_slots[slot] = -1;
    for (int i = 0; i < bone_count; i++) {
        rig->parents[i] = -1;
        rig->rest[i] = reach_transform_identity();
        rig->joints[i] = reach_joint_ball();
    }
    rig->skeleton.bone_count = bone_count;
    rig->skeleton.parents = rig->parents;
    rig->skeleton.rest = rig->rest;
    rig->skeleton.joints = rig->joints;
    return 1;
}

int cli_rig_validate(const cli_rig *rig, cli_error *err) {
    int bad = 0;
    reach_status status = reach_skeleton_validate(&rig->skeleton, &bad);
    if (status == REACH_OK) return 1;
    return cli_fail(err, "bones[%d]: %s", bad, reach_status_string(status));
}
