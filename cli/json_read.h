/* Typed reads of JSON fields, each of which names the field at fault when the input is wrong.
 *
 * A path is where a value sits in the request, as the user would write it ("bones[2]",
 * "targets[0]"); messages read "bones[2].parent: ...". Optional fields that are absent or
 * null leave *out as the caller initialised it: JSON writers often emit null for "not given".
 * Every number must be finite (cJSON reads 1e999 as infinity) and vectors and quaternions are
 * checked as a whole, so nothing non-finite reaches the solvers. */
#ifndef REACH_CLI_JSON_READ_H
#define REACH_CLI_JSON_READ_H

#include <cJSON.h>

#include "error.h"
#include "reach/vecmath.h"

#define CLI_PATH_SIZE 256

/* "path.key", or "key" when path is empty. */
void jr_key_path(char *buf, size_t size, const char *path, const char *key);
/* "path[index]". */
void jr_index_path(char *buf, size_t size, const char *path, int index);

/* "a string", "a number", "null", ... for messages. */
const char *jr_type_name(const cJSON *item);

/* The member key of obj; NULL when it is absent or null. */
const cJSON *jr_get(const cJSON *obj, const char *key);

/* Fails unless item is a JSON object / array. */
int jr_object(const cJSON *item, const char *path, cli_error *err);
int jr_array(const cJSON *item, const char *path, cli_error *err);

/* Fails on a member whose name is not in allowed (NULL-terminated) or that appears twice, so a
 * misspelt option is an error instead of being silently ignored. */
int jr_check_fields(const cJSON *obj, const char *path, const char *const *allowed, cli_error *err);

/* Item-level reads. */
int jr_number(const cJSON *item, const char *path, reach_real *out, cli_error *err);
/* An array of min_count to max_count finite numbers into values (what describes it in the
 * message, e.g. "[min, max]"); *count receives how many. */
int jr_numbers(const cJSON *item, const char *path, int min_count, int max_count, const char *what, reach_real *values,
               int *count, cli_error *err);
/* [x, y, z], or [x, y] read as z = 0. */
int jr_vec3(const cJSON *item, const char *path, reach_vec3 *out, cli_error *err);
/* [x, y, z, w], normalised; zero length is an error. */
int jr_quat(const cJSON *item, const char *path, reach_quat *out, cli_error *err);

/* Field reads: the member key of obj at path. required: absent is an error. */
int jr_get_number(const cJSON *obj, const char *path, const char *key, int required, reach_real *out, cli_error *err);
int jr_get_int(const cJSON *obj, const char *path, const char *key, int min, int max, int *out, cli_error *err);
int jr_get_vec3(const cJSON *obj, const char *path, const char *key, int required, reach_vec3 *out, cli_error *err);
int jr_get_quat(const cJSON *obj, const char *path, const char *key, int required, reach_quat *out, cli_error *err);
int jr_get_string(const cJSON *obj, const char *path, const char *key, int required, const char **out, cli_error *err);
/* true or false into *out (1 or 0); optional. */
int jr_get_bool(const cJSON *obj, const char *path, const char *key, int *out, cli_error *err);

#endif
