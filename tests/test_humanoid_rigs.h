/* Humanoid rigs built by the tests: random proportions, standing in a T-pose facing +z with +y
 * up (the character's left at +x), named in the styles of Mixamo, CMU BVH, VRM, Unity, plain
 * snake case, Unreal, and without sides (the rest pose tells them apart). Up to 27 bones. */
#ifndef TEST_HUMANOID_RIGS_H
#define TEST_HUMANOID_RIGS_H

#include <string.h>

#include "test_support.h"

enum part {
    P_HIPS,
    P_SPINE,
    P_CHEST,
    P_UPPER_CHEST,
    P_NECK,
    P_NECK1,
    P_HEAD,
    P_HEAD_END,
    P_L_SHOULDER,
    P_L_UPPER_ARM,
    P_L_LOWER_ARM,
    P_L_HAND,
    P_R_SHOULDER,
    P_R_UPPER_ARM,
    P_R_LOWER_ARM,
    P_R_HAND,
    P_L_HIP_JOINT,
    P_L_UPPER_LEG,
    P_L_LOWER_LEG,
    P_L_FOOT,
    P_L_TOES,
    P_L_TOE_END,
    P_R_HIP_JOINT,
    P_R_UPPER_LEG,
    P_R_LOWER_LEG,
    P_R_FOOT,
    P_R_TOES,
    P_R_TOE_END,
    PART_COUNT
};

enum style { S_MIXAMO, S_CMU, S_VRM, S_UNITY, S_PLAIN, S_UNREAL, S_SIDELESS, STYLE_COUNT };

static const int part_parent[PART_COUNT] = {
    -1,
    P_HIPS,
    P_SPINE,
    P_CHEST,
    P_UPPER_CHEST,
    P_NECK,
    P_NECK1,
    P_HEAD,
    P_UPPER_CHEST,
    P_L_SHOULDER,
    P_L_UPPER_ARM,
    P_L_LOWER_ARM,
    P_UPPER_CHEST,
    P_R_SHOULDER,
    P_R_UPPER_ARM,
    P_R_LOWER_ARM,
    P_HIPS,
    P_L_HIP_JOINT,
    P_L_UPPER_LEG,
    P_L_LOWER_LEG,
    P_L_FOOT,
    P_L_TOES,
    P_HIPS,
    P_R_HIP_JOINT,
    P_R_UPPER_LEG,
    P_R_LOWER_LEG,
    P_R_FOOT,
    P_R_TOES,
};

/* Names per style; NULL: the part is not in that style's rig (its children hang on its parent),
 * "" : the part is there, unnamed (a BVH end site). */
static const char *const part_names[STYLE_COUNT][PART_COUNT] = {
    {"mixamorig:Hips",
     "mixamorig:Spine",
     "mixamorig:Spine1",
     "mixamorig:Spine2",
     "mixamorig:Neck",
     NULL,
     "mixamorig:Head",
     "mixamorig:HeadTop_End",
     "mixamorig:LeftShoulder",
     "mixamorig:LeftArm",
     "mixamorig:LeftForeArm",
     "mixamorig:LeftHand",
     "mixamorig:RightShoulder",
     "mixamorig:RightArm",
     "mixamorig:RightForeArm",
     "mixamorig:RightHand",
     NULL,
     "mixamorig:LeftUpLeg",
     "mixamorig:LeftLeg",
     "mixamorig:LeftFoot",
     "mixamorig:LeftToeBase",
     "mixamorig:LeftToe_End",
     NULL,
     "mixamorig:RightUpLeg",
     "mixamorig:RightLeg",
     "mixamorig:RightFoot",
     "mixamorig:RightToeBase",
     "mixamorig:RightToe_End"},
    {"Hips",         "LowerBack", "Spine",        "Spine1",   "Neck",          "Neck1",    "Head",         "",
     "LeftShoulder", "LeftArm",   "LeftForeArm",  "LeftHand", "RightShoulder", "RightArm", "RightForeArm", "RightHand",
     "LHipJoint",    "LeftUpLeg", "LeftLeg",      "LeftFoot", "LeftToeBase",   "",         "RHipJoint",    "RightUpLeg",
     "RightLeg",     "RightFoot", "RightToeBase", ""},
    {"J_Bip_C_Hips",
     "J_Bip_C_Spine",
     "J_Bip_C_Chest",
     "J_Bip_C_UpperChest",
     "J_Bip_C_Neck",
     NULL,
     "J_Bip_C_Head",
     "J_Adj_C_HeadTop",
     "J_Bip_L_Shoulder",
     "J_Bip_L_UpperArm",
     "J_Bip_L_LowerArm",
     "J_Bip_L_Hand",
     "J_Bip_R_Shoulder",
     "J_Bip_R_UpperArm",
     "J_Bip_R_LowerArm",
     "J_Bip_R_Hand",
     NULL,
     "J_Bip_L_UpperLeg",
     "J_Bip_L_LowerLeg",
     "J_Bip_L_Foot",
     "J_Bip_L_ToeBase",
     "J_Bip_L_ToeEnd",
     NULL,
     "J_Bip_R_UpperLeg",
     "J_Bip_R_LowerLeg",
     "J_Bip_R_Foot",
     "J_Bip_R_ToeBase",
     "J_Bip_R_ToeEnd"},
    {"hips",          "spine",         "chest",         "upperChest",   "neck",         NULL,
     "head",          "headEnd",       "leftShoulder",  "leftUpperArm", "leftLowerArm", "leftHand",
     "rightShoulder", "rightUpperArm", "rightLowerArm", "rightHand",    NULL,           "leftUpperLeg",
     "leftLowerLeg",  "leftFoot",      "leftToes",      "leftToesEnd",  NULL,           "rightUpperLeg",
     "rightLowerLeg", "rightFoot",     "rightToes",     "rightToesEnd"},
    {"hips",
     "spine",
     "chest",
     "upper_chest",
     "neck",
     NULL,
     "head",
     "head_end",
     "left_shoulder",
     "left_upper_arm",
     "left_lower_arm",
     "left_hand",
     "right_shoulder",
     "right_upper_arm",
     "right_lower_arm",
     "right_hand",
     NULL,
     "left_upper_leg",
     "left_lower_leg",
     "left_foot",
     "left_toes",
     "left_toes_end",
     NULL,
     "right_upper_leg",
     "right_lower_leg",
     "right_foot",
     "right_toes",
     "right_toes_end"},
    {"pelvis",     "spine_01",   "spine_02",   "spine_03",   "neck_01", NULL,         "head",
     "head_end",   "clavicle_l", "upperarm_l", "lowerarm_l", "hand_l",  "clavicle_r", "upperarm_r",
     "lowerarm_r", "hand_r",     NULL,         "thigh_l",    "calf_l",  "foot_l",     "ball_l",
     "ball_l_end", NULL,         "thigh_r",    "calf_r",     "foot_r",  "ball_r",     "ball_r_end"},
    {"Hips",     "Spine",   "Chest",    "UpperChest", "Neck",     NULL,   "Head", "HeadEnd",  "Shoulder", "UpperArm",
     "LowerArm", "Hand",    "Shoulder", "UpperArm",   "LowerArm", "Hand", NULL,   "UpperLeg", "LowerLeg", "Foot",
     "Toes",     "ToesEnd", NULL,       "UpperLeg",   "LowerLeg", "Foot", "Toes", "ToesEnd"},
};

/* The part that plays each role (reach_humanoid_role order). */
static const int role_part[REACH_ROLE_COUNT] = {
    P_HIPS,        P_SPINE,  P_CHEST,       P_UPPER_CHEST, P_NECK,        P_HEAD,   P_L_SHOULDER,  P_L_UPPER_ARM,
    P_L_LOWER_ARM, P_L_HAND, P_R_SHOULDER,  P_R_UPPER_ARM, P_R_LOWER_ARM, P_R_HAND, P_L_UPPER_LEG, P_L_LOWER_LEG,
    P_L_FOOT,      P_L_TOES, P_R_UPPER_LEG, P_R_LOWER_LEG, P_R_FOOT,      P_R_TOES,
};

typedef struct humanoid_rig {
    int bone_count;
    int parents[PART_COUNT];
    reach_transform rest[PART_COUNT];
    reach_joint joints[PART_COUNT];
    const char *names[PART_COUNT];
    int bone_of_part[PART_COUNT]; /* -1 for a part the style leaves out */
    reach_real height;            /* of the head's joint above the soles, standing */
    reach_skeleton skeleton;
} humanoid_rig;

/* A rig of the style with random proportions (height 1.4 to 2.0 in rig units, limbs and trunk
 * each 0.85 to 1.15 of the usual share), its hips `origin` above the origin's ground. */
static void humanoid_rig_make(test_rng *rng, int style, humanoid_rig *rig) {
    reach_real h = test_uniform(rng, REACH_R(1.4), REACH_R(2.0));
    reach_real arm = h * test_uniform(rng, REACH_R(0.85), REACH_R(1.15));
    reach_real leg = h * test_uniform(rng, REACH_R(0.85), REACH_R(1.15));
    reach_real trunk = h * test_uniform(rng, REACH_R(0.85), REACH_R(1.15));
    reach_real width = h * test_uniform(rng, REACH_R(0.85), REACH_R(1.15));
    reach_vec3 offset[PART_COUNT];
    offset[P_HIPS] = reach_vec3_make(0, 0, 0); /* set below, from the legs */
    offset[P_SPINE] = reach_vec3_make(0, REACH_R(0.06) * trunk, 0);
    offset[P_CHEST] = reach_vec3_make(0, REACH_R(0.09) * trunk, 0);
    offset[P_UPPER_CHEST] = reach_vec3_make(0, REACH_R(0.09) * trunk, REACH_R(0.01) * trunk);
    offset[P_NECK] = reach_vec3_make(0, REACH_R(0.09) * trunk, 0);
    offset[P_NECK1] = reach_vec3_make(0, REACH_R(0.02) * trunk, 0);
    offset[P_HEAD] = reach_vec3_make(0, REACH_R(0.05) * trunk, REACH_R(0.01) * trunk);
    offset[P_HEAD_END] = reach_vec3_make(0, REACH_R(0.12) * trunk, 0);
    offset[P_L_HIP_JOINT] = reach_vec3_make(REACH_R(0.03) * width, REACH_R(-0.02) * leg, 0);
    offset[P_L_UPPER_LEG] = reach_vec3_make(REACH_R(0.05) * width, REACH_R(-0.03) * leg, 0);
    offset[P_L_LOWER_LEG] = reach_vec3_make(0, REACH_R(-0.245) * leg, REACH_R(0.002) * leg);
    offset[P_L_FOOT] = reach_vec3_make(0, REACH_R(-0.245) * leg, REACH_R(-0.004) * leg);
    offset[P_L_TOES] = reach_vec3_make(0, REACH_R(-0.04) * leg, REACH_R(0.1) * leg);
    offset[P_L_TOE_END] = reach_vec3_make(0, 0, REACH_R(0.05) * leg);
    offset[P_L_SHOULDER] = reach_vec3_make(REACH_R(0.02) * width, REACH_R(0.06) * trunk, REACH_R(-0.01) * trunk);
    offset[P_L_UPPER_ARM] = reach_vec3_make(REACH_R(0.09) * width, 0, 0);
    offset[P_L_LOWER_ARM] = reach_vec3_make(REACH_R(0.17) * arm, 0, REACH_R(-0.002) * arm);
    offset[P_L_HAND] = reach_vec3_make(REACH_R(0.15) * arm, 0, REACH_R(0.002) * arm);
    for (int p = P_L_SHOULDER; p <= P_L_HAND; p++) {
        offset[p + (P_R_SHOULDER - P_L_SHOULDER)] = reach_vec3_make(-offset[p].x, offset[p].y, offset[p].z);
    }
    for (int p = P_L_HIP_JOINT; p <= P_L_TOE_END; p++) {
        offset[p + (P_R_HIP_JOINT - P_L_HIP_JOINT)] = reach_vec3_make(-offset[p].x, offset[p].y, offset[p].z);
    }
    const char *const *names = part_names[style];
    /* Parts a style leaves out pass their offset on to their children. */
    int count = 0;
    for (int p = 0; p < PART_COUNT; p++) {
        int parent_part = part_parent[p];
        reach_vec3 t = offset[p];
        while (parent_part >= 0 && !names[parent_part]) {
            t = reach_vec3_add(t, offset[parent_part]);
            parent_part = part_parent[parent_part];
        }
        if (!names[p]) {
            rig->bone_of_part[p] = -1;
            continue;
        }
        int b = count++;
        rig->bone_of_part[p] = b;
        rig->parents[b] = parent_part >= 0 ? rig->bone_of_part[parent_part] : -1;
        rig->rest[b] = reach_transform_make(reach_quat_identity(), t);
        rig->joints[b] = reach_joint_ball();
        rig->names[b] = names[p][0] ? names[p] : NULL;
    }
    rig->bone_count = count;
    /* Stand on y = 0: the hips as high as the soles are below them. */
    reach_real below = 0;
    for (int p = P_L_HIP_JOINT; p <= P_L_FOOT; p++)
        below -= offset[p].y;
    below -= offset[P_L_TOES].y;
    rig->rest[0].translation = reach_vec3_make(0, below, 0);
    reach_real above = 0;
    for (int p = P_SPINE; p <= P_HEAD; p++)
        above += offset[p].y;
    rig->height = below + above;
    rig->skeleton.bone_count = count;
    rig->skeleton.parents = rig->parents;
    rig->skeleton.rest = rig->rest;
    rig->skeleton.joints = rig->joints;
}

/* A rig with its roles found from its names. */
typedef struct body {
    humanoid_rig rig;
    reach_humanoid roles;
} body;

static inline void body_make(test_rng *rng, int style, body *b) {
    humanoid_rig_make(rng, style, &b->rig);
    if (reach_humanoid_find(&b->rig.skeleton, b->rig.names, &b->roles, NULL) != REACH_OK) fail_msg("roles");
}

#endif
