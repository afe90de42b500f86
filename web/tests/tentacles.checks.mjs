// The tentacles in node, through js/reach.js: batch FABRIK, on its wasm SIMD path, gives every
// tentacle what include/reach/fabrik_batch.h promises one chain: roots kept, bones kept, the
// residual the end's true distance to the target and `reached` exactly residual <= tolerance,
// every tentacle whose length spans the target on it, every other one straight toward it; a
// frame solved again from its start gives the same bits; and bad input changes nothing.
import { check, expect, expectNear } from './harness.mjs';
import { dot, loadModule, norm, random, sub, total, unit } from './support.mjs';
import { expectCrowdRefusesBadInput, expectFinite, expectLengths, tolerance } from './properties.mjs';
import tentacles from '../public/js/solvers/tentacles.js';

// A path over and around the field, low and high, far outside it, then random points near it.
const next = random(0x7e47ac1e);
const TARGETS = [[0, 0, 0.9], [1.3, -0.4, 0.6], [3, 2, 1.5], [-6, 5, 0.3], [0.2, 0.1, 3], [-20, -3, 1], [7, -7, 0.9],
  [0, 0, 0.05], ...Array.from({ length: 12 }, () => [8 * next() - 4, 8 * next() - 4, 2 * next()])];

function lengthsOf(limb) {
  return limb.slice(1).map((joint, b) => norm(sub(joint, limb[b])));
}

function expectTentaclesSound(before, after, target, lengths, what) {
  expect(after.status === 0, `${what}: ${after.statusText}`);
  expectFinite(after.limbs.flat(), what);
  let inRange = 0;
  after.limbs.forEach((limb, k) => {
    const tentacle = `${what}, tentacle ${k}`;
    const chain = total(lengths[k]);
    const eps = tolerance(lengths[k]);
    expect(norm(sub(limb[0], before.limbs[k][0])) === 0, `${tentacle}: the root moved`);
    expectLengths(limb, lengths[k], tentacle);
    const end = limb[limb.length - 1];
    // In float, to a few roundings of the largest coordinate in play.
    expectNear(after.residuals[k], norm(sub(end, target)), 1e-6 * (chain + norm(target)), `${tentacle}: residual`);
    expect(after.reached[k] === after.residuals[k] <= eps * (1 + 1e-6), `${tentacle}: reached disagrees with residual`);
    expect(after.iterations[k] >= 0 && after.iterations[k] <= 64, `${tentacle}: ${after.iterations[k]} iterations`);
    const d = norm(sub(target, limb[0]));
    if (d < chain * (1 - 1e-3)) {
      inRange++;
      expect(after.reached[k], `${tentacle}: the target is ${d} away, in its reach of ${chain}, but it missed`);
    } else if (d >= chain) {
      // Out of reach: straight from the root toward the target.
      const toward = unit(sub(target, limb[0]));
      limb.slice(1).forEach((joint, j) => {
        expect(dot(unit(sub(joint, limb[0])), toward) > 1 - 1e-6, `${tentacle}: joint ${j + 1} off the line`);
      });
      expectNear(after.residuals[k], d - chain, 2 * eps, `${tentacle}: out of reach, residual`);
    }
  });
  return inRange;
}

export async function tentaclesChecks() {
  await check('module, tentacles: every chain of batch FABRIK keeps its bones and reaches what it can', () => {
    const reach = loadModule();
    for (const count of tentacles.armCounts) {
      let outcome = tentacles.start(reach, count);
      expect(outcome.status === 0 && outcome.limbs.length === count, `${count} tentacles: ${outcome.statusText}`);
      expect(outcome.isa === 'wasm-simd', `the batch runs on ${outcome.isa}`);
      const lengths = outcome.limbs.map(lengthsOf);
      outcome.limbs.forEach((limb, k) => {
        expect(limb.length === 9 && limb[0][2] === 0, `tentacle ${k}: ${limb.length} joints, root at ${limb[0]}`);
        expect(limb.every((joint) => joint[0] === limb[0][0] && joint[1] === limb[0][1]), `tentacle ${k} leans`);
      });
      for (const target of TARGETS) {
        const before = outcome;
        outcome = tentacles.outcome(reach, tentacles.follow(reach, target));
        const what = `${count} tentacles, target ${target}`;
        const inRange = expectTentaclesSound(before, outcome, target, lengths, what);
        // What the page times: the same solve again, from the same start, to the same bits.
        const solved = JSON.stringify(outcome);
        expect(JSON.stringify(tentacles.outcome(reach, tentacles.again(reach))) === solved, `${what}: again differs`);
        if (norm(target.slice(0, 2)) < 1.5 && target[2] < 1.2) expect(inRange > 0, `${what}: none can reach it`);
      }
    }
  });

  await check('module, tentacles: bad input is refused and changes nothing', () => {
    const reach = loadModule();
    expect(tentacles.again(reach) !== 0, 'tentacles that were never started solved again');
    expectCrowdRefusesBadInput(reach, tentacles, 'tentacles');
    // Started again: nothing solved since, so nothing to solve again.
    expect(tentacles.start(reach, 64).status === 0, 'start');
    const started = JSON.stringify(tentacles.outcome(reach, 0));
    expect(tentacles.again(reach) !== 0, 'solved again with no solve since the start');
    expect(JSON.stringify(tentacles.outcome(reach, 0)) === started, 'a refused again changed the tentacles');
  });
}
