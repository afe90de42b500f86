// The bones of a model drawn from the module's pose: a rod from each joint to each child's joint
// and a ball on every joint (robots' moving joints in the accent colour). Robots whose links
// are meshes and characters without a skinned mesh are seen this way; over a skinned mesh the
// rods are thin, for the bones under the skin.
import * as THREE from 'three';

const UP = new THREE.Vector3(0, 1, 0);

export class Figure {
  // bones: the skeleton (parents); moving: which bones' joints move; size: the model's extent;
  // thin: draw only a faint skeleton (under a skin).
  constructor(bones, moving, size, thin) {
    this.group = new THREE.Group();
    const radius = size * (thin ? 0.004 : 0.018);
    const rodMaterial = new THREE.MeshStandardMaterial({ color: thin ? 0x64748b : 0x94a3b8, roughness: 0.45,
      metalness: 0.15, transparent: thin, opacity: thin ? 0.6 : 1 });
    const jointMaterial = new THREE.MeshStandardMaterial({ color: 0x475569, roughness: 0.5 });
    const movingMaterial = new THREE.MeshStandardMaterial({ color: 0xf76707, roughness: 0.4 });
    const rod = new THREE.CylinderGeometry(radius, radius, 1, 16).translate(0, 0.5, 0);
    const ball = new THREE.SphereGeometry(radius * 1.5, 20, 14);
    this.rods = [];
    this.balls = [];
    bones.forEach((bone, index) => {
      if (bone.parent >= 0) {
        const mesh = new THREE.Mesh(rod, rodMaterial);
        mesh.castShadow = !thin;
        this.rods.push({ mesh, from: bone.parent, to: index });
        this.group.add(mesh);
      }
      if (!thin) {
        const mesh = new THREE.Mesh(ball, moving[index] ? movingMaterial : jointMaterial);
        mesh.castShadow = true;
        this.balls.push({ mesh, bone: index });
        this.group.add(mesh);
      }
    });
  }

  // world: the module's world transforms (figure.group lives in the skeleton's frame).
  update(world) {
    const from = new THREE.Vector3(), to = new THREE.Vector3();
    for (const { mesh, from: a, to: b } of this.rods) {
      from.fromArray(world[a].position);
      to.fromArray(world[b].position);
      const length = from.distanceTo(to);
      mesh.visible = length > 1e-6;
      if (!mesh.visible) continue;
      mesh.position.copy(from);
      mesh.quaternion.setFromUnitVectors(UP, to.sub(from).divideScalar(length));
      mesh.scale.set(1, length, 1);
    }
    for (const { mesh, bone } of this.balls) mesh.position.fromArray(world[bone].position);
  }
}
