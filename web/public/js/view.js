// The camera: world to canvas pixels and back. Orthographic, so a drag moves a handle in the
// plane facing the viewer by exactly the pointer's motion, and a sphere of radius r draws as a
// circle of radius r × scale. The 2-D view is the same camera looking straight down -z with no
// turn. The chains' world has y up; the robot's and the walker's (as the library's walker and
// DH tables have it) z up, which the camera turns into its own y-up frame.

const PITCH_RANGE = [-1.45, 1.45];

// z up → y up, keeping the handedness: (x, y, z) → (x, z, -y), and back.
const fromZUp = (p) => [p[0], p[2], -p[1]];
const toZUp = (p) => [p[0], -p[2], p[1]];

// A canvas point brought at least `margin` pixels inside a canvas of width × height (to its
// middle, on a canvas too small for the margin).
export function insideCanvas([x, y], width, height, margin) {
  const mx = Math.min(margin, width / 2), my = Math.min(margin, height / 2);
  return [Math.min(Math.max(x, mx), width - mx), Math.min(Math.max(y, my), height - my)];
}

export class View {
  constructor() {
    this.yaw = 0;
    this.pitch = 0;
    this.scale = 100; // pixels per world unit
    this.centerX = 0; // canvas pixels of the focus point
    this.centerY = 0;
    this.width = 0; // the canvas's size in CSS pixels, as last fitted
    this.height = 0;
    this.focus = [0, 0, 0]; // the world point drawn at the centre
    this.rows = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    this.zUp = false;
    this.pitchRange = PITCH_RANGE;
  }

  // Which way is up in the world, and how far the view may tip (rad; positive looks down).
  setWorld({ zUp = false, pitchRange = PITCH_RANGE } = {}) {
    this.zUp = zUp;
    this.pitchRange = pitchRange;
  }

  // Fits a world extent (half-width around the focus point) into a canvas of width × height.
  fit(width, height, extent, focus = [0, 0, 0]) {
    this.focus = this.zUp ? fromZUp(focus) : focus;
    this.scale = Math.min(width, height) / (2 * extent);
    this.centerX = width / 2;
    this.centerY = height / 2;
    this.width = width;
    this.height = height;
  }

  // The world point moved in the plane facing the viewer (at its depth) until it is drawn at
  // least `margin` pixels inside the canvas; a point already there comes back unchanged.
  keptOnCanvas(world, margin) {
    const [x, y, depth] = this.project(world);
    const [insideX, insideY] = insideCanvas([x, y], this.width, this.height, margin);
    return insideX === x && insideY === y ? world : this.unproject(insideX, insideY, depth);
  }

  setAngles(yaw, pitch) {
    this.yaw = yaw;
    this.pitch = Math.min(this.pitchRange[1], Math.max(this.pitchRange[0], pitch));
    // Rows of R = Rx(pitch) · Ry(yaw): the camera's right, up and toward-the-viewer axes.
    const cy = Math.cos(this.yaw), sy = Math.sin(this.yaw);
    const cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
    this.rows = [
      [cy, 0, sy],
      [sp * sy, cp, -sp * cy],
      [-cp * sy, sp, cp * cy],
    ];
  }

  // World point → [x, y, depth]: canvas pixels and distance toward the viewer.
  project(world) {
    const [right, up, toward] = this.rows;
    const p = this.zUp ? fromZUp(world) : world;
    const f = this.focus;
    const dot = (r) => r[0] * (p[0] - f[0]) + r[1] * (p[1] - f[1]) + r[2] * (p[2] - f[2]);
    return [this.centerX + dot(right) * this.scale, this.centerY - dot(up) * this.scale, dot(toward)];
  }

  // Canvas pixels at a given depth → world point: the inverse of project (R is orthonormal).
  unproject(x, y, depth) {
    const c = [(x - this.centerX) / this.scale, (this.centerY - y) / this.scale, depth];
    const [right, up, toward] = this.rows;
    const p = [0, 1, 2].map((i) => this.focus[i] + right[i] * c[0] + up[i] * c[1] + toward[i] * c[2]);
    return this.zUp ? toZUp(p) : p;
  }

  // The camera's axes in world coordinates (unit): right and up on the canvas, and toward the viewer.
  axes() {
    const [right, up, toward] = this.rows.map((row) => (this.zUp ? toZUp(row) : row.slice()));
    return { right, up, toward };
  }

  towardViewer() {
    return this.axes().toward;
  }
}
