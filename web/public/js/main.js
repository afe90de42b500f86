// The playground: loads the library, keeps the page's state, and ties input, solving and
// drawing together. Every pose comes from the WebAssembly module.

import { loadReach } from './reach.js';
import { availableSolvers } from './solvers/index.js';
import { View } from './view.js';
import { drawScene } from './draw.js';
import { Pointer } from './pointer.js';
import { Panel, LENGTH_RANGE } from './panel.js';

const DEFAULT_LENGTHS = [1.0, 0.8];
const VIEW_3D = { yaw: -0.55, pitch: 0.42 };

const canvas = document.getElementById('scene');
const context = canvas.getContext('2d');
const view = new View();

const state = {
  reach: null,
  solvers: [],
  solver: null,
  lengths: DEFAULT_LENGTHS.slice(),
  soft: { enabled: false, distance: 0.2 },
  target: [1.1, 0.7, 0],
  pole: [0.2, 1.5, 0],
  outcome: null,
  renders: 0,
};
let panel = null;
let framePending = false;

const add = (a, b) => a.map((v, i) => v + b[i]);
const sub = (a, b) => a.map((v, i) => v - b[i]);
const length = (a) => Math.hypot(...a);
const totalLength = () => state.lengths.reduce((sum, l) => sum + l, 0);

// What the canvas shows: the chain at full stretch with room around it, in 3-D with the view
// lowered to take in the floor under it.
function fitView(width, height) {
  const reach = totalLength();
  if (state.solver.dims === 3) view.fit(width, height, Math.max(2.7, 1.45 * reach), [0, -0.45 * reach, 0]);
  else view.fit(width, height, Math.max(2.5, 1.3 * reach));
}

function solve() {
  const softDistance = state.soft.enabled ? state.soft.distance : 0;
  state.outcome = state.solver.solve(state.reach, { target: state.target, pole: state.pole, softDistance });
  requestRender();
}

function chooseSolver(id) {
  const solver = state.solvers.find((s) => s.id === id);
  if (!solver) return;
  const flat = solver.dims === 2;
  // A 2-D solver works in the z = 0 plane: bring the handles back into it.
  if (flat) for (const point of [state.target, state.pole]) point[2] = 0;
  view.setAngles(flat ? 0 : VIEW_3D.yaw, flat ? 0 : VIEW_3D.pitch);
  if (state.lengths.length !== solver.bones) state.lengths = DEFAULT_LENGTHS.slice(0, solver.bones);
  state.solver = solver;
  // A fresh chain, so a 3-D pose never reaches a 2-D solver.
  state.reach.resetChain(state.lengths);
  panel.showSolver(solver);
  panel.showBones(state.lengths);
  panel.showMessage('');
  resize();
  solve();
}

// Returns an error to show, or '' when the chain took the new length.
function setBoneLength(bone, value) {
  if (!(value >= LENGTH_RANGE.min && value <= LENGTH_RANGE.max)) {
    return `length must be a number from ${LENGTH_RANGE.min} to ${LENGTH_RANGE.max}`;
  }
  const status = state.reach.setBoneLength(bone, value);
  if (status !== 0) return state.reach.statusText(status);
  state.lengths[bone] = value;
  resize();
  solve();
  return '';
}

function setSoft(enabled, distance) {
  state.soft = { enabled, distance };
  solve();
}

function moveHandle(name, world) {
  if (!world.every(Number.isFinite)) return;
  state[name] = world;
  solve();
}

function turnView(yaw, pitch) {
  view.setAngles(yaw, pitch);
  requestRender();
}

function resize() {
  if (!state.solver) return;
  const rect = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(rect.width * ratio);
  canvas.height = Math.round(rect.height * ratio);
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  fitView(rect.width, rect.height);
  requestRender();
}

function requestRender() {
  if (framePending) return;
  framePending = true;
  requestAnimationFrame(render);
}

function render() {
  framePending = false;
  const { outcome } = state;
  drawScene(context, view, {
    dims: state.solver.dims,
    joints: outcome.pose,
    alternative: outcome.alternative,
    target: state.target,
    pole: state.pole,
    lengths: state.lengths,
    softDistance: state.soft.enabled ? state.soft.distance : 0,
    reached: outcome.reached,
  });
  const longest = Math.max(...state.lengths);
  const range = [Math.max(0, 2 * longest - totalLength()), totalLength()];
  panel.showOutcome(state.solver, outcome, length(sub(state.target, outcome.pose[0])), range);
  state.renders++;
}

// A read-only snapshot for tests and for the curious in the console: what the page shows,
// in world units, and where things are on screen in client pixels.
function snapshot() {
  if (!state.outcome) return Object.freeze({ ready: false });
  const rect = canvas.getBoundingClientRect();
  const onScreen = (p) => add(view.project(p).slice(0, 2), [rect.left, rect.top]);
  const { outcome } = state;
  const copy = {
    ready: true,
    library: { version: state.reach.version, precision: state.reach.precision },
    solvers: state.solvers.map((s) => s.id),
    solver: state.solver.id,
    dims: state.solver.dims,
    closedForm: state.solver.closedForm,
    lengths: state.reach.boneLengths(),
    softIK: { ...state.soft },
    target: state.target.slice(),
    pole: state.pole.slice(),
    joints: outcome.pose.map((p) => p.slice()),
    alternative: outcome.alternative && outcome.alternative.slice(),
    iterations: outcome.iterations,
    residual: outcome.residual,
    reached: outcome.reached,
    status: outcome.status,
    statusText: outcome.statusText,
    message: document.getElementById('chain-message').textContent,
    view: { yaw: view.yaw, pitch: view.pitch, scale: view.scale },
    screen: {
      target: onScreen(state.target),
      pole: onScreen(state.pole),
      joints: outcome.pose.map(onScreen),
    },
    renders: state.renders,
  };
  return JSON.parse(JSON.stringify(copy), (key, value) => (typeof value === 'object' ? Object.freeze(value) : value));
}

async function start() {
  state.reach = await loadReach('reach.wasm');
  state.solvers = availableSolvers(state.reach);
  panel = new Panel(state.solvers, { chooseSolver, setBoneLength, setSoft });
  panel.showLibrary(state.reach);
  new Pointer(canvas, view, {
    handles: () => ({ target: state.target, pole: state.pole }),
    moveHandle,
    turnView,
    is3d: () => state.solver.dims === 3,
  });
  new ResizeObserver(resize).observe(canvas);
  Object.defineProperty(window, 'reachState', { get: snapshot });
  chooseSolver(state.solvers[0].id);
}

start().catch((error) => {
  document.getElementById('library').textContent = `could not start: ${error.message}`;
  throw error;
});
