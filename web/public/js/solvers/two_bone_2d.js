// Two-bone IK in the plane (include/reach/two_bone.h), solved without trigonometry.
export default {
  id: 'two-bone-2d',
  name: 'Two-bone, 2-D',
  group: 'Two-bone',
  summary:
    'Closed form without trigonometry: the elbow sits where the circles around the shoulder and ' +
    'the target meet. The pole picks the side; the faint elbow is the other solution.',
  dims: 2,
  bones: { min: 2, max: 2 },
  defaultLengths: [1.0, 0.8],
  closedForm: true,
  usesPole: true,
  softIK: true,
  limits: false,
  requires: ['reach_wasm_two_bone_2d'],
  solve(reach, { target, pole, softDistance }) {
    const status = reach.exports.reach_wasm_two_bone_2d(target[0], target[1], pole[0], pole[1], softDistance);
    return reach.outcome(status);
  },
};
