// What the browser checks share: reading the page's state, working its controls as a user
// would, and the properties of a solved chain stated on that state.
import { expect, expectNear } from './harness.mjs';
import { dot, norm, sub, total } from './support.mjs';

// 2-D only: the client pixel of a world point, from the root's pixel and the view's scale.
export function pixelOf(s, world) {
  const [x, y] = s.screen.joints[0];
  return [x + world[0] * s.view.scale, y - world[1] * s.view.scale];
}

// Any view: the client pixel of a world point, from a point whose pixel is known (the root's, by
// default) and the camera's axes.
export function pixelAt(s, world, from = s.joints[0], fromPixel = s.screen.joints[0]) {
  const d = sub(world, from);
  return [fromPixel[0] + dot(d, s.view.right) * s.view.scale, fromPixel[1] - dot(d, s.view.up) * s.view.scale];
}

export function expectFinitePose(s) {
  expect(s.joints.flat().every(Number.isFinite), `a joint is not finite: ${JSON.stringify(s.joints)}`);
}

// Each bone keeps the length the chain was given.
export function expectLengthsKept(s, lengths) {
  lengths.forEach((length, bone) => {
    expectNear(norm(sub(s.joints[bone + 1], s.joints[bone])), length, 1e-5 * total(lengths), `bone ${bone + 1}`);
  });
}

export function expectReached(s) {
  const end = s.joints[s.joints.length - 1];
  const miss = norm(sub(end, s.target));
  expect(s.status === 0, `status ${s.status} (${s.statusText})`);
  expect(s.reached, `not reached: residual ${s.residual}`);
  expect(miss <= 1e-4 * total(s.lengths), `end ${end} is ${miss} from target ${s.target}`);
}

// The page's own ways in: its state, its sliders, and drags with the mouse.
export function pageTools(page) {
  const state = () => page.evaluate(() => window.reachState);

  // A slider set as a user would leave it, with the input event the page listens to.
  async function setRange(selector, value) {
    await page.locator(selector).evaluate((input, v) => {
      input.value = String(v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, value);
  }

  async function drag(from, to, steps = 12) {
    await page.mouse.move(from[0], from[1]);
    await page.mouse.down();
    await page.mouse.move(to[0], to[1], { steps });
    await page.mouse.up();
  }

  return { state, setRange, drag };
}
