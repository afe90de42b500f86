/* A rig read from JSON: the skeleton arrays the library works on, plus the bone names the
 * request and the result refer to. Rigs come as a bone list ("bones", rig_bones.c) or as a
 * Denavit–Hartenberg table ("dh", rig_dh.c), read into the same arrays. */
#ifndef REACH_CLI_RIG_H
#define REACH_CLI_RIG_H

#include <cJSON.h>

#include "error.h"
#include "reach/rig.h"
#include "reach/skeleton.h"

typedef struct cli_rig {
    int bone_count;
    char **names;
    int *parents;
    reach_transform *rest;
    reach_joint *joints;
    char **joint_names;      /* per bone, the joint leading into it (NULL: none); rigs from files only */
    reach_transform *frames; /* characters with motion: frame_count poses of bone_count local transforms */
    int frame_count;         /* "frame": N poses the rig as frame N */
    reach_skeleton skeleton; /* views the arrays above */
    /* Names to bones: open addressing, slot_mask + 1 slots (a power of two, at least twice the
     * bones), each a bone index or -1, so that finding a name costs the same in any rig size. */
    int *name_slots;
    size_t slot_mask;
} cli_rig;

/* Reads a rig object; on failure *rig is left empty (nothing to free). */
int cli_rig_read(const cJSON *json, cli_rig *rig, cli_error *err);
void cli_rig_free(cli_rig *rig);

/* The index of the bone with this name, -1 when there is none. */
int cli_rig_find_bone(const cli_rig *rig, const char *name);

/* For rig readers: names bone (a copy of name, which no other bone has). Returns 0 when out of
 * memory. */
int cli_rig_name_bone(cli_rig *rig, int bone, const char *name, cli_error *err);

/* For rig readers: arrays for bone_count bones (names NULL, parents -1, rest identity, ball
 * joints) and the skeleton view. Returns 0 when out of memory. */
int cli_rig_allocate(cli_rig *rig, int bone_count, cli_error *err);

/* For rig readers: reach_skeleton_validate as a last check, naming the bone at fault. */
int cli_rig_validate(const cli_rig *rig, cli_error *err);

/* The readers, one per rig description. */
int cli_rig_read_bones(const cJSON *bones, cli_rig *rig, cli_error *err);
/* A Denavit–Hartenberg table (rig_dh.c), through reach_dh_build. */
int cli_rig_read_dh(const cJSON *dh, cli_rig *rig, cli_error *err);
/* A URDF rig from a file (relative paths from the request's folder) or from text (rig_urdf.c). */
int cli_rig_read_urdf_file(const char *path, cli_rig *rig, cli_error *err);
int cli_rig_read_urdf_text(const char *text, cli_rig *rig, cli_error *err);
/* Whether a path names a URDF file (by its extension). */
int cli_is_urdf_path(const char *path);
/* A character from BVH, glTF, GLB or FBX (rig_character.c): its skeleton, ball joints, bone
 * names, and its first animation's frames. */
int cli_rig_read_character_file(const char *path, cli_rig *rig, cli_error *err);
/* A character from FBX, whatever the path's extension ({"fbx": PATH}). */
int cli_rig_read_fbx_file(const char *path, cli_rig *rig, cli_error *err);
/* Whether a path names an FBX file (.fbx, .FBX). */
int cli_is_fbx_path(const char *path);
/* Whether a path names a character file (.bvh, .gltf, .glb). */
int cli_is_character_path(const char *path);
/* Whether a path names a rig file of any format read (URDF or character), and its reader. */
int cli_is_rig_file_path(const char *path);
int cli_rig_read_file(const char *path, cli_rig *rig, cli_error *err);
/* A path as read: relative paths from the request's folder. */
void cli_rig_full_path(const char *path, char *full, size_t size);
/* A rig the formats library read, copied into the CLI's arrays with its names. */
int cli_rig_copy_read(const reach_rig *from, cli_rig *rig, cli_error *err);
/* The folder that relative rig paths are read from: request_path's (NULL or "-": the working
 * directory). */
void cli_rig_set_folder(const char *request_path);
/* The name a joint value goes by: the joint's own name where the rig has one, else its bone's. */
const char *cli_rig_joint_name(const cli_rig *rig, int bone);
/* A bone's "joint" object (path names it in messages). */
int cli_joint_read(const cJSON *json, const char *path, reach_joint *out, cli_error *err);
/* A joint's "min" and "max", ordered; when not required, absent ones keep the values passed in. */
int cli_range_read(const cJSON *json, const char *path, int required, reach_real *min, reach_real *max, cli_error *err);
/* A rotation's "min" and "max": optional (default [-pi, pi]), within [-2pi, 2pi]. */
int cli_angle_range_read(const cJSON *json, const char *path, reach_real *min, reach_real *max, cli_error *err);
/* "hinge", "cone", ... as the rig writes it. */
const char *cli_joint_type_name(reach_joint_type type);

#endif
