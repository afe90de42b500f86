// The Jacobian family (include/reach/jacobian.h) on the page's chain: transpose, pseudoinverse,
// damped least squares and selectively damped least squares, each in the plane and in space,
// with the same bones, bend limits and iteration cap as FABRIK and CCD.
import { TURN_THE_VIEW, chainSolver } from './iterative.js';

// reach_jacobian_method, in the library's order.
export const JACOBIAN_METHODS = [
  { key: 'transpose', method: 0, name: 'transpose',
    summary: 'Jacobian transpose: each step moves the joints along Jᵀe, scaled to fit the linear ' +
      'model best. Cheap; slow near the end.' },
  { key: 'pseudoinverse', method: 1, name: 'pseudoinverse',
    summary: 'Pseudoinverse: each step is J⁺e through an SVD, the least joint motion that removes ' +
      'the linearised error. Fast; jumpy near singular poses.' },
  { key: 'dls', method: 2, name: 'DLS',
    summary: 'Damped least squares: Jᵀ(JJᵀ + λ²I)⁻¹e, damped far from the target and barely near ' +
      'it, so steps stay bounded at singular poses.' },
  { key: 'sdls', method: 3, name: 'SDLS',
    summary: 'Selectively damped least squares (Buss and Kim): each singular direction’s step is ' +
      'clamped by how far it would move the end.' },
];

const LIMITS = ' Every step is clamped into the bend limits.';

function jacobianSolver({ key, method, name, summary }, dims) {
  return chainSolver({
    id: `jacobian-${key}-${dims}d`,
    name: `Jacobian ${name}, ${dims}-D`,
    group: 'Jacobian',
    dims,
    summary: `${summary}${LIMITS}${dims === 3 ? ` ${TURN_THE_VIEW}` : ''}`,
    requires: ['reach_wasm_jacobian'],
    call: (e, { target, limit, maxIterations }) =>
      e.reach_wasm_jacobian(target[0], target[1], target[2], dims, limit, maxIterations, method),
  });
}

// In menu order: each method in 2-D, then in 3-D.
export const JACOBIAN_SOLVERS = JACOBIAN_METHODS.flatMap((m) => [jacobianSolver(m, 2), jacobianSolver(m, 3)]);
