#define _POSIX_C_SOURCE 200809L
#include "cli_test_support.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

char *json_quotes(const char *input) {
    char *copy = malloc(strlen(input) + 1);
    assert_non_null(copy);
    for (size_t i = 0;; i++) {
        copy[i] = input[i] == '\'' ? '"' : input[i];
        if (input[i] == '\0') break;
    }
    return copy;
}

/* With REACH_CLI_RECORD naming a file, every run is appended to it as one JSON line: its
 * arguments, working directory, input, exit status and output, which the Python package's
 * tests replay through reach.solve and reach.fk to check they give what the tool gave. */
static void record_run(int argc, char **argv, const char *input, const cli_run *run) {
    const char *path = getenv("REACH_CLI_RECORD");
    if (!path || !*path) return;
    cJSON *line = cJSON_CreateObject();
    cJSON *args = cJSON_AddArrayToObject(line, "args");
    for (int i = 1; i < argc; i++)
        cJSON_AddItemToArray(args, cJSON_CreateString(argv[i]));
    char folder[4096];
    cJSON_AddStringToObject(line, "cwd", getcwd(folder, sizeof folder) ? folder : ".");
    char *text = input ? json_quotes(input) : NULL;
    cJSON_AddStringToObject(line, "input", text ? text : "");
    free(text);
    cJSON_AddNumberToObject(line, "status", run->status);
    cJSON_AddStringToObject(line, "out", run->out ? run->out : "");
    char *printed = cJSON_PrintUnformatted(line);
    assert_non_null(printed);
    /* One write() with O_APPEND per line: ctest runs the CLI tests in parallel, and stdio would
     * append a long line in 4 KB pieces that another process's line can land between. */
    size_t length = strlen(printed);
    printed[length] = '\n';
    int file = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    assert_true(file >= 0);
    assert_true(write(file, printed, length + 1) == (ssize_t)(length + 1));
    close(file);
    free(printed);
    cJSON_Delete(line);
}

cli_run run_cli_args(const char *input, const char *const *args) {
    char *argv[16];
    int argc = 0;
    argv[argc++] = (char *)"reach";
    for (; *args && argc < 15; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;

    FILE *in = tmpfile();
    assert_non_null(in);
    if (input) {
        char *text = json_quotes(input);
        fputs(text, in);
        free(text);
        rewind(in);
    }
    cli_run run = {0, NULL, NULL, NULL};
    size_t out_size = 0, err_size = 0;
    FILE *out = open_memstream(&run.out, &out_size);
    FILE *err = open_memstream(&run.err, &err_size);
    assert_non_null(out);
    assert_non_null(err);
    run.status = reach_cli_run(argc, argv, in, out, err);
    fclose(in);
    fclose(out);
    fclose(err);
    record_run(argc, argv, input, &run);
    run.json = cJSON_Parse(run.out);
    if (!run.json) {
        /* Several lines (--jsonl): parse the first. */
        const char *end = NULL;
        run.json = cJSON_ParseWithOpts(run.out, &end, 0);
    }
    return run;
}

void cli_run_free(cli_run *run) {
    free(run->out);
    free(run->err);
    cJSON_Delete(run->json);
}

const cJSON *json_at(const cJSON *root, const char *path) {
    const cJSON *node = root;
    const char *p = path;
    while (node && *p) {
        if (*p == '.') p++;
        if (*p == '[') {
            char *end;
            long index = strtol(p + 1, &end, 10);
            node = cJSON_GetArrayItem(node, (int)index);
            p = end + 1;
        } else {
            size_t n = strcspn(p, ".[");
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)n, p);
            node = cJSON_GetObjectItemCaseSensitive(node, key);
            p += n;
        }
    }
    return node;
}

double json_number(const cJSON *root, const char *path) {
    const cJSON *node = json_at(root, path);
    if (!cJSON_IsNumber(node)) fail_msg("%s: not a number", path);
    return node->valuedouble;
}

static void json_numbers(const cJSON *root, const char *path, double *values, int count) {
    const cJSON *node = json_at(root, path);
    if (!cJSON_IsArray(node) || cJSON_GetArraySize(node) != count) fail_msg("%s: not an array of %d", path, count);
    for (int i = 0; i < count; i++)
        values[i] = cJSON_GetArrayItem(node, i)->valuedouble;
}

reach_vec3 json_vec3(const cJSON *root, const char *path) {
    double v[3];
    json_numbers(root, path, v, 3);
    return reach_vec3_make(v[0], v[1], v[2]);
}

reach_quat json_quat(const cJSON *root, const char *path) {
    double v[4];
    json_numbers(root, path, v, 4);
    return reach_quat_make(v[0], v[1], v[2], v[3]);
}

void assert_cli_error(const cli_run *run, int status, const char *message) {
    if (run->status != status) fail_msg("exit status %d, expected %d; output: %s", run->status, status, run->out);
    assert_non_null(run->json);
    assert_string_equal(cJSON_GetObjectItem(run->json, "status")->valuestring, "error");
    assert_string_equal(cJSON_GetObjectItem(run->json, "message")->valuestring, message);
    /* One line of output and one line of diagnostics. */
    assert_non_null(strchr(run->out, '\n'));
    assert_string_equal(strchr(run->out, '\n') + 1, "");
    char expected[1200];
    snprintf(expected, sizeof expected, "reach: %s\n", message);
    assert_string_equal(run->err, expected);
}

void assert_all_finite_text(const char *text) {
    static const char *const bad[] = {"nan", "NaN", "inf", "Inf", "null"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (strstr(text, bad[i])) fail_msg("output contains '%s': %s", bad[i], text);
}

reach_transform json_bone_local(const cJSON *result, int bone) {
    char path[64];
    reach_transform local;
    snprintf(path, sizeof path, "bones[%d].position", bone);
    local.translation = json_vec3(result, path);
    snprintf(path, sizeof path, "bones[%d].rotation", bone);
    local.rotation = json_quat(result, path);
    return local;
}

static reach_quat quat_mul(reach_quat a, reach_quat b) {
    return reach_quat_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                           a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                           a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

/* q v q* written out as two quaternion products, unlike the library's cross-product form. */
static reach_vec3 quat_rotate(reach_quat q, reach_vec3 v) {
    reach_quat p = quat_mul(quat_mul(q, reach_quat_make(v.x, v.y, v.z, 0)), reach_quat_make(-q.x, -q.y, -q.z, q.w));
    return reach_vec3_make(p.x, p.y, p.z);
}

void fk_from_printed(const cJSON *result, const int *parents, int count, reach_vec3 *world_position,
                     reach_quat *world_rotation) {
    for (int i = 0; i < count; i++) {
        reach_transform local = json_bone_local(result, i);
        reach_vec3 position = local.translation;
        reach_quat rotation = local.rotation;
        if (parents[i] < 0) {
            world_position[i] = position;
            world_rotation[i] = rotation;
        } else {
            reach_vec3 offset = quat_rotate(world_rotation[parents[i]], position);
            world_position[i] = reach_vec3_add(world_position[parents[i]], offset);
            world_rotation[i] = quat_mul(world_rotation[parents[i]], rotation);
        }
    }
}

void assert_self_consistent(const cJSON *result, const int *parents, int count) {
    reach_vec3 position[32];
    reach_quat rotation[32];
    assert_true(count <= 32);
    fk_from_printed(result, parents, count, position, rotation);
    for (int i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "bones[%d].world_position", i);
        assert_vec3_near(position[i], json_vec3(result, path), 1e-12);
        snprintf(path, sizeof path, "bones[%d].world_rotation", i);
        reach_quat printed = json_quat(result, path);
        assert_true(fabs(fabs(reach_quat_dot(printed, rotation[i])) - 1) < 1e-12);
    }
}

cli_run solve_ok(const char *request) {
    cli_run run = run_cli(request, "solve", "-", NULL);
    if (run.status != 0) fail_msg("solve failed: %s", run.out);
    assert_non_null(run.json);
    assert_all_finite_text(run.out);
    assert_string_equal(run.err, "");
    return run;
}

void assert_vec3_near(reach_vec3 a, reach_vec3 b, double tolerance) {
    double d = reach_vec3_distance(a, b);
    if (!(d <= tolerance))
        fail_msg("(%.17g, %.17g, %.17g) and (%.17g, %.17g, %.17g) differ by %g > %g", a.x, a.y, a.z, b.x, b.y, b.z, d,
                 tolerance);
}

const char *examples_dir(void) { return REACH_CLI_EXAMPLES_DIR; }
