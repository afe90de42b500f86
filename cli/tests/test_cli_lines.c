/* The --jsonl line reader (cli_read_line) against splitting the same bytes at each newline:
 * random streams of short and long lines (across the reader's 4096-byte blocks) holding any
 * bytes, NUL and carriage returns included, with and without a newline at the end, and the exact
 * cases at the block's edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "input.h"

/* Reads bytes back line by line and checks each line against the bytes between newlines (a
 * final \r dropped; nothing after a last newline is a line). */
static void check_lines(const char *bytes, size_t size) {
    FILE *stream = tmpfile();
    assert_non_null(stream);
    assert_int_equal(fwrite(bytes, 1, size, stream), size);
    rewind(stream);
    cli_line_reader reader = {stream, NULL, 0, 0};
    cli_error err = {""};
    size_t start = 0;
    while (start < size) {
        const char *newline = memchr(bytes + start, '\n', size - start);
        size_t end = newline ? (size_t)(newline - bytes) : size;
        size_t length = end - start;
        if (length > 0 && bytes[end - 1] == '\r') length--;
        assert_int_equal(cli_read_line(&reader, &err), 1);
        assert_int_equal(reader.length, length);
        assert_memory_equal(reader.text, bytes + start, length);
        assert_int_equal(reader.text[length], '\0');
        start = end + 1;
    }
    assert_int_equal(cli_read_line(&reader, &err), 0);
    cli_line_reader_free(&reader);
    fclose(stream);
}

static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void random_streams(void **state) {
    (void)state;
    uint64_t seed = 6;
    enum { MAX_SIZE = 20000 };
    char *bytes = malloc(MAX_SIZE);
    assert_non_null(bytes);
    int streams = getenv("REACH_TEST_QUICK") ? 20 : 400;
    for (int s = 0; s < streams; s++) {
        size_t size = 0;
        while (size < MAX_SIZE - 1) {
            /* Mostly short lines, some of several blocks. */
            uint64_t r = next_random(&seed);
            size_t length = r % 8 == 0 ? (size_t)(r >> 8) % 9000 : (size_t)(r >> 8) % 80;
            if (size + length + 1 > MAX_SIZE || next_random(&seed) % 16 == 0) break;
            for (size_t i = 0; i < length; i++) {
                uint64_t kind = next_random(&seed) % 64;
                bytes[size + i] = kind == 0 ? '\0' : kind == 1 ? '\r' : kind == 2 ? 'x' : (char)(' ' + kind);
            }
            size += length;
            bytes[size++] = '\n';
        }
        if (size > 0 && next_random(&seed) % 2) size--; /* no newline at the end */
        check_lines(bytes, size);
    }
    free(bytes);
}

/* Lines whose length with or without a newline meets the end of a 4096-byte block (fgets reads
 * one byte fewer than its buffer), empty lines, and no input. */
static void block_edges(void **state) {
    (void)state;
    check_lines("", 0);
    check_lines("\n", 1);
    check_lines("\n\n\r\n", 4);
    check_lines("a", 1);
    check_lines("a\0b\nc\0", 6);
    char *bytes = malloc(3 * 4096 + 8);
    assert_non_null(bytes);
    for (size_t length = 4090; length <= 4100; length++)
        for (int newline = 0; newline <= 1; newline++)
            for (char last = 'a'; last <= 'c'; last++) {
                memset(bytes, 'y', length);
                bytes[length - 1] = last == 'b' ? '\0' : last == 'c' ? '\r' : 'a';
                bytes[length] = '\n';
                memset(bytes + length + 1, 'z', 2 * 4096);
                check_lines(bytes, length + (size_t)newline);
                check_lines(bytes, length + 1 + (size_t)newline * 2 * 4096);
            }
    free(bytes);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_streams),
        cmocka_unit_test(block_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
