/* The shortest decimal of a double by Schubfach (R. Giulietti, "The Schubfach way to render
 * doubles", 2020; the algorithm behind Java's Double.toString since Java 19, with a proof that
 * it returns the shortest decimal in the double's rounding interval, the closest of those when
 * there are two). Debian packages no C library for this (double-conversion and dragonbox are
 * C++), and printing 17 digits with printf then searching for fewer costs microseconds a number.
 *
 * The double is c 2^q. Its rounding interval, scaled by 4, runs from cbl 2^q to cbr 2^q around
 * cb 2^q (cb = 4c); the interval is half as wide below a power of two. Multiplying by 10^-k
 * (the table's g, 126 bits, rounded up) turns these into vbl, vb and vbr, fixed-point numbers
 * of about 17 decimal digits with two fraction bits, rounded to odd so that comparisons on them
 * are exact. With s = vb / 4, the shortest decimal is s rounded down or up to a multiple of ten
 * when exactly one of those lies in the interval, else whichever of s and s + 1 lies in it (the
 * closer to the double when both do). Trailing zeros are dropped last. */
#include "number_format.h"

#include <math.h>
#include <string.h>

#include "number_table.h"

#define SIGNIFICAND_BITS 52
#define HIDDEN_BIT       (UINT64_C(1) << SIGNIFICAND_BITS)
#define LOW_63_BITS      ((UINT64_C(1) << 63) - 1)
/* The exponent of the smallest subnormal, 2^-1074. */
#define Q_MIN (-1074)

/* floor(x / 2^n) for negative x too. */
static int floor_shift(int64_t x, int n) { return (int)(x >= 0 ? x >> n : -((-x - 1) >> n) - 1); }

/* floor(log10(2^q)), floor(log10(3/4 2^q)) and floor(log2(10^e)) by fixed-point products,
 * exact over the exponents of doubles (Schubfach, section 9.3). */
static int floor_log10_pow2(int q) { return floor_shift((int64_t)q * INT64_C(661971961083), 41); }
static int floor_log10_three_quarters_pow2(int q) {
    return floor_shift((int64_t)q * INT64_C(661971961083) - INT64_C(274743187321), 41);
}
static int floor_log2_pow10(int e) { return floor_shift((int64_t)e * INT64_C(913124641741), 38); }

/* The high 64 bits of the 128-bit product a b. */
static uint64_t multiply_high(uint64_t a, uint64_t b) {
    uint64_t a_low = a & 0xffffffffu, a_high = a >> 32, b_low = b & 0xffffffffu, b_high = b >> 32;
    uint64_t low_low = a_low * b_low, high_low = a_high * b_low, low_high = a_low * b_high;
    uint64_t middle = (low_low >> 32) + (high_low & 0xffffffffu) + low_high;
    return a_high * b_high + (high_low >> 32) + (middle >> 32);
}

/* g cp 2^-127 rounded to odd, where g = g1 2^63 + g0: the lowest bit is set when anything below
 * it was cut off, so that the result compares with integers (times 4) as the exact value does. */
static uint64_t round_to_odd(uint64_t g1, uint64_t g0, uint64_t cp) {
    uint64_t x1 = multiply_high(g0, cp);
    uint64_t y0 = g1 * cp, y1 = multiply_high(g1, cp);
    uint64_t z = (y0 >> 1) + x1;
    uint64_t high = y1 + (z >> 63);
    return high | (((z & LOW_63_BITS) + LOW_63_BITS) >> 63);
}

/* The shortest decimal of c 2^q. */
static cli_decimal shortest_of(int q, uint64_t c) {
    uint64_t out = c & 1; /* an even significand's interval includes its ends */
    uint64_t cb = c << 2, cbr = cb + 2, cbl;
    int k;
    if (c != HIDDEN_BIT || q == Q_MIN) {
        cbl = cb - 2;
        k = floor_log10_pow2(q);
    } else {
        /* Below a power of two the doubles are twice as dense. */
        cbl = cb - 1;
        k = floor_log10_three_quarters_pow2(q);
    }
    int h = q + floor_log2_pow10(-k) + 2;
    const uint64_t *g = cli_number_table[k - CLI_NUMBER_TABLE_K_MIN];
    uint64_t vb = round_to_odd(g[0], g[1], cb << h);
    uint64_t vbl = round_to_odd(g[0], g[1], cbl << h);
    uint64_t vbr = round_to_odd(g[0], g[1], cbr << h);

    uint64_t s = vb >> 2;
    /* One digit fewer: s and s + 1 rounded down and up to a multiple of ten. The interval is
     * narrower than ten units, so at most one of them lies in it. Java asks for s >= 100 here
     * because its Double.toString writes at least two digits (and so takes the two smallest
     * subnormals times ten); the shortest wants s >= 10, so that a one-digit s is not passed
     * over for ten. */
    if (s >= 10) {
        uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
        int upin = vbl + out <= sp10 << 2;
        int wpin = (tp10 << 2) + out <= vbr;
        if (upin != wpin) return (cli_decimal){upin ? sp10 : tp10, k};
    }
    uint64_t t = s + 1;
    int uin = vbl + out <= s << 2;
    int win = (t << 2) + out <= vbr;
    if (uin != win) return (cli_decimal){uin ? s : t, k};
    /* Both in the interval: the closer to the double, the even one on a tie. */
    int64_t cmp = (int64_t)(vb - ((s + t) << 1));
    return (cli_decimal){cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t, k};
}

cli_decimal cli_shortest_decimal(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    uint64_t t = bits & (HIDDEN_BIT - 1);
    int biased = (int)(bits >> SIGNIFICAND_BITS) & 0x7ff;
    cli_decimal d;
    if (biased == 0) {
        d = shortest_of(Q_MIN, t);
    } else {
        int q = biased - 1075;
        uint64_t c = HIDDEN_BIT | t;
        /* An integer below 2^53 is its own shortest decimal. */
        if (q < 0 && q > -53 && (c >> -q) << -q == c)
            d = (cli_decimal){c >> -q, 0};
        else
            d = shortest_of(q, c);
    }
    while (d.digits % 10 == 0) {
        d.digits /= 10;
        d.exponent++;
    }
    return d;
}

/* Writes e as printf's %e writes an exponent: a sign and at least two digits. */
static char *write_exponent(char *p, int e) {
    *p++ = 'e';
    *p++ = e < 0 ? '-' : '+';
    if (e < 0) e = -e;
    if (e >= 100) *p++ = (char)('0' + e / 100);
    *p++ = (char)('0' + e / 10 % 10);
    *p++ = (char)('0' + e % 10);
    return p;
}

size_t cli_format_double(double x, char text[CLI_NUMBER_TEXT_SIZE]) {
    char *p = text;
    if (signbit(x)) *p++ = '-';
    if (x == 0) {
        *p++ = '0';
        *p = '\0';
        return (size_t)(p - text);
    }
    cli_decimal d = cli_shortest_decimal(x);
    /* Two digits a step, from the end. */
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    char buffer[20], *digits = buffer + sizeof buffer;
    uint64_t rest = d.digits;
    for (; rest >= 100; rest /= 100) {
        digits -= 2;
        memcpy(digits, pairs + 2 * (rest % 100), 2);
    }
    if (rest >= 10) {
        digits -= 2;
        memcpy(digits, pairs + 2 * rest, 2);
    } else {
        *--digits = (char)('0' + rest);
    }
    int n = (int)(buffer + sizeof buffer - digits);
    int point = n + d.exponent; /* digits before the decimal point */
    int exponent = point - 1;   /* of the first digit, as %e writes it */
    int precision = n <= 15 ? 15 : 17;
    if (exponent < -4 || exponent >= precision) {
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, (size_t)n - 1);
            p += n - 1;
        }
        p = write_exponent(p, exponent);
    } else if (point <= 0) {
        *p++ = '0';
        *p++ = '.';
        memset(p, '0', (size_t)-point);
        p += -point;
        memcpy(p, digits, (size_t)n);
        p += n;
    } else if (point >= n) {
        memcpy(p, digits, (size_t)n);
        p += n;
        memset(p, '0', (size_t)(point - n));
        p += point - n;
    } else {
        memcpy(p, digits, (size_t)point);
        p += point;
        *p++ = '.';
        memcpy(p, digits + point, (size_t)(n - point));
        p += n - point;
    }
    *p = '\0';
    return (size_t)(p - text);
}
