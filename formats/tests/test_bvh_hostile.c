/* Hostile BVH files: each is refused with a message naming its line, leaves the rig and clip
 * empty, and none allocates what the file only claims (a frame count of 10^11, a nesting of
 * 50 000 joints). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reach/bvh.h"
#include "test_support.h"

#define BVH_ONE_JOINT "HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n}\n"

/* Reads text expecting status and a message holding every one of the NULL-ended fragments. */
static void bvh_fails(const char *text, size_t length, reach_status status, ...) {
    char error[512];
    reach_rig rig;
    reach_clip clip;
    memset(&rig, 0xab, sizeof rig);
    memset(&clip, 0xab, sizeof clip);
    reach_status st = reach_bvh_read(text, length, &rig, &clip, error, sizeof error);
    if (st != status) fail_msg("status %d (%s), expected %d; message: %s", st, reach_status_string(st), status, error);
    assert_int_equal(rig.bone_count, 0);
    assert_null(rig.bone_names);
    assert_null(clip.frames);
    assert_int_equal(clip.frame_count, 0);
    va_list fragments;
    va_start(fragments, status);
    for (const char *f = va_arg(fragments, const char *); f; f = va_arg(fragments, const char *))
        if (!strstr(error, f)) fail_msg("message \"%s\" does not say \"%s\"", error, f);
    va_end(fragments);
}
#define BVH_FAILS(text, status, ...) bvh_fails(text, strlen(text), status, __VA_ARGS__, (const char *)NULL)

static void test_empty(void **state) {
    (void)state;
    bvh_fails("", 0, REACH_ERROR_INVALID_ARGUMENT, "line 1", "expected 'HIERARCHY'", (const char *)NULL);
    BVH_FAILS("  \n\n ", REACH_ERROR_INVALID_ARGUMENT, "line 3", "expected 'HIERARCHY'");
}

static void test_missing_brace(void **state) {
    (void)state;
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n JOINT leg\n {\n "
              " OFFSET 0 -1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n }\nMOTION\nFrames: 1\nFrame Time: 1\n0 0 0 "
              "0 0 0\n",
              REACH_ERROR_INVALID_ARGUMENT, "line 11", "'hips' (line 2)", "'}' is missing");
    BVH_FAILS("HIERARCHY\nROOT hips\n OFFSET 0 0 0\n}\n", REACH_ERROR_INVALID_ARGUMENT, "line 3", "expected '{'");
    BVH_FAILS(BVH_ONE_JOINT "}\nMOTION\n", REACH_ERROR_INVALID_ARGUMENT, "line 7", "'}' is not expected");
}

static void test_unknown_channel(void **state) {
    (void)state;
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Wrotation Yrotation\n}\n",
              REACH_ERROR_INVALID_ARGUMENT, "line 5", "'Wrotation' is no channel");
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Zrotation Yrotation\n}\n",
              REACH_ERROR_INVALID_ARGUMENT, "line 5", "already has");
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 7 Zrotation\n}\n", REACH_ERROR_INVALID_ARGUMENT,
              "line 5", "from 1 to 6");
}

static void test_fewer_values_than_channels(void **state) {
    (void)state;
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3\n4 5\n6 7 8\n", REACH_ERROR_INVALID_ARGUMENT,
              "line 11", "frame 1 has 2 values, the CHANNELS call for 3");
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3\n4 5 6 7\n", REACH_ERROR_INVALID_ARGUMENT,
              "line 11", "values after the 2 frames");
}

static void test_nan(void **state) {
    (void)state;
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3\n4 nan 6\n", REACH_ERROR_NOT_FINITE, "line 11",
              "'nan' is not a finite number");
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n OFFSET 0 inf 0\n", REACH_ERROR_NOT_FINITE, "line 4", "'inf'");
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 1\nFrame Time: 1e999\n1 2 3\n", REACH_ERROR_NOT_FINITE, "line 9");
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 1\nFrame Time: 0\n1 2 3\n", REACH_ERROR_INVALID_ARGUMENT, "line 9",
              "not a time above 0");
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n OFFSET 0 1e12 0\n", REACH_ERROR_INVALID_ARGUMENT, "line 4", "beyond");
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 1\nFrame Time: 0.1\n1 2x 3\n", REACH_ERROR_INVALID_ARGUMENT, "line 10",
              "'2x' is not a number");
}

/* 10^11 frames are refused from the count, before anything is allocated. */
static void test_frame_count_of_ten_to_the_eleventh(void **state) {
    (void)state;
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 100000000000\nFrame Time: 0.1\n1 2 3\n", REACH_ERROR_INVALID_ARGUMENT,
              "line 8", "'100000000000' is not a frame count");
    /* Within int, but more values than the bytes left could hold. */
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 2000000000\nFrame Time: 0.1\n1 2 3\n", REACH_ERROR_INVALID_ARGUMENT,
              "line 9", "more than the 7 bytes left");
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 0\nFrame Time: 0.1\n", REACH_ERROR_INVALID_ARGUMENT, "line 8");
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: -3\nFrame Time: 0.1\n", REACH_ERROR_INVALID_ARGUMENT, "line 8");
}

/* 50 000 joints each inside the last: refused at the depth limit, without recursion. */
static void test_fifty_thousand_nested_joints(void **state) {
    (void)state;
    const int joints = 50000;
    const char *open = "JOINT j\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
    size_t capacity = (size_t)joints * (strlen(open) + 16) + 256;
    char *text = malloc(capacity);
    size_t n = (size_t)snprintf(text, capacity,
                                "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation "
                                "Yrotation\n");
    for (int i = 1; i < joints; ++i)
        n += (size_t)snprintf(text + n, capacity - n, "%s", open);
    for (int i = 0; i < joints; ++i)
        n += (size_t)snprintf(text + n, capacity - n, "}\n");
    char expected[64];
    snprintf(expected, sizeof expected, "nested deeper than %d", REACH_BVH_MAX_DEPTH);
    /* The root is on line 2 and each joint takes four lines: the 1024th JOINT is on line 4098. */
    bvh_fails(text, n, REACH_ERROR_INVALID_ARGUMENT, expected, "line 4098", (const char *)NULL);
    free(text);
}

static void test_truncated(void **state) {
    (void)state;
    const char *whole = BVH_ONE_JOINT "MOTION\nFrames: 2\nFrame Time: 0.1\n1 2 3\n4 5 6\n";
    /* Every cut short of the whole file is an error (the last value may lose digits but stay a
     * number: cut before it). */
    size_t last = strlen(whole) - 2;
    for (size_t cut = 0; cut < last; ++cut) {
        char error[512];
        reach_rig rig;
        reach_clip clip;
        reach_status st = reach_bvh_read(whole, cut, &rig, &clip, error, sizeof error);
        if (st == REACH_OK) fail_msg("a file cut at byte %zu was read", cut);
        assert_non_null(strstr(error, "line "));
        assert_null(clip.frames);
        assert_null(rig.bone_names);
    }
    BVH_FAILS(BVH_ONE_JOINT "MOTION\nFrames: 3\nFrame Time: 0.1\n1.000 2.000 3.000\n4.000 5.000 6.000\n",
              REACH_ERROR_INVALID_ARGUMENT, "the file ends in frame 2 after 0 of its 3 values");
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n OFFSET 0 0", REACH_ERROR_INVALID_ARGUMENT, "line 4",
              "ends where a number should be");
}

static void test_structure_errors(void **state) {
    (void)state;
    BVH_FAILS("HIERARCHY\nMOTION\n", REACH_ERROR_INVALID_ARGUMENT, "line 2", "MOTION before any ROOT");
    BVH_FAILS("HIERARCHY\nJOINT a\n", REACH_ERROR_INVALID_ARGUMENT, "line 2", "outside ROOT");
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n CHANNELS 3 Zrotation Xrotation Yrotation\n}\n", REACH_ERROR_INVALID_ARGUMENT,
              "line 5", "without an OFFSET");
    BVH_FAILS("HIERARCHY\nROOT hips\n{\n OFFSET 0 0 0\n}\n", REACH_ERROR_INVALID_ARGUMENT, "line 5",
              "without CHANNELS");
    BVH_FAILS(
        "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n End Site\n {\n  OFFSET 0 "
        "1 0\n  CHANNELS 1 Xrotation\n",
        REACH_ERROR_INVALID_ARGUMENT, "line 9", "End Site has no CHANNELS");
    BVH_FAILS("HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n JOINT a\n {\n  OFFSET "
              "0 1 0\n  CHANNELS 1 Xrotation\n }\n}\nMOTION\nFrames: 1\nFrame Time: 1\n0 0 0 0\n",
              REACH_ERROR_INVALID_ARGUMENT, "two joints named 'a'");
    BVH_FAILS(
        "HIERARCHY\nROOT a\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n End Site\n {\n  OFFSET 0 "
        "1 0\n }\n End Site\n",
        REACH_ERROR_INVALID_ARGUMENT, "line 10", "a second End Site");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_missing_brace),
        cmocka_unit_test(test_unknown_channel),
        cmocka_unit_test(test_fewer_values_than_channels),
        cmocka_unit_test(test_nan),
        cmocka_unit_test(test_frame_count_of_ten_to_the_eleventh),
        cmocka_unit_test(test_fifty_thousand_nested_joints),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_structure_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
