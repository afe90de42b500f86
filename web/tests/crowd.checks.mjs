// The crowd in node, through js/reach.js: the batch solver, on its wasm SIMD path, gives every
// arm what include/reach/two_bone.h promises one arm (two_bone_batch.h says it matches the scalar solver):
// bones kept, the end on the ray toward the target at the nearest distance it can reach, the
// elbow in the plane of shoulder, target and pole on the pole's side; and bad input changes
// nothing.
import { check, expect, expectNear } from './harness.mjs';
import { cross, dot, loadModule, norm, sub, unit } from './support.mjs';
import { expectCrowdRefusesBadInput, expectEndPlaced, expectFinite, tolerance } from './properties.mjs';
import crowd from '../public/js/solvers/crowd.js';

// A path over and around the crowd, near the ground and high above it, far outside it too.
const TARGETS = [[0, 0, 0.9], [1.3, -0.4, 0.6], [3, 2, 1.5], [-6, 5, 0.3], [0.2, 0.1, 3], [-20, -3, 1], [7, -7, 0.9]];

function expectArmsSound(before, after, target, lengths, what) {
  expect(after.status === 0, `${what}: ${after.statusText}`);
  expectFinite([...after.mids, ...after.ends], what);
  after.roots.forEach((root, k) => {
    const arm = `${what}, arm ${k}`;
    expect(norm(sub(root, before.roots[k])) === 0, `${arm}: the shoulder moved`);
    const pose = [root, after.mids[k], after.ends[k]];
    expectNear(norm(sub(pose[1], root)), lengths[k][0], tolerance(lengths[k]), `${arm}: upper bone`);
    expectNear(norm(sub(pose[2], pose[1])), lengths[k][1], tolerance(lengths[k]), `${arm}: lower bone`);
    expectEndPlaced({ pose, residual: after.residuals[k], reached: after.reached[k] }, target, lengths[k], arm);
  });
}

export async function crowdChecks() {
  await check('module, crowd: every arm of the batch keeps its bones and lands where two-bone IK must', () => {
    const reach = loadModule();
    for (const arms of crowd.armCounts) {
      let outcome = crowd.start(reach, arms);
      expect(outcome.status === 0 && outcome.roots.length === arms, `${arms} arms: ${outcome.statusText}`);
      expect(outcome.isa === 'wasm-simd', `the batch runs on ${outcome.isa}`);
      const lengths = outcome.roots.map((root, k) =>
        [norm(sub(outcome.mids[k], root)), norm(sub(outcome.ends[k], outcome.mids[k]))]);
      // The poles bend each elbow away from the middle: the plane of shoulder, target and pole.
      const poles = outcome.roots.map((root, k) => {
        const out = Math.hypot(root[0], root[1]) > 0 ? unit([root[0], root[1], 0]) : [1, 0, 0];
        return [root[0] + out[0], root[1] + out[1], outcome.mids[k][2]];
      });
      for (const target of TARGETS) {
        const before = outcome;
        outcome = reach.crowdOutcome(crowd.follow(reach, target));
        const what = `${arms} arms, target ${target}`;
        expectArmsSound(before, outcome, target, lengths, what);
        let reached = 0;
        outcome.roots.forEach((root, k) => {
          if (outcome.reached[k]) reached++;
          const axis = sub(target, root);
          const normal = cross(axis, sub(poles[k], root));
          if (norm(normal) < 1e-2 * norm(axis) * norm(sub(poles[k], root))) return;
          const mid = sub(outcome.mids[k], root);
          expectNear(dot(unit(normal), mid), 0, tolerance(lengths[k]), `${what}, arm ${k}: elbow off the pole plane`);
        });
        if (norm(target) < 3) expect(reached > 0, `${what}: no arm reached a target among them`);
      }
    }
  });

  await check('module, crowd: bad input is refused and changes nothing', () => {
    expectCrowdRefusesBadInput(loadModule(), crowd, 'arms');
  });
}
