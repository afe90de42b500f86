// Drawing the crowd: the ground under it, every limb as a line through its joints (one path per
// colour, so thousands draw in a few calls), the ends that reached marked, and the target with a
// line down to the ground.
import { PALETTE, clear, drawAxesGizmo, drawDrops, drawTarget } from './draw.js';

const GRID_STEP = 0.5;
const REACHED_COLOR = PALETTE.bone;
const SHORT_COLOR = '#94a3b8';

// outcome: the crowd solver's outcome(): limbs (joints root first), roots, ends, reached
export function drawCrowdScene(ctx, view, outcome, target) {
  const { height } = clear(ctx);
  drawGround(ctx, view, outcome.roots);
  // Limbs that fall short first, in a lighter colour, then those that reached over them.
  for (const reached of [false, true]) {
    ctx.strokeStyle = reached ? REACHED_COLOR : SHORT_COLOR;
    ctx.lineWidth = reached ? 2.5 : 1.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.beginPath();
    outcome.limbs.forEach((joints, k) => {
      if (outcome.reached[k] !== reached) return;
      // From the ground up: the post a root above the ground stands on, then the bones.
      const root = joints[0];
      const [first, ...rest] = [[root[0], root[1], 0], ...joints].map((p) => view.project(p));
      ctx.moveTo(first[0], first[1]);
      for (const p of rest) ctx.lineTo(p[0], p[1]);
    });
    ctx.stroke();
  }
  ctx.fillStyle = PALETTE.planted;
  ctx.beginPath();
  outcome.ends.forEach((end, k) => {
    if (!outcome.reached[k]) return;
    const [x, y] = view.project(end);
    ctx.moveTo(x + 3, y);
    ctx.arc(x, y, 3, 0, 2 * Math.PI);
  });
  ctx.fill();
  drawDrops(ctx, view, [[target, [target[0], target[1], 0], PALETTE.target]]);
  drawTarget(ctx, view, target);
  drawAxesGizmo(ctx, view, height);
}

// A grid on the ground a little wider than the crowd, with a dot where each post stands.
function drawGround(ctx, view, roots) {
  if (roots.length === 0) return;
  const extent = Math.max(...roots.map((r) => Math.max(Math.abs(r[0]), Math.abs(r[1])))) + 1;
  const half = Math.ceil(extent / GRID_STEP) * GRID_STEP;
  ctx.lineWidth = 1;
  for (let u = -half; u <= half + 1e-9; u += GRID_STEP) {
    ctx.strokeStyle = Math.abs(u) < 1e-9 ? PALETTE.axis : PALETTE.grid;
    ctx.beginPath();
    for (const [a, b] of [[[u, -half, 0], [u, half, 0]], [[-half, u, 0], [half, u, 0]]]) {
      const [p, q] = [view.project(a), view.project(b)];
      ctx.moveTo(p[0], p[1]);
      ctx.lineTo(q[0], q[1]);
    }
    ctx.stroke();
  }
  ctx.fillStyle = PALETTE.reach;
  ctx.beginPath();
  for (const root of roots) {
    const [x, y] = view.project([root[0], root[1], 0]);
    ctx.moveTo(x + 2, y);
    ctx.arc(x, y, 2, 0, 2 * Math.PI);
  }
  ctx.fill();
}
