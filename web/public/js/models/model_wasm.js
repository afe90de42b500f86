// The dropped model in the module (web/wasm/model.c): handing a skeleton over bone by bone, and
// reading its pose, joint values and solve reports back.

export const MODEL_EXPORTS = ['reach_wasm_model_begin', 'reach_wasm_model_bone', 'reach_wasm_model_joint',
  'reach_wasm_model_mimic', 'reach_wasm_model_name_buffer', 'reach_wasm_model_name', 'reach_wasm_model_finish',
  'reach_wasm_model_bad_bone', 'reach_wasm_model_rest', 'reach_wasm_model_middle', 'reach_wasm_model_set_local', 'reach_wasm_model_bone_count',
  'reach_wasm_model_local', 'reach_wasm_model_world', 'reach_wasm_model_value_count', 'reach_wasm_model_values',
  'reach_wasm_model_is_humanoid', 'reach_wasm_model_humanoid_bone', 'reach_wasm_model_angle_residual',
  'reach_wasm_model_solve', 'reach_wasm_model_body_target', 'reach_wasm_model_body_look_at',
  'reach_wasm_model_body_solve', 'reach_wasm_model_missing_role', 'reach_wasm_role_name',
  'reach_wasm_retarget_keep_source', 'reach_wasm_retarget_source_bone_count', 'reach_wasm_retarget_source_bone',
  'reach_wasm_retarget_start', 'reach_wasm_retarget_bad_role', 'reach_wasm_retarget_bad_side',
  'reach_wasm_retarget_frame', 'reach_wasm_retarget_planted', 'reach_wasm_retarget_leg_scale'];

// reach_joint_type's values.
const JOINT_TYPES = { ball: 0, hinge: 1, cone: 2, prismatic: 3, fixed: 4 };
const NAME_SIZE = 64;

// The solvers a single effector can use: reach_jacobian_method's values, then FABRIK and CCD.
export const EFFECTOR_SOLVERS = [
  { id: 2, name: 'Jacobian: damped least squares (DLS)' },
  { id: 3, name: 'Jacobian: selectively damped (SDLS)' },
  { id: 1, name: 'Jacobian: pseudoinverse' },
  { id: 0, name: 'Jacobian: transpose' },
  { id: 4, name: 'FABRIK' },
  { id: 5, name: 'CCD' },
];

// reach_body_part's values, for the puppet's handles.
export const BODY_PARTS = { hips: 0, head: 1, leftHand: 2, rightHand: 3, leftFoot: 4, rightFoot: 5 };
// reach_humanoid_role's values of the bones those parts move.
export const PART_ROLES = { hips: 0, head: 5, leftHand: 9, rightHand: 13, leftFoot: 16, rightFoot: 20 };

export class ModelModule {
  constructor(reach) {
    this.reach = reach;
    this.e = reach.exports;
  }

  // Hands a skeleton to the module: bones as urdf.js or characters.js describe them. Returns
  // '' or the reason it was refused (the model shown before stays).
  load(bones, { naturalLimits }) {
    const { e, reach } = this;
    const fail = (status, bone) => `${reach.statusText(status)}${bone >= 0 ? ` at bone '${bones[bone].name}'` : ''}`;
    let status = e.reach_wasm_model_begin(bones.length);
    if (status) return bones.length > 256 ? `${bones.length} bones, more than the page takes (256)` : fail(status, -1);
    const encoder = new TextEncoder();
    for (let i = 0; i < bones.length; i++) {
      const { parent, position: t, quaternion: q, joint, mimic, name } = bones[i];
      status = e.reach_wasm_model_bone(i, parent, t[0], t[1], t[2], q[0], q[1], q[2], q[3]);
      if (!status) {
        status = e.reach_wasm_model_joint(i, JOINT_TYPES[joint.type], joint.axis[0], joint.axis[1], joint.axis[2],
          joint.min, joint.max);
      }
      if (!status && mimic) status = e.reach_wasm_model_mimic(i, mimic.leader, mimic.multiplier, mimic.offset);
      if (status) return fail(status, i);
      const bytes = encoder.encode(name ?? '').subarray(0, NAME_SIZE - 1);
      const buffer = new Uint8Array(e.memory.buffer, e.reach_wasm_model_name_buffer(), NAME_SIZE);
      buffer.fill(0);
      buffer.set(bytes);
      e.reach_wasm_model_name(i);
    }
    status = e.reach_wasm_model_finish(naturalLimits ? 1 : 0);
    return status ? fail(status, e.reach_wasm_model_bad_bone()) : '';
  }

  get boneCount() {
    return this.e.reach_wasm_model_bone_count();
  }

  get humanoid() {
    return this.e.reach_wasm_model_is_humanoid() !== 0;
  }

  humanoidBone(role) {
    return this.e.reach_wasm_model_humanoid_bone(role);
  }

  // The pose, one { quaternion: [x, y, z, w], position: [x, y, z] } per bone.
  transforms(pointer) {
    const flat = this.reach.reals(pointer, this.boneCount * 7);
    return Array.from({ length: this.boneCount }, (_, b) =>
      ({ quaternion: flat.slice(7 * b, 7 * b + 4), position: flat.slice(7 * b + 4, 7 * b + 7) }));
  }

  local() {
    return this.transforms(this.e.reach_wasm_model_local());
  }

  world() {
    return this.transforms(this.e.reach_wasm_model_world());
  }

  values() {
    return this.reach.reals(this.e.reach_wasm_model_values(), this.e.reach_wasm_model_value_count());
  }

  setLocal(bone, position, quaternion) {
    return this.e.reach_wasm_model_set_local(bone, ...position, ...quaternion);
  }

  rest() {
    return this.report(this.e.reach_wasm_model_rest());
  }

  // Every hinge and prismatic joint at the middle of its range.
  middle() {
    return this.report(this.e.reach_wasm_model_middle());
  }

  // One effector to a position (and a rotation, when given), by the solver's id.
  solve(effector, position, quaternion, solver, maxIterations) {
    const q = quaternion ?? [0, 0, 0, 1];
    return this.report(this.e.reach_wasm_model_solve(effector, ...position, quaternion ? 1 : 0, ...q, solver,
      maxIterations));
  }

  // targets: { part name: [x, y, z] or null }, lookAt: [x, y, z] or null.
  solveBody(targets, lookAt, maxIterations) {
    const { e } = this;
    for (const [part, index] of Object.entries(BODY_PARTS)) {
      const at = targets[part];
      const status = e.reach_wasm_model_body_target(index, at ? 1 : 0, ...(at ?? [0, 0, 0]));
      if (status) return this.report(status);
    }
    const status = e.reach_wasm_model_body_look_at(lookAt ? 1 : 0, ...(lookAt ?? [0, 0, 0]));
    return this.report(status || e.reach_wasm_model_body_solve(maxIterations));
  }

  roleName(role) {
    return this.reach.string(this.e.reach_wasm_role_name(role));
  }

  // The first humanoid role the model shown lacks, by name; '' on a humanoid.
  get missingRole() {
    const role = this.e.reach_wasm_model_missing_role();
    return role >= 0 ? this.roleName(role) : '';
  }

  // ---- retargeting: a kept clip's skeleton drives the model shown -----------------------------

  // The humanoid shown becomes the source. Returns '' or why it cannot.
  keepSource() {
    if (!this.e.reach_wasm_retarget_keep_source()) return '';
    const missing = this.missingRole;
    return `it is no humanoid (no bone found for the role '${missing || '?'}')`;
  }

  setSourceBone(bone, position, quaternion) {
    return this.e.reach_wasm_retarget_source_bone(bone, ...position, ...quaternion);
  }

  // A retargeting from the source onto the model shown. Returns '' or why it cannot, naming the role.
  startRetarget({ robot }) {
    const { e, reach } = this;
    const status = e.reach_wasm_retarget_start(robot ? 1 : 0);
    if (!status) return '';
    const role = e.reach_wasm_retarget_bad_role();
    const side = ['the clip\'s skeleton', 'the model shown'][e.reach_wasm_retarget_bad_side()];
    if (role < 0 || !side) return reach.statusText(status);
    return `the role '${this.roleName(role)}' cannot be mapped on ${side} (no bone found for it, or not in order ` +
      'with the other roles)';
  }

  // One frame dt seconds after the last: the source's pose, set bone by bone, onto the model shown.
  retargetFrame(dt) {
    const report = this.report(this.e.reach_wasm_retarget_frame(dt));
    report.planted = [this.e.reach_wasm_retarget_planted(0) !== 0, this.e.reach_wasm_retarget_planted(1) !== 0];
    return report;
  }

  get legScale() {
    return this.e.reach_wasm_retarget_leg_scale();
  }

  report(status) {
    const { e, reach } = this;
    return {
      status,
      statusText: reach.statusText(status),
      iterations: e.reach_wasm_iterations(),
      residual: e.reach_wasm_residual(),
      angleResidual: e.reach_wasm_model_angle_residual(),
      reached: e.reach_wasm_reached() !== 0,
    };
  }
}
