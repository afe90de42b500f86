/** @file
 * reach — procedural locomotion: a many-legged walker whose feet step by rules.
 *
 * The caller moves the body over the ground each frame (position and heading); the walker
 * decides where every foot is. A planted foot stays exactly where it is in the world. A leg
 * steps when its foot is further than a threshold from its rest position, and lands ahead of
 * that rest position by the body's velocity, after a swing along an arc. Legs belong to gait
 * groups, and legs of different groups never swing at the same time: a leg that wants to step
 * waits for its group's turn, unless waiting would overstretch it. Each leg is then solved as
 * an IK chain from its hip to its foot.
 *
 * Coordinates: right-handed with z up. The ground is (roughly) the plane z = 0, the heading is
 * the angle about +z from +x (radians, counter-clockwise), and body space has x forward, y to
 * the left and z up. Lengths are in rig units, times in seconds.
 *
 * Two modes:
 *   3-D   the ground comes from a caller-supplied query (height and normal under a point);
 *         the body's height and tilt follow the planted feet; feet swing through the air and
 *         knees bend toward each leg's knee direction in 3-D.
 *   2-D   the top view of the standard spider: everything lies in the plane z = 0, the body
 *         neither rises nor tilts, a swing's height is reported as `lift` only, and legs bend
 *         in the plane, on the side of their knee direction.
 *
 * Memory: a reach_walker is a plain value with room for REACH_WALKER_MAX_LEGS legs of up to
 * REACH_WALKER_MAX_BONES bones each; nothing allocates. Copying it copies the whole creature.
 * Every function is deterministic (the same definitions, body motions and time steps give
 * the same bits) and safe to call from many threads on different walkers. Invalid input
 * returns an error and leaves the walker exactly as it was.
 *
 * Also here: the standard creature (the eight-legged spider and its six-, four- and two-legged
 * kin), and the standard paths and terrains that the CLI, the demo and the web page share. */
#ifndef REACH_WALKER_H
#define REACH_WALKER_H

#include "vecmath.h"
#include "status.h"

REACH_EXTERN_C_BEGIN

/** The most legs a walker holds, and the most bones in one leg. */
#define REACH_WALKER_MAX_LEGS  32
#define REACH_WALKER_MAX_BONES 4

/** The largest magnitude the walker computes with, in both precisions. Every length and
 * coordinate a walker is given (step settings, hips, rests, reaches, bone lengths, body
 * positions, time steps) must lie within it, and bone lengths at or above its reciprocal;
 * anything else is refused with REACH_ERROR_OUT_OF_RANGE. A ground height beyond it counts as
 * a failed query. With every number inside this range, every product the walker forms stays
 * inside the floating-point range, so a walker that accepts its input never turns NaN. */
#define REACH_WALKER_MAX_EXTENT 1e9

/** The ground under the point (x, y): its height, and its unit normal pointing up (z > 0).
 * A query that gives a height that is not finite or beyond REACH_WALKER_MAX_EXTENT, or a
 * normal that is not finite, zero or pointing down, is not trusted: the walker uses flat
 * ground at the planted feet's level instead. */
typedef void (*reach_ground_fn)(void *user, reach_real x, reach_real y, reach_real *height, reach_vec3 *normal);

typedef struct reach_walker_def {
    int dimensions; /**< 2 or 3, see above. Default 3 */

    /** Step rules. The defaults suit legs about 2 units long (the standard creature). */
    reach_real step_threshold; /**< a planted foot steps once it is further than this from its
                                  rest position, measured along the ground. Default 0.35 */
    reach_real step_duration;  /**< seconds from lift-off to landing. Default 0.2 */
    reach_real step_height;    /**< height of the swing arc halfway through. Default 0.3 */
    /** A foot lands where its rest position will be lead_time seconds after landing if the
     * body keeps its present velocity and turn rate. Keep lead_time × the body's top speed
     * below step_threshold, or feet will step again as soon as they land. Default 0.15 */
    reach_real lead_time;
    /** Fraction of a leg's reach, in (0, 1]: a planted foot further than overstretch × reach
     * from its hip steps at once, even out of its group's turn (a "forced" step), and landing
     * points are kept within that distance. Default 0.9 */
    reach_real overstretch;

    /** 3-D body. The body's origin rides ride_height above the plane fitted through the
     * planted feet, tilted to that plane's normal by at most max_tilt (rad, in [0, pi/2)),
     * easing toward both with the time constant follow_time (s; 0 follows at once). */
    reach_real ride_height; /**< default 0.8 */
    reach_real max_tilt;    /**< default 0.5 */
    reach_real follow_time; /**< default 0.1 */

    /** 3-D ground. NULL: flat ground at z = 0. Ignored in 2-D. */
    reach_ground_fn ground;
    void *ground_user; /**< passed to ground */
} reach_walker_def;

REACH_API reach_walker_def reach_walker_default_def(void);

/** How a leg's chain is solved from hip to foot. */
typedef enum reach_leg_solver {
    REACH_LEG_TWO_BONE = 0, /**< analytic two-bone IK (two_bone.h); bone_count 2 */
    /** 2-D FABRIK (fabrik.h) with angle limits, in the leg's plane: the vertical plane through
     * hip and foot in 3-D, the ground plane in 2-D; bone_count 2 to REACH_WALKER_MAX_BONES */
    REACH_LEG_FABRIK
} reach_leg_solver;

typedef struct reach_walker_leg_def {
    reach_vec3 hip;  /**< body space: where the leg joins the body (z ignored in 2-D) */
    reach_vec2 rest; /**< body space, on the ground: where the foot stands at rest, relative to
                        the body origin; the ground decides its height */
    /** The longest hip-to-foot distance the walker allows, > 0 and at most the chain's length
     * (the sum of the bone lengths); 0: the chain's length. Default 0 */
    reach_real reach;
    int group;               /**< gait group, >= 0: legs of different groups never swing together. Default 0 */
    reach_leg_solver solver; /**< default REACH_LEG_TWO_BONE */
    int bone_count;          /**< default 2 */
    /** Hip first; each in [1 / REACH_WALKER_MAX_EXTENT, REACH_WALKER_MAX_EXTENT] and longer
     * than REACH_ZERO_LENGTH_RATIO times the leg's chain (shorter is REACH_ERROR_ZERO_LENGTH).
     * Default {1, 1.2} */
    reach_real bone_lengths[REACH_WALKER_MAX_BONES];
    /** Body space: the direction the knee bends toward (up and outward in 3-D; in 2-D only
     * its x and y count and pick the side of the hip→foot line, so a 2-D leg needs one with
     * x or y: the default has none and is refused there). Non-zero. Default +z.
     * FABRIK legs in 3-D bend in their vertical plane, and start bent toward it. */
    reach_vec3 knee;
    /** FABRIK legs, when `limited` is nonzero: bone k turns by an angle in [min_angle[k],
     * max_angle[k]] (rad, within [-pi, pi]) in the leg's plane, bone 0 from the direction
     * toward the foot along the ground, every other bone from the bone before it; positive
     * turns up (3-D) or toward the knee's side (2-D). A foot the limits cannot reach is left
     * where it is and the chain ends as near it as they allow. Default: not limited. */
    int limited;
    reach_real min_angle[REACH_WALKER_MAX_BONES], max_angle[REACH_WALKER_MAX_BONES];
} reach_walker_leg_def;

REACH_API reach_walker_leg_def reach_walker_default_leg_def(void);

/** One leg: its definition (with reach resolved and the knee direction made a unit vector,
 * in 2-D in the ground plane) and its state after the last update. All positions are world
 * space. Read these; do not write them. */
typedef struct reach_walker_leg {
    reach_walker_leg_def def;
    reach_vec3 hip;  /**< where the leg joins the body now */
    reach_vec3 foot; /**< the foot: its contact point when planted, the swing point otherwise */
    int planted;     /**< nonzero: on the ground and fixed in the world */
    /** Planted: the ground normal under the foot. Swinging: the direction it is lifted along. */
    reach_vec3 normal;
    reach_real lift;                 /**< height of the swing arc above the straight line to the target (0 when
                                        planted); in 2-D the only trace of the arc */
    int steps;                       /**< steps begun since init */
    reach_real swing;                /**< swinging: seconds since lift-off */
    reach_vec3 swing_from, swing_to; /**< swinging: where the foot left, where it will land */
    reach_vec3 from_normal, to_normal;
    /** The solved chain: joints[0] is the hip, joints[bone_count] the foot (equal to foot to
     * the solver's tolerance whenever the chain, within its limits, can reach it). */
    reach_vec3 joints[REACH_WALKER_MAX_BONES + 1];
    int bend; /**< 2-D: the side the knee is on (+1 counter-clockwise, -1 clockwise) */
} reach_walker_leg;

typedef struct reach_walker {
    reach_walker_def def;
    int leg_count;
    reach_walker_leg legs[REACH_WALKER_MAX_LEGS];

    /** The body, world space. position.xy and heading are the caller's; position.z (3-D) and
     * the tilt come from the feet. rotation = tilt · rotation by heading about +z. */
    reach_vec3 position;
    reach_real heading;
    reach_vec3 up;        /**< the body's up axis (its tilt); +z in 2-D */
    reach_quat rotation;  /**< body space → world */
    reach_vec2 velocity;  /**< along the ground, from the last two positions */
    reach_real turn_rate; /**< rad/s, from the last two headings */

    reach_real time; /**< seconds since init */
    long frame;      /**< updates since init */
    /** Steps that broke the gait rule because a leg would otherwise overstretch. Zero in a
     * walk whose speed suits the step settings. */
    long forced_steps;
} reach_walker;

/** Sets up a walker standing at rest: every foot planted at its rest position on the ground,
 * the body at (position, heading). Validates the definitions: finite numbers
 * (REACH_ERROR_NOT_FINITE) within REACH_WALKER_MAX_EXTENT (REACH_ERROR_OUT_OF_RANGE), ranges
 * as documented, 1 <= leg_count <= REACH_WALKER_MAX_LEGS, a bone count the leg's solver takes,
 * and every rest position within overstretch × reach of its hip on level ground. */
REACH_API reach_status reach_walker_init(reach_walker *walker, const reach_walker_def *def,
                                         const reach_walker_leg_def *legs, int leg_count, reach_vec2 position,
                                         reach_real heading);

/** Moves the body to (position, heading) over dt seconds (> 0) and updates every leg: swings
 * advance and land, planted legs lift by the step rules, the body's height and tilt follow
 * the feet, and each chain is solved. The heading may wind past ±pi; only its change per
 * frame matters. The position and dt must lie within REACH_WALKER_MAX_EXTENT, and the
 * velocity they make must stay finite over a step (REACH_ERROR_OUT_OF_RANGE otherwise). */
REACH_API reach_status reach_walker_update(reach_walker *walker, reach_vec2 position, reach_real heading,
                                           reach_real dt);

/* ---- the standard creature -------------------------------------------------------------- */

/** The gait group of leg `leg` of a creature laid out as the standard one (legs in left/right
 * pairs from front to back: leg 2k is the k-th left leg, 2k + 1 the k-th right one), so that
 * the two groups alternate: tetrapod for 8 legs, tripod for 6, diagonal pairs for 4,
 * left/right for 2. Returns 0 or 1; -1 when leg is not in [0, leg_count). */
REACH_API int reach_walker_gait_group(int leg_count, int leg);

/** Fills legs[0 .. leg_count) with the standard creature: an even number of legs (2 to
 * REACH_WALKER_MAX_LEGS) with hips in pairs from 0.8 ahead of the body origin to 0.8 behind
 * it, 0.5 to each side; feet 1.2 out from the hips, fanned forward at the front and back at
 * the rear; grouped by reach_walker_gait_group. Two-bone legs have bones of 1.1 and 1.3; FABRIK
 * legs three bones of 0.9, 0.85 and 0.65 (the standard spider's proportions) without limits,
 * starting bent toward their knees. Both reach 2.4. Suits reach_walker_default_def(). */
REACH_API reach_status reach_walker_standard_legs(int leg_count, reach_leg_solver solver, reach_walker_leg_def *legs);

/* ---- standard paths --------------------------------------------------------------------- */

/** Body motions that start at the origin and follow the path's tangent. */
typedef enum reach_walk_path_kind {
    REACH_WALK_PATH_CIRCLE = 0, /**< a circle of radius size, turning left */
    REACH_WALK_PATH_LINE,       /**< straight along +x */
    REACH_WALK_PATH_FIGURE8     /**< (size·sin θ, size/2·sin 2θ), θ = speed·t / size */
} reach_walk_path_kind;

typedef struct reach_walk_path {
    reach_walk_path_kind kind;
    reach_real size;  /**< rig units, > 0. Default 6 */
    reach_real speed; /**< rig units per second, > 0; the figure-eight's speed varies between
                         0.66 and 1.42 times this. Default 1 */
} reach_walk_path;

REACH_API reach_walk_path reach_walk_path_default(reach_walk_path_kind kind);

/** Body position and heading on the path at time t (seconds, finite). The heading is
 * continuous in t (it winds rather than wraps on the circle). */
REACH_API reach_status reach_walk_path_sample(const reach_walk_path *path, reach_real t, reach_vec2 *position,
                                              reach_real *heading);

/** Seconds for one lap of a closed path; 0 for the line, which never closes. */
REACH_API reach_real reach_walk_path_period(const reach_walk_path *path);

/** "circle", "line", "figure8"; and back (REACH_ERROR_INVALID_ARGUMENT for any other name).
 * A kind outside the enum is named "unknown". */
REACH_API const char *reach_walk_path_name(reach_walk_path_kind kind);
REACH_API reach_status reach_walk_path_parse(const char *name, reach_walk_path_kind *kind);

/* ---- standard terrains ------------------------------------------------------------------ */

typedef enum reach_walk_terrain_kind {
    REACH_WALK_TERRAIN_FLAT = 0, /**< z = 0 */
    /** z = height·sin(2πx/wavelength)·cos(2πy/wavelength): smooth hills and hollows */
    REACH_WALK_TERRAIN_WAVES,
    /** Flat terraces wavelength wide whose levels go 0, 1, 2, 1, ... steps of `height` along x
     * and again along y, adding up: sharp edges, up to 4 × height high */
    REACH_WALK_TERRAIN_STEPS
} reach_walk_terrain_kind;

typedef struct reach_walk_terrain {
    reach_walk_terrain_kind kind;
    reach_real height;     /**< wave amplitude or step rise, >= 0. Default 0.25 (waves), 0.12 (steps) */
    reach_real wavelength; /**< wave length or terrace width, > 0. Default 4 (waves), 1.5 (steps) */
} reach_walk_terrain;

REACH_API reach_walk_terrain reach_walk_terrain_default(reach_walk_terrain_kind kind);

/** A reach_ground_fn: pass it as def.ground with a reach_walk_terrain * as def.ground_user. */
REACH_API void reach_walk_terrain_ground(void *terrain, reach_real x, reach_real y, reach_real *height,
                                         reach_vec3 *normal);

/** "flat", "waves", "steps"; and back (REACH_ERROR_INVALID_ARGUMENT for any other name).
 * A kind outside the enum is named "unknown". */
REACH_API const char *reach_walk_terrain_name(reach_walk_terrain_kind kind);
REACH_API reach_status reach_walk_terrain_parse(const char *name, reach_walk_terrain_kind *kind);

REACH_EXTERN_C_END

#endif
