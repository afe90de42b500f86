#include "json_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number_format.h"

/* Room for extra more bytes and a NUL; 0 (and the status set) when memory ran out or the text
 * failed before. */
static int reserve(cli_text *text, size_t extra) {
    if (text->status != CLI_JSON_WRITTEN) return 0;
    if (text->length + extra < text->capacity) return 1;
    size_t capacity = text->capacity ? text->capacity : 4096;
    while (capacity <= text->length + extra)
        capacity *= 2;
    char *grown = realloc(text->data, capacity);
    if (!grown) {
        text->status = CLI_JSON_NO_MEMORY;
        return 0;
    }
    text->data = grown;
    text->capacity = capacity;
    return 1;
}

void cli_text_raw(cli_text *text, const char *bytes, size_t count) {
    if (!reserve(text, count)) return;
    memcpy(text->data + text->length, bytes, count);
    text->length += count;
    text->data[text->length] = '\0';
}

/* Quote, backslash and control characters escaped; other bytes (UTF-8 included) as they are. */
void cli_text_string(cli_text *text, const char *string) {
    cli_text_raw(text, "\"", 1);
    const char *run = string ? string : "";
    for (const char *c = run;; c++) {
        unsigned char byte = (unsigned char)*c;
        if (byte > 0x1f && byte != '"' && byte != '\\') continue;
        cli_text_raw(text, run, (size_t)(c - run));
        if (byte == '\0') break;
        char escape[8] = {'\\', 0};
        switch (byte) {
        case '"': escape[1] = '"'; break;
        case '\\': escape[1] = '\\'; break;
        case '\b': escape[1] = 'b'; break;
        case '\f': escape[1] = 'f'; break;
        case '\n': escape[1] = 'n'; break;
        case '\r': escape[1] = 'r'; break;
        case '\t': escape[1] = 't'; break;
        default: snprintf(escape + 1, sizeof escape - 1, "u%04x", byte); break;
        }
        cli_text_raw(text, escape, strlen(escape));
        run = c + 1;
    }
    cli_text_raw(text, "\"", 1);
}

void cli_text_number(cli_text *text, double value) {
    if (!isfinite(value)) {
        if (text->status == CLI_JSON_WRITTEN) text->status = CLI_JSON_NOT_FINITE;
        return;
    }
    /* As cJSON writes it: a sign on zero means nothing to the positions and angles the CLI
     * prints, and JSON readers differ on whether "-0" is a float. */
    if (value == 0) {
        cli_text_raw(text, "0", 1);
        return;
    }
    if (!reserve(text, CLI_NUMBER_TEXT_SIZE)) return;
    text->length += cli_format_double(value, text->data + text->length);
}

/* The children of an array or object between open and close, keys for an object. */
static void put_children(cli_text *text, const cJSON *item, char open, char close, int keys) {
    cli_text_raw(text, &open, 1);
    for (const cJSON *child = item->child; child && text->status == CLI_JSON_WRITTEN; child = child->next) {
        if (child != item->child) cli_text_raw(text, ",", 1);
        if (keys) {
            cli_text_string(text, child->string);
            cli_text_raw(text, ":", 1);
        }
        cli_text_json(text, child);
    }
    cli_text_raw(text, &close, 1);
}

void cli_text_json(cli_text *text, const cJSON *item) {
    switch (item->type & 0xff) {
    case cJSON_False: cli_text_raw(text, "false", 5); break;
    case cJSON_True: cli_text_raw(text, "true", 4); break;
    case cJSON_NULL: cli_text_raw(text, "null", 4); break;
    case cJSON_Number: cli_text_number(text, item->valuedouble); break;
    case cJSON_String: cli_text_string(text, item->valuestring); break;
    case cJSON_Array: put_children(text, item, '[', ']', 0); break;
    case cJSON_Object: put_children(text, item, '{', '}', 1); break;
    case cJSON_Raw:
        if (item->valuestring)
            cli_text_raw(text, item->valuestring, strlen(item->valuestring));
        else if (text->status == CLI_JSON_WRITTEN)
            text->status = CLI_JSON_INVALID;
        break;
    default:
        if (text->status == CLI_JSON_WRITTEN) text->status = CLI_JSON_INVALID;
        break;
    }
}

cli_json_write_status cli_json_write(const cJSON *item, char **text, size_t *length) {
    cli_text written = {NULL, 0, 0, CLI_JSON_WRITTEN};
    cli_text_json(&written, item);
    reserve(&written, 0); /* an empty text still gets its NUL */
    if (written.status != CLI_JSON_WRITTEN) {
        free(written.data);
        return written.status;
    }
    written.data[written.length] = '\0';
    *text = written.data;
    *length = written.length;
    return CLI_JSON_WRITTEN;
}
