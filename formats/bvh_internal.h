/* The BVH reader's and writer's shared pieces: the six channels and their names. */
#ifndef REACH_FORMATS_BVH_INTERNAL_H
#define REACH_FORMATS_BVH_INTERNAL_H

enum { BVH_XPOSITION, BVH_YPOSITION, BVH_ZPOSITION, BVH_XROTATION, BVH_YROTATION, BVH_ZROTATION, BVH_CHANNEL_KINDS };

/* Indexed by the enum above. */
extern const char *const bvh_channel_names[BVH_CHANNEL_KINDS];

#endif
