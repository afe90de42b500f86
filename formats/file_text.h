/* Whole files read into memory for the readers, files written whole for the writers, and
 * messages prefixed with the file. */
#ifndef REACH_FORMATS_FILE_TEXT_H
#define REACH_FORMATS_FILE_TEXT_H

#include <stddef.h>

#include "reach/status.h"

/* A file larger than this is no rig or clip a reader takes (the largest real ones are tens of MB). */
#define FORMATS_MAX_FILE_BYTES ((long)256 << 20)

/* printf into error (error_size bytes, always terminated; NULL for none). */
void formats_error(char *error, size_t error_size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The file's bytes, NUL-terminated, in *text (the caller frees it) and their count in *length. */
reach_status formats_read_text(const char *path, char **text, size_t *length, char *error, size_t error_size);

/* Writes length bytes to a temporary file beside path ("<path>.tmp"), its name in *temporary
 * (the caller frees it). On error nothing is left behind. */
reach_status formats_write_temporary(const char *path, const void *bytes, size_t length, char **temporary, char *error,
                                     size_t error_size);

/* Renames a temporary file onto path (replacing it); on error the temporary is removed. */
reach_status formats_replace(const char *temporary, const char *path, char *error, size_t error_size);

/* The bytes written to path through a temporary file, so a reader never sees half a file and an
 * error leaves what was there. */
reach_status formats_write_file(const char *path, const void *bytes, size_t length, char *error, size_t error_size);

/* Puts "path: " before the message, so a user knows which file the line is in. */
void formats_prefix_path(const char *path, char *error, size_t error_size);

#endif
