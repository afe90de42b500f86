// The playground: loads the library, keeps what the page shows, and ties input, solving and
// drawing together. Every pose comes from the WebAssembly module; a scene (chain_scene.js,
// robot_scene.js, crowd_scene.js, walker_scene.js) knows how to drive its kind of solver.

import { loadReach } from './reach.js';
import { availableSolvers } from './solvers/index.js';
import { View } from './view.js';
import { Pointer } from './pointer.js';
import { Panel } from './panel.js';
import { Announcer } from './announcer.js';
import { ChainScene } from './chain_scene.js';
import { CrowdScene } from './crowd_scene.js';
import { RobotScene } from './robot_scene.js';
import { WalkerScene } from './walker_scene.js';

// The longest time step a frame may take; a tab in the background would otherwise come back
// with one huge step.
const MAX_FRAME_SECONDS = 0.05;

const canvas = document.getElementById('scene');
const context = canvas.getContext('2d');

const app = {
  reach: null,
  panel: null,
  view: new View(),
  solvers: [],
  solver: null,
  scene: null,
  scenes: {},
  pointer: null,
  keyHandle: 'target', // what the arrow keys move
  target: [1.1, 0.7, 0],
  pole: [0.2, 1.5, 0],
  renders: 0,
  requestRender,
  resize,
};
let framePending = false;
let lastFrame = null;

function chooseSolver(id) {
  const solver = app.solvers.find((s) => s.id === id);
  if (!solver) return;
  app.solver = solver;
  const scene = app.scenes[solver.kind ?? 'chain'];
  if (app.scene !== scene) app.scene?.leave?.();
  app.scene = scene;
  app.panel.showSolver(solver);
  app.pointer?.resetKeys();
  app.scene.enter(solver);
  resize();
}

function moveHandle(name, world) {
  if (!world.every(Number.isFinite)) return;
  app[name] = world;
  app.scene.goalMoved();
}

function resize() {
  if (!app.scene) return;
  const rect = canvas.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(rect.width * ratio);
  canvas.height = Math.round(rect.height * ratio);
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  app.scene.fit(rect.width, rect.height);
  requestRender();
}

function requestRender() {
  if (framePending) return;
  framePending = true;
  requestAnimationFrame(render);
}

function render(now) {
  framePending = false;
  const { scene } = app;
  if (scene.tick) {
    const seconds = lastFrame === null ? 1 / 60 : (now - lastFrame) / 1000;
    scene.tick(Math.min(Math.max(seconds, 1e-3), MAX_FRAME_SECONDS));
    lastFrame = now;
    requestRender();
  } else {
    lastFrame = null;
  }
  scene.draw(context);
  app.panel.showReadout(scene.readout());
  app.renders++;
}

// A read-only snapshot for tests and for the curious in the console: what the page shows,
// in world units, and where things are on screen in client pixels.
function snapshot() {
  if (!app.scene?.outcome) return Object.freeze({ ready: false });
  const rect = canvas.getBoundingClientRect();
  const onScreen = (p) => {
    const [x, y] = app.view.project(p);
    return [x + rect.left, y + rect.top];
  };
  const own = app.scene.snapshot(onScreen);
  const copy = {
    ready: true,
    library: { version: app.reach.version, precision: app.reach.precision },
    solvers: app.solvers.map((s) => s.id),
    solver: app.solver.id,
    kind: app.solver.kind ?? 'chain',
    dims: app.solver.dims,
    target: app.target.slice(),
    message: document.getElementById('chain-message').textContent,
    view: { yaw: app.view.yaw, pitch: app.view.pitch, scale: app.view.scale, ...app.view.axes() },
    renders: app.renders,
    ...own,
    screen: { target: onScreen(app.target), ...own.screen },
  };
  return JSON.parse(JSON.stringify(copy), (key, value) => (typeof value === 'object' ? Object.freeze(value) : value));
}

async function start() {
  app.reach = await loadReach('reach.wasm');
  app.solvers = availableSolvers(app.reach);
  const sceneOf = () => app.scene;
  app.panel = new Panel(app.solvers, {
    chooseSolver,
    setBoneCount: (count) => sceneOf().setBoneCount(count),
    setBoneLength: (bone, length) => sceneOf().setBoneLength(bone, length),
    setLimit: (radians) => sceneOf().setLimit(radians),
    setIterationCap: (count) => sceneOf().setIterationCap(count),
    setSoft: (enabled, distance) => sceneOf().setSoft(enabled, distance),
    setLegCount: (count) => sceneOf().setLegCount(count),
    setTerrain: (name) => sceneOf().setTerrain(name),
    setSpeed: (speed) => sceneOf().setSpeed(speed),
    setMethod: (method) => sceneOf().setMethod(method),
    setOrientation: (orientation) => sceneOf().setOrientation(orientation),
    readyPose: () => sceneOf().ready(),
    setArmCount: (count) => sceneOf().setArmCount(count),
  });
  app.panel.showLibrary(app.reach);
  // A solve's result is said to screen readers after each action of the user's: on the canvas
  // (the pointer's and the keys'), and in the panel, where a control reports a finished change
  // (a menu's choice, a slider let go, a typed length) with `change`, and the button with a click.
  const announcer = new Announcer(document.getElementById('solve-status'), () => app.scene.announcement());
  const panel = document.querySelector('aside');
  panel.addEventListener('change', () => announcer.actionEnded());
  panel.addEventListener('click', (event) => {
    if (event.target.closest('button')) announcer.actionEnded();
  });
  app.scenes = {
    chain: new ChainScene(app),
    robot: new RobotScene(app),
    crowd: new CrowdScene(app),
    walker: new WalkerScene(app),
  };
  app.pointer = new Pointer(canvas, app.view, {
    handles: () => app.scene.handles(),
    moveHandle,
    turnView: (yaw, pitch) => {
      app.view.setAngles(yaw, pitch);
      requestRender();
    },
    is3d: () => app.solver.dims === 3,
    follows: () => app.scene.follows === true,
    pick: (at) => (app.scene.pick ? app.scene.pick(at) : app.view.unproject(at[0], at[1], 0)),
    goal: () => app.target,
    // Which handle the arrow keys move: ringed on the canvas while it has the focus, and said to
    // screen readers.
    keysMove: (name) => {
      app.keyHandle = name;
      document.getElementById('key-status').textContent =
        name === 'pole' ? 'The arrow keys move the pole (P: back to the target).' : 'The arrow keys move the target.';
      requestRender();
    },
    actionEnded: () => announcer.actionEnded(),
  });
  canvas.addEventListener('focus', requestRender);
  canvas.addEventListener('blur', requestRender);
  new ResizeObserver(resize).observe(canvas);
  Object.defineProperty(window, 'reachState', { get: snapshot });
  chooseSolver(app.solvers[0].id);
}

start().catch((error) => {
  document.getElementById('library').textContent = `could not start: ${error.message}`;
  throw error;
});
