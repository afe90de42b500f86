/* `reach retarget`'s inputs: the --map file, the target (a URDF robot or a character file) and
 * the source clips (BVH, glTF, GLB), each with its humanoid roles: found from the bone names,
 * with the map's names winning. Errors name the role or the bone that could not be mapped. */
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "json_read.h"
#include "reach/bvh.h"
#include "reach/gltf.h"
#include "retarget.h"

static int read_roles(const cJSON *json, const char *path, const char **bones, cli_error *err) {
    if (!jr_object(json, path, err)) return 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, json) {
        int role = reach_humanoid_role_from_name(item->string);
        if (role < 0)
            return cli_fail(err, "%s: '%s' is no humanoid role (hips, spine, ..., left_hand, ...)", path, item->string);
        if (!cJSON_IsString(item)) return cli_fail(err, "%s.%s: expected a bone name", path, item->string);
        bones[role] = item->valuestring;
    }
    return 1;
}

static int read_axes(const cJSON *json, const char *up_key, const char *forward_key, int *has, reach_vec3 *up,
                     reach_vec3 *forward, cli_error *err) {
    int has_up = jr_get(json, up_key) != NULL, has_forward = jr_get(json, forward_key) != NULL;
    if (!has_up && !has_forward) return 1;
    if (!has_up || !has_forward) return cli_fail(err, "map: give %s and %s together", up_key, forward_key);
    if (!jr_get_vec3(json, "map", up_key, 1, up, err) || !jr_get_vec3(json, "map", forward_key, 1, forward, err))
        return 0;
    if (reach_vec3_length(reach_vec3_cross(*up, *forward)) <
            REACH_R(1e-6) * reach_vec3_length(*up) * reach_vec3_length(*forward) ||
        reach_vec3_length(*up) == 0)
        return cli_fail(err, "map: %s and %s must be non-zero and not parallel", up_key, forward_key);
    *has = 1;
    return 1;
}

int cli_retarget_map_read(const char *path, cli_retarget_map *map, cli_error *err) {
    memset(map, 0, sizeof *map);
    if (!path) return 1;
    char *text = NULL;
    size_t length = 0;
    if (!cli_read_file(path, NULL, &text, &length, err)) return 0;
    cJSON *json = cli_parse_json(text, length, 1, err);
    free(text);
    if (!json) return 0;
    map->json = json;
    if (!jr_object(json, "map", err)) return 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, json) {
        const char *key = item->string;
        if (strcmp(key, "source") == 0) {
            if (!read_roles(item, "map.source", map->source_bones, err)) return 0;
        } else if (strcmp(key, "target") == 0) {
            if (!read_roles(item, "map.target", map->target_bones, err)) return 0;
        } else if (reach_humanoid_role_from_name(key) >= 0) {
            /* A role at the top names the target's bone: the side a map is most often for. */
            if (!cJSON_IsString(item)) return cli_fail(err, "map.%s: expected a bone name", key);
            map->target_bones[reach_humanoid_role_from_name(key)] = item->valuestring;
        } else if (strcmp(key, "source_up") != 0 && strcmp(key, "source_forward") != 0 &&
                   strcmp(key, "target_up") != 0 && strcmp(key, "target_forward") != 0) {
            return cli_fail(err,
                            "map: unknown field '%s' (expected source, target, a role, or source_up, "
                            "source_forward, target_up, target_forward)",
                            key);
        }
    }
    return read_axes(json, "source_up", "source_forward", &map->has_source_axes, &map->source_up, &map->source_forward,
                     err) &&
           read_axes(json, "target_up", "target_forward", &map->has_target_axes, &map->target_up, &map->target_forward,
                     err);
}

void cli_retarget_map_free(cli_retarget_map *map) {
    cJSON_Delete((cJSON *)map->json);
    memset(map, 0, sizeof *map);
}

/* The roles of a rig: found from its names where they can be, the map's names winning. */
static int find_roles(const cli_rig *rig, const char *const *given, const char *side, reach_humanoid *roles,
                      cli_error *err) {
    int missing = -1;
    if (reach_humanoid_find(&rig->skeleton, (const char *const *)rig->names, roles, &missing) != REACH_OK) {
        for (int r = 0; r < REACH_ROLE_COUNT; r++)
            roles->bones[r] = -1;
    }
    for (int r = 0; r < REACH_ROLE_COUNT; r++) {
        if (!given[r]) continue;
        int bone = cli_rig_find_bone(rig, given[r]);
        if (bone < 0)
            return cli_fail(err, "map.%s.%s: no bone named '%s'", side,
                            reach_humanoid_role_name((reach_humanoid_role)r), given[r]);
        roles->bones[r] = bone;
    }
    int bad = -1;
    if (reach_humanoid_validate(&rig->skeleton, roles, &bad) == REACH_OK) return 1;
    const char *role = bad >= 0 ? reach_humanoid_role_name((reach_humanoid_role)bad) : "?";
    if (bad >= 0 && roles->bones[bad] < 0)
        return cli_fail(err, "%s: no bone found for the role '%s' (give it with --map: {\"%s\": {\"%s\": \"BONE\"}})",
                        side, role, side, role);
    return cli_fail(err,
                    "%s: the role '%s' on bone '%s' is not in order with the other roles (a limb's bones must "
                    "descend one from another, from the hips)",
                    side, role, bad >= 0 ? rig->names[roles->bones[bad]] : "?");
}

int cli_retarget_target_read(const char *path, const cli_retarget_map *map, cli_retarget_target *target,
                             cli_error *err) {
    memset(target, 0, sizeof *target);
    if (!cli_is_rig_file_path(path))
        return cli_fail(err, "retarget: TARGET '%s': expected a .urdf, .bvh, .gltf or .glb", path);
    cli_rig_set_folder(NULL);
    if (!cli_rig_read_file(path, &target->rig, err)) return 0;
    target->robot = cli_is_urdf_path(path);
    if (find_roles(&target->rig, map->target_bones, "target", &target->roles, err)) return 1;
    cli_rig_free(&target->rig);
    return 0;
}

void cli_retarget_target_free(cli_retarget_target *target) { cli_rig_free(&target->rig); }

static int ends_with(const char *path, const char *suffix) {
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && strcmp(path + n - k, suffix) == 0;
}

int cli_retarget_source_read(const char *path, const cli_retarget_map *map, cli_retarget_source *source,
                             cli_error *err) {
    memset(source, 0, sizeof *source);
    if (!cli_is_character_path(path))
        return cli_fail(err, "retarget: SOURCE '%s': expected a clip (.bvh, .gltf or .glb)", path);
    char message[CLI_MESSAGE_SIZE - 32];
    reach_status status;
    int ok;
    if (ends_with(path, ".bvh")) {
        reach_rig rig;
        status = reach_bvh_read_file(path, &rig, &source->clip, message, sizeof message);
        ok = status == REACH_OK ? cli_rig_copy_read(&rig, &source->rig, err) : cli_fail(err, "source: %s", message);
        reach_rig_free(&rig);
    } else {
        reach_gltf_character character;
        status = reach_gltf_read_file(path, -1, 0, &character, message, sizeof message);
        ok = status == REACH_OK ? cli_rig_copy_read(&character.rig, &source->rig, err)
                                : cli_fail(err, "source: %s", message);
        if (ok && character.clip_count == 0) ok = cli_fail(err, "source: '%s' has no animation", path);
        if (ok) {
            source->clip = character.clips[0];
            memset(&character.clips[0], 0, sizeof character.clips[0]);
        }
        reach_gltf_free(&character);
    }
    ok = ok && find_roles(&source->rig, map->source_bones, "source", &source->roles, err);
    if (!ok) cli_retarget_source_free(source);
    return ok;
}

void cli_retarget_source_free(cli_retarget_source *source) {
    cli_rig_free(&source->rig);
    reach_clip_free(&source->clip);
}

reach_retarget_settings cli_retarget_settings(const cli_retarget_source *source, const cli_retarget_target *target,
                                              const cli_retarget_map *map) {
    reach_retarget_settings s = reach_retarget_default_settings();
    if (map->has_source_axes) {
        s.source_up = map->source_up;
        s.source_forward = map->source_forward;
    }
    if (map->has_target_axes) {
        s.target_up = map->target_up;
        s.target_forward = map->target_forward;
    } else if (target->robot) {
        /* REP 103: x forward, y left, z up. */
        s.target_up = reach_vec3_make(0, 0, 1);
        s.target_forward = reach_vec3_make(1, 0, 0);
    }
    /* The ground: the lowest any joint comes over the clip (a rest pose need not stand on it). */
    const reach_skeleton *skeleton = &source->rig.skeleton;
    reach_vec3 up = reach_vec3_normalize_safe(s.source_up, reach_vec3_make(0, 1, 0));
    reach_transform *world = malloc((size_t)skeleton->bone_count * sizeof *world);
    if (!world) return s;
    for (int f = 0; f < source->clip.frame_count; f++) {
        reach_forward_kinematics(skeleton, reach_clip_frame(&source->clip, f), world);
        for (int b = 0; b < skeleton->bone_count; b++) {
            reach_real height = reach_vec3_dot(world[b].translation, up);
            if (!s.source_ground_given || height < s.source_ground) s.source_ground = height;
            s.source_ground_given = 1;
        }
    }
    free(world);
    return s;
}
