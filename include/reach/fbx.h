/** @file
 * reach::formats — characters and their animations from FBX (Mixamo, Blender, Maya exports),
 * read through assimp.
 *
 * The rig holds the bones of every mesh's skin and every node above them (below the file's
 * root, which FBX gives no transform), so world transforms match the file's; a file without
 * skins gives every node. Bones are depth first from the roots, named as the file names its
 * models (`mixamorig:Hips`), each a ball joint with its node's transform as rest: pre- and
 * post-rotations, pivots and offsets are baked into it (assimp's one-node-per-model reading).
 *
 * Scale: as in reach/gltf.h, a node's uniform scale (Mixamo's 0.01 on the armature) is folded
 * into the translations below it, so every joint's world position and rotation is the file's; a
 * non-uniform, zero or negative scale above bones is refused; on a leaf it is dropped.
 * Coordinates stay in the file's units (no axis or unit conversion); unit_scale_factor says what
 * the file declares (FBX's UnitScaleFactor: centimetres per unit).
 *
 * Animations (FBX's animation stacks) become clips of the rig's bones sampled at a chosen rate
 * from time 0 to the last key: translation and scale interpolated linearly, rotation slerped.
 *
 * The file is hostile input: only bytes that begin as FBX does (the binary magic, or text with an
 * `FBXHeaderExtension` in its first kilobyte) reach assimp; every number assimp returns is checked
 * finite and every name it refers to looked up before use. Building reach without assimp
 * (REACH_FORMATS_ASSIMP=OFF) keeps these functions, which then refuse every file. */
#ifndef REACH_FBX_H
#define REACH_FBX_H

#include <stddef.h>

#include "clip.h"
#include "rig.h"

REACH_EXTERN_C_BEGIN

/** A character read from FBX. */
typedef struct reach_fbx_character {
    reach_rig rig;
    reach_real *inverse_bind; /**< per bone, 16 numbers column-major (a skin's offset matrix); identity outside skins */
    int clip_count;
    reach_clip *clips;            /**< one per animation stack, the rig's bones */
    char **clip_names;            /**< per clip, never NULL (`animation_<index>` where unnamed) */
    int scale_folded;             /**< nonzero when some node's scale was folded into translations */
    reach_real unit_scale_factor; /**< centimetres per file unit, as the file declares (1 when it does not) */
} reach_fbx_character;

/** Nonzero when this build reads FBX (it was built with assimp). */
int reach_fbx_available(void);

/** Reads FBX (binary or ASCII) of `length` bytes; sample_rate is the clips' frame rate (0: 30).
 * On error *character is zeroed and the message says what is wrong. */
reach_status reach_fbx_read(const unsigned char *data, size_t length, reach_real sample_rate,
                            reach_fbx_character *character, char *error, size_t error_size);

/** reach_fbx_read on a file; the message starts with the file's path. */
reach_status reach_fbx_read_file(const char *path, reach_real sample_rate, reach_fbx_character *character, char *error,
                                 size_t error_size);

/** Releases everything and zeroes the character. NULL is fine. */
void reach_fbx_free(reach_fbx_character *character);

REACH_EXTERN_C_END

#endif
