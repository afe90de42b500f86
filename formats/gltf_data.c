/* glTF's containers: the GLB chunks, the JSON, the buffers (data: URIs in base64, files inside
 * the glTF's folder, the GLB's binary chunk) and accessors into them, each checked before use. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_text.h"
#include "gltf_internal.h"

static uint32_t read_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static reach_status fail(gltf_document *doc, const char *message, const char *detail) {
    formats_error(doc->error, doc->error_size, "%s%s", message, detail ? detail : "");
    return REACH_ERROR_INVALID_ARGUMENT;
}

long long gltf_integer(gltf_document *doc, const cJSON *object, const char *name, long long low, long long high,
                       long long fallback, const char *where) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
    if (!item) return fallback;
    double x = cJSON_IsNumber(item) ? item->valuedouble : NAN;
    if (!(x >= (double)low && x <= (double)high) || x != floor(x)) {
        formats_error(doc->error, doc->error_size, "%s: \"%s\" is not an integer from %lld to %lld", where, name, low,
                      high);
        return -1;
    }
    return (long long)x;
}

reach_status gltf_list_make(gltf_document *doc, const cJSON *list, gltf_list *out) {
    out->items = NULL;
    out->count = 0;
    int count = cJSON_GetArraySize(list);
    if (count == 0) return REACH_OK;
    out->items = malloc((size_t)count * sizeof *out->items);
    if (!out->items) return fail(doc, "out of memory", NULL);
    const cJSON *item;
    cJSON_ArrayForEach(item, list) { out->items[out->count++] = item; }
    return REACH_OK;
}

const cJSON *gltf_list_item(const gltf_list *list, long long index) {
    return index >= 0 && index < list->count ? list->items[index] : NULL;
}

static int base64_value(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* A data: URI's base64 payload decoded; NULL when it is not base64. */
static unsigned char *decode_base64(const char *text, size_t *length) {
    size_t n = strlen(text);
    unsigned char *out = malloc(n / 4 * 3 + 3);
    if (!out) return NULL;
    size_t used = 0;
    unsigned bits = 0;
    int held = 0;
    size_t i = 0;
    for (; i < n && text[i] != '='; ++i) {
        int v = base64_value((unsigned char)text[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        bits = (bits << 6 | (unsigned)v) & 0xffffffu;
        held += 6;
        if (held >= 8) {
            held -= 8;
            out[used++] = (unsigned char)(bits >> held);
        }
    }
    for (; i < n; ++i)
        if (text[i] != '=') {
            free(out);
            return NULL;
        }
    *length = used;
    return out;
}

static int hex_digit(char c) {
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* A URI's %XX escapes decoded (a writer escapes spaces and the like in file names), the caller
 * freeing it; NULL for a malformed escape or %00. Decoded before the folder check, so an escaped
 * '..' or '/' is caught too. */
static char *percent_decode(const char *uri) {
    char *name = malloc(strlen(uri) + 1), *out = name;
    if (!name) return NULL;
    for (const char *c = uri; *c; ++c) {
        if (*c != '%') {
            *out++ = *c;
            continue;
        }
        int high = hex_digit(c[1]), low = high < 0 ? -1 : hex_digit(c[2]);
        if (low < 0 || (high == 0 && low == 0)) {
            free(name);
            return NULL;
        }
        *out++ = (char)(high * 16 + low);
        c += 2;
    }
    *out = '\0';
    return name;
}

/* A relative URI inside the folder: no absolute path, no scheme, no `..` segment. */
static int uri_stays_inside(const char *uri) {
    if (!uri[0] || uri[0] == '/' || uri[0] == '\\' || strchr(uri, ':')) return 0;
    const char *segment = uri;
    for (;;) {
        size_t n = strcspn(segment, "/\\");
        if (n == 2 && segment[0] == '.' && segment[1] == '.') return 0;
        if (!segment[n]) return 1;
        segment += n + 1;
    }
}

static reach_status load_buffer(gltf_document *doc, int index, const cJSON *buffer, const char *folder,
                                const unsigned char *bin, size_t bin_length) {
    char where[64];
    snprintf(where, sizeof where, "buffers[%d]", index);
    long long declared = gltf_integer(doc, buffer, "byteLength", 1, (long long)FORMATS_MAX_FILE_BYTES, -1, where);
    if (declared < 0) {
        if (!cJSON_GetObjectItemCaseSensitive(buffer, "byteLength"))
            formats_error(doc->error, doc->error_size, "%s has no byteLength", where);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    gltf_buffer *b = &doc->buffers[index];
    const cJSON *uri = cJSON_GetObjectItemCaseSensitive(buffer, "uri");
    if (!uri) {
        if (index != 0 || !bin) return fail(doc, where, " has no uri and is not a GLB's binary chunk");
        b->data = bin;
        b->length = bin_length;
    } else if (!cJSON_IsString(uri)) {
        return fail(doc, where, ": uri is not a string");
    } else if (strncmp(uri->valuestring, "data:", 5) == 0) {
        const char *comma = strstr(uri->valuestring, ";base64,");
        if (!comma) return fail(doc, where, ": a data: URI that is not base64");
        b->bytes = decode_base64(comma + 8, &b->length);
        if (!b->bytes) return fail(doc, where, ": its data: URI is not valid base64");
        b->data = b->bytes;
    } else {
        char *name = percent_decode(uri->valuestring);
        if (!name) return fail(doc, where, ": uri has a bad or NUL percent escape");
        int inside = uri_stays_inside(name);
        if (!inside || !folder) {
            free(name);
            return fail(doc, where,
                        !inside ? ": uri is absolute, has a scheme or climbs out with '..': refused"
                                : ": an external file, and no folder to read it from");
        }
        size_t size = strlen(folder) + strlen(name) + 2;
        char *path = malloc(size);
        if (path) snprintf(path, size, "%s/%s", folder, name);
        free(name);
        if (!path) return fail(doc, "out of memory", NULL);
        char *text;
        reach_status st = formats_read_text(path, &text, &b->length, doc->error, doc->error_size);
        free(path);
        if (st != REACH_OK) return st;
        b->bytes = (unsigned char *)text;
        b->data = b->bytes;
    }
    if (b->length < (size_t)declared) {
        formats_error(doc->error, doc->error_size, "%s: byteLength %lld, but only %zu bytes are there", where, declared,
                      b->length);
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    b->length = (size_t)declared;
    return REACH_OK;
}

/* A GLB: header, JSON chunk, optional binary chunk, every length inside the data. */
static reach_status open_glb(const unsigned char *data, size_t length, const char **json, size_t *json_length,
                             const unsigned char **bin, size_t *bin_length, gltf_document *doc) {
    if (length < 20) return fail(doc, "a GLB shorter than its header", NULL);
    uint32_t version = read_u32(data + 4), total = read_u32(data + 8);
    if (version != 2) return fail(doc, "a GLB of a version other than 2", NULL);
    if (total > length || total < 20) return fail(doc, "the GLB's length is past the end of the data", NULL);
    uint32_t chunk = read_u32(data + 12), type = read_u32(data + 16);
    if (type != GLB_JSON_CHUNK) return fail(doc, "the GLB's first chunk is not JSON", NULL);
    if (chunk > total - 20) return fail(doc, "the GLB's JSON chunk runs past the end", NULL);
    *json = (const char *)data + 20;
    *json_length = chunk;
    size_t at = 20 + (size_t)chunk;
    at = (at + 3) & ~(size_t)3;
    *bin = NULL;
    *bin_length = 0;
    if (at + 8 <= total) {
        uint32_t bin_chunk = read_u32(data + at), bin_type = read_u32(data + at + 4);
        if (bin_type == GLB_BIN_CHUNK) {
            if (bin_chunk > total - at - 8) return fail(doc, "the GLB's binary chunk runs past the end", NULL);
            *bin = data + at + 8;
            *bin_length = bin_chunk;
        }
    }
    return REACH_OK;
}

reach_status gltf_open(const unsigned char *data, size_t length, const char *folder, gltf_document *doc) {
    const char *json = (const char *)data;
    size_t json_length = length;
    const unsigned char *bin = NULL;
    size_t bin_length = 0;
    if (length >= 4 && read_u32(data) == GLB_MAGIC) {
        reach_status st = open_glb(data, length, &json, &json_length, &bin, &bin_length, doc);
        if (st != REACH_OK) return st;
    }
    if (json_length == 0) return fail(doc, "empty: no glTF JSON", NULL);
    doc->json = cJSON_ParseWithLength(json, json_length);
    if (!doc->json) return fail(doc, "not JSON: no glTF", NULL);
    const cJSON *asset = cJSON_GetObjectItemCaseSensitive(doc->json, "asset");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(asset, "version");
    if (!cJSON_IsObject(doc->json) || !cJSON_IsString(version) || strncmp(version->valuestring, "2.", 2) != 0)
        return fail(doc, "JSON that is not glTF 2.0 (no asset.version \"2.x\")", NULL);
    const cJSON *buffers = cJSON_GetObjectItemCaseSensitive(doc->json, "buffers");
    int count = cJSON_IsArray(buffers) ? cJSON_GetArraySize(buffers) : 0;
    if (count > 0) {
        doc->buffers = calloc((size_t)count, sizeof *doc->buffers);
        if (!doc->buffers) return fail(doc, "out of memory", NULL);
        doc->buffer_count = count;
    }
    int index = 0;
    const cJSON *buffer;
    cJSON_ArrayForEach(buffer, buffers) {
        reach_status st = load_buffer(doc, index++, buffer, folder, bin, bin_length);
        if (st != REACH_OK) return st;
    }
    reach_status st = gltf_list_make(doc, cJSON_GetObjectItemCaseSensitive(doc->json, "accessors"), &doc->accessors);
    if (st == REACH_OK)
        st = gltf_list_make(doc, cJSON_GetObjectItemCaseSensitive(doc->json, "bufferViews"), &doc->views);
    return st;
}

void gltf_close(gltf_document *doc) {
    for (int i = 0; i < doc->buffer_count; ++i)
        free(doc->buffers[i].bytes);
    free(doc->buffers);
    free(doc->accessors.items);
    free(doc->views.items);
    cJSON_Delete(doc->json);
    doc->json = NULL;
    doc->buffers = NULL;
    doc->buffer_count = 0;
    memset(&doc->accessors, 0, sizeof doc->accessors);
    memset(&doc->views, 0, sizeof doc->views);
}

static const char *type_for(int components) {
    switch (components) {
    case 1: return "SCALAR";
    case 3: return "VEC3";
    case 4: return "VEC4";
    default: return "MAT4";
    }
}

reach_status gltf_read_accessor(gltf_document *doc, int index, int components, double **values, int *count) {
    *values = NULL;
    *count = 0;
    char where[64];
    snprintf(where, sizeof where, "accessors[%d]", index);
    const cJSON *accessor = gltf_list_item(&doc->accessors, index);
    if (!cJSON_IsObject(accessor)) return fail(doc, where, " does not exist");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(accessor, "type");
    if (!cJSON_IsString(type) || strcmp(type->valuestring, type_for(components)) != 0) {
        formats_error(doc->error, doc->error_size, "%s: type is not %s", where, type_for(components));
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    if (gltf_integer(doc, accessor, "componentType", 5126, 5126, -1, where) != 5126)
        return fail(doc, where, ": componentType is not 5126 (float), the only kind read");
    if (cJSON_GetObjectItemCaseSensitive(accessor, "sparse"))
        return fail(doc, where, ": sparse accessors are not read");
    long long n = gltf_integer(doc, accessor, "count", 1, 1 << 26, -1, where);
    long long view_index = gltf_integer(doc, accessor, "bufferView", 0, 1 << 30, -1, where);
    long long offset = gltf_integer(doc, accessor, "byteOffset", 0, 1LL << 40, 0, where);
    if (n < 0 || view_index < 0 || offset < 0) {
        /* gltf_integer wrote a message for a value out of range; an absent one gets its own. */
        if (!cJSON_GetObjectItemCaseSensitive(accessor, "count")) return fail(doc, where, " has no count");
        if (!cJSON_GetObjectItemCaseSensitive(accessor, "bufferView")) return fail(doc, where, " has no bufferView");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    const cJSON *view = gltf_list_item(&doc->views, view_index);
    if (!cJSON_IsObject(view)) return fail(doc, where, ": its bufferView does not exist");
    long long buffer_index = gltf_integer(doc, view, "buffer", 0, doc->buffer_count - 1, -1, "bufferView");
    long long view_offset = gltf_integer(doc, view, "byteOffset", 0, 1LL << 40, 0, "bufferView");
    long long view_length = gltf_integer(doc, view, "byteLength", 1, 1LL << 40, -1, "bufferView");
    long long stride = gltf_integer(doc, view, "byteStride", 4, 252, 0, "bufferView");
    if (buffer_index < 0 || view_offset < 0 || view_length < 0 || stride < 0) {
        if (!cJSON_GetObjectItemCaseSensitive(view, "buffer") || !cJSON_GetObjectItemCaseSensitive(view, "byteLength"))
            return fail(doc, where, ": its bufferView has no buffer or no byteLength");
        return REACH_ERROR_INVALID_ARGUMENT;
    }
    const gltf_buffer *buffer = &doc->buffers[buffer_index];
    size_t element = (size_t)components * 4;
    size_t step = stride ? (size_t)stride : element;
    if (step < element || step % 4) return fail(doc, where, ": byteStride is smaller than an element or unaligned");
    /* All in long long, far from overflow: every term is below 2^41. */
    if ((unsigned long long)view_offset + (unsigned long long)view_length > buffer->length)
        return fail(doc, where, ": its bufferView runs past its buffer");
    unsigned long long needed = (unsigned long long)offset + (unsigned long long)step * (unsigned long long)(n - 1) +
                                (unsigned long long)element;
    if (needed > (unsigned long long)view_length) return fail(doc, where, " runs past its bufferView");
    double *out = malloc((size_t)n * (size_t)components * sizeof *out);
    if (!out) return fail(doc, "out of memory", NULL);
    const unsigned char *base = buffer->data + view_offset + offset;
    for (long long i = 0; i < n; ++i)
        for (int c = 0; c < components; ++c) {
            uint32_t bits = read_u32(base + (size_t)i * step + (size_t)c * 4);
            float x;
            memcpy(&x, &bits, sizeof x);
            if (!isfinite(x)) {
                free(out);
                formats_error(doc->error, doc->error_size, "%s: element %lld is not finite", where, i);
                return REACH_ERROR_NOT_FINITE;
            }
            out[i * components + c] = x;
        }
    *values = out;
    *count = (int)n;
    return REACH_OK;
}
