// Drawing the walker in 3-D: the terrain as shaded tiles, the creature's shadow, legs and body,
// planted feet (filled, with a ring on the ground) and lifted ones (rings, with a line down to
// the ground), and the trail. Heights come from the module; nothing here places a foot.
import { PALETTE, circle, clear, drawAxesGizmo, drawTarget, line } from './draw.js';
import { Trail, drawLegBones } from './draw_walker.js';

// The body as an oval slab in body space (x forward, y left, z up), wide enough to cover the
// standard creature's hips (0.8 forward or back, 0.5 to the side).
const BODY_HALF_LENGTH = 1.15;
const BODY_HALF_WIDTH = 0.72;
const BODY_HALF_THICKNESS = 0.12;
const OUTLINE_POINTS = 20;
const FOOT_RADIUS = 4.5;

const add = (a, b) => a.map((v, i) => v + b[i]);
const scaled = (a, s) => a.map((v) => v * s);

export class WalkerPainter3d {
  // terrain: a Terrain (terrain.js), drawn from its cached image.
  constructor(terrain) {
    this.terrain = terrain;
    this.trail = new Trail();
  }

  reset() {
    this.trail.clear();
  }

  // outcome: reach.walkerOutcome(...); target: the goal on the ground.
  draw(ctx, view, outcome, target) {
    const { height } = clear(ctx);
    this.terrain.draw(ctx, view);
    const [x, y] = outcome.body.position;
    this.trail.draw(ctx, view, [x, y, this.terrain.height(x, y)]);
    const outline = bodyOutline(outcome.body);
    this.drawShadow(ctx, view, outline);
    drawFootprints(ctx, view, outcome.legs, this.terrain);
    // Painter's order: legs behind the body, the body, legs in front of it.
    const bodyDepth = view.project(outcome.body.position)[2];
    const depthOf = (leg) => view.project(leg.joints[1])[2];
    const behind = outcome.legs.filter((leg) => depthOf(leg) < bodyDepth);
    const before = outcome.legs.filter((leg) => depthOf(leg) >= bodyDepth);
    for (const leg of behind) drawLeg(ctx, view, leg);
    drawBody(ctx, view, outcome.body, outline);
    for (const leg of before) drawLeg(ctx, view, leg);
    drawTarget(ctx, view, target);
    drawAxesGizmo(ctx, view, height);
  }

  // The body's outline dropped straight down onto the ground.
  drawShadow(ctx, view, outline) {
    ctx.fillStyle = 'rgba(30, 41, 59, 0.16)';
    polygon(ctx, outline.bottom.map(([x, y]) => view.project([x, y, this.terrain.height(x, y)])));
    ctx.fill();
  }
}

// The body's top and bottom outlines in world space, from its position and axes.
function bodyOutline(body) {
  const { position, forward, left, up } = body;
  const ring = Array.from({ length: OUTLINE_POINTS }, (_, k) => {
    const angle = (2 * Math.PI * k) / OUTLINE_POINTS;
    return add(position, add(scaled(forward, BODY_HALF_LENGTH * Math.cos(angle)),
      scaled(left, BODY_HALF_WIDTH * Math.sin(angle))));
  });
  return {
    top: ring.map((p) => add(p, scaled(up, BODY_HALF_THICKNESS))),
    bottom: ring.map((p) => add(p, scaled(up, -BODY_HALF_THICKNESS))),
    head: add(position, add(scaled(forward, BODY_HALF_LENGTH - 0.28), scaled(up, BODY_HALF_THICKNESS))),
  };
}

function polygon(ctx, points) {
  ctx.beginPath();
  points.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.closePath();
}

function drawBody(ctx, view, body, outline) {
  const top = outline.top.map((p) => view.project(p));
  const bottom = outline.bottom.map((p) => view.project(p));
  // The rim: every side face in the body's dark colour (they overlap only each other), then
  // the top face over them.
  ctx.fillStyle = '#1e293b';
  ctx.strokeStyle = '#1e293b';
  ctx.lineWidth = 1;
  for (let k = 0; k < top.length; k++) {
    const next = (k + 1) % top.length;
    polygon(ctx, [top[k], top[next], bottom[next], bottom[k]]);
    ctx.fill();
    ctx.stroke();
  }
  ctx.fillStyle = PALETTE.bone;
  polygon(ctx, top);
  ctx.fill();
  ctx.fillStyle = PALETTE.target;
  circle(ctx, view.project(outline.head), 0.13 * view.scale);
  ctx.fill();
}

// Under each planted foot a ring on the ground; under each lifted one a dot, joined to the foot
// by a dotted line, so its height can be read.
function drawFootprints(ctx, view, legs, terrain) {
  for (const leg of legs) {
    const foot = leg.joints[leg.joints.length - 1];
    const ground = view.project([foot[0], foot[1], terrain.height(foot[0], foot[1])]);
    if (leg.planted) {
      ctx.strokeStyle = PALETTE.planted;
      ctx.lineWidth = 2;
      circle(ctx, ground, FOOT_RADIUS + 4);
      ctx.stroke();
    } else {
      ctx.fillStyle = 'rgba(30, 41, 59, 0.25)';
      circle(ctx, ground, 3);
      ctx.fill();
      ctx.strokeStyle = PALETTE.target;
      ctx.lineWidth = 1;
      ctx.setLineDash([2, 3]);
      line(ctx, ground, view.project(foot));
      ctx.setLineDash([]);
    }
  }
}

// Planted feet filled, lifted ones hollow rings.
function drawLeg(ctx, view, leg) {
  const foot = drawLegBones(ctx, view, leg);
  circle(ctx, foot, FOOT_RADIUS);
  if (leg.planted) {
    ctx.fillStyle = PALETTE.planted;
    ctx.fill();
  } else {
    ctx.fillStyle = PALETTE.joint;
    ctx.fill();
    ctx.strokeStyle = PALETTE.target;
    ctx.lineWidth = 2;
    ctx.stroke();
  }
}
