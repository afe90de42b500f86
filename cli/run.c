/* Command-line parsing and the commands' plumbing: read, handle, print, exit status. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "input.h"
#include "json_read.h"
#include "result.h"
#include "solvers.h"
#include "walk.h"
#include "reach/config.h"

typedef struct cli_args {
    const char *command; /* "solve" or "fk" ("walk" has options of its own) */
    const char *file;
    const char *rig_file; /* --rig */
    int jsonl;            /* --jsonl */
} cli_args;

static void print_help(FILE *out) {
    char solvers[256];
    cli_solver_names(solvers, sizeof solvers);
    fprintf(out,
            "usage: reach solve FILE|- [--rig RIGFILE]\n"
            "       reach solve --jsonl FILE|- [--rig RIGFILE]\n"
            "       reach fk FILE|-\n"
            "       reach info FILE\n"
            "       reach convert IN OUT   (a .bvh, .gltf, .glb or .urdf into a .bvh, .gltf, .glb or .json)\n"
            "       reach retarget SOURCE... TARGET [--map MAP.json] [-o OUT] [--jobs N] [--format jsonl|bvh]\n"
            "       reach walk [--legs N] [--frames N] [--dt SECONDS] [--path PATH] [--terrain TERRAIN]\n"
            "       reach --help | --version\n"
            "\n"
            "Inverse kinematics on a rig described in JSON; results are printed as JSON.\n"
            "\n"
            "  solve FILE       solve one request ({\"rig\", \"solver\", \"targets\", ...})\n"
            "  --jsonl          read one request per line and print one result per line\n"
            "  --rig RIGFILE    the rig for requests that leave out \"rig\" (JSON, .urdf, .bvh, .gltf, .glb)\n"
            "  fk FILE          forward kinematics of {\"rig\", \"joints\"}\n"
            "  info FILE        the rig a file describes (URDF, BVH, glTF, GLB, or JSON with a rig), as a tree,\n"
            "                   and a character's motion (frames, rate, length)\n"
            "  -                read standard input instead of a file\n"
            "  retarget         carry clips (.bvh, .gltf, .glb, or folders of them) onto TARGET (a character\n"
            "                   file or a .urdf robot); one JSON line per frame, or -o OUT (.bvh, .jsonl; a\n"
            "                   folder for several clips, each written in --format); --jobs N clips at a time\n"
            "  walk             the standard creature walking; one JSON object per frame\n"
            "    --legs N       2 to %d, even (default 8)\n"
            "    --frames N     frames to print (default 600)\n"
            "    --dt SECONDS   time per frame, 1e-6 to 1 (default 0.016)\n"
            "    --path PATH    circle, line or figure8 (default circle)\n"
            "    --terrain T    flat, waves or steps (default flat)\n"
            "\n"
            "Solver types: %s.\n"
            "Exit status: 0 success, 1 a request failed or a result could not be written, 2 bad usage.\n"
            "Request and result formats: docs/cli.md.\n",
            REACH_WALKER_MAX_LEGS, solvers);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
usage_error(FILE *out, FILE *err, const char *format, ...) {
    char message[CLI_MESSAGE_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    strncat(message, " (see 'reach --help')", sizeof message - strlen(message) - 1);
    cli_print_error(out, err, 0, message);
    return REACH_CLI_EXIT_USAGE;
}

static int is_help(const char *arg) { return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0; }

/* Fills args from argv[2..]; returns -1 when they are fine, else the exit status to return. */
static int parse_args(int argc, char **argv, cli_args *args, FILE *out, FILE *err) {
    int solve = strcmp(args->command, "solve") == 0;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (is_help(arg)) {
            print_help(out);
            return REACH_CLI_EXIT_OK;
        } else if (solve && strcmp(arg, "--jsonl") == 0) {
            args->jsonl = 1;
        } else if (solve && strcmp(arg, "--rig") == 0) {
            if (i + 1 >= argc) return usage_error(out, err, "--rig needs a file name");
            if (args->rig_file) return usage_error(out, err, "--rig given twice: give one rig file");
            args->rig_file = argv[++i];
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return usage_error(out, err, "unknown option '%s' for '%s'", arg, args->command);
        } else if (args->file) {
            return usage_error(out, err, "unexpected argument '%s': give one FILE", arg);
        } else {
            args->file = arg;
        }
    }
    if (!args->file) return usage_error(out, err, "'%s' needs a FILE (or - for standard input)", args->command);
    if (args->rig_file && strcmp(args->rig_file, "-") == 0 && strcmp(args->file, "-") == 0)
        return usage_error(out, err, "FILE and --rig cannot both be standard input");
    return -1;
}

static cJSON *load_json(const char *path, FILE *in, cli_error *err) {
    char *text = NULL;
    size_t length = 0;
    if (!cli_read_file(path, in, &text, &length, err)) return NULL;
    cJSON *json = cli_parse_json(text, length, 1, err);
    free(text);
    return json;
}

/* The --rig file: a URDF, a rig object, or any object with a "rig" field (such as a request). */
static int load_rig(const char *path, FILE *in, cli_rig *rig, cli_error *err) {
    /* A path on the command line is the user's, from the working directory; a path inside the
     * rig file is from that file's folder. */
    cli_rig_set_folder(NULL);
    if (cli_is_rig_file_path(path)) return cli_rig_read_file(path, rig, err);
    cli_rig_set_folder(path);
    cJSON *json = load_json(path, in, err);
    if (!json) return 0;
    const cJSON *rig_json = cJSON_IsObject(json) && jr_get(json, "rig") ? jr_get(json, "rig") : json;
    cli_error rig_err = {""};
    int ok = cli_rig_read(rig_json, rig, &rig_err);
    if (!ok) cli_fail(err, "%s: %s", path, rig_err.message);
    cJSON_Delete(json);
    return ok;
}

static int run_one(const cli_args *args, const cli_rig *shared_rig, FILE *in, FILE *out, FILE *err) {
    cli_error error = {""};
    cli_rig_set_folder(args->file);
    cJSON *json = load_json(args->file, in, &error);
    cJSON *result = NULL;
    if (json)
        result = strcmp(args->command, "fk") == 0 ? cli_fk_request(json, &error)
                                                  : cli_solve_request(json, shared_rig, &error);
    int ok = result && cli_result_print(out, result, &error);
    if (!ok) cli_print_error(out, err, 0, error.message);
    cJSON_Delete(result);
    cJSON_Delete(json);
    return ok ? REACH_CLI_EXIT_OK : REACH_CLI_EXIT_FAILED;
}

static int run_lines(const cli_args *args, const cli_rig *shared_rig, FILE *in, FILE *out, FILE *err) {
    cli_error error = {""};
    int opened;
    FILE *lines = cli_open_input(args->file, in, &opened, &error);
    if (!lines) {
        cli_print_error(out, err, 0, error.message);
        return REACH_CLI_EXIT_FAILED;
    }
    cli_rig_set_folder(args->file);
    int failed = cli_solve_lines(lines, shared_rig, out, err);
    if (opened) fclose(lines);
    return failed ? REACH_CLI_EXIT_FAILED : REACH_CLI_EXIT_OK;
}

static int run_command(const cli_args *args, FILE *in, FILE *out, FILE *err) {
    cli_rig rig;
    cli_error error = {""};
    if (args->rig_file && !load_rig(args->rig_file, in, &rig, &error)) {
        cli_print_error(out, err, 0, error.message);
        return REACH_CLI_EXIT_FAILED;
    }
    const cli_rig *shared_rig = args->rig_file ? &rig : NULL;
    int status = args->jsonl ? run_lines(args, shared_rig, in, out, err) : run_one(args, shared_rig, in, out, err);
    if (args->rig_file) cli_rig_free(&rig);
    return status;
}

static int run_convert(int argc, char **argv, FILE *out, FILE *err) {
    if (argc != 4 || argv[2][0] == '-' || argv[3][0] == '-')
        return usage_error(
            out, err, "'convert' needs IN and OUT (a .bvh, .gltf, .glb or .urdf into a .bvh, .gltf, .glb or .json)");
    cli_error error = {""};
    if (cli_convert(argv[2], argv[3], &error)) return REACH_CLI_EXIT_OK;
    cli_print_error(out, err, 0, error.message);
    return REACH_CLI_EXIT_FAILED;
}

static int run_info(int argc, char **argv, FILE *in, FILE *out, FILE *err) {
    if (argc == 3 && is_help(argv[2])) {
        print_help(out);
        return REACH_CLI_EXIT_OK;
    }
    if (argc != 3 || argv[2][0] == '-')
        return usage_error(out, err, "'info' needs one FILE (a URDF, BVH, glTF or GLB, or JSON with a rig)");
    const char *path = argv[2];
    cli_error error = {""};
    /* The URDF's path is the user's; paths inside a JSON rig are from its folder. */
    cli_rig_set_folder(cli_is_rig_file_path(path) ? NULL : path);
    cJSON *json = cli_is_rig_file_path(path) ? NULL : load_json(path, in, &error);
    int ok = (json || cli_is_rig_file_path(path)) && cli_info(path, json, out, &error);
    cJSON_Delete(json);
    if (ok) return REACH_CLI_EXIT_OK;
    cli_print_error(out, err, 0, error.message);
    return REACH_CLI_EXIT_FAILED;
}

static int run_walk(int argc, char **argv, FILE *out, FILE *err) {
    cli_walk_options options;
    cli_error error = {""};
    if (!cli_walk_parse(argc, argv, 2, &options, &error)) return usage_error(out, err, "%s", error.message);
    if (options.help) {
        print_help(out);
        return REACH_CLI_EXIT_OK;
    }
    if (cli_walk_run(&options, out, &error)) return REACH_CLI_EXIT_OK;
    cli_print_error(out, err, 0, error.message);
    return REACH_CLI_EXIT_FAILED;
}

int reach_cli_run(int argc, char **argv, FILE *in, FILE *out, FILE *err) {
    if (argc < 2) return usage_error(out, err, "missing command");
    const char *command = argv[1];
    if (is_help(command)) {
        print_help(out);
        return REACH_CLI_EXIT_OK;
    }
    if (strcmp(command, "--version") == 0) {
        fprintf(out, "reach %s (%s precision)\n", reach_version(), reach_precision());
        return REACH_CLI_EXIT_OK;
    }
    if (strcmp(command, "walk") == 0) return run_walk(argc, argv, out, err);
    if (strcmp(command, "info") == 0) return run_info(argc, argv, in, out, err);
    if (strcmp(command, "convert") == 0) return run_convert(argc, argv, out, err);
    if (strcmp(command, "retarget") == 0) {
        if (argc == 3 && is_help(argv[2])) {
            print_help(out);
            return REACH_CLI_EXIT_OK;
        }
        return cli_retarget(argc, argv, out, err);
    }
    if (strcmp(command, "solve") != 0 && strcmp(command, "fk") != 0)
        return usage_error(out, err, "unknown command '%s' (expected solve, fk, info, convert, retarget or walk)",
                           command);
    cli_args args = {command, NULL, NULL, 0};
    int status = parse_args(argc, argv, &args, out, err);
    return status >= 0 ? status : run_command(&args, in, out, err);
}
