/* Field paths in messages ("bones[2].joint"), put together by hand for speed, against snprintf
 * writing the same formats: every index sign and size, and every buffer size down to none, where
 * both must cut the text at the same place. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "json_read.h"

static void key_paths_as_snprintf(void **state) {
    (void)state;
    const char *paths[] = {"", "targets[0]", "bones[12].joint"}, *keys[] = {"position", "", "twist"};
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++)
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            for (size_t size = 0; size <= 32; size++) {
                char ours[40], expected[40];
                memset(ours, 'x', sizeof ours);
                memset(expected, 'x', sizeof expected);
                jr_key_path(ours, size, paths[p], keys[k]);
                if (paths[p][0] == '\0')
                    snprintf(expected, size, "%s", keys[k]);
                else
                    snprintf(expected, size, "%s.%s", paths[p], keys[k]);
                assert_memory_equal(ours, expected, sizeof ours);
            }
}

static void index_paths_as_snprintf(void **state) {
    (void)state;
    const int indices[] = {0, 7, 10, 99, 12345, INT_MAX, -1, -40, INT_MIN};
    for (size_t i = 0; i < sizeof indices / sizeof indices[0]; i++)
        for (size_t size = 0; size <= 32; size++) {
            char ours[40], expected[40];
            memset(ours, 'x', sizeof ours);
            memset(expected, 'x', sizeof expected);
            jr_index_path(ours, size, "dh.joints", indices[i]);
            snprintf(expected, size, "%s[%d]", "dh.joints", indices[i]);
            assert_memory_equal(ours, expected, sizeof ours);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(key_paths_as_snprintf),
        cmocka_unit_test(index_paths_as_snprintf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
