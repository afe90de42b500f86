/* UTF-8 in the CLI's text: what reads as input, and what may be printed inside JSON. */
#ifndef REACH_CLI_UTF8_H
#define REACH_CLI_UTF8_H

#include <stddef.h>

/* The length of the UTF-8 sequence at s (at most `left` bytes, left >= 1), 0 when it is not
 * valid UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF. */
size_t cli_utf8_length(const unsigned char *s, size_t left);

/* Replaces every byte of text (NUL-terminated) that does not belong to a valid UTF-8 sequence
 * with '?': a message cut short by its buffer inside a character, or quoting a command-line
 * argument, then still prints as valid JSON. */
void cli_utf8_clean(char *text);

#endif
