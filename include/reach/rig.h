/** @file
 * reach::formats — a skeleton with names, read from a file, owning its arrays.
 *
 * Every reader of the formats library (URDF now; glTF, BVH later) fills a reach_rig: the
 * skeleton's arrays (parents, rest transforms, joints) and the names the file gives its bones and
 * joints, all allocated by the reader and released by reach_rig_free. rig.skeleton is a view of
 * those arrays that every solver takes as it is. Bones are in an order where parents come
 * before children; the names say which bone is which.
 *
 * Joint values (reach_pose_get_values / reach_pose_set_values) come one per hinge or prismatic
 * bone in bone order, mimic followers included; reach_rig_value_index gives a joint's place in
 * that vector by name. */
#ifndef REACH_RIG_H
#define REACH_RIG_H

#include <stddef.h>

#include "skeleton.h"

REACH_EXTERN_C_BEGIN

typedef struct reach_rig {
    reach_skeleton skeleton; /**< a view of the arrays below */
    int bone_count;          /**< bones in the arrays below */
    char **bone_names;       /**< per bone, never NULL (URDF: the link's name) */
    char **joint_names;      /**< per bone: the joint leading into it (URDF), NULL where none */
    int *parents;            /**< per bone, -1 for a root */
    reach_transform *rest;   /**< per bone */
    reach_joint *joints;     /**< per bone */
} reach_rig;

/** Releases everything a reader allocated and zeroes the rig. NULL, or a zeroed rig, is fine. */
void reach_rig_free(reach_rig *rig);

/** The bone with this name, or -1. */
int reach_rig_find_bone(const reach_rig *rig, const char *name);

/** The bone whose joint has this name, or -1. */
int reach_rig_find_joint(const reach_rig *rig, const char *name);

/** Where the joint with this name (hinge or prismatic) sits in a joint-value vector, or -1 when
 * there is no such joint or it has no value (fixed). */
int reach_rig_value_index(const reach_rig *rig, const char *joint_name);

/** The name of the joint whose value sits at `index` of a joint-value vector, or NULL. */
const char *reach_rig_value_name(const reach_rig *rig, int index);

/** Sets a pose's joints by name: the pose's current values (reach_pose_get_values), with the
 * named ones replaced, set back through reach_pose_set_values (so mimic followers follow their
 * leaders). A name that is no joint with a value, a follower's name (its value is derived), a
 * name given twice, or a value the set refuses is an error; *bad_name (if not NULL) receives
 * the index of the offending name, or -1 when the values as a whole were refused. The pose is
 * untouched on error. values_scratch holds reach_skeleton_value_count values. */
reach_status reach_rig_set_values_by_name(const reach_rig *rig, const char *const *names, const reach_real *values,
                                          int count, int clamp, reach_real *values_scratch, reach_transform *local,
                                          int *bad_name);

REACH_EXTERN_C_END

#endif
