// A UR5 robot arm built from its Denavit–Hartenberg table (include/reach/dh.h) and solved by the
// Jacobian family: its tool follows the target, in position and, when asked, in orientation.
import { JACOBIAN_METHODS } from './jacobian.js';

export default {
  id: 'robot-ur5',
  kind: 'robot',
  name: 'UR5 robot arm, 3-D',
  group: 'Robot arm',
  summary:
    'A UR5 built from its published DH table: six hinges, each turning about its frame’s z axis. ' +
    'The Jacobian solver moves the tool onto the target from the last pose; with orientation on, ' +
    'the tool frame (solid) must match the target frame (dashed) too. Drag empty space to turn the view.',
  dims: 3,
  // DLS first: the library's default, and the one that reaches the most on robot arms.
  methods: [2, 3, 1, 0].map((method) => JACOBIAN_METHODS.find((m) => m.method === method)),
  requires: ['reach_wasm_robot_start', 'reach_wasm_robot_set_values', 'reach_wasm_robot_solve',
    'reach_wasm_robot_joint_count', 'reach_wasm_robot_frames', 'reach_wasm_robot_values', 'reach_wasm_robot_goal',
    'reach_wasm_robot_angle_residual'],
  start(reach) {
    return reach.robotOutcome(reach.exports.reach_wasm_robot_start());
  },
  // goal = { target (metres), orientation: { enabled, turn, tilt } (rad), method, maxIterations }
  solve(reach, { target, orientation, method, maxIterations }) {
    const status = reach.exports.reach_wasm_robot_solve(target[0], target[1], target[2], orientation.enabled ? 1 : 0,
      orientation.turn, orientation.tilt, method, maxIterations);
    return reach.robotOutcome(status);
  },
};
