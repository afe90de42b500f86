/* The one error a request can end with: a message that names the field at fault, written
 * once where the problem is found and carried back up unchanged. */
#ifndef REACH_CLI_ERROR_H
#define REACH_CLI_ERROR_H

#include <stddef.h>

/* Long enough for a field path, two bone names and an explanation; longer text is cut. */
#define CLI_MESSAGE_SIZE 1024

typedef struct cli_error {
    char message[CLI_MESSAGE_SIZE];
} cli_error;

/* Formats the message into err and returns 0, so a reader can write `return cli_fail(...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int cli_fail(cli_error *err, const char *format, ...);

/* Copies text into a fresh allocation (NULL when out of memory). */
char *cli_strdup(const char *text);

#endif
