// The UR5 in node, through js/reach.js: the arm the module builds from its DH table poses as the
// textbook matrices say, and the Jacobian solver brings its tool onto targets the arm can reach,
// checked by that independent forward kinematics.
import { check, expect, expectNear } from './harness.mjs';
import { dot, loadModule, norm, random, sub } from './support.mjs';
import robot from '../public/js/solvers/robot_ur5.js';
import { POSITION_TOLERANCE, READY, expectFrameNear, toolFrame } from './ur5.mjs';

const DLS = 2;
const tool = (outcome) => outcome.frames[outcome.frames.length - 1];

// Rotations about the world z and x axes, as the page's turn and tilt are defined.
const aboutZ = (v, a) => [Math.cos(a) * v[0] - Math.sin(a) * v[1], Math.sin(a) * v[0] + Math.cos(a) * v[1], v[2]];
const aboutX = (v, a) => [v[0], Math.cos(a) * v[1] - Math.sin(a) * v[2], Math.sin(a) * v[1] + Math.cos(a) * v[2]];

// Moves the target from where the tool is to `to` in steps, solving after each, as a drag does.
function drag(reach, to, steps, goal) {
  const from = tool(robot.solve(reach, { ...goal, target: tool(reach.robotOutcome(0)).origin })).origin;
  let outcome;
  for (let k = 1; k <= steps; k++) {
    const target = from.map((v, i) => v + ((to[i] - v) * k) / steps);
    outcome = robot.solve(reach, { ...goal, target });
    expect(outcome.status === 0, `step ${k}: ${outcome.statusText}`);
  }
  return outcome;
}

export async function robotChecks() {
  await check('module, robot: the UR5 from its DH table poses as the textbook DH matrices say', () => {
    const reach = loadModule();
    let outcome = robot.start(reach);
    expect(outcome.status === 0 && outcome.values.length === 6, `start: ${outcome.statusText}`);
    READY.forEach((v, i) => expectNear(outcome.values[i], v, 1e-6, `ready joint ${i + 1}`));
    expectFrameNear(tool(outcome), toolFrame(READY), 'ready pose');
    expect(tool(outcome).z[2] < -0.999, 'the ready tool does not point down');
    const next = random(5);
    for (let k = 0; k < 200; k++) {
      const q = READY.map(() => (2 * next() - 1) * Math.PI);
      outcome = reach.robotOutcome(reach.exports.reach_wasm_robot_set_values(...q));
      expect(outcome.status === 0, `set values ${q}: ${outcome.statusText}`);
      q.forEach((v, i) => expectNear(outcome.values[i], v, 1e-5, `case ${k}: joint ${i + 1} reads back`));
      expectFrameNear(tool(outcome), toolFrame(q), `case ${k}, q = ${q}`);
      // Each joint turns about its frame's z axis, and joint 1 about the base's vertical.
      outcome.frames.forEach((frame) => expectNear(norm(frame.z), 1, 1e-5, `case ${k}: axis length`));
      expectNear(outcome.frames[0].z[2], 1, 1e-6, `case ${k}: joint 1 axis`);
    }
  });

  await check('module, robot: every method drags the tool onto reachable targets (FK check)', () => {
    const reach = loadModule();
    const next = random(11);
    for (const { method, name } of robot.methods) {
      let reached = 0;
      const cases = 40;
      for (let k = 0; k < cases; k++) {
        robot.start(reach);
        // A reachable target: where the tool is at joint values near the ready pose.
        const q = READY.map((v) => v + (2 * next() - 1) * 0.5);
        const target = toolFrame(q).origin;
        const goal = { orientation: { enabled: false, turn: 0, tilt: 0 }, method, maxIterations: 64 };
        const outcome = drag(reach, target, 10, goal);
        const what = `${name} case ${k} (target ${target})`;
        // The joint values it reports put the tool where it says, by the textbook matrices.
        expectFrameNear(tool(outcome), toolFrame(outcome.values), `${what}: reported pose`);
        const miss = norm(sub(toolFrame(outcome.values).origin, target));
        expectNear(outcome.residual, miss, POSITION_TOLERANCE, `${what}: residual`);
        if (outcome.reached) {
          reached++;
          expect(miss < 2e-4, `${what}: reported reached, ${miss} m off`);
        }
      }
      expect(reached === cases, `${name}: reached ${reached} of ${cases}`);
    }
  });

  await check('module, robot: with orientation, the tool frame takes the turned and tilted goal frame', () => {
    const reach = loadModule();
    const next = random(12);
    const home = toolFrame(READY);
    for (const { method, name } of robot.methods.filter((m) => m.method !== 0)) {
      let reached = 0;
      const cases = 30;
      for (let k = 0; k < cases; k++) {
        robot.start(reach);
        const orientation = { enabled: true, turn: (2 * next() - 1) * 1.2, tilt: (2 * next() - 1) * 0.5 };
        const target = home.origin.map((v) => v + (2 * next() - 1) * 0.12);
        const outcome = drag(reach, target, 8, { orientation, method, maxIterations: 64 });
        const what = `${name} case ${k} (turn ${orientation.turn}, tilt ${orientation.tilt})`;
        const expected = Object.fromEntries(['x', 'y', 'z'].map((axis) =>
          [axis, aboutZ(aboutX(home[axis], orientation.tilt), orientation.turn)]));
        expectFrameNear(outcome.goal, { origin: target, ...expected }, `${what}: goal frame`);
        const actual = toolFrame(outcome.values);
        if (outcome.reached) {
          reached++;
          expectFrameNear(actual, { origin: target, ...expected }, `${what}: tool frame`);
        }
        const angle = Math.acos(Math.min(1, dot(actual.z, expected.z)));
        expect(outcome.angleResidual >= angle - 1e-3, `${what}: angle residual ${outcome.angleResidual} < ${angle}`);
      }
      // These goals lie close to the ready pose: the damped and SVD methods reach nearly all.
      expect(reached >= 0.9 * cases, `${name}: reached ${reached} of ${cases}`);
    }
  });

  await check('module, robot: bad input is refused and changes nothing', () => {
    const reach = loadModule();
    const e = reach.exports;
    expect(e.reach_wasm_robot_solve(-0.5, 0, 0.3, 0, 0, 0, DLS, 64) !== 0, 'solved before the arm was built');
    expect(e.reach_wasm_robot_set_values(0, 0, 0, 0, 0, 0) !== 0, 'posed before the arm was built');
    robot.start(reach);
    robot.solve(reach, { target: [-0.5, -0.1, 0.3], orientation: { enabled: true, turn: 0.2, tilt: 0.1 },
      method: DLS, maxIterations: 64 });
    const before = JSON.stringify(reach.robotOutcome(0));
    const refused = [
      [NaN, 0, 0.3, 0, 0, 0, DLS, 64], [0, Infinity, 0.3, 0, 0, 0, DLS, 64], [-0.5, 0, 0.3, 1, NaN, 0, DLS, 64],
      [-0.5, 0, 0.3, 1, 4, 0, DLS, 64], [-0.5, 0, 0.3, 1, 0, 2, DLS, 64], [-0.5, 0, 0.3, 0, 0, 0, 4, 64],
      [-0.5, 0, 0.3, 0, 0, 0, -1, 64], [-0.5, 0, 0.3, 0, 0, 0, DLS, 0], [1e30, 0, 0, 0, 0, 0, DLS, 64],
    ];
    for (const args of refused) expect(e.reach_wasm_robot_solve(...args) !== 0, `solve(${args}) was accepted`);
    for (const q of [[7, 0, 0, 0, 0, 0], [0, NaN, 0, 0, 0, 0], [0, 0, 0, 0, 0, -Infinity]]) {
      expect(e.reach_wasm_robot_set_values(...q) !== 0, `set values ${q} was accepted`);
    }
    expect(JSON.stringify(reach.robotOutcome(0)) === before, 'a refused call changed the arm or report');
  });
}
