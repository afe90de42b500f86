/* The walker on the page: the standard creature, steered toward the pointer, on the flat ground
 * of the top view or on one of the standard terrains in 3-D. */
#include "reach_wasm.h"
#include "reach/walker.h"

/* Steering, in the standard creature's units (legs about 2.4 long). The walker's default step
 * rules keep up with a body moving at up to step_threshold / lead_time ≈ 2.3 units/s. */
#define MAX_TURN_RATE  REACH_R(2.5) /* rad/s */
#define ARRIVE_RADIUS  REACH_R(0.3) /* the body stops this close to the goal */
#define SLOWING_RADIUS REACH_R(2.0) /* and starts slowing this far from it */
#define MAX_SPEED      REACH_R(2.0)

static reach_walker walker;
static reach_walk_terrain terrain; /* the walker's ground: def.ground_user points here */
static reach_real body[13];
static reach_real joints[REACH_WALKER_MAX_LEGS * (REACH_WALKER_MAX_BONES + 1) * 3];

/* The page reads positions from flat arrays. */
static void publish(void) {
    body[0] = walker.position.x;
    body[1] = walker.position.y;
    body[2] = walker.position.z;
    body[3] = walker.heading;
    /* The body's axes, so the page draws it tilted without rotating anything itself. */
    const reach_vec3 axes[3] = {reach_quat_rotate(walker.rotation, reach_vec3_make(1, 0, 0)),
                                reach_quat_rotate(walker.rotation, reach_vec3_make(0, 1, 0)),
                                reach_quat_rotate(walker.rotation, reach_vec3_make(0, 0, 1))};
    for (int i = 0; i < 3; i++) {
        body[4 + 3 * i] = axes[i].x;
        body[5 + 3 * i] = axes[i].y;
        body[6 + 3 * i] = axes[i].z;
    }
    reach_real *out = joints;
    for (int i = 0; i < walker.leg_count; i++) {
        const reach_walker_leg *leg = &walker.legs[i];
        for (int j = 0; j <= leg->def.bone_count; j++) {
            *out++ = leg->joints[j].x;
            *out++ = leg->joints[j].y;
            *out++ = leg->joints[j].z;
        }
    }
}

int reach_wasm_walker_start(int leg_count, int dimensions, int terrain_kind) {
    if (leg_count < 1 || leg_count > REACH_WALKER_MAX_LEGS) return REACH_ERROR_INVALID_ARGUMENT;
    if (terrain_kind < REACH_WALK_TERRAIN_FLAT || terrain_kind > REACH_WALK_TERRAIN_STEPS)
        return REACH_ERROR_INVALID_ARGUMENT;
    reach_walker_leg_def legs[REACH_WALKER_MAX_LEGS];
    reach_status status = reach_walker_standard_legs(leg_count, REACH_LEG_TWO_BONE, legs);
    if (status != REACH_OK) return (int)status;
    reach_walker_def def = reach_walker_default_def();
    def.dimensions = dimensions;
    def.ground = reach_walk_terrain_ground;
    def.ground_user = &terrain;
    /* The walker keeps a pointer to its ground, which init already queries: the new terrain
     * goes in for it, and the old one comes back if init refuses, with the old walker. */
    static reach_walker candidate;
    reach_walk_terrain previous = terrain;
    terrain = reach_walk_terrain_default((reach_walk_terrain_kind)terrain_kind);
    status = reach_walker_init(&candidate, &def, legs, leg_count, reach_vec2_make(0, 0), 0);
    if (status != REACH_OK) {
        terrain = previous;
        return (int)status;
    }
    walker = candidate;
    publish();
    return REACH_OK;
}

reach_real reach_wasm_walker_ground_height(reach_real x, reach_real y) {
    reach_real height = 0;
    reach_vec3 normal;
    reach_walk_terrain_ground(&terrain, x, y, &height, &normal);
    return height;
}

/* The turn from heading a to heading b, in (-pi, pi]. */
static reach_real turn_between(reach_real a, reach_real b) {
    reach_real turn = b - a;
    turn -= 2 * REACH_PI * reach_floor((turn + REACH_PI) / (2 * REACH_PI));
    return turn;
}

int reach_wasm_walker_follow(reach_real goal_x, reach_real goal_y, reach_real speed, reach_real dt) {
    if (walker.leg_count == 0) return REACH_ERROR_INVALID_ARGUMENT;
    if (!reach_is_finite(goal_x) || !reach_is_finite(goal_y) || !reach_is_finite(speed) || !reach_is_finite(dt))
        return REACH_ERROR_NOT_FINITE;
    if (!(dt > 0) || speed < 0 || speed > MAX_SPEED) return REACH_ERROR_INVALID_ARGUMENT;

    reach_vec2 position = reach_vec2_make(walker.position.x, walker.position.y);
    reach_real heading = walker.heading;
    reach_vec2 to_goal = reach_vec2_sub(reach_vec2_make(goal_x, goal_y), position);
    reach_real distance = reach_vec2_length(to_goal);
    if (distance > ARRIVE_RADIUS) {
        reach_real turn = turn_between(heading, reach_atan2(to_goal.y, to_goal.x));
        reach_real max_turn = MAX_TURN_RATE * dt;
        heading += reach_clamp(turn, -max_turn, max_turn);
        /* Ease in near the goal, and turn on the spot rather than walk away from it. */
        reach_real ease = reach_min(1, (distance - ARRIVE_RADIUS) / SLOWING_RADIUS);
        reach_real facing = reach_max(0, reach_cos(turn));
        reach_real advance = speed * ease * facing * dt;
        position =
            reach_vec2_add(position, reach_vec2_make(reach_cos(heading) * advance, reach_sin(heading) * advance));
    }
    reach_status status = reach_walker_update(&walker, position, heading, dt);
    if (status == REACH_OK) publish();
    return (int)status;
}

int reach_wasm_walker_leg_count(void) { return walker.leg_count; }
const reach_real *reach_wasm_walker_joints(void) { return joints; }
const reach_real *reach_wasm_walker_body(void) { return body; }
int reach_wasm_walker_steps(void) {
    int steps = 0;
    for (int i = 0; i < walker.leg_count; i++)
        steps += walker.legs[i].steps;
    return steps;
}
int reach_wasm_walker_forced_steps(void) { return (int)walker.forced_steps; }

static const reach_walker_leg *leg_at(int leg) { return leg >= 0 && leg < walker.leg_count ? &walker.legs[leg] : 0; }
int reach_wasm_walker_leg_joint_count(int leg) { return leg_at(leg) ? leg_at(leg)->def.bone_count + 1 : 0; }
int reach_wasm_walker_planted(int leg) { return leg_at(leg) ? leg_at(leg)->planted : 0; }
int reach_wasm_walker_leg_steps(int leg) { return leg_at(leg) ? leg_at(leg)->steps : 0; }
reach_real reach_wasm_walker_lift(int leg) { return leg_at(leg) ? leg_at(leg)->lift : 0; }
