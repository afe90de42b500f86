// URDF in the browser: the robot's kinematic tree read with the browser's DOMParser, as the
// skeleton the module takes (one bone per link, its joint the one that carries it from its
// parent), the primitive shapes its links are drawn with and the mesh files they name. Mesh
// files are never fetched: those dropped with the URDF are drawn (meshes.js), and a robot
// whose meshes are missing is drawn from its joints (figure.js) rather than failing. Errors are
// thrown as Error with a message that names the element at fault.
import * as THREE from 'three';

const JOINT_TYPES = ['revolute', 'continuous', 'prismatic', 'fixed'];

function numbers(text, count, fallback, what) {
  if (text === null || text === undefined) return fallback;
  const values = text.trim().split(/\s+/).map(Number);
  if (values.length !== count || !values.every(Number.isFinite)) {
    throw new Error(`${what}: '${text}' is not ${count} numbers`);
  }
  return values;
}

function number(text, fallback, what) {
  if (text === null || text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new Error(`${what}: '${text}' is not a number`);
  return value;
}

// An <origin> element as a position and a quaternion (rpy: fixed axes x, then y, then z).
function origin(element, what) {
  const xyz = numbers(element?.getAttribute('xyz'), 3, [0, 0, 0], `${what} origin xyz`);
  const rpy = numbers(element?.getAttribute('rpy'), 3, [0, 0, 0], `${what} origin rpy`);
  const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(rpy[0], rpy[1], rpy[2], 'ZYX'));
  return { position: xyz, quaternion: [q.x, q.y, q.z, q.w] };
}

const childrenNamed = (element, name) => [...element.children].filter((c) => c.tagName === name);

function shapes(link) {
  const out = [];
  const meshes = [];
  for (const visual of childrenNamed(link, 'visual')) {
    const geometry = childrenNamed(visual, 'geometry')[0]?.children[0];
    if (!geometry) continue;
    const where = origin(childrenNamed(visual, 'origin')[0], `link '${link.getAttribute('name')}' visual`);
    const what = `link '${link.getAttribute('name')}' ${geometry.tagName}`;
    if (geometry.tagName === 'box') {
      out.push({ shape: 'box', size: numbers(geometry.getAttribute('size'), 3, null, `${what} size`), ...where });
    } else if (geometry.tagName === 'cylinder') {
      out.push({ shape: 'cylinder', radius: number(geometry.getAttribute('radius'), null, `${what} radius`),
        length: number(geometry.getAttribute('length'), null, `${what} length`), ...where });
    } else if (geometry.tagName === 'sphere') {
      out.push({ shape: 'sphere', radius: number(geometry.getAttribute('radius'), null, `${what} radius`), ...where });
    } else if (geometry.tagName === 'mesh' && geometry.getAttribute('filename')) {
      meshes.push({ filename: geometry.getAttribute('filename'),
        scale: numbers(geometry.getAttribute('scale'), 3, [1, 1, 1], `${what} scale`), ...where });
    }
  }
  return { shapes: out.filter((s) => [s.size, s.radius, s.length].every((v) => v !== null)), meshes };
}

// Reads a URDF document. Returns { name, bones, meshes }: bones root first, parents before
// children, each { name, jointName, parent, position, quaternion, joint: { type, axis, min, max },
// mimic: { leader, multiplier, offset } or null, shapes, meshVisuals: { filename, scale,
// position, quaternion } }; meshes counts the mesh visuals.
export function readUrdf(text) {
  const document = new DOMParser().parseFromString(text, 'application/xml');
  const error = document.querySelector('parsererror');
  if (error) throw new Error(`not well-formed XML (${error.textContent.trim().split('\n')[0]})`);
  const robot = document.documentElement;
  if (robot.tagName !== 'robot') throw new Error(`the root element is <${robot.tagName}>, not <robot>`);
  const links = new Map();
  for (const link of childrenNamed(robot, 'link')) {
    const name = link.getAttribute('name');
    if (!name) throw new Error('a <link> has no name');
    if (links.has(name)) throw new Error(`link '${name}' is defined twice`);
    links.set(name, link);
  }
  if (!links.size) throw new Error('the robot has no <link>');

  const jointOf = new Map(); // child link → its joint
  const childrenOf = new Map([...links.keys()].map((name) => [name, []]));
  for (const joint of childrenNamed(robot, 'joint')) {
    const name = joint.getAttribute('name') ?? '';
    const type = joint.getAttribute('type');
    if (!JOINT_TYPES.includes(type)) {
      throw new Error(`joint '${name}': type '${type}' is not supported (revolute, continuous, prismatic and fixed are)`);
    }
    const parent = childrenNamed(joint, 'parent')[0]?.getAttribute('link');
    const child = childrenNamed(joint, 'child')[0]?.getAttribute('link');
    for (const [role, link] of [['parent', parent], ['child', child]]) {
      if (!links.has(link)) throw new Error(`joint '${name}': its ${role} link '${link ?? ''}' is not defined`);
    }
    if (jointOf.has(child)) throw new Error(`link '${child}' is the child of two joints`);
    jointOf.set(child, joint);
    childrenOf.get(parent).push(child);
  }
  const roots = [...links.keys()].filter((name) => !jointOf.has(name));
  if (roots.length !== 1) {
    throw new Error(roots.length ? `the robot has ${roots.length} root links (${roots.slice(0, 3).join(', ')}), not one`
      : 'every link is some joint\'s child: the joints make a loop');
  }

  // Depth first from the root, so parents come before their children.
  const order = [];
  const stack = [[roots[0], -1]];
  while (stack.length) {
    const [name, parent] = stack.pop();
    order.push({ name, parent });
    const index = order.length - 1;
    for (const child of [...childrenOf.get(name)].reverse()) stack.push([child, index]);
  }
  if (order.length !== links.size) throw new Error('some links are not connected to the root (the joints make a loop)');

  const boneOfJoint = new Map();
  const bones = order.map(({ name, parent }, index) => {
    const joint = jointOf.get(name);
    const { shapes: drawn, meshes: meshVisuals } = shapes(links.get(name));
    if (!joint) {
      return { name, jointName: '', parent, position: [0, 0, 0], quaternion: [0, 0, 0, 1],
        joint: { type: 'fixed', axis: [1, 0, 0], min: 0, max: 0 }, mimic: null, shapes: drawn, meshVisuals };
    }
    const jointName = joint.getAttribute('name') ?? '';
    boneOfJoint.set(jointName, index);
    const what = `joint '${jointName}'`;
    const type = joint.getAttribute('type');
    const axis = numbers(childrenNamed(joint, 'axis')[0]?.getAttribute('xyz'), 3, [1, 0, 0], `${what} axis`);
    if (type !== 'fixed' && Math.hypot(...axis) === 0) throw new Error(`${what}: its axis is zero`);
    const limit = childrenNamed(joint, 'limit')[0];
    let min = 0, max = 0;
    if (type === 'continuous') {
      [min, max] = [-Math.PI, Math.PI];
    } else if (type !== 'fixed') {
      if (!limit) throw new Error(`${what}: a ${type} joint needs a <limit>`);
      min = number(limit.getAttribute('lower'), 0, `${what} limit lower`);
      max = number(limit.getAttribute('upper'), 0, `${what} limit upper`);
      if (min > max) throw new Error(`${what}: limit lower ${min} is above upper ${max}`);
    }
    const kind = type === 'prismatic' ? 'prismatic' : type === 'fixed' ? 'fixed' : 'hinge';
    return { name, jointName, parent, ...origin(childrenNamed(joint, 'origin')[0], what),
      joint: { type: kind, axis, min, max }, mimicElement: childrenNamed(joint, 'mimic')[0] ?? null,
      shapes: drawn, meshVisuals };
  });
  for (const bone of bones) {
    const element = bone.mimicElement;
    delete bone.mimicElement;
    bone.mimic = null;
    if (!element) continue;
    const leader = boneOfJoint.get(element.getAttribute('joint'));
    if (leader === undefined) {
      throw new Error(`joint '${bone.jointName}': it mimics '${element.getAttribute('joint')}', which is not a joint`);
    }
    bone.mimic = {
      leader,
      multiplier: number(element.getAttribute('multiplier'), 1, `joint '${bone.jointName}' mimic multiplier`),
      offset: number(element.getAttribute('offset'), 0, `joint '${bone.jointName}' mimic offset`),
    };
  }
  return { name: robot.getAttribute('name') ?? '', bones,
    meshes: bones.reduce((sum, b) => sum + b.meshVisuals.length, 0) };
}
