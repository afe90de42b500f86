/** @file
 * reach::formats — characters and their animations in glTF 2.0 (.gltf and .glb), read and written.
 *
 * The rig holds the joints of one skin and every node above them up to the scene's root, so
 * world transforms match the file's; a file without skins gives every node of the scene. Bones
 * are depth first from the scene's roots, named as the nodes are (`node_<index>` where unnamed),
 * each a ball joint with its node's translation and rotation (or matrix) as rest.
 *
 * Scale: reach's skeletons have no scale. A node's uniform scale (an armature's 0.01 is common)
 * is folded into the translations below it, so every joint's world position is the file's; the
 * bones' world rotations are the file's too. A non-uniform, zero or negative scale on a node
 * with bones below it cannot be folded and is refused; on a leaf it moves nothing and is
 * dropped. Inverse bind matrices are kept as the file gives them.
 *
 * Animations become clips of the rig's bones, sampled at a chosen rate from 0 to the last key:
 * translation, rotation and scale channels, LINEAR (rotations slerped) and STEP; CUBICSPLINE
 * and morph weights are refused and skipped respectively. Channels on nodes outside the rig are
 * skipped. Key times are float32: a sample time within a key's rounding (2^-23 of its time) takes
 * that key, so a clip written at a rate and read at that rate gets its frames back exactly, STEP
 * keys included.
 *
 * The file is hostile input: it is parsed with cJSON (so the reader builds for the web too);
 * every count, offset, stride and length is checked against the data before use; buffer URIs are
 * `data:` base64 or a relative path inside the file's folder (absolute paths, `..` and schemes
 * are refused).
 *
 * Writing (reach_gltf_write): a rig as a node hierarchy with a skin, its clips as animations;
 * `.gltf` with the buffer embedded or beside it, or `.glb`. */
#ifndef REACH_GLTF_H
#define REACH_GLTF_H

#include <stddef.h>

#include "clip.h"
#include "rig.h"

REACH_EXTERN_C_BEGIN

/** A character read from glTF. */
typedef struct reach_gltf_character {
    reach_rig rig;
    int *node_of_bone;        /**< per bone: its node's index in the file */
    reach_real *inverse_bind; /**< per bone, 16 numbers column-major; identity for bones not in the skin */
    int clip_count;
    reach_clip *clips; /**< one per animation, the rig's bones */
    char **clip_names; /**< per clip, never NULL (`animation_<index>` where unnamed) */
    int scale_folded;  /**< nonzero when some node's scale was folded into translations */
} reach_gltf_character;

/** sample_rate for reach_gltf_read: each animation at the rate its keys are evenly spaced at, so
 * every key is a frame (a file reach wrote gets its clips' frames and rates back), or at 30 per
 * second where its keys are not evenly spaced (or so dense that a frame per key would pass the
 * readers' limits). Evenly spaced: every key within 1 % of an interval
 * of a multiple of it from time 0, the interval being the smallest mean spacing of a channel. */
#define REACH_GLTF_KEY_RATE (-1)

/** Reads a .gltf (JSON) or .glb (binary) of `length` bytes. folder is where relative buffer URIs
 * are looked up (NULL: only `data:` URIs and the GLB's own chunk). skin picks the skin (-1: skin 0
 * when there is one, else every node of the scene); sample_rate is the clips' frame rate (0:
 * 30; REACH_GLTF_KEY_RATE: each animation's own). On error *character is zeroed and the message
 * names what is wrong. */
reach_status reach_gltf_read(const unsigned char *data, size_t length, const char *folder, int skin,
                             reach_real sample_rate, reach_gltf_character *character, char *error, size_t error_size);

/** reach_gltf_read on a file, its buffers looked up in the file's folder. */
reach_status reach_gltf_read_file(const char *path, int skin, reach_real sample_rate, reach_gltf_character *character,
                                  char *error, size_t error_size);

/** Releases everything and zeroes the character. NULL is fine. */
void reach_gltf_free(reach_gltf_character *character);

/* ---- writing ---------------------------------------------------------------------------- */

/** Where a written glTF keeps its binary data (the accessors' floats). */
typedef enum reach_gltf_layout {
    REACH_GLTF_EMBEDDED = 0, /**< .gltf, the buffer inside it as a base64 `data:` URI */
    REACH_GLTF_SEPARATE,     /**< .gltf, the buffer in a .bin file beside it */
    REACH_GLTF_BINARY        /**< .glb: the JSON and the buffer in one binary file */
} reach_gltf_layout;

/** Writes a rig and its clips as glTF 2.0 into memory.
 *
 * The rig becomes one node per bone (node i is bone i, named as the bone, its rest translation and
 * rotation as the node's TRS, children under their parents, the roots in the scene) and one skin
 * whose joints are every bone, with inverse bind matrices from the rest pose, so Blender and
 * three.js open it as an armature, and a mesh the skin deforms (a small triangle at each bone,
 * bound to it alone, on a node of its own outside the skin) so viewers draw and count the bones.
 * Each clip becomes an animation (named from clip_names, or `animation_<index>` where that or the
 * array is NULL) with a rotation channel per bone and a translation channel per bone whose
 * translation leaves its rest in some frame (the node's rest holds it otherwise, exactly), LINEAR,
 * frame f keyed at f / frame_rate seconds; rotations are flipped where needed so consecutive keys
 * are on the same side (the short way round). Joint types are not written: a bone's local
 * transform in a frame is written as it is.
 *
 * *document receives the .gltf JSON text (EMBEDDED, SEPARATE) or the .glb bytes (BINARY),
 * *document_length its length; with SEPARATE, the buffer's bytes go to *bin / *bin_length and
 * the JSON refers to them as bin_uri (a relative file name). The caller frees what it receives
 * (free()). clips may be NULL when clip_count is 0. Every clip must have the rig's bone count and
 * finite transforms. On error nothing is returned (the pointers are NULL) and the message says
 * why. */
reach_status reach_gltf_write(const reach_rig *rig, const reach_clip *clips, const char *const *clip_names,
                              int clip_count, reach_gltf_layout layout, const char *bin_uri, unsigned char **document,
                              size_t *document_length, unsigned char **bin, size_t *bin_length, char *error,
                              size_t error_size);

/** reach_gltf_write into a file: `.glb` writes binary; `.gltf` writes the buffer embedded, or,
 * when separate_buffer is nonzero, beside it as `<name>.bin` (the path's name with .bin for
 * .gltf). Any other extension is an error. Each file is written under a temporary name in the
 * same folder and renamed into place, so an error never leaves a half-written file. */
reach_status reach_gltf_write_file(const char *path, const reach_rig *rig, const reach_clip *clips,
                                   const char *const *clip_names, int clip_count, int separate_buffer, char *error,
                                   size_t error_size);

REACH_EXTERN_C_END

#endif
