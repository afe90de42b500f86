// What a screen reader hears of the solves, in Chromium: the page's polite live region says the
// result once a drag is let go or the arrow keys have moved the target, in figures that match
// the page's state; in the scenes that change every frame (the walkers) or with every move of
// the pointer (the crowds) it stays quiet in between rather than talk over the user.
import { openPlayground } from './browser.mjs';
import { check, expect } from './harness.mjs';
import { pageTools, pixelOf } from './page.mjs';
import { norm, sub } from './support.mjs';

// Each change of the live region's text is one sentence said; heard() lists those since the last
// call of forget().
async function listen(page) {
  await page.evaluate(() => {
    const region = document.getElementById('solve-status');
    window.heardSentences = [];
    if (!region) return;
    new MutationObserver(() => window.heardSentences.push(region.textContent))
      .observe(region, { childList: true, characterData: true, subtree: true });
  });
  return {
    heard: () => page.evaluate(() => window.heardSentences.slice()),
    forget: () => page.evaluate(() => { window.heardSentences = []; }),
    // Waits for a sentence that starts with `start` (any, when empty), and returns all heard.
    awaitSentence: async (start = '', timeout = 5000) => {
      await page.waitForFunction((text) => window.heardSentences.some((s) => s.startsWith(text)), start, { timeout });
      return page.evaluate(() => window.heardSentences.slice());
    },
  };
}

// Longer than the announcer waits for the page to settle: a second sentence would have come.
const AFTERWARDS_MS = 900;

export async function announceChecks() {
  let playground;
  await check('the page opens for the live region checks', async () => {
    playground = await openPlayground();
  });
  if (!playground) return;
  const { page } = playground;
  const { state, setRange, drag } = pageTools(page);
  try {
    const { heard, forget, awaitSentence } = await listen(page);

    await check('a polite live region says the result once a drag is let go, not at every move', async () => {
      const region = await page.evaluate(() => {
        const p = document.getElementById('solve-status');
        return p && { live: p.getAttribute('aria-live'), role: p.getAttribute('role') };
      });
      expect(region, 'the page has no #solve-status region');
      expect(region.live === 'polite' && region.role === 'status', `the region is ${JSON.stringify(region)}`);
      let s = await state();
      await drag(s.screen.target, pixelOf(s, [0.9, -0.6]), 20);
      await awaitSentence();
      await page.waitForTimeout(AFTERWARDS_MS);
      const said = await heard();
      s = await state();
      const distance = norm(sub(s.target, s.joints[0])).toFixed(4);
      expect(said.length === 1, `said ${said.length} times: ${JSON.stringify(said)}`);
      expect(said[0].startsWith('Reached: residual') && said[0].includes('closed form') && said[0].includes(distance),
        `said '${said[0]}'; the target is ${distance} from the root`);
    });

    await check('arrow keys pressed in a run are said once, with where the last one left the target', async () => {
      await forget();
      await page.focus('#scene');
      for (let press = 0; press < 10; press++) {
        await page.keyboard.press('ArrowRight');
        await page.waitForTimeout(30);
      }
      await awaitSentence();
      await page.waitForTimeout(AFTERWARDS_MS);
      const said = await heard();
      const s = await state();
      const distance = norm(sub(s.target, s.joints[0])).toFixed(4);
      expect(said.length === 1 && said[0].includes(distance),
        `said ${JSON.stringify(said)}; the target is ${distance} from the root`);
    });

    await check('the walker is said when a key moves its goal and when it arrives, not every frame', async () => {
      await page.selectOption('#solver', 'walker-2d');
      await setRange('#speed', 2);
      await awaitSentence('Arrived', 12000);
      // A sentence is never cut short by the next: the keys' comes 2 s after the arrival's at the
      // soonest, and the walk it describes must still be on its way then.
      await page.waitForTimeout(2000);
      await forget();
      const before = await state();
      await page.focus('#scene');
      for (let press = 0; press < 5; press++) await page.keyboard.press('Shift+ArrowLeft');
      const said = await awaitSentence('Arrived', 12000);
      await page.waitForTimeout(AFTERWARDS_MS);
      const s = await state();
      const frames = s.renders - before.renders;
      expect(frames > 60, `only ${frames} frames drawn`);
      expect(said.length === 2 && said[0].startsWith('Walking to the target') && said[1].startsWith('Arrived'),
        `over ${frames} frames, said ${JSON.stringify(said)}`);
      expect(JSON.stringify(await heard()) === JSON.stringify(said), 'it went on talking after the arrival');
      await setRange('#speed', 1.5);
    });

    await check('the pointer passing over the crowd says nothing; a tap says how many arms reached', async () => {
      await forget();
      await page.selectOption('#solver', 'crowd');
      await awaitSentence('');
      await forget();
      const box = await page.locator('#scene').boundingBox();
      const at = (x, y) => [box.x + x * box.width, box.y + y * box.height];
      for (const [x, y] of [[0.3, 0.3], [0.7, 0.4], [0.4, 0.7], [0.6, 0.6]]) {
        await page.mouse.move(...at(x, y), { steps: 10 });
      }
      await page.waitForTimeout(AFTERWARDS_MS);
      expect((await heard()).length === 0, `said ${JSON.stringify(await heard())} while the pointer moved`);
      await page.mouse.down();
      await page.mouse.up();
      const said = await awaitSentence();
      await page.waitForTimeout(AFTERWARDS_MS);
      const s = await state();
      const reached = s.reachedArms.filter(Boolean).length;
      expect(said.length === 1 && said[0].startsWith(`${reached} of 1024 arms reached the target`),
        `said ${JSON.stringify(await heard())}; ${reached} arms reached`);
    });

    await check('the console stayed free of errors and warnings while the region spoke', async () => {
      expect(playground.problems.length === 0, playground.problems.join('\n'));
    });
  } finally {
    await playground.close();
  }
}
