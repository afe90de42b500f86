/* Helpers for the URDF tests: read a text, expect success or an error naming what is wrong. */
#ifndef REACH_URDF_CHECK_H
#define REACH_URDF_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "reach/urdf.h"

#define URDF_ERROR_SIZE 512

/* Reads text; on failure prints the message and fails the test. */
static inline void urdf_read_ok(const char *text, reach_rig *rig) {
    char error[URDF_ERROR_SIZE];
    reach_status st = reach_urdf_read(text, strlen(text), rig, error, sizeof error);
    if (st != REACH_OK) fail_msg("reading failed: %s", error);
}

/* Reads text expecting status and a message containing every one of the NULL-ended fragments;
 * the rig must come back empty. (status is an int: va_start after an enum, which C++ promotes,
 * is undefined.) */
static inline void urdf_read_fails(const char *text, size_t length, int status, ...) {
    char error[URDF_ERROR_SIZE];
    reach_rig rig;
    memset(&rig, 0xab, sizeof rig);
    reach_status st = reach_urdf_read(text, length, &rig, error, sizeof error);
    if ((int)st != status)
        fail_msg("status %d (%s), expected %d; message: %s", st, reach_status_string(st), status, error);
    assert_int_equal(rig.bone_count, 0);
    assert_null(rig.bone_names);
    assert_null(rig.joints);
    va_list fragments;
    va_start(fragments, status);
    for (const char *f = va_arg(fragments, const char *); f; f = va_arg(fragments, const char *))
        if (!strstr(error, f)) fail_msg("message \"%s\" does not say \"%s\"", error, f);
    va_end(fragments);
}

#define URDF_FAILS(text, status, ...) urdf_read_fails(text, strlen(text), status, __VA_ARGS__, (const char *)NULL)

/* A whole file's text (the caller frees it); NULL when it cannot be read. */
static inline char *urdf_slurp(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size >= 0 ? (char *)malloc((size_t)size + 1) : NULL;
    size_t got = text ? fread(text, 1, (size_t)size, f) : 0;
    fclose(f);
    if (!text) return NULL;
    text[got] = '\0';
    if (length) *length = got;
    return text;
}

#endif
