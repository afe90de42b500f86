/* The reach command-line tool as a function, so tests can run it in-process on memory streams.
 *
 *   reach solve FILE|-                          one request, one result
 *   reach solve --jsonl FILE|- [--rig RIGFILE]  one request per line, one result per line
 *   reach fk FILE|-                             forward kinematics of a rig and joint values
 *   reach walk [--legs N] [--frames N] ...      the standard walker, one JSON object per frame
 *   reach --help | --version
 *
 * Results and errors go to out as JSON (one object per line), and each error also as one line
 * on err. Returns the exit status: 0 success, 1 a request failed, 2 bad command-line usage.
 * See docs/cli.md for the request and result formats. */
#ifndef REACH_CLI_H
#define REACH_CLI_H

#include <stdio.h>

#define REACH_CLI_EXIT_OK     0
#define REACH_CLI_EXIT_FAILED 1
#define REACH_CLI_EXIT_USAGE  2

int reach_cli_run(int argc, char **argv, FILE *in, FILE *out, FILE *err);

#endif
