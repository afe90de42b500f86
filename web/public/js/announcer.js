// What a screen reader hears of a solve: one short sentence in a polite live region, said when
// the user's action has ended (a drag or a tap let go, a key pressed, a control changed) and the
// page has had a moment to settle. The readout itself changes every frame in the walkers, and
// with every pointer move in the crowds: a region that said each of those would talk over the
// user without end.

// Quiet after the last action before speaking: a key held down says its last result once.
const SETTLE_MS = 400;
// The shortest time between two sentences, so one is never cut short by the next.
const MIN_GAP_MS = 2000;
// How often a scene still moving on its own (a walker on its way) is looked at again, to say
// where it came to rest.
const WATCH_MS = 250;

export class Announcer {
  // region: the live region; describe(): { text, moving } of the scene on screen, moving when it
  // goes on changing by itself after the action.
  constructor(region, describe) {
    this.region = region;
    this.describe = describe;
    this.timer = null;
    this.spokenAt = -Infinity;
  }

  actionEnded() {
    this.speakAfter(SETTLE_MS, false);
  }

  speakAfter(delay, onlyWhenStill) {
    clearTimeout(this.timer);
    const wait = Math.max(delay, this.spokenAt + MIN_GAP_MS - performance.now());
    this.timer = setTimeout(() => this.speak(onlyWhenStill), wait);
  }

  speak(onlyWhenStill) {
    const { text, moving = false } = this.describe();
    if (!(onlyWhenStill && moving) && text !== this.region.textContent) {
      this.region.textContent = text;
      this.spokenAt = performance.now();
    }
    if (moving) this.speakAfter(WATCH_MS, true);
  }
}
