#include "json_read.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Paths are built for every field read, whether or not it is at fault, so they are put
 * together by hand: snprintf took about a sixth of a request's time. Both cut the path where
 * snprintf would (size - 1 characters and the NUL). */
static size_t append(char *buf, size_t size, size_t used, const char *text, size_t length) {
    if (used + 1 >= size) return used;
    if (length > size - 1 - used) length = size - 1 - used;
    memcpy(buf + used, text, length);
    buf[used + length] = '\0';
    return used + length;
}

void jr_key_path(char *buf, size_t size, const char *path, const char *key) {
    if (size == 0) return;
    buf[0] = '\0';
    size_t used = append(buf, size, 0, path, strlen(path));
    if (path[0] != '\0') used = append(buf, size, used, ".", 1);
    append(buf, size, used, key, strlen(key));
}

void jr_index_path(char *buf, size_t size, const char *path, int index) {
    if (size == 0) return;
    char digits[16], *first = digits + sizeof digits;
    unsigned magnitude = index < 0 ? 0u - (unsigned)index : (unsigned)index;
    do
        *--first = (char)('0' + magnitude % 10);
    while ((magnitude /= 10) != 0);
    if (index < 0) *--first = '-';
    buf[0] = '\0';
    size_t used = append(buf, size, 0, path, strlen(path));
    used = append(buf, size, used, "[", 1);
    used = append(buf, size, used, first, (size_t)(digits + sizeof digits - first));
    append(buf, size, used, "]", 1);
}

const char *jr_type_name(const cJSON *item) {
    if (cJSON_IsNull(item)) return "null";
    if (cJSON_IsBool(item)) return "a boolean";
    if (cJSON_IsNumber(item)) return "a number";
    if (cJSON_IsString(item)) return "a string";
    if (cJSON_IsArray(item)) return "an array";
    if (cJSON_IsObject(item)) return "an object";
    return "an unknown value";
}

const cJSON *jr_get(const cJSON *obj, const char *key) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNull(item) ? NULL : item;
}

int jr_object(const cJSON *item, const char *path, cli_error *err) {
    if (cJSON_IsObject(item)) return 1;
    return cli_fail(err, "%s: expected an object, got %s", path, jr_type_name(item));
}

int jr_array(const cJSON *item, const char *path, cli_error *err) {
    if (cJSON_IsArray(item)) return 1;
    return cli_fail(err, "%s: expected an array, got %s", path, jr_type_name(item));
}

static int name_in(const char *name, const char *const *allowed) {
    for (; *allowed; allowed++)
        if (strcmp(name, *allowed) == 0) return 1;
    return 0;
}

int jr_check_fields(const cJSON *obj, const char *path, const char *const *allowed, cli_error *err) {
    const char *where = path[0] ? path : "request";
    for (const cJSON *member = obj->child; member; member = member->next) {
        if (!name_in(member->string, allowed)) return cli_fail(err, "%s: unknown field '%s'", where, member->string);
        for (const cJSON *earlier = obj->child; earlier != member; earlier = earlier->next)
            if (strcmp(earlier->string, member->string) == 0)
                return cli_fail(err, "%s: field '%s' appears twice", where, member->string);
    }
    return 1;
}

int jr_number(const cJSON *item, const char *path, reach_real *out, cli_error *err) {
    if (!cJSON_IsNumber(item)) return cli_fail(err, "%s: expected a number, got %s", path, jr_type_name(item));
    if (!isfinite(item->valuedouble)) return cli_fail(err, "%s: number is not finite", path);
    *out = (reach_real)item->valuedouble;
    return 1;
}

int jr_numbers(const cJSON *item, const char *path, int min_count, int max_count, const char *what, reach_real *values,
               int *count, cli_error *err) {
    int n = cJSON_IsArray(item) ? cJSON_GetArraySize(item) : -1;
    if (n < min_count || n > max_count)
        return cli_fail(err, "%s: expected %s, got %s", path, what,
                        n < 0 ? jr_type_name(item) : "an array of another length");
    int i = 0;
    for (const cJSON *element = item->child; element; element = element->next, i++) {
        char element_path[CLI_PATH_SIZE];
        jr_index_path(element_path, sizeof element_path, path, i);
        if (!jr_number(element, element_path, &values[i], err)) return 0;
    }
    *count = n;
    return 1;
}

int jr_vec3(const cJSON *item, const char *path, reach_vec3 *out, cli_error *err) {
    reach_real v[3] = {0, 0, 0};
    int n;
    if (!jr_numbers(item, path, 2, 3, "[x, y, z] or [x, y]", v, &n, err)) return 0;
    *out = reach_vec3_make(v[0], v[1], v[2]);
    return 1;
}

int jr_quat(const cJSON *item, const char *path, reach_quat *out, cli_error *err) {
    reach_real v[4];
    int n;
    if (!jr_numbers(item, path, 4, 4, "a quaternion [x, y, z, w]", v, &n, err)) return 0;
    reach_quat q = reach_quat_make(v[0], v[1], v[2], v[3]);
    /* Only all-zero has no direction: tiny quaternions normalise safely (scaled first). */
    if (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0) return cli_fail(err, "%s: quaternion has length zero", path);
    *out = reach_quat_normalize_safe(q);
    return 1;
}

/* The member key of obj, or a "missing" error when it is required; *found says which. */
static int field(const cJSON *obj, const char *path, const char *key, int required, const cJSON **found,
                 char *field_path, size_t size, cli_error *err) {
    jr_key_path(field_path, size, path, key);
    *found = jr_get(obj, key);
    if (!*found && required) return cli_fail(err, "%s: required field is missing", field_path);
    return 1;
}

int jr_get_number(const cJSON *obj, const char *path, const char *key, int required, reach_real *out, cli_error *err) {
    char field_path[CLI_PATH_SIZE];
    const cJSON *item;
    if (!field(obj, path, key, required, &item, field_path, sizeof field_path, err)) return 0;
    return !item || jr_number(item, field_path, out, err);
}

int jr_get_int(const cJSON *obj, const char *path, const char *key, int min, int max, int *out, cli_error *err) {
    char field_path[CLI_PATH_SIZE];
    const cJSON *item;
    reach_real value = 0;
    if (!field(obj, path, key, 0, &item, field_path, sizeof field_path, err)) return 0;
    if (!item) return 1;
    if (!jr_number(item, field_path, &value, err)) return 0;
    if (value != floor(value) || value < min || value > max)
        return cli_fail(err, "%s: expected a whole number in [%d, %d]", field_path, min, max);
    *out = (int)value;
    return 1;
}

int jr_get_vec3(const cJSON *obj, const char *path, const char *key, int required, reach_vec3 *out, cli_error *err) {
    char field_path[CLI_PATH_SIZE];
    const cJSON *item;
    if (!field(obj, path, key, required, &item, field_path, sizeof field_path, err)) return 0;
    return !item || jr_vec3(item, field_path, out, err);
}

int jr_get_quat(const cJSON *obj, const char *path, const char *key, int required, reach_quat *out, cli_error *err) {
    char field_path[CLI_PATH_SIZE];
    const cJSON *item;
    if (!field(obj, path, key, required, &item, field_path, sizeof field_path, err)) return 0;
    return !item || jr_quat(item, field_path, out, err);
}

int jr_get_string(const cJSON *obj, const char *path, const char *key, int required, const char **out, cli_error *err) {
    char field_path[CLI_PATH_SIZE];
    const cJSON *item;
    if (!field(obj, path, key, required, &item, field_path, sizeof field_path, err)) return 0;
    if (!item) return 1;
    if (!cJSON_IsString(item)) return cli_fail(err, "%s: expected a string, got %s", field_path, jr_type_name(item));
    *out = item->valuestring;
    return 1;
}

int jr_get_bool(const cJSON *obj, const char *path, const char *key, int *out, cli_error *err) {
    char field_path[CLI_PATH_SIZE];
    const cJSON *item;
    if (!field(obj, path, key, 0, &item, field_path, sizeof field_path, err)) return 0;
    if (!item) return 1;
    if (!cJSON_IsBool(item)) return cli_fail(err, "%s: expected true or false, got %s", field_path, jr_type_name(item));
    *out = cJSON_IsTrue(item);
    return 1;
}
