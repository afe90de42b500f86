// The page's layout in Chromium at the window sizes people use: a short desktop window keeps
// the canvas's hint on screen without scrolling, and a larger one still gives the canvas the
// room there is; on a phone the solve's readout is on screen with the canvas.
import { openPlayground } from './browser.mjs';
import { check, expect } from './harness.mjs';
import { pageTools } from './page.mjs';

// Where the page's parts are, in client pixels, and how far the document can scroll, once the
// page has redrawn for the window's size.
async function layoutAt(page, width, height) {
  await page.setViewportSize({ width, height });
  return page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const rect = (id) => document.getElementById(id).getBoundingClientRect().toJSON();
    return {
      scrollHeight: document.documentElement.scrollHeight,
      scrollY,
      canvas: rect('scene'),
      hint: rect('hint'),
      hintText: document.getElementById('hint').textContent,
      solve: rect('solve-section'),
      solver: rect('solver'),
    };
  });
}

function expectInside(points, box, what) {
  const outside = points.filter(([x, y]) => !(x > box.left && x < box.right && y > box.top && y < box.bottom));
  expect(outside.length === 0, `${what}: ${outside.length} points off the canvas, e.g. ${outside[0]}`);
}

export async function layoutChecks() {
  let playground;
  await check('the page opens in a short desktop window', async () => {
    playground = await openPlayground({ width: 1280, height: 500 });
  });
  if (!playground) return;
  const { page } = playground;
  const { state } = pageTools(page);
  try {
    await check('a short desktop window keeps the hint on screen; the canvas takes the height left', async () => {
      // The header, the page's padding and the hint take about 110 pixels; the canvas the rest.
      for (const [width, height] of [[1280, 500], [1024, 420], [1280, 800], [1600, 1000]]) {
        const at = `${width} × ${height}`;
        const shown = await layoutAt(page, width, height);
        expect(shown.hintText.length > 0, `${at}: no hint`);
        expect(shown.hint.top >= shown.canvas.bottom && shown.hint.bottom <= height,
          `${at}: the hint spans ${shown.hint.top} to ${shown.hint.bottom}, the canvas ends at ${shown.canvas.bottom}`);
        expect(shown.scrollHeight <= height, `${at}: the page scrolls (${shown.scrollHeight} pixels tall)`);
        expect(shown.canvas.height >= height - 120, `${at}: the canvas is only ${shown.canvas.height} pixels tall`);
        const s = await state();
        expectInside([s.screen.target, ...s.screen.joints], shown.canvas, `${at}: the chain`);
      }
    });
    await check('on a phone the readout lies under the canvas, both on screen; on a desktop it stays in the panel',
      async () => {
        // One solver of each kind, the robot's readout the longest.
        const offered = (await state()).solvers;
        const solvers = ['two-bone-2d', 'fabrik-3d', 'robot-ur5', 'crowd', 'tentacles', 'walker-2d', 'walker-3d']
          .filter((id) => offered.includes(id));
        expect(solvers.length === 7, `the page offers ${offered}`);
        // Short phones (375 × 667, 320 × 568) give the canvas less height than width so that the
        // readout stays on screen; taller ones a square canvas.
        for (const [width, height, shape] of [[390, 844, 0.85], [412, 915, 0.85], [360, 800, 0.85], [375, 667, 0.5],
          [320, 568, 0.5]]) {
          for (const id of solvers) {
            await page.selectOption('#solver', id);
            const at = `${width} × ${height}, ${id}`;
            const shown = await layoutAt(page, width, height);
            // Page coordinates: as the page stands before the user scrolls.
            const bottom = shown.solve.bottom + shown.scrollY;
            expect(shown.solve.top >= shown.hint.bottom && shown.solve.top - shown.hint.bottom < 30,
              `${at}: the readout starts at ${shown.solve.top}, the hint ends at ${shown.hint.bottom}`);
            expect(bottom <= height, `${at}: the readout ends at ${bottom}, below the window`);
            expect(shown.canvas.width >= width - 30 && shown.canvas.height >= shape * shown.canvas.width,
              `${at}: the canvas is ${shown.canvas.width} × ${shown.canvas.height}`);
          }
        }
        await page.selectOption('#solver', 'two-bone-2d');
        const shown = await layoutAt(page, 1280, 800);
        expect(shown.solve.left >= shown.canvas.right && shown.solve.top >= shown.solver.bottom,
          `1280 × 800: the readout is at ${shown.solve.left}, ${shown.solve.top}, not in the panel under the menu`);
      });
    await check('the console stayed free of errors and warnings while the window changed', async () => {
      expect(playground.problems.length === 0, playground.problems.join('\n'));
    });
  } finally {
    await playground.close();
  }
}
