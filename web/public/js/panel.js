// The side panel: solver choice, the chain's bone lengths, soft IK, and the live readout.

// Bone lengths the page offers, in world units: long enough to see, short enough to fit.
export const LENGTH_RANGE = { min: 0.1, max: 3, step: 0.01 };

const $ = (id) => document.getElementById(id);

function formatNumber(value) {
  if (!Number.isFinite(value)) return String(value);
  if (value !== 0 && Math.abs(value) < 1e-3) return value.toExponential(2);
  return value.toFixed(4);
}

export class Panel {
  // handlers: chooseSolver(id), setBoneLength(bone, length) → error text or '', setSoft(on, distance)
  constructor(solvers, handlers) {
    this.handlers = handlers;
    const select = $('solver');
    for (const solver of solvers) select.add(new Option(solver.name, solver.id));
    select.addEventListener('change', () => handlers.chooseSolver(select.value));

    const soft = $('soft'), distance = $('soft-distance');
    const softChanged = () => {
      $('soft-distance-value').value = Number(distance.value).toFixed(2);
      distance.disabled = !soft.checked;
      handlers.setSoft(soft.checked, Number(distance.value));
    };
    soft.addEventListener('change', softChanged);
    distance.addEventListener('input', softChanged);
    $('soft-distance-value').value = Number(distance.value).toFixed(2);
    distance.disabled = !soft.checked;
  }

  showSolver(solver) {
    $('solver').value = solver.id;
    $('solver-summary').textContent = solver.summary;
    $('hint').textContent = solver.dims === 3
      ? 'Drag the target or the pole in the plane facing you · drag empty space to turn the view'
      : 'Drag the target or the pole · click anywhere to move the target there';
  }

  // One row per bone: a slider and a number box that stay in step.
  showBones(lengths) {
    const container = $('bones');
    container.replaceChildren();
    lengths.forEach((length, bone) => {
      const row = document.createElement('div');
      row.className = 'slider-row';
      const name = `bone-${bone + 1}`;
      row.innerHTML = `<label for="${name}">bone ${bone + 1}</label>` +
        `<input type="range" id="${name}-slider" aria-label="bone ${bone + 1} length">` +
        `<input type="number" id="${name}" class="length">`;
      container.append(row);
      const [slider, box] = row.querySelectorAll('input');
      for (const input of [slider, box]) Object.assign(input, LENGTH_RANGE, { value: length.toFixed(2) });
      let current = length;
      const apply = (input) => {
        const error = this.handlers.setBoneLength(bone, input.valueAsNumber);
        this.showMessage(error ? `bone ${bone + 1}: ${error}` : '');
        // Both inputs show what the chain really has, after a refused edit too.
        if (!error) current = input.valueAsNumber;
        for (const other of [slider, box]) other.value = current.toFixed(2);
      };
      slider.addEventListener('input', () => apply(slider));
      box.addEventListener('change', () => apply(box));
    });
  }

  showMessage(text) {
    $('chain-message').textContent = text;
  }

  showLibrary(reach) {
    $('library').textContent = `library ${reach.version} (${reach.precision}), running as WebAssembly`;
  }

  showOutcome(solver, outcome, distance, range) {
    $('iterations').textContent = solver.closedForm ? 'closed form' : String(outcome.iterations);
    $('residual').textContent = formatNumber(outcome.residual);
    $('reached').textContent = outcome.reached ? 'yes' : 'no';
    $('reached').className = outcome.reached ? 'good' : 'warn';
    $('distance').textContent = formatNumber(distance);
    $('range').textContent = `${range[0].toFixed(2)} – ${range[1].toFixed(2)}`;
    $('status').textContent = outcome.statusText;
    $('status').className = outcome.status === 0 ? 'good' : 'bad';
  }
}
