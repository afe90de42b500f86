// The solvers the page offers. Each is a module with a small interface:
//   id, name, summary     identity and one line for the panel
//   dims                  2 or 3: how the scene is drawn and dragged
//   bones                 how many bones its chain has
//   closedForm            true when it has no iterations to report
//   requires              the WebAssembly exports it calls; without them it is not offered
//   solve(reach, goal)    goal = { target, pole, softDistance } in world units; returns
//                         reach.outcome(status): pose, iterations, residual, reached, status
// Adding a solver: export its entry point from web/wasm/, write a module like these, list it.
import twoBone2d from './two_bone_2d.js';
import twoBone3d from './two_bone_3d.js';

export const SOLVERS = [twoBone2d, twoBone3d];

export function availableSolvers(reach) {
  return SOLVERS.filter((solver) => solver.requires.every((name) => reach.has(name)));
}
