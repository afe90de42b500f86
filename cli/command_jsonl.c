#include <string.h>

#include "commands.h"
#include "input.h"
#include "result.h"

static int is_blank(const char *text) { return text[strspn(text, " \t\r")] == '\0'; }

/* One line: its result, or its error object. Returns 1 when the line was solved. */
static int solve_line(const cli_line_reader *reader, int line, const cli_rig *shared_rig, FILE *out,
                      FILE *diagnostics) {
    cli_error err = {""};
    cJSON *json = cli_parse_json(reader->text, reader->length, line, &err);
    cJSON *result = json ? cli_solve_request(json, shared_rig, &err) : NULL;
    int ok = result && cli_result_print(out, result, &err);
    if (!ok) cli_print_error(out, diagnostics, line, err.message);
    cJSON_Delete(result);
    cJSON_Delete(json);
    return ok;
}

int cli_solve_lines(FILE *lines, const cli_rig *shared_rig, FILE *out, FILE *diagnostics) {
    cli_line_reader reader = {lines, NULL, 0, 0};
    cli_error err = {""};
    int failed = 0, line = 0, status;
    while ((status = cli_read_line(&reader, &err)) > 0) {
        line++;
        if (is_blank(reader.text)) continue;
        if (!solve_line(&reader, line, shared_rig, out, diagnostics)) failed = 1;
        /* Output that cannot be written stays so: one error, not one per line left. */
        if (ferror(out)) break;
    }
    if (status < 0) {
        cli_print_error(out, diagnostics, line + 1, err.message);
        failed = 1;
    }
    cli_line_reader_free(&reader);
    return failed;
}
