/** @file
 * reach — full-body humanoid IK: a whole body posed from a few targets (hands, feet, head, hips),
 * with elbow and knee hints and a look-at on the head.
 *
 * The body is a skeleton whose roles are known (humanoid.h) and whose joints carry the limits
 * (reach_humanoid_natural_joints gives natural ones per role: elbows and knees as hinges that
 * never bend backward, spine and neck as narrow cones, shoulders and hips wide; override any of
 * them in the array). One solve moves the hips (translation and rotation), bends and twists the
 * spine, turns the collarbones, arms and legs, so that every given target is met: a hand, foot or
 * head at a position and, when given, a world rotation; the hips at a position and rotation.
 * Parts without targets follow the body (their joints are pulled gently toward the rest pose).
 * A hint turns the elbow or knee toward a point about the line from the shoulder or hip to the
 * hand or foot, which keeps the hand or foot where it is. A look-at then aims the head (within
 * its joint's limits; a head rotation target, when given, wins over it).
 *
 * The solve is warm started from the pose: frames solved in turn from the last one move
 * smoothly. How it works, what it reaches and what it costs: docs/character.md.
 * Nothing here allocates; the caller gives scratch memory of reach_full_body_scratch_size bytes. */
#ifndef REACH_FULL_BODY_H
#define REACH_FULL_BODY_H

#include "humanoid.h"
#include "solver.h"

REACH_EXTERN_C_BEGIN

typedef enum reach_body_part {
    REACH_BODY_HIPS = 0,
    REACH_BODY_HEAD,
    REACH_BODY_LEFT_HAND,
    REACH_BODY_RIGHT_HAND,
    REACH_BODY_LEFT_FOOT,
    REACH_BODY_RIGHT_FOOT,
    REACH_BODY_PART_COUNT
} reach_body_part;

typedef struct reach_body_target {
    int use_position;
    reach_vec3 position; /**< world position of the part's joint */
    int use_rotation;
    reach_quat rotation; /**< world rotation of the part's bone (any non-zero length) */
    int use_hint;
    reach_vec3 hint; /**< hands and feet: a world point the elbow or knee turns toward */
} reach_body_target;

typedef struct reach_full_body_targets {
    reach_body_target parts[REACH_BODY_PART_COUNT]; /**< a part with no use_* flag set is free */
    int use_look_at;
    reach_vec3 look_at; /**< a world point the head looks at (head_forward) */
} reach_full_body_targets;

/** No targets at all. */
REACH_API reach_full_body_targets reach_full_body_no_targets(void);

typedef struct reach_full_body_settings {
    reach_vec3 head_forward, head_up; /**< the head's look axes in its bone frame; default +z and +y */
    int max_iterations;               /**< iterations of the whole-body polish; default 64 */
    reach_real tolerance;             /**< distance counted reached, as a ratio of the height; default 1e-4 */
    reach_real angle_tolerance;       /**< rotation error counted reached (rad); default 1e-3 */
    uint32_t made_by_defaults;        /**< set by reach_full_body_default_settings */
} reach_full_body_settings;

REACH_API reach_full_body_settings reach_full_body_default_settings(void);

typedef struct reach_full_body_result {
    int iterations;            /**< polish iterations run */
    reach_real residual;       /**< largest distance left to a position target, rig units */
    reach_real angle_residual; /**< largest angle left to a rotation target, rad */
    int reached;               /**< every target within its tolerance */
} reach_full_body_result;

/** Natural limits for the bones with roles, from the rest pose (up from the hips to the head,
 * the character's left from the right upper arm to the left; forward = left × up): written into
 * joints[role's bone] for every role present; other bones on the way from the hips to a role get
 * a narrow cone, the rest keep what joints holds. The skeleton's rest must be valid. */
REACH_API reach_status reach_humanoid_natural_joints(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                                     reach_joint *joints);

/** Bytes of scratch memory a full-body solve of this skeleton needs; 0 for a NULL skeleton. */
REACH_API size_t reach_full_body_scratch_size(const reach_skeleton *skeleton);

/** Solves the pose (one local transform per bone: read as the start, written on success) for the
 * targets. The skeleton is checked (reach_skeleton_validate), the roles (reach_humanoid_validate),
 * the targets (finite, non-zero rotations), the settings and the pose; on any error the pose and
 * *result are untouched. result may be NULL. */
REACH_API reach_status reach_full_body_solve(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                             const reach_full_body_targets *targets,
                                             const reach_full_body_settings *settings, reach_transform *pose,
                                             void *scratch, size_t scratch_size, reach_full_body_result *result);

REACH_EXTERN_C_END

#endif
