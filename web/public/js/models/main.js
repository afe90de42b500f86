// The models page: a robot or character from the user's file in a three.js view, its skeleton
// handed to the WebAssembly module, and handles (TransformControls) that move its targets. A
// robot's tool (or any bone's joint) follows its handle under the solver of the user's choice,
// in position or in position and orientation; a humanoid is a full-body puppet (head, hands and
// feet) whose head looks at the pointer; a file's clip plays on it, or, kept as the source, on
// another humanoid retargeted live (retarget.js). Every pose comes from the module; this page
// reads files, draws, and moves numbers across.
import * as THREE from 'three';
import { TransformControls } from 'three/addons/controls/TransformControls.js';
import { loadReach } from '../reach.js';
import { View3d } from './view3d.js';
import { Figure } from './figure.js';
import { EXTENSIONS, extensionOf, loadModelFile } from './load.js';
import { MESH_EXTENSIONS } from './meshes.js';
import { EFFECTOR_SOLVERS, MODEL_EXPORTS, ModelModule, PART_ROLES } from './model_wasm.js';
import { RetargetSource } from './retarget.js';

const $ = (id) => document.getElementById(id);
const DEGREES = 180 / Math.PI;
const MAX_ITERATIONS = 64;
const PUPPET_PARTS = ['head', 'leftHand', 'rightHand', 'leftFoot', 'rightFoot'];
const PART_NAMES = { head: 'head', leftHand: 'left hand', rightHand: 'right hand', leftFoot: 'left foot',
  rightFoot: 'right foot', tool: 'target' };

const app = {
  reach: null,
  module: null,
  view: null,
  transform: null,
  model: null,
  figure: null,
  handles: {}, // name → { mesh, bone }
  selected: null,
  solver: 2,
  effector: -1,
  orientation: false,
  lookAt: null,
  outcome: null,
  mixer: null,
  playing: false,
  source: null, // a RetargetSource once a clip is kept
  retargeting: false,
  message: '',
};

function showMessage(text) {
  app.message = text;
  $('model-message').textContent = text;
}

// ---- the pose: from the module to the scene --------------------------------------------------

function applyPose() {
  const { model, module } = app;
  const local = module.local();
  model.nodes.forEach((node, b) => {
    if (model.bones[b].parent >= 0 || node.parent === model.space) {
      node.position.fromArray(local[b].position);
      node.quaternion.fromArray(local[b].quaternion);
    }
  });
  app.figure.update(module.world());
  app.view.requestRender();
}

// A bone's world transform in the scene (the module's is in the skeleton's frame).
function boneInScene(bone) {
  const { model, module } = app;
  model.space.updateWorldMatrix(true, false);
  const at = module.world()[bone];
  const matrix = new THREE.Matrix4().compose(new THREE.Vector3().fromArray(at.position),
    new THREE.Quaternion().fromArray(at.quaternion), new THREE.Vector3(1, 1, 1));
  matrix.premultiply(model.space.matrixWorld);
  const position = new THREE.Vector3(), quaternion = new THREE.Quaternion();
  matrix.decompose(position, quaternion, new THREE.Vector3());
  return { position, quaternion };
}

const toSpace = (point) => app.model.space.worldToLocal(point.clone()).toArray();

function spaceRotation(quaternion) {
  const spaceWorld = new THREE.Quaternion();
  app.model.space.getWorldQuaternion(spaceWorld);
  return spaceWorld.invert().multiply(quaternion).toArray();
}

// ---- solving ---------------------------------------------------------------------------------

function solve() {
  const { model, module, handles } = app;
  if (!model || app.playing) return;
  if (app.mode === 'puppet') {
    const targets = {};
    for (const part of PUPPET_PARTS) targets[part] = toSpace(handles[part].mesh.position);
    const look = $('model-look').checked && app.lookAt ? toSpace(app.lookAt) : null;
    app.outcome = module.solveBody(targets, look, MAX_ITERATIONS);
  } else {
    const handle = handles.tool.mesh;
    app.outcome = module.solve(app.effector, toSpace(handle.position),
      app.orientation ? spaceRotation(handle.quaternion) : null, app.solver, MAX_ITERATIONS);
  }
  applyPose();
  showReadout();
}

// Puts every handle on its bone (after a load, the rest pose or a clip).
function placeHandles() {
  for (const handle of Object.values(app.handles)) {
    const { position, quaternion } = boneInScene(handle.bone);
    handle.mesh.position.copy(position);
    handle.mesh.quaternion.copy(quaternion);
  }
  app.view.requestRender();
}

// ---- handles ---------------------------------------------------------------------------------

function clearHandles() {
  app.transform.detach();
  for (const { mesh } of Object.values(app.handles)) {
    mesh.geometry.dispose();
    app.view.scene.remove(mesh);
  }
  app.handles = {};
  app.selected = null;
}

function makeHandles(size) {
  clearHandles();
  const { module } = app;
  const names = app.mode === 'puppet' ? PUPPET_PARTS : ['tool'];
  for (const name of names) {
    const bone = name === 'tool' ? app.effector : module.humanoidBone(PART_ROLES[name]);
    // Drawn over the model, so a handle inside a skinned mesh (the head's) is still seen.
    const mesh = new THREE.Mesh(new THREE.SphereGeometry(size * 0.03, 24, 16),
      new THREE.MeshStandardMaterial({ color: 0xf76707, roughness: 0.35, transparent: true, opacity: 0.85,
        depthTest: false }));
    mesh.renderOrder = 1;
    mesh.name = name;
    app.view.scene.add(mesh);
    app.handles[name] = { mesh, bone };
  }
  placeHandles();
  select(names.includes('rightHand') ? 'rightHand' : names[0]);
}

function select(name) {
  app.selected = name;
  app.transform.attach(app.handles[name].mesh);
  app.transform.setMode(app.mode !== 'puppet' && app.orientation && app.rotating ? 'rotate' : 'translate');
  app.view.requestRender();
}

// The effector a robot's handle moves by default: the bone with the most hinges above it, then
// down through fixed joints while there is one child (the flange, the hand, the tool).
function defaultEffector(bones) {
  const hinges = bones.map(() => 0);
  bones.forEach((bone, b) => {
    hinges[b] = (bone.parent >= 0 ? hinges[bone.parent] : 0) + (bone.joint.type === 'hinge' ? 1 : 0);
  });
  let best = hinges.indexOf(Math.max(...hinges));
  for (;;) {
    const children = bones.flatMap((bone, b) => (bone.parent === best ? [b] : []));
    if (children.length !== 1 || bones[children[0]].joint.type !== 'fixed') return best;
    best = children[0];
  }
}

// ---- loading ---------------------------------------------------------------------------------

function modelSize(model) {
  const box = new THREE.Box3();
  for (const { position } of boneWorldPositions()) box.expandByPoint(position);
  // Only what is seen: a rod of a bone of no length is hidden, not sized.
  model.root.traverseVisible((object) => {
    if (object.isMesh && !object.isSkinnedMesh) box.expandByObject(object, true);
  });
  return box;
}

function boneWorldPositions() {
  return app.module.world().map((_, b) => boneInScene(b));
}

// A clip whose tracks all name bones of the character shown plays on it (the same skeleton by
// another file); any other skeleton needs retargeting, which this page does not do yet.
function clipFitsShown(clip) {
  const { model } = app;
  if (!model || model.kind !== 'character') return false;
  const names = new Set(model.nodes.map((node) => node.name));
  return clip.tracks.every((track) => names.has(track.name.split('.')[0]));
}

// Files chosen or dropped together: the first one the page reads as a model (a URDF first),
// with mesh files for a URDF's visuals.
async function openFiles(files) {
  const models = files.filter((f) => EXTENSIONS.includes(extensionOf(f.name)));
  const main = models.find((f) => extensionOf(f.name) === 'urdf') ?? models[0] ?? files[0];
  const meshes = new Map();
  for (const file of files) {
    if (MESH_EXTENSIONS.includes(extensionOf(file.name))) {
      meshes.set(file.name.toLowerCase(), { name: file.name, data: await file.arrayBuffer() });
    }
  }
  if (!models.length && meshes.size) {
    showMessage(`Could not read ${files.map((f) => f.name).join(', ')}: mesh files are drawn only with the URDF that names them; choose them together`);
    return false;
  }
  return openFile(main, meshes);
}

async function openFile(file, meshes = new Map()) {
  showMessage('');
  let model;
  try {
    model = await loadModelFile(file, meshes);
  } catch (error) {
    showMessage(`Could not read ${file.name}: ${error.message}`);
    return false;
  }
  if (extensionOf(file.name) === 'bvh' && model.clips.length && clipFitsShown(model.clips[0])) {
    useClip(model.clips[0], `${file.name} plays on ${app.model.fileName}`);
    return true;
  }
  const refused = app.module.load(model.bones, { naturalLimits: model.kind === 'character' });
  if (refused) {
    showMessage(`Could not use ${file.name}: ${refused}`);
    return false;
  }
  show(model);
  return true;
}

function show(model) {
  stopClip();
  if (app.model) {
    app.view.scene.remove(app.model.root);
    app.model.space.remove(app.figure.group);
  }
  app.model = model;
  app.mixer = null;
  app.view.scene.add(model.root);
  const { module } = app;
  app.mode = module.humanoid ? 'puppet' : 'effector';
  const moving = model.bones.map((bone) => bone.joint.type === 'hinge' || bone.joint.type === 'prismatic');
  // Build the figure at the rest pose, sized by the model.
  model.root.updateMatrixWorld(true);
  const box = modelSize(model);
  const size = box.getSize(new THREE.Vector3()).length() || 1;
  app.figure = new Figure(model.bones, moving, size, model.skinned || model.meshesDrawn > 0);
  model.space.add(app.figure.group);
  app.effector = model.kind === 'robot' ? defaultEffector(model.bones) : model.bones.length - 1;
  app.outcome = startPose();
  applyPose();
  // Framed as it starts (a robot's start pose is not its rest pose).
  model.root.updateMatrixWorld(true);
  app.view.frame(modelSize(model));
  app.size = size;
  app.lookAt = null;
  app.rotating = false;
  makeHandles(size);
  showPanel();
  if (model.clips.length) useClip(model.clips[0], '');
  showRetarget();
  showReadout();
}

// A robot starts with its joints in the middle of their ranges (a URDF's zero pose is often
// stretched out straight, where its Jacobian loses rank); a character in its rest pose.
function startPose() {
  return app.model.kind === 'robot' ? app.module.middle() : app.module.rest();
}

// ---- clips -----------------------------------------------------------------------------------

function useClip(clip, message) {
  const { model } = app;
  stopClip();
  app.clip = clip;
  app.mixer = new THREE.AnimationMixer(model.root);
  app.action = app.mixer.clipAction(clip);
  $('clip-section').hidden = false;
  $('clip-summary').textContent = `${clip.name || 'clip'}: ${clip.duration.toFixed(2)} s, ${clip.tracks.length} tracks` +
    (message ? ` (${message})` : '');
  app.clipSource = message;
}

function playClip() {
  if (!app.mixer) return;
  app.playing = true;
  app.transform.detach();
  app.action.paused = false;
  app.action.play();
  $('clip-play').textContent = 'pause';
  showReadout();
  app.view.animate((seconds) => {
    if (!app.playing) return false;
    app.mixer.update(seconds);
    // The clip poses the three.js bones; the module takes that pose, so the figure, the
    // readout and the puppet after a pause all start from it.
    app.model.nodes.forEach((node, b) => {
      if (app.model.bones[b].parent >= 0 || node.parent === app.model.space) {
        app.module.setLocal(b, node.position.toArray(), node.quaternion.toArray());
      }
    });
    app.figure.update(app.module.world());
    app.clipTime = app.action.time;
    placeHandles();
    return true;
  });
}

function stopClip() {
  if (!app.playing) return;
  app.playing = false;
  app.retargeting = false;
  if (app.action) app.action.paused = true;
  $('clip-play').textContent = 'play';
  $('retarget-play').textContent = 'play retargeted';
  if (app.selected) select(app.selected);
}

// ---- retargeting -----------------------------------------------------------------------------

function keepSource() {
  const refused = app.module.keepSource();
  if (refused) {
    showMessage(`Could not keep ${app.model.fileName} as the source: ${refused}`);
    return;
  }
  stopClip();
  app.source = new RetargetSource(app.model, app.clip);
  showMessage('');
  showRetarget();
}

function showRetarget() {
  const { source, model } = app;
  $('retarget-section').hidden = !source;
  if (!source) return;
  $('retarget-summary').textContent = `Source: ${source.clip.name || 'the clip'} of ${source.fileName}` +
    ` (${source.clip.duration.toFixed(2)} s), onto ${model.fileName}.`;
}

// The kept clip from its start, each frame carried onto the model shown.
function playRetargeted() {
  const { model, module, source } = app;
  const refused = module.startRetarget({ robot: model.kind === 'robot' });
  if (refused) {
    showMessage(`Could not retarget ${source.fileName} onto ${model.fileName}: ${refused}`);
    return;
  }
  stopClip();
  showMessage('');
  app.playing = true;
  app.retargeting = true;
  app.transform.detach();
  source.restart();
  $('retarget-play').textContent = 'stop';
  app.view.animate((seconds) => {
    if (!app.retargeting) return false;
    app.retargetTime = source.send(module, seconds);
    app.outcome = module.retargetFrame(seconds);
    if (app.outcome.status) {
      showMessage(`Retargeting stopped: ${app.outcome.statusText}`);
      stopClip();
      return false;
    }
    applyPose();
    placeHandles();
    showReadout();
    return true;
  });
}

// ---- the panel -------------------------------------------------------------------------------

function showPanel() {
  const { model, mode } = app;
  const puppet = mode === 'puppet';
  $('puppet-section').hidden = !puppet;
  $('effector-section').hidden = puppet;
  $('clip-section').hidden = !model.clips.length;
  const effector = $('model-effector');
  effector.replaceChildren(...model.bones.map((bone, b) => new Option(bone.name || `bone ${b}`, String(b)))
    .filter((_, b) => b > 0));
  effector.value = String(app.effector);
  const kind = model.kind === 'robot' ? `a robot, ${countValues()} joints` :
    `a character${model.skinned ? ' (skinned mesh)' : ''}${puppet ? ', a humanoid: full-body puppet' : ''}`;
  $('model-summary').textContent = `${model.fileName}: ${kind}, ${model.bones.length} bones` +
    (model.notes ? `; ${model.notes}` : '') + '.';
}

function countValues() {
  return app.model.bones.filter((bone) => bone.joint.type === 'hinge' || bone.joint.type === 'prismatic').length;
}

// The joint values by name: each hinge (degrees) and prismatic joint (units), in bone order.
function namedValues() {
  const values = app.module.values();
  const named = [];
  let k = 0;
  app.model.bones.forEach((bone) => {
    if (bone.joint.type !== 'hinge' && bone.joint.type !== 'prismatic') return;
    named.push({ name: bone.jointName || bone.name, type: bone.joint.type, value: values[k++] });
  });
  return named;
}

function showReadout() {
  const { outcome, model } = app;
  const rows = [
    ['solver', app.retargeting ? 'retargeting (full body)' : app.playing ? 'the clip' : app.mode === 'puppet' ? 'full body'
      : EFFECTOR_SOLVERS.find((s) => s.id === app.solver).name],
    ['iterations', String(outcome.iterations)],
    ['residual', outcome.residual.toPrecision(3)],
    ['angle residual', app.mode === 'puppet' || app.orientation ? `${(outcome.angleResidual * DEGREES).toFixed(2)}°` : 'not asked'],
    ['reached', outcome.reached ? 'yes' : 'no', outcome.reached ? 'good' : 'warn'],
    ['status', outcome.statusText, outcome.status === 0 ? 'good' : 'bad'],
  ];
  if (model.kind === 'robot') {
    for (const { name, type, value } of namedValues()) {
      rows.push([name, type === 'hinge' ? `${(value * DEGREES).toFixed(1)}°` : value.toFixed(4)]);
    }
  }
  const list = $('readout');
  list.replaceChildren(...rows.flatMap(([label, text, className]) => {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = text;
    if (className) dd.className = className;
    return [dt, dd];
  }));
}

// ---- input -----------------------------------------------------------------------------------

function wireInput() {
  const { view, transform } = app;
  const canvas = view.canvas;
  transform.addEventListener('dragging-changed', (event) => {
    view.controls.enabled = !event.value;
    if (!event.value) announce();
  });
  transform.addEventListener('objectChange', solve);
  transform.addEventListener('change', () => view.requestRender());

  // A click on a handle picks it; a pointer over the canvas is where the puppet's head looks.
  canvas.addEventListener('pointerdown', (event) => {
    if (transform.dragging || transform.axis !== null) return;
    const hits = view.ray(event.clientX, event.clientY)
      .intersectObjects(Object.values(app.handles).map((h) => h.mesh), false);
    if (hits.length) select(hits[0].object.name);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (app.mode !== 'puppet' || transform.dragging || !$('model-look').checked || app.playing) return;
    const head = app.handles.head.mesh.position;
    const toward = view.camera.position.clone().sub(head);
    const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(toward.clone().normalize(),
      head.clone().addScaledVector(toward, 0.5));
    const point = view.ray(event.clientX, event.clientY).ray.intersectPlane(plane, new THREE.Vector3());
    if (!point) return;
    app.lookAt = point;
    solve();
  });

  // The keyboard: the arrow keys move the picked handle in the plane facing the viewer (with
  // Shift, five times as far), N picks the next handle.
  canvas.addEventListener('keydown', (event) => {
    if (!app.model || app.playing) return;
    const names = Object.keys(app.handles);
    if (event.key === 'n' || event.key === 'N') {
      select(names[(names.indexOf(app.selected) + 1) % names.length]);
      $('key-status').textContent = `The arrow keys move the ${PART_NAMES[app.selected]}.`;
      return;
    }
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
    if (!steps) return;
    event.preventDefault();
    const step = app.size * 0.01 * (event.shiftKey ? 5 : 1);
    const right = new THREE.Vector3().setFromMatrixColumn(view.camera.matrixWorld, 0);
    const up = new THREE.Vector3().setFromMatrixColumn(view.camera.matrixWorld, 1);
    app.handles[app.selected].mesh.position.addScaledVector(right, steps[0] * step).addScaledVector(up, steps[1] * step);
    solve();
    announce();
  });

  $('model-file').addEventListener('change', async () => {
    const files = [...$('model-file').files];
    if (files.length) await openFiles(files);
    $('model-file').value = '';
  });
  const zone = $('drop-zone');
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dropping');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dropping'));
  zone.addEventListener('drop', async (event) => {
    event.preventDefault();
    zone.classList.remove('dropping');
    const files = [...event.dataTransfer.files];
    if (files.length) await openFiles(files);
  });
  for (const button of document.querySelectorAll('button.sample')) {
    button.addEventListener('click', () => openSample(button.dataset.file));
  }
  $('model-solver').replaceChildren(...EFFECTOR_SOLVERS.map((s) => new Option(s.name, String(s.id))));
  $('model-solver').addEventListener('change', () => {
    app.solver = Number($('model-solver').value);
    solve();
  });
  $('model-effector').addEventListener('change', () => {
    app.effector = Number($('model-effector').value);
    makeHandles(app.size);
    solve();
  });
  $('model-orient').addEventListener('change', () => {
    app.orientation = $('model-orient').checked;
    if (!app.orientation) app.rotating = false;
    // The handle takes the tool's present frame, so nothing jumps when orientation starts counting.
    if (app.orientation) app.handles.tool.mesh.quaternion.copy(boneInScene(app.effector).quaternion);
    $('gizmo-mode').disabled = !app.orientation;
    select(app.selected);
    solve();
  });
  $('gizmo-mode').disabled = true;
  $('gizmo-mode').addEventListener('click', () => {
    app.rotating = !app.rotating;
    $('gizmo-mode').textContent = app.rotating ? 'move the handle' : 'turn the handle';
    select(app.selected);
  });
  $('model-look').addEventListener('change', solve);
  $('clip-play').addEventListener('click', () => (app.playing ? stopClip() : playClip()));
  $('clip-keep').addEventListener('click', keepSource);
  $('retarget-play').addEventListener('click', () => (app.retargeting ? stopClip() : playRetargeted()));
  $('model-start').addEventListener('click', () => {
    stopClip();
    app.outcome = startPose();
    applyPose();
    placeHandles();
    showReadout();
  });
}

async function openSample(url) {
  const response = await fetch(url);
  if (!response.ok) {
    showMessage(`Could not fetch ${url}: ${response.status}`);
    return false;
  }
  const name = url.slice(url.lastIndexOf('/') + 1);
  return openFile({ name, arrayBuffer: () => response.arrayBuffer() });
}

function announce() {
  const { outcome } = app;
  $('solve-status').textContent = `${outcome.reached ? 'Reached' : 'Not reached'}: residual ` +
    `${outcome.residual.toPrecision(3)}, ${outcome.iterations} iterations.`;
}

// ---- the state the tests read ----------------------------------------------------------------

function snapshot() {
  if (!app.model) return Object.freeze({ ready: false, message: app.message });
  const { model, outcome, view } = app;
  const handles = {};
  for (const [name, { mesh, bone }] of Object.entries(app.handles)) {
    handles[name] = { bone, world: mesh.position.toArray(), target: toSpace(mesh.position),
      screen: view.toScreen(mesh.position), boneAt: app.module.world()[bone].position,
      drawnAt: model.nodes[bone].getWorldPosition(new THREE.Vector3()).toArray() };
  }
  const copy = {
    ready: true,
    file: model.fileName,
    kind: model.kind,
    mode: app.mode,
    humanoid: app.module.humanoid,
    skinned: model.skinned,
    meshesDrawn: model.meshesDrawn ?? 0,
    bones: model.bones.length,
    boneNames: model.bones.map((bone) => bone.name),
    solver: app.solver,
    effector: app.effector,
    orientation: app.orientation,
    selected: app.selected,
    handles,
    world: app.module.world(),
    values: model.kind === 'robot' ? namedValues() : [],
    readout: [...document.querySelectorAll('#readout dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent]),
    ...outcome,
    clip: app.mixer ? { name: app.clip.name, duration: app.clip.duration, playing: app.playing, time: app.action.time,
      source: app.clipSource } : null,
    retarget: app.source ? { source: app.source.fileName, clip: app.source.clip.name, playing: app.retargeting,
      frames: app.source.frames, time: app.retargetTime ?? 0, planted: outcome.planted ?? null } : null,
    message: app.message,
    renders: view.renders,
  };
  return JSON.parse(JSON.stringify(copy));
}

async function start() {
  const canvas = $('view');
  try {
    app.view = new View3d(canvas);
  } catch (error) {
    throw new Error(`this browser cannot draw 3-D here (WebGL: ${error.message})`);
  }
  app.reach = await loadReach('reach.wasm');
  const missing = MODEL_EXPORTS.filter((name) => !app.reach.has(name));
  if (missing.length) throw new Error(`reach.wasm lacks ${missing.join(', ')}`);
  app.module = new ModelModule(app.reach);
  app.transform = new TransformControls(app.view.camera, canvas);
  app.view.scene.add(app.transform.getHelper());
  $('library').textContent = `library ${app.reach.version} (${app.reach.precision}), running as WebAssembly`;
  wireInput();
  Object.defineProperty(window, 'reachState', { get: snapshot });
  await openSample('assets/panda.urdf');
}

start().catch((error) => {
  document.getElementById('library').textContent = `could not start: ${error.message}`;
  showMessage(`The page could not start: ${error.message}`);
  throw error;
});
