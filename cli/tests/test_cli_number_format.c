/* The CLI's number text (number_format.h) against an independent oracle: the C library's
 * printf, which writes a double's exact decimal expansion when asked for enough digits, and
 * strtod, which reads decimals correctly rounded. For every double tried: the text reads back
 * to the same bits; no decimal with one digit fewer reads back to it (so the digits are the
 * fewest); of the two decimals with as many digits around it, the one chosen is the closer; and
 * the text is no longer than the shortest of "%.15g", "%.16g" and "%.17g" that reads back. Over
 * large seeded random sets (every bit pattern, numbers in [-1, 1], floats widened, decimals as
 * people type them), every power of two and of ten with its neighbours, and the smallest
 * subnormals. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "number_format.h"

/* 100 000 cases a set, 1 000 when the environment sets REACH_TEST_QUICK. */
static int cases(void) { return getenv("REACH_TEST_QUICK") ? 1000 : 100000; }

/* splitmix64: the same numbers on every machine. */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double from_bits(uint64_t bits) {
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static uint64_t bits_of(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

/* A double's exact decimal expansion: significant digits (no trailing zeros) and the exponent
 * of the first, by printf with more digits than any double has (767 significant at most). */
typedef struct expansion {
    char digits[820];
    int count, exponent;
} expansion;

static expansion expand(double magnitude) {
    char text[840];
    snprintf(text, sizeof text, "%.800e", magnitude);
    expansion e = {{0}, 0, 0};
    const char *c = text;
    for (; *c != 'e'; c++)
        if (*c != '.') e.digits[e.count++] = *c;
    e.exponent = atoi(c + 1);
    while (e.count > 1 && e.digits[e.count - 1] == '0')
        e.count--;
    return e;
}

/* The first m digits of the expansion as an integer (its value times 10^(exponent - m + 1)). */
static uint64_t leading(const expansion *e, int m) {
    uint64_t value = 0;
    for (int i = 0; i < m; i++)
        value = value * 10 + (uint64_t)(i < e->count ? e->digits[i] - '0' : 0);
    return value;
}

static double read_decimal(uint64_t digits, int exponent) {
    char text[48];
    snprintf(text, sizeof text, "%llue%d", (unsigned long long)digits, exponent);
    return strtod(text, NULL);
}

/* digits 10^exponent without trailing zeros, for comparing decimals. */
static cli_decimal normal(uint64_t digits, int exponent) {
    while (digits != 0 && digits % 10 == 0) {
        digits /= 10;
        exponent++;
    }
    return (cli_decimal){digits, exponent};
}

static int same_decimal(cli_decimal a, cli_decimal b) { return a.digits == b.digits && a.exponent == b.exponent; }

static int digit_count(uint64_t digits) {
    int n = 0;
    for (; digits; digits /= 10)
        n++;
    return n;
}

/* -1, 0 or 1 as the expansion's digits after the first m are below, at or above one half. */
static int rest_against_half(const expansion *e, int m) {
    if (m >= e->count) return -1;
    if (e->digits[m] != '5') return e->digits[m] < '5' ? -1 : 1;
    return m + 1 < e->count ? 1 : 0;
}

/* The shortest of "%.15g", "%.16g" and "%.17g" that reads back to x: the length the text must
 * not exceed. (Fewer digits in %g's own layout can be shorter still, "9.7e+07" for 97000000,
 * but the CLI keeps plain numbers up to 1e15 as it always has; that its digits are the fewest
 * is what check_decimal proves.) */
static size_t printf_shortest_length(double x) {
    char text[48];
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, x);
        if (bits_of(strtod(text, NULL)) == bits_of(x)) return strlen(text);
    }
    fail_msg("%.17g does not read back to itself", x);
    return 0;
}

static void check_decimal(double x) {
    double magnitude = fabs(x);
    cli_decimal d = cli_shortest_decimal(magnitude);
    int n = digit_count(d.digits);
    if (d.digits % 10 == 0 || n > 17) fail_msg("%.17g: digits %llu", x, (unsigned long long)d.digits);
    if (bits_of(read_decimal(d.digits, d.exponent)) != bits_of(magnitude))
        fail_msg("%.17g: %llue%d does not read back", x, (unsigned long long)d.digits, d.exponent);
    expansion e = expand(magnitude);
    /* The decimals with n - 1 digits on either side of the double: neither reads back. */
    if (n > 1) {
        uint64_t below = leading(&e, n - 1);
        int exponent = e.exponent - (n - 1) + 1;
        if (read_decimal(below, exponent) == magnitude || read_decimal(below + 1, exponent) == magnitude)
            fail_msg("%.17g: %d digits are enough, %llue%d has %d", x, n - 1, (unsigned long long)d.digits, d.exponent,
                     n);
    }
    /* Of the decimals with n digits on either side, the closer that reads back; a tie, the even. */
    uint64_t below = leading(&e, n);
    int exponent = e.exponent - n + 1;
    int below_reads = read_decimal(below, exponent) == magnitude;
    int above_reads = read_decimal(below + 1, exponent) == magnitude;
    int half = rest_against_half(&e, n);
    int want_above = !below_reads || (above_reads && (half > 0 || (half == 0 && below % 2 == 1)));
    cli_decimal expected = normal(want_above ? below + 1 : below, exponent);
    if (!same_decimal(d, expected))
        fail_msg("%.17g: %llue%d, expected %llue%d", x, (unsigned long long)d.digits, d.exponent,
                 (unsigned long long)expected.digits, expected.exponent);
}

static void check_text(double x) {
    char text[CLI_NUMBER_TEXT_SIZE];
    size_t length = cli_format_double(x, text);
    if (length != strlen(text)) fail_msg("%.17g: length %zu of '%s'", x, length, text);
    char *end = NULL;
    if (bits_of(strtod(text, &end)) != bits_of(x) || *end != '\0') fail_msg("%.17g: '%s' does not read back", x, text);
    if (length > printf_shortest_length(x)) fail_msg("%.17g: '%s' is longer than printf's", x, text);
    if (x == 0) return;
    /* The layout of %g with 15 significant digits (17 for a number that needs more): the same
     * text as %.15g where 15 digits suffice, for a normal double (a subnormal may need fewer
     * digits than 15 and yet have a different 15th). */
    cli_decimal d = cli_shortest_decimal(x);
    int n = digit_count(d.digits), first = n + d.exponent - 1;
    char expected[48];
    snprintf(expected, sizeof expected, "%.15g", x);
    if (n <= 15 && fabs(x) >= DBL_MIN && strcmp(text, expected) != 0)
        fail_msg("%.17g: '%s', %%.15g writes '%s'", x, text, expected);
    int scientific = strchr(text, 'e') != NULL;
    if ((n > 15 || fabs(x) < DBL_MIN) && scientific != (first < -4 || first >= (n > 15 ? 17 : 15)))
        fail_msg("%.17g: '%s' laid out wrongly", x, text);
}

static void check(double x) {
    if (x != 0) check_decimal(x);
    check_text(x);
}

/* x, the doubles either side of it, and their negatives. */
static void check_with_neighbours(double x) {
    double around[3] = {nextafter(x, -INFINITY), x, nextafter(x, INFINITY)};
    for (int i = 0; i < 3; i++)
        if (isfinite(around[i])) {
            check(around[i]);
            check(-around[i]);
        }
}

static const char *text_of(double x) {
    static char text[CLI_NUMBER_TEXT_SIZE];
    cli_format_double(x, text);
    return text;
}

static void edge_cases(void **state) {
    (void)state;
    const double exact[] = {0.0,
                            -0.0,
                            from_bits(1),
                            from_bits(2),
                            from_bits(3),
                            from_bits(4),
                            from_bits(UINT64_C(0x000fffffffffffff)),
                            DBL_MIN,
                            DBL_MAX,
                            DBL_EPSILON,
                            0.1,
                            0.2,
                            0.3,
                            1.0 / 3,
                            2.0 / 3,
                            5e-324,
                            2.2250738585072009e-308,
                            1.7976931348623157e308,
                            9007199254740991.0,
                            9007199254740992.0,
                            9007199254740994.0,
                            4503599627370496.5,
                            1e15,
                            1e16,
                            1e17,
                            1e21,
                            1e22,
                            1e23,
                            123456789012345678.0,
                            2147483647.0,
                            2147483648.0,
                            1e-5,
                            1e-4,
                            0.00012345,
                            1.5e-7};
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
        check_with_neighbours(exact[i]);
    assert_string_equal(text_of(-0.0), "-0");
    assert_string_equal(text_of(0.0), "0");
    assert_string_equal(text_of(5e-324), "5e-324");
    assert_string_equal(text_of(DBL_MAX), "1.7976931348623157e+308");
    assert_string_equal(text_of(0.1), "0.1");
    assert_string_equal(text_of(-1.5e-7), "-1.5e-07");
    assert_string_equal(text_of(1e15), "1e+15");
    assert_string_equal(text_of(123456789012345.0), "123456789012345");
    assert_string_equal(text_of(1234567890123456.8), "1234567890123456.8");
    assert_string_equal(text_of(0.1 + 0.2), "0.30000000000000004");
}

/* Every power of two (each binary exponent, where the spacing of doubles halves below) and of
 * ten, with their neighbours. */
static void powers(void **state) {
    (void)state;
    for (int e = -1074; e <= 1023; e++)
        check_with_neighbours(ldexp(1, e));
    for (int e = -323; e <= 308; e++) {
        char text[16];
        snprintf(text, sizeof text, "1e%d", e);
        check_with_neighbours(strtod(text, NULL));
    }
    /* Integers around each power of two up to 2^64. */
    for (int e = 0; e <= 64; e++)
        for (int d = -3; d <= 3; d++)
            check_with_neighbours(ldexp(1, e) + d);
}

/* The smallest subnormals, every one: those with fewer than three digits' worth of bits are
 * where the algorithm's last digit is dropped from a two-digit s (or s has one digit). */
static void smallest_subnormals(void **state) {
    (void)state;
    for (uint64_t t = 1; t <= (uint64_t)cases() / 2; t++)
        check(from_bits(t));
}

static void random_bit_patterns(void **state) {
    (void)state;
    uint64_t seed = 1;
    for (int i = 0; i < cases(); i++) {
        double x = from_bits(next_random(&seed));
        if (isfinite(x)) check(x);
    }
}

/* What the CLI prints most: coordinates and quaternion parts in [-1, 1], results of arithmetic. */
static void random_unit_numbers(void **state) {
    (void)state;
    uint64_t seed = 2;
    for (int i = 0; i < cases(); i++)
        check((double)(next_random(&seed) >> 11) * 0x1p-52 - 1);
}

static void random_floats_widened(void **state) {
    (void)state;
    uint64_t seed = 3;
    for (int i = 0; i < cases(); i++) {
        uint32_t bits = (uint32_t)next_random(&seed);
        float f;
        memcpy(&f, &bits, sizeof f);
        if (isfinite(f)) check((double)f);
    }
}

/* A decimal of at most 15 significant digits reads to a double whose shortest decimal is that
 * decimal again: numbers people type come back as they were typed. */
static void random_typed_decimals(void **state) {
    (void)state;
    uint64_t seed = 4;
    for (int i = 0; i < cases(); i++) {
        int count = 1 + (int)(next_random(&seed) % 15);
        uint64_t digits = 1 + next_random(&seed) % 9;
        for (int k = 1; k < count; k++)
            digits = digits * 10 + next_random(&seed) % 10;
        int exponent = (int)(next_random(&seed) % 590) - 300; /* normal doubles only */
        cli_decimal typed = normal(digits, exponent);
        double x = read_decimal(digits, exponent);
        cli_decimal d = cli_shortest_decimal(x);
        if (!same_decimal(d, typed))
            fail_msg("%llue%d came back as %llue%d", (unsigned long long)typed.digits, typed.exponent,
                     (unsigned long long)d.digits, d.exponent);
        check(x);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(powers),
        cmocka_unit_test(smallest_subnormals),
        cmocka_unit_test(random_bit_patterns),
        cmocka_unit_test(random_unit_numbers),
        cmocka_unit_test(random_floats_widened),
        cmocka_unit_test(random_typed_decimals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
