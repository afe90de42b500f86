#include "input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

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

/* The most fgets reads at a time; the filler below is written over this much per call. */
#define LINE_BLOCK 4096
/* Any byte but NUL and the newline. */
#define FILLER 'x'

/* Reads the rest of a line into reader->text from reader->length on: 1 when it ended at a
 * newline (not kept), 0 at the end of input, -1 when memory ran out. Lines are read a block at a
 * time with fgets (getc, a byte at a time, took about a tenth of a request). fgets does not say
 * how much it read, and a line may hold a NUL byte, which the parser must see to refuse: so the
 * block is filled beforehand with a byte that is neither. The line then ends at its newline,
 * or, without one, at the NUL fgets wrote after its last byte: the first byte from the block's
 * end that is not filler. */
static int read_rest_of_line(cli_line_reader *reader) {
    for (;;) {
        if (reader->capacity - reader->length < 2) {
            size_t capacity = reader->capacity ? reader->capacity * 2 : 1024;
            char *grown = realloc(reader->text, capacity);
            if (!grown) return -1;
            reader->text = grown;
            reader->capacity = capacity;
        }
        size_t room = reader->capacity - reader->length;
        if (room > LINE_BLOCK) room = LINE_BLOCK;
        char *block = reader->text + reader->length;
        memset(block, FILLER, room);
        if (!fgets(block, (int)room, reader->stream)) return 0;
        char *newline = memchr(block, '\n', room);
        if (newline) {
            reader->length = (size_t)(newline - reader->text);
            return 1;
        }
        char *end = block + room - 1;
        while (*end != '\0')
            end--;
        reader->length = (size_t)(end - reader->text);
    }
}

int cli_read_line(cli_line_reader *reader, cli_error *err) {
    reader->length = 0;
    int ended = read_rest_of_line(reader);
    if (ended < 0) return cli_fail(err, "out of memory reading a line"), -1;
    if (ferror(reader->stream)) return cli_fail(err, "read error"), -1;
    if (!ended && reader->length == 0) return 0;
    /* Lines written on Windows end in \r\n. */
    if (reader->length > 0 && reader->text[reader->length - 1] == '\r') reader->length--;
    reader->text[reader->length] = '\0';
    return 1;
}

void cli_line_reader_free(cli_line_reader *reader) {
    free(reader->text);
    reader->text = NULL;
    reader->length = reader->capacity = 0;
}

/* The line (counting text's first as first_line) and 1-based column of text[offset]. */
static void locate(const char *text, size_t offset, int first_line, int *line, int *column) {
    *line = first_line;
    *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Whether a number starting at bytes[i] (not inside a string) has a leading zero, as in 01 or
 * -00.5. A number starts where a minus sign or a digit follows no letter, digit or sign (an
 * exponent's digits, as in 1e05, may have leading zeros). */
static int leading_zero(const unsigned char *bytes, size_t length, size_t i) {
    if (!(bytes[i] == '-' || is_digit(bytes[i]))) return 0;
    if (i > 0) {
        unsigned char before = bytes[i - 1];
        if (is_digit(before) || before == '-' || before == '+' || before == '.' || (before | 0x20) == 'e') return 0;
    }
    size_t j = i + (bytes[i] == '-');
    return j + 1 < length && bytes[j] == '0' && is_digit(bytes[j + 1]);
}

/* What cJSON lets through but JSON, or the output, cannot carry: in strings, raw control
 * characters, bytes that are not UTF-8 (a name echoed back would make the output invalid), and
 * \u0000 (C strings end there, so two names could silently become one); numbers with leading
 * zeros. */
static int check_text(const char *text, size_t length, int first_line, cli_error *err) {
    const unsigned char *bytes = (const unsigned char *)text;
    int in_string = 0;
    for (size_t i = 0; i < length;) {
        const char *problem = NULL;
        size_t step = 1;
        if (!in_string) {
            in_string = bytes[i] == '"';
            if (leading_zero(bytes, length, i)) problem = "a number with a leading zero";
        } else if (bytes[i] == '"') {
            in_string = 0;
        } else if (bytes[i] < 0x20) {
            problem = "a control character inside a string (write it escaped)";
        } else if (bytes[i] == '\\') {
            if (i + 5 < length && strncmp(text + i + 1, "u0000", 5) == 0)
                problem = "\\u0000 inside a string (strings cannot hold NUL)";
            step = 2;
        } else if (!(step = cli_utf8_length(bytes + i, length - i))) {
            problem = "a string that is not valid UTF-8";
        }
        if (problem) {
            int line, column;
            locate(text, i, first_line, &line, &column);
            return cli_fail(err, "invalid JSON at line %d, column %d: %s", line, column, problem);
        }
        i += step;
    }
    return 1;
}

cJSON *cli_parse_json(const char *text, size_t length, int first_line, cli_error *err) {
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
    if (!check_text(text, length, first_line, err)) return NULL;
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
    int line, column;
    locate(text, stop, first_line, &line, &column);
    cli_fail(err, "invalid JSON at line %d, column %d", line, column);
    return NULL;
}
