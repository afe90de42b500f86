// The page's Jacobian solvers, robot arm and 3-D walker in the browser, worked with the mouse
// (and a finger) and checked from window.reachState: the chain follows a dragged target under
// every method and keeps its bend limits, the UR5's tool lands on the target by an independent
// forward kinematics of the joint values the page shows, and the hexapod walks toward the point
// of the ground under the pointer without a planted foot sliding.
import path from 'node:path';
import { check, expect, expectNear } from './harness.mjs';
import { expectLengthsKept, pageTools, pixelAt } from './page.mjs';
import { OUT, add, dot, norm, scale, sub, total, unit } from './support.mjs';
import { READY, expectFrameNear, toolFrame } from './ur5.mjs';
import { JACOBIAN_SOLVERS } from '../public/js/solvers/jacobian.js';

export const SCENE_SCREENSHOTS = ['jacobian', 'robot', 'crowd', 'tentacles', 'walker-3d'];

const DEGREES = Math.PI / 180;
const TRANSPOSE = 0;

// The library's waves terrain, 0.25 · sin(2πx / 4) · cos(2πy / 4), the 3-D walker's first ground.
const wavesHeight = (x, y) => 0.25 * Math.sin((2 * Math.PI * x) / 4) * Math.cos((2 * Math.PI * y) / 4);

// A point at `fraction` of the chain's length from the root, up and to the left of it on the
// screen, at the target's depth: where a drag of the target can take it.
function reachablePoint(s, fraction) {
  const root = s.joints[0];
  const depth = dot(sub(s.target, root), s.view.toward);
  const distance = Math.min(0.9, Math.max(fraction, Math.abs(depth) / total(s.lengths) + 0.1)) * total(s.lengths);
  const across = Math.sqrt(distance * distance - depth * depth);
  const inPlane = add(scale(s.view.right, -0.6 * across), scale(s.view.up, 0.8 * across));
  return add(add(root, inPlane), scale(s.view.toward, depth));
}

// The end is on the target; the transpose, which converges slowly, may instead have spent its
// iterations and stopped close by.
function expectFollowed(s, id) {
  const end = s.joints[s.joints.length - 1];
  const miss = norm(sub(end, s.target));
  expect(s.status === 0, `${id}: ${s.statusText}`);
  expectNear(s.residual, miss, 1e-5 * total(s.lengths), `${id}: residual`);
  if (s.reached) {
    expect(miss <= 1e-4 * total(s.lengths), `${id}: reported reached ${miss} from the target`);
  } else {
    const method = JACOBIAN_SOLVERS.find((solver) => solver.id === id);
    expect(method.id.includes('transpose') && s.iterations === s.maxIterations && miss < 1e-3 * total(s.lengths),
      `${id}: not reached, ${miss} left after ${s.iterations} iterations`);
  }
}

// Sets the crowd's size, moves the pointer to `at` (fractions of the canvas) and returns the
// state: the batch call succeeded for that many, timed, with the target drawn under the pointer.
async function pointAtCrowd(page, state, count, at) {
  if ((await state()).arms !== count) await page.selectOption('#arms', String(count));
  const box = await page.locator('#scene').boundingBox();
  const pixel = [box.x + at[0] * box.width, box.y + at[1] * box.height];
  await page.mouse.move(pixel[0], pixel[1], { steps: 6 });
  const s = await state();
  expect(s.status === 0 && s.limbs.length === count, `${count} ${s.solver}: ${s.statusText}`);
  expect(norm(sub(s.screen.target, pixel)) < 1.5, `target drawn at ${s.screen.target}, pointer at ${pixel}`);
  expect(s.msPerCall > 0, `the batch call timed at ${s.msPerCall} ms`);
  return s;
}

async function readout(page) {
  return page.$$eval('#readout dt', (terms) =>
    Object.fromEntries(terms.map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
}

export async function sceneChecks({ page }) {
  const { state, setRange, drag } = pageTools(page);
  const offered = (await state()).solvers;
  const jacobianIds = JACOBIAN_SOLVERS.map((solver) => solver.id).filter((id) => offered.includes(id));

  await check('every Jacobian method follows a dragged target, with iterations and residual shown', async () => {
    expect(jacobianIds.length === 8, `the page offers ${jacobianIds}`);
    for (const id of jacobianIds) {
      await page.selectOption('#solver', id);
      let s = await state();
      expect(s.solver === id && s.kind === 'chain', `could not choose ${id}`);
      const lengths = s.lengths;
      const goal = reachablePoint(s, 0.6);
      const drop = pixelAt(s, goal);
      await drag(s.screen.target, drop);
      s = await state();
      expect(norm(sub(s.screen.target, drop)) < 1, `${id}: the target is at ${s.screen.target}, dropped at ${drop}`);
      expect(norm(sub(s.target, goal)) < 2 / s.view.scale, `${id}: the target ${s.target} is not ${goal}`);
      expectFollowed(s, id);
      expectLengthsKept(s, lengths);
      if (s.dims === 2) expect(s.joints.every((p) => p[2] === 0), `${id}: left the plane`);
      const shown = await readout(page);
      expect(shown.iterations === String(s.iterations), `${id}: shows ${shown.iterations} iterations`);
      expectNear(Number(shown.residual), s.residual, 1e-4, `${id}: residual shown`);
      if (id === 'jacobian-sdls-3d') await page.screenshot({ path: path.join(OUT, 'playground-jacobian.png') });
    }
  });

  await check('the Jacobian methods keep a 30° bend limit in 2-D and 3-D', async () => {
    await setRange('#limit', 30);
    const limit = 30 * DEGREES;
    for (const id of jacobianIds) {
      await page.selectOption('#solver', id);
      let s = await state();
      expectNear(s.limit, limit, 1e-9, `${id}: limit`);
      const lengths = s.lengths;
      const [x, y] = s.screen.joints[0];
      // Across the chain's own reach circle: a curl its limits cannot make, so they must hold.
      await drag(s.screen.target, [x - 0.2 * s.view.scale, y - 0.6 * s.view.scale]);
      s = await state();
      expect(s.status === 0, `${id}: ${s.statusText}`);
      expectLengthsKept(s, lengths);
      for (let i = 1; i < s.joints.length - 1; i++) {
        const cosine = dot(unit(sub(s.joints[i], s.joints[i - 1])), unit(sub(s.joints[i + 1], s.joints[i])));
        expect(Math.acos(Math.min(1, cosine)) <= limit + 1e-3, `${id}: joint ${i} bends past 30°`);
      }
      expect(!s.reached, `${id}: reached a curl its limits forbid`);
    }
    await setRange('#limit', 180);
  });

  await check('the UR5 from its DH table: the tool follows the dragged target (FK of the joint values)', async () => {
    await page.selectOption('#solver', 'robot-ur5');
    let s = await state();
    expect(s.kind === 'robot' && s.values.length === 6 && s.reached, `${s.solver}: ${s.statusText}`);
    READY.forEach((v, i) => expectNear(s.values[i], v, 1e-6, `ready joint ${i + 1}`));
    expectFrameNear(s.tool, toolFrame(READY), 'the ready pose');
    const drop = [s.screen.target[0] - 90, s.screen.target[1] - 50];
    await drag(s.screen.target, drop);
    s = await state();
    expect(norm(sub(s.screen.target, drop)) < 1, `the target is at ${s.screen.target}, dropped at ${drop}`);
    expect(s.status === 0 && s.reached, `not reached: ${s.residual} m after ${s.iterations} iterations`);
    // The joint values the page shows put the tool on the target, by the textbook DH matrices.
    expectFrameNear(toolFrame(s.values), s.tool, 'the tool the page shows');
    expect(norm(sub(toolFrame(s.values).origin, s.target)) < 2e-4, 'the tool is not on the target');
    expect(norm(sub(s.screen.tool, drop)) < 1, `the tool is drawn at ${s.screen.tool}, the target at ${drop}`);
    const shown = await readout(page);
    const degrees = [shown['joints 1–3, °'], shown['joints 4–6, °']].flatMap((text) => text.split('\u2002'))
      .map(Number);
    s.values.forEach((v, i) => expectNear(degrees[i], v / DEGREES, 0.051, `joint ${i + 1} shown`));
  });

  await check('the UR5 with orientation: the tool frame turns and tilts onto the target frame', async () => {
    await page.check('#robot-orient');
    await setRange('#robot-turn', 30);
    await setRange('#robot-tilt', 15);
    let s = await state();
    expect(s.orientation.enabled, 'orientation is off');
    expectNear(s.orientation.turn, 30 * DEGREES, 1e-9, 'turn');
    expectNear(s.orientation.tilt, 15 * DEGREES, 1e-9, 'tilt');
    // The ready tool frame tilted about the world x axis, then turned about the vertical.
    const home = toolFrame(READY);
    const turned = (v) => {
      const [a, b] = [15 * DEGREES, 30 * DEGREES];
      const tilted = [v[0], Math.cos(a) * v[1] - Math.sin(a) * v[2], Math.sin(a) * v[1] + Math.cos(a) * v[2]];
      return [Math.cos(b) * tilted[0] - Math.sin(b) * tilted[1], Math.sin(b) * tilted[0] + Math.cos(b) * tilted[1],
        tilted[2]];
    };
    const expected = { x: turned(home.x), y: turned(home.y), z: turned(home.z) };
    await drag(s.screen.target, [s.screen.target[0] + 30, s.screen.target[1] + 20]);
    s = await state();
    expect(s.status === 0 && s.reached, `not reached: ${s.residual} m, ${s.angleResidual} rad`);
    expect(s.angleResidual < 1e-3, `angle residual ${s.angleResidual}`);
    expectFrameNear(s.goal, { origin: s.target, ...expected }, 'the target frame');
    expectFrameNear(toolFrame(s.values), { origin: s.target, ...expected }, 'the tool frame');
    await page.screenshot({ path: path.join(OUT, 'playground-robot.png') });
  });

  await check('the UR5 under each Jacobian method the menu offers', async () => {
    await page.uncheck('#robot-orient');
    const methods = await page.$$eval('#robot-method option', (options) => options.map((o) => o.value));
    expect(methods.length === 4, `methods ${methods}`);
    for (const method of methods) {
      await page.selectOption('#robot-method', method);
      let s = await state();
      expect(String(s.method) === method, `method ${s.method}, chose ${method}`);
      await drag(s.screen.target, [s.screen.target[0] + 35, s.screen.target[1] + 25]);
      s = await state();
      expect(s.status === 0, s.statusText);
      expectFrameNear(toolFrame(s.values), s.tool, `method ${method}: the tool the page shows`);
      const miss = norm(sub(s.tool.origin, s.target));
      if (Number(method) === TRANSPOSE) expect(s.reached || miss < 1e-3, `transpose left ${miss} m`);
      else expect(s.reached && miss < 2e-4, `method ${method} left ${miss} m`);
    }
    await page.selectOption('#robot-method', '2');
  });

  await check('the crowd: every arm reaches for the target under the pointer, in one batch call', async () => {
    await page.selectOption('#solver', 'crowd');
    let s = await state();
    expect(s.kind === 'crowd' && s.arms === 1024 && s.roots.length === 1024, `${s.solver}: ${s.roots?.length} arms`);
    expect(s.isa === 'wasm-simd', `the batch runs on ${s.isa}`);
    for (const [arms, at] of [[1024, [0.6, 0.4]], [4096, [0.45, 0.55]]]) {
      s = await pointAtCrowd(page, state, arms, at);
      // Every arm whose range holds the target has its hand on it, and no other says it reached.
      let inRange = 0;
      s.roots.forEach((root, k) => {
        const upper = norm(sub(s.mids[k], root)), lower = norm(sub(s.ends[k], s.mids[k]));
        const d = norm(sub(s.target, root));
        const margin = 1e-3 * (upper + lower);
        if (d > Math.abs(upper - lower) + margin && d < upper + lower - margin) {
          inRange++;
          expect(s.reachedArms[k], `arm ${k} could reach ${s.target} but did not`);
          expect(norm(sub(s.ends[k], s.target)) < 1e-4 * (upper + lower), `arm ${k}'s hand is off the target`);
        } else if (d > upper + lower + margin) {
          expect(!s.reachedArms[k], `arm ${k} is out of range but reported reached`);
        }
      });
      expect(inRange > 0, `no arm can reach ${s.target}`);
    }
    await pointAtCrowd(page, state, 1024, [0.6, 0.4]);
    await page.screenshot({ path: path.join(OUT, 'playground-crowd.png') });
  });

  await check('a crowd is timed again after it starts, the pointer still; a narrow screen shows every post', async () => {
    await page.selectOption('#arms', '256');
    const started = await state();
    await page.waitForTimeout(1600);
    const later = await state();
    expect(later.timedAt - started.now > 1000, `timed at ${later.timedAt}, started at ${started.now}`);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const arms of [256, 4096]) {
      await page.selectOption('#arms', String(arms));
      const s = await state();
      const box = await page.locator('#scene').boundingBox();
      const outside = s.screen.roots.filter(([x, y]) => x < box.x || x > box.x + box.width || y < box.y ||
        y > box.y + box.height);
      expect(outside.length === 0, `${outside.length} of ${arms} posts off the narrow canvas`);
    }
    await page.setViewportSize({ width: 1200, height: 760 });
    await page.selectOption('#arms', '1024');
  });

  await check('the tentacles: batch FABRIK brings every tentacle that can reach onto the target', async () => {
    await page.selectOption('#solver', 'tentacles');
    let s = await state();
    expect(s.kind === 'crowd' && s.arms === 256 && s.limbs.length === 256, `${s.solver}: ${s.limbs?.length} tentacles`);
    expect(s.isa === 'wasm-simd', `the batch runs on ${s.isa}`);
    expect(await page.textContent('#arms-label') === 'tentacles', 'the size control is not labelled tentacles');
    for (const [count, at] of [[256, [0.55, 0.45]], [1024, [0.4, 0.6]]]) {
      s = await pointAtCrowd(page, state, count, at);
      // Every tentacle long enough for the target has its tip on it; no other says it reached.
      let inRange = 0;
      s.limbs.forEach((limb, k) => {
        const length = total(limb.slice(1).map((joint, b) => norm(sub(joint, limb[b]))));
        const d = norm(sub(s.target, limb[0]));
        const tip = limb[limb.length - 1];
        if (d < length * (1 - 1e-3)) {
          inRange++;
          expect(s.reachedArms[k] && norm(sub(tip, s.target)) <= 1e-4 * length, `tentacle ${k} could reach but did not`);
        } else if (d > length * (1 + 1e-3)) {
          expect(!s.reachedArms[k], `tentacle ${k} is out of range but reported reached`);
        }
        expect(s.iterations[k] >= 0 && s.iterations[k] <= 64, `tentacle ${k}: ${s.iterations[k]} iterations`);
      });
      expect(inRange > 0, `no tentacle can reach ${s.target}`);
      const shown = await readout(page);
      expect(shown.tentacles === String(count) && /mean/.test(shown.iterations ?? ''),
        `readout: ${JSON.stringify(shown)}`);
    }
    // Each crowd keeps its own size: the arms theirs (1024) and the tentacles theirs (64).
    await page.selectOption('#arms', '64');
    await page.selectOption('#solver', 'crowd');
    s = await state();
    expect(s.arms === 1024 && s.limbs.length === 1024 && await page.textContent('#arms-label') === 'arms',
      `back to the arms: ${s.arms}`);
    await page.selectOption('#solver', 'tentacles');
    s = await state();
    expect(s.arms === 64 && s.limbs.length === 64, `back to the tentacles: ${s.arms}`);
    await pointAtCrowd(page, state, 256, [0.55, 0.45]);
    await page.screenshot({ path: path.join(OUT, 'playground-tentacles.png') });
  });

  await check('the 3-D walker walks toward the ground under the pointer; planted feet do not slide', async () => {
    await page.selectOption('#solver', 'walker-3d');
    let s = await state();
    expect(s.kind === 'walker' && s.dims === 3 && s.legs.length === 6 && s.terrain === 'waves',
      `${s.solver}: ${s.legs?.length} legs on ${s.terrain}`);
    const goal = [4, 2.5];
    const ground = [...goal, wavesHeight(...goal)];
    const pixel = pixelAt(s, ground, s.body.position, s.screen.body);
    await page.mouse.move(pixel[0], pixel[1], { steps: 5 });
    s = await state();
    // The target is the point of the terrain under the pointer.
    expect(norm(sub(s.target, ground)) < 3 / s.view.scale, `target ${s.target}, ground ${ground}`);
    expectNear(s.target[2], wavesHeight(s.target[0], s.target[1]), 1e-4, 'target height');
    expect(norm(sub(s.screen.target, pixel)) < 1.5, `target drawn at ${s.screen.target}, pointer at ${pixel}`);
    const distance = (p) => Math.hypot(goal[0] - p[0], goal[1] - p[1]);
    const start = distance(s.body.position);
    // Sampled as it walks: a foot planted in two samples that took no step between them stayed.
    let previous = s, compared = 0;
    const deadline = Date.now() + 12000;
    while (distance(s.body.position) > start - 2 && Date.now() < deadline) {
      await page.waitForTimeout(120);
      s = await state();
      expect(s.status === 0, s.statusText);
      expect(s.legs.some((leg) => leg.planted), 'no foot on the ground');
      s.legs.forEach((leg, i) => {
        const was = previous.legs[i];
        if (leg.planted && was.planted && leg.steps === was.steps) {
          const foot = leg.joints[leg.joints.length - 1], before = was.joints[was.joints.length - 1];
          expect(norm(sub(foot, before)) < 1e-6, `planted foot ${i} slid from ${before} to ${foot}`);
          compared++;
        }
      });
      previous = s;
    }
    expect(distance(s.body.position) <= start - 2, `it is still ${distance(s.body.position)} from the goal`);
    expect(compared > 10, `only ${compared} planted feet compared`);
    const heading = [Math.cos(s.body.heading), Math.sin(s.body.heading)];
    expect(dot(heading, unit(sub(goal, s.body.position.slice(0, 2)))) > 0.9, `heading ${s.body.heading}`);
    expect(s.steps > 0 && s.forcedSteps === 0, `${s.steps} steps, ${s.forcedSteps} forced`);
    expect(s.body.position[2] > wavesHeight(...s.body.position.slice(0, 2)) + 0.3, 'the body is on the ground');
    await page.screenshot({ path: path.join(OUT, 'playground-walker-3d.png') });
  });

  await check('the 3-D walker: a drag turns the view, a tap places the target, another ground', async () => {
    let s = await state();
    const box = await page.locator('#scene').boundingBox();
    const corner = [box.x + 60, box.y + box.height - 60];
    await drag(corner, [corner[0] + 150, corner[1] - 20]);
    const turned = await state();
    expect(Math.abs(turned.view.yaw - s.view.yaw) > 0.5, `yaw ${s.view.yaw} → ${turned.view.yaw}`);
    expect(turned.view.pitch >= 0.45 - 1e-9, `pitch ${turned.view.pitch}: the ground seen edge-on or from below`);
    const spot = pixelAt(turned, [-2, -1, wavesHeight(-2, -1)], turned.body.position, turned.screen.body);
    const cdp = await page.context().newCDPSession(page);
    const touch = (type) => cdp.send('Input.dispatchTouchEvent', {
      type, touchPoints: type === 'touchEnd' ? [] : [{ x: spot[0], y: spot[1], id: 1, radiusX: 8, radiusY: 8 }] });
    await touch('touchStart');
    await touch('touchEnd');
    await cdp.detach();
    s = await state();
    expect(norm(sub(s.target.slice(0, 2), [-2, -1])) < 3 / s.view.scale, `a tap put the target at ${s.target}`);
    await page.selectOption('#terrain', 'steps');
    s = await state();
    expect(s.terrain === 'steps' && s.status === 0 && s.legs.length === 6, `${s.terrain}: ${s.statusText}`);
    // The steps terrain's levels are whole rises of 0.12: a planted foot stands on one.
    for (const leg of s.legs.filter((l) => l.planted)) {
      const z = leg.joints[leg.joints.length - 1][2];
      expectNear(z / 0.12, Math.round(z / 0.12), 1e-3, `a planted foot at height ${z}`);
    }
  });
}
