/* Reading the CLI's input: whole files, lines, and JSON text with a located parse error. */
#ifndef REACH_CLI_INPUT_H
#define REACH_CLI_INPUT_H

#include <stdio.h>

#include <cJSON.h>

#include "error.h"

/* Reads all of path ("-": the stream in) into a NUL-terminated allocation. */
int cli_read_file(const char *path, FILE *in, char **text, size_t *length, cli_error *err);

/* A line reader that grows its buffer as lines need. */
typedef struct cli_line_reader {
    FILE *stream;
    char *text; /* the current line without its end of line, NUL-terminated */
    size_t length, capacity;
} cli_line_reader;

/* 1: a line was read; 0: end of input; -1: read error or out of memory (err says which). */
int cli_read_line(cli_line_reader *reader, cli_error *err);
void cli_line_reader_free(cli_line_reader *reader);

/* Parses one JSON value filling all of text; the error says where parsing stopped, counting
 * text's first line as first_line (a --jsonl line's number in its file, 1 for a whole file). */
cJSON *cli_parse_json(const char *text, size_t length, int first_line, cli_error *err);

/* Opens path for reading ("-": in). *opened says whether the caller must fclose it. */
FILE *cli_open_input(const char *path, FILE *in, int *opened, cli_error *err);

#endif
