// Drawing on the canvas: the shared pieces, and the IK chain scene. Everything here reads a
// solved pose; nothing computes one.

export const PALETTE = {
  background: '#fbfbfd',
  grid: '#eceef3',
  axis: '#d3d8e2',
  bone: '#334155',
  joint: '#ffffff',
  ghost: 'rgba(51, 65, 85, 0.22)',
  reach: '#9aa5b8',
  soft: 'rgba(247, 103, 7, 0.08)',
  target: '#f76707',
  planted: '#2f9e44',
  pole: '#6741d9',
  miss: '#e03131',
  limit: 'rgba(47, 158, 68, 0.24)',
  limitEdge: 'rgba(43, 138, 62, 0.85)',
  text: '#475569',
  axes: ['#e03131', '#2f9e44', '#1c7ed6'],
};

const GRID_STEP = 0.5;
const MIN_GRID_PIXELS = 30; // the 2-D grid coarsens so its lines stay at least this far apart
const BONE_WIDTH = 8;
const JOINT_RADIUS = 6;
export const HANDLE_RADIUS = 11;

// Clears the canvas; returns its size in CSS pixels.
export function clear(ctx) {
  const { width, height } = ctx.canvas.getBoundingClientRect();
  ctx.fillStyle = PALETTE.background;
  ctx.fillRect(0, 0, width, height);
  return { width, height };
}

// scene: { dims, joints, alternative, target, pole (null: none), lengths, softDistance,
//          limit (rad; pi: none), reached, keyHandle ('target', 'pole' or null) }
export function drawChainScene(ctx, view, scene) {
  const { width, height } = clear(ctx);
  if (scene.dims === 3) drawGround(ctx, view, scene.lengths);
  else drawPlaneGrid(ctx, view, width, height);
  drawReach(ctx, view, scene);
  if (scene.dims === 3) drawDropLines(ctx, view, scene);
  if (scene.dims === 2 && scene.limit < Math.PI) drawLimits(ctx, view, scene.joints, scene.limit);
  if (scene.alternative) drawGhost(ctx, view, scene);
  if (scene.pole) drawPoleGuide(ctx, view, scene);
  drawMiss(ctx, view, scene);
  drawChain(ctx, view, scene.joints);
  drawTargetMark(ctx, view, scene.target);
  if (scene.pole) drawPole(ctx, view, scene.pole);
  const keyed = scene.keyHandle === 'pole' ? scene.pole : scene.keyHandle === 'target' ? scene.target : null;
  if (keyed) drawKeyRing(ctx, view, keyed);
  if (scene.dims === 3) drawAxesGizmo(ctx, view, height);
  // The handles' names last, over the bones.
  label(ctx, 'target', view.project(scene.target), PALETTE.target);
  if (scene.pole) label(ctx, 'pole', view.project(scene.pole), PALETTE.pole);
}

// A dashed ring around the handle the arrow keys move.
function drawKeyRing(ctx, view, point) {
  ctx.save();
  ctx.strokeStyle = PALETTE.bone;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([4, 3]);
  circle(ctx, view.project(point), HANDLE_RADIUS + 7);
  ctx.stroke();
  ctx.restore();
}

export function line(ctx, a, b) {
  ctx.beginPath();
  ctx.moveTo(a[0], a[1]);
  ctx.lineTo(b[0], b[1]);
  ctx.stroke();
}

export function circle(ctx, c, radius) {
  ctx.beginPath();
  ctx.arc(c[0], c[1], radius, 0, 2 * Math.PI);
}

// A name beside the point `at` (up and to the right of a handle there), in a halo of the
// background's colour so that it reads over bones and lines. Drawn after what it names.
export function label(ctx, text, at, color) {
  haloText(ctx, text, [at[0] + HANDLE_RADIUS + 4, at[1] - HANDLE_RADIUS + 2], color, '600 12px system-ui, sans-serif');
}

// Text at a canvas point, its letters ringed by the background's colour.
export function haloText(ctx, text, [x, y], color, font) {
  ctx.save();
  ctx.font = font;
  ctx.lineJoin = 'round';
  ctx.lineWidth = 4;
  ctx.strokeStyle = PALETTE.background;
  ctx.strokeText(text, x, y);
  ctx.fillStyle = color;
  ctx.fillText(text, x, y);
  ctx.restore();
}

// 2-D: a square grid in world units (0.5, 1 or 2, whichever stays readable), with the axes
// through the origin a little darker.
export function drawPlaneGrid(ctx, view, width, height) {
  const step = [GRID_STEP, 1, 2].find((s) => s * view.scale >= MIN_GRID_PIXELS) ?? 2;
  const topLeft = view.unproject(0, 0, 0);
  const bottomRight = view.unproject(width, height, 0);
  ctx.lineWidth = 1;
  for (let x = Math.ceil(topLeft[0] / step) * step; x <= bottomRight[0]; x += step) {
    ctx.strokeStyle = Math.abs(x) < 1e-9 ? PALETTE.axis : PALETTE.grid;
    line(ctx, view.project([x, topLeft[1], 0]), view.project([x, bottomRight[1], 0]));
  }
  for (let y = Math.ceil(bottomRight[1] / step) * step; y <= topLeft[1]; y += step) {
    ctx.strokeStyle = Math.abs(y) < 1e-9 ? PALETTE.axis : PALETTE.grid;
    line(ctx, view.project([topLeft[0], y, 0]), view.project([bottomRight[0], y, 0]));
  }
}

// 3-D: a floor just below the lowest point the chain can reach, a little wider than its reach,
// so heights and depths can be read off it.
function floorSize(lengths) {
  const reach = lengths.reduce((sum, l) => sum + l, 0);
  return { y: -Math.ceil(reach / GRID_STEP) * GRID_STEP, half: Math.ceil((1.1 * reach) / GRID_STEP) * GRID_STEP };
}

function drawGround(ctx, view, lengths) {
  const { y, half } = floorSize(lengths);
  ctx.lineWidth = 1;
  for (let u = -half; u <= half + 1e-9; u += GRID_STEP) {
    ctx.strokeStyle = Math.abs(u) < 1e-9 ? PALETTE.axis : PALETTE.grid;
    line(ctx, view.project([u, y, -half]), view.project([u, y, half]));
    line(ctx, view.project([-half, y, u]), view.project([half, y, u]));
  }
}

// Where the end can be: the circles (spheres, in 3-D) of radius |L1 − L2| and L1 + L2 around
// the root, and the band where soft IK eases in.
function drawReach(ctx, view, scene) {
  const root = view.project(scene.joints[0]);
  const outer = scene.lengths.reduce((sum, length) => sum + length, 0);
  const longest = Math.max(...scene.lengths);
  const inner = Math.max(0, 2 * longest - outer);
  if (scene.softDistance > 0) {
    ctx.fillStyle = PALETTE.soft;
    ctx.beginPath();
    ctx.arc(root[0], root[1], outer * view.scale, 0, 2 * Math.PI);
    ctx.arc(root[0], root[1], Math.max(0, outer - scene.softDistance) * view.scale, 0, 2 * Math.PI, true);
    ctx.fill();
  }
  ctx.strokeStyle = PALETTE.reach;
  ctx.lineWidth = 1.25;
  ctx.setLineDash([6, 5]);
  for (const radius of [outer, inner]) {
    if (radius <= 0) continue;
    circle(ctx, root, radius * view.scale);
    ctx.stroke();
  }
  ctx.setLineDash([]);
}

// 3-D: a thin line from each handle and joint down to the floor, and its shadow there.
function drawDropLines(ctx, view, scene) {
  const { y } = floorSize(scene.lengths);
  const points = [
    [scene.target, PALETTE.target],
    ...(scene.pole ? [[scene.pole, PALETTE.pole]] : []),
    ...scene.joints.slice(1).map((joint) => [joint, PALETTE.reach]),
  ];
  drawDrops(ctx, view, points.map(([point, color]) => [point, [point[0], y, point[2]], color]));
}

// drops: [point, its foot on the floor, colour]: a dotted line down, and a faint dot there.
export function drawDrops(ctx, view, drops) {
  ctx.lineWidth = 1;
  ctx.setLineDash([2, 4]);
  for (const [point, foot, color] of drops) {
    const floor = view.project(foot);
    ctx.strokeStyle = color;
    line(ctx, view.project(point), floor);
    ctx.fillStyle = color;
    ctx.globalAlpha = 0.35;
    circle(ctx, floor, 3);
    ctx.fill();
    ctx.globalAlpha = 1;
  }
  ctx.setLineDash([]);
}

// 2-D: at each joint past the root, the wedge its bone may point into: ±limit about the
// direction of the bone before it, filled and outlined so that it reads on the grid.
function drawLimits(ctx, view, joints, limit) {
  const radius = 0.7 * Math.min(...joints.slice(1).map((p, i) => Math.hypot(p[0] - joints[i][0], p[1] - joints[i][1])));
  ctx.fillStyle = PALETTE.limit;
  ctx.strokeStyle = PALETTE.limitEdge;
  ctx.lineWidth = 1.5;
  ctx.lineJoin = 'round';
  for (let i = 1; i < joints.length - 1; i++) {
    const [x, y] = view.project(joints[i]);
    // Canvas angles run clockwise, world angles counter-clockwise.
    const along = -Math.atan2(joints[i][1] - joints[i - 1][1], joints[i][0] - joints[i - 1][0]);
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.arc(x, y, radius * view.scale, along - limit, along + limit);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
  }
}

// The other solution: the same chain with the mid joint mirrored across the root→end line.
function drawGhost(ctx, view, scene) {
  const [root, , end] = scene.joints;
  ctx.strokeStyle = PALETTE.ghost;
  ctx.lineWidth = BONE_WIDTH / 2;
  ctx.lineCap = 'round';
  ctx.setLineDash([8, 7]);
  const elbow = view.project(scene.alternative);
  line(ctx, view.project(root), elbow);
  line(ctx, elbow, view.project(end));
  ctx.setLineDash([]);
  ctx.fillStyle = PALETTE.ghost;
  circle(ctx, elbow, JOINT_RADIUS - 1);
  ctx.fill();
}

function drawPoleGuide(ctx, view, scene) {
  ctx.strokeStyle = PALETTE.pole;
  ctx.globalAlpha = 0.45;
  ctx.lineWidth = 1;
  ctx.setLineDash([3, 4]);
  line(ctx, view.project(scene.joints[1]), view.project(scene.pole));
  ctx.setLineDash([]);
  ctx.globalAlpha = 1;
}

// What is left between the end and the target when it is out of reach (or softened).
function drawMiss(ctx, view, scene) {
  if (scene.reached) return;
  ctx.strokeStyle = PALETTE.miss;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([4, 4]);
  line(ctx, view.project(scene.joints[scene.joints.length - 1]), view.project(scene.target));
  ctx.setLineDash([]);
}

function drawChain(ctx, view, joints) {
  const points = joints.map((joint) => view.project(joint));
  ctx.strokeStyle = PALETTE.bone;
  ctx.lineWidth = BONE_WIDTH;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  points.forEach((p, i) => (i === 0 ? ctx.moveTo(p[0], p[1]) : ctx.lineTo(p[0], p[1])));
  ctx.stroke();
  // The root is fixed: a filled square; the end effector a filled disc; joints between hollow.
  const root = points[0];
  ctx.fillStyle = PALETTE.bone;
  ctx.fillRect(root[0] - 8, root[1] - 8, 16, 16);
  ctx.lineWidth = 2.5;
  for (const p of points.slice(1, -1)) {
    circle(ctx, p, JOINT_RADIUS);
    ctx.fillStyle = PALETTE.joint;
    ctx.fill();
    ctx.stroke();
  }
  circle(ctx, points[points.length - 1], JOINT_RADIUS);
  ctx.fillStyle = PALETTE.bone;
  ctx.fill();
}

// The target: its mark, then its name.
export function drawTarget(ctx, view, target) {
  drawTargetMark(ctx, view, target);
  label(ctx, 'target', view.project(target), PALETTE.target);
}

// A ring with a cross hair's four ticks.
export function drawTargetMark(ctx, view, target) {
  const p = view.project(target);
  ctx.strokeStyle = PALETTE.target;
  ctx.lineWidth = 2.5;
  circle(ctx, p, HANDLE_RADIUS);
  ctx.stroke();
  ctx.lineWidth = 1.5;
  line(ctx, [p[0] - HANDLE_RADIUS - 4, p[1]], [p[0] - 4, p[1]]);
  line(ctx, [p[0] + 4, p[1]], [p[0] + HANDLE_RADIUS + 4, p[1]]);
  line(ctx, [p[0], p[1] - HANDLE_RADIUS - 4], [p[0], p[1] - 4]);
  line(ctx, [p[0], p[1] + 4], [p[0], p[1] + HANDLE_RADIUS + 4]);
}

function drawPole(ctx, view, pole) {
  const p = view.project(pole);
  const r = HANDLE_RADIUS - 2;
  ctx.fillStyle = PALETTE.pole;
  ctx.beginPath();
  ctx.moveTo(p[0], p[1] - r);
  ctx.lineTo(p[0] + r, p[1]);
  ctx.lineTo(p[0], p[1] + r);
  ctx.lineTo(p[0] - r, p[1]);
  ctx.closePath();
  ctx.fill();
}

// 3-D: which way x, y and z point, in the lower left corner.
export function drawAxesGizmo(ctx, view, height) {
  const origin = [36, height - 36];
  const length = 22;
  const zero = view.project([0, 0, 0]);
  ctx.lineWidth = 2;
  ctx.font = '11px system-ui, sans-serif';
  ['x', 'y', 'z'].forEach((name, i) => {
    const axis = view.project([0, 1, 2].map((k) => (k === i ? 1 : 0)));
    const tip = [0, 1].map((k) => origin[k] + ((axis[k] - zero[k]) / view.scale) * length);
    ctx.strokeStyle = PALETTE.axes[i];
    line(ctx, origin, tip);
    ctx.fillStyle = PALETTE.axes[i];
    ctx.fillText(name, tip[0] + 3, tip[1] + 4);
  });
}
