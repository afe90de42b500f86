/* `reach solve --jsonl`: one result per request line, in order, bad lines reported on their
 * own, and a rig given once with --rig. */
#include "cli_test_support.h"

#include <stdio.h>
#include <string.h>

#define RIG                                                                                                            \
    "{'bones':[{'name':'hip','position':[0,1,0]},{'name':'knee','parent':'hip','position':[0,-0.45,0]},"               \
    "{'name':'ankle','parent':'knee','position':[0,-0.42,0]}]}"
#define SOLVE_TO(x, y, z) "'solver':{'type':'two_bone'},'targets':[{'bone':'ankle','position':[" #x "," #y "," #z "]}]"

/* The output's lines, parsed; returns how many. */
static int output_lines(const char *out, cJSON **lines, int capacity) {
    int count = 0;
    for (const char *line = out; *line && count < capacity; count++) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        lines[count] = cJSON_ParseWithLength(line, (size_t)(end - line));
        assert_non_null(lines[count]);
        line = end + 1;
    }
    return count;
}

static const char *status_of(const cJSON *line) { return cJSON_GetObjectItem(line, "status")->valuestring; }

static void good_and_bad_lines(void **state) {
    (void)state;
    const char *input = "{'rig':" RIG "," SOLVE_TO(
        0.1, 0.3,
        0.2) "}\n"
             "{'rig':" RIG ",\n"
             "{'rig':" RIG
             "," SOLVE_TO(0, 0.5, 0.3) "}\r\n"
                                       "\n"
                                       "{'rig':" RIG
                                       ",'solver':{'type':'two_bone'},'targets':[{'bone':'foot','position':[0,0,0]}]}\n"
                                       "   \n"
                                       "{'rig':" RIG "," SOLVE_TO(3, 0, 0) "}";
    cli_run run = run_cli(input, "solve", "--jsonl", "-", NULL);
    assert_int_equal(run.status, 1);
    cJSON *lines[8];
    assert_int_equal(output_lines(run.out, lines, 8), 5);
    assert_string_equal(status_of(lines[0]), "ok");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(lines[0], "reached")));
    assert_string_equal(status_of(lines[1]), "error");
    assert_int_equal((int)json_number(lines[1], "line"), 2);
    assert_string_equal(status_of(lines[2]), "ok");
    assert_vec3_near(json_vec3(lines[2], "bones[2].world_position"), reach_vec3_make(0, 0.5, 0.3), 1e-12);
    assert_string_equal(status_of(lines[3]), "error");
    assert_int_equal((int)json_number(lines[3], "line"), 5);
    assert_string_equal(json_at(lines[3], "message")->valuestring, "targets[0].bone: no bone named 'foot'");
    assert_string_equal(status_of(lines[4]), "ok");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(lines[4], "reached")));
    /* One diagnostic line per bad line, each naming its line. */
    assert_non_null(strstr(run.err, "reach: line 2: invalid JSON"));
    assert_non_null(strstr(run.err, "reach: line 5: targets[0].bone: no bone named 'foot'\n"));
    for (int i = 0; i < 5; i++)
        cJSON_Delete(lines[i]);
    cli_run_free(&run);
}

static void all_good_lines_exit_zero(void **state) {
    (void)state;
    const char *input = "{'rig':" RIG "," SOLVE_TO(0.1, 0.3, 0.2) "}\n{'rig':" RIG "," SOLVE_TO(0.2, 0.4, 0.1) "}\n";
    cli_run run = run_cli(input, "solve", "--jsonl", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(run.err, "");
    cJSON *lines[4];
    assert_int_equal(output_lines(run.out, lines, 4), 2);
    for (int i = 0; i < 2; i++)
        cJSON_Delete(lines[i]);
    cli_run_free(&run);
}

static void empty_input_prints_nothing(void **state) {
    (void)state;
    cli_run run = run_cli("", "solve", "--jsonl", "-", NULL);
    assert_int_equal(run.status, 0);
    assert_string_equal(run.out, "");
    cli_run_free(&run);
}

/* --rig gives the rig once; a line's own rig wins; its hinge knee brings a warning. */
static void shared_rig(void **state) {
    (void)state;
    char rig_path[512];
    snprintf(rig_path, sizeof rig_path, "%s/leg_rig.json", examples_dir());
    const char *input = "{" SOLVE_TO(
        0, 0.5, 0.3) "}\n"
                     "{'rig':{'bones':[{'name':'a'},{'name':'b','parent':'a','position':[1,0,0]},{'name':'ankle',"
                     "'parent':'b','position':[1,0,0]}]}," SOLVE_TO(1, 1, 0) "}\n";
    cli_run run = run_cli(input, "solve", "--jsonl", "-", "--rig", rig_path, NULL);
    assert_int_equal(run.status, 0);
    cJSON *lines[4];
    assert_int_equal(output_lines(run.out, lines, 4), 2);
    assert_vec3_near(json_vec3(lines[0], "bones[2].world_position"), reach_vec3_make(0, 0.5, 0.3), 1e-12);
    assert_int_equal(cJSON_GetArraySize(json_at(lines[0], "warnings")), 1);
    assert_string_equal(json_at(lines[1], "bones[0].name")->valuestring, "a");
    assert_null(json_at(lines[1], "warnings"));
    for (int i = 0; i < 2; i++)
        cJSON_Delete(lines[i]);
    cli_run_free(&run);
}

static void example_steps_with_rig_file(void **state) {
    (void)state;
    char rig_path[512], steps_path[512];
    snprintf(rig_path, sizeof rig_path, "%s/leg_rig.json", examples_dir());
    snprintf(steps_path, sizeof steps_path, "%s/leg_steps.jsonl", examples_dir());
    cli_run run = run_cli(NULL, "solve", "--jsonl", steps_path, "--rig", rig_path, NULL);
    assert_int_equal(run.status, 0);
    cJSON *lines[8];
    assert_int_equal(output_lines(run.out, lines, 8), 4);
    for (int i = 0; i < 4; i++) {
        assert_string_equal(status_of(lines[i]), "ok");
        assert_all_finite_text(run.out);
        cJSON_Delete(lines[i]);
    }
    cli_run_free(&run);
}

static void missing_rig_is_an_error_per_line(void **state) {
    (void)state;
    cli_run run = run_cli("{" SOLVE_TO(0, 0.5, 0.3) "}\n", "solve", "--jsonl", "-", NULL);
    assert_int_equal(run.status, 1);
    assert_non_null(run.json);
    assert_string_equal(json_at(run.json, "message")->valuestring, "rig: required field is missing");
    assert_int_equal((int)json_number(run.json, "line"), 1);
    cli_run_free(&run);
}

/* A bad --rig file stops the run before any line, with one error. */
static void bad_rig_file(void **state) {
    (void)state;
    cli_run missing = run_cli("{" SOLVE_TO(0, 0.5, 0.3) "}\n", "solve", "--jsonl", "-", "--rig", "no/rig.json", NULL);
    assert_cli_error(&missing, 1, "cannot read 'no/rig.json': No such file or directory");
    cli_run_free(&missing);

    char path[512];
    snprintf(path, sizeof path, "%s/leg_steps.jsonl", examples_dir());
    cli_run bad = run_cli("{'bones':[{'name':'hip','parent':'pelvis'}]}", "solve", "--jsonl", path, "--rig", "-", NULL);
    assert_cli_error(&bad, 1, "-: bones[0].parent: no bone named 'pelvis'");
    cli_run_free(&bad);
}

/* A parse error on a line is placed by that line's number, as the error object's "line" is. */
static void parse_errors_name_their_line(void **state) {
    (void)state;
    cli_run run = run_cli("{'rig':" RIG "," SOLVE_TO(0.1, 0.3, 0.2) "}\n\n{'x': }\n{'x':'a\tb'}\n", "solve", "--jsonl",
                          "-", NULL);
    assert_int_equal(run.status, 1);
    cJSON *lines[4];
    assert_int_equal(output_lines(run.out, lines, 4), 3);
    assert_int_equal((int)json_number(lines[1], "line"), 3);
    assert_string_equal(json_at(lines[1], "message")->valuestring, "invalid JSON at line 3, column 7");
    assert_int_equal((int)json_number(lines[2], "line"), 4);
    assert_string_equal(json_at(lines[2], "message")->valuestring,
                        "invalid JSON at line 4, column 8: a control character inside a string (write it escaped)");
    for (int i = 0; i < 3; i++)
        cJSON_Delete(lines[i]);
    cli_run_free(&run);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(good_and_bad_lines),
        cmocka_unit_test(parse_errors_name_their_line),
        cmocka_unit_test(all_good_lines_exit_zero),
        cmocka_unit_test(empty_input_prints_nothing),
        cmocka_unit_test(shared_rig),
        cmocka_unit_test(example_steps_with_rig_file),
        cmocka_unit_test(missing_rig_is_an_error_per_line),
        cmocka_unit_test(bad_rig_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
