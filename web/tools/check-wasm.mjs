// Checks a freshly linked reach.wasm against what the pages expect of it, before the build
// installs it: no imports (the pages pass none), every export reach.js and the models page call,
// and at least one solver module whose entry points are there. Prints what the page will offer.
//
//   node web/tools/check-wasm.mjs build/web/reach.wasm
import fs from 'node:fs';
import { Reach } from '../public/js/reach.js';
import { SOLVERS, availableSolvers } from '../public/js/solvers/index.js';
import { MODEL_EXPORTS } from '../public/js/models/model_wasm.js';

const file = process.argv[2];
const bytes = fs.readFileSync(file);
const module = new WebAssembly.Module(bytes);
const imports = WebAssembly.Module.imports(module);
if (imports.length) {
  console.error(`${file}: imports ${imports.map((i) => `${i.module}.${i.name}`).join(', ')}; the page provides none`);
  process.exit(1);
}
const instance = new WebAssembly.Instance(module, {});
instance.exports._initialize();
let reach;
try {
  reach = new Reach(instance.exports);
} catch (error) {
  console.error(`${file}: ${error.message}`);
  process.exit(1);
}
const missing = MODEL_EXPORTS.filter((name) => !reach.has(name));
if (missing.length) {
  console.error(`${file}: the models page calls ${missing.join(', ')}, which it lacks`);
  process.exit(1);
}
const offered = availableSolvers(reach);
if (!offered.length) {
  console.error(`${file}: none of the page's solvers has its entry points (${SOLVERS.map((s) => s.id).join(', ')})`);
  process.exit(1);
}
const kib = (bytes.length / 1024).toFixed(1);
console.log(`${file}: ${kib} KiB, library ${reach.version} (${reach.precision}), solvers: ` +
  offered.map((s) => s.id).join(', '));
