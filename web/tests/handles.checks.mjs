// The handles stay in view across every switch of solver: a target (and the pole) dragged into
// a corner of the canvas in a 3-D mode, where the view is turned, lowered and framed for a
// different extent, is still on the canvas in each 2-D mode, whole, and can be grabbed and
// dragged there; and coming back to the 3-D mode from a 2-D one keeps it on the canvas too.
import { openPlayground } from './browser.mjs';
import { check, expect, expectNear } from './harness.mjs';
import { pageTools } from './page.mjs';
import { HANDLE_RADIUS } from '../public/js/draw.js';
import { SOLVERS } from '../public/js/solvers/index.js';

// How far past the canvas's corner a drag goes: the handle stops at the edge.
const PAST_THE_EDGE = 200;
// How far a handle is dragged back toward the middle to show it can be grabbed.
const NUDGE = 40;
const CORNERS = [['top left', -1, -1], ['top right', 1, -1], ['bottom right', 1, 1], ['bottom left', -1, 1]];

// The whole ring of a handle drawn at `at` lies on the canvas.
function expectOnCanvas(at, box, what) {
  const [x, y] = at;
  const r = HANDLE_RADIUS - 0.5;
  expect(x - r >= box.x && x + r <= box.x + box.width && y - r >= box.y && y + r <= box.y + box.height,
    `${what} is drawn at ${x.toFixed(1)}, ${y.toFixed(1)}: not whole on the canvas ` +
    `(${box.x}, ${box.y}, ${box.width} × ${box.height})`);
}

export async function handlesChecks() {
  let playground;
  await check('the page opens for the handles across solver switches', async () => {
    playground = await openPlayground();
  });
  if (!playground) return;
  const { page, problems } = playground;
  const { state, drag } = pageTools(page);
  try {
    const offered = (await state()).solvers;
    const modes = (dims, kinds) => SOLVERS.filter((s) => s.dims === dims && kinds.includes(s.kind ?? 'chain') &&
      offered.includes(s.id)).map((s) => s.id);
    // 3-D modes whose target is a handle to drag; every 2-D mode (the walker's target follows
    // the pointer instead).
    const dragged3d = modes(3, ['chain', 'robot']);
    const flat = modes(2, ['chain', 'walker']);
    const box = await page.locator('#scene').boundingBox();
    const middle = [box.x + box.width / 2, box.y + box.height / 2];

    // Drags the handle `name` (drawn at `from`) a little toward the middle of the canvas: it
    // lands under the mouse.
    async function nudge(name, from, what) {
      const toward = [middle[0] - from[0], middle[1] - from[1]];
      const length = Math.hypot(...toward);
      const to = from.map((v, i) => v + (NUDGE * toward[i]) / length);
      await drag(from, to, 4);
      const s = await state();
      const at = s.screen[name];
      expect(Math.hypot(at[0] - to[0], at[1] - to[1]) < 1, `${what}: the ${name} did not follow the mouse: ` +
        `drawn at ${at}, let go at ${to}`);
      expect(s[name].every(Number.isFinite), `${what}: the ${name} is ${s[name]}`);
      return s;
    }

    for (const id3d of dragged3d) {
      await check(`a target dragged into each corner in ${id3d} stays on the canvas, and draggable, in every 2-D mode`,
        async () => {
          expect(dragged3d.length >= 2 && flat.length >= 2, `3-D modes ${dragged3d}, 2-D modes ${flat}`);
          for (const [corner, sx, sy] of CORNERS) {
            for (const id2d of flat) {
              const what = `${id3d}, ${corner} corner, then ${id2d}`;
              await page.selectOption('#solver', id3d);
              let s = await state();
              expectOnCanvas(s.screen.target, box, `${id3d}, back from a 2-D mode: the target`);
              if (s.kind === 'chain') expectOnCanvas(s.screen.pole, box, `${id3d}, back from a 2-D mode: the pole`);
              const past = [sx > 0 ? box.x + box.width + PAST_THE_EDGE : box.x - PAST_THE_EDGE,
                sy > 0 ? box.y + box.height + PAST_THE_EDGE : box.y - PAST_THE_EDGE];
              await drag(s.screen.target, past, 4);
              if (s.solver === 'two-bone-3d') {
                // The pole to the opposite corner.
                s = await state();
                await drag(s.screen.pole, [2 * middle[0] - past[0], 2 * middle[1] - past[1]], 4);
              }
              s = await state();
              const [x, y] = s.screen.target;
              expect(Math.abs(x - (sx > 0 ? box.x + box.width : box.x)) < HANDLE_RADIUS + 2 &&
                Math.abs(y - (sy > 0 ? box.y + box.height : box.y)) < HANDLE_RADIUS + 2,
                `${what}: the drag left the target at ${x}, ${y}, not in the corner`);

              await page.selectOption('#solver', id2d);
              s = await state();
              expect(s.solver === id2d && s.dims === 2, `${what}: on ${s.solver}`);
              expect(s.target[2] === 0, `${what}: the target ${s.target} is out of the plane`);
              expectOnCanvas(s.screen.target, box, `${what}: the target`);
              if (s.kind === 'walker') {
                // The walker's target follows the pointer.
                const to = [middle[0] + NUDGE, middle[1] + NUDGE];
                await page.mouse.move(to[0], to[1], { steps: 2 });
                s = await state();
                expectNear(s.screen.target[0], to[0], 1, `${what}: the target follows the pointer, x`);
                expectNear(s.screen.target[1], to[1], 1, `${what}: the target follows the pointer, y`);
                continue;
              }
              expectOnCanvas(s.screen.pole, box, `${what}: the pole`);
              s = await nudge('target', s.screen.target, what);
              expect(s.status === 0 && s.joints.flat().every(Number.isFinite), `${what}: ${s.statusText}`);
              if (s.solver === 'two-bone-2d') await nudge('pole', s.screen.pole, what);
            }
          }
        });
    }
    await check('the console stayed free of errors and warnings across the switches', async () => {
      expect(problems.length === 0, problems.join('\n'));
    });
  } finally {
    await playground.close();
  }
}
