// The dropped-model exports (web/wasm/model.c) in node, through the models page's own wrapper
// (js/models/model_wasm.js): a skeleton handed over bone by bone poses as an independent
// forward kinematics in double says, a robot's tool reaches targets its joints can reach while
// every joint stays in range, the full-body puppet puts hands on their targets and keeps the feet,
// and bad input is refused and changes nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BVHLoader } from 'three/addons/loaders/BVHLoader.js';
import { check, expect, expectNear } from './harness.mjs';
import { REPO, add, loadModule, norm, random, sub } from './support.mjs';
import { BODY_PARTS, ModelModule, PART_ROLES } from '../public/js/models/model_wasm.js';

// Quaternions as [x, y, z, w], in double.
const qmul = ([ax, ay, az, aw], [bx, by, bz, bw]) => [
  aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
  aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
const rotate = (q, v) => qmul(qmul(q, [...v, 0]), [-q[0], -q[1], -q[2], q[3]]).slice(0, 3);
const axisAngle = (axis, angle) => {
  const s = Math.sin(angle / 2) / norm(axis);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
};
const randomUnit = (next) => {
  const q = [next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5];
  return q.map((v) => v / norm(q));
};

// World transforms from local ones, parents first.
function forward(bones, local) {
  const world = [];
  bones.forEach((bone, b) => {
    const { position, quaternion } = local[b];
    if (bone.parent < 0) {
      world.push({ position, quaternion });
    } else {
      const up = world[bone.parent];
      world.push({ position: add(up.position, rotate(up.quaternion, position)), quaternion: qmul(up.quaternion, quaternion) });
    }
  });
  return world;
}

// A hinge bone's local transform for a value: its rest rotation, then the turn about its axis.
const hingeLocal = (bone, value) => ({ position: bone.position, quaternion: qmul(bone.quaternion, axisAngle(bone.joint.axis, value)) });

function randomTree(next, count) {
  const types = ['ball', 'hinge', 'prismatic', 'fixed'];
  return Array.from({ length: count }, (_, b) => ({
    name: `bone${b}`,
    parent: b === 0 ? -1 : Math.floor(next() * b),
    position: [next() - 0.5, next() - 0.5, next() - 0.5],
    quaternion: randomUnit(next),
    joint: { type: types[Math.floor(next() * 4)], axis: [next() - 0.5, next() - 0.5, next() + 0.1], min: -1, max: 1 },
    mimic: null,
  }));
}

// A serial arm of six hinges: links 0.15 to 0.45 long, axes alternating about z and y, limits ±2.5 rad.
function randomArm(next) {
  return Array.from({ length: 7 }, (_, b) => ({
    name: `link${b}`,
    parent: b - 1,
    position: b === 0 ? [0, 0, 0] : [0, 0, 0.15 + 0.3 * next()],
    quaternion: [0, 0, 0, 1],
    joint: b === 6 ? { type: 'fixed', axis: [1, 0, 0], min: 0, max: 0 }
      : { type: 'hinge', axis: b % 2 ? [0, 1, 0.2 * (next() - 0.5)] : [0.2 * (next() - 0.5), 0, 1], min: -2.5, max: 2.5 },
    mimic: null,
  }));
}

function bvhBones(file) {
  const { skeleton } = new BVHLoader().parse(fs.readFileSync(file, 'utf8'));
  return skeleton.bones.map((bone) => ({
    name: bone.name === 'ENDSITE' ? '' : bone.name,
    parent: skeleton.bones.indexOf(bone.parent),
    position: bone.position.toArray(),
    quaternion: bone.quaternion.toArray(),
    joint: { type: 'ball', axis: [1, 0, 0], min: 0, max: 0 },
    mimic: null,
  }));
}

const flat = (transforms) => transforms.flatMap((t) => [...t.position, ...t.quaternion]);

export async function modelChecks() {
  await check('model: the shipped figure, clip and humanoid robot are what web/tools/make-assets.mjs writes', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'reach-assets-'));
    try {
      const run = spawnSync(process.execPath, [path.join(REPO, 'web', 'tools', 'make-assets.mjs'), folder], { encoding: 'utf8' });
      expect(run.status === 0, `make-assets failed: ${run.stderr}`);
      for (const file of ['figure.gltf', 'wave.bvh', 'humanoid.urdf']) {
        const shipped = fs.readFileSync(path.join(REPO, 'web', 'public', 'assets', file));
        expect(shipped.equals(fs.readFileSync(path.join(folder, file))), `${file} differs from what the script writes`);
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  await check('model: 40 seeded random trees pose as an independent forward kinematics says', () => {
    const next = random(3001);
    for (let k = 0; k < 40; k++) {
      const module = new ModelModule(loadModule());
      const bones = randomTree(next, 2 + Math.floor(next() * 40));
      expect(module.load(bones, { naturalLimits: false }) === '', `tree ${k}: refused`);
      const local = bones.map(() => ({ position: [next() - 0.5, next() - 0.5, next() - 0.5], quaternion: randomUnit(next) }));
      local.forEach(({ position, quaternion }, b) => expect(module.setLocal(b, position, quaternion) === 0, `tree ${k}: bone ${b}`));
      const expected = forward(bones, local);
      module.world().forEach((at, b) => {
        expect(norm(sub(at.position, expected[b].position)) < 1e-4 * bones.length, `tree ${k}, bone ${b}: at ${at.position}, not ${expected[b].position}`);
        const same = Math.abs(at.quaternion.reduce((sum, v, i) => sum + v * expected[b].quaternion[i], 0));
        expect(same > 1 - 1e-5, `tree ${k}, bone ${b}: rotation ${at.quaternion}, not ${expected[b].quaternion}`);
      });
    }
  });

  await check('model: the start pose puts each joint mid-range, and a mimic follower follows', () => {
    const module = new ModelModule(loadModule());
    const bones = randomArm(random(7));
    bones[2].joint = { ...bones[2].joint, min: -0.4, max: 1.2 };
    bones[4].joint = { type: 'prismatic', axis: [0, 0, 1], min: 0, max: 0.04 };
    bones[5].joint = { type: 'prismatic', axis: [0, 0, 1], min: 0, max: 0.04 };
    bones[5].mimic = { leader: 4, multiplier: 1, offset: 0 };
    expect(module.load(bones, { naturalLimits: false }) === '', 'refused');
    expect(module.middle().status === 0, 'middle');
    const values = module.values();
    const want = [0, 0, 0.4, 0, 0.02, 0.02];
    want.forEach((v, i) => expectNear(values[i], v, 1e-6, `value ${i}`));
  });

  await check('model: a robot\'s tool reaches 200 seeded targets its joints can reach, every joint in range', () => {
    const next = random(4242);
    let reached = 0, solves = 0, orientedReached = 0, oriented = 0;
    for (let arm = 0; arm < 20; arm++) {
      const module = new ModelModule(loadModule());
      const bones = randomArm(next);
      expect(module.load(bones, { naturalLimits: false }) === '', `arm ${arm}: refused`);
      for (let k = 0; k < 10; k++) {
        module.middle();
        // Within 1 rad of the start, as a drag goes: a target the arm can reach.
        const values = bones.map((bone) => (bone.joint.type === 'hinge' ? (next() - 0.5) * 2 : 0));
        const goal = forward(bones, bones.map((bone, b) => hingeLocal(bone, values[b])))[6];
        const orientation = k % 2 === 1;
        const outcome = module.solve(6, goal.position, orientation ? goal.quaternion : null, 2, 64);
        const what = `arm ${arm}, target ${k}`;
        expect(outcome.status === 0, `${what}: ${outcome.statusText}`);
        const tool = module.world()[6];
        const miss = norm(sub(tool.position, goal.position));
        expectNear(outcome.residual, miss, 1e-5, `${what}: residual`);
        if (outcome.reached) expect(miss < 1e-3, `${what}: said reached ${miss} away`);
        module.values().forEach((v, i) => expect(v >= -2.5 - 1e-5 && v <= 2.5 + 1e-5, `${what}: joint ${i} at ${v}`));
        if (orientation) {
          oriented++;
          orientedReached += outcome.reached ? 1 : 0;
        } else {
          solves++;
          reached += outcome.reached ? 1 : 0;
        }
      }
    }
    expect(reached >= 0.9 * solves, `DLS reached ${reached} of ${solves} position targets`);
    expect(orientedReached >= 0.7 * oriented, `DLS reached ${orientedReached} of ${oriented} 6-D targets`);
    console.log(`     DLS reached ${reached}/${solves} position and ${orientedReached}/${oriented} 6-D targets`);
  });

  await check('model: the wave skeleton is a humanoid puppet: hands reach their targets, the feet stay', () => {
    const module = new ModelModule(loadModule());
    const bones = bvhBones(path.join(REPO, 'web', 'public', 'assets', 'wave.bvh'));
    expect(module.load(bones, { naturalLimits: true }) === '' && module.humanoid, 'not a humanoid');
    const next = random(77);
    let reached = 0, worstFoot = 0;
    const CASES = 30;
    for (let k = 0; k < CASES; k++) {
      module.rest();
      const rest = module.world();
      const at = (part) => rest[module.humanoidBone(PART_ROLES[part])].position;
      const targets = Object.fromEntries(['head', 'leftHand', 'rightHand', 'leftFoot', 'rightFoot'].map((p) => [p, at(p)]));
      // A hand moved up to 0.25 toward the chest and up or down: within its reach.
      const hand = k % 2 ? 'leftHand' : 'rightHand';
      const inward = hand === 'leftHand' ? -1 : 1;
      targets[hand] = add(targets[hand], [inward * 0.25 * next(), 0.5 * (next() - 0.5), 0.3 * (next() - 0.5)]);
      const outcome = module.solveBody(targets, null, 64);
      expect(outcome.status === 0, `case ${k}: ${outcome.statusText}`);
      const world = module.world();
      const handMiss = norm(sub(world[module.humanoidBone(PART_ROLES[hand])].position, targets[hand]));
      if (handMiss < 1e-3) reached++;
      for (const foot of ['leftFoot', 'rightFoot']) {
        const moved = norm(sub(world[module.humanoidBone(PART_ROLES[foot])].position, targets[foot]));
        worstFoot = Math.max(worstFoot, moved);
        // When a hand pulls hard the solve shares the miss: a planted foot may give a millimetre.
        expect(moved < 5e-3, `case ${k}: ${foot} moved ${moved}`);
      }
      expect(world.every((t) => [...t.position, ...t.quaternion].every(Number.isFinite)), `case ${k}: not finite`);
    }
    expect(reached >= 0.9 * CASES, `the hand reached ${reached} of ${CASES} targets`);
    console.log(`     the hand reached ${reached}/${CASES} targets; a foot moved at most ${worstFoot.toFixed(5)}`);
    expect(Object.keys(BODY_PARTS).length === 6, 'the body parts');
  });

  await check('model: bad skeletons, poses and targets are refused and change nothing', () => {
    const reach = loadModule();
    const module = new ModelModule(reach);
    const e = reach.exports;
    const bones = randomArm(random(9));
    expect(module.load(bones, { naturalLimits: false }) === '', 'refused');
    module.middle();
    const before = JSON.stringify([flat(module.world()), module.values(), module.boneCount]);
    const unchanged = (what) => expect(JSON.stringify([flat(module.world()), module.values(), module.boneCount]) === before,
      `${what} changed the model`);
    const refusedLoad = (what, edit) => {
      const copy = JSON.parse(JSON.stringify(bones));
      edit(copy);
      expect(module.load(copy, { naturalLimits: false }) !== '', `${what} was taken`);
      unchanged(what);
    };
    refusedLoad('a parent after its child', (b) => { b[2].parent = 4; });
    refusedLoad('a parent out of range', (b) => { b[2].parent = -2; });
    refusedLoad('a NaN translation', (b) => { b[3].position[1] = NaN; });
    refusedLoad('an infinite rotation', (b) => { b[3].quaternion[0] = Infinity; });
    refusedLoad('a zero rotation', (b) => { b[3].quaternion = [0, 0, 0, 0]; });
    refusedLoad('a zero hinge axis', (b) => { b[2].joint.axis = [0, 0, 0]; });
    refusedLoad('limits the wrong way round', (b) => { b[2].joint.min = 1; b[2].joint.max = -1; });
    refusedLoad('a follower of itself', (b) => { b[2].mimic = { leader: 2, multiplier: 1, offset: 0 }; });
    refusedLoad('a follower of a fixed joint', (b) => { b[2].mimic = { leader: 6, multiplier: 1, offset: 0 }; });
    refusedLoad('a NaN mimic multiplier', (b) => { b[2].mimic = { leader: 1, multiplier: NaN, offset: 0 }; });
    refusedLoad('no bones', (b) => { b.length = 0; });
    refusedLoad('257 bones', (b) => { while (b.length < 257) b.push({ ...b[6], parent: b.length - 1 }); });
    expect(e.reach_wasm_model_joint(0, 9, 1, 0, 0, 0, 0) !== 0, 'an unknown joint type was taken');
    expect(e.reach_wasm_model_joint(0, 2, 1, 0, 0, 0, 4) !== 0, 'a cone wider than pi was taken');
    unchanged('refused joints');
    expect(module.setLocal(99, [0, 0, 0], [0, 0, 0, 1]) !== 0, 'a bone out of range was posed');
    expect(module.setLocal(2, [0, NaN, 0], [0, 0, 0, 1]) !== 0, 'a NaN position was taken');
    expect(module.setLocal(2, [0, 0, 0], [0, 0, 0, 0]) !== 0, 'a zero rotation was taken');
    unchanged('refused poses');
    const refusedSolve = (what, outcome) => {
      expect(outcome.status !== 0, `${what} was solved`);
      unchanged(what);
    };
    refusedSolve('an effector out of range', module.solve(7, [0, 0, 0.5], null, 2, 64));
    refusedSolve('a NaN target', module.solve(6, [NaN, 0, 0.5], null, 2, 64));
    refusedSolve('an infinite target', module.solve(6, [Infinity, 0, 0.5], null, 2, 64));
    refusedSolve('a zero target rotation', module.solve(6, [0, 0, 0.5], [0, 0, 0, 0], 2, 64));
    refusedSolve('an unknown solver', module.solve(6, [0, 0, 0.5], null, 6, 64));
    refusedSolve('no iterations', module.solve(6, [0, 0, 0.5], null, 2, 0));
    refusedSolve('a full-body solve of a robot', module.solveBody({}, null, 64));
    const puppet = new ModelModule(loadModule());
    puppet.load(bvhBones(path.join(REPO, 'web', 'public', 'assets', 'wave.bvh')), { naturalLimits: true });
    const restPose = JSON.stringify(flat(puppet.world()));
    expect(puppet.solveBody({ rightHand: [NaN, 1, 0] }, null, 64).status !== 0, 'a NaN hand was taken');
    expect(puppet.solveBody({}, [0, Infinity, 1], 64).status !== 0, 'an infinite look-at was taken');
    expect(puppet.solveBody({}, null, 0).status !== 0, 'no iterations was taken');
    expect(JSON.stringify(flat(puppet.world())) === restPose, 'a refused puppet solve moved the body');
  });
}
