/* The glTF reader's pieces (and the GLB constants its writer shares): the document (JSON and its buffers) and accessors
 * read from it. */
#ifndef REACH_FORMATS_GLTF_INTERNAL_H
#define REACH_FORMATS_GLTF_INTERNAL_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "reach/status.h"

/* GLB's magic and chunk types, little-endian: "glTF", "JSON", "BIN\0". */
#define GLB_MAGIC      0x46546C67u
#define GLB_JSON_CHUNK 0x4E4F534Au
#define GLB_BIN_CHUNK  0x004E4942u

typedef struct gltf_buffer {
    unsigned char *bytes; /* owned, or NULL for the GLB chunk */
    const unsigned char *data;
    size_t length;
} gltf_buffer;

/* A JSON array's items by index in constant time (cJSON's own lookup walks a linked list, which
 * made hostile files with many items quadratic). Like cJSON_GetArrayItem, it holds an object's
 * members too. */
typedef struct gltf_list {
    const cJSON **items;
    int count;
} gltf_list;

typedef struct gltf_document {
    cJSON *json;
    gltf_buffer *buffers;
    int buffer_count;
    gltf_list accessors, views; /* the top-level "accessors" and "bufferViews" */
    char *error;
    size_t error_size;
} gltf_document;

/* The JSON parsed (from a GLB's chunks or a .gltf's text) and every buffer loaded and checked. */
reach_status gltf_open(const unsigned char *data, size_t length, const char *folder, gltf_document *doc);
void gltf_close(gltf_document *doc);

/* The items of list (none for NULL) indexed into *out, the caller freeing out->items; an error
 * only when out of memory. */
reach_status gltf_list_make(gltf_document *doc, const cJSON *list, gltf_list *out);

/* Item `index` of list, or NULL when there is none. */
const cJSON *gltf_list_item(const gltf_list *list, long long index);

/* A member of object as an integer in [low, high], or fallback when absent (-1 and an error when
 * present but not such an integer). */
long long gltf_integer(gltf_document *doc, const cJSON *object, const char *name, long long low, long long high,
                       long long fallback, const char *where);

/* The floats of accessor `index`: `components` per element (1 SCALAR, 3 VEC3, 4 VEC4, 16 MAT4),
 * float components only, every offset and length checked against its buffer, every value
 * finite. *values (doubles, count × components) is the caller's to free. */
reach_status gltf_read_accessor(gltf_document *doc, int index, int components, double **values, int *count);

#endif
