/* Clips: frames of local poses at a frame rate, sampled at any time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reach/clip.h"

reach_status reach_clip_create(reach_clip *clip, int bone_count, int frame_count, reach_real frame_rate) {
    if (!clip) return REACH_ERROR_INVALID_ARGUMENT;
    memset(clip, 0, sizeof *clip);
    if (bone_count < 1 || frame_count < 1 || !reach_is_finite(frame_rate) || !(frame_rate > 0))
        return REACH_ERROR_INVALID_ARGUMENT;
    /* Divided rather than multiplied: the product of two ints can overflow size_t on 32 bits. */
    if ((size_t)frame_count > REACH_CLIP_MAX_TRANSFORMS / (size_t)bone_count) return REACH_ERROR_INVALID_ARGUMENT;
    size_t count = (size_t)frame_count * (size_t)bone_count;
    reach_transform *frames = malloc(count * sizeof *frames);
    if (!frames) return REACH_ERROR_INVALID_ARGUMENT;
    for (size_t i = 0; i < count; ++i)
        frames[i] = reach_transform_identity();
    clip->bone_count = bone_count;
    clip->frame_count = frame_count;
    clip->frame_rate = frame_rate;
    clip->frames = frames;
    return REACH_OK;
}

void reach_clip_free(reach_clip *clip) {
    if (!clip) return;
    free(clip->frames);
    memset(clip, 0, sizeof *clip);
}

reach_transform *reach_clip_frame(const reach_clip *clip, int frame) {
    if (!clip || !clip->frames || frame < 0 || frame >= clip->frame_count) return NULL;
    return clip->frames + (size_t)frame * (size_t)clip->bone_count;
}

reach_real reach_clip_duration(const reach_clip *clip) {
    if (!clip || clip->frame_count < 1 || !(clip->frame_rate > 0)) return 0;
    return (reach_real)(clip->frame_count - 1) / clip->frame_rate;
}

reach_status reach_clip_sample(const reach_clip *clip, reach_real time, reach_clip_rotation rotation,
                               reach_transform *local) {
    if (!clip || !local || !clip->frames || clip->frame_count < 1 || clip->bone_count < 1)
        return REACH_ERROR_INVALID_ARGUMENT;
    if (rotation != REACH_CLIP_NLERP && rotation != REACH_CLIP_SLERP) return REACH_ERROR_INVALID_ARGUMENT;
    if (isnan(time)) return REACH_ERROR_NOT_FINITE;
    /* The frame position in double, so a long clip's late frames keep their fraction in float;
     * an infinite time holds an end frame like any time beyond it. */
    double position = (double)time * (double)clip->frame_rate;
    int last = clip->frame_count - 1;
    int first;
    double fraction;
    if (!(position > 0)) {
        first = 0;
        fraction = 0;
    } else if (position >= (double)last) {
        first = last;
        fraction = 0;
    } else {
        double whole = floor(position);
        first = (int)whole;
        fraction = position - whole;
    }
    const reach_transform *a = reach_clip_frame(clip, first);
    if (fraction == 0) {
        memcpy(local, a, (size_t)clip->bone_count * sizeof *local);
        return REACH_OK;
    }
    const reach_transform *b = reach_clip_frame(clip, first + 1);
    reach_real t = (reach_real)fraction;
    for (int i = 0; i < clip->bone_count; ++i) {
        reach_quat q = rotation == REACH_CLIP_SLERP ? reach_quat_slerp(a[i].rotation, b[i].rotation, t)
                                                    : reach_quat_nlerp(a[i].rotation, b[i].rotation, t);
        local[i] =
            reach_transform_make(reach_quat_normalize_safe(q), reach_vec3_lerp(a[i].translation, b[i].translation, t));
    }
    return REACH_OK;
}
