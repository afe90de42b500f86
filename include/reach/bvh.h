/** @file
 * reach::formats — characters and motion from BVH (Biovision Hierarchy), in and out.
 *
 * Reading: every ROOT and JOINT becomes a ball-joint bone named as the file names it, its rest
 * transform the OFFSET with no rotation; an `End Site` becomes a fixed bone named
 * `<parent>_end` at its OFFSET. Bones are in file order (parents before children). The motion
 * becomes a clip of the rig's bones at 1 / Frame Time frames per second: per frame, a joint's
 * rotation is the product of its rotation channels in the order the file lists them (degrees;
 * "Zrotation Xrotation Yrotation" is Rz · Rx · Ry), its translation the OFFSET with each
 * position channel the joint has replacing that coordinate; an End Site keeps its rest.
 * Any joint may carry position channels; a joint lists each of the six channels at most once.
 *
 * The text is hostile input: every count is checked against the bytes left before anything is
 * allocated, nesting is held to REACH_BVH_MAX_DEPTH, names to REACH_BVH_MAX_NAME bytes, and every
 * error names its line. Writing: the rig's bones (a leaf bone named `<parent>_end` whose
 * translation never leaves its rest is an End Site), ZYX rotation channels, position channels on
 * the roots and on every bone whose translation moves in the clip. */
#ifndef REACH_BVH_H
#define REACH_BVH_H

#include <stddef.h>

#include "clip.h"
#include "rig.h"

REACH_EXTERN_C_BEGIN

/** Joints nested deeper than this are refused (a human skeleton is about 10 deep). */
#define REACH_BVH_MAX_DEPTH 1024
/** Longest joint name, in bytes. */
#define REACH_BVH_MAX_NAME 1024

/** Reads a BVH text of `length` bytes into *rig and *clip (the caller frees both with
 * reach_rig_free and reach_clip_free). On error both are zeroed and it returns
 * REACH_ERROR_INVALID_ARGUMENT (REACH_ERROR_NOT_FINITE for a NaN or infinite number) with a
 * message naming the line (error_size bytes, always terminated; NULL for none). */
reach_status reach_bvh_read(const char *text, size_t length, reach_rig *rig, reach_clip *clip, char *error,
                            size_t error_size);

/** reach_bvh_read on a file's contents; the message starts with the file's path. */
reach_status reach_bvh_read_file(const char *path, reach_rig *rig, reach_clip *clip, char *error, size_t error_size);

/** Writes the rig and clip as BVH text into a buffer the caller frees (free()), its length in
 * *length. clip may be NULL: one frame, the rest pose. The clip must have the rig's bone count and
 * finite transforms; rest rotations are not written (BVH has none): each frame's rotations are
 * the bones' whole local rotations, so world positions are kept in every frame. */
reach_status reach_bvh_write(const reach_rig *rig, const reach_clip *clip, char **text, size_t *length, char *error,
                             size_t error_size);

/** reach_bvh_write into a file, written under a temporary name beside it (`<path>.tmp`) and
 * renamed into place, so an error never leaves half a file. */
reach_status reach_bvh_write_file(const char *path, const reach_rig *rig, const reach_clip *clip, char *error,
                                  size_t error_size);

REACH_EXTERN_C_END

#endif
