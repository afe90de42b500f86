// The solvers the page offers. Each is a module with a small interface:
//   id, name, summary     identity and a few words for the panel
//   kind                  'chain' (the default): an IK chain with a target and a pole;
//                         'walker': a creature that walks toward the target
//   dims                  2 or 3: how the scene is drawn and dragged
//   requires              the WebAssembly exports it calls; without them it is not offered
// A chain solver also has
//   bones                 { min, max }: how many bones its chain may have
//   defaultLengths        the chain it starts with
//   closedForm            true when it has no iterations to report
//   usesPole, softIK, limits   which of the pole, soft IK and bend limits it takes
//   solve(reach, goal)    goal = { target, pole, softDistance, limit, maxIterations } in world
//                         units and radians; returns reach.outcome(status): pose, iterations,
//                         residual, reached, status
// and a walker
//   legCounts             the leg counts it offers, the first one the default
//   start(reach, legs), follow(reach, goal, speed, dt)   return reach.walkerOutcome(status)
// Adding a solver: export its entry point from web/wasm/, write a module like these, list it.
import twoBone2d from './two_bone_2d.js';
import twoBone3d from './two_bone_3d.js';
import { ccd2d, ccd3d, fabrik2d, fabrik3d } from './iterative.js';
import walker2d from './walker_2d.js';

// In menu order; each 3-D solver right after its 2-D sibling.
export const SOLVERS = [twoBone2d, twoBone3d, fabrik2d, fabrik3d, ccd2d, ccd3d, walker2d];

export function availableSolvers(reach) {
  return SOLVERS.filter((solver) => solver.requires.every((name) => reach.has(name)));
}
