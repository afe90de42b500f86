#include "json_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number_format.h"

typedef struct text_buffer {
    char *data;
    size_t length, capacity;
    cli_json_write_status status;
} text_buffer;

/* Room for extra more bytes and a NUL; 0 (and the status set) when memory ran out. */
static int reserve(text_buffer *buffer, size_t extra) {
    if (buffer->length + extra < buffer->capacity) return 1;
    size_t capacity = buffer->capacity ? buffer->capacity : 4096;
    while (capacity <= buffer->length + extra)
        capacity *= 2;
    char *grown = realloc(buffer->data, capacity);
    if (!grown) {
        buffer->status = CLI_JSON_NO_MEMORY;
        return 0;
    }
    buffer->data = grown;
    buffer->capacity = capacity;
    return 1;
}

static void put(text_buffer *buffer, const char *bytes, size_t count) {
    if (!reserve(buffer, count)) return;
    memcpy(buffer->data + buffer->length, bytes, count);
    buffer->length += count;
}

static void put_char(text_buffer *buffer, char c) { put(buffer, &c, 1); }

/* A string escaped as cJSON escapes it: quote, backslash and control characters; other bytes
 * (UTF-8 included) as they are. */
static void put_string(text_buffer *buffer, const char *string) {
    put_char(buffer, '"');
    const char *run = string ? string : "";
    for (const char *c = run;; c++) {
        unsigned char byte = (unsigned char)*c;
        if (byte > 0x1f && byte != '"' && byte != '\\') continue;
        put(buffer, run, (size_t)(c - run));
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
        put(buffer, escape, strlen(escape));
        run = c + 1;
    }
    put_char(buffer, '"');
}

static void put_number(text_buffer *buffer, double value) {
    if (!isfinite(value)) {
        buffer->status = CLI_JSON_NOT_FINITE;
        return;
    }
    if (value == 0) {
        /* As cJSON writes it: a sign on zero means nothing to the positions and angles the CLI
         * prints, and JSON readers differ on whether "-0" is a float. */
        put_char(buffer, '0');
        return;
    }
    if (!reserve(buffer, CLI_NUMBER_TEXT_SIZE)) return;
    buffer->length += cli_format_double(value, buffer->data + buffer->length);
}

static void put_value(text_buffer *buffer, const cJSON *item);

/* The children of an array or object between open and close, keys for an object. */
static void put_children(text_buffer *buffer, const cJSON *item, char open, char close, int keys) {
    put_char(buffer, open);
    for (const cJSON *child = item->child; child && buffer->status == CLI_JSON_WRITTEN; child = child->next) {
        if (child != item->child) put_char(buffer, ',');
        if (keys) {
            put_string(buffer, child->string);
            put_char(buffer, ':');
        }
        put_value(buffer, child);
    }
    put_char(buffer, close);
}

static void put_value(text_buffer *buffer, const cJSON *item) {
    switch (item->type & 0xff) {
    case cJSON_False: put(buffer, "false", 5); break;
    case cJSON_True: put(buffer, "true", 4); break;
    case cJSON_NULL: put(buffer, "null", 4); break;
    case cJSON_Number: put_number(buffer, item->valuedouble); break;
    case cJSON_String: put_string(buffer, item->valuestring); break;
    case cJSON_Array: put_children(buffer, item, '[', ']', 0); break;
    case cJSON_Object: put_children(buffer, item, '{', '}', 1); break;
    default: buffer->status = CLI_JSON_INVALID; break;
    }
}

cli_json_write_status cli_json_write(const cJSON *item, char **text, size_t *length) {
    text_buffer buffer = {NULL, 0, 0, CLI_JSON_WRITTEN};
    put_value(&buffer, item);
    if (buffer.status == CLI_JSON_WRITTEN && reserve(&buffer, 0)) buffer.data[buffer.length] = '\0';
    if (buffer.status != CLI_JSON_WRITTEN) {
        free(buffer.data);
        return buffer.status;
    }
    *text = buffer.data;
    *length = buffer.length;
    return CLI_JSON_WRITTEN;
}
