/* reach_urdf_read: the XML parsed into records, the records built into a rig. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "urdf_internal.h"

/* A URDF larger than this is no robot description (the largest real ones are a few MB). */
#define MAX_FILE_BYTES ((long)256 << 20)

reach_status reach_urdf_read(const char *text, size_t length, reach_rig *rig, char *error, size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if (!rig || (!text && length > 0)) {
        urdf_error(error, error_size, "no text or no rig given");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    memset(rig, 0, sizeof *rig);
    urdf_document doc;
    memset(&doc, 0, sizeof doc);
    reach_status st = urdf_parse(text ? text : "", length, &doc, error, error_size);
    if (st == REACH_OK) st = urdf_build_rig(&doc, rig, error, error_size);
    urdf_document_free(&doc);
    if (st != REACH_OK) reach_rig_free(rig);
    return st;
}

reach_status reach_urdf_read_file(const char *path, reach_rig *rig, char *error, size_t error_size) {
    if (!path || !rig) {
        urdf_error(error, error_size, "no path or no rig given");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    memset(rig, 0, sizeof *rig);
    FILE *file = fopen(path, "rb");
    if (!file) {
        urdf_error(error, error_size, "%s: cannot be opened", path);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    long size = -1;
    if (fseek(file, 0, SEEK_END) == 0) size = ftell(file);
    if (size < 0 || size > MAX_FILE_BYTES || fseek(file, 0, SEEK_SET) != 0) {
        fclose(file);
        urdf_error(error, error_size, "%s: cannot be read (or larger than %ld bytes)", path, MAX_FILE_BYTES);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    char *text = malloc((size_t)size + 1);
    size_t got = text ? fread(text, 1, (size_t)size, file) : 0;
    fclose(file);
    if (!text || got != (size_t)size) {
        free(text);
        urdf_error(error, error_size, "%s: cannot be read", path);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    reach_status st = reach_urdf_read(text, got, rig, error, error_size);
    free(text);
    if (st != REACH_OK && error && error_size > 0) {
        /* The file's name before the message, so a user knows which file the line is in. */
        size_t message = strlen(error), name = strlen(path);
        if (name + 2 + message < error_size) {
            memmove(error + name + 2, error, message + 1);
            memcpy(error, path, name);
            error[name] = ':';
            error[name + 1] = ' ';
        }
    }
    return st;
}
