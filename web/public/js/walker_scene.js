// The walker scene: a creature that walks toward the target, which follows the pointer.
import { WalkerPainter } from './draw_walker.js';

const VIEW_EXTENT = 8; // world units from the centre to the nearer canvas edge
const SPEED_RANGE = { min: 0.2, max: 2, step: 0.1 }; // world units per second

export class WalkerScene {
  constructor(app) {
    this.app = app;
    this.legCount = null;
    this.speed = 1.5;
    this.outcome = null;
    this.painter = new WalkerPainter();
    this.follows = true; // the target follows the pointer even without a button pressed
  }

  enter(solver) {
    const { app } = this;
    this.solver = solver;
    if (!solver.legCounts.includes(this.legCount)) this.legCount = solver.legCounts[0];
    app.target[2] = 0;
    app.view.setAngles(0, 0);
    this.outcome = solver.start(app.reach, this.legCount);
    this.painter.reset();
    app.panel.showWalker(solver.legCounts, this.legCount, this.speed, SPEED_RANGE);
  }

  handles() {
    return { target: this.app.target };
  }

  goalMoved() {
    this.app.requestRender();
  }

  tick(dt) {
    this.outcome = this.solver.follow(this.app.reach, this.app.target, this.speed, dt);
  }

  // Returns an error to show, or ''.
  setLegCount(count) {
    const outcome = this.solver.start(this.app.reach, count);
    if (outcome.status !== 0) return outcome.statusText;
    this.legCount = count;
    this.outcome = outcome;
    this.painter.reset();
    return '';
  }

  setSpeed(speed) {
    this.speed = speed;
  }

  fit(width, height) {
    this.app.view.fit(width, height, VIEW_EXTENT);
  }

  draw(ctx) {
    this.painter.draw(ctx, this.app.view, this.outcome, this.app.target);
  }

  readout() {
    const { outcome } = this;
    const planted = outcome.legs.filter((leg) => leg.planted).length;
    const [x, y] = outcome.body.position;
    const distance = Math.hypot(this.app.target[0] - x, this.app.target[1] - y);
    return [
      ['feet planted', `${planted} of ${outcome.legs.length}`, ''],
      ['steps', String(outcome.steps), ''],
      ['forced steps', String(outcome.forcedSteps), outcome.forcedSteps ? 'warn' : ''],
      ['target distance', distance.toFixed(2), ''],
      ['status', outcome.statusText, outcome.status === 0 ? 'good' : 'bad'],
    ];
  }

  snapshot(onScreen) {
    const { outcome } = this;
    return {
      legCount: this.legCount,
      speed: this.speed,
      body: outcome.body,
      legs: outcome.legs,
      steps: outcome.steps,
      forcedSteps: outcome.forcedSteps,
      status: outcome.status,
      statusText: outcome.statusText,
      screen: { body: onScreen(outcome.body.position) },
    };
  }
}
