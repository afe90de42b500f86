// What the web checks share: where the build puts things, the module loaded in node, and a few
// vector functions for stating properties.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Reach } from '../public/js/reach.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OUT = path.join(REPO, 'build', 'web');
export const WASM = path.join(OUT, 'reach.wasm');

// A fresh instance of the module each time, so one check's rig never leaks into the next.
export function loadModule() {
  const module = new WebAssembly.Module(fs.readFileSync(WASM));
  const instance = new WebAssembly.Instance(module, {});
  instance.exports._initialize();
  return new Reach(instance.exports);
}

export const sub = (a, b) => a.map((v, i) => v - b[i]);
export const add = (a, b) => a.map((v, i) => v + b[i]);
export const scale = (a, s) => a.map((v) => v * s);
export const dot = (a, b) => a.reduce((sum, v, i) => sum + v * b[i], 0);
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a) => Math.hypot(...a);
export const unit = (a) => a.map((v) => v / norm(a));
export const total = (lengths) => lengths.reduce((sum, l) => sum + l, 0);

// A small seeded generator (mulberry32), so a failing case can be found again.
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
