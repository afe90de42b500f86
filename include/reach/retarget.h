/** @file
 * reach — motion retargeting: a source skeleton's motion carried, frame by frame, onto a target of
 * other proportions, names, rest pose and axis conventions: a character or a humanoid robot.
 *
 * Both skeletons have humanoid roles (humanoid.h: found from the names or given as a map). Each
 * frame:
 *   1. every role's bone turns in the target as the source's turns from its rest, in world terms
 *      (mapped through the axes), after the target's rest bone is first turned onto the source's
 *      rest direction (so a T-pose source drives an A-pose target, and the other way round; feet
 *      are compared along the ground);
 *   2. the hips go where the source's are: their height above the standing feet and their travel
 *      from their rest place scaled by the ratio of leg lengths (hip joint to knee to foot joint,
 *      at rest), lowered where a foot would otherwise be out of the leg's reach;
 *   3. the head and feet go where the source's are relative to its hips (scaled by the trunk's and
 *      the legs' ratios) and the hands where the source's are relative to its shoulders (scaled by
 *      the arms'), with the hips', feet's, and on characters the head's and hands', world rotations
 *      from step 1. Each limb keeps its own scale, so targets of other proportions reach their key
 *      points. The carried pose is already near, so each chain is solved on its own: the trunk
 *      for the head, then each limb from its hip or shoulder, a character's analytically (its
 *      elbow or knee bent to the target's distance, the upper bone swung onto it, the end turned
 *      by its own joint), a robot's chain of hinges by a Jacobian over that chain alone; only a
 *      frame left with a key point beyond reach_tolerance goes to the full-body solver
 *      (full_body.h).
 * A character whose joints are all balls (as BVH and glTF give) is solved with natural limits
 * (reach_humanoid_natural_joints): knees and elbows as hinges. A target with hinges (a robot from
 * URDF) keeps its joints and limits; its root, when fixed, moves as a floating base; step 1's
 * rotations are fitted into its chains of hinges, and each frame's solve starts from the last
 * frame's values moved a quarter of the way toward them, so joint values are continuous and the
 * redundant joints do not drift. A character starts each frame from step 1's pose.
 *
 * The target's ground is the height (along its up axis) of its lowest joint at rest, where its
 * feet stand at their rest height; the source's ground is given in the settings or taken as its
 * lowest joint in the clip's first frame, and its feet's standing height is the lowest its foot
 * joints have been so far. A source foot is planted while its joint is less than contact_height
 * (a ratio of the source's leg length) above standing and moves slower than contact_speed (leg
 * lengths per second). While it is, the target's foot stays where it was planted, its joint at
 * its rest height; no target foot joint ever goes below its rest height (the soles never sink).
 * A foot that lifts leaves its anchor over release_time seconds, not in one jump.
 *
 * Memory: the caller gives reach_retarget_memory_size bytes, which hold the state and every working
 * array; reach_retarget_frame never allocates. The skeletons' arrays must outlive the state. One
 * state per clip at a time (frames carry over); separate states run on separate threads freely. */
#ifndef REACH_RETARGET_H
#define REACH_RETARGET_H

#include "full_body.h"

REACH_EXTERN_C_BEGIN

typedef struct reach_retarget_settings {
    /** The source's and the target's up and forward axes in their own world frames (unit, at right
     * angles; made so). Defaults +y up, +z forward (BVH, glTF); a URDF robot is +z up, +x forward. */
    reach_vec3 source_up, source_forward, target_up, target_forward;
    reach_real contact_height; /**< ratio of the source's leg length; default 0.06 */
    reach_real contact_speed;  /**< leg lengths per second; default 0.4 */
    reach_real release_time;   /**< seconds a lifted foot takes to leave its anchor; default 0.15 */
    int keep_contacts;         /**< plant target feet where the source's are; default 1 */
    /** The source's ground along source_up, when source_ground_given; otherwise the height of the
     * lowest source joint in the clip's first frame (a clip's rest pose need not stand on its
     * ground: BVH files put the hips at the origin). Default not given. */
    int source_ground_given;
    reach_real source_ground;
    /** A frame is reached when the head, hands and feet are each within this distance of their
     * targets, as a ratio of the target's height (hips to head plus hips to a foot, at rest): a
     * frame the chains leave beyond it is solved again by the whole body. Default 0.01. */
    reach_real reach_tolerance;
    reach_full_body_settings body; /**< the full-body solve's settings */
    uint32_t made_by_defaults;     /**< set by reach_retarget_default_settings */
} reach_retarget_settings;

REACH_API reach_retarget_settings reach_retarget_default_settings(void);

/** The state of one retargeting: set up by reach_retarget_init inside the caller's memory. */
typedef struct reach_retarget reach_retarget;

/** What a frame did. */
typedef struct reach_retarget_result {
    int planted[2];              /**< left, right: the foot was held planted this frame */
    int reached;                 /**< key_point_miss within the settings' reach_tolerance */
    reach_real key_point_miss;   /**< the largest distance of head, hands, feet from their targets, of the height */
    reach_full_body_result body; /**< the solve's own result: iterations, residuals, its tolerance met */
} reach_retarget_result;

/** Bytes of memory a retargeting from source onto target needs; 0 for a NULL skeleton. */
REACH_API size_t reach_retarget_memory_size(const reach_skeleton *source, const reach_skeleton *target);

/** Sets up a retargeting in memory (memory_size bytes, at least reach_retarget_memory_size) and
 * writes its address to *out. Both skeletons are checked (reach_skeleton_validate) and both role
 * maps (reach_humanoid_validate); on failure *bad_role (if not NULL) receives the role at fault and
 * *bad_side 0 for the source, 1 for the target (-1 when no role is to blame). settings may be NULL
 * (the defaults). Errors leave *out untouched. */
REACH_API reach_status reach_retarget_init(const reach_skeleton *source, const reach_humanoid *source_roles,
                                           const reach_skeleton *target, const reach_humanoid *target_roles,
                                           const reach_retarget_settings *settings, void *memory, size_t memory_size,
                                           reach_retarget **out, int *bad_role, int *bad_side);

/** Forgets the last frame (warm start, contacts): the next frame starts a new clip. */
REACH_API void reach_retarget_restart(reach_retarget *retarget);

/** One frame: the source's local pose (one transform per source bone) dt seconds after the last
 * frame (dt > 0; ignored on a clip's first frame) into the target's local pose (one per target
 * bone). Errors (NaN or infinity, a zero quaternion, dt not above 0): the target pose, the state
 * and *result (may be NULL) are untouched. */
REACH_API reach_status reach_retarget_frame(reach_retarget *retarget, const reach_transform *source_pose, reach_real dt,
                                            reach_transform *target_pose, reach_retarget_result *result);

/** The skeleton the target is solved on: the target's, but with a fixed root made free (a robot's
 * floating base) and, on a character of ball joints only, natural limits. Valid while the state is. */
REACH_API const reach_skeleton *reach_retarget_target_skeleton(const reach_retarget *retarget);

/** The scale from the source's lengths to the target's (the ratio of leg lengths), and each
 * skeleton's ground height along its up axis. Any output may be NULL. */
REACH_API void reach_retarget_measures(const reach_retarget *retarget, reach_real *leg_scale, reach_real *source_ground,
                                       reach_real *target_ground);

REACH_EXTERN_C_END

#endif
