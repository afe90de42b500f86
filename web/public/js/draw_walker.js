// Drawing the walker from above: body, legs, and feet planted (filled) or swinging (rings that
// grow with the swing's height).
import { PALETTE, circle, clear, drawPlaneGrid, drawTarget, line } from './draw.js';

// Half-axes of the body's outline, in world units: just wide enough to cover the standard
// creature's hips (0.8 forward or back, 0.5 to the side).
const BODY_HALF_LENGTH = 1.15;
const BODY_HALF_WIDTH = 0.72;
const LEG_WIDTH = 4;
const FOOT_RADIUS = 4;
const TRAIL_LENGTH = 240; // body positions kept for the trail

// The body's recent path as a dotted line, a point kept each time it moves on a little.
export class Trail {
  constructor() {
    this.points = [];
  }

  clear() {
    this.points = [];
  }

  draw(ctx, view, point) {
    const last = this.points[this.points.length - 1];
    if (!last || Math.hypot(last[0] - point[0], last[1] - point[1]) > 0.05) {
      this.points.push(point.slice());
      if (this.points.length > TRAIL_LENGTH) this.points.shift();
    }
    ctx.strokeStyle = PALETTE.reach;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([2, 5]);
    ctx.beginPath();
    this.points.forEach((p, i) => {
      const [x, y] = view.project(p);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

export class WalkerPainter {
  constructor() {
    this.trail = new Trail();
  }

  reset() {
    this.trail.clear();
  }

  // outcome: reach.walkerOutcome(...); target: the goal the body walks to.
  draw(ctx, view, outcome, target) {
    const { width, height } = clear(ctx);
    drawPlaneGrid(ctx, view, width, height);
    this.trail.draw(ctx, view, outcome.body.position);
    for (const leg of outcome.legs) drawLeg(ctx, view, leg);
    drawBody(ctx, view, outcome.body);
    drawTarget(ctx, view, target);
  }
}

// A leg's bones and knees; returns where its foot is drawn, for the caller to mark.
export function drawLegBones(ctx, view, leg) {
  const points = leg.joints.map((joint) => view.project(joint));
  ctx.strokeStyle = PALETTE.bone;
  ctx.lineWidth = LEG_WIDTH;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (let i = 1; i < points.length; i++) line(ctx, points[i - 1], points[i]);
  for (const knee of points.slice(1, -1)) {
    circle(ctx, knee, 3);
    ctx.fillStyle = PALETTE.joint;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }
  return points[points.length - 1];
}

function drawLeg(ctx, view, leg) {
  const foot = drawLegBones(ctx, view, leg);
  if (leg.planted) {
    circle(ctx, foot, FOOT_RADIUS);
    ctx.fillStyle = PALETTE.bone;
    ctx.fill();
  } else {
    // A lifted foot: a ring, larger the higher it is.
    circle(ctx, foot, FOOT_RADIUS + 2 + leg.lift * view.scale * 0.5);
    ctx.strokeStyle = PALETTE.target;
    ctx.lineWidth = 2;
    ctx.stroke();
  }
}

function drawBody(ctx, view, body) {
  const [x, y] = view.project(body.position);
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(-body.heading); // the canvas's y axis points down
  ctx.fillStyle = PALETTE.bone;
  ctx.beginPath();
  ctx.ellipse(0, 0, BODY_HALF_LENGTH * view.scale, BODY_HALF_WIDTH * view.scale, 0, 0, 2 * Math.PI);
  ctx.fill();
  // The head end, so the heading can be read.
  ctx.fillStyle = PALETTE.target;
  circle(ctx, [(BODY_HALF_LENGTH - 0.25) * view.scale, 0], 0.14 * view.scale);
  ctx.fill();
  ctx.restore();
}
