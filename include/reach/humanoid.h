/** @file
 * reach — humanoid roles: which bone of a skeleton is the hips, the left upper arm, the right foot.
 *
 * reach_humanoid_find reads them from bone names and the hierarchy. A name is split into words
 * (at separators, at a change of case, after a namespace such as `mixamorig:`), a side word
 * (`Left`, `L`, `right`, `r`) is taken out, and the rest is matched against each role's words:
 * Mixamo (`mixamorig:LeftArm`, `LeftForeArm`, `LeftUpLeg`, `LeftToeBase`), CMU BVH (`LeftUpLeg`,
 * `LHipJoint`, `LowerBack`), VRM/Unity humanoid (`leftUpperArm`, `J_Bip_L_UpperArm`,
 * `upperChest`), Blender and game rigs (`upperarm_l`, `thigh.L`, `clavicle_r`, `calf_l`) and plain
 * names (`left_upper_arm`). Among several matches the one nearest the root is taken. A limb bone
 * whose name has no side is given the side it lies on in the rest pose (+x is the character's
 * left, as in glTF and Unity, facing +z). The spine roles are the bones from the hips up to the
 * neck, whatever their names: one is the spine; two are spine and chest; three or more are spine,
 * chest (the middle) and upper chest (the last). A missing lower arm or leg is taken as the hand's
 * or foot's parent, a missing upper one as the lower one's parent.
 *
 * Or the caller fills reach_humanoid.bones (a map) and checks it with reach_humanoid_validate. */
#ifndef REACH_HUMANOID_H
#define REACH_HUMANOID_H

#include "skeleton.h"

REACH_EXTERN_C_BEGIN

typedef enum reach_humanoid_role {
    REACH_ROLE_HIPS = 0,
    REACH_ROLE_SPINE,
    REACH_ROLE_CHEST,
    REACH_ROLE_UPPER_CHEST,
    REACH_ROLE_NECK,
    REACH_ROLE_HEAD,
    REACH_ROLE_LEFT_SHOULDER,
    REACH_ROLE_LEFT_UPPER_ARM,
    REACH_ROLE_LEFT_LOWER_ARM,
    REACH_ROLE_LEFT_HAND,
    REACH_ROLE_RIGHT_SHOULDER,
    REACH_ROLE_RIGHT_UPPER_ARM,
    REACH_ROLE_RIGHT_LOWER_ARM,
    REACH_ROLE_RIGHT_HAND,
    REACH_ROLE_LEFT_UPPER_LEG,
    REACH_ROLE_LEFT_LOWER_LEG,
    REACH_ROLE_LEFT_FOOT,
    REACH_ROLE_LEFT_TOES,
    REACH_ROLE_RIGHT_UPPER_LEG,
    REACH_ROLE_RIGHT_LOWER_LEG,
    REACH_ROLE_RIGHT_FOOT,
    REACH_ROLE_RIGHT_TOES,
    REACH_ROLE_COUNT
} reach_humanoid_role;

typedef struct reach_humanoid {
    int bones[REACH_ROLE_COUNT]; /**< the bone of each role, -1 where the skeleton has none */
} reach_humanoid;

/** The role's name in snake case ("hips", "left_upper_arm"); NULL for a role out of range. */
REACH_API const char *reach_humanoid_role_name(reach_humanoid_role role);

/** The role of a snake-case name, or -1 when no role has that name. */
REACH_API int reach_humanoid_role_from_name(const char *name);

/** Finds the roles from the bone names (names[i] for bone i; NULL entries are unnamed) and the
 * rest pose. Succeeds when hips, head, both upper arms, lower arms and hands, and both upper legs,
 * lower legs and feet are found (the others may be -1); REACH_ERROR_BAD_CHAIN with *missing (if
 * not NULL) set to the first required role not found, and *out untouched, otherwise. The skeleton
 * must be valid (reach_skeleton_validate). */
REACH_API reach_status reach_humanoid_find(const reach_skeleton *skeleton, const char *const *names,
                                           reach_humanoid *out, int *missing);

/** Checks a map: bones in range or -1, no bone in two roles, the required roles present, and each
 * limb and the spine in order (the hand descends from the lower arm, which descends from the
 * upper arm, which descends from the shoulder if any and from the hips; the head from the neck
 * if any, from the spine roles present, and from the hips). *bad_role (if not NULL) receives the
 * first role at fault. REACH_ERROR_BAD_CHAIN on failure. */
REACH_API reach_status reach_humanoid_validate(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                               int *bad_role);

REACH_EXTERN_C_END

#endif
