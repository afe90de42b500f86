// Drawing the robot arm: the floor, the links between the joint frames, each joint's housing
// along its axis, the tool frame (solid) and the target frame (dashed), and drop lines to the
// floor. Everything here reads the solved frames; nothing computes a pose.
import { PALETTE, circle, clear, drawAxesGizmo, drawDrops, drawTargetMark, label, line } from './draw.js';

// Metres. The floor under the reach of the arm, and the grid on it.
const FLOOR = { xMin: -1.1, xMax: 0.5, yMin: -0.8, yMax: 0.8, step: 0.1 };
const LINK_WIDTH = [0.05, 0.05, 0.05, 0.038, 0.038, 0.038];
const HOUSING_HALF = [0.06, 0.06, 0.06, 0.04, 0.04, 0.04];
const HOUSING_WIDTH = [0.085, 0.085, 0.085, 0.058, 0.058, 0.058];
const BASE_WIDTH = 0.1;
const TOOL_AXIS = 0.13;
const GOAL_AXIS = 0.17;
const HOUSING_COLOR = '#64748b';

const add = (a, b) => a.map((v, i) => v + b[i]);
const scaled = (a, s) => a.map((v) => v * s);

// scene: { frames: [{ origin, x, y, z }] (six joints, then the flange), goal (a frame),
//          target, orientation (whether the goal's orientation counts), reached }
export function drawRobotScene(ctx, view, scene) {
  const { height } = clear(ctx);
  const tool = scene.frames[scene.frames.length - 1];
  drawFloor(ctx, view);
  const drop = (p, color) => [p, [p[0], p[1], 0], color];
  drawDrops(ctx, view, [drop(scene.target, PALETTE.target), drop(tool.origin, PALETTE.reach)]);
  const housings = drawArm(ctx, view, scene.frames);
  if (!scene.reached) {
    ctx.strokeStyle = PALETTE.miss;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 4]);
    line(ctx, view.project(tool.origin), view.project(scene.target));
    ctx.setLineDash([]);
  }
  if (scene.orientation) drawFrame(ctx, view, scene.goal, GOAL_AXIS, 2, [6, 4]);
  drawFrame(ctx, view, tool, TOOL_AXIS, 3, []);
  drawTargetMark(ctx, view, scene.target);
  drawAxesGizmo(ctx, view, height);
  // The labels last, over the arm and the frames.
  drawJointNumbers(ctx, housings);
  if (scene.orientation) {
    label(ctx, 'target frame', view.project(add(scene.goal.origin, scaled(scene.goal.z, GOAL_AXIS))), PALETTE.text);
  }
  label(ctx, 'target', view.project(scene.target), PALETTE.target);
}

function drawFloor(ctx, view) {
  const { xMin, xMax, yMin, yMax, step } = FLOOR;
  ctx.lineWidth = 1;
  const count = (from, to) => Math.round((to - from) / step);
  for (let i = 0; i <= count(xMin, xMax); i++) {
    const x = xMin + i * step;
    ctx.strokeStyle = Math.abs(x) < 1e-9 ? PALETTE.axis : PALETTE.grid;
    line(ctx, view.project([x, yMin, 0]), view.project([x, yMax, 0]));
  }
  for (let j = 0; j <= count(yMin, yMax); j++) {
    const y = yMin + j * step;
    ctx.strokeStyle = Math.abs(y) < 1e-9 ? PALETTE.axis : PALETTE.grid;
    line(ctx, view.project([xMin, y, 0]), view.project([xMax, y, 0]));
  }
}

// The arm as thick round-capped strokes, far ones first: the base column, the links between
// joint origins and, across each joint, its housing along the axis it turns about. Returns the
// housings as drawn, for their numbers.
function drawArm(ctx, view, frames) {
  const strokes = [{ a: [0, 0, 0], b: frames[0].origin, width: BASE_WIDTH, color: PALETTE.bone }];
  frames.slice(0, -1).forEach((frame, i) => {
    const half = scaled(frame.z, HOUSING_HALF[i]);
    strokes.push({ a: add(frame.origin, scaled(half, -1)), b: add(frame.origin, half), width: HOUSING_WIDTH[i],
      color: HOUSING_COLOR, joint: i + 1 });
    strokes.push({ a: frame.origin, b: frames[i + 1].origin, width: LINK_WIDTH[i], color: PALETTE.bone });
  });
  const projected = strokes.map((s) => {
    const a = view.project(s.a), b = view.project(s.b);
    return { ...s, a, b, depth: (a[2] + b[2]) / 2 };
  });
  projected.sort((p, q) => p.depth - q.depth);
  ctx.lineCap = 'round';
  for (const s of projected) {
    ctx.strokeStyle = s.color;
    ctx.lineWidth = s.width * view.scale;
    line(ctx, s.a, s.b);
  }
  return projected.filter((p) => p.joint);
}

// Joint numbers on the housings' ends, so the readout's joint values can be matched to them
// (joints 1 and 2 share an origin, but not an axis).
function drawJointNumbers(ctx, housings) {
  for (const s of housings) {
    const at = s.b; // the housing's end on the positive side of its axis
    ctx.fillStyle = PALETTE.joint;
    circle(ctx, at, 7);
    ctx.fill();
    ctx.font = '600 10px system-ui, sans-serif';
    ctx.fillStyle = PALETTE.bone;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(s.joint), at[0], at[1] + 0.5);
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
  }
}

// A frame's x, y and z axes in red, green and blue.
function drawFrame(ctx, view, frame, length, width, dash) {
  const origin = view.project(frame.origin);
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.setLineDash(dash);
  [frame.x, frame.y, frame.z].forEach((axis, i) => {
    ctx.strokeStyle = PALETTE.axes[i];
    line(ctx, origin, view.project(add(frame.origin, scaled(axis, length))));
  });
  ctx.setLineDash([]);
}
