/** @file
 * reach::formats — a clip: a skeleton's local poses, frame by frame, at a frame rate.
 *
 * Frame f holds one local transform per bone (the pose forward kinematics takes), frames stored
 * one after another: frames[f * bone_count + b]. Frame f plays at time f / frame_rate seconds;
 * the clip lasts (frame_count - 1) / frame_rate. Sampling between frames interpolates each bone:
 * translation linearly, rotation along the shorter arc (nlerp or slerp). Readers (BVH, glTF)
 * fill a clip beside their rig; the clip owns its frames and reach_clip_free releases them. */
#ifndef REACH_CLIP_H
#define REACH_CLIP_H

#include <stddef.h>

#include "skeleton.h"

REACH_EXTERN_C_BEGIN

typedef struct reach_clip {
    int bone_count;          /**< transforms per frame */
    int frame_count;         /**< at least 1 in a clip a reader returns */
    reach_real frame_rate;   /**< frames per second, finite and > 0 */
    reach_transform *frames; /**< frame_count × bone_count local transforms, frame after frame */
} reach_clip;

/** How reach_clip_sample turns a bone between two frames (both along the shorter arc). */
typedef enum reach_clip_rotation {
    REACH_CLIP_NLERP = 0, /**< normalised linear: cheap, not constant speed */
    REACH_CLIP_SLERP      /**< spherical: constant angular speed */
} reach_clip_rotation;

/** The most transforms a clip may hold (frames × bones): 2^28, 8 GB in double. Readers refuse
 * files that would need more before allocating anything. */
#define REACH_CLIP_MAX_TRANSFORMS ((size_t)1 << 28)

/** Allocates a clip of frame_count frames of bone_count bones, every transform the identity.
 * Errors (the clip zeroed): counts below 1, a product over REACH_CLIP_MAX_TRANSFORMS, a rate
 * not finite or not above 0, or no memory (REACH_ERROR_INVALID_ARGUMENT). */
reach_status reach_clip_create(reach_clip *clip, int bone_count, int frame_count, reach_real frame_rate);

/** Releases the frames and zeroes the clip. NULL, or a zeroed clip, is fine. */
void reach_clip_free(reach_clip *clip);

/** Frame f's local transforms (bone_count of them), or NULL when f is out of range. */
reach_transform *reach_clip_frame(const reach_clip *clip, int frame);

/** The clip's length in seconds: (frame_count - 1) / frame_rate (0 for a single frame). */
reach_real reach_clip_duration(const reach_clip *clip);

/** The pose at `time` seconds into *local (bone_count transforms): a time before 0 or after the
 * end holds the first or last frame; between frames each bone's translation is interpolated
 * linearly and its rotation as `rotation` says, along the shorter arc, made unit. A NaN time
 * (REACH_ERROR_NOT_FINITE), a clip without frames or a NULL pointer (REACH_ERROR_INVALID_ARGUMENT)
 * leave *local untouched. */
reach_status reach_clip_sample(const reach_clip *clip, reach_real time, reach_clip_rotation rotation,
                               reach_transform *local);

REACH_EXTERN_C_END

#endif
