/* Doubles as the shortest decimal text that reads back (strtod) to the same double. */
#ifndef REACH_CLI_NUMBER_FORMAT_H
#define REACH_CLI_NUMBER_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* digits * 10^exponent, digits without trailing zeros. */
typedef struct cli_decimal {
    uint64_t digits;
    int exponent;
} cli_decimal;

/* The decimal with the fewest significant digits that reads back to |x| (finite, nonzero);
 * of two such, the closer to |x| (an exact tie: the even one). */
cli_decimal cli_shortest_decimal(double x);

/* Enough for any finite double's text and its NUL. */
#define CLI_NUMBER_TEXT_SIZE 32

/* Writes finite x as cli_shortest_decimal's digits with its sign ("-0" for negative zero),
 * laid out as printf's %g lays out 15 significant digits (17 for a number that needs more than
 * 15): plain from 1e-4 to below 1e15 (1e17), scientific otherwise ("1.5e-07", "1e+300").
 * Returns the text's length. */
size_t cli_format_double(double x, char text[CLI_NUMBER_TEXT_SIZE]);

#endif
