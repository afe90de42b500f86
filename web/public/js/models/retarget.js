// A clip kept as the source of retargeting: the character it played on (its three.js bones,
// detached from the scene once another model is shown) and a mixer of its own that moves them.
// Each frame hands the source's pose to the module, which carries it onto the model shown.
import * as THREE from 'three';

export class RetargetSource {
  // model: the character shown (load.js), clip: the clip playing on it.
  constructor(model, clip) {
    this.fileName = model.fileName;
    this.clip = clip;
    this.bones = model.bones;
    this.nodes = model.nodes;
    this.space = model.space;
    this.mixer = new THREE.AnimationMixer(model.root);
    this.action = this.mixer.clipAction(clip);
    this.frames = 0;
  }

  // From the clip's start: its first frame, then each call seconds further (looping).
  restart() {
    this.action.reset();
    this.action.play();
    this.mixer.update(0);
    this.frames = 0;
  }

  // Moves the clip on by seconds and hands the pose to the module; the bones the clip does not
  // move (an outer root) keep their rest, as the page's own clip playing does.
  send(module, seconds) {
    if (this.frames > 0) this.mixer.update(seconds);
    this.frames++;
    this.nodes.forEach((node, b) => {
      if (this.bones[b].parent >= 0 || node.parent === this.space) {
        module.setSourceBone(b, node.position.toArray(), node.quaternion.toArray());
      }
    });
    return this.action.time;
  }
}
