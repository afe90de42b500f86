// Two-bone IK in space with a pole (include/reach/two_bone.h), a leg or an arm.
export default {
  id: 'two-bone-3d',
  name: 'Two-bone, 3-D',
  group: 'Two-bone',
  summary:
    'Closed form in space: the knee bends in the plane of the hip, the target and the pole, ' +
    'on the pole’s side. Drag empty space to turn the view.',
  dims: 3,
  bones: { min: 2, max: 2 },
  defaultLengths: [1.0, 0.8],
  closedForm: true,
  usesPole: true,
  softIK: true,
  limits: false,
  requires: ['reach_wasm_two_bone_3d'],
  solve(reach, { target, pole, softDistance }) {
    const status = reach.exports.reach_wasm_two_bone_3d(
      target[0], target[1], target[2], pole[0], pole[1], pole[2], softDistance);
    return reach.outcome(status);
  },
};
