/* The CLI's JSON writer (json_write.h) against cJSON_PrintUnformatted, the writer it replaces:
 * the same text for trees whose numbers cJSON writes exactly, numbers that read back to the
 * same doubles for the rest, raw items as they are, and refusals of what JSON cannot carry. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "json_write.h"

static char *written(const cJSON *item) {
    char *text = NULL;
    size_t length = 0;
    assert_int_equal(cli_json_write(item, &text, &length), CLI_JSON_WRITTEN);
    assert_int_equal(length, strlen(text));
    return text;
}

static void assert_same_as_cjson(const cJSON *item) {
    char *ours = written(item), *theirs = cJSON_PrintUnformatted(item);
    assert_string_equal(ours, theirs);
    free(ours);
    cJSON_free(theirs);
}

/* Every kind of value, nesting, empty containers, and strings with each escape cJSON writes,
 * UTF-8 and a slash (left as they are). */
static void layout_as_cjson(void **state) {
    (void)state;
    cJSON *root = cJSON_Parse("{\"status\":\"ok\",\"reached\":true,\"limited\":false,\"none\":null,"
                              "\"iterations\":12,\"residual\":2.5e-07,\"big\":1e+300,\"small\":-0.000125,"
                              "\"bones\":[{\"name\":\"hip\",\"position\":[0,1,-0.45]},{}],\"empty\":[],"
                              "\"text\":\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0001\\u001f/\\u00e9\\u65e5 \"}");
    assert_non_null(root);
    assert_same_as_cjson(root);
    cJSON_AddItemToObject(root, "nameless", cJSON_CreateString(""));
    assert_same_as_cjson(root);
    cJSON_Delete(root);
}

/* Negative zero is written 0, as cJSON writes it. */
static void zero_has_no_sign(void **state) {
    (void)state;
    cJSON *array = cJSON_CreateArray();
    cJSON_AddItemToArray(array, cJSON_CreateNumber(-0.0));
    cJSON_AddItemToArray(array, cJSON_CreateNumber(0.0));
    char *text = written(array);
    assert_string_equal(text, "[0,0]");
    free(text);
    cJSON_Delete(array);
}

/* Random doubles: cJSON's text where it reads back exactly, and the same doubles always. */
static void numbers_read_back(void **state) {
    (void)state;
    uint64_t seed = 5;
    cJSON *array = cJSON_CreateArray();
    int count = getenv("REACH_TEST_QUICK") ? 100 : 10000;
    double *values = malloc((size_t)count * sizeof *values);
    assert_non_null(values);
    for (int i = 0; i < count; i++) {
        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        values[i] = ldexp((double)(seed >> 11), (int)(seed % 200) - 150) * (seed & 1024 ? -1 : 1);
        cJSON_AddItemToArray(array, cJSON_CreateNumber(values[i]));
    }
    char *text = written(array);
    char *c = text;
    assert_int_equal(*c++, '[');
    for (int i = 0; i < count; i++) {
        char *end = NULL;
        double read = strtod(c, &end);
        assert_memory_equal(&read, &values[i], sizeof read);
        char cjson_text[32];
        snprintf(cjson_text, sizeof cjson_text, "%1.15g", values[i]);
        if (strtod(cjson_text, NULL) == values[i]) {
            assert_int_equal((size_t)(end - c), strlen(cjson_text));
            assert_memory_equal(c, cjson_text, strlen(cjson_text));
        }
        assert_int_equal(*end, i + 1 < count ? ',' : ']');
        c = end + 1;
    }
    free(text);
    free(values);
    cJSON_Delete(array);
}

static void refuses_what_json_cannot_carry(void **state) {
    (void)state;
    const double bad[] = {NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON *object = cJSON_CreateObject();
        cJSON *bones = cJSON_AddArrayToObject(object, "bones");
        cJSON_AddItemToArray(bones, cJSON_CreateNumber(1));
        cJSON_AddItemToArray(bones, cJSON_CreateNumber(bad[i]));
        char *text = NULL;
        size_t length = 0;
        assert_int_equal(cli_json_write(object, &text, &length), CLI_JSON_NOT_FINITE);
        assert_null(text);
        cJSON_Delete(object);
    }
    cJSON invalid = {0}; /* cJSON_Invalid: no value at all */
    char *text = NULL;
    size_t length = 0;
    assert_int_equal(cli_json_write(&invalid, &text, &length), CLI_JSON_INVALID);
    assert_null(text);
}

/* A raw item (text written beforehand, as the pose is) goes out as it is, as cJSON writes it. */
static void raw_items_as_they_are(void **state) {
    (void)state;
    cJSON *object = cJSON_CreateObject();
    cJSON_AddRawToObject(object, "bones", "[{\"name\":\"a\",\"position\":[0,0.1,0]}]");
    cJSON_AddNumberToObject(object, "residual", 2.5e-7);
    assert_same_as_cjson(object);
    cJSON_Delete(object);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layout_as_cjson),       cmocka_unit_test(zero_has_no_sign),
        cmocka_unit_test(numbers_read_back),     cmocka_unit_test(refuses_what_json_cannot_carry),
        cmocka_unit_test(raw_items_as_they_are),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
