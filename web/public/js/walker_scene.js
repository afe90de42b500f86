// The walker scene: a creature that walks toward the target, which follows the pointer: from
// above on flat ground, or in 3-D on a terrain, where the target is the point of the ground
// under the pointer.
import { WalkerPainter } from './draw_walker.js';
import { WalkerPainter3d } from './draw_walker_3d.js';
import { TERRAIN_HALF, Terrain } from './terrain.js';

const VIEW_EXTENT = { 2: 8, 3: 7.6 }; // world units from the centre to the nearer canvas edge
// From above, how far inside the canvas's edge the goal stays (world units). A joint of the
// standard creature strays up to 2.8 from the body's centre as it walks (2.76 with eight legs,
// over many seeded walks), and the body stops short of the goal: with room for the rings of
// lifted feet and the arcs of its turns, the whole creature stays in view.
const IN_VIEW_MARGIN = 3;
// The body eases to a stop 0.3 from the goal (web/wasm/walker.c), creeping over the last part:
// this close, it has arrived.
const ARRIVED_DISTANCE = 0.5;
const SPEED_RANGE = { min: 0.2, max: 2, step: 0.1 }; // world units per second
// 3-D: the view starts from behind and to the side, above, and never tips so low that the
// pointer's ray would miss the ground or meet it far away.
const VIEW_3D = { yaw: -0.45, pitch: 0.75 };
const PITCH_RANGE_3D = [0.45, 1.45];
// Rounds of "meet the plane at the last height, read the height there" to find the ground
// under the pointer; each one shrinks the error by the slope times cot(pitch), under 0.6 here.
const PICK_ROUNDS = 12;

export class WalkerScene {
  constructor(app) {
    this.app = app;
    this.legCount = null;
    this.terrain = null; // one of the solver's terrains
    this.chosen = {}; // per solver id: the leg count and terrain last used, so each keeps its own
    this.speed = 1.5;
    this.outcome = null;
    this.ground = new Terrain(app.reach);
    this.painters = { 2: new WalkerPainter(), 3: new WalkerPainter3d(this.ground) };
    this.follows = true; // the target follows the pointer even without a button pressed
    this.halfView = [VIEW_EXTENT[2], VIEW_EXTENT[2]]; // world units from the view's centre to its edges
  }

  enter(solver) {
    const { app } = this;
    this.solver = solver;
    this.chosen[solver.id] ??= { legCount: solver.legCounts[0], terrain: solver.terrains[0] };
    ({ legCount: this.legCount, terrain: this.terrain } = this.chosen[solver.id]);
    if (solver.dims === 3) {
      app.view.setWorld({ zUp: true, pitchRange: PITCH_RANGE_3D });
      app.view.setAngles(VIEW_3D.yaw, VIEW_3D.pitch);
    } else {
      app.view.setWorld();
      app.view.setAngles(0, 0);
    }
    this.restart(this.legCount);
    // From above the target stays where it was, in the plane; in 3-D the creature stands where
    // it starts until the pointer moves.
    app.target = solver.dims === 3 ? [0, 0, this.ground.height(0, 0)] : [app.target[0], app.target[1], 0];
    app.panel.showWalker(solver, this.legCount, this.terrain, this.speed, SPEED_RANGE);
  }

  // Starts the creature afresh; returns the outcome (check its status).
  restart(legCount) {
    const outcome = this.solver.start(this.app.reach, legCount, this.terrain);
    if (outcome.status !== 0) return outcome;
    this.outcome = outcome;
    this.legCount = legCount;
    this.chosen[this.solver.id] = { legCount, terrain: this.terrain };
    if (this.solver.dims === 3) this.ground.rebuild();
    this.painter = this.painters[this.solver.dims];
    this.painter.reset();
    return outcome;
  }

  // 3-D has no handle to grab: the target is wherever the pointer is over the ground, and a
  // drag turns the view.
  handles() {
    return this.solver.dims === 3 ? {} : { target: this.app.target };
  }

  // The world point under the canvas point at: on the plane in 2-D, on the terrain in 3-D.
  pick([x, y]) {
    const { view } = this.app;
    if (this.solver.dims === 2) return view.unproject(x, y, 0);
    const origin = view.unproject(x, y, 0);
    const toward = view.towardViewer();
    if (!(toward[2] > 0.1)) return null;
    let ground = [origin[0], origin[1]];
    let height = 0;
    for (let round = 0; round < PICK_ROUNDS; round++) {
      const t = (height - origin[2]) / toward[2];
      ground = this.ground.clamp(origin[0] + t * toward[0], origin[1] + t * toward[1]);
      height = this.ground.height(ground[0], ground[1]);
    }
    return [ground[0], ground[1], height];
  }

  goalMoved() {
    if (this.solver.dims === 2) this.app.target = this.keptInView(this.app.target);
    this.app.requestRender();
  }

  // A goal from above brought inside the margin that keeps the walking creature on the canvas;
  // a canvas too small for the margin keeps the goal at its middle.
  keptInView([x, y, z]) {
    const [halfWidth, halfHeight] = this.halfView;
    const within = (value, half) => {
      const room = Math.max(0, half - IN_VIEW_MARGIN);
      return Math.min(room, Math.max(-room, value));
    };
    return [within(x, halfWidth), within(y, halfHeight), z];
  }

  tick(dt) {
    this.outcome = this.solver.follow(this.app.reach, this.app.target, this.speed, dt);
  }

  // Returns an error to show, or ''.
  setLegCount(count) {
    const outcome = this.restart(count);
    return outcome.status === 0 ? '' : outcome.statusText;
  }

  setTerrain(name) {
    const terrain = this.solver.terrains.find((t) => t.name === name);
    if (!terrain) return `no terrain called ${name}`;
    const previous = this.terrain;
    this.terrain = terrain;
    const outcome = this.restart(this.legCount);
    if (outcome.status !== 0) this.terrain = previous;
    return outcome.status === 0 ? '' : outcome.statusText;
  }

  setSpeed(speed) {
    this.speed = speed;
  }

  // A canvas that shrank may have left the goal, and the creature with it, near or past its new
  // edge: the goal comes back inside, and the creature walks back into view.
  fit(width, height) {
    const { view } = this.app;
    view.fit(width, height, VIEW_EXTENT[this.solver.dims]);
    this.halfView = [width / (2 * view.scale), height / (2 * view.scale)];
    if (this.solver.dims === 2) this.app.target = this.keptInView(this.app.target);
  }

  draw(ctx) {
    this.painter.draw(ctx, this.app.view, this.outcome, this.app.target);
  }

  readout() {
    const { outcome } = this;
    const planted = outcome.legs.filter((leg) => leg.planted).length;
    const [x, y, z] = outcome.body.position;
    const distance = Math.hypot(this.app.target[0] - x, this.app.target[1] - y);
    const rows = [
      ['feet planted', `${planted} of ${outcome.legs.length}`, ''],
      ['steps', String(outcome.steps), ''],
      ['forced steps', String(outcome.forcedSteps), outcome.forcedSteps ? 'warn' : ''],
      ['target distance', distance.toFixed(2), ''],
    ];
    if (this.solver.dims === 3) rows.push(['body height', (z - this.ground.height(x, y)).toFixed(2), '']);
    rows.push(['status', outcome.statusText, outcome.status === 0 ? 'good' : 'bad']);
    return rows;
  }

  // While the creature walks, what a screen reader hears says so; the announcer says where it
  // came to rest once it stands at the goal.
  announcement() {
    const { outcome } = this;
    if (outcome.status !== 0) return { text: `Stopped: ${outcome.statusText}.` };
    const [x, y] = outcome.body.position;
    const distance = Math.hypot(this.app.target[0] - x, this.app.target[1] - y);
    if (distance > ARRIVED_DISTANCE) {
      return { text: `Walking to the target, ${distance.toFixed(1)} away.`, moving: true };
    }
    const planted = outcome.legs.filter((leg) => leg.planted).length;
    const forced = outcome.forcedSteps ? `, ${outcome.forcedSteps} forced steps` : '';
    return {
      text: `Arrived, ${distance.toFixed(2)} from the target: ${planted} of ${outcome.legs.length} feet planted, ` +
        `${outcome.steps} steps${forced}.`,
    };
  }

  snapshot(onScreen) {
    const { outcome } = this;
    return {
      legCount: this.legCount,
      terrain: this.terrain.name,
      terrainHalf: TERRAIN_HALF,
      speed: this.speed,
      body: outcome.body,
      legs: outcome.legs,
      steps: outcome.steps,
      forcedSteps: outcome.forcedSteps,
      status: outcome.status,
      statusText: outcome.statusText,
      screen: {
        body: onScreen(outcome.body.position),
        feet: outcome.legs.map((leg) => onScreen(leg.joints[leg.joints.length - 1])),
      },
    };
  }
}
