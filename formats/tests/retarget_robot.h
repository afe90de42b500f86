/* A humanoid robot written by the tests as URDF (REP 103: +x forward, +y left, +z up), of the
 * usual research shape: six hinges a leg (hip yaw, roll, pitch; knee; ankle pitch, roll), a waist
 * of three, a neck of two, six an arm (shoulder pitch, roll, yaw; elbow; wrist roll, pitch): 29
 * hinges with limits, arms hanging at rest, a fixed sole under each foot. robot_roles names the
 * links that play the humanoid roles. */
#ifndef RETARGET_ROBOT_H
#define RETARGET_ROBOT_H

#include <stdio.h>
#include <string.h>

#include "reach/humanoid.h"
#include "reach/rig.h"

typedef struct robot_joint {
    const char *name, *parent, *child;
    double x, y, z; /* origin in the parent link */
    char axis;      /* 'x', 'y', 'z'; 0 for fixed */
    double lower, upper;
} robot_joint;

/* The left side and the middle; the right side is mirrored from the left (robot_mirror). */
static const robot_joint robot_joints[] = {
    {"left_hip_yaw", "pelvis", "left_hip_yaw_link", 0, 0.1, -0.08, 'z', -0.8, 0.8},
    {"left_hip_roll", "left_hip_yaw_link", "left_hip_roll_link", 0, 0, 0, 'x', -0.5, 0.8},
    {"left_hip_pitch", "left_hip_roll_link", "left_thigh", 0, 0, 0, 'y', -2.2, 0.8},
    {"left_knee", "left_thigh", "left_shin", 0, 0, -0.4, 'y', 0, 2.6},
    {"left_ankle_pitch", "left_shin", "left_ankle_link", 0, 0, -0.4, 'y', -1.0, 1.0},
    {"left_ankle_roll", "left_ankle_link", "left_foot", 0, 0, 0, 'x', -0.5, 0.5},
    {"left_sole", "left_foot", "left_sole_link", 0.04, 0, -0.06, 0, 0, 0},
    {"waist_yaw", "pelvis", "waist_yaw_link", 0, 0, 0.1, 'z', -1.0, 1.0},
    {"waist_roll", "waist_yaw_link", "waist_roll_link", 0, 0, 0, 'x', -0.5, 0.5},
    {"waist_pitch", "waist_roll_link", "torso", 0, 0, 0, 'y', -0.5, 1.0},
    {"neck_yaw", "torso", "neck_link", 0, 0, 0.42, 'z', -1.2, 1.2},
    {"neck_pitch", "neck_link", "head", 0, 0, 0.08, 'y', -0.8, 0.8},
    {"head_top", "head", "head_top_link", 0, 0, 0.18, 0, 0, 0},
    {"left_shoulder_pitch", "torso", "left_shoulder_pitch_link", 0, 0.2, 0.34, 'y', -3.0, 1.5},
    {"left_shoulder_roll", "left_shoulder_pitch_link", "left_shoulder_roll_link", 0, 0, 0, 'x', -0.3, 2.8},
    {"left_shoulder_yaw", "left_shoulder_roll_link", "left_upper_arm", 0, 0, 0, 'z', -2.0, 2.0},
    {"left_elbow", "left_upper_arm", "left_lower_arm", 0, 0, -0.28, 'y', -2.5, 0},
    {"left_wrist_roll", "left_lower_arm", "left_wrist_link", 0, 0, -0.25, 'z', -1.5, 1.5},
    {"left_wrist_pitch", "left_wrist_link", "left_hand", 0, 0, 0, 'y', -1.0, 1.0},
    {"left_palm", "left_hand", "left_palm_link", 0, 0, -0.08, 0, 0, 0},
};
#define ROBOT_JOINTS ((int)(sizeof robot_joints / sizeof robot_joints[0]))

/* The right side's joints are the left's mirrored through the x-z plane: named right_, at -y, a
 * roll's or yaw's limits negated and swapped (a pitch turns the same way on both sides). */
static inline void robot_mirror(const robot_joint *left, char *name, char *parent, char *child, size_t size,
                                robot_joint *right) {
    *right = *left;
    snprintf(name, size, "right_%s", left->name + 5);
    snprintf(parent, size, strncmp(left->parent, "left_", 5) == 0 ? "right_%s" : "%s",
             strncmp(left->parent, "left_", 5) == 0 ? left->parent + 5 : left->parent);
    snprintf(child, size, "right_%s", left->child + 5);
    right->name = name;
    right->parent = parent;
    right->child = child;
    right->y = -left->y;
    if (left->axis == 'x' || left->axis == 'z') {
        right->lower = -left->upper;
        right->upper = -left->lower;
    }
}

/* The link of each role (reach_humanoid_role order); NULL where the robot has none. */
static const char *const robot_role_links[REACH_ROLE_COUNT] = {
    "pelvis",          "torso",      NULL,          NULL,
    "neck_link",       "head",       NULL,          "left_upper_arm",
    "left_lower_arm",  "left_hand",  NULL,          "right_upper_arm",
    "right_lower_arm", "right_hand", "left_thigh",  "left_shin",
    "left_foot",       NULL,         "right_thigh", "right_shin",
    "right_foot",      NULL};

/* The URDF text into buf (which must hold it); returns its length. */
static inline size_t robot_urdf(char *buf, size_t size) {
    size_t n = (size_t)snprintf(buf, size,
                                "<?xml version=\"1.0\"?>\n<robot name=\"test_humanoid\">\n  <link name=\"pelvis\"/>\n");
    for (int k = 0; k < 2 * ROBOT_JOINTS && n < size; k++) {
        const robot_joint *r = &robot_joints[k % ROBOT_JOINTS];
        robot_joint mirrored;
        char name[64], parent[64], child[64];
        if (k >= ROBOT_JOINTS) {
            if (strncmp(r->name, "left_", 5) != 0) continue;
            robot_mirror(r, name, parent, child, sizeof name, &mirrored);
            r = &mirrored;
        }
        n += (size_t)snprintf(buf + n, size - n,
                              "  <link name=\"%s\"/>\n  <joint name=\"%s\" type=\"%s\">\n"
                              "    <parent link=\"%s\"/><child link=\"%s\"/>\n"
                              "    <origin xyz=\"%g %g %g\" rpy=\"0 0 0\"/>\n",
                              r->child, r->name, r->axis ? "revolute" : "fixed", r->parent, r->child, r->x, r->y, r->z);
        if (r->axis && n < size)
            n += (size_t)snprintf(buf + n, size - n,
                                  "    <axis xyz=\"%d %d %d\"/>\n    <limit lower=\"%g\" upper=\"%g\" effort=\"50\" "
                                  "velocity=\"10\"/>\n",
                                  r->axis == 'x', r->axis == 'y', r->axis == 'z', r->lower, r->upper);
        if (n < size) n += (size_t)snprintf(buf + n, size - n, "  </joint>\n");
    }
    if (n < size) n += (size_t)snprintf(buf + n, size - n, "</robot>\n");
    return n;
}

/* The roles of a rig read from robot_urdf. */
static inline reach_humanoid robot_roles(const reach_rig *rig) {
    reach_humanoid h;
    for (int role = 0; role < REACH_ROLE_COUNT; role++) {
        const char *link = robot_role_links[role];
        h.bones[role] = link ? reach_rig_find_bone(rig, link) : -1;
    }
    return h;
}

#endif
