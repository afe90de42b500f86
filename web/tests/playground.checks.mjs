// The playground in a real browser: drags with the mouse and a finger, switches solvers, edits
// the chain, and checks from the page's read-only state (window.reachState) that the poses
// the WebAssembly module produced have the properties IK promises.
import fs from 'node:fs';
import path from 'node:path';
import { openPlayground } from './browser.mjs';
import { check, expect, expectNear } from './harness.mjs';
import { expectFinitePose, expectLengthsKept, expectReached, pageTools, pixelAt, pixelOf } from './page.mjs';
import { OUT, REPO, WASM, cross, dot, norm, sub, total, unit } from './support.mjs';
import { SOLVERS } from '../public/js/solvers/index.js';
import { SCENE_SCREENSHOTS, sceneChecks } from './scenes.checks.mjs';

// The side of the root→target line a point is on, in 2-D: +1 left, -1 right.
function side(s, point) {
  return Math.sign(cross(sub(s.target, s.joints[0]), sub(point, s.joints[0]))[2]);
}

// The solvers whose entry points the built module exports: exactly those the page may offer.
function solversInModule() {
  const module = new WebAssembly.Module(fs.readFileSync(WASM));
  const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  return SOLVERS.filter((solver) => solver.requires.every((name) => exported.has(name))).map((s) => s.id);
}

export async function playgroundChecks() {
  let playground;
  await check('the page starts in Chromium and loads the module', async () => {
    playground = await openPlayground();
  });
  if (!playground) return;
  try {
    await workThePage(playground);
    await sceneChecks(playground);
    await check('the console stayed free of errors and warnings', async () => {
      expect(playground.problems.length === 0, playground.problems.join('\n'));
    });
  } finally {
    await playground.close();
  }
  const shots = ['2d', '3d', 'fabrik', 'walker', ...SCENE_SCREENSHOTS].map((name) => `playground-${name}.png`)
    .join(', ');
  console.log(`screenshots in ${path.relative(REPO, OUT)}: ${shots}`);
}

async function workThePage({ page }) {
  const { state, setRange, drag } = pageTools(page);

  await check('the page loads the library and offers the solvers the module has', async () => {
    const s = await state();
    expect(s.library.version.length > 0, 'no library version');
    const expected = solversInModule();
    expect(['two-bone-2d', 'two-bone-3d'].every((id) => expected.includes(id)), `module solvers ${expected}`);
    expect(JSON.stringify(s.solvers) === JSON.stringify(expected), `offers ${s.solvers}, the module has ${expected}`);
    const options = await page.$$eval('#solver option', (list) => list.map((o) => o.value));
    expect(JSON.stringify(options) === JSON.stringify(s.solvers), `menu ${options}`);
    expect(s.solver === 'two-bone-2d' && s.dims === 2, `starts with ${s.solver}`);
    expectFinitePose(s);
  });

  await check('dragging the target with the mouse brings the end effector onto it', async () => {
    const before = await state();
    const drop = pixelOf(before, [0.9, -0.6]);
    await drag(before.screen.target, drop);
    const s = await state();
    expectNear(s.target[0], 0.9, 2 / s.view.scale, 'target x');
    expectNear(s.target[1], -0.6, 2 / s.view.scale, 'target y');
    expectReached(s);
    expectLengthsKept(s, [1, 0.8]);
    const endPixel = s.screen.joints[2];
    expect(norm(sub(endPixel, drop)) < 1, `end drawn at ${endPixel}, the mouse let go at ${drop}`);
  });

  await check('out of reach, the arm lies straight toward the target', async () => {
    const before = await state();
    await drag(before.screen.target, pixelOf(before, [-2.0, -1.1]));
    const s = await state();
    const toward = unit(sub(s.target, s.joints[0]));
    for (let bone = 0; bone < 2; bone++) {
      const direction = unit(sub(s.joints[bone + 1], s.joints[bone]));
      expect(dot(direction, toward) > 1 - 1e-6, `bone ${bone + 1} points ${direction}, not ${toward}`);
    }
    const distance = norm(sub(s.target, s.joints[0]));
    expect(distance > 1.8, `the target ${s.target} is within reach`);
    expectNear(norm(sub(s.joints[2], s.joints[0])), 1.8, 1e-5, 'end distance from the root');
    expectNear(s.residual, distance - 1.8, 1e-5, 'residual');
    expect(!s.reached, 'reported as reached');
  });

  await check('the pole picks the side the elbow bends to; the other solution mirrors it', async () => {
    let s = await state();
    await drag(s.screen.target, pixelOf(s, [1.2, 0.3]));
    s = await state();
    const poleSide = side(s, s.pole);
    expect(side(s, s.joints[1]) === poleSide, 'the elbow is not on the pole side');
    // Over to the other side of the root→target line, mirrored across it.
    const t = unit(s.target);
    const mirrored = sub(s.target.map((v) => 2 * v * dot(s.pole, t) / norm(s.target)), s.pole);
    await drag(s.screen.pole, pixelOf(s, mirrored));
    s = await state();
    expect(side(s, s.pole) === -poleSide, `the pole ${s.pole} did not cross the line`);
    expect(side(s, s.joints[1]) === -poleSide, 'the elbow did not follow the pole');
    expect(side(s, s.alternative) === poleSide, 'the other solution is not on the other side');
    expectReached(s);
    expectLengthsKept(s, [1, 0.8]);
  });

  await check('soft IK eases the end in near full reach, by the documented curve', async () => {
    await page.check('#soft');
    let s = await state();
    expect(s.softIK.enabled && s.softIK.distance === 0.2, `soft IK ${JSON.stringify(s.softIK)}`);
    await drag(s.screen.target, pixelOf(s, [1.8, 0]));
    s = await state();
    // With L = 1.8 and soft distance 0.2, a target at d > L − 0.2 is met at
    // L − 0.2 + 0.2·(1 − exp(−(d − (L − 0.2)) / 0.2)): short of it, never at full stretch.
    const d = norm(sub(s.target, s.joints[0]));
    const expected = 1.6 + 0.2 * (1 - Math.exp(-(d - 1.6) / 0.2));
    expectNear(norm(sub(s.joints[2], s.joints[0])), expected, 1e-4, 'softened end distance');
    expect(s.residual > 0.05 && !s.reached, `residual ${s.residual}`);
    await page.uncheck('#soft');
    s = await state();
    expectReached(s);
  });

  await check('editing a bone length changes the chain, and it still reaches', async () => {
    await page.fill('#bone-1', '1.3');
    await page.press('#bone-1', 'Enter');
    let s = await state();
    expectNear(s.lengths[0], 1.3, 1e-5, 'bone 1 length');
    expectLengthsKept(s, [1.3, 0.8]);
    expect((await page.inputValue('#bone-1-slider')) === '1.3', 'the slider did not follow');
    await drag(s.screen.target, pixelOf(s, [-0.4, 1.7]));
    s = await state();
    expectReached(s);
    expectLengthsKept(s, [1.3, 0.8]);
  });

  await check('bad bone lengths are refused with a message, and nothing turns NaN', async () => {
    for (const bad of ['-1', '0', '1e9', '']) {
      await page.fill('#bone-2', bad);
      await page.press('#bone-2', 'Enter');
      const s = await state();
      expect(s.message.startsWith('bone 2:'), `no message for '${bad}'`);
      expectNear(s.lengths[1], 0.8, 1e-5, `bone 2 after '${bad}'`);
      expect((await page.inputValue('#bone-2')) === '0.8', `the box kept '${bad}'`);
      expectFinitePose(s);
      expect(s.status === 0, `status ${s.statusText}`);
    }
  });

  await check('a finger drags the target as the mouse does', async () => {
    const s0 = await state();
    const from = s0.screen.target;
    const to = pixelOf(s0, [0.5, -1.2]);
    const cdp = await page.context().newCDPSession(page);
    const touch = (type, at) => cdp.send('Input.dispatchTouchEvent', {
      type, touchPoints: at ? [{ x: at[0], y: at[1], id: 1, radiusX: 8, radiusY: 8 }] : [] });
    await touch('touchStart', from);
    for (let k = 1; k <= 8; k++) await touch('touchMove', from.map((v, i) => v + (to[i] - v) * (k / 8)));
    await touch('touchEnd', null);
    await cdp.detach();
    const s = await state();
    expectNear(s.target[0], 0.5, 2 / s.view.scale, 'target x');
    expectNear(s.target[1], -1.2, 2 / s.view.scale, 'target y');
    expectReached(s);
  });

  await check('the 3-D solver: drag target and pole, turn the view, the knee stays in the pole plane', async () => {
    await page.selectOption('#solver', 'two-bone-3d');
    let s = await state();
    expect(s.solver === 'two-bone-3d' && s.dims === 3, `solver ${s.solver}`);
    expectLengthsKept(s, [1.3, 0.8]);
    // Turn the view by dragging empty space (the lower right corner of the canvas).
    const box = await page.locator('#scene').boundingBox();
    const corner = [box.x + box.width - 40, box.y + box.height - 40];
    await drag(corner, [corner[0] - 120, corner[1] - 15]);
    const turned = await state();
    expect(Math.abs(turned.view.yaw - s.view.yaw) > 0.5, `yaw ${s.view.yaw} → ${turned.view.yaw}`);
    expect(JSON.stringify(turned.target) === JSON.stringify(s.target), 'turning moved the target');
    // Dragged in the plane facing the viewer, to one unit from the root on screen: in reach (its
    // depth from the root is at most its old distance, 1.75), and out of the z = 0 plane.
    const [rootX, rootY] = turned.screen.joints[0];
    const step = Math.SQRT1_2 * turned.view.scale;
    await drag(turned.screen.target, [rootX - step, rootY + step]);
    s = await state();
    expect(Math.abs(s.target[2]) > 0.1, `target ${s.target} stayed in z = 0`);
    expectReached(s);
    await drag(s.screen.pole, [s.screen.pole[0] + 60, s.screen.pole[1] + 30]);
    s = await state();
    expectReached(s);
    expectLengthsKept(s, [1.3, 0.8]);
    // The knee lies in the plane of root, target and pole, on the pole's side of the line.
    const [root, knee] = s.joints;
    const axis = unit(sub(s.target, root));
    const normal = unit(cross(axis, sub(s.pole, root)));
    expectNear(dot(normal, sub(knee, root)), 0, 1e-4, 'knee distance from the pole plane');
    const offLine = (p) => sub(sub(p, root), axis.map((v) => v * dot(sub(p, root), axis)));
    expect(dot(offLine(knee), offLine(s.pole)) > 0, 'the knee bends away from the pole');
    await page.screenshot({ path: path.join(OUT, 'playground-3d.png') });
  });

  await check('back to 2-D, the handles return to the plane', async () => {
    await page.selectOption('#solver', 'two-bone-2d');
    const s = await state();
    expect(s.dims === 2 && s.target[2] === 0 && s.pole[2] === 0, `target ${s.target}, pole ${s.pole}`);
    expect(s.joints.every((p) => p[2] === 0), 'a joint left the plane');
    expectLengthsKept(s, [1.3, 0.8]);
    await page.screenshot({ path: path.join(OUT, 'playground-2d.png') });
  });

  await check('the keyboard moves the target and the pole; a drag past the edge stops at it', async () => {
    let s = await state();
    expect(s.solver === 'two-bone-2d', `on ${s.solver}`);
    const label = await page.getAttribute('#scene', 'aria-label');
    expect(label.startsWith('Two-bone, 2-D.') && label.includes('arrow keys') && label.includes('P switches'),
      `canvas label: ${label}`);
    await page.focus('#scene');
    const before = s;
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowUp');
    s = await state();
    expectNear(s.screen.target[0] - before.screen.target[0], 8, 0.01, 'target moved right');
    expectNear(s.screen.target[1] - before.screen.target[1], -40, 0.01, 'target moved up');
    await page.keyboard.press('p');
    const said = await page.textContent('#key-status');
    expect(said.includes('move the pole'), `after P the page says '${said}'`);
    await page.keyboard.press('ArrowLeft');
    await page.screenshot({ path: path.join(OUT, 'playground-keys.png') });
    await page.keyboard.press('p');
    const back = await page.textContent('#key-status');
    expect(back.includes('move the target'), `P again says '${back}'`);
    const moved = await state();
    expectNear(moved.screen.pole[0] - s.screen.pole[0], -8, 0.01, 'pole moved left');
    expect(norm(sub(moved.target, s.target)) === 0, 'the pole\'s key moved the target too');
    await page.keyboard.press('ArrowDown');
    expectNear((await state()).screen.target[1] - moved.screen.target[1], 8, 0.01, 'P again: the target moves');
    // Far past the canvas's right edge and below it: the target waits at the corner, in view.
    const rect = await page.$eval('#scene', (canvas) => canvas.getBoundingClientRect().toJSON());
    await drag(moved.screen.target, [rect.right + 300, rect.bottom + 300]);
    s = await state();
    const [x, y] = s.screen.target;
    expect(x > rect.left && x < rect.right && y > rect.top && y < rect.bottom, `target drawn at ${x}, ${y}`);
    expect(x > rect.right - 20 && y > rect.bottom - 20, `the target stopped short of the corner: ${x}, ${y}`);
    await drag(s.screen.target, pixelOf(s, [1.2, 0.3]));
    // 3-D: W, A, S and D turn the view.
    await page.selectOption('#solver', 'two-bone-3d');
    await page.focus('#scene');
    const view = (await state()).view;
    await page.keyboard.press('d');
    await page.keyboard.press('s');
    const turned = (await state()).view;
    expectNear(turned.yaw - view.yaw, 0.1, 1e-9, 'yaw');
    expectNear(turned.pitch - view.pitch, 0.1, 1e-9, 'pitch');
    await page.selectOption('#solver', 'two-bone-2d');
  });

  await check('every chain solver offered follows a target nudged with the mouse', async () => {
    const chainSolvers = SOLVERS.filter((solver) => (solver.kind ?? 'chain') === 'chain').map((solver) => solver.id);
    for (const id of (await state()).solvers.filter((offered) => chainSolvers.includes(offered))) {
      await page.selectOption('#solver', id);
      let s = await state();
      expect(s.solver === id, `could not choose ${id}`);
      // In 2-D, first to a point well inside the reach; each 3-D solver follows its 2-D sibling
      // (the menu's order) and so starts from that point, in the plane z = 0.
      if (s.dims === 2) {
        await drag(s.screen.target, pixelOf(s, [0.5 * total(s.lengths), 0.3 * total(s.lengths)]));
        s = await state();
      }
      expect(s.reached, `${id} starts out of reach of ${s.target}: residual ${s.residual}`);
      const lengths = s.lengths;
      // 20 pixels along the root→target line on screen, toward the middle of the reach range, at
      // the same depth: the target stays within reach.
      const distance = norm(sub(s.target, s.joints[0]));
      const inner = Math.max(0, 2 * Math.max(...lengths) - total(lengths));
      const middle = (inner + total(lengths)) / 2;
      const away = unit(sub(s.screen.target, s.screen.joints[0]));
      const to = s.screen.target.map((v, i) => v + (distance < middle ? 20 : -20) * away[i]);
      await drag(s.screen.target, to);
      s = await state();
      expect(norm(sub(s.screen.target, to)) < 1, `${id}: the target did not follow the mouse`);
      expectReached(s);
      expectLengthsKept(s, lengths);
    }
  });

  await check('FABRIK and CCD: more bones, a bend limit that holds, an iteration cap', async () => {
    await page.selectOption('#solver', 'fabrik-2d');
    await page.focus('#bone-count');
    await page.keyboard.press('ArrowRight');
    let s = await state();
    expect(s.lengths.length === 5 && s.joints.length === 6, `${s.lengths.length} bones`);
    expect((await page.$$('#bones input[type=number]')).length === 5, 'no row for the new bone');
    const lengths = s.lengths;
    await setRange('#limit', 30);
    const limit = (30 * Math.PI) / 180;
    for (const id of ['fabrik-2d', 'ccd-2d', 'ccd-3d', 'fabrik-3d']) {
      await page.selectOption('#solver', id);
      s = await state();
      expectNear(s.limit, limit, 1e-9, `${id}: limit`);
      const [x, y] = s.screen.joints[0];
      // Across the chain's own reach circle: a curl its limits cannot make, so they must hold.
      await drag(s.screen.target, [x - 0.2 * s.view.scale, y - 0.6 * s.view.scale]);
      s = await state();
      expectLengthsKept(s, lengths);
      for (let i = 1; i < s.joints.length - 1; i++) {
        const cosine = dot(unit(sub(s.joints[i], s.joints[i - 1])), unit(sub(s.joints[i + 1], s.joints[i])));
        expect(Math.acos(Math.min(1, cosine)) <= limit + 1e-3, `${id}: joint ${i} bends past 30°`);
      }
    }
    await setRange('#limit', 180);
    await setRange('#iteration-cap', 1);
    s = await state();
    await drag(s.screen.target, [s.screen.target[0] + 80, s.screen.target[1] + 60]);
    s = await state();
    expect(s.maxIterations === 1 && s.iterations <= 1, `${s.iterations} iterations under a cap of 1`);
    await setRange('#iteration-cap', 64);
    await page.screenshot({ path: path.join(OUT, 'playground-fabrik.png') });
  });

  await check('a chain comes back as it was left after a visit to two-bone, and the two-bone pair too', async () => {
    await page.fill('#bone-3', '1.234');
    await page.press('#bone-3', 'Enter');
    const chain = (await state()).lengths;
    expectNear(chain[2], 1.234, 1e-6, 'bone 3');
    expect((await page.inputValue('#bone-3')) === '1.234', 'the box rounds the length in use');
    await page.selectOption('#solver', 'two-bone-2d');
    await page.fill('#bone-2', '0.9');
    await page.press('#bone-2', 'Enter');
    const pair = (await state()).lengths;
    expect(pair.length === 2 && Math.abs(pair[1] - 0.9) < 1e-6, `two-bone has ${pair}`);
    // The lengths the state reports are measured on the solved pose, so to its rounding.
    const same = (a, b) => a.length === b.length && a.every((length, i) => Math.abs(length - b[i]) < 1e-5);
    await page.selectOption('#solver', 'fabrik-3d');
    let s = await state();
    expect(same(s.lengths, chain), `the chain came back as ${s.lengths}, not ${chain}`);
    await page.selectOption('#solver', 'two-bone-3d');
    s = await state();
    expect(same(s.lengths, pair), `the pair came back as ${s.lengths}, not ${pair}`);
    await page.selectOption('#solver', 'fabrik-2d');
  });

  await check('the walker walks toward the pointer', async () => {
    await page.selectOption('#solver', 'walker-2d');
    let s = await state();
    expect(s.kind === 'walker' && s.legs.length === 8, `${s.solver}: ${s.legs?.length} legs`);
    const [x, y] = s.screen.body;
    const goal = [5, 3];
    await page.mouse.move(x + goal[0] * s.view.scale, y - goal[1] * s.view.scale, { steps: 5 });
    s = await state();
    expectNear(s.target[0], goal[0], 2 / s.view.scale, 'target x');
    expectNear(s.target[1], goal[1], 2 / s.view.scale, 'target y');
    const start = s.body.position;
    const distance = (p) => Math.hypot(goal[0] - p[0], goal[1] - p[1]);
    // It walks in real time: wait until it has covered 2 units (it walks at 1.5 units/s).
    await page.waitForFunction(([gx, gy, limit]) => {
      const [bx, by] = window.reachState.body.position;
      return Math.hypot(gx - bx, gy - by) < limit;
    }, [goal[0], goal[1], distance(start) - 2], { timeout: 15000 });
    s = await state();
    const heading = [Math.cos(s.body.heading), Math.sin(s.body.heading)];
    const toGoal = unit(sub(goal, s.body.position.slice(0, 2)));
    expect(dot(heading, toGoal) > 0.9, `heading ${s.body.heading} does not face the goal`);
    expect(s.steps > 0 && s.forcedSteps === 0, `${s.steps} steps, ${s.forcedSteps} forced`);
    expect(s.legs.flatMap((leg) => leg.joints).flat().every(Number.isFinite), 'a leg joint is not finite');
    expect(s.legs.some((leg) => leg.planted), 'no foot on the ground');
    await page.screenshot({ path: path.join(OUT, 'playground-walker.png') });
  });

  await check('the walker takes another leg count', async () => {
    await page.selectOption('#legs', '4');
    const s = await state();
    expect(s.legCount === 4 && s.legs.length === 4 && s.status === 0, `${s.legs.length} legs, ${s.statusText}`);
  });

  await check('the spider stays in view walking toward a corner of the canvas', async () => {
    await page.selectOption('#legs', '8');
    await setRange('#speed', 2);
    const rect = await page.$eval('#scene', (canvas) => canvas.getBoundingClientRect().toJSON());
    // Not the very corner: the canvas's rounded corner passes the pointer to the page under it.
    await page.mouse.move(rect.right - 8, rect.bottom - 8, { steps: 5 });
    let s = await state();
    const inView = ([x, y]) => x > rect.left && x < rect.right && y > rect.top && y < rect.bottom;
    expect(inView(s.screen.target), `the target is drawn at ${s.screen.target}, off the canvas`);
    // Sampled as it walks until it stands at the goal: the body and every joint of every leg
    // are drawn on the canvas.
    const distance = () => Math.hypot(s.target[0] - s.body.position[0], s.target[1] - s.body.position[1]);
    const deadline = Date.now() + 15000;
    let samples = 0;
    do {
      await page.waitForTimeout(100);
      s = await state();
      samples++;
      const drawn = [s.screen.body, ...s.legs.flatMap((leg) => leg.joints).map((joint) =>
        pixelAt(s, joint, s.body.position, s.screen.body))];
      const off = drawn.filter((point) => !inView(point));
      expect(off.length === 0, `after ${samples} samples, ${off.length} points of the spider are off the canvas, ` +
        `e.g. ${off[0]}; the body is at ${s.body.position}, the target at ${s.target}`);
    } while (distance() > 0.5 && Date.now() < deadline);
    expect(distance() <= 0.5, `the spider is still ${distance()} from the target ${s.target}`);
    await setRange('#speed', 1.5);
  });
}
