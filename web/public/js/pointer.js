// Input on the canvas: the pointer (mouse, pen and touch alike, through pointer events) drags a
// handle, places the target with a click in 2-D and turns the view in 3-D; on the focused
// canvas the keyboard does the same (KEYS below). A dragged handle stays inside the canvas.

import { HANDLE_RADIUS } from './draw.js';
import { insideCanvas } from './view.js';

const ORBIT_RADIANS_PER_PIXEL = 0.008;
// A press that moves less than this (pixels) before it ends is a tap, not a turn of the view.
const TAP_PIXELS = 5;
// A fingertip covers more than a mouse pointer does.
const GRAB_SLACK = { mouse: 6, pen: 8, touch: 18 };
// The keyboard: the arrow keys move the target by this many pixels (with Shift, by the larger
// step), or the pole once P has switched to it (P again: back to the target); in 3-D, W, A, S
// and D turn the view by KEY_TURN radians. (Alt with an arrow key is the browser's back and
// forward.)
const KEY_STEP = 8;
const KEY_STEP_LARGE = 40;
const KEY_TURN = 0.1;
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const TURNS = { a: [-1, 0], d: [1, 0], w: [0, -1], s: [0, 1] };

export class Pointer {
  // handles(): { name: world point } in grab priority order; callbacks:
  //   moveHandle(name, world)   a handle was dragged (or, in 2-D, placed) to a world point
  //   turnView(yaw, pitch)      3-D: the view was turned
  //   is3d()                    whether empty space turns the view (3-D) or places the target
  //   follows()                 whether the target follows the pointer with no button pressed
  //                             (in 3-D a tap also places it, for touch screens)
  //   pick([x, y])              the world point a canvas point places the target on, or null
  //   goal()                    the target's world point (for the keys, where it is no handle)
  //   keysMove(name)            the arrow keys now move this handle ('target' or 'pole')
  //   actionEnded()             a drag, tap or turn was let go, or an arrow key moved the target
  //                             or the pole (the pointer merely passing over the canvas is none)
  constructor(canvas, view, { handles, moveHandle, turnView, is3d, follows, pick, goal, keysMove, actionEnded }) {
    Object.assign(this, { canvas, view, handles, moveHandle, turnView, is3d, follows, pick, goal, keysMove,
      actionEnded });
    this.gesture = null;
    this.keyHandle = 'target'; // what the arrow keys move
    canvas.addEventListener('pointerdown', (event) => this.down(event));
    canvas.addEventListener('pointermove', (event) => this.move(event));
    canvas.addEventListener('pointerup', (event) => this.up(event));
    canvas.addEventListener('pointercancel', (event) => this.up(event));
    canvas.addEventListener('keydown', (event) => this.key(event));
  }

  local(event) {
    const rect = this.canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  }

  // A canvas point brought inside the canvas: a handle dragged past its edge (the pointer is
  // captured, so it may go anywhere) stays where it can be seen and grabbed again.
  inside(point) {
    const rect = this.canvas.getBoundingClientRect();
    return insideCanvas(point, rect.width, rect.height, HANDLE_RADIUS);
  }

  // The handle under the pointer, nearest first within the grab radius.
  hit([x, y], pointerType) {
    const reach = HANDLE_RADIUS + (GRAB_SLACK[pointerType] ?? GRAB_SLACK.mouse);
    let best = null;
    for (const [name, world] of Object.entries(this.handles())) {
      const p = this.view.project(world);
      const distance = Math.hypot(p[0] - x, p[1] - y);
      if (distance <= reach && (!best || distance < best.distance)) best = { name, p, distance };
    }
    return best;
  }

  down(event) {
    if (event.button !== 0 || this.gesture) return;
    const at = this.local(event);
    const grabbed = this.hit(at, event.pointerType);
    if (grabbed) {
      // Keep the grab offset, so the handle does not jump to the pointer.
      this.gesture = { kind: 'drag', name: grabbed.name, offset: [grabbed.p[0] - at[0], grabbed.p[1] - at[1]],
        depth: grabbed.p[2] };
    } else if (this.is3d()) {
      this.gesture = { kind: 'turn', start: at, yaw: this.view.yaw, pitch: this.view.pitch };
    } else {
      this.gesture = { kind: 'drag', name: 'target', offset: [0, 0], depth: 0 };
      this.place(at);
    }
    this.pointerId = event.pointerId;
    this.canvas.setPointerCapture(event.pointerId);
    this.canvas.classList.add(this.gesture.kind === 'turn' ? 'turning' : 'dragging');
    event.preventDefault();
  }

  move(event) {
    const at = this.local(event);
    const g = this.gesture;
    if (!g) {
      if (this.follows()) this.place(at);
      else this.canvas.classList.toggle('over-handle', this.hit(at, event.pointerType) !== null);
      return;
    }
    if (event.pointerId !== this.pointerId) return;
    if (g.kind === 'drag') {
      const [x, y] = this.inside([at[0] + g.offset[0], at[1] + g.offset[1]]);
      this.moveHandle(g.name, this.view.unproject(x, y, g.depth));
    } else {
      const dx = at[0] - g.start[0], dy = at[1] - g.start[1];
      this.turnView(g.yaw + dx * ORBIT_RADIANS_PER_PIXEL, g.pitch + dy * ORBIT_RADIANS_PER_PIXEL);
    }
  }

  key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const handles = this.handles();
    if (event.key.toLowerCase() === 'p' && handles.pole) {
      this.keyHandle = this.keyHandle === 'pole' ? 'target' : 'pole';
      this.keysMove(this.keyHandle);
      event.preventDefault();
      return;
    }
    const arrow = ARROWS[event.key];
    if (arrow) {
      const name = this.keyHandle === 'pole' && handles.pole ? 'pole' : 'target';
      const world = handles[name] ?? this.goal();
      const p = this.view.project(world);
      const step = event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
      const at = this.inside([p[0] + arrow[0] * step, p[1] + arrow[1] * step]);
      // A handle moves in the plane facing the viewer, as a drag moves it; where the target is
      // no handle (it follows the pointer), it goes where the pointer would put it.
      if (handles[name]) this.moveHandle(name, this.view.unproject(at[0], at[1], p[2]));
      else this.place(at);
      event.preventDefault();
      this.actionEnded();
      return;
    }
    const turn = this.is3d() ? TURNS[event.key.toLowerCase()] : undefined;
    if (turn) {
      this.turnView(this.view.yaw + turn[0] * KEY_TURN, this.view.pitch + turn[1] * KEY_TURN);
      event.preventDefault();
    }
  }

  // Back to the arrow keys moving the target (a new solver starts so).
  resetKeys() {
    if (this.keyHandle !== 'target') this.keysMove('target');
    this.keyHandle = 'target';
  }

  place(at) {
    const world = this.pick(at);
    if (world) this.moveHandle('target', world);
  }

  up(event) {
    const g = this.gesture;
    if (!g || event.pointerId !== this.pointerId) return;
    const at = this.local(event);
    if (g.kind === 'turn' && this.follows() && Math.hypot(at[0] - g.start[0], at[1] - g.start[1]) < TAP_PIXELS) {
      this.place(at);
    }
    this.gesture = null;
    this.canvas.classList.remove('dragging', 'turning');
    this.actionEnded();
  }
}
