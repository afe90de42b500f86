/* The powers of ten number_format.c multiplies by, generated exactly by
 * cli/tools/number_table.py. */
#ifndef REACH_CLI_NUMBER_TABLE_H
#define REACH_CLI_NUMBER_TABLE_H

#include <stdint.h>

/* The first and last decimal exponents k the table holds. */
#define CLI_NUMBER_TABLE_K_MIN (-324)
#define CLI_NUMBER_TABLE_K_MAX 292

/* Row k - K_MIN: g = floor(beta) + 1 where 10^-k = beta 2^r with 2^125 <= beta < 2^126, as
 * {g >> 63, g & (2^63 - 1)}. */
extern const uint64_t cli_number_table[CLI_NUMBER_TABLE_K_MAX - CLI_NUMBER_TABLE_K_MIN + 1][2];

#endif
