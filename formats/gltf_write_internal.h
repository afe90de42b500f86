/* The glTF writer's pieces: the document built (gltf_write.c) and laid out as files
 * (gltf_write_layout.c). */
#ifndef REACH_FORMATS_GLTF_WRITE_INTERNAL_H
#define REACH_FORMATS_GLTF_WRITE_INTERNAL_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "reach/clip.h"
#include "reach/rig.h"

/* Bytes that grow; failed is set (and the bytes kept as they were) when memory runs out. */
typedef struct gltf_bytes {
    unsigned char *data;
    size_t length, capacity;
    int failed;
} gltf_bytes;

/* Appends length bytes; 0 once memory has run out. */
int gltf_bytes_append(gltf_bytes *bytes, const void *data, size_t length);

/* The document (its one buffer not yet given a uri or byteLength) and the buffer's bytes, every
 * input checked first. On error both are empty and the message says why. */
reach_status gltf_build(const reach_rig *rig, const reach_clip *clips, const char *const *clip_names, int clip_count,
                        cJSON **json, gltf_bytes *buffer, char *error, size_t error_size);

#endif
