// Writes the character files the models page ships (web/public/assets/): figure.gltf, a
// humanoid of 27 bones in the T pose (y up, facing +z, its left on +x, metres) skinned with a
// box per bone, wave.bvh, a 2-second clip of the same skeleton waving its right hand, and
// humanoid.urdf, a small humanoid robot (z up, x forward, hinges only) of other names and
// proportions for a clip to be retargeted onto. All are the project's own, made here from the
// tables below; run this again after changing them.
//
//   node web/tools/make-assets.mjs [FOLDER]     (web/public/assets by default)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'assets');

// name, parent, offset from the parent's joint, and the box around the bone toward its child:
// [width across, depth] (0: no box; the last bones of each limb only end it).
const SKELETON = [
  ['Hips', null, [0, 0.95, 0], [0.3, 0.18]],
  ['Spine', 'Hips', [0, 0.1, 0], [0.28, 0.17]],
  ['Chest', 'Spine', [0, 0.15, 0], [0.32, 0.19]],
  ['Neck', 'Chest', [0, 0.2, 0], [0.08, 0.08]],
  ['Head', 'Neck', [0, 0.08, 0], [0.17, 0.2]],
  ['HeadTop_End', 'Head', [0, 0.2, 0], null],
  ['LeftShoulder', 'Chest', [0.05, 0.17, 0], [0.08, 0.08]],
  ['LeftArm', 'LeftShoulder', [0.13, 0, 0], [0.09, 0.09]],
  ['LeftForeArm', 'LeftArm', [0.27, 0, 0], [0.075, 0.075]],
  ['LeftHand', 'LeftForeArm', [0.25, 0, 0], [0.08, 0.03]],
  ['LeftHand_End', 'LeftHand', [0.09, 0, 0], null],
  ['RightShoulder', 'Chest', [-0.05, 0.17, 0], [0.08, 0.08]],
  ['RightArm', 'RightShoulder', [-0.13, 0, 0], [0.09, 0.09]],
  ['RightForeArm', 'RightArm', [-0.27, 0, 0], [0.075, 0.075]],
  ['RightHand', 'RightForeArm', [-0.25, 0, 0], [0.08, 0.03]],
  ['RightHand_End', 'RightHand', [-0.09, 0, 0], null],
  ['LeftUpLeg', 'Hips', [0.1, -0.05, 0], [0.13, 0.13]],
  ['LeftLeg', 'LeftUpLeg', [0, -0.42, 0], [0.1, 0.1]],
  ['LeftFoot', 'LeftLeg', [0, -0.42, 0], [0.09, 0.06]],
  ['LeftToeBase', 'LeftFoot', [0, -0.04, 0.12], [0.09, 0.04]],
  ['LeftToe_End', 'LeftToeBase', [0, 0, 0.06], null],
  ['RightUpLeg', 'Hips', [-0.1, -0.05, 0], [0.13, 0.13]],
  ['RightLeg', 'RightUpLeg', [0, -0.42, 0], [0.1, 0.1]],
  ['RightFoot', 'RightLeg', [0, -0.42, 0], [0.09, 0.06]],
  ['RightToeBase', 'RightFoot', [0, -0.04, 0.12], [0.09, 0.04]],
  ['RightToe_End', 'RightToeBase', [0, 0, 0.06], null],
];
const CLOTHES = new Set(['Hips', 'Spine', 'Chest', 'LeftUpLeg', 'LeftLeg', 'RightUpLeg', 'RightLeg', 'LeftArm', 'RightArm']);
const COLOURS = { clothes: [0.22, 0.38, 0.62], skin: [0.93, 0.76, 0.64] };

const index = new Map(SKELETON.map(([name], i) => [name, i]));
const add = (a, b) => a.map((v, i) => v + b[i]);
const sub = (a, b) => a.map((v, i) => v - b[i]);
const scale = (a, s) => a.map((v) => v * s);
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => Math.hypot(...a);
const unit = (a) => scale(a, 1 / norm(a));

const worldOf = [];
SKELETON.forEach(([, parent, offset]) => worldOf.push(parent ? add(worldOf[index.get(parent)], offset) : offset));

// One box per bone that has children: from its joint to the middle of its children's joints
// (the hips' box to the spine), skinned wholly to the bone.
function boxes() {
  const positions = [], normals = [], colours = [], joints = [], weights = [], indices = [];
  SKELETON.forEach(([name, , , size], bone) => {
    if (!size) return;
    const children = SKELETON.flatMap(([, parent], child) => (parent === name ? [child] : []));
    const ends = name === 'Hips' ? [index.get('Spine')] : children;
    const end = scale(ends.reduce((sum, child) => add(sum, worldOf[child]), [0, 0, 0]), 1 / ends.length);
    const start = worldOf[bone];
    const along = sub(end, start);
    const d = unit(along);
    const u = unit(Math.abs(d[2]) > 0.9 ? cross(d, [1, 0, 0]) : cross([0, 0, 1], d));
    const v = cross(d, u);
    // Extend the box a little past both joints so neighbours overlap at the bends.
    const pad = 0.25 * Math.min(size[0], size[1]);
    const lo = sub(start, scale(d, pad * 0.5)), hi = add(end, scale(d, pad * 0.5));
    const [a, b] = [size[0] / 2, size[1] / 2];
    const corner = (s, i, j) => add(add(s, scale(u, i * a)), scale(v, j * b));
    const faces = [
      [u, [corner(lo, 1, -1), corner(hi, 1, -1), corner(hi, 1, 1), corner(lo, 1, 1)]],
      [scale(u, -1), [corner(lo, -1, 1), corner(hi, -1, 1), corner(hi, -1, -1), corner(lo, -1, -1)]],
      [v, [corner(lo, 1, 1), corner(hi, 1, 1), corner(hi, -1, 1), corner(lo, -1, 1)]],
      [scale(v, -1), [corner(lo, -1, -1), corner(hi, -1, -1), corner(hi, 1, -1), corner(lo, 1, -1)]],
      [d, [corner(hi, 1, -1), corner(hi, -1, -1), corner(hi, -1, 1), corner(hi, 1, 1)]],
      [scale(d, -1), [corner(lo, 1, 1), corner(lo, -1, 1), corner(lo, -1, -1), corner(lo, 1, -1)]],
    ];
    const colour = COLOURS[CLOTHES.has(name) ? 'clothes' : 'skin'];
    for (const [normal, quad] of faces) {
      // Wind each face counter-clockwise seen from outside.
      const n = cross(sub(quad[1], quad[0]), sub(quad[2], quad[0]));
      const ordered = n[0] * normal[0] + n[1] * normal[1] + n[2] * normal[2] > 0 ? quad : [...quad].reverse();
      const first = positions.length / 3;
      for (const p of ordered) {
        positions.push(...p);
        normals.push(...normal);
        colours.push(...colour);
        joints.push(bone, 0, 0, 0);
        weights.push(1, 0, 0, 0);
      }
      indices.push(first, first + 1, first + 2, first, first + 2, first + 3);
    }
  });
  return { positions, normals, colours, joints, weights, indices };
}

function gltf() {
  const mesh = boxes();
  const chunks = [];
  const views = [];
  const accessors = [];
  let length = 0;
  const addAccessor = (array, componentType, type, count, extra = {}) => {
    const bytes = Buffer.from(array.buffer);
    views.push({ buffer: 0, byteOffset: length, byteLength: bytes.length });
    chunks.push(bytes);
    length += bytes.length;
    const padding = (4 - (length % 4)) % 4;
    if (padding) {
      chunks.push(Buffer.alloc(padding));
      length += padding;
    }
    accessors.push({ bufferView: views.length - 1, componentType, type, count, ...extra });
    return accessors.length - 1;
  };
  const vertices = mesh.positions.length / 3;
  const min = [0, 1, 2].map((k) => Math.min(...mesh.positions.filter((_, i) => i % 3 === k)));
  const max = [0, 1, 2].map((k) => Math.max(...mesh.positions.filter((_, i) => i % 3 === k)));
  const FLOAT = 5126, USHORT = 5123, UINT = 5125;
  const attributes = {
    POSITION: addAccessor(new Float32Array(mesh.positions), FLOAT, 'VEC3', vertices, { min, max }),
    NORMAL: addAccessor(new Float32Array(mesh.normals), FLOAT, 'VEC3', vertices),
    COLOR_0: addAccessor(new Float32Array(mesh.colours), FLOAT, 'VEC3', vertices),
    JOINTS_0: addAccessor(new Uint16Array(mesh.joints), USHORT, 'VEC4', vertices),
    WEIGHTS_0: addAccessor(new Float32Array(mesh.weights), FLOAT, 'VEC4', vertices),
  };
  const indices = addAccessor(new Uint32Array(mesh.indices), UINT, 'SCALAR', mesh.indices.length);
  // The bones have no rest rotation: each inverse bind matrix only takes its joint back to the origin.
  const inverseBind = new Float32Array(SKELETON.flatMap((_, b) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
    -worldOf[b][0], -worldOf[b][1], -worldOf[b][2], 1]));
  const inverseBindMatrices = addAccessor(inverseBind, FLOAT, 'MAT4', SKELETON.length);
  const buffer = Buffer.concat(chunks);
  const nodes = SKELETON.map(([name, , offset]) => {
    const children = SKELETON.flatMap(([, parent], child) => (parent === name ? [child] : []));
    return { name, translation: offset, ...(children.length ? { children } : {}) };
  });
  nodes.push({ name: 'Figure', mesh: 0, skin: 0 });
  return {
    asset: { version: '2.0', generator: 'reach web/tools/make-assets.mjs' },
    scene: 0,
    scenes: [{ name: 'Figure', nodes: [0, SKELETON.length] }],
    nodes,
    meshes: [{ name: 'Figure', primitives: [{ attributes, indices, material: 0 }] }],
    materials: [{ name: 'Figure', pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], metallicFactor: 0, roughnessFactor: 0.7 } }],
    skins: [{ name: 'Figure', joints: SKELETON.map((_, b) => b), inverseBindMatrices, skeleton: 0 }],
    accessors,
    bufferViews: views,
    buffers: [{ byteLength: buffer.length, uri: `data:application/octet-stream;base64,${buffer.toString('base64')}` }],
  };
}

// The clip: the right arm lifts and waves, the head turns toward it, the hips sway.
const FPS = 30;
const SECONDS = 2;
function angles(name, t) {
  const lift = Math.min(t / 0.5, 1);
  const wave = Math.sin(2 * Math.PI * 1.5 * t);
  switch (name) {
    // z, x, y in degrees. The right arm lies along -x: a turn by -70° about z lifts it.
    case 'RightArm': return [-70 * lift, 0, 0];
    case 'RightForeArm': return [(-30 - 25 * wave) * lift, 0, 0];
    case 'RightHand': return [-10 * wave * lift, 0, 0];
    case 'Head': return [0, 0, -20 * lift];
    case 'Spine': return [3 * Math.sin(2 * Math.PI * 0.5 * t), 0, 0];
    case 'LeftArm': return [-60 * lift, 0, 0];
    default: return [0, 0, 0];
  }
}

function bvh() {
  const lines = ['HIERARCHY'];
  const order = [];
  const write = (bone, depth) => {
    const [name, parent, offset] = SKELETON[bone];
    const pad = '  '.repeat(depth);
    const children = SKELETON.flatMap(([, p], child) => (p === name ? [child] : []));
    const fixed = (v) => v.toFixed(4);
    if (!children.length) {
      lines.push(`${pad}End Site`, `${pad}{`, `${pad}  OFFSET ${offset.map(fixed).join(' ')}`, `${pad}}`);
      return;
    }
    lines.push(`${pad}${parent ? 'JOINT' : 'ROOT'} ${name}`, `${pad}{`, `${pad}  OFFSET ${offset.map(fixed).join(' ')}`);
    lines.push(`${pad}  CHANNELS ${parent ? 3 : 6} ${parent ? '' : 'Xposition Yposition Zposition '}Zrotation Xrotation Yrotation`);
    order.push(name);
    for (const child of children) write(child, depth + 1);
    lines.push(`${pad}}`);
  };
  write(0, 0);
  const frames = FPS * SECONDS;
  lines.push('MOTION', `Frames: ${frames}`, `Frame Time: ${(1 / FPS).toFixed(6)}`);
  for (let f = 0; f < frames; f++) {
    const t = f / FPS;
    const values = [0.02 * Math.sin(2 * Math.PI * 0.5 * t), 0, 0];
    for (const name of order) values.push(...angles(name, t));
    lines.push(values.map((v) => v.toFixed(4)).join(' '));
  }
  return `${lines.join('\n')}\n`;
}

// The robot: link, parent, joint origin from the parent's (z up, x forward, y left), hinge axis
// and limits (rad; null: a fixed joint). Links with a role's name carry that role; the links
// between (the hip's and shoulder's other axes) have names no role takes.
const ROBOT_SIDE = (side, y) => [
  [`${side}_upper_leg`, 'hips', [0, 0.09 * y, -0.06], [1, 0, 0], [-0.6, 0.6]],
  [`${side}_hip_2`, `${side}_upper_leg`, [0, 0, 0], [0, 1, 0], [-1.8, 1.2]],
  [`${side}_hip_3`, `${side}_hip_2`, [0, 0, -0.1], [0, 0, 1], [-0.8, 0.8]],
  [`${side}_lower_leg`, `${side}_hip_3`, [0, 0, -0.25], [0, 1, 0], [0, 2.4]],
  [`${side}_foot`, `${side}_lower_leg`, [0, 0, -0.33], [0, 1, 0], [-0.9, 0.9]],
  [`${side}_toes`, `${side}_foot`, [0.1, 0, -0.05], null],
  [`${side}_shoulder`, 'chest', [0, 0.16 * y, 0.22], [0, 1, 0], [-3, 3]],
  [`${side}_upper_arm`, `${side}_shoulder`, [0, 0.05 * y, 0], [1, 0, 0], y > 0 ? [-0.3, 3] : [-3, 0.3]],
  [`${side}_arm_2`, `${side}_upper_arm`, [0, 0, -0.1], [0, 0, 1], [-2, 2]],
  [`${side}_lower_arm`, `${side}_arm_2`, [0, 0, -0.12], [0, 1, 0], [-2.4, 0]],
  [`${side}_hand`, `${side}_lower_arm`, [0, 0, -0.2], [1, 0, 0], [-1, 1]],
  [`${side}_fingers`, `${side}_hand`, [0, 0, -0.07], null],
];
const ROBOT = [
  ['hips', null],
  ['spine', 'hips', [0, 0, 0.1], [0, 0, 1], [-1, 1]],
  ['chest', 'spine', [0, 0, 0.18], [0, 1, 0], [-0.5, 1]],
  ['neck', 'chest', [0, 0, 0.3], [0, 0, 1], [-1.5, 1.5]],
  ['head', 'neck', [0, 0, 0.05], [0, 1, 0], [-0.7, 0.7]],
  ['head_top', 'head', [0, 0, 0.18], null],
  ...ROBOT_SIDE('left', 1),
  ...ROBOT_SIDE('right', -1),
];

function urdf() {
  const lines = ['<?xml version="1.0"?>', '<robot name="reach_humanoid">'];
  for (const [name, parent, offset, axis, limits] of ROBOT) {
    const size = parent === null ? '0.2 0.28 0.12' : '0.05 0.05 0.05';
    lines.push(`  <link name="${name}"><visual><geometry><box size="${size}"/></geometry></visual></link>`);
    if (parent === null) continue;
    lines.push(`  <joint name="${name}_joint" type="${axis ? 'revolute' : 'fixed'}">`,
      `    <parent link="${parent}"/>`, `    <child link="${name}"/>`,
      `    <origin xyz="${offset.join(' ')}" rpy="0 0 0"/>`);
    if (axis) {
      lines.push(`    <axis xyz="${axis.join(' ')}"/>`,
        `    <limit lower="${limits[0]}" upper="${limits[1]}" effort="10" velocity="3"/>`);
    }
    lines.push('  </joint>');
  }
  lines.push('</robot>');
  return `${lines.join('\n')}\n`;
}

fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'figure.gltf'), `${JSON.stringify(gltf())}\n`);
fs.writeFileSync(path.join(OUT, 'wave.bvh'), bvh());
fs.writeFileSync(path.join(OUT, 'humanoid.urdf'), urdf());
console.log(`wrote ${path.join(OUT, 'figure.gltf')}, wave.bvh and humanoid.urdf`);
