// The iterative solvers on a whole chain (include/reach/fabrik.h, ccd.h), in the plane or in
// space: any number of bones, a bend limit on every joint, and an iteration cap.

// A chain solver of this family: call(exports, goal) returns the status of its entry point.
export function chainSolver({ id, name, group, dims, summary, requires, call }) {
  return {
    id,
    name,
    group,
    summary,
    dims,
    bones: { min: 2, max: 10 },
    defaultLengths: [0.6, 0.5, 0.45, 0.4],
    closedForm: false,
    usesPole: false,
    softIK: false,
    limits: true,
    requires,
    solve(reach, goal) {
      return reach.outcome(call(reach.exports, goal));
    },
  };
}

function iterativeSolver({ id, name, group, entry, dims, summary }) {
  const call = (e, { target, limit, maxIterations }) =>
    e[entry](target[0], target[1], target[2], dims, limit, maxIterations);
  return chainSolver({ id, name, group, dims, summary, requires: [entry], call });
}

export const TURN_THE_VIEW = 'Drag empty space to turn the view.';

const FABRIK =
  'FABRIK moves joint positions: a backward pass from the target, a forward pass from the root, ' +
  'repeated until the end is close enough. Bend limits act inside both passes.';
const CCD =
  'Cyclic coordinate descent: from the tip to the root, each joint turns the rest of the chain ' +
  'toward the target, clamped by its limit at once; sweeps repeat until close enough.';

export const fabrik2d = iterativeSolver({ id: 'fabrik-2d', name: 'FABRIK, 2-D', group: 'FABRIK',
  entry: 'reach_wasm_fabrik', dims: 2, summary: FABRIK });
export const fabrik3d = iterativeSolver({ id: 'fabrik-3d', name: 'FABRIK, 3-D', group: 'FABRIK',
  entry: 'reach_wasm_fabrik', dims: 3, summary: `${FABRIK} ${TURN_THE_VIEW}` });
export const ccd2d = iterativeSolver({ id: 'ccd-2d', name: 'CCD, 2-D', group: 'CCD',
  entry: 'reach_wasm_ccd', dims: 2, summary: CCD });
export const ccd3d = iterativeSolver({ id: 'ccd-3d', name: 'CCD, 3-D', group: 'CCD',
  entry: 'reach_wasm_ccd', dims: 3, summary: `${CCD} ${TURN_THE_VIEW}` });
