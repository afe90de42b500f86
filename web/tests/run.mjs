// The web playground's tests: the WebAssembly module in node, then the page in Chromium.
//
//   node web/tests/run.mjs      (`make web-test` builds the module and installs npm packages first)
import fs from 'node:fs';
import { summary } from './harness.mjs';
import { WASM } from './support.mjs';
import { moduleChecks } from './module.checks.mjs';
import { modelChecks } from './model.checks.mjs';
import { jacobianChecks } from './jacobian.checks.mjs';
import { robotChecks } from './robot.checks.mjs';
import { walker3dChecks } from './walker3d.checks.mjs';
import { crowdChecks } from './crowd.checks.mjs';
import { tentaclesChecks } from './tentacles.checks.mjs';
import { playgroundChecks } from './playground.checks.mjs';
import { layoutChecks } from './layout.checks.mjs';
import { handlesChecks } from './handles.checks.mjs';
import { announceChecks } from './announce.checks.mjs';
import { modelsChecks } from './models.checks.mjs';
import { retargetChecks } from './retarget.checks.mjs';

if (!fs.existsSync(WASM)) {
  console.error('build/web/reach.wasm is missing: run `make web-test` (or `make wasm` first)');
  process.exit(1);
}
await moduleChecks();
await modelChecks();
await retargetChecks();
await jacobianChecks();
await robotChecks();
await walker3dChecks();
await crowdChecks();
await tentaclesChecks();
await playgroundChecks();
await layoutChecks();
await handlesChecks();
await announceChecks();
await modelsChecks();
process.exit(summary());
