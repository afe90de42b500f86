// The WebAssembly module in node, through the page's own wrapper (js/reach.js): the library as
// compiled for the browser (wasi-libc's libm, SIMD code generation) and the C layer around it
// keep the promises of include/reach/two_bone.h, fabrik.h, ccd.h and walker.h, and bad input
// changes nothing.
import { check, expect, expectNear } from './harness.mjs';
import { cross, dot, loadModule, norm, random, sub, total, unit } from './support.mjs';
import {
  expectBendsWithin, expectEndPlaced, expectFinite, expectLengths, randomPoint, tolerance,
} from './properties.mjs';

const CASES = 2000;
const ITERATIVE_CASES = 300;

// How far the mid joint stands off the root→end line, relative to the chain: below this the
// limb is straight and has no side.
function bendHeight(joints) {
  const [root, mid, end] = joints;
  const axis = unit(sub(end, root));
  const along = dot(sub(mid, root), axis);
  return norm(sub(sub(mid, root), axis.map((v) => v * along)));
}

function randomLengths(next) {
  return [0.1 + 2.9 * next(), 0.1 + 2.9 * next()];
}

// Every exported solver entry point, called with its arguments for a target and a pole.
const SOLVE = {
  '2-D': (reach, t, p, soft = 0) => reach.exports.reach_wasm_two_bone_2d(t[0], t[1], p[0], p[1], soft),
  '3-D': (reach, t, p, soft = 0) => reach.exports.reach_wasm_two_bone_3d(t[0], t[1], t[2], p[0], p[1], p[2], soft),
};

// CASES seeded random limbs, targets and poles (within 1.3 × the reach, so about half out of
// range) through one solver: the properties every two-bone solve has, then the solver's own.
function randomSolves(name, seed, moreChecks) {
  const reach = loadModule();
  const next = random(seed);
  const dims = name === '2-D' ? 2 : 3;
  for (let k = 0; k < CASES; k++) {
    const lengths = randomLengths(next);
    expect(reach.resetChain(lengths) === 0, `case ${k}: reset`);
    const target = randomPoint(next, 1.3 * total(lengths), dims);
    const pole = randomPoint(next, 1.3 * total(lengths), dims);
    const status = SOLVE[name](reach, target, pole);
    const outcome = reach.outcome(status);
    const what = `case ${k} (lengths ${lengths}, target ${target}, pole ${pole})`;
    expect(status === 0, `${what}: ${outcome.statusText}`);
    expectFinite(outcome.pose, what);
    expectLengths(outcome.pose, lengths, what);
    expectEndPlaced(outcome, target, lengths, what);
    moreChecks({ target, pole, outcome, lengths, what });
  }
}

export async function moduleChecks() {
  await check('module, 2-D: seeded random limbs keep their bones, place the end, bend to the pole', () => {
    randomSolves('2-D', 2024, ({ target, pole, outcome, lengths, what }) => {
      const poleSide = cross(target, pole)[2];
      if (Math.abs(poleSide) > 1e-3 * norm(target) * norm(pole) && bendHeight(outcome.pose) > 1e-3 * total(lengths)) {
        const midSide = cross(target, outcome.pose[1])[2];
        expect(Math.sign(midSide) === Math.sign(poleSide), `${what}: the elbow is not on the pole's side`);
      }
      // The other solution: the same limb with the elbow mirrored, so the same bone lengths.
      expectLengths([outcome.pose[0], outcome.alternative, outcome.pose[2]], lengths, `${what}, other solution`);
    });
  });

  await check('module, 3-D: seeded random limbs keep their bones, place the end, bend in the pole plane', () => {
    randomSolves('3-D', 7, ({ target, pole, outcome, lengths, what }) => {
      expect(outcome.alternative === null, `${what}: the 3-D solver reports no second solution`);
      const normal = cross(target, pole);
      if (norm(normal) > 1e-2 * norm(target) * norm(pole) && bendHeight(outcome.pose) > 1e-3 * total(lengths)) {
        const mid = outcome.pose[1];
        expectNear(dot(unit(normal), mid), 0, tolerance(lengths), `${what}: knee off the pole plane`);
        const offLine = (p) => sub(p, unit(target).map((v) => v * dot(p, unit(target))));
        expect(dot(offLine(mid), offLine(pole)) > 0, `${what}: the knee bends away from the pole`);
      }
    });
  });

  await check('module: NaN, infinite or negative settings are refused and change nothing', () => {
    const reach = loadModule();
    const lengths = [1, 0.8];
    for (const [name, solve] of Object.entries(SOLVE)) {
      reach.resetChain(lengths);
      expect(solve(reach, [1, 0.5, 0.2], [0, 1, 0]) === 0, `${name}: the first solve failed`);
      const before = reach.outcome(0);
      const goodTarget = [0.5, 1, 0.3], goodPole = [1, 0, 1];
      for (const bad of [NaN, Infinity, -Infinity]) {
        for (let i = 0; i < 3; i++) {
          // In 2-D a z coordinate is not an input at all.
          if (name === '2-D' && i === 2) continue;
          for (const which of ['target', 'pole']) {
            const target = goodTarget.slice(), pole = goodPole.slice();
            (which === 'target' ? target : pole)[i] = bad;
            const status = solve(reach, target, pole);
            const after = reach.outcome(status);
            expect(status !== 0, `${name}: ${which}[${i}] = ${bad} was accepted`);
            expect(JSON.stringify(after.pose) === JSON.stringify(before.pose), `${name}: ${which}[${i}] moved the rig`);
            expect(after.residual === before.residual, `${name}: ${which}[${i}] changed the report`);
          }
        }
        expect(solve(reach, goodTarget, goodPole, bad) !== 0, `${name}: soft distance ${bad} was accepted`);
      }
      expect(solve(reach, goodTarget, goodPole, -0.1) !== 0, `${name}: a negative soft distance was accepted`);
      expect(JSON.stringify(reach.joints()) === JSON.stringify(before.pose), `${name}: a refused call moved the rig`);
    }
  });

  await check('module: degenerate goals (target at the root, pole on the line, huge numbers) give no NaN', () => {
    const reach = loadModule();
    const lengths = [1, 0.8];
    const goals = [
      { target: [0, 0, 0], pole: [0, 1, 0] },
      { target: [1, 0, 0], pole: [2, 0, 0] },
      { target: [1, 0, 0], pole: [0, 0, 0] },
      { target: [1, 0.5, 0.25], pole: [1, 0.5, 0.25] },
      { target: [1e30, -1e30, 1e30], pole: [0, 1, 0] },
      { target: [1e-30, 0, 0], pole: [0, 1e-30, 0] },
    ];
    for (const [name, solve] of Object.entries(SOLVE)) {
      for (const { target, pole } of goals) {
        reach.resetChain(lengths);
        const status = solve(reach, target, pole);
        const outcome = reach.outcome(status);
        const what = `${name}, target ${target}, pole ${pole}`;
        expectFinite(outcome.pose, what);
        expect(Number.isFinite(outcome.residual), `${what}: residual ${outcome.residual}`);
        if (status === 0) expectLengths(outcome.pose, lengths, what);
      }
    }
  });

  await check('module: the chain editor refuses bad bones and keeps directions', () => {
    const reach = loadModule();
    const e = reach.exports;
    expect(reach.resetChain([1, 0.8]) === 0, 'reset');
    expect(SOLVE['2-D'](reach, [1, 1, 0], [0, 2, 0]) === 0, 'solve');
    const before = reach.joints();
    for (const [count, length] of [[0, 1], [-1, 1], [64, 1], [2, 0], [2, -1], [2, NaN], [2, Infinity]]) {
      expect(e.reach_wasm_chain_reset(count, length) !== 0, `reset(${count}, ${length}) was accepted`);
    }
    for (const [bone, length] of [[-1, 1], [2, 1], [0, 0], [1, -0.5], [0, NaN], [1, -Infinity]]) {
      expect(reach.setBoneLength(bone, length) !== 0, `bone ${bone} = ${length} was accepted`);
    }
    expect(JSON.stringify(reach.joints()) === JSON.stringify(before), 'a refused edit moved the rig');
    expect(reach.setBoneLength(0, 1.5) === 0, 'bone 0 = 1.5 was refused');
    const after = reach.joints();
    expectNear(norm(sub(after[1], after[0])), 1.5, 1e-6, 'the new length');
    expect(dot(unit(sub(after[1], after[0])), unit(sub(before[1], before[0]))) > 1 - 1e-6, 'the bone turned');
    // The rest of the chain moves with the bone's end, unchanged in shape.
    const shift = sub(after[1], before[1]);
    expect(norm(sub(sub(after[2], before[2]), shift)) < 1e-6, 'the lower bone changed shape');
    expect(e.reach_wasm_chain_reset(63, 0.5) === 0 && reach.joints().length === 64, 'the longest chain');
  });

  await check('module: a solver refuses a rig that is not its shape, and leaves it alone', () => {
    const reach = loadModule();
    expect(reach.resetChain([1, 1, 1]) === 0, 'reset');
    const before = reach.joints();
    for (const [name, solve] of Object.entries(SOLVE)) {
      expect(solve(reach, [1, 1, 0], [0, 1, 0]) !== 0, `${name} solved a three-bone chain`);
    }
    expect(JSON.stringify(reach.joints()) === JSON.stringify(before), 'the rig moved');
  });

  await check('module, walker: the creature walks to each goal; planted feet stay put, bones keep length', () => {
    const reach = loadModule();
    const e = reach.exports;
    const dt = 1 / 60;
    for (const legCount of [8, 6, 4, 2]) {
      let outcome = reach.walkerOutcome(e.reach_wasm_walker_start(legCount, 2, 0));
      expect(outcome.status === 0 && outcome.legs.length === legCount, `${legCount} legs: ${outcome.statusText}`);
      const boneLengths = outcome.legs.map((leg) => leg.joints.slice(1).map((j, b) => norm(sub(j, leg.joints[b]))));
      for (const goal of [[6, 4], [-5, 3], [0, -6]]) {
        const stepsBefore = outcome.steps;
        for (let frame = 0; frame < 600; frame++) {
          const previous = outcome;
          outcome = reach.walkerOutcome(e.reach_wasm_walker_follow(goal[0], goal[1], 1.5, dt));
          const what = `${legCount} legs, goal ${goal}, frame ${frame}`;
          expect(outcome.status === 0, `${what}: ${outcome.statusText}`);
          expectFinite(outcome.legs.flatMap((leg) => leg.joints), what);
          outcome.legs.forEach((leg, i) => {
            const foot = leg.joints[leg.joints.length - 1];
            const before = previous.legs[i].joints[leg.joints.length - 1];
            if (leg.planted && previous.legs[i].planted) {
              expect(norm(sub(foot, before)) < 1e-6, `${what}: planted foot ${i} slid`);
            }
            leg.joints.slice(1).forEach((joint, b) => {
              expectNear(norm(sub(joint, leg.joints[b])), boneLengths[i][b], 1e-4, `${what}: leg ${i} bone ${b + 1}`);
            });
          });
        }
        const [x, y] = outcome.body.position;
        const left = Math.hypot(goal[0] - x, goal[1] - y);
        expect(left < 0.8, `${legCount} legs stopped ${left} from ${goal}`);
        expect(outcome.steps > stepsBefore, `${legCount} legs reached ${goal} without a step`);
      }
      // At this speed the gait never has to be broken to keep a leg from overstretching.
      expect(outcome.forcedSteps === 0, `${legCount} legs: ${outcome.forcedSteps} forced steps`);
    }
  });

  await check('module, walker: bad input is refused and changes nothing', () => {
    const reach = loadModule();
    const e = reach.exports;
    expect(e.reach_wasm_walker_follow(1, 1, 1, 0.1) !== 0, 'a walker that was never started walked');
    expect(e.reach_wasm_walker_start(8, 2, 0) === 0, 'start');
    for (let frame = 0; frame < 30; frame++) e.reach_wasm_walker_follow(3, 2, 1.5, 1 / 60);
    const before = JSON.stringify(reach.walkerOutcome(0));
    const refused = [
      [NaN, 0, 1, 0.1], [0, Infinity, 1, 0.1], [1, 1, NaN, 0.1], [1, 1, -1, 0.1], [1, 1, 50, 0.1],
      [1, 1, 1, 0], [1, 1, 1, -0.1], [1, 1, 1, NaN],
    ];
    for (const args of refused) {
      expect(e.reach_wasm_walker_follow(...args) !== 0, `follow(${args}) was accepted`);
    }
    for (const [legs, dims] of [[7, 2], [0, 2], [-2, 2], [34, 2], [8, 4], [8, 0]]) {
      expect(e.reach_wasm_walker_start(legs, dims, 0) !== 0, `start(${legs}, ${dims}) was accepted`);
    }
    expect(JSON.stringify(reach.walkerOutcome(0)) === before, 'a refused call changed the walker');
  });

  await check('module, FABRIK and CCD: seeded random chains keep bones and limits, and reach what they can', () => {
    const reach = loadModule();
    const next = random(99);
    for (const entry of ['reach_wasm_fabrik', 'reach_wasm_ccd']) {
      for (const dims of [2, 3]) {
        for (let k = 0; k < ITERATIVE_CASES; k++) {
          const lengths = Array.from({ length: 2 + Math.floor(next() * 5) }, () => 0.2 + 1.3 * next());
          const limited = next() < 0.5;
          const limit = limited ? 0.3 + (Math.PI - 0.3) * next() : Math.PI;
          const target = randomPoint(next, 1.2 * total(lengths), dims);
          expect(reach.resetChain(lengths) === 0, 'reset');
          const status = reach.exports[entry](target[0], target[1], target[2], dims, limit, 64);
          const outcome = reach.outcome(status);
          const what = `${entry} ${dims}-D case ${k} (lengths ${lengths}, limit ${limit}, target ${target})`;
          expect(status === 0, `${what}: ${outcome.statusText}`);
          expectFinite(outcome.pose, what);
          expectLengths(outcome.pose, lengths, what);
          if (dims === 2) expect(outcome.pose.every((p) => p[2] === 0), `${what}: left the plane`);
          const left = norm(sub(target, outcome.pose[lengths.length]));
          expectNear(outcome.residual, left, tolerance(lengths), `${what}: residual`);
          expectBendsWithin(outcome.pose, limit, what);
          const d = norm(target);
          const inner = Math.max(0, 2 * Math.max(...lengths) - total(lengths));
          // CCD creeps toward targets near full stretch, so it is held to less of the range.
          const surely = entry === 'reach_wasm_ccd' ? 0.8 : 0.95;
          if (!limited && d > inner + 0.05 * total(lengths) && d < surely * total(lengths)) {
            expect(outcome.reached, `${what}: reachable but left ${outcome.residual} after ${outcome.iterations}`);
          }
          if (d > total(lengths)) expect(!outcome.reached, `${what}: out of reach but reported reached`);
        }
      }
    }
  });

  await check('module, FABRIK and CCD: bad settings and targets are refused and change nothing', () => {
    const reach = loadModule();
    for (const entry of ['reach_wasm_fabrik', 'reach_wasm_ccd']) {
      reach.resetChain([0.5, 0.5, 0.5]);
      expect(reach.exports[entry](0.5, 0.8, 0, 2, Math.PI, 64) === 0, `${entry}: the first solve`);
      const before = JSON.stringify(reach.outcome(0));
      const refused = [
        [NaN, 0, 0, 2, 1, 64], [0, Infinity, 0, 3, 1, 64], [0, 1, NaN, 3, 1, 64], [0, 1, 0, 4, 1, 64],
        [0, 1, 0, 1, 1, 64], [0, 1, 0, 2, 0, 64], [0, 1, 0, 2, -1, 64], [0, 1, 0, 2, 4, 64],
        [0, 1, 0, 2, NaN, 64], [0, 1, 0, 2, 1, 0], [0, 1, 0, 2, 1, -5],
      ];
      for (const args of refused) expect(reach.exports[entry](...args) !== 0, `${entry}(${args}) was accepted`);
      expect(JSON.stringify(reach.outcome(0)) === before, `${entry}: a refused call changed the rig or report`);
    }
  });
}
