/* The command line itself: help, version, and bad usage (exit status 2). */
#include "cli_test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void help_and_version(void **state) {
    (void)state;
    cli_run help = run_cli(NULL, "--help", NULL);
    assert_int_equal(help.status, 0);
    assert_non_null(strstr(help.out, "usage: reach solve FILE|-"));
    assert_non_null(strstr(help.out, "Solver types: two_bone, fabrik, ccd, jacobian."));
    assert_non_null(strstr(help.out, "reach walk [--legs N]"));
    cli_run_free(&help);
    cli_run solve_help = run_cli(NULL, "solve", "-h", NULL);
    assert_int_equal(solve_help.status, 0);
    assert_non_null(strstr(solve_help.out, "--jsonl"));
    cli_run_free(&solve_help);
    cli_run version = run_cli(NULL, "--version", NULL);
    assert_int_equal(version.status, 0);
    assert_string_equal(version.out, "reach 0.1.0 (double precision)\n");
    cli_run_free(&version);
}

static void expect_usage_error(const char *message, const char *a, const char *b, const char *c, const char *d) {
    cli_run run = run_cli("{}", a, b, c, d, NULL);
    assert_cli_error(&run, 2, message);
    cli_run_free(&run);
}

static void bad_usage(void **state) {
    (void)state;
    cli_run none = run_cli(NULL, NULL);
    assert_cli_error(&none, 2, "missing command (see 'reach --help')");
    cli_run_free(&none);
    expect_usage_error(
        "unknown command 'solv' (expected solve, fk, info, convert, retarget or walk) (see 'reach --help')", "solv",
        "-", NULL, NULL);
    expect_usage_error("'solve' needs a FILE (or - for standard input) (see 'reach --help')", "solve", NULL, NULL,
                       NULL);
    expect_usage_error("unknown option '--fast' for 'solve' (see 'reach --help')", "solve", "--fast", "-", NULL);
    expect_usage_error("unknown option '--jsonl' for 'fk' (see 'reach --help')", "fk", "--jsonl", "-", NULL);
    expect_usage_error("unexpected argument 'b.json': give one FILE (see 'reach --help')", "solve", "a.json", "b.json",
                       NULL);
    expect_usage_error("--rig needs a file name (see 'reach --help')", "solve", "--jsonl", "-", "--rig");
    cli_run twice = run_cli(NULL, "solve", "--rig", "a.json", "--rig", "b.json", "-", NULL);
    assert_cli_error(&twice, 2, "--rig given twice: give one rig file (see 'reach --help')");
    cli_run_free(&twice);
    cli_run both = run_cli(NULL, "solve", "--jsonl", "-", "--rig", "-", NULL);
    assert_cli_error(&both, 2, "FILE and --rig cannot both be standard input (see 'reach --help')");
    cli_run_free(&both);
}

/* Output that cannot be written fails the run with exit status 1 and says so, once, on standard
 * error, for every command that prints results. The output here is a stream opened for reading
 * only, where every write fails (as on a full disk, but on any system). */
static void unwritable_output_fails(void **state) {
    (void)state;
    char leg[512], steps[512], rig[512], arm[512];
    snprintf(leg, sizeof leg, "%s/leg.json", examples_dir());
    snprintf(steps, sizeof steps, "%s/leg_steps.jsonl", examples_dir());
    snprintf(rig, sizeof rig, "%s/leg_rig.json", examples_dir());
    snprintf(arm, sizeof arm, "%s/arm_fk.json", examples_dir());
    const char *const runs[][6] = {
        {"reach", "solve", leg, NULL},
        {"reach", "solve", "--jsonl", steps, "--rig", rig},
        {"reach", "fk", arm, NULL},
        {"reach", "walk", "--frames", "3", NULL},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        FILE *in = tmpfile(), *full = fopen(leg, "r"), *err = tmpfile();
        assert_non_null(in);
        assert_non_null(full);
        assert_non_null(err);
        int argc = 0;
        while (argc < 6 && runs[i][argc])
            argc++;
        int status = reach_cli_run(argc, (char **)runs[i], in, full, err);
        assert_int_equal(status, 1);
        char text[512] = "";
        rewind(err);
        size_t length = fread(text, 1, sizeof text - 1, err);
        text[length] = '\0';
        const char *first = strstr(text, "cannot write the result: ");
        if (strncmp(text, "reach: ", 7) != 0 || !first || strstr(first + 1, "cannot write") ||
            strchr(text, '\n') != text + length - 1)
            fail_msg("%s %s: standard error says '%s'", runs[i][1], runs[i][2] ? runs[i][2] : "", text);
        fclose(in);
        fclose(full);
        fclose(err);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_and_version),
        cmocka_unit_test(bad_usage),
        cmocka_unit_test(unwritable_output_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
