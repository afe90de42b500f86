/* Compact JSON text, as cJSON_PrintUnformatted lays it out, with every number the shortest text
 * that reads back to the same double (number_format.h): of a cJSON tree, or put together piece
 * by piece where building a tree first would cost more than the text (a pose's hundreds of
 * numbers), in one pass. */
#ifndef REACH_CLI_JSON_WRITE_H
#define REACH_CLI_JSON_WRITE_H

#include <stddef.h>

#include <cJSON.h>

typedef enum cli_json_write_status {
    CLI_JSON_WRITTEN,
    CLI_JSON_NOT_FINITE, /* a NaN or an infinity, which JSON cannot carry */
    CLI_JSON_NO_MEMORY,
    CLI_JSON_INVALID /* an item that is no JSON value (cJSON's invalid items) */
} cli_json_write_status;

/* Text being written: start from {NULL, 0, 0, CLI_JSON_WRITTEN}. After a failure, writing
 * goes on doing nothing and status says what failed; data is NUL-terminated while status is
 * CLI_JSON_WRITTEN and the caller frees it either way. */
typedef struct cli_text {
    char *data;
    size_t length, capacity;
    cli_json_write_status status;
} cli_text;

void cli_text_raw(cli_text *text, const char *bytes, size_t count);
/* A JSON string, escaped as cJSON escapes it. */
void cli_text_string(cli_text *text, const char *string);
/* A finite number (zero of either sign is written 0); a non-finite one fails the text. */
void cli_text_number(cli_text *text, double value);
/* item and everything under it; a raw item's text as it is. */
void cli_text_json(cli_text *text, const cJSON *item);

/* The text of item in a new allocation (*text, *length, NUL-terminated; the caller frees it),
 * or a status saying why there is none. */
cli_json_write_status cli_json_write(const cJSON *item, char **text, size_t *length);

#endif
