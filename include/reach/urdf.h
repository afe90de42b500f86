/** @file
 * reach::formats — robots from URDF (the Unified Robot Description Format).
 *
 * Each link becomes a bone carrying the joint that leads into it: the joint's origin (xyz, and
 * rpy as fixed-axis roll, pitch, yaw: R = Rz(yaw) · Ry(pitch) · Rx(roll)) is the bone's rest
 * transform, its axis (any non-zero length, made unit; (1, 0, 0) when absent) the joint axis in
 * that frame. revolute: a hinge with the limit's [lower, upper] (a range wider than [-2π, 2π] is
 * cut to it: every rotation lies within); continuous: a hinge over [-π, π], every rotation;
 * prismatic: a prismatic joint with [lower, upper]; fixed: a fixed joint. floating and planar
 * joints are refused: reach has no joint of their kind. The root link is a fixed bone at the
 * identity. A joint with a mimic element follows its leader (reach_joint.mimic); a follower of a follower is
 * made a follower of the first leader, the couplings composed.
 *
 * Links and joints may come in any order; bones are numbered root first, depth first, children
 * in the order of their joints in the file. Only robot, link and joint (origin, parent, child,
 * axis, limit, mimic) are read; everything else (visual, collision, inertial, transmission,
 * gazebo, sensors, materials) is skipped and no file it names is opened.
 *
 * The text is hostile input: it is parsed by expat with document type declarations refused (no
 * entity of any kind is expanded, no external file read), elements nested at most 64 deep, and
 * any error reported with its line. */
#ifndef REACH_URDF_H
#define REACH_URDF_H

#include <stddef.h>

#include "rig.h"

REACH_EXTERN_C_BEGIN

/** Reads a URDF text of `length` bytes into *rig (which the caller frees with reach_rig_free).
 * On error *rig is zeroed and returns REACH_ERROR_INVALID_ARGUMENT (or REACH_ERROR_NOT_FINITE for a
 * NaN or infinite number), with a message naming the line and the element in error (error_size
 * bytes, always terminated; NULL for none). */
reach_status reach_urdf_read(const char *text, size_t length, reach_rig *rig, char *error, size_t error_size);

/** reach_urdf_read on a file's contents. A file that cannot be read is an error naming it. */
reach_status reach_urdf_read_file(const char *path, reach_rig *rig, char *error, size_t error_size);

REACH_EXTERN_C_END

#endif
