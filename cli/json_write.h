/* Compact JSON text of a cJSON tree, as cJSON_PrintUnformatted lays it out, with every number
 * the shortest text that reads back to the same double (number_format.h), in one pass. */
#ifndef REACH_CLI_JSON_WRITE_H
#define REACH_CLI_JSON_WRITE_H

#include <stddef.h>

#include <cJSON.h>

typedef enum cli_json_write_status {
    CLI_JSON_WRITTEN,
    CLI_JSON_NOT_FINITE, /* a NaN or an infinity, which JSON cannot carry */
    CLI_JSON_NO_MEMORY,
    CLI_JSON_INVALID /* an item that is no JSON value (cJSON's invalid or raw items) */
} cli_json_write_status;

/* The text of item in a new allocation (*text, *length, NUL-terminated; the caller frees it),
 * or a status saying why there is none. Zero of either sign is written 0. */
cli_json_write_status cli_json_write(const cJSON *item, char **text, size_t *length);

#endif
