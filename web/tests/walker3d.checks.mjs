// The walker in 3-D on the library's standard terrains, in node through js/reach.js: it walks
// to each goal with its feet on the ground, planted feet stay where they landed, and the page's
// ground (reach_wasm_walker_ground_height) is the one the feet stand on.
import { check, expect, expectNear } from './harness.mjs';
import { loadModule, norm, sub } from './support.mjs';
import { expectFinite } from './properties.mjs';
import { TERRAINS, walker3d } from '../public/js/solvers/walker.js';

const DT = 1 / 60;
const SPEED = 1.5;
const GOALS = [[4, 3], [-4, 2], [1, -4]];
const FRAMES_PER_GOAL = 480;
// Float coordinates of a few units: a foot on the ground to this much.
const GROUND_TOLERANCE = 1e-4;

const foot = (leg) => leg.joints[leg.joints.length - 1];

// The ground's heights at and right around (x, y): the steps terrain jumps at its edges, and a
// foot on an edge stands on one side of it, the chain's end a rounding error from it.
function groundAround(reach, x, y) {
  const e = 1e-4;
  return [[0, 0], [e, 0], [-e, 0], [0, e], [0, -e], [e, e], [-e, -e], [e, -e], [-e, e]]
    .map(([dx, dy]) => reach.groundHeight(x + dx, y + dy));
}

export async function walker3dChecks() {
  await check('module, walker 3-D: on each terrain it walks to each goal; planted feet stay on the ground', () => {
    const reach = loadModule();
    for (const terrain of TERRAINS) {
      for (const legCount of [6, 8]) {
        let outcome = walker3d.start(reach, legCount, terrain);
        const label = `${legCount} legs on ${terrain.name}`;
        expect(outcome.status === 0 && outcome.legs.length === legCount, `${label}: ${outcome.statusText}`);
        const boneLengths = outcome.legs.map((leg) => leg.joints.slice(1).map((j, b) => norm(sub(j, leg.joints[b]))));
        for (const goal of GOALS) {
          const stepsBefore = outcome.steps;
          for (let frame = 0; frame < FRAMES_PER_GOAL; frame++) {
            const previous = outcome;
            outcome = walker3d.follow(reach, goal, SPEED, DT);
            const what = `${label}, goal ${goal}, frame ${frame}`;
            expect(outcome.status === 0, `${what}: ${outcome.statusText}`);
            expectFinite(outcome.legs.flatMap((leg) => leg.joints), what);
            outcome.legs.forEach((leg, i) => {
              const was = previous.legs[i];
              const [x, y, z] = foot(leg);
              const ground = groundAround(reach, x, y);
              // A foot that neither lifted nor landed since the last frame has not moved.
              if (leg.planted && was.planted && leg.steps === was.steps) {
                expect(norm(sub(foot(leg), foot(was))) < 1e-6, `${what}: planted foot ${i} slid`);
              }
              if (leg.planted) {
                expect(ground.some((h) => Math.abs(z - h) <= GROUND_TOLERANCE),
                  `${what}: planted foot ${i} at height ${z}, the ground at ${ground}`);
              } else {
                expect(z >= Math.min(...ground) - GROUND_TOLERANCE, `${what}: swinging foot ${i} under the ground`);
              }
              leg.joints.slice(1).forEach((joint, b) => {
                expectNear(norm(sub(joint, leg.joints[b])), boneLengths[i][b], 1e-4, `${what}: leg ${i} bone ${b}`);
              });
            });
            const [bx, by, bz] = outcome.body.position;
            expect(bz > reach.groundHeight(bx, by) + 0.3, `${what}: the body is down at ${bz}`);
            expectNear(norm(outcome.body.up), 1, 1e-4, `${what}: body axis`);
          }
          const [x, y] = outcome.body.position;
          const left = Math.hypot(goal[0] - x, goal[1] - y);
          expect(left < 0.8, `${label} stopped ${left} from ${goal}`);
          expect(outcome.steps > stepsBefore, `${label} reached ${goal} without a step`);
        }
        expect(outcome.forcedSteps === 0, `${label}: ${outcome.forcedSteps} forced steps`);
      }
    }
  });

  await check('module, walker 3-D: the ground the page draws is the one the walker stands on', () => {
    const reach = loadModule();
    const waves = TERRAINS.find((t) => t.name === 'waves');
    expect(walker3d.start(reach, 6, waves).status === 0, 'start on waves');
    // The library's waves: 0.25 · sin(2πx / 4) · cos(2πy / 4).
    for (const [x, y] of [[1, 0], [0.5, 1], [-1, 2], [3.3, -0.7]]) {
      const expected = 0.25 * Math.sin((2 * Math.PI * x) / 4) * Math.cos((2 * Math.PI * y) / 4);
      expectNear(reach.groundHeight(x, y), expected, 1e-5, `waves at (${x}, ${y})`);
    }
    const before = JSON.stringify(reach.walkerOutcome(0));
    const e = reach.exports;
    for (const args of [[6, 3, 3], [6, 3, -1], [5, 3, 1], [6, 4, 1]]) {
      expect(e.reach_wasm_walker_start(...args) !== 0, `start(${args}) was accepted`);
    }
    expect(JSON.stringify(reach.walkerOutcome(0)) === before, 'a refused start changed the walker');
    expectNear(reach.groundHeight(1, 0), 0.25, 1e-5, 'a refused start changed the ground');
  });
}
