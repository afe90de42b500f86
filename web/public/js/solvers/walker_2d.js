// The walker (include/reach/walker.h) seen from above: the seeds' spider.
export default {
  id: 'walker-2d',
  kind: 'walker',
  name: 'Walker: spider, from above',
  summary:
    'Procedural legs: a foot steps when it strays too far from its rest spot, legs of one gait ' +
    'group never swing together, and each leg is solved as two-bone IK. It walks toward the ' +
    'target: move the pointer over the canvas, or drag.',
  dims: 2,
  legCounts: [8, 6, 4, 2],
  requires: ['reach_wasm_walker_start', 'reach_wasm_walker_follow', 'reach_wasm_walker_leg_count',
    'reach_wasm_walker_joints', 'reach_wasm_walker_leg_joint_count', 'reach_wasm_walker_planted',
    'reach_wasm_walker_lift', 'reach_wasm_walker_body', 'reach_wasm_walker_steps',
    'reach_wasm_walker_forced_steps'],
  start(reach, legCount) {
    const status = reach.exports.reach_wasm_walker_start(legCount, 2);
    return reach.walkerOutcome(status);
  },
  follow(reach, goal, speed, dt) {
    const status = reach.exports.reach_wasm_walker_follow(goal[0], goal[1], speed, dt);
    return reach.walkerOutcome(status);
  },
};
