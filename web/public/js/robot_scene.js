// The robot arm scene: the UR5 whose tool follows the target, in position and, when asked, in
// orientation, with the Jacobian method of the user's choice.
import { drawRobotScene } from './draw_robot.js';

// Seen from in front of the tool and to the side, a little above: the arm reaches toward -x.
const VIEW = { yaw: 0.52, pitch: 0.36 };
const VIEW_EXTENT = 0.58; // metres from the centre to the nearer canvas edge
const VIEW_FOCUS = [-0.3, -0.05, 0.28];
const DEGREES = 180 / Math.PI;

const formatDegrees = (radians) => (Math.abs(radians) < 5e-4 ? 0 : radians * DEGREES).toFixed(1);

export class RobotScene {
  constructor(app) {
    this.app = app;
    this.solver = null;
    this.method = null;
    this.orientation = { enabled: false, turn: 0, tilt: 0 }; // rad
    this.maxIterations = 64;
    this.outcome = null;
  }

  enter(solver) {
    const { app } = this;
    this.solver = solver;
    if (!solver.methods.some((m) => m.method === this.method)) this.method = solver.methods[0].method;
    app.view.setWorld({ zUp: true });
    app.view.setAngles(VIEW.yaw, VIEW.pitch);
    this.ready();
    app.panel.showRobot(solver, { method: this.method, orientation: this.orientation });
  }

  // Back to the ready pose, with the target on the tool.
  ready() {
    this.outcome = this.solver.start(this.app.reach);
    this.app.target = this.outcome.frames[this.outcome.frames.length - 1].origin.slice();
    if (this.orientation.enabled) this.solve();
    this.app.requestRender();
  }

  handles() {
    return { target: this.app.target };
  }

  goalMoved() {
    this.solve();
  }

  solve() {
    const { app } = this;
    this.outcome = this.solver.solve(app.reach, {
      target: app.target,
      orientation: this.orientation,
      method: this.method,
      maxIterations: this.maxIterations,
    });
    app.requestRender();
  }

  setMethod(method) {
    this.method = method;
    this.solve();
  }

  setOrientation(orientation) {
    this.orientation = { ...orientation };
    this.solve();
  }

  fit(width, height) {
    this.app.view.fit(width, height, VIEW_EXTENT, VIEW_FOCUS);
  }

  tool() {
    return this.outcome.frames[this.outcome.frames.length - 1];
  }

  draw(ctx) {
    drawRobotScene(ctx, this.app.view, {
      frames: this.outcome.frames,
      goal: this.outcome.goal,
      target: this.app.target,
      orientation: this.orientation.enabled,
      reached: this.outcome.reached,
    });
  }

  readout() {
    const { outcome } = this;
    const rows = [
      ['iterations', String(outcome.iterations), ''],
      ['residual', `${(outcome.residual * 1000).toFixed(3)} mm`, ''],
    ];
    // Always listed, so the panel below does not shift when orientation is switched.
    const angle = this.orientation.enabled ? `${formatDegrees(outcome.angleResidual)}°` : 'not asked';
    rows.push(['angle residual', angle, '']);
    rows.push(['reached', outcome.reached ? 'yes' : 'no', outcome.reached ? 'good' : 'warn']);
    // The joint values three to a row, numbered as on the housings in the view.
    for (const first of [0, 3]) {
      const values = outcome.values.slice(first, first + 3).map(formatDegrees).join('\u2002');
      rows.push([`joints ${first + 1}–${first + 3}, °`, values, '']);
    }
    rows.push(['status', outcome.statusText, outcome.status === 0 ? 'good' : 'bad']);
    return rows;
  }

  announcement() {
    const { outcome } = this;
    if (outcome.status !== 0) return { text: `Not solved: ${outcome.statusText}.` };
    const angle = this.orientation.enabled ? `, angle ${formatDegrees(outcome.angleResidual)}°` : '';
    return {
      text: `${outcome.reached ? 'Reached' : 'Not reached'}: residual ${(outcome.residual * 1000).toFixed(3)} mm` +
        `${angle}, ${outcome.iterations} iterations.`,
    };
  }

  snapshot(onScreen) {
    const { outcome } = this;
    const tool = this.tool();
    return {
      method: this.method,
      orientation: { ...this.orientation },
      maxIterations: this.maxIterations,
      frames: outcome.frames,
      joints: outcome.frames.map((frame) => frame.origin),
      values: outcome.values,
      tool,
      goal: outcome.goal,
      iterations: outcome.iterations,
      residual: outcome.residual,
      angleResidual: outcome.angleResidual,
      reached: outcome.reached,
      status: outcome.status,
      statusText: outcome.statusText,
      screen: { tool: onScreen(tool.origin), joints: outcome.frames.map((frame) => onScreen(frame.origin)) },
    };
  }
}
