// A crowd of two-bone arms solved together by the batch solver (include/reach/two_bone_batch.h): one call
// per frame for all of them, with the WebAssembly SIMD path inside.
export default {
  id: 'crowd',
  kind: 'crowd',
  name: 'Crowd of arms, batch, 3-D',
  group: 'Batch',
  summary:
    'Hundreds or thousands of two-bone arms, each with its own bone lengths, all reaching for the ' +
    'target in one call of the batch solver, which runs several arms per SIMD instruction. Arms ' +
    'that cannot reach point straight at it. Drag empty space to turn the view.',
  dims: 3,
  member: 'arm',
  members: 'arms',
  spacing: 0.5, // between shoulders, as web/wasm/crowd.c lays them out
  overhang: 1.2, // how far past the grid's edge the view leaves room for arms leaning out
  targetHeight: 0.9, // the plane the target moves in, above the ground
  armCounts: [256, 1024, 4096],
  defaultArms: 1024,
  requires: ['reach_wasm_crowd_start', 'reach_wasm_crowd_follow', 'reach_wasm_crowd_count',
    'reach_wasm_crowd_capacity', 'reach_wasm_crowd_points', 'reach_wasm_crowd_residuals', 'reach_wasm_crowd_reached',
    'reach_wasm_crowd_isa'],
  start(reach, arms) {
    return reach.crowdOutcome(reach.exports.reach_wasm_crowd_start(arms));
  },
  // Only the batch call, so the page can time it: the status, for outcome().
  follow(reach, target) {
    return reach.exports.reach_wasm_crowd_follow(target[0], target[1], target[2]);
  },
  outcome(reach, status) {
    return reach.crowdOutcome(status);
  },
};
