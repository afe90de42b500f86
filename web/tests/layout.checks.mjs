// The page's layout in Chromium at the window sizes people use: a short desktop window keeps
// the canvas's hint on screen without scrolling, and a larger one still gives the canvas the
// room there is.
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
      canvas: rect('scene'),
      hint: rect('hint'),
      hintText: document.getElementById('hint').textContent,
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
    await check('the console stayed free of errors and warnings while the window changed', async () => {
      expect(playground.problems.length === 0, playground.problems.join('\n'));
    });
  } finally {
    await playground.close();
  }
}
