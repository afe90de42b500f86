/* The FBX reader's one dependency on assimp: the scene read into a character (fbx_read.c), or,
 * in a build without assimp, refused (fbx_unavailable.c). */
#ifndef REACH_FORMATS_FBX_INTERNAL_H
#define REACH_FORMATS_FBX_INTERNAL_H

#include "reach/fbx.h"

/* data and character are not NULL, sample_rate > 0, *character zeroed; on error the character
 * may be half filled (the caller frees it). */
reach_status fbx_read_scene(const unsigned char *data, size_t length, reach_real sample_rate,
                            reach_fbx_character *character, char *error, size_t error_size);

#endif
