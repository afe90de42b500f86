// Properties the module's answers must have, shared by the module checks: finite joints, bones
// that keep their lengths, a two-bone end where it must be, bends within a limit, random points
// to aim at, and a crowd that refuses bad input without changing.
import { expect, expectNear } from './harness.mjs';
import { dot, norm, sub, total, unit } from './support.mjs';

// The library's float tolerance for "reached" is 1e-4 × chain length; the checks use the same.
export const tolerance = (lengths) => 1e-4 * total(lengths);

export function expectFinite(joints, what) {
  expect(joints.flat().every(Number.isFinite), `${what}: a joint is not finite: ${JSON.stringify(joints)}`);
}

export function expectLengths(joints, lengths, what) {
  lengths.forEach((length, bone) => {
    expectNear(norm(sub(joints[bone + 1], joints[bone])), length, tolerance(lengths), `${what}: bone ${bone + 1}`);
  });
}

// The angle between neighbouring bones stays within the limit at every joint past the root.
export function expectBendsWithin(joints, limit, what) {
  for (let i = 1; i < joints.length - 1; i++) {
    const cosine = dot(unit(sub(joints[i], joints[i - 1])), unit(sub(joints[i + 1], joints[i])));
    const bend = Math.acos(Math.min(1, Math.max(-1, cosine)));
    expect(bend <= limit + 1e-3, `${what}: joint ${i} bends ${bend} past ${limit}`);
  }
}

// A point in the cube of half-width radius (the square, in 2-D) around the root.
export function randomPoint(next, radius, dims) {
  return [0, 0, 0].map((_, i) => (i < dims ? (2 * next() - 1) * radius : 0));
}

// Where the end must be: on the ray toward the target at the nearest distance the limb can
// reach, [|L1 − L2|, L1 + L2] (the target itself when it is in range).
export function expectEndPlaced(outcome, target, lengths, what) {
  const [root, , end] = outcome.pose;
  const [l1, l2] = lengths;
  const d = norm(sub(target, root));
  const placed = Math.min(Math.max(d, Math.abs(l1 - l2)), l1 + l2);
  const eps = tolerance(lengths);
  expectNear(norm(sub(end, root)), placed, eps, `${what}: end distance from the root`);
  expectNear(outcome.residual, norm(sub(target, end)), eps, `${what}: residual`);
  if (d > 1e-3 * total(lengths)) {
    expect(dot(unit(sub(end, root)), unit(sub(target, root))) > 1 - 1e-4, `${what}: the end is off the target ray`);
  }
  if (Math.abs(d - placed) > 10 * eps) expect(!outcome.reached, `${what}: out of range but reported reached`);
  else if (d > Math.abs(l1 - l2) + 10 * eps && d < l1 + l2 - 10 * eps) expect(outcome.reached, `${what}: not reached`);
}

// A crowd solver (solvers/index.js) refuses to follow before it starts, and refuses non-finite
// targets and counts outside 1 … its largest, changing nothing. `what` names its members.
export function expectCrowdRefusesBadInput(reach, solver, what) {
  expect(solver.follow(reach, [0, 0, 1]) !== 0, `${what} that were never started moved`);
  expect(solver.start(reach, 64).status === 0, 'start');
  solver.follow(reach, [0.5, 0.5, 0.8]);
  const before = JSON.stringify(solver.outcome(reach, 0));
  for (const target of [[NaN, 0, 1], [0, Infinity, 1], [0, 0, -Infinity]]) {
    expect(solver.follow(reach, target) !== 0, `target ${target} was accepted`);
  }
  for (const count of [0, -1, Math.max(...solver.armCounts) + 1]) {
    expect(solver.start(reach, count).status !== 0, `${count} ${what} were accepted`);
  }
  expect(JSON.stringify(solver.outcome(reach, 0)) === before, `a refused call changed the ${what}`);
}
