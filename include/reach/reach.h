/** @file
 * reach — inverse kinematics in C.
 *
 * The umbrella header: include this one. Layers, each using only those above it:
 *   config, status, vecmath scalar type, result codes, vectors, quaternions, transforms
 *   two_bone               analytic two-bone IK in 2-D and 3-D
 *   aim                    aim and look-at: one bone, or a chain sharing the turn
 *   skeleton               bones, joints and limits, forward kinematics, positions → rotations
 *   limits                 joint limits: projecting rotations onto what a joint allows
 *   solver                 targets, settings and results shared by the iterative solvers
 *   fabrik                 FABRIK: chains, trees of effectors, closed loops; 2-D on points
 *   ccd                    CCD: cyclic coordinate descent with the same limits and targets
 *   jacobian               Jacobian IK: transpose, pseudoinverse, DLS, SDLS; chains and trees
 *   dh                     robot arms from Denavit–Hartenberg tables
 *   soa, two_bone_batch    two-bone IK on many limbs at once, structure of arrays, SIMD inside
 *   fabrik_batch           FABRIK on many chains of one shape at once, SIMD inside
 *   walker                 procedural locomotion: legs, gait groups, step rules, ground
 *   humanoid               humanoid roles (hips, spine, arms, legs) from bone names or a map
 *   full_body              a whole humanoid posed from hands, feet, head and hips targets
 * See README.md and docs/ for the guide. */
#ifndef REACH_H
#define REACH_H

#include "config.h"
#include "vecmath.h"
#include "skeleton.h"
#include "limits.h"
#include "solver.h"
#include "fabrik.h"
#include "ccd.h"
#include "jacobian.h"
#include "dh.h"
#include "status.h"
#include "two_bone.h"
#include "soa.h"
#include "two_bone_batch.h"
#include "aim.h"
#include "fabrik_batch.h"
#include "walker.h"
#include "humanoid.h"
#include "full_body.h"
#include "retarget.h"

#endif
