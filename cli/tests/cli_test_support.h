/* Running the reach CLI in-process on memory streams, and reading its JSON output. */
#ifndef REACH_CLI_TEST_SUPPORT_H
#define REACH_CLI_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cJSON.h>
#include <cmocka.h>

#include "reach/vecmath.h"

typedef struct cli_run {
    int status;  /* exit status */
    char *out;   /* everything printed on standard output */
    char *err;   /* everything printed on standard error */
    cJSON *json; /* the first output line, parsed (NULL if it is not JSON) */
} cli_run;

/* Runs `reach ARGS...` (args NULL-terminated) with input as standard input (NULL: empty).
 * Requests in tests are written with ' for " to keep them readable; input has every ' turned
 * into ". run_cli(input, "solve", "-", NULL) passes the arguments as an array, so the NULL
 * that ends them is a pointer, not a variadic argument of unknown type. */
cli_run run_cli_args(const char *input, const char *const *args);
#define run_cli(input, ...) run_cli_args(input, (const char *const[]){__VA_ARGS__})
void cli_run_free(cli_run *run);

/* input with ' turned into " (caller frees). */
char *json_quotes(const char *input);

/* The value at a path such as "bones[1].world_position" (NULL when absent). */
const cJSON *json_at(const cJSON *root, const char *path);
double json_number(const cJSON *root, const char *path);
reach_vec3 json_vec3(const cJSON *root, const char *path);
reach_quat json_quat(const cJSON *root, const char *path);

/* bones[bone].position and .rotation of a result. */
reach_transform json_bone_local(const cJSON *result, int bone);

/* Asserts that the run failed with this exit status and exactly this message, as one JSON
 * error object on standard output and one "reach: " line on standard error. */
void assert_cli_error(const cli_run *run, int status, const char *message);

/* Asserts that the output has no NaN or infinity in any spelling JSON writers use. */
void assert_all_finite_text(const char *text);

/* Forward kinematics of the printed local transforms ("bones" with "name", "position",
 * "rotation") given each bone's parent index: written independently of the library. */
void fk_from_printed(const cJSON *result, const int *parents, int count, reach_vec3 *world_position,
                     reach_quat *world_rotation);

/* Asserts that forward kinematics of the printed local values (fk_from_printed) gives the
 * printed world values. count <= 32. */
void assert_self_consistent(const cJSON *result, const int *parents, int count);

/* Runs `reach solve -` on request (' for ") and asserts that it succeeded: exit status 0, one
 * finite JSON result and nothing on standard error. */
cli_run solve_ok(const char *request);

void assert_vec3_near(reach_vec3 a, reach_vec3 b, double tolerance);

/* The examples directory (cli/examples), for tests that read files. */
const char *examples_dir(void);

#endif
