/* The `reach` command-line tool. */
#include "cli.h"

int main(int argc, char **argv) { return reach_cli_run(argc, argv, stdin, stdout, stderr); }
