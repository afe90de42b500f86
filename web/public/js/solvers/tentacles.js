// A field of tentacles, chains of eight bones, solved together by batch FABRIK
// (include/reach/fabrik_batch.h): one call per frame for all of them, several chains per SIMD
// instruction, each stopping at its own tolerance.
export default {
  id: 'tentacles',
  kind: 'crowd',
  name: 'Tentacles, batch FABRIK, 3-D',
  group: 'Batch',
  summary:
    'Hundreds of eight-bone tentacles rooted on the ground, each of its own length, all reaching for ' +
    'the target in one call of batch FABRIK, which solves several chains per SIMD instruction, each ' +
    'from where it was and to its own tolerance. Tentacles that cannot reach point straight at it. ' +
    'Drag empty space to turn the view.',
  dims: 3,
  member: 'tentacle',
  members: 'tentacles',
  spacing: 0.6, // between roots, as web/wasm/tentacles.c lays them out
  overhang: 1.9, // how far past the grid's edge the view leaves room (the longest tentacle is 1.8)
  targetHeight: 0.7, // the plane the target moves in, above the ground
  armCounts: [64, 256, 1024],
  defaultArms: 256,
  requires: ['reach_wasm_tentacles_start', 'reach_wasm_tentacles_follow', 'reach_wasm_tentacles_again',
    'reach_wasm_tentacles_count',
    'reach_wasm_tentacles_bone_count', 'reach_wasm_tentacles_capacity', 'reach_wasm_tentacles_joints',
    'reach_wasm_tentacles_residuals', 'reach_wasm_tentacles_reached', 'reach_wasm_tentacles_iterations',
    'reach_wasm_tentacles_isa'],
  start(reach, tentacles) {
    return reach.tentaclesOutcome(reach.exports.reach_wasm_tentacles_start(tentacles));
  },
  // Only the batch call, so the page can time it: the status, for outcome().
  follow(reach, target) {
    return reach.exports.reach_wasm_tentacles_follow(target[0], target[1], target[2]);
  },
  // The last follow again from the pose it started from (a warm solve from its own answer would
  // take no iterations), so that the page times the work of a frame.
  again(reach) {
    return reach.exports.reach_wasm_tentacles_again();
  },
  outcome(reach, status) {
    return reach.tentaclesOutcome(status);
  },
};
