/* reach_gltf_write and reach_gltf_write_file: the built document laid out as a .gltf with its
 * buffer embedded (base64 data: URI) or beside it, or as a .glb (header, JSON chunk, BIN chunk),
 * and written to files through temporaries. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_text.h"
#include "gltf_internal.h"
#include "gltf_write_internal.h"
#include "reach/gltf.h"

static char *base64_uri(const unsigned char *bytes, size_t length) {
    static const char prefix[] = "data:application/octet-stream;base64,";
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t size = sizeof prefix + (length + 2) / 3 * 4;
    char *uri = malloc(size);
    if (!uri) return NULL;
    memcpy(uri, prefix, sizeof prefix - 1);
    char *out = uri + sizeof prefix - 1;
    for (size_t i = 0; i < length; i += 3) {
        uint32_t group = (uint32_t)bytes[i] << 16;
        if (i + 1 < length) group |= (uint32_t)bytes[i + 1] << 8;
        if (i + 2 < length) group |= bytes[i + 2];
        *out++ = digits[(group >> 18) & 63];
        *out++ = digits[(group >> 12) & 63];
        *out++ = i + 1 < length ? digits[(group >> 6) & 63] : '=';
        *out++ = i + 2 < length ? digits[group & 63] : '=';
    }
    *out = '\0';
    return uri;
}

/* A file name as a URI: characters other than letters, digits and "-._~" percent-encoded. */
static char *escape_uri(const char *name) {
    char *uri = malloc(strlen(name) * 3 + 1), *out = uri;
    if (!uri) return NULL;
    for (const unsigned char *c = (const unsigned char *)name; *c; ++c) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("-._~", *c))
            *out++ = (char)*c;
        else
            out += sprintf(out, "%%%02X", *c);
    }
    *out = '\0';
    return uri;
}

static void put_u32(gltf_bytes *bytes, uint32_t value) {
    unsigned char le[4] = {(unsigned char)(value & 0xFFu), (unsigned char)((value >> 8) & 0xFFu),
                           (unsigned char)((value >> 16) & 0xFFu), (unsigned char)(value >> 24)};
    gltf_bytes_append(bytes, le, sizeof le);
}

/* GLB: a 12-byte header, the JSON chunk padded with spaces and the BIN chunk padded with zeros,
 * each to 4 bytes. */
static int pack_glb(const char *json, const gltf_bytes *buffer, gltf_bytes *glb) {
    size_t json_length = strlen(json), json_padded = (json_length + 3) & ~(size_t)3;
    size_t bin_padded = (buffer->length + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_padded + 8 + bin_padded;
    if (total > UINT32_MAX) return 0;
    put_u32(glb, GLB_MAGIC);
    put_u32(glb, 2);
    put_u32(glb, (uint32_t)total);
    put_u32(glb, (uint32_t)json_padded);
    put_u32(glb, GLB_JSON_CHUNK);
    gltf_bytes_append(glb, json, json_length);
    gltf_bytes_append(glb, "   ", json_padded - json_length);
    put_u32(glb, (uint32_t)bin_padded);
    put_u32(glb, GLB_BIN_CHUNK);
    gltf_bytes_append(glb, buffer->data, buffer->length);
    gltf_bytes_append(glb, "\0\0\0", bin_padded - buffer->length);
    return !glb->failed;
}

reach_status reach_gltf_write(const reach_rig *rig, const reach_clip *clips, const char *const *clip_names,
                              int clip_count, reach_gltf_layout layout, const char *bin_uri, unsigned char **document,
                              size_t *document_length, unsigned char **bin, size_t *bin_length, char *error,
                              size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if (!document || !document_length || (layout == REACH_GLTF_SEPARATE && (!bin || !bin_length || !bin_uri))) {
        formats_error(error, error_size, "nowhere to put the document (or, for a separate buffer, its bytes or name)");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    *document = NULL;
    *document_length = 0;
    if (bin) *bin = NULL;
    if (bin_length) *bin_length = 0;
    if (layout != REACH_GLTF_EMBEDDED && layout != REACH_GLTF_SEPARATE && layout != REACH_GLTF_BINARY) {
        formats_error(error, error_size, "layout %d is none of embedded, separate or binary", (int)layout);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    cJSON *json;
    gltf_bytes buffer;
    reach_status st = gltf_build(rig, clips, clip_names, clip_count, &json, &buffer, error, error_size);
    if (st != REACH_OK) return st;

    cJSON *entry = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(json, "buffers"), entry);
    cJSON_AddNumberToObject(entry, "byteLength", (double)buffer.length);
    char *uri = layout == REACH_GLTF_EMBEDDED   ? base64_uri(buffer.data, buffer.length)
                : layout == REACH_GLTF_SEPARATE ? escape_uri(bin_uri)
                                                : NULL;
    int ok = layout == REACH_GLTF_BINARY || (uri && cJSON_AddStringToObject(entry, "uri", uri));
    free(uri);
    char *text = ok ? cJSON_PrintUnformatted(json) : NULL;
    cJSON_Delete(json);
    gltf_bytes glb = {0};
    if (text && layout == REACH_GLTF_BINARY) {
        ok = pack_glb(text, &buffer, &glb);
        free(text);
        text = NULL;
        if (ok) {
            *document = glb.data;
            *document_length = glb.length;
        } else {
            free(glb.data);
        }
    } else if (text) {
        *document = (unsigned char *)text;
        *document_length = strlen(text);
    }
    if (!*document) {
        free(buffer.data);
        formats_error(error, error_size, "out of memory (or a GLB over 4 GB)");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (layout == REACH_GLTF_SEPARATE) {
        *bin = buffer.data;
        *bin_length = buffer.length;
    } else {
        free(buffer.data);
    }
    return REACH_OK;
}

static int ends_with(const char *text, const char *end) {
    size_t n = strlen(text), m = strlen(end);
    if (n < m) return 0;
    for (size_t k = 0; k < m; ++k) {
        char c = text[n - m + k];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != end[k]) return 0;
    }
    return 1;
}

/* The .bin beside a .gltf: its path (the .gltf's with .bin) and its name as the document says it. */
static char *bin_path_of(const char *path) {
    size_t stem = strlen(path) - strlen(".gltf");
    char *bin = malloc(stem + sizeof ".bin");
    if (!bin) return NULL;
    memcpy(bin, path, stem);
    memcpy(bin + stem, ".bin", sizeof ".bin");
    return bin;
}

static const char *file_name(const char *path) {
    const char *name = path;
    for (const char *c = path; *c; ++c)
        if (*c == '/' || *c == '\\') name = c + 1;
    return name;
}

reach_status reach_gltf_write_file(const char *path, const reach_rig *rig, const reach_clip *clips,
                                   const char *const *clip_names, int clip_count, int separate_buffer, char *error,
                                   size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if (!path || (!ends_with(path, ".gltf") && !ends_with(path, ".glb"))) {
        formats_error(error, error_size, "%s: a glTF file's name ends in .gltf or .glb", path ? path : "(no path)");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    reach_gltf_layout layout = ends_with(path, ".glb") ? REACH_GLTF_BINARY
                               : separate_buffer       ? REACH_GLTF_SEPARATE
                                                       : REACH_GLTF_EMBEDDED;
    char *bin_path = layout == REACH_GLTF_SEPARATE ? bin_path_of(path) : NULL;
    if (layout == REACH_GLTF_SEPARATE && !bin_path) {
        formats_error(error, error_size, "%s: out of memory", path);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    unsigned char *document = NULL, *bin = NULL;
    size_t document_length = 0, bin_length = 0;
    reach_status st =
        reach_gltf_write(rig, clips, clip_names, clip_count, layout, bin_path ? file_name(bin_path) : NULL, &document,
                         &document_length, &bin, &bin_length, error, error_size);
    if (st == REACH_OK && bin_path) {
        /* Both files complete under temporary names before either is put in place. */
        char *bin_temporary = NULL, *document_temporary = NULL;
        st = formats_write_temporary(bin_path, bin, bin_length, &bin_temporary, error, error_size);
        if (st == REACH_OK)
            st = formats_write_temporary(path, document, document_length, &document_temporary, error, error_size);
        if (st == REACH_OK) {
            st = formats_replace(bin_temporary, bin_path, error, error_size);
            free(bin_temporary);
            bin_temporary = NULL;
        }
        if (st == REACH_OK) {
            st = formats_replace(document_temporary, path, error, error_size);
            free(document_temporary);
            document_temporary = NULL;
        }
        if (bin_temporary) remove(bin_temporary);
        if (document_temporary) remove(document_temporary);
        free(bin_temporary);
        free(document_temporary);
    } else if (st == REACH_OK) {
        st = formats_write_file(path, document, document_length, error, error_size);
    }
    free(document);
    free(bin);
    free(bin_path);
    return st;
}
