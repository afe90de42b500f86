// The Jacobian family on the page's chain, in node through js/reach.js: the promises of
// include/reach/jacobian.h and solver.h (bones kept, limits held, a true residual, a step
// never worsening the error) and the ones the page relies on (each method follows a target
// that moves a little, as a dragged one does).
import { check, expect, expectNear } from './harness.mjs';
import { loadModule, norm, random, sub, total } from './support.mjs';
import { expectBendsWithin, expectFinite, expectLengths, randomPoint, tolerance } from './properties.mjs';
import { JACOBIAN_METHODS } from '../public/js/solvers/jacobian.js';

const CASES = 150;

const solve = (reach, target, dims, limit, method, iterations = 64) =>
  reach.outcome(reach.exports.reach_wasm_jacobian(target[0], target[1], target[2], dims, limit, iterations, method));

// What every solve must give, reached or not.
function expectSound(outcome, target, lengths, limit, dims, what) {
  expect(outcome.status === 0, `${what}: ${outcome.statusText}`);
  expectFinite(outcome.pose, what);
  expectLengths(outcome.pose, lengths, what);
  expectBendsWithin(outcome.pose, limit, what);
  if (dims === 2) expect(outcome.pose.every((p) => p[2] === 0), `${what}: left the plane`);
  const left = norm(sub(target, outcome.pose[lengths.length]));
  expectNear(outcome.residual, left, tolerance(lengths), `${what}: residual`);
  if (norm(target) > total(lengths)) expect(!outcome.reached, `${what}: out of reach but reported reached`);
}

function randomChain(next) {
  return Array.from({ length: 2 + Math.floor(next() * 5) }, () => 0.2 + 1.3 * next());
}

export async function jacobianChecks() {
  await check('module, Jacobian: random chains from straight keep bones and limits; DLS and SDLS reach', () => {
    const reach = loadModule();
    for (const { method, name } of JACOBIAN_METHODS) {
      const next = random(99);
      for (const dims of [2, 3]) {
        for (let k = 0; k < CASES; k++) {
          const lengths = randomChain(next);
          const limited = next() < 0.5;
          const limit = limited ? 0.3 + (Math.PI - 0.3) * next() : Math.PI;
          const target = randomPoint(next, 1.2 * total(lengths), dims);
          expect(reach.resetChain(lengths) === 0, 'reset');
          const start = reach.joints()[lengths.length];
          const outcome = solve(reach, target, dims, limit, method);
          const what = `${name} ${dims}-D case ${k} (lengths ${lengths}, limit ${limit}, target ${target})`;
          expectSound(outcome, target, lengths, limit, dims, what);
          // A step is taken only when it lowers the error, so no solve ends further away.
          expect(outcome.residual <= norm(sub(target, start)) + tolerance(lengths), `${what}: ended further away`);
          // From a straight chain the transpose is slow and the pseudoinverse can fold the chain
          // into a singular pose it cannot leave; the damped methods reach what is well inside.
          const d = norm(target);
          const inner = Math.max(0, 2 * Math.max(...lengths) - total(lengths));
          if (method >= 2 && !limited && d > inner + 0.05 * total(lengths) && d < 0.95 * total(lengths)) {
            expect(outcome.reached, `${what}: reachable but left ${outcome.residual} after ${outcome.iterations}`);
          }
        }
      }
    }
  });

  await check('module, Jacobian: every method follows a reached target nudged by 3 % of the chain', () => {
    const reach = loadModule();
    for (const { method, name } of JACOBIAN_METHODS) {
      for (const dims of [2, 3]) {
        const next = random(7);
        let tried = 0, reached = 0;
        while (tried < CASES) {
          const lengths = randomChain(next);
          const length = total(lengths);
          const inner = Math.max(0, 2 * Math.max(...lengths) - length);
          const first = randomPoint(next, length, dims);
          const nudge = randomPoint(next, 0.03 * length, dims);
          if (norm(first) < inner + 0.1 * length || norm(first) > 0.9 * length) continue;
          reach.resetChain(lengths);
          // Posed on the first target by DLS, as a drag leaves the chain before the next move.
          if (!solve(reach, first, dims, Math.PI, 2).reached) continue;
          const target = first.map((v, i) => v + nudge[i]);
          const outcome = solve(reach, target, dims, Math.PI, method);
          const what = `${name} ${dims}-D case ${tried} (lengths ${lengths}, target ${target})`;
          expectSound(outcome, target, lengths, Math.PI, dims, what);
          expect(outcome.residual <= norm(nudge) + tolerance(lengths), `${what}: ended further away`);
          tried++;
          if (outcome.reached) reached++;
          // The transpose converges linearly: it may run out of iterations, but not far off.
          else expect(method === 0 && outcome.residual < 0.01 * length, `${what}: left ${outcome.residual}`);
        }
        const share = method === 0 ? 0.85 : 1;
        expect(reached >= share * tried, `${name} ${dims}-D: reached ${reached} of ${tried}`);
      }
    }
  });

  await check('module, Jacobian: bad settings and targets are refused and change nothing', () => {
    const reach = loadModule();
    reach.resetChain([0.5, 0.5, 0.5]);
    expect(solve(reach, [0.5, 0.8, 0], 2, Math.PI, 2).status === 0, 'the first solve');
    const before = JSON.stringify(reach.outcome(0));
    const refused = [
      [NaN, 0, 0, 2, 1, 64, 2], [0, Infinity, 0, 3, 1, 64, 2], [0, 1, NaN, 3, 1, 64, 2], [0, 1, 0, 4, 1, 64, 2],
      [0, 1, 0, 2, 0, 64, 2], [0, 1, 0, 2, 4, 64, 2], [0, 1, 0, 2, NaN, 64, 2], [0, 1, 0, 2, 1, 0, 2],
      [0, 1, 0, 2, 1, 64, -1], [0, 1, 0, 2, 1, 64, 4],
    ];
    for (const args of refused) {
      expect(reach.exports.reach_wasm_jacobian(...args) !== 0, `reach_wasm_jacobian(${args}) was accepted`);
    }
    expect(JSON.stringify(reach.outcome(0)) === before, 'a refused call changed the rig or report');
  });
}
