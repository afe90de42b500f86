// The crowd scene: a grid of limbs on the ground (two-bone arms, or tentacles solved by batch
// FABRIK), all reaching for the target, which hovers at a fixed height under the pointer. One
// batch call solves them all; the scene times it.
import { drawCrowdScene } from './draw_crowd.js';

const VIEW = { yaw: -0.5, pitch: 0.8 };
const PITCH_RANGE = [0.3, 1.45];
// Browsers coarsen their clock (to 0.1 ms in some), longer than one batch call can take, so the
// time shown is measured over repeated calls: again for this long, at most this often.
const TIMING_WINDOW_MS = 4;
const TIMING_EVERY_MS = 500;
// The first calls after a start run code the browser has not optimised yet, so a start is timed
// again after these delays (ms) even when the pointer does not move: the figure settles.
const RETIME_AFTER_MS = [300, 1200];

export class CrowdScene {
  constructor(app) {
    this.app = app;
    this.solver = null;
    this.counts = {}; // the crowd size chosen for each solver, kept across switches
    this.outcome = null;
    this.timing = { perCall: null, calls: 0, at: -Infinity };
    this.retimers = []; // the pending re-timings of the crowd last started
    this.follows = true; // the target follows the pointer even without a button pressed
  }

  leave() {
    this.cancelRetimes();
  }

  enter(solver) {
    const { app } = this;
    this.solver = solver;
    app.view.setWorld({ zUp: true, pitchRange: PITCH_RANGE });
    app.view.setAngles(VIEW.yaw, VIEW.pitch);
    app.target = [0, 0, this.solver.targetHeight];
    app.panel.showCrowd(solver, this.arms);
    const error = this.setArmCount(this.arms);
    if (error) app.panel.showCrowdError(error);
  }

  // Returns an error to show, or ''. A refused count leaves the crowd as the module holds it
  // (the last good one, or none yet), shown with the refusal as its status.
  setArmCount(arms) {
    this.cancelRetimes();
    this.outcome = this.solver.start(this.app.reach, arms);
    this.timing = { perCall: null, calls: 0, at: -Infinity };
    if (this.outcome.status !== 0) {
      this.app.requestRender();
      return this.outcome.statusText;
    }
    this.counts[this.solver.id] = arms;
    this.app.resize();
    this.solve();
    this.retimeSoon();
    return '';
  }

  retimeSoon() {
    this.cancelRetimes();
    const { solver } = this;
    this.retimers = RETIME_AFTER_MS.map((delay) =>
      setTimeout(() => {
        // Only while this solver's crowd is on screen and its last solve succeeded.
        if (this.app.scene !== this || this.solver !== solver || this.outcome?.status !== 0) return;
        this.time();
        this.app.requestRender();
      }, delay));
  }

  cancelRetimes() {
    for (const id of this.retimers) clearTimeout(id);
    this.retimers = [];
  }

  // The present solver's crowd size: the last it took, or its default.
  get arms() {
    return this.counts[this.solver.id] ?? this.solver.defaultArms;
  }

  handles() {
    return {};
  }

  // The point of the target's plane under the canvas point.
  pick([x, y]) {
    const { view } = this.app;
    const origin = view.unproject(x, y, 0);
    const toward = view.towardViewer();
    if (!(toward[2] > 0.1)) return null;
    const t = (this.solver.targetHeight - origin[2]) / toward[2];
    return [origin[0] + t * toward[0], origin[1] + t * toward[1], this.solver.targetHeight];
  }

  goalMoved() {
    this.solve();
  }

  solve() {
    const status = this.solver.follow(this.app.reach, this.app.target);
    this.outcome = this.solver.outcome(this.app.reach, status);
    if (status === 0 && performance.now() - this.timing.at > TIMING_EVERY_MS) this.time();
    this.app.requestRender();
  }

  // Solves the same frame again, until the clock has run long enough to be read: for the arms,
  // the same target from the pose just solved, which gives the same pose by the same work; for
  // an iterating solver, from the pose the frame started from (its again()).
  time() {
    const { solver } = this;
    const started = performance.now();
    let calls = 0, elapsed = 0;
    do {
      if (solver.again) solver.again(this.app.reach);
      else solver.follow(this.app.reach, this.app.target);
      calls++;
      elapsed = performance.now() - started;
    } while (elapsed < TIMING_WINDOW_MS);
    this.timing = { perCall: elapsed / calls, calls, at: performance.now() };
  }

  // The whole grid, with room for the limbs that lean out over its edge. Turned about the
  // vertical, the grid spans up to its diagonal (√2 of its side) across the screen, and as much up
  // it when the view looks straight down: fitted for the worst, it stays in view however the view
  // turns.
  fit(width, height) {
    const half = (this.solver.spacing * (Math.ceil(Math.sqrt(this.arms)) - 1)) / 2;
    this.app.view.fit(width, height, Math.SQRT2 * half + this.solver.overhang);
  }

  draw(ctx) {
    drawCrowdScene(ctx, this.app.view, this.outcome, this.app.target);
  }

  readout() {
    const { outcome, solver } = this;
    const count = outcome.limbs.length;
    const reached = outcome.reached.filter(Boolean).length;
    const time = this.timing.perCall;
    const measured = (text) => (time === null ? '—' : text);
    const rows = [
      [solver.members, String(count), ''],
      ['reached', `${reached} of ${count}`, ''],
    ];
    if (outcome.iterations && count > 0) {
      const mean = outcome.iterations.reduce((sum, n) => sum + n, 0) / count;
      rows.push(['iterations', `${mean.toFixed(1)} mean, ${Math.max(...outcome.iterations)} most`, '']);
    }
    return [
      ...rows,
      ['batch solve', measured(`${time?.toFixed(3)} ms`), ''],
      [`per ${solver.member}`, measured(`${Math.round((time * 1e6) / count)} ns`), ''],
      ['batch path', outcome.isa, ''],
      ['status', outcome.statusText, outcome.status === 0 ? 'good' : 'bad'],
    ];
  }

  announcement() {
    const { outcome, solver } = this;
    if (outcome.status !== 0) return { text: `Not solved: ${outcome.statusText}.` };
    const count = outcome.limbs.length;
    const reached = outcome.reached.filter(Boolean).length;
    const time = this.timing.perCall === null ? '' : `; one batch call takes ${this.timing.perCall.toFixed(3)} ms`;
    return { text: `${reached} of ${count} ${solver.members} reached the target${time}.` };
  }

  snapshot(onScreen) {
    const { outcome } = this;
    return {
      arms: this.arms,
      roots: outcome.roots,
      mids: outcome.mids,
      ends: outcome.ends,
      limbs: outcome.limbs,
      iterations: outcome.iterations,
      residuals: outcome.residuals,
      reachedArms: outcome.reached,
      isa: outcome.isa,
      msPerCall: this.timing.perCall,
      timedAt: this.timing.at,
      now: performance.now(),
      status: outcome.status,
      statusText: outcome.statusText,
      screen: { roots: outcome.roots.map(onScreen) },
    };
  }
}
