/* Whole files read into memory for the readers, files written whole for the writers, and
 * messages prefixed with the file. */
#include "file_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void formats_error(char *error, size_t error_size, const char *format, ...) {
    if (!error || error_size == 0) return;
    va_list args;
    va_start(args, format);
    vsnprintf(error, error_size, format, args);
    va_end(args);
}

reach_status formats_read_text(const char *path, char **text, size_t *length, char *error, size_t error_size) {
    *text = NULL;
    *length = 0;
    FILE *file = fopen(path, "rb");
    if (!file) {
        formats_error(error, error_size, "%s: cannot be opened", path);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    long size = -1;
    if (fseek(file, 0, SEEK_END) == 0) size = ftell(file);
    if (size < 0 || size > FORMATS_MAX_FILE_BYTES || fseek(file, 0, SEEK_SET) != 0) {
        fclose(file);
        formats_error(error, error_size, "%s: cannot be read (or larger than %ld bytes)", path, FORMATS_MAX_FILE_BYTES);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    char *bytes = malloc((size_t)size + 1);
    size_t got = bytes ? fread(bytes, 1, (size_t)size, file) : 0;
    fclose(file);
    if (!bytes || got != (size_t)size) {
        free(bytes);
        formats_error(error, error_size, "%s: cannot be read", path);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    bytes[got] = '\0';
    *text = bytes;
    *length = got;
    return REACH_OK;
}

reach_status formats_write_temporary(const char *path, const void *bytes, size_t length, char **temporary, char *error,
                                     size_t error_size) {
    *temporary = NULL;
    size_t size = strlen(path) + sizeof ".tmp";
    char *name = malloc(size);
    if (!name) {
        formats_error(error, error_size, "%s: out of memory", path);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    snprintf(name, size, "%s.tmp", path);
    FILE *file = fopen(name, "wb");
    int written = file && fwrite(bytes, 1, length, file) == length;
    if (file && fclose(file) != 0) written = 0;
    if (!written) {
        if (file) remove(name);
        free(name);
        formats_error(error, error_size, "%s: cannot be written", path);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    *temporary = name;
    return REACH_OK;
}

reach_status formats_replace(const char *temporary, const char *path, char *error, size_t error_size) {
    if (rename(temporary, path) == 0) return REACH_OK;
    remove(temporary);
    formats_error(error, error_size, "%s: cannot be written (the file cannot be put in place)", path);
    return REACH_ERROR_INVALID_ARGUMENT;
}

reach_status formats_write_file(const char *path, const void *bytes, size_t length, char *error, size_t error_size) {
    char *temporary;
    reach_status st = formats_write_temporary(path, bytes, length, &temporary, error, error_size);
    if (st != REACH_OK) return st;
    st = formats_replace(temporary, path, error, error_size);
    free(temporary);
    return st;
}

void formats_prefix_path(const char *path, char *error, size_t error_size) {
    if (!error || error_size == 0) return;
    size_t message = strlen(error), name = strlen(path);
    if (name + 2 + message >= error_size) return;
    memmove(error + name + 2, error, message + 1);
    memcpy(error, path, name);
    error[name] = ':';
    error[name + 1] = ' ';
}
