/* What every character reader does to build its result: a rig's arrays allocated, names copied,
 * clips with their names released. */
#ifndef REACH_FORMATS_RIG_BUILD_H
#define REACH_FORMATS_RIG_BUILD_H

#include "reach/clip.h"
#include "reach/rig.h"

/* The rig's arrays for bone_count bones (names NULL), its bone_count and the skeleton's view of
 * the arrays set. REACH_ERROR_INVALID_ARGUMENT when memory runs out; what was allocated is left
 * for reach_rig_free. */
reach_status formats_rig_allocate(reach_rig *rig, int bone_count);

/* A copy of name (the caller frees it), or of `<prefix>_<index>` where name is NULL or empty;
 * NULL when memory runs out. */
char *formats_copy_name(const char *name, const char *prefix, int index);

/* Releases count clips and their names, and the two arrays. */
void formats_free_clips(reach_clip *clips, char **names, int count);

#endif
