// The walker (include/reach/walker.h): the standard creature walking toward the target, seen
// from above on flat ground (the eight-legged spider), or in 3-D on the library's standard terrains.

// reach_walk_terrain_kind, in the library's order.
export const TERRAINS = [
  { name: 'flat', kind: 0 },
  { name: 'waves', kind: 1 },
  { name: 'steps', kind: 2 },
];

const REQUIRES = ['reach_wasm_walker_start', 'reach_wasm_walker_follow', 'reach_wasm_walker_leg_count',
  'reach_wasm_walker_joints', 'reach_wasm_walker_leg_joint_count', 'reach_wasm_walker_planted',
  'reach_wasm_walker_leg_steps', 'reach_wasm_walker_lift', 'reach_wasm_walker_body', 'reach_wasm_walker_steps',
  'reach_wasm_walker_forced_steps', 'reach_wasm_walker_ground_height'];

function walkerSolver({ id, name, dims, legCounts, terrains, summary }) {
  return {
    id,
    kind: 'walker',
    name,
    group: 'Walker',
    summary,
    dims,
    legCounts,
    terrains,
    requires: REQUIRES,
    // terrain: one of TERRAINS (ignored from above, where the ground is flat)
    start(reach, legCount, terrain) {
      const status = reach.exports.reach_wasm_walker_start(legCount, dims, dims === 3 ? terrain.kind : 0);
      return reach.walkerOutcome(status);
    },
    follow(reach, goal, speed, dt) {
      const status = reach.exports.reach_wasm_walker_follow(goal[0], goal[1], speed, dt);
      return reach.walkerOutcome(status);
    },
  };
}

const RULES =
  'Procedural legs: a foot steps when it strays too far from its rest spot, legs of one gait ' +
  'group never swing together, and each leg is solved as two-bone IK.';

export const walker2d = walkerSolver({
  id: 'walker-2d',
  name: 'Spider, from above',
  dims: 2,
  legCounts: [8, 6, 4, 2],
  terrains: [TERRAINS[0]],
  summary: `${RULES} It walks toward the target: move the pointer over the canvas, or drag.`,
});

export const walker3d = walkerSolver({
  id: 'walker-3d',
  name: 'Hexapod on terrain, 3-D',
  dims: 3,
  legCounts: [6, 8, 4, 2],
  terrains: [TERRAINS[1], TERRAINS[2], TERRAINS[0]],
  summary: `${RULES} The body rides above the planted feet and tilts with the ground. It walks ` +
    'toward the point of the ground under the pointer (tap, on a touch screen); drag to turn the view.',
});
