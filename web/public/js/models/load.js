// Files to models: a URDF robot (urdf.js), or a character from glTF/GLB, FBX or BVH through
// three.js's loaders. A model is what the page shows and what it hands to the module:
//   kind      'robot' or 'character'
//   root      the object added to the scene
//   space     the object whose frame the skeleton is stated in (the module's world)
//   nodes     one object per bone, whose local transform is the bone's local pose
//   bones     the skeleton (urdf.js's form): name, parent, position, quaternion, joint, mimic
//   clips     the file's animations (three.js AnimationClips)
//   skinned   whether a skinned mesh is drawn (else figure.js draws the bones)
//   meshesDrawn  a robot's mesh visuals drawn from the files dropped with it
//   notes     what was left out, in words
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { FBXLoader } from 'three/addons/loaders/FBXLoader.js';
import { BVHLoader } from 'three/addons/loaders/BVHLoader.js';
import { readUrdf } from './urdf.js';
import { extensionOf } from './files.js';
import { meshFor } from './meshes.js';

export { extensionOf };

export const EXTENSIONS = ['urdf', 'gltf', 'glb', 'fbx', 'bvh'];


// The robot as three.js objects: one group per link under its parent's, the URDF's z up
// turned to three.js's y up. meshFiles: the files dropped with it, by lower-case name.
function robotModel(text, meshFiles) {
  const urdf = readUrdf(text);
  let drawn = 0;
  const root = new THREE.Group();
  root.rotation.x = -Math.PI / 2;
  const space = root;
  const nodes = [];
  const material = new THREE.MeshStandardMaterial({ color: 0x94a3b8, roughness: 0.5, metalness: 0.2 });
  for (const bone of urdf.bones) {
    const node = new THREE.Group();
    node.name = bone.name;
    node.position.fromArray(bone.position);
    node.quaternion.fromArray(bone.quaternion);
    for (const shape of bone.shapes) {
      const geometry = shape.shape === 'box' ? new THREE.BoxGeometry(...shape.size)
        : shape.shape === 'sphere' ? new THREE.SphereGeometry(shape.radius, 24, 16)
          : new THREE.CylinderGeometry(shape.radius, shape.radius, shape.length, 24).rotateX(Math.PI / 2);
      const mesh = new THREE.Mesh(geometry, material);
      mesh.position.fromArray(shape.position);
      mesh.quaternion.fromArray(shape.quaternion);
      mesh.castShadow = true;
      node.add(mesh);
    }
    for (const visual of bone.meshVisuals) {
      let mesh;
      try {
        mesh = meshFor(visual.filename, meshFiles, material);
      } catch (error) {
        throw new Error(`mesh '${visual.filename}': ${error.message}`);
      }
      if (!mesh) continue;
      mesh.position.fromArray(visual.position);
      mesh.quaternion.fromArray(visual.quaternion);
      mesh.scale.fromArray(visual.scale);
      mesh.traverse((part) => {
        if (part.isMesh) part.castShadow = true;
      });
      node.add(mesh);
      drawn++;
    }
    (bone.parent < 0 ? space : nodes[bone.parent]).add(node);
    nodes.push(node);
  }
  const missing = urdf.meshes - drawn;
  const notes = [drawn ? `${drawn} meshes from the files dropped with it` : '',
    missing ? `${missing} mesh visuals drawn as the links between joints (drop their files with the URDF)` : '']
    .filter(Boolean).join('; ');
  return { kind: 'robot', title: urdf.name, root, space, nodes, bones: urdf.bones, clips: [], skinned: false,
    meshesDrawn: drawn, notes };
}

// A character from its three.js bones: every Bone under root, parents first (a depth-first
// walk), each bone's parent the nearest bone above it. The skeleton's frame is the first bone's
// parent; other top bones are stated in it too.
function characterModel(root, clips, title) {
  const nodes = [];
  root.traverse((object) => {
    if (object.isBone) nodes.push(object);
  });
  if (!nodes.length) throw new Error('the file has no skeleton (no bones)');
  const space = nodes[0].parent ?? root;
  root.updateMatrixWorld(true);
  const spaceInverse = space.matrixWorld.clone().invert();
  const bones = nodes.map((node) => {
    let above = node.parent;
    while (above && !above.isBone) above = above.parent;
    const parent = above ? nodes.indexOf(above) : -1;
    const position = node.position.clone(), quaternion = node.quaternion.clone();
    if (parent < 0 && node.parent !== space) {
      new THREE.Matrix4().multiplyMatrices(spaceInverse, node.matrixWorld).decompose(position, quaternion, new THREE.Vector3());
    }
    return {
      name: node.name === 'ENDSITE' ? '' : node.name,
      parent,
      position: position.toArray(),
      quaternion: quaternion.toArray(),
      joint: { type: 'ball', axis: [1, 0, 0], min: 0, max: 0 },
      mimic: null,
    };
  });
  let skinned = false;
  root.traverse((object) => {
    if (object.isSkinnedMesh) skinned = true;
    if (object.isMesh) {
      object.castShadow = true;
      // A skinned mesh moves with its bones, away from the bounds it was loaded with.
      object.frustumCulled = false;
    }
  });
  return { kind: 'character', title, root, space, nodes, bones, clips, skinned, notes: '' };
}

async function gltfModel(data) {
  const gltf = await new GLTFLoader().parseAsync(data, '');
  return characterModel(gltf.scene, gltf.animations ?? [], gltf.scene.name || '');
}

// Runs a loader's parse and gives back what it logged: three.js's FBX and BVH loaders log a
// broken file's faults to the console before they throw, and the page says them instead.
function quietly(parse) {
  const said = [];
  const { error, warn } = console;
  console.error = console.warn = (...words) => said.push(words.join(' ').replace(/^THREE\.\w+: /, ''));
  try {
    return parse();
  } catch (failure) {
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new Error([...said, reason.replace(/^THREE\.\w+: /, '')].filter(Boolean).join('; '));
  } finally {
    Object.assign(console, { error, warn });
  }
}

function fbxModel(data) {
  const group = quietly(() => new FBXLoader().parse(data, ''));
  return characterModel(group, group.animations ?? [], group.name || '');
}

function bvhModel(text) {
  const { skeleton, clip } = quietly(() => new BVHLoader().parse(text));
  const root = new THREE.Group();
  root.add(skeleton.bones[0]);
  return characterModel(root, clip ? [clip] : [], '');
}

// Reads a File (or anything with name and arrayBuffer()), with the mesh files dropped along
// (a Map of lower-case name → { name, data }). Throws Error with a readable message.
export async function loadModelFile(file, meshFiles = new Map()) {
  const extension = extensionOf(file.name);
  if (!EXTENSIONS.includes(extension)) {
    throw new Error(`'.${extension}' is not a file the page reads (${EXTENSIONS.map((e) => `.${e}`).join(', ')})`);
  }
  const data = await file.arrayBuffer();
  if (!data.byteLength) throw new Error('the file is empty');
  const text = () => new TextDecoder().decode(data);
  let model;
  try {
    if (extension === 'urdf') model = robotModel(text(), meshFiles);
    else if (extension === 'gltf' || extension === 'glb') model = await gltfModel(data);
    else if (extension === 'fbx') model = fbxModel(data);
    else model = bvhModel(text());
  } catch (error) {
    // three.js's loaders throw TypeErrors and plain strings on broken files: say which file.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(reason || 'it could not be parsed');
  }
  model.fileName = file.name;
  return model;
}
