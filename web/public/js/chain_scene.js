// The IK chain scene: a chain solver, a target (and a pole), the bones, soft IK, bend limits
// and the iteration cap, as far as the solver takes them.
import { HANDLE_RADIUS, drawChainScene } from './draw.js';
import { LENGTH_RANGE } from './panel.js';

const VIEW_3D = { yaw: -0.55, pitch: 0.42 };

const sub = (a, b) => a.map((v, i) => v - b[i]);
const sum = (values) => values.reduce((total, v) => total + v, 0);

function formatNumber(value) {
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && Math.abs(value) < 1e-3) return value.toExponential(2);
  return value.toFixed(4);
}

export class ChainScene {
  constructor(app) {
    this.app = app;
    this.solver = null;
    this.lengths = [];
    this.chains = {}; // the chain last used by each kind of bones (solver.bones), kept across switches
    this.soft = { enabled: false, distance: 0.2 };
    this.limit = Math.PI; // the largest bend between neighbouring bones, rad
    this.maxIterations = 64;
    this.outcome = null;
    this.saved = null;
  }

  enter(solver) {
    const { app } = this;
    // Back from another scene: the handles where this one left them.
    if (this.saved) {
      Object.assign(app, this.saved);
      this.saved = null;
    }
    const flat = solver.dims === 2;
    app.view.setWorld();
    // A 2-D solver works in the z = 0 plane: bring the handles back into it.
    if (flat) for (const point of [app.target, app.pole]) point[2] = 0;
    app.view.setAngles(flat ? 0 : VIEW_3D.yaw, flat ? 0 : VIEW_3D.pitch);
    // The chain carries over between solvers that take the same bones (the two-bone pair, or the
    // longer chains of FABRIK, CCD and the Jacobian methods), and each comes back as it was left.
    if (this.solver) this.chains[JSON.stringify(this.solver.bones)] = this.lengths;
    this.lengths = this.chains[JSON.stringify(solver.bones)] ?? solver.defaultLengths.slice();
    this.solver = solver;
    // A fresh chain, so a 3-D pose never reaches a 2-D solver.
    app.reach.resetChain(this.lengths);
    const { lengths, soft, limit, maxIterations } = this;
    app.panel.showChain({ lengths, bones: solver.bones, soft, limit, maxIterations });
    this.solve();
  }

  // Another scene takes over the handles (they are in its world, not this one's).
  leave() {
    this.saved = { target: this.app.target.slice(), pole: this.app.pole.slice() };
  }

  handles() {
    const { target, pole } = this.app;
    return this.solver.usesPole ? { target, pole } : { target };
  }

  goalMoved() {
    this.solve();
  }

  solve() {
    const { app, soft } = this;
    const goal = {
      target: app.target,
      pole: app.pole,
      softDistance: soft.enabled ? soft.distance : 0,
      limit: this.limit,
      maxIterations: this.maxIterations,
    };
    this.outcome = this.solver.solve(app.reach, goal);
    app.requestRender();
  }

  // Returns an error to show, or '' when the chain took the new length.
  setBoneLength(bone, value) {
    if (!(value >= LENGTH_RANGE.min && value <= LENGTH_RANGE.max)) {
      return `length must be a number from ${LENGTH_RANGE.min} to ${LENGTH_RANGE.max}`;
    }
    const status = this.app.reach.setBoneLength(bone, value);
    if (status !== 0) return this.app.reach.statusText(status);
    this.lengths[bone] = value;
    this.app.resize();
    this.solve();
    return '';
  }

  // A longer chain grows by bones as long as its last one; a new chain starts straight.
  setBoneCount(count) {
    const { min, max } = this.solver.bones;
    if (!(count >= min && count <= max) || count === this.lengths.length) return;
    while (this.lengths.length < count) this.lengths.push(this.lengths[this.lengths.length - 1]);
    this.lengths.length = count;
    this.app.reach.resetChain(this.lengths);
    this.app.panel.showBones(this.lengths);
    this.app.resize();
    this.solve();
  }

  setLimit(radians) {
    this.limit = Math.min(Math.max(radians, 1e-3), Math.PI);
    this.solve();
  }

  setIterationCap(count) {
    this.maxIterations = count;
    this.solve();
  }

  setSoft(enabled, distance) {
    this.soft = { enabled, distance };
    this.solve();
  }

  // What the canvas shows: the chain at full stretch with room around it, in 3-D with the view
  // lowered to take in the floor under it. Each view frames the world differently (and a 2-D
  // view flattens what a 3-D one dragged out of the plane), so a handle that the last view, or
  // the last size of the canvas, showed near its edge may now lie past it: it comes back inside,
  // in the plane facing the viewer, where it can be seen and grabbed, and the chain follows.
  fit(width, height) {
    const { app } = this;
    const reach = sum(this.lengths);
    if (this.solver.dims === 3) app.view.fit(width, height, Math.max(2.7, 1.45 * reach), [0, -0.45 * reach, 0]);
    else app.view.fit(width, height, Math.max(2.5, 1.3 * reach));
    const target = app.view.keptOnCanvas(app.target, HANDLE_RADIUS);
    const pole = app.view.keptOnCanvas(app.pole, HANDLE_RADIUS);
    if (target === app.target && pole === app.pole) return;
    Object.assign(app, { target, pole });
    this.solve();
  }

  range() {
    return [Math.max(0, 2 * Math.max(...this.lengths) - sum(this.lengths)), sum(this.lengths)];
  }

  draw(ctx) {
    const { app, outcome, soft } = this;
    drawChainScene(ctx, app.view, {
      dims: this.solver.dims,
      joints: outcome.pose,
      alternative: outcome.alternative,
      target: app.target,
      pole: this.solver.usesPole ? app.pole : null,
      lengths: this.lengths,
      softDistance: soft.enabled ? soft.distance : 0,
      limit: this.solver.limits ? this.limit : Math.PI,
      reached: outcome.reached,
      // The handle the arrow keys move, while the canvas has the focus.
      keyHandle: document.activeElement === ctx.canvas ? app.keyHandle : null,
    });
  }

  // Rows for the panel's readout: [label, text, class].
  readout() {
    const { outcome } = this;
    const [inner, outer] = this.range();
    return [
      ['iterations', this.solver.closedForm ? 'closed form' : String(outcome.iterations), ''],
      ['residual', formatNumber(outcome.residual), ''],
      ['reached', outcome.reached ? 'yes' : 'no', outcome.reached ? 'good' : 'warn'],
      ['target distance', formatNumber(Math.hypot(...sub(this.app.target, outcome.pose[0]))), ''],
      ['reach range', `${inner.toFixed(2)} – ${outer.toFixed(2)}`, ''],
      ['status', outcome.statusText, outcome.status === 0 ? 'good' : 'bad'],
    ];
  }

  // The sentence a screen reader hears after the user's action: the readout's gist.
  announcement() {
    const { outcome } = this;
    if (outcome.status !== 0) return { text: `Not solved: ${outcome.statusText}.` };
    const work = this.solver.closedForm ? 'closed form' : `${outcome.iterations} iterations`;
    const distance = formatNumber(Math.hypot(...sub(this.app.target, outcome.pose[0])));
    return {
      text: `${outcome.reached ? 'Reached' : 'Not reached'}: residual ${formatNumber(outcome.residual)}, ${work}, ` +
        `target ${distance} from the root.`,
    };
  }

  // This scene's part of window.reachState; onScreen maps a world point to client pixels.
  snapshot(onScreen) {
    const { outcome } = this;
    return {
      closedForm: this.solver.closedForm,
      lengths: this.app.reach.boneLengths(),
      limit: this.limit,
      maxIterations: this.maxIterations,
      softIK: { ...this.soft },
      pole: this.app.pole.slice(),
      joints: outcome.pose,
      alternative: outcome.alternative,
      iterations: outcome.iterations,
      residual: outcome.residual,
      reached: outcome.reached,
      status: outcome.status,
      statusText: outcome.statusText,
      screen: { pole: onScreen(this.app.pole), joints: outcome.pose.map(onScreen) },
    };
  }
}
