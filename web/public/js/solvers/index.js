// The solvers the page offers. Each is a module with a small interface:
//   id, name, summary     identity and a few words for the panel
//   group                 the heading it is listed under in the menu
//   kind                  'chain' (the default): an IK chain with a target and a pole;
//                         'robot': the robot arm; 'crowd': many limbs solved as a batch;
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
// a robot
//   methods               the Jacobian methods it offers ({ method, name, summary }), the first the default
//   start(reach), solve(reach, goal)   goal = { target, orientation: { enabled, turn, tilt },
//                         method, maxIterations }; return reach.robotOutcome(status)
// a crowd
//   member, members       what one of the crowd is called, and many (the panel's words)
//   spacing, overhang     its grid's spacing and the room past the grid's edge, for framing the view
//   targetHeight          the height of the plane the target moves in
//   armCounts, defaultArms    the crowd sizes it offers, and the one it starts with
//   start(reach, count)   returns outcome(status)
//   follow(reach, target) the batch call alone (so it can be timed): returns its status
//   again(reach)          optional: the last follow again from where it started, when following
//                         the same target again would not repeat its work
//   outcome(reach, status)    the crowd after it: limbs (joints root first), roots, ends,
//                         residuals, reached, isa, and iterations where the solver iterates
// and a walker
//   legCounts, terrains   the leg counts and terrains it offers, the first ones the defaults
//   start(reach, legs, terrain), follow(reach, goal, speed, dt)   return reach.walkerOutcome(status)
// Adding a solver: export its entry point from web/wasm/, write a module like these, list it.
import twoBone2d from './two_bone_2d.js';
import twoBone3d from './two_bone_3d.js';
import { ccd2d, ccd3d, fabrik2d, fabrik3d } from './iterative.js';
import { JACOBIAN_SOLVERS } from './jacobian.js';
import robotUr5 from './robot_ur5.js';
import crowd from './crowd.js';
import tentacles from './tentacles.js';
import { walker2d, walker3d } from './walker.js';

// In menu order; each 3-D solver right after its 2-D sibling, and each group together.
export const SOLVERS = [twoBone2d, twoBone3d, fabrik2d, fabrik3d, ccd2d, ccd3d, ...JACOBIAN_SOLVERS, robotUr5,
  crowd, tentacles, walker2d, walker3d];

export function availableSolvers(reach) {
  return SOLVERS.filter((solver) => solver.requires.every((name) => reach.has(name)));
}
