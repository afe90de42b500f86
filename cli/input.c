#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

FILE *cli_open_input(const char *path, FILE *in, int *opened, cli_error *err) {
    *opened = 0;
    if (strcmp(path, "-") == 0) return in;
    FILE *stream = fopen(path, "rb");
    if (!stream) {
        cli_fail(err, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    *opened = 1;
    return stream;
}

int cli_read_file(const char *path, FILE *in, char **text, size_t *length, cli_error *err) {
    int opened;
    FILE *stream = cli_open_input(path, in, &opened, err);
    if (!stream) return 0;
    size_t capacity = 4096, used = 0;
    char *buffer = malloc(capacity);
    errno = 0;
    while (buffer) {
        used += fread(buffer + used, 1, capacity - used - 1, stream);
        if (used < capacity - 1) break;
        char *grown = realloc(buffer, capacity * 2);
        if (!grown) free(buffer);
        buffer = grown;
        capacity *= 2;
    }
    int failed = ferror(stream), reason = errno;
    if (opened) fclose(stream);
    if (!buffer) return cli_fail(err, "out of memory reading '%s'", path);
    if (failed) {
        free(buffer);
        /* The system's reason ("Is a directory") where it gave one. */
        return cli_fail(err, "cannot read '%s': %s", path, reason ? strerror(reason) : "read error");
    }
    buffer[used] = '\0';
    *text = buffer;
    *length = used;
    return 1;
}

int cli_read_line(cli_line_reader *reader, cli_error *err) {
    reader->length = 0;
    int c;
    while ((c = getc(reader->stream)) != EOF && c != '\n') {
        if (reader->length + 2 > reader->capacity) {
            size_t capacity = reader->capacity ? reader->capacity * 2 : 1024;
            char *grown = realloc(reader->text, capacity);
            if (!grown) return cli_fail(err, "out of memory reading a line"), -1;
            reader->text = grown;
            reader->capacity = capacity;
        }
        reader->text[reader->length++] = (char)c;
    }
    if (ferror(reader->stream)) return cli_fail(err, "read error"), -1;
    if (c == EOF && reader->length == 0) return 0;
    /* Lines written on Windows end in \r\n. */
    if (reader->length > 0 && reader->text[reader->length - 1] == '\r') reader->length--;
    if (!reader->text) {
        reader->text = malloc(1);
        if (!reader->text) return cli_fail(err, "out of memory reading a line"), -1;
        reader->capacity = 1;
    }
    reader->text[reader->length] = '\0';
    return 1;
}

void cli_line_reader_free(cli_line_reader *reader) {
    free(reader->text);
    reader->text = NULL;
    reader->length = reader->capacity = 0;
}

cJSON *cli_parse_json(const char *text, size_t length, cli_error *err) {
    if (memchr(text, '\0', length)) {
        cli_fail(err, "invalid JSON: the input contains a NUL byte");
        return NULL;
    }
    size_t first = 0;
    while (first < length && strchr(" \t\r\n", text[first]))
        first++;
    if (first == length) {
        cli_fail(err, "invalid JSON: the input is empty");
        return NULL;
    }
    const char *end = NULL;
    cJSON *json = cJSON_ParseWithLengthOpts(text, length, &end, 0);
    size_t stop = end ? (size_t)(end - text) : 0;
    if (json) {
        /* Only white space may follow the value. */
        while (stop < length && strchr(" \t\r\n", text[stop]))
            stop++;
        if (stop == length) return json;
        cJSON_Delete(json);
    }
    if (stop >= length) {
        cli_fail(err, "invalid JSON: unexpected end of input");
        return NULL;
    }
    int line = 1, column = 1;
    for (size_t i = 0; i < stop; i++) {
        if (text[i] == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    cli_fail(err, "invalid JSON at line %d, column %d", line, column);
    return NULL;
}
