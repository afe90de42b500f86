// The UR5 for the checks, independent of the module: its published DH table (the checks' own
// copy), the page's ready pose, forward kinematics by the textbook DH matrices in double, and a
// comparison of frames.
import { expect } from './harness.mjs';
import { norm, sub } from './support.mjs';

// UR5, standard DH as Universal Robots publishes it (metres, radians).
export const UR5 = {
  a: [0, -0.425, -0.39225, 0, 0, 0],
  alpha: [Math.PI / 2, 0, 0, Math.PI / 2, -Math.PI / 2, 0],
  d: [0.089159, 0, 0, 0.10915, 0.09465, 0.0823],
};
export const READY = [0, -1.2, 1.6, -1.97, -Math.PI / 2, 0];

const multiply = (A, B) => A.map((row) => B[0].map((_, j) => row.reduce((sum, v, k) => sum + v * B[k][j], 0)));

// T_i = Rz(θ_i) · Tz(d_i) · Tx(a_i) · Rx(α_i), multiplied from the base to the flange.
export function toolFrame(q) {
  let T = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
  q.forEach((theta, i) => {
    const ct = Math.cos(theta), st = Math.sin(theta);
    const ca = Math.cos(UR5.alpha[i]), sa = Math.sin(UR5.alpha[i]);
    T = multiply(T, [
      [ct, -st * ca, st * sa, UR5.a[i] * ct],
      [st, ct * ca, -ct * sa, UR5.a[i] * st],
      [0, sa, ca, UR5.d[i]],
      [0, 0, 0, 1],
    ]);
  });
  const column = (j) => [T[0][j], T[1][j], T[2][j]];
  return { origin: column(3), x: column(0), y: column(1), z: column(2) };
}

// Float: the tool within 0.1 mm, its axes within 1e-3, of the answer in double.
export const POSITION_TOLERANCE = 1e-4;
export const AXIS_TOLERANCE = 1e-3;

export function expectFrameNear(actual, expected, what) {
  expect(norm(sub(actual.origin, expected.origin)) < POSITION_TOLERANCE,
    `${what}: origin ${actual.origin}, expected ${expected.origin}`);
  for (const axis of ['x', 'y', 'z']) {
    expect(norm(sub(actual[axis], expected[axis])) < AXIS_TOLERANCE,
      `${what}: ${axis} axis ${actual[axis]}, expected ${expected[axis]}`);
  }
}
