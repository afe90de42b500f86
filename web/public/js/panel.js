// The side panel: solver choice, the chain's bone lengths and soft IK, or the walker's legs
// and speed, and the live readout.

// Bone lengths the page offers, in world units: long enough to see, short enough to fit.
export const LENGTH_RANGE = { min: 0.1, max: 3, step: 0.01 };

const $ = (id) => document.getElementById(id);

const HINTS = {
  pole2: 'Drag the target or the pole · click anywhere to move the target there',
  pole3: 'Drag the target or the pole in the plane facing you · drag empty space to turn the view',
  chain2: 'Drag the target · click anywhere to move it there',
  chain3: 'Drag the target in the plane facing you · drag empty space to turn the view',
  walker: 'Move the pointer over the canvas (or drag) and the creature walks toward it',
};

export class Panel {
  // handlers: chooseSolver(id), setBoneCount(count), setBoneLength(bone, length) → error text
  // or '', setSoft(on, distance), setLimit(radians), setIterationCap(count),
  // setLegCount(count) → error text or '', setSpeed(speed)
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

    $('bone-count').addEventListener('input', () => {
      $('bone-count-value').value = $('bone-count').value;
      handlers.setBoneCount(Number($('bone-count').value));
    });
    $('limit').addEventListener('input', () => {
      this.showLimit(Number($('limit').value));
      handlers.setLimit((Number($('limit').value) * Math.PI) / 180);
    });
    $('iteration-cap').addEventListener('input', () => {
      $('iteration-cap-value').value = $('iteration-cap').value;
      handlers.setIterationCap(Number($('iteration-cap').value));
    });

    $('legs').addEventListener('change', () => {
      const error = handlers.setLegCount(Number($('legs').value));
      $('walker-message').textContent = error ? `legs: ${error}` : '';
    });
    $('speed').addEventListener('input', () => {
      $('speed-value').value = Number($('speed').value).toFixed(1);
      handlers.setSpeed(Number($('speed').value));
    });
  }

  showSolver(solver) {
    $('solver').value = solver.id;
    $('solver-summary').textContent = solver.summary;
    const walker = solver.kind === 'walker';
    $('chain-section').hidden = walker;
    $('soft-section').hidden = walker || !solver.softIK;
    $('iterative-section').hidden = walker || !solver.limits;
    $('walker-section').hidden = !walker;
    const hint = walker ? 'walker' : `${solver.usesPole ? 'pole' : 'chain'}${solver.dims}`;
    $('hint').textContent = HINTS[hint];
  }

  // settings: { lengths, bones: { min, max }, soft, limit (rad), maxIterations }
  showChain({ lengths, bones, soft, limit, maxIterations }) {
    $('bone-count-row').hidden = bones.min === bones.max;
    Object.assign($('bone-count'), { min: bones.min, max: bones.max, value: lengths.length });
    $('bone-count-value').value = String(lengths.length);
    this.showBones(lengths);
    this.showMessage('');
    $('limit').value = Math.round((limit * 180) / Math.PI);
    this.showLimit(Number($('limit').value));
    $('iteration-cap').value = maxIterations;
    $('iteration-cap-value').value = String(maxIterations);
    $('soft').checked = soft.enabled;
    $('soft-distance').value = soft.distance;
    $('soft-distance').disabled = !soft.enabled;
    $('soft-distance-value').value = soft.distance.toFixed(2);
  }

  showWalker(legCounts, legCount, speed, speedRange) {
    const legs = $('legs');
    legs.replaceChildren(...legCounts.map((count) => new Option(String(count), String(count))));
    legs.value = String(legCount);
    Object.assign($('speed'), speedRange, { value: speed });
    $('speed-value').value = speed.toFixed(1);
    $('walker-message').textContent = '';
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

  showLimit(degrees) {
    $('limit-value').value = degrees >= 180 ? 'free' : `±${degrees}°`;
  }

  showMessage(text) {
    $('chain-message').textContent = text;
  }

  showLibrary(reach) {
    $('library').textContent = `library ${reach.version} (${reach.precision}), running as WebAssembly`;
  }

  // rows: [label, text, class name] for the readout list. The walker updates it every frame:
  // when the labels are the same, only the values change.
  showReadout(rows) {
    const list = $('readout');
    const labels = [...list.querySelectorAll('dt')].map((dt) => dt.textContent);
    if (labels.join('\n') !== rows.map(([label]) => label).join('\n')) {
      list.replaceChildren(...rows.flatMap(([label]) => {
        const dt = document.createElement('dt');
        dt.textContent = label;
        return [dt, document.createElement('dd')];
      }));
    }
    const values = list.querySelectorAll('dd');
    rows.forEach(([, text, className], i) => {
      values[i].textContent = text;
      values[i].className = className;
    });
  }
}
