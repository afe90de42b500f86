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
    /** How much this target counts against the others when they cannot all be met (only the
     * ratios matter); >= 0, and 0 means 1. */
    reach_real weight;
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

/* ---- three-point mode ------------------------------------------------------------------- */

/** Three-point mode: a head and two hands (a VR headset and controllers) drive a standing body
 * whose feet stay on the ground plane y = ground_height (+y up, the character facing +z at rest)
 * and step when the body moves away from them. The feet count ten times the head and hands
 * (their weights), so that a head or hand out of reach is missed rather than a planted foot
 * dragged. Each foot has a home under the head, to its side
 * across the head's heading; a planted foot stays exactly where it is until it lies more than
 * step_distance from home (or turned more than step_turn from the heading), then it steps: it
 * lifts on an arc of step_height and lands step_duration later at its home, placed ahead by the
 * head's velocity over half a step. One foot steps at a time. */
typedef struct reach_three_point_settings {
    reach_real ground_height;      /**< the ground plane's height; default 0 */
    reach_real step_distance;      /**< as a ratio of the height; default 0.12 */
    reach_real step_turn;          /**< rad; default 0.6 */
    reach_real step_duration;      /**< seconds; default 0.3 */
    reach_real step_height;        /**< as a ratio of the height; default 0.05 */
    reach_full_body_settings body; /**< the full-body solve's settings */
    uint32_t made_by_defaults;     /**< set by reach_three_point_default_settings */
} reach_three_point_settings;

REACH_API reach_three_point_settings reach_three_point_default_settings(void);

/** What three-point mode keeps between frames. */
typedef struct reach_three_point_state {
    reach_vec3 planted[2];   /**< left, right: where each foot's joint stands (or will land) */
    reach_real yaw[2];       /**< each foot's turn about +y from its rest direction */
    reach_vec3 lift_from[2]; /**< a stepping foot's start */
    reach_real lift_yaw[2];  /**< its turn at the start */
    reach_real phase[2];     /**< 0 planted, else the step's progress in (0, 1] */
    reach_vec3 last_head;    /**< the head target of the last frame, for its velocity */
    reach_real ankle_height; /**< the foot joint's height above the soles at rest */
    reach_real height;       /**< the body's size (hips to head plus hips to a sole) */
    int steps;               /**< steps begun so far */
} reach_three_point_state;

/** Starts three-point mode from a pose: each foot planted on the ground under where it is. */
REACH_API reach_status reach_three_point_init(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                              const reach_three_point_settings *settings, const reach_transform *pose,
                                              reach_three_point_state *state);

/** One frame: head (position and rotation) and hand (position, and rotation when use_rotation)
 * targets, dt seconds after the last frame (> 0). Steps the feet, then solves the whole body as
 * reach_full_body_solve does (the pose warm started). On error the pose, state and *result are
 * untouched. */
REACH_API reach_status reach_three_point_solve(const reach_skeleton *skeleton, const reach_humanoid *humanoid,
                                               const reach_three_point_settings *settings,
                                               const reach_body_target *head, const reach_body_target *left_hand,
                                               const reach_body_target *right_hand, reach_real dt,
                                               reach_three_point_state *state, reach_transform *pose, void *scratch,
                                               size_t scratch_size, reach_full_body_result *result);

REACH_EXTERN_C_END

#endif
