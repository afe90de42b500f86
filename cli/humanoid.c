#include "humanoid.h"

#include <string.h>

#include "json_read.h"

void cli_role_names(char *buf, size_t size) {
    buf[0] = '\0';
    for (int role = 0; role < REACH_ROLE_COUNT; role++) {
        if (role > 0) strncat(buf, ", ", size - strlen(buf) - 1);
        strncat(buf, reach_humanoid_role_name((reach_humanoid_role)role), size - strlen(buf) - 1);
    }
}

static int unknown_role(const char *path, const char *name, cli_error *err) {
    char roles[512];
    cli_role_names(roles, sizeof roles);
    return cli_fail(err, "%s: no role named '%s' (roles: %s)", path, name, roles);
}

static int find_auto(const char *path, const cli_rig *rig, reach_humanoid *out, cli_error *err) {
    int missing = -1;
    if (reach_humanoid_find(&rig->skeleton, (const char *const *)rig->names, out, &missing) == REACH_OK) return 1;
    return cli_fail(err,
                    "%s: no bone for the role '%s' found from the bone names; name the roles with a map such as "
                    "{\"%s\": \"<bone>\", ...}",
                    path, reach_humanoid_role_name((reach_humanoid_role)missing),
                    reach_humanoid_role_name((reach_humanoid_role)missing));
}

/* Why reach_humanoid_validate refused a map, at the role it names. */
static int bad_map(const char *path, const cli_rig *rig, const reach_humanoid *h, int role, cli_error *err) {
    const char *name = reach_humanoid_role_name((reach_humanoid_role)role);
    if (role < 0 || role >= REACH_ROLE_COUNT) return cli_fail(err, "%s: the map is not a humanoid", path);
    if (h->bones[role] < 0) return cli_fail(err, "%s: the map gives no bone for the role '%s' (required)", path, name);
    for (int other = 0; other < REACH_ROLE_COUNT; other++)
        if (other != role && h->bones[other] == h->bones[role])
            return cli_fail(err, "%s.%s: bone '%s' is also the %s", path, name, rig->names[h->bones[role]],
                            reach_humanoid_role_name((reach_humanoid_role)other));
    return cli_fail(err,
                    "%s.%s: bone '%s' is out of order (each limb hangs from the hips in order, the head above the "
                    "spine and neck)",
                    path, name, rig->names[h->bones[role]]);
}

static int read_map(const cJSON *map, const char *path, const cli_rig *rig, reach_humanoid *out, cli_error *err) {
    reach_humanoid h;
    for (int role = 0; role < REACH_ROLE_COUNT; role++)
        h.bones[role] = -1;
    for (const cJSON *item = map->child; item; item = item->next) {
        char item_path[CLI_PATH_SIZE];
        jr_key_path(item_path, sizeof item_path, path, item->string);
        int role = reach_humanoid_role_from_name(item->string);
        if (role < 0) return unknown_role(item_path, item->string, err);
        if (h.bones[role] >= 0) return cli_fail(err, "%s: the role appears twice", item_path);
        if (!cJSON_IsString(item))
            return cli_fail(err, "%s: expected a bone name, got %s", item_path, jr_type_name(item));
        h.bones[role] = cli_rig_find_bone(rig, item->valuestring);
        if (h.bones[role] < 0) return cli_fail(err, "%s: no bone named '%s'", item_path, item->valuestring);
    }
    int bad_role = -1;
    if (reach_humanoid_validate(&rig->skeleton, &h, &bad_role) != REACH_OK)
        return bad_map(path, rig, &h, bad_role, err);
    *out = h;
    return 1;
}

int cli_humanoid_read(const cJSON *spec, const char *path, const cli_rig *rig, reach_humanoid *out, cli_error *err) {
    if (!spec || (cJSON_IsString(spec) && strcmp(spec->valuestring, "auto") == 0))
        return find_auto(path, rig, out, err);
    if (cJSON_IsObject(spec)) return read_map(spec, path, rig, out, err);
    return cli_fail(err, "%s: expected \"auto\" or a map of roles to bone names, got %s", path,
                    cJSON_IsString(spec) ? "another string" : jr_type_name(spec));
}
