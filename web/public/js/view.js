// The camera: world (y up) to canvas pixels and back. Orthographic, so a drag moves a handle
// in the plane facing the viewer by exactly the pointer's motion, and a sphere of radius r
// draws as a circle of radius r × scale. The 2-D view is the same camera looking straight
// down -z with no turn.

const MIN_PITCH = -1.45;
const MAX_PITCH = 1.45;

export class View {
  constructor() {
    this.yaw = 0;
    this.pitch = 0;
    this.scale = 100; // pixels per world unit
    this.centerX = 0; // canvas pixels of the focus point
    this.centerY = 0;
    this.focus = [0, 0, 0]; // the world point drawn at the centre
    this.rows = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  }

  // Fits a world extent (half-width around the focus point) into a canvas of width × height.
  fit(width, height, extent, focus = [0, 0, 0]) {
    this.focus = focus;
    this.scale = Math.min(width, height) / (2 * extent);
    this.centerX = width / 2;
    this.centerY = height / 2;
  }

  setAngles(yaw, pitch) {
    this.yaw = yaw;
    this.pitch = Math.min(MAX_PITCH, Math.max(MIN_PITCH, pitch));
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
  project(p) {
    const [right, up, toward] = this.rows;
    const f = this.focus;
    const dot = (r) => r[0] * (p[0] - f[0]) + r[1] * (p[1] - f[1]) + r[2] * (p[2] - f[2]);
    return [this.centerX + dot(right) * this.scale, this.centerY - dot(up) * this.scale, dot(toward)];
  }

  // Canvas pixels at a given depth → world point: the inverse of project (R is orthonormal).
  unproject(x, y, depth) {
    const c = [(x - this.centerX) / this.scale, (this.centerY - y) / this.scale, depth];
    const [right, up, toward] = this.rows;
    return [0, 1, 2].map((i) => this.focus[i] + right[i] * c[0] + up[i] * c[1] + toward[i] * c[2]);
  }
}
