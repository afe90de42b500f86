/* The playground's WebAssembly interface: every function the page calls, and the state they
 * share. Private to web/; the library's own API is include/reach/.
 *
 * The page's rig lives in this module's linear memory: one chain of joint positions, root
 * first, that the solvers update in place (so an iterative solver starts from the last pose).
 * JavaScript reads the joints through a typed-array view on memory, passes targets and
 * settings as call arguments, and draws; it computes no pose itself. Lengths and positions are
 * in the page's world units; reach_real is the library's scalar (see reach_wasm_real_size). */
#ifndef REACH_WASM_H
#define REACH_WASM_H

#include "reach/reach.h"

/* Exported to JavaScript under its C name. */
#define REACH_WASM_EXPORT(name) __attribute__((export_name(#name))) name

/* Room for the longest chain the page offers, with margin for the iterative solvers. */
#define REACH_WASM_MAX_JOINTS 64

/* ---- the module ------------------------------------------------------------------------- */

int REACH_WASM_EXPORT(reach_wasm_real_size)(void);                 /* bytes per reach_real: 4 or 8 */
const char *REACH_WASM_EXPORT(reach_wasm_version)(void);           /* NUL-terminated, static */
const char *REACH_WASM_EXPORT(reach_wasm_status_text)(int status); /* NUL-terminated, static */

/* ---- the rig: one chain of joints ------------------------------------------------------- */

/* The joint positions, joint_count × (x, y, z) reals; the pointer never changes. */
reach_real *REACH_WASM_EXPORT(reach_wasm_joints)(void);
int REACH_WASM_EXPORT(reach_wasm_joint_count)(void);

/* A straight chain of bone_count bones of the given length from the origin along +x.
 * Returns a reach_status; on error the rig is unchanged. */
int REACH_WASM_EXPORT(reach_wasm_chain_reset)(int bone_count, reach_real length);

/* Sets one bone's length, keeping its direction; the joints beyond it move with it. */
int REACH_WASM_EXPORT(reach_wasm_chain_set_bone_length)(int bone, reach_real length);

/* The distance between joint bone and joint bone + 1; 0 for a bone that does not exist. */
reach_real REACH_WASM_EXPORT(reach_wasm_bone_length)(int bone);

/* ---- the last successful solve ---------------------------------------------------------- */

int REACH_WASM_EXPORT(reach_wasm_iterations)(void); /* 0 for a closed-form solver */
reach_real REACH_WASM_EXPORT(reach_wasm_residual)(void);
int REACH_WASM_EXPORT(reach_wasm_reached)(void);
/* Where the mid joint would be in the other solution, when the solver has one (else NULL). */
const reach_real *REACH_WASM_EXPORT(reach_wasm_alternative)(void);

/* ---- solvers: each returns a reach_status and updates the rig only on success ----------- */

/* Two-bone 2-D (a three-joint rig). The pole picks the bend: the mid joint goes to the side of
 * the root→target line that the pole is on; a pole on the line keeps the current side. */
int REACH_WASM_EXPORT(reach_wasm_two_bone_2d)(reach_real target_x, reach_real target_y, reach_real pole_x,
                                              reach_real pole_y, reach_real soft_distance);

/* Two-bone 3-D (a three-joint rig): the mid joint bends toward the pole. */
int REACH_WASM_EXPORT(reach_wasm_two_bone_3d)(reach_real target_x, reach_real target_y, reach_real target_z,
                                              reach_real pole_x, reach_real pole_y, reach_real pole_z,
                                              reach_real soft_distance);

/* Iterative solvers on the whole chain, in 2 dimensions (the z = 0 plane: every joint a hinge
 * about z) or 3 (the root a ball joint, the others cones). limit is the largest bend between
 * neighbouring bones, in (0, pi] rad (pi: no limit); max_iterations caps the solver's sweeps. */
int REACH_WASM_EXPORT(reach_wasm_fabrik)(reach_real target_x, reach_real target_y, reach_real target_z, int dimensions,
                                         reach_real limit, int max_iterations);
int REACH_WASM_EXPORT(reach_wasm_ccd)(reach_real target_x, reach_real target_y, reach_real target_z, int dimensions,
                                      reach_real limit, int max_iterations);
/* The Jacobian family (include/reach/jacobian.h) on the same chain, with the same joints; method
 * is a reach_jacobian_method. */
int REACH_WASM_EXPORT(reach_wasm_jacobian)(reach_real target_x, reach_real target_y, reach_real target_z,
                                           int dimensions, reach_real limit, int max_iterations, int method);

/* ---- the robot arm: a UR5 from its DH table, solved by the Jacobian family -------------- */

/* Builds the arm in its ready pose (tool straight down in front of it); the report reads
 * reached with no iterations. Metres and radians, z up, the base at the origin. */
int REACH_WASM_EXPORT(reach_wasm_robot_start)(void);
/* Poses the arm by its six joint values (rad, each within ±2π): forward kinematics. */
int REACH_WASM_EXPORT(reach_wasm_robot_set_values)(reach_real q1, reach_real q2, reach_real q3, reach_real q4,
                                                   reach_real q5, reach_real q6);
/* Moves the tool toward the target from the present pose. With use_orientation, the tool must
 * also take the ready pose's orientation tilted by tilt (rad, within ±pi/2) about the world x axis
 * and then turned by turn (rad, within ±pi) about the vertical. method: a reach_jacobian_method. */
int REACH_WASM_EXPORT(reach_wasm_robot_solve)(reach_real target_x, reach_real target_y, reach_real target_z,
                                              int use_orientation, reach_real turn, reach_real tilt, int method,
                                              int max_iterations);
int REACH_WASM_EXPORT(reach_wasm_robot_joint_count)(void); /* 6 once started, else 0 */
/* The frames of the six joints and the flange, 7 × 12 reals: origin, x, y and z axis (world).
 * Each joint turns about its frame's z axis. */
const reach_real *REACH_WASM_EXPORT(reach_wasm_robot_frames)(void);
const reach_real *REACH_WASM_EXPORT(reach_wasm_robot_values)(void); /* the six joint values, rad */
/* The last goal frame, 12 reals as above (its axes are the goal orientation, used or not). */
const reach_real *REACH_WASM_EXPORT(reach_wasm_robot_goal)(void);
reach_real REACH_WASM_EXPORT(reach_wasm_robot_angle_residual)(void); /* rad; 0 without orientation */

/* ---- the crowd: many two-bone arms solved together by the batch solver ------------------ */

/* limbs arms (1 to 4096) on a square grid of shoulders 0.5 apart and 0.25 above the ground
 * (z up), standing straight up, each with its own bone lengths and a pole that bends its elbow
 * away from the middle of the crowd. */
int REACH_WASM_EXPORT(reach_wasm_crowd_start)(int limbs);
/* Every arm reaches for the target from its present pose (reach_two_bone_solve_batch). */
int REACH_WASM_EXPORT(reach_wasm_crowd_follow)(reach_real target_x, reach_real target_y, reach_real target_z);
int REACH_WASM_EXPORT(reach_wasm_crowd_count)(void);
/* Room per coordinate array: the points are capacity reals per coordinate, x, y, z for the
 * roots, then the mids, the ends and the poles; the first count of each are the arms'. */
int REACH_WASM_EXPORT(reach_wasm_crowd_capacity)(void);
const reach_real *REACH_WASM_EXPORT(reach_wasm_crowd_points)(void);
const reach_real *REACH_WASM_EXPORT(reach_wasm_crowd_residuals)(void);  /* count reals */
const unsigned char *REACH_WASM_EXPORT(reach_wasm_crowd_reached)(void); /* count bytes, 1: reached */
const char *REACH_WASM_EXPORT(reach_wasm_crowd_isa)(void);              /* the batch path in use: "wasm-simd" */

/* ---- tentacles: many chains solved together by batch FABRIK ----------------------------- */

/* chains tentacles (1 to 1024) of REACH_WASM_TENTACLE_BONES bones, rooted on the ground (z up)
 * on a square grid 0.6 apart, standing straight up; each has its own length, 1.2 to 1.8, its
 * bones shortening toward the tip. */
#define REACH_WASM_TENTACLE_BONES 8
int REACH_WASM_EXPORT(reach_wasm_tentacles_start)(int chains);
/* Every tentacle reaches for the target from its present pose (reach_fabrik_solve_batch). */
int REACH_WASM_EXPORT(reach_wasm_tentacles_follow)(reach_real target_x, reach_real target_y, reach_real target_z);
/* The last follow again, from the pose it started from: the same work, for timing it. Refused
 * (REACH_ERROR_INVALID_ARGUMENT, nothing changed) when no follow succeeded since the start. */
int REACH_WASM_EXPORT(reach_wasm_tentacles_again)(void);
int REACH_WASM_EXPORT(reach_wasm_tentacles_count)(void);
int REACH_WASM_EXPORT(reach_wasm_tentacles_bone_count)(void);
/* Room per joint array: the joints are capacity reals per joint and coordinate, all the x of
 * joint 0, of joint 1, … then the y, then the z; the first count of each are the tentacles'. */
int REACH_WASM_EXPORT(reach_wasm_tentacles_capacity)(void);
const reach_real *REACH_WASM_EXPORT(reach_wasm_tentacles_joints)(void);
const reach_real *REACH_WASM_EXPORT(reach_wasm_tentacles_residuals)(void);  /* count reals */
const unsigned char *REACH_WASM_EXPORT(reach_wasm_tentacles_reached)(void); /* count bytes, 1: reached */
const int *REACH_WASM_EXPORT(reach_wasm_tentacles_iterations)(void);        /* count ints */
const char *REACH_WASM_EXPORT(reach_wasm_tentacles_isa)(void);              /* the batch path in use */

/* ---- the walker: a creature that walks toward a goal ------------------------------------- */

/* A standard creature (include/reach/walker.h) of leg_count legs, standing at the origin facing
 * +x, in 2 or 3 dimensions; in 3-D on the standard terrain terrain_kind (a
 * reach_walk_terrain_kind with its default size). Returns a reach_status; on error the walker
 * and its ground are unchanged. */
int REACH_WASM_EXPORT(reach_wasm_walker_start)(int leg_count, int dimensions, int terrain_kind);
/* The height of the walker's terrain at (x, y). */
reach_real REACH_WASM_EXPORT(reach_wasm_walker_ground_height)(reach_real x, reach_real y);

/* Advances dt seconds: the body turns toward the goal (x, y) and walks to it at up to speed
 * units per second, slowing as it arrives, and the walker places the feet. */
int REACH_WASM_EXPORT(reach_wasm_walker_follow)(reach_real goal_x, reach_real goal_y, reach_real speed, reach_real dt);

int REACH_WASM_EXPORT(reach_wasm_walker_leg_count)(void);
/* Every leg's joints, hip to foot, packed leg after leg: leg_joint_count(leg) × (x, y, z). */
const reach_real *REACH_WASM_EXPORT(reach_wasm_walker_joints)(void);
int REACH_WASM_EXPORT(reach_wasm_walker_leg_joint_count)(int leg);
int REACH_WASM_EXPORT(reach_wasm_walker_planted)(int leg);
int REACH_WASM_EXPORT(reach_wasm_walker_leg_steps)(int leg); /* steps this leg has begun */
reach_real REACH_WASM_EXPORT(reach_wasm_walker_lift)(int leg);
/* The body: x, y, z, heading (rad about +z from +x), then its forward, left and up axes (world,
 * 3 reals each; in 3-D they tilt with the ground and z is the height the feet carry it at). */
const reach_real *REACH_WASM_EXPORT(reach_wasm_walker_body)(void);
int REACH_WASM_EXPORT(reach_wasm_walker_steps)(void);        /* steps begun, all legs */
int REACH_WASM_EXPORT(reach_wasm_walker_forced_steps)(void); /* steps out of the gait's turn */

/* ---- a dropped model: a robot or character the page read from a file -------------------- */

/* The largest skeleton the page takes, and the room for one bone's name (NUL included). */
#define REACH_WASM_MODEL_MAX_BONES 256
#define REACH_WASM_MODEL_NAME_SIZE 64
/* The model solver's choices beyond the reach_jacobian_method values 0 to 3. */
#define REACH_WASM_MODEL_FABRIK 4
#define REACH_WASM_MODEL_CCD    5

/* A new skeleton is written bone by bone and committed by finish; until then the model shown
 * stays. begin: bone_count bones (1 to the maximum), each a ball joint at the identity under the
 * bone before. bone: its parent (-1, or a bone before it) and rest transform (translation, then
 * a rotation quaternion x, y, z, w that is made unit). joint: a reach_joint_type with its axis
 * (in the bone's rest frame), and min and max (hinge: rad; prismatic: units; cone: max is the
 * half-angle). mimic: the bone's hinge or prismatic joint follows leader's value. */
int REACH_WASM_EXPORT(reach_wasm_model_begin)(int bone_count);
int REACH_WASM_EXPORT(reach_wasm_model_bone)(int bone, int parent, reach_real tx, reach_real ty, reach_real tz,
                                             reach_real qx, reach_real qy, reach_real qz, reach_real qw);
int REACH_WASM_EXPORT(reach_wasm_model_joint)(int bone, int type, reach_real ax, reach_real ay, reach_real az,
                                              reach_real min, reach_real max);
int REACH_WASM_EXPORT(reach_wasm_model_mimic)(int bone, int leader, reach_real multiplier, reach_real offset);
/* A bone's name: written NUL-terminated into the buffer (REACH_WASM_MODEL_NAME_SIZE bytes), then
 * taken by name(bone). Names find a humanoid's roles (humanoid.h). */
char *REACH_WASM_EXPORT(reach_wasm_model_name_buffer)(void);
int REACH_WASM_EXPORT(reach_wasm_model_name)(int bone);
/* Validates the staged skeleton and makes it the model, posed at rest; finds its humanoid roles
 * and, with natural_limits, gives a humanoid the natural joints of full_body.h. On error the
 * model is unchanged and bad_bone says the first bone at fault (-1: none in particular). */
int REACH_WASM_EXPORT(reach_wasm_model_finish)(int natural_limits);
int REACH_WASM_EXPORT(reach_wasm_model_bad_bone)(void);
int REACH_WASM_EXPORT(reach_wasm_model_rest)(void);
/* Poses every hinge and prismatic joint at the middle of its range: a robot's start, away from
 * its limits and from the stretched-out pose where its Jacobian loses rank. */
int REACH_WASM_EXPORT(reach_wasm_model_middle)(void);
/* Sets one bone's local transform (a clip's frame); the world transforms follow. */
int REACH_WASM_EXPORT(reach_wasm_model_set_local)(int bone, reach_real tx, reach_real ty, reach_real tz, reach_real qx,
                                                  reach_real qy, reach_real qz, reach_real qw);
int REACH_WASM_EXPORT(reach_wasm_model_bone_count)(void);
/* The pose, local and world, bone_count × 7 reals: rotation x, y, z, w, then translation. */
const reach_real *REACH_WASM_EXPORT(reach_wasm_model_local)(void);
const reach_real *REACH_WASM_EXPORT(reach_wasm_model_world)(void);
/* The hinge and prismatic values of the pose in bone order (reach_pose_get_values). */
int REACH_WASM_EXPORT(reach_wasm_model_value_count)(void);
const reach_real *REACH_WASM_EXPORT(reach_wasm_model_values)(void);
int REACH_WASM_EXPORT(reach_wasm_model_is_humanoid)(void);
int REACH_WASM_EXPORT(reach_wasm_model_humanoid_bone)(int role); /* -1 when not a humanoid's */
reach_real REACH_WASM_EXPORT(reach_wasm_model_angle_residual)(void);
/* Moves effector's joint to the target (and its frame to the rotation, with use_orientation)
 * from the present pose. solver: a reach_jacobian_method, REACH_WASM_MODEL_FABRIK or _CCD. */
int REACH_WASM_EXPORT(reach_wasm_model_solve)(int effector, reach_real tx, reach_real ty, reach_real tz,
                                              int use_orientation, reach_real qx, reach_real qy, reach_real qz,
                                              reach_real qw, int solver, int max_iterations);
/* The full-body puppet of a humanoid: each part's position target (a reach_body_part; use 0
 * frees it) and the look-at, then a solve from the present pose (reach_full_body_solve). */
int REACH_WASM_EXPORT(reach_wasm_model_body_target)(int part, int use, reach_real x, reach_real y, reach_real z);
int REACH_WASM_EXPORT(reach_wasm_model_body_look_at)(int use, reach_real x, reach_real y, reach_real z);
int REACH_WASM_EXPORT(reach_wasm_model_body_solve)(int max_iterations);
/* The first required humanoid role (reach_humanoid_role) the model shown lacks; -1 on a humanoid. */
int REACH_WASM_EXPORT(reach_wasm_model_missing_role)(void);
/* A role's snake-case name ("left_upper_arm"); "" for one out of range. */
const char *REACH_WASM_EXPORT(reach_wasm_role_name)(int role);

/* ---- retargeting a kept clip onto the model shown (retarget.h) -------------------------- */

/* keep_source: the humanoid model shown becomes the source (its skeleton, joints as the file
 * gave them, and roles are copied); REACH_ERROR_BAD_CHAIN when it is no humanoid. source_bone:
 * one bone of the source's pose for the next frame (translation, then rotation x, y, z, w);
 * the pose starts at the source's rest. start: a retargeting from the source onto the model shown
 * (robot: its axes are URDF's, +z up, +x forward); on failure bad_role and bad_side (0 source,
 * 1 target) say which role could not be mapped. frame: one frame dt seconds after the last,
 * posing the model shown; an error (the model changed since start, bad numbers) changes nothing. */
int REACH_WASM_EXPORT(reach_wasm_retarget_keep_source)(void);
int REACH_WASM_EXPORT(reach_wasm_retarget_source_bone_count)(void);
int REACH_WASM_EXPORT(reach_wasm_retarget_source_bone)(int bone, reach_real tx, reach_real ty, reach_real tz,
                                                       reach_real qx, reach_real qy, reach_real qz, reach_real qw);
int REACH_WASM_EXPORT(reach_wasm_retarget_start)(int robot);
int REACH_WASM_EXPORT(reach_wasm_retarget_bad_role)(void);
int REACH_WASM_EXPORT(reach_wasm_retarget_bad_side)(void);
int REACH_WASM_EXPORT(reach_wasm_retarget_frame)(reach_real dt);
int REACH_WASM_EXPORT(reach_wasm_retarget_planted)(int side); /* 0 left, 1 right: last frame's */
reach_real REACH_WASM_EXPORT(reach_wasm_retarget_leg_scale)(void);

/* Between model.c and retarget.c: the model shown with its joints as the file gave them (before
 * natural limits), its roles (0 when it is no humanoid), and a count that changes with each
 * model; its local pose to write, and the refresh of the world pose and values after writing. */
int reach_wasm_model_shown(reach_skeleton *as_given, reach_humanoid *roles);
unsigned reach_wasm_model_generation(void);
reach_transform *reach_wasm_model_pose(void);
void reach_wasm_model_posed(void);

/* ---- shared by the solver files --------------------------------------------------------- */

typedef struct reach_wasm_rig {
    int joint_count;
    reach_vec3 joints[REACH_WASM_MAX_JOINTS]; /* 2-D solvers keep z at 0 */
} reach_wasm_rig;

typedef struct reach_wasm_result {
    int iterations;
    reach_real residual;
    int reached;
    int has_alternative;
    reach_vec3 alternative;
} reach_wasm_result;

reach_wasm_rig *reach_wasm_rig_get(void);

/* Records a successful solve. A failed one records nothing: the pose and the numbers stay
 * those of the last good solve, as the library leaves its outputs untouched on error. */
void reach_wasm_report(const reach_wasm_result *result);

/* ---- what the crowds share -------------------------------------------------------------- */

/* Where member index of count stands on a square grid of the given spacing centred on the
 * origin, filled row by row. */
void reach_wasm_grid_place(int index, int count, reach_real spacing, reach_real *x, reach_real *y);

/* A repeatable spread in [0, 1) from *state, so that the members differ and every page load
 * shows the same. */
reach_real reach_wasm_spread(unsigned *state);

#endif
