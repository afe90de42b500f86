// The retargeting exports (web/wasm/retarget.c) in node, through the models page's wrapper: the
// shipped wave clip kept as the source drives a character of other bone names and proportions
// frame by frame (its hands where the source's are from the shoulders, scaled by the arms, its
// planted feet kept, its right hand waving), a skeleton that is no
// humanoid is refused naming the role it lacks, and bad frames change nothing.
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { BVHLoader } from 'three/addons/loaders/BVHLoader.js';
import { check, expect } from './harness.mjs';
import { REPO, loadModule, norm, sub } from './support.mjs';
import { ModelModule } from '../public/js/models/model_wasm.js';

const WAVE = path.join(REPO, 'web', 'public', 'assets', 'wave.bvh');
const ball = { type: 'ball', axis: [1, 0, 0], min: 0, max: 0 };

function readWave() {
  const { skeleton, clip } = new BVHLoader().parse(fs.readFileSync(WAVE, 'utf8'));
  const bones = skeleton.bones.map((bone) => ({
    name: bone.name === 'ENDSITE' ? '' : bone.name,
    parent: skeleton.bones.indexOf(bone.parent),
    position: bone.position.toArray(),
    quaternion: bone.quaternion.toArray(),
    joint: ball,
    mimic: null,
  }));
  const root = new THREE.Group();
  root.add(skeleton.bones[0]);
  const mixer = new THREE.AnimationMixer(root);
  mixer.clipAction(clip).play();
  return { bones, nodes: skeleton.bones, mixer, clip };
}

// The wave's skeleton as a game rig would name it, legs 1.25 and arms 0.8 times as long.
const RENAMED = { Hips: 'pelvis', Spine: 'spine_01', Chest: 'spine_02', Neck: 'neck_01', Head: 'head',
  LeftShoulder: 'clavicle_l', LeftArm: 'upperarm_l', LeftForeArm: 'lowerarm_l', LeftHand: 'hand_l',
  RightShoulder: 'clavicle_r', RightArm: 'upperarm_r', RightForeArm: 'lowerarm_r', RightHand: 'hand_r',
  LeftUpLeg: 'thigh_l', LeftLeg: 'calf_l', LeftFoot: 'foot_l', LeftToeBase: 'ball_l',
  RightUpLeg: 'thigh_r', RightLeg: 'calf_r', RightFoot: 'foot_r', RightToeBase: 'ball_r' };
function otherCharacter(bones) {
  const legs = new Set(['LeftLeg', 'LeftFoot', 'RightLeg', 'RightFoot']);
  const arms = new Set(['LeftForeArm', 'LeftHand', 'RightForeArm', 'RightHand']);
  return bones.map((bone) => {
    const factor = legs.has(bone.name) ? 1.25 : arms.has(bone.name) ? 0.8 : 1;
    return { ...bone, name: RENAMED[bone.name] ?? '', position: bone.position.map((v) => v * factor) };
  });
}

// Hands the source nodes' pose (after the mixer moved them) to the module.
function sendSource(module, nodes) {
  nodes.forEach((node, b) => module.setSourceBone(b, node.position.toArray(), node.quaternion.toArray()));
}

const direction = (world, from, to) => {
  const d = sub(world[to].position, world[from].position);
  return d.map((v) => v / norm(d));
};
const angleBetween = (a, b) => Math.acos(Math.min(1, Math.max(-1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2])));

export async function retargetChecks() {
  await check('retarget: the wave drives a character of other names and proportions, frame by frame', () => {
    const module = new ModelModule(loadModule());
    const wave = readWave();
    expect(module.load(wave.bones, { naturalLimits: true }) === '' && module.humanoid, 'the wave is no humanoid');
    expect(module.keepSource() === '', 'the wave was not kept');
    const sourceRole = (role) => module.humanoidBone(role);
    const sourceBones = Array.from({ length: 22 }, (_, r) => sourceRole(r));
    const target = otherCharacter(wave.bones);
    expect(module.load(target, { naturalLimits: true }) === '' && module.humanoid, 'the renamed rig is no humanoid');
    const targetBones = Array.from({ length: 22 }, (_, r) => module.humanoidBone(r));
    expect(module.startRetarget({ robot: false }) === '', 'the retargeting did not start');
    expect(Math.abs(module.legScale - 1.25) < 1e-3, `leg scale ${module.legScale}`);
    const restWorld = module.world();
    // An arm's length at rest (shoulder joint to elbow to wrist), on either skeleton.
    const armLength = (bones, roles, side) => {
      const [upper, lower, hand] = side ? [11, 12, 13] : [7, 8, 9];
      const at = (role) => bones[roles[role]].position;
      return norm(sub(at(lower), at(upper))) + norm(sub(at(hand), at(lower)));
    };
    const sourceRest = wave.nodes.map((node) => ({ position: node.getWorldPosition(new THREE.Vector3()).toArray() }));
    const armScale = armLength(restWorld, targetBones, 0) / armLength(sourceRest, sourceBones, 0);
    let worstHand = 0, worstFoot = 0, moved = 0;
    const firstFeet = {};
    const dt = 1 / 30;
    let previous = null;
    for (let f = 0; f < 60; f++) {
      if (f) wave.mixer.update(dt);
      wave.nodes[0].updateMatrixWorld(true);
      sendSource(module, wave.nodes);
      const outcome = module.retargetFrame(dt);
      expect(outcome.status === 0, `frame ${f}: ${outcome.statusText}`);
      const world = module.world();
      expect(world.every((t) => [...t.position, ...t.quaternion].every(Number.isFinite)), `frame ${f}: not finite`);
      const sourceWorld = wave.nodes.map((node) => ({ position: node.getWorldPosition(new THREE.Vector3()).toArray() }));
      // Each hand where the source's is from its shoulder, scaled by the arms (retarget.h, step 3).
      for (const [upper, hand] of [[7, 9], [11, 13]]) {
        const wanted = sub(sourceWorld[sourceBones[hand]].position, sourceWorld[sourceBones[upper]].position)
          .map((v) => v * armScale);
        const got = sub(world[targetBones[hand]].position, world[targetBones[upper]].position);
        worstHand = Math.max(worstHand, norm(sub(got, wanted)));
      }
      // The source's feet slide with its sway (2 cm, slowly): planted, so each target foot stays
      // where the first frame put it, at its rest height.
      expect(outcome.planted[0] && outcome.planted[1], `frame ${f}: a foot was not planted`);
      for (const foot of [16, 20]) {
        const at = world[targetBones[foot]].position;
        firstFeet[foot] ??= at;
        worstFoot = Math.max(worstFoot, norm(sub(at, firstFeet[foot])),
          Math.abs(at[1] - restWorld[targetBones[foot]].position[1]));
      }
      const hand = world[targetBones[13]].position;
      if (previous && norm(sub(hand, previous)) > 1e-4) moved++;
      previous = hand;
    }
    // The library measures from the shoulders of the pose carried over before the solve, which
    // the spine's sway moves a little: a tenth of the arm's length is the allowance.
    const targetArm = armLength(restWorld, targetBones, 0);
    expect(worstHand < 0.1 * targetArm, `a hand was ${worstHand} from where the source's puts it`);
    expect(worstFoot < 0.002, `a planted foot moved ${worstFoot}`);
    expect(moved >= 50, `the right hand moved in only ${moved} of 59 frames`);
    console.log(`     hands within ${(worstHand * 1000).toFixed(2)} mm of the source's scaled, feet within ` +
      `${(worstFoot * 1000).toFixed(2)} mm, leg scale ${module.legScale.toFixed(3)}`);
  });

  await check('retarget: a skeleton that is no humanoid is refused, naming the role it lacks', () => {
    const module = new ModelModule(loadModule());
    const chain = ['a', 'b', 'c'].map((name, b) => ({ name, parent: b - 1, position: [0, 0.3 * b, 0],
      quaternion: [0, 0, 0, 1], joint: ball, mimic: null }));
    expect(module.load(chain, { naturalLimits: true }) === '', 'the chain was refused');
    const missing = module.missingRole;
    expect(missing !== '', 'no missing role named');
    const kept = module.keepSource();
    expect(kept.includes(`'${missing}'`), `keeping a chain as the source said: ${kept}`);
    const wave = readWave();
    module.load(wave.bones, { naturalLimits: true });
    expect(module.keepSource() === '', 'the wave was not kept');
    // A character without a left arm below the shoulder: the left upper arm's role is missing.
    const armless = wave.bones.map((bone) => ({ ...bone }));
    for (const bone of armless) if (/^Left(Arm|ForeArm|Hand)/.test(bone.name)) bone.name = 'x';
    module.load(armless, { naturalLimits: true });
    const refused = module.startRetarget({ robot: false });
    expect(/the role 'left_(upper_arm|lower_arm|hand)' cannot be mapped on the model shown/.test(refused),
      `an armless target said: '${refused}'`);
    expect(module.retargetFrame(1 / 30).status !== 0, 'a frame ran without a retargeting');
  });

  await check('retarget: bad frames, and a frame after another model was read, change nothing', () => {
    const module = new ModelModule(loadModule());
    const wave = readWave();
    module.load(wave.bones, { naturalLimits: true });
    module.keepSource();
    module.load(otherCharacter(wave.bones), { naturalLimits: true });
    expect(module.startRetarget({ robot: false }) === '', 'did not start');
    sendSource(module, wave.nodes);
    expect(module.retargetFrame(1 / 30).status === 0, 'the first frame failed');
    const before = JSON.stringify(module.world());
    const unchanged = (what) => expect(JSON.stringify(module.world()) === before, `${what} changed the pose`);
    wave.mixer.update(0.5);
    sendSource(module, wave.nodes);
    expect(module.retargetFrame(0).status !== 0, 'dt 0 was taken');
    expect(module.retargetFrame(NaN).status !== 0, 'a NaN dt was taken');
    unchanged('a bad dt');
    expect(module.setSourceBone(3, [NaN, 0, 0], [0, 0, 0, 1]) !== 0, 'a NaN source position was taken');
    expect(module.setSourceBone(3, [0, 0, 0], [0, 0, 0, 0]) !== 0, 'a zero source rotation was taken');
    expect(module.setSourceBone(999, [0, 0, 0], [0, 0, 0, 1]) !== 0, 'a source bone out of range was taken');
    module.load(otherCharacter(wave.bones), { naturalLimits: true });
    const reloaded = JSON.stringify(module.world());
    expect(module.retargetFrame(1 / 30).status !== 0, 'a frame ran on a model read after the start');
    expect(JSON.stringify(module.world()) === reloaded, 'a refused frame moved the new model');
  });
}
