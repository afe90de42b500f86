/* The command lines shown in docs/cli.md and README.md print what those documents show: each
 * `$ reach ...` line (with the lines that continue it) runs in a shell from the repository's
 * root, with the built tool first on PATH, and its output (standard output and error together)
 * is compared line by line with the lines shown after it.
 *
 * A shown line that is JSON is compared as JSON: the same fields in the same order, strings
 * equal, numbers within 1e-9 of each other (relative to their size where it passes 1), and the
 * documents' elisions honoured: `[...]` stands for any array, `[..., a, b]` for an array that
 * holds a and b, in that order, among other items. Any other line must be equal. A command shown with no output must
 * still succeed. */
#define _POSIX_C_SOURCE 200809L
#include "cli_test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LINES        4096
#define NUMBER_TOLERANCE 1e-9

typedef struct text_lines {
    char *lines[MAX_LINES];
    int count;
} text_lines;

static void read_lines(FILE *file, text_lines *out) {
    out->count = 0;
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, file)) >= 0) {
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
            line[--length] = '\0';
        assert_true(out->count < MAX_LINES);
        out->lines[out->count++] = strdup(line);
    }
    free(line);
}

static void free_lines(text_lines *lines) {
    for (int i = 0; i < lines->count; i++)
        free(lines->lines[i]);
    lines->count = 0;
}

/* A shown line made parseable: `[...]` becomes null (any array) and `[...,` becomes `["...",`
 * (an array holding the items shown). */
static char *with_elisions_marked(const char *shown) {
    size_t length = strlen(shown);
    char *out = malloc(2 * length + 1);
    assert_non_null(out);
    size_t n = 0;
    for (size_t i = 0; i < length;) {
        if (strncmp(shown + i, "[...]", 5) == 0) {
            memcpy(out + n, "null", 4);
            n += 4;
            i += 5;
        } else if (strncmp(shown + i, "[...,", 5) == 0) {
            memcpy(out + n, "[\"...\",", 7);
            n += 7;
            i += 5;
        } else {
            out[n++] = shown[i++];
        }
    }
    out[n] = '\0';
    return out;
}

static int numbers_agree(double shown, double actual) {
    return fabs(shown - actual) <= NUMBER_TOLERANCE * fmax(1, fmax(fabs(shown), fabs(actual)));
}

static int json_agrees(const cJSON *shown, const cJSON *actual);

static int arrays_agree(const cJSON *shown, const cJSON *actual) {
    if (!cJSON_IsArray(actual)) return 0;
    int shown_count = cJSON_GetArraySize(shown), actual_count = cJSON_GetArraySize(actual);
    const cJSON *first = shown->child;
    int some = first && cJSON_IsString(first) && strcmp(first->valuestring, "...") == 0;
    if (some) {
        /* The shown items, in order, among the printed ones. */
        int at = 0;
        for (int k = 1; k < shown_count; k++) {
            while (at < actual_count && !json_agrees(cJSON_GetArrayItem(shown, k), cJSON_GetArrayItem(actual, at)))
                at++;
            if (at++ == actual_count) return 0;
        }
        return 1;
    }
    if (shown_count != actual_count) return 0;
    for (int k = 0; k < shown_count; k++)
        if (!json_agrees(cJSON_GetArrayItem(shown, k), cJSON_GetArrayItem(actual, k))) return 0;
    return 1;
}

static int json_agrees(const cJSON *shown, const cJSON *actual) {
    if (cJSON_IsNull(shown)) return cJSON_IsArray(actual) || cJSON_IsNull(actual);
    if (cJSON_IsNumber(shown)) return cJSON_IsNumber(actual) && numbers_agree(shown->valuedouble, actual->valuedouble);
    if (cJSON_IsString(shown)) return cJSON_IsString(actual) && strcmp(shown->valuestring, actual->valuestring) == 0;
    if (cJSON_IsBool(shown)) return cJSON_IsBool(actual) && cJSON_IsTrue(shown) == cJSON_IsTrue(actual);
    if (cJSON_IsArray(shown)) return arrays_agree(shown, actual);
    if (!cJSON_IsObject(shown) || !cJSON_IsObject(actual)) return 0;
    const cJSON *a = actual->child;
    for (const cJSON *s = shown->child; s; s = s->next, a = a->next)
        if (!a || strcmp(s->string, a->string) != 0 || !json_agrees(s, a)) return 0;
    return a == NULL;
}

static int line_agrees(const char *shown, const char *actual) {
    if (shown[0] != '{' && shown[0] != '[') return strcmp(shown, actual) == 0;
    char *parseable = with_elisions_marked(shown);
    cJSON *shown_json = cJSON_Parse(parseable);
    free(parseable);
    if (!shown_json) fail_msg("a line shown as JSON does not parse: %s", shown);
    cJSON *actual_json = cJSON_Parse(actual);
    int agrees = actual_json && json_agrees(shown_json, actual_json);
    cJSON_Delete(shown_json);
    cJSON_Delete(actual_json);
    return agrees;
}

/* Runs command (the tool's name as `reach`) and compares what it prints with shown[0..count). */
static void check_command(const char *document, int line_number, const char *command, char *const *shown, int count) {
    size_t size = strlen(command) + 32;
    char *shell = malloc(size);
    snprintf(shell, size, "{ %s\n} 2>&1", command);
    FILE *pipe = popen(shell, "r");
    free(shell);
    assert_non_null(pipe);
    text_lines printed;
    read_lines(pipe, &printed);
    int status = pclose(pipe);
    if (count == 0 && status != 0)
        fail_msg("%s:%d: `%s` exited with %d and prints nothing in the document", document, line_number, command,
                 status);
    if (count > 0 && printed.count != count)
        fail_msg("%s:%d: `%s` printed %d lines, the document shows %d", document, line_number, command, printed.count,
                 count);
    for (int k = 0; k < count; k++)
        if (!line_agrees(shown[k], printed.lines[k]))
            fail_msg("%s:%d: `%s` line %d:\n  shown:   %s\n  printed: %s", document, line_number + 1 + k, command,
                     k + 1, shown[k], printed.lines[k]);
    free_lines(&printed);
}

static int is_prompt(const char *line) { return strncmp(line, "$ ", 2) == 0; }

/* text grown to size bytes; the test fails (text freed) when memory runs out. */
static char *grown(char *text, size_t size) {
    char *more = realloc(text, size);
    if (!more) {
        free(text);
        fail_msg("out of memory");
    }
    return more;
}

/* The command starting at lines[*at] (a prompt line and the lines it continues onto: after a
 * trailing backslash, or starting with a pipe), with the tool called `reach`; *at moves past it. */
static char *command_at(const text_lines *doc, int *at) {
    size_t size = 1;
    char *command = calloc(1, size);
    assert_non_null(command);
    for (int first = 1;; first = 0) {
        const char *line = doc->lines[*at] + (first ? 2 : 0);
        /* README shows the tool by its path in a build tree. */
        const char *built = "build/demo/cli/reach ";
        if (strncmp(line, built, strlen(built)) == 0) line += strlen(built) - strlen("reach ");
        size += strlen(line) + 1;
        command = grown(command, size);
        strcat(command, line);
        strcat(command, "\n");
        ++*at;
        size_t length = strlen(line);
        int continued = length > 0 && line[length - 1] == '\\';
        if (!continued && !(*at < doc->count && strncmp(doc->lines[*at], "  |", 3) == 0)) return command;
    }
}

/* Every prompt line in the document's code blocks. Returns how many commands were checked. */
static int check_document(const char *root, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, name);
    FILE *file = fopen(path, "r");
    if (!file) fail_msg("cannot read %s", path);
    text_lines doc;
    read_lines(file, &doc);
    fclose(file);
    int in_block = 0, checked = 0;
    for (int i = 0; i < doc.count;) {
        if (strncmp(doc.lines[i], "```", 3) == 0) {
            in_block = !in_block;
            i++;
            continue;
        }
        if (!in_block || !is_prompt(doc.lines[i])) {
            i++;
            continue;
        }
        int line_number = i + 1;
        char *command = command_at(&doc, &i);
        if (!strstr(command, "reach")) {
            free(command);
            continue;
        }
        int first_shown = i;
        while (i < doc.count && !is_prompt(doc.lines[i]) && strncmp(doc.lines[i], "```", 3) != 0)
            i++;
        char *shown[MAX_LINES];
        int count = 0;
        for (int k = first_shown; k < i; k++)
            shown[count++] = doc.lines[k];
        /* `$ echo $?` right after shows the command's exit status: the two run together, and the
         * status is the last line to compare. */
        if (i + 1 < doc.count && strcmp(doc.lines[i], "$ echo $?") == 0) {
            command = grown(command, strlen(command) + 16);
            strcat(command, "echo \"$?\"\n");
            shown[count++] = doc.lines[i + 1];
            i += 2;
        }
        check_command(name, line_number, command, shown, count);
        free(command);
        checked++;
    }
    free_lines(&doc);
    return checked;
}

static const char *root_dir = REACH_CLI_SOURCE_ROOT;

/* The tool as `reach`, first on PATH, in a directory of its own, removed after the test however
 * it ends. */
static char bin_dir[] = "/tmp/reach-docs-XXXXXX";
static char tool_link[sizeof bin_dir + 8];

static int put_tool_on_path(void **state) {
    (void)state;
    if (!mkdtemp(bin_dir)) return -1;
    snprintf(tool_link, sizeof tool_link, "%s/reach", bin_dir);
    if (symlink(REACH_CLI_BINARY, tool_link) != 0) return -1;
    const char *old_path = getenv("PATH");
    size_t size = strlen(bin_dir) + (old_path ? strlen(old_path) : 0) + 2;
    char *path = malloc(size);
    if (!path) return -1;
    snprintf(path, size, "%s:%s", bin_dir, old_path ? old_path : "");
    int set = setenv("PATH", path, 1);
    free(path);
    return set == 0 && chdir(root_dir) == 0 ? 0 : -1;
}

static int remove_tool(void **state) {
    (void)state;
    unlink(tool_link);
    rmdir(bin_dir);
    return 0;
}

static void documented_commands_print_what_is_shown(void **state) {
    (void)state;
    int cli_commands = check_document(root_dir, "docs/cli.md");
    int readme_commands = check_document(root_dir, "README.md");
    print_message("%d commands in docs/cli.md, %d in README.md\n", cli_commands, readme_commands);
    assert_true(cli_commands >= 12);
    assert_true(readme_commands >= 1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(documented_commands_print_what_is_shown),
    };
    return cmocka_run_group_tests(tests, put_tool_on_path, remove_tool);
}
