// The reach library, compiled to WebAssembly (web/wasm/): loading it and reading its memory.
// Every pose comes from the module; this file only moves numbers across the boundary.

const STATUS_OK = 0;

// What this file calls; each solver module lists its own entry points as well.
export const REQUIRED_EXPORTS = [
  'memory', '_initialize', 'reach_wasm_real_size', 'reach_wasm_version', 'reach_wasm_status_text',
  'reach_wasm_joints', 'reach_wasm_joint_count', 'reach_wasm_chain_reset', 'reach_wasm_chain_set_bone_length',
  'reach_wasm_bone_length', 'reach_wasm_iterations', 'reach_wasm_residual', 'reach_wasm_reached',
  'reach_wasm_alternative',
];

export async function loadReach(url) {
  const { instance } = await WebAssembly.instantiateStreaming(fetch(url), {});
  // A reactor module: _initialize runs the C runtime's constructors once, before any call.
  instance.exports._initialize();
  return new Reach(instance.exports);
}

export class Reach {
  constructor(exports) {
    const missing = REQUIRED_EXPORTS.filter((name) => !(name in exports));
    if (missing.length) throw new Error(`reach.wasm lacks ${missing.join(', ')}`);
    this.exports = exports;
    // The library's scalar is float or double depending on how it was built.
    this.Real = exports.reach_wasm_real_size() === 8 ? Float64Array : Float32Array;
    this.version = this.string(exports.reach_wasm_version());
    this.precision = this.Real === Float64Array ? 'double' : 'float';
  }

  has(name) {
    return typeof this.exports[name] === 'function';
  }

  string(pointer) {
    const bytes = new Uint8Array(this.exports.memory.buffer, pointer);
    return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
  }

  statusText(status) {
    return this.string(this.exports.reach_wasm_status_text(status));
  }

  // The joints as [x, y, z] arrays, root first. A fresh view each time: views on memory go
  // stale if the module's memory ever grows.
  joints() {
    const e = this.exports;
    const count = e.reach_wasm_joint_count();
    const values = new this.Real(e.memory.buffer, e.reach_wasm_joints(), count * 3);
    const joints = [];
    for (let i = 0; i < count; i++) joints.push([values[3 * i], values[3 * i + 1], values[3 * i + 2]]);
    return joints;
  }

  boneLengths() {
    const count = this.exports.reach_wasm_joint_count() - 1;
    return Array.from({ length: Math.max(count, 0) }, (_, bone) => this.exports.reach_wasm_bone_length(bone));
  }

  // A straight chain with the given bone lengths. Returns the first failing status, or 0.
  resetChain(lengths) {
    const e = this.exports;
    let status = e.reach_wasm_chain_reset(lengths.length, 1);
    for (let bone = 0; bone < lengths.length && status === STATUS_OK; bone++) {
      status = e.reach_wasm_chain_set_bone_length(bone, lengths[bone]);
    }
    return status;
  }

  setBoneLength(bone, length) {
    return this.exports.reach_wasm_chain_set_bone_length(bone, length);
  }

  reals(pointer, count) {
    return Array.from(new this.Real(this.exports.memory.buffer, pointer, count));
  }

  // What a solver hands back to the page: the status of its call and the last good solve.
  outcome(status) {
    const e = this.exports;
    const alternativePointer = e.reach_wasm_alternative();
    return {
      status,
      statusText: this.statusText(status),
      pose: this.joints(),
      iterations: e.reach_wasm_iterations(),
      residual: e.reach_wasm_residual(),
      reached: e.reach_wasm_reached() !== 0,
      alternative: alternativePointer ? this.reals(alternativePointer, 3) : null,
    };
  }

  // The walker after its last update (the exports of web/wasm/walker.c).
  walkerOutcome(status) {
    const e = this.exports;
    const body = this.reals(e.reach_wasm_walker_body(), 13);
    const [x, y, z, heading] = body;
    const legs = [];
    let pointer = e.reach_wasm_walker_joints();
    for (let leg = 0; leg < e.reach_wasm_walker_leg_count(); leg++) {
      const count = e.reach_wasm_walker_leg_joint_count(leg);
      const flat = this.reals(pointer, count * 3);
      pointer += count * 3 * this.Real.BYTES_PER_ELEMENT;
      legs.push({
        joints: Array.from({ length: count }, (_, j) => flat.slice(3 * j, 3 * j + 3)),
        planted: e.reach_wasm_walker_planted(leg) !== 0,
        steps: e.reach_wasm_walker_leg_steps(leg),
        lift: e.reach_wasm_walker_lift(leg),
      });
    }
    return {
      status,
      statusText: this.statusText(status),
      body: {
        position: [x, y, z],
        heading,
        forward: body.slice(4, 7),
        left: body.slice(7, 10),
        up: body.slice(10, 13),
      },
      legs,
      steps: e.reach_wasm_walker_steps(),
      forcedSteps: e.reach_wasm_walker_forced_steps(),
    };
  }

  // The crowd after its last solve (the exports of web/wasm/crowd.c): per arm its root, mid and
  // end joints, residual and whether it reached.
  crowdOutcome(status) {
    const e = this.exports;
    const count = e.reach_wasm_crowd_count();
    const capacity = e.reach_wasm_crowd_capacity();
    const base = e.reach_wasm_crowd_points();
    const bytes = this.Real.BYTES_PER_ELEMENT;
    const coordinate = (point, axis) => this.reals(base + (point * 3 + axis) * capacity * bytes, count);
    const points = (point) => {
      const [x, y, z] = [0, 1, 2].map((axis) => coordinate(point, axis));
      return x.map((_, k) => [x[k], y[k], z[k]]);
    };
    const [roots, mids, ends] = [0, 1, 2].map(points);
    return {
      status,
      statusText: this.statusText(status),
      roots,
      mids,
      ends,
      limbs: roots.map((root, k) => [root, mids[k], ends[k]]),
      residuals: this.reals(e.reach_wasm_crowd_residuals(), count),
      reached: Array.from(new Uint8Array(e.memory.buffer, e.reach_wasm_crowd_reached(), count), (r) => r !== 0),
      isa: this.string(e.reach_wasm_crowd_isa()),
    };
  }

  // The tentacles after their last solve (the exports of web/wasm/tentacles.c): per tentacle its
  // joints root first, residual, iterations and whether it reached.
  tentaclesOutcome(status) {
    const e = this.exports;
    const count = e.reach_wasm_tentacles_count();
    const capacity = e.reach_wasm_tentacles_capacity();
    const joints = e.reach_wasm_tentacles_bone_count() + 1;
    const base = e.reach_wasm_tentacles_joints();
    const bytes = this.Real.BYTES_PER_ELEMENT;
    // All the x of joint 0, of joint 1, …, then the y, then the z.
    const coordinate = (axis, joint) => this.reals(base + ((axis * joints + joint) * capacity) * bytes, count);
    const columns = Array.from({ length: joints }, (_, j) => [0, 1, 2].map((axis) => coordinate(axis, j)));
    const limbs = Array.from({ length: count }, (_, k) => columns.map(([x, y, z]) => [x[k], y[k], z[k]]));
    return {
      status,
      statusText: this.statusText(status),
      roots: limbs.map((limb) => limb[0]),
      ends: limbs.map((limb) => limb[joints - 1]),
      limbs,
      residuals: this.reals(e.reach_wasm_tentacles_residuals(), count),
      iterations: Array.from(new Int32Array(e.memory.buffer, e.reach_wasm_tentacles_iterations(), count)),
      reached: Array.from(new Uint8Array(e.memory.buffer, e.reach_wasm_tentacles_reached(), count), (r) => r !== 0),
      isa: this.string(e.reach_wasm_tentacles_isa()),
    };
  }

  groundHeight(x, y) {
    return this.exports.reach_wasm_walker_ground_height(x, y);
  }

  // The robot arm after its last solve (the exports of web/wasm/robot.c): the frames of its
  // joints and flange, its joint values and the goal frame, with the module's report.
  robotOutcome(status) {
    const e = this.exports;
    const count = e.reach_wasm_robot_joint_count();
    const frameAt = (flat) =>
      ({ origin: flat.slice(0, 3), x: flat.slice(3, 6), y: flat.slice(6, 9), z: flat.slice(9, 12) });
    const flat = this.reals(e.reach_wasm_robot_frames(), (count + 1) * 12);
    return {
      status,
      statusText: this.statusText(status),
      frames: Array.from({ length: count + 1 }, (_, i) => frameAt(flat.slice(12 * i, 12 * i + 12))),
      values: this.reals(e.reach_wasm_robot_values(), count),
      goal: frameAt(this.reals(e.reach_wasm_robot_goal(), 12)),
      iterations: e.reach_wasm_iterations(),
      residual: e.reach_wasm_residual(),
      angleResidual: e.reach_wasm_robot_angle_residual(),
      reached: e.reach_wasm_reached() !== 0,
    };
  }
}
