/* reach_urdf_read: the XML parsed into records, the records built into a rig. */
#include <stdlib.h>
#include <string.h>

#include "file_text.h"
#include "urdf_internal.h"

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
    char *text;
    size_t length;
    reach_status st = formats_read_text(path, &text, &length, error, error_size);
    if (st != REACH_OK) return st;
    st = reach_urdf_read(text, length, rig, error, error_size);
    free(text);
    if (st != REACH_OK) formats_prefix_path(path, error, error_size);
    return st;
}
