// The side panel: solver choice, the chain's bone lengths and soft IK, the robot's method and
// orientation, the crowd's size, or the walker's legs, ground and speed, and the live readout.

// Bone lengths the page offers, in world units: long enough to see, short enough to fit.
export const LENGTH_RANGE = { min: 0.1, max: 3, step: 0.01 };

const $ = (id) => document.getElementById(id);

const HINTS = {
  pole2: 'Drag the target or the pole · click anywhere to move the target there',
  pole3: 'Drag the target or the pole in the plane facing you · drag empty space to turn the view',
  chain2: 'Drag the target · click anywhere to move it there',
  chain3: 'Drag the target in the plane facing you · drag empty space to turn the view',
  walker2: 'Move the pointer over the canvas (or drag) and the creature walks toward it',
  walker3: 'Move the pointer over the ground (or tap it) and the creature walks there · drag to turn the view',
  robot3: 'Drag the target in the plane facing you · drag empty space to turn the view',
  crowd3: 'Move the pointer and every limb reaches for the target · drag to turn the view',
};
const DEGREES = 180 / Math.PI;

export class Panel {
  // handlers: chooseSolver(id), setBoneCount(count), setBoneLength(bone, length) → error text
  // or '', setSoft(on, distance), setLimit(radians), setIterationCap(count),
  // setLegCount(count) → error text or '', setTerrain(name) → error text or '', setSpeed(speed),
  // setMethod(method), setOrientation({ enabled, turn, tilt }), readyPose(),
  // setArmCount(count) → error text or ''
  constructor(solvers, handlers) {
    this.handlers = handlers;
    const select = $('solver');
    // One group of options per heading, in the solvers' order.
    for (const solver of solvers) {
      let group = [...select.children].find((g) => g.label === solver.group);
      if (!group) {
        group = document.createElement('optgroup');
        group.label = solver.group;
        select.append(group);
      }
      group.append(new Option(solver.name, solver.id));
    }
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
    $('terrain').addEventListener('change', () => {
      const error = handlers.setTerrain($('terrain').value);
      $('walker-message').textContent = error ? `ground: ${error}` : '';
    });

    $('robot-method').addEventListener('change', () => handlers.setMethod(Number($('robot-method').value)));
    const orientationChanged = () => {
      const enabled = $('robot-orient').checked;
      for (const name of ['robot-turn', 'robot-tilt']) {
        $(name).disabled = !enabled;
        $(`${name}-value`).value = `${$(name).value}°`;
      }
      handlers.setOrientation({ enabled, turn: Number($('robot-turn').value) / DEGREES,
        tilt: Number($('robot-tilt').value) / DEGREES });
    };
    $('robot-orient').addEventListener('change', orientationChanged);
    $('robot-turn').addEventListener('input', orientationChanged);
    $('robot-tilt').addEventListener('input', orientationChanged);
    $('robot-ready').addEventListener('click', () => handlers.readyPose());

    $('arms').addEventListener('change', () => {
      const error = handlers.setArmCount(Number($('arms').value));
      if (error) this.showCrowdError(error);
      else $('crowd-message').textContent = '';
    });
    $('speed').addEventListener('input', () => {
      $('speed-value').value = Number($('speed').value).toFixed(1);
      handlers.setSpeed(Number($('speed').value));
    });
  }

  showSolver(solver) {
    $('solver').value = solver.id;
    $('solver-summary').textContent = solver.summary;
    const kind = solver.kind ?? 'chain';
    const chain = kind === 'chain';
    $('chain-section').hidden = !chain;
    $('soft-section').hidden = !chain || !solver.softIK;
    $('iterative-section').hidden = !chain || !solver.limits;
    $('walker-section').hidden = kind !== 'walker';
    $('robot-section').hidden = kind !== 'robot';
    $('crowd-section').hidden = kind !== 'crowd';
    const hint = chain ? `${solver.usesPole ? 'pole' : 'chain'}${solver.dims}` : `${kind}${solver.dims}`;
    $('hint').textContent = HINTS[hint];
    const keys = ['the arrow keys move the target (Shift: further)'];
    if (solver.usesPole) keys.push('P switches them to the pole and back');
    if (solver.dims === 3) keys.push('W, A, S and D turn the view');
    $('scene').setAttribute('aria-label', `${solver.name}. ${HINTS[hint]}. Keyboard: ${keys.join('; ')}.`);
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

  showWalker(solver, legCount, terrain, speed, speedRange) {
    const legs = $('legs');
    legs.replaceChildren(...solver.legCounts.map((count) => new Option(String(count), String(count))));
    legs.value = String(legCount);
    const ground = $('terrain');
    ground.replaceChildren(...solver.terrains.map((t) => new Option(t.name, t.name)));
    ground.value = terrain.name;
    $('terrain-row').hidden = solver.terrains.length < 2;
    Object.assign($('speed'), speedRange, { value: speed });
    $('speed-value').value = speed.toFixed(1);
    $('walker-message').textContent = '';
  }

  showCrowd(solver, arms) {
    $('arms-label').textContent = solver.members;
    $('arms').replaceChildren(...solver.armCounts.map((count) => new Option(String(count), String(count))));
    $('arms').value = String(arms);
    $('crowd-message').textContent = '';
  }

  showCrowdError(error) {
    $('crowd-message').textContent = `${$('arms-label').textContent}: ${error}`;
  }

  // orientation: { enabled, turn, tilt } (rad)
  showRobot(solver, { method, orientation }) {
    const select = $('robot-method');
    select.replaceChildren(...solver.methods.map((m) => new Option(m.name, String(m.method))));
    select.value = String(method);
    $('robot-orient').checked = orientation.enabled;
    $('robot-turn').value = Math.round(orientation.turn * DEGREES);
    $('robot-tilt').value = Math.round(orientation.tilt * DEGREES);
    for (const name of ['robot-turn', 'robot-tilt']) {
      $(name).disabled = !orientation.enabled;
      $(`${name}-value`).value = `${$(name).value}°`;
    }
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
      // The length in use, not rounded to the slider's step (6 digits: the float the library
      // keeps has about 7).
      const shown = (value) => String(Number(value.toPrecision(6)));
      for (const input of [slider, box]) Object.assign(input, LENGTH_RANGE, { value: shown(length) });
      let current = length;
      const apply = (input) => {
        const error = this.handlers.setBoneLength(bone, input.valueAsNumber);
        this.showMessage(error ? `bone ${bone + 1}: ${error}` : '');
        // Both inputs show what the chain really has, after a refused edit too.
        if (!error) current = input.valueAsNumber;
        for (const other of [slider, box]) other.value = shown(current);
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
