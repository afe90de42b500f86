/* Fuzzes the command-line tool's request reader through reach_cli_run, in-process: the input
 * bytes become standard input (fmemopen) for `reach solve -`, `reach solve --jsonl -` or
 * `reach fk -`. Invariants: no crash and no sanitizer report, whatever the bytes; standard
 * output holds exactly one JSON object per request (one for solve and fk, one per non-blank
 * line for --jsonl), each with "status" "ok" or "error"; every number in it is finite (JSON
 * has no NaN or infinity, and the tool must never print "nan" or "inf" where a number goes);
 * the exit status is 0 exactly when every request succeeded, else 1. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "cli.h"
#include "fuzz_input.h"

/* Every number finite, and no string where the tool writes numbers. */
static int numbers_are_finite(const cJSON *item) {
    if (cJSON_IsNumber(item) && !isfinite(item->valuedouble)) return 0;
    for (const cJSON *child = item->child; child; child = child->next)
        if (!numbers_are_finite(child)) return 0;
    return 1;
}

/* One output line: a JSON object with status "ok" or "error". Returns 1 for "ok". */
static int check_line(const char *line, size_t length) {
    FUZZ_REQUIRE(length > 0);
    const char *end = NULL;
    cJSON *json = cJSON_ParseWithLengthOpts(line, length, &end, 0);
    FUZZ_REQUIRE(json != NULL && end == line + length);
    FUZZ_REQUIRE(cJSON_IsObject(json));
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(json, "status");
    FUZZ_REQUIRE(cJSON_IsString(status));
    int ok = strcmp(status->valuestring, "ok") == 0;
    FUZZ_REQUIRE(ok || strcmp(status->valuestring, "error") == 0);
    if (!ok) FUZZ_REQUIRE(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(json, "message")));
    FUZZ_REQUIRE(numbers_are_finite(json));
    cJSON_Delete(json);
    return ok;
}

/* The requests in a --jsonl input: its lines (split at \n, a trailing \r dropped) that hold
 * more than spaces and tabs before any NUL byte, as the tool counts them. */
static int count_requests(const uint8_t *data, size_t size) {
    int requests = 0;
    size_t start = 0;
    while (start < size) {
        size_t stop = start;
        while (stop < size && data[stop] != '\n')
            stop++;
        size_t k = start;
        while (k < stop && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r'))
            k++;
        if (k < stop && data[k] != '\0') requests++;
        start = stop + 1;
    }
    return requests;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    uint8_t mode = data[0] % 3;
    data++;
    size--;
    /* fmemopen wants at least one byte; an empty input is an empty file either way. */
    static char empty[1];
    FILE *in = size > 0 ? fmemopen((void *)data, size, "rb") : fmemopen(empty, 1, "rb");
    if (size == 0 && in) fgetc(in);
    char *out_text = NULL, *err_text = NULL;
    size_t out_size = 0, err_size = 0;
    FILE *out = open_memstream(&out_text, &out_size);
    FILE *err = open_memstream(&err_text, &err_size);
    FUZZ_REQUIRE(in && out && err);
    char *solve[] = {"reach", "solve", "-", NULL};
    char *jsonl[] = {"reach", "solve", "--jsonl", "-", NULL};
    char *fk[] = {"reach", "fk", "-", NULL};
    char **argv = mode == 0 ? solve : mode == 1 ? jsonl : fk;
    int argc = mode == 1 ? 4 : 3;
    int status = reach_cli_run(argc, argv, in, out, err);
    fclose(in);
    fclose(out);
    fclose(err);

    int lines = 0, failed = 0;
    for (size_t start = 0; start < out_size;) {
        const char *newline = memchr(out_text + start, '\n', out_size - start);
        FUZZ_REQUIRE(newline != NULL); /* every line ends */
        size_t length = (size_t)(newline - (out_text + start));
        if (!check_line(out_text + start, length)) failed++;
        lines++;
        start += length + 1;
    }
    int expected = mode == 1 ? count_requests(data, size) : 1;
    if (lines != expected) fprintf(stderr, "%d output lines for %d requests\n", lines, expected);
    FUZZ_REQUIRE(lines == expected);
    FUZZ_REQUIRE(status == (failed ? REACH_CLI_EXIT_FAILED : REACH_CLI_EXIT_OK));
    /* Each error is also one line on standard error. */
    int err_lines = 0;
    for (size_t k = 0; k < err_size; ++k)
        err_lines += err_text[k] == '\n';
    FUZZ_REQUIRE(err_lines == failed);
    free(out_text);
    free(err_text);
    return 0;
}
