// A URDF's mesh visuals from files dropped with it: STL, OBJ and COLLADA (.dae) through
// three.js's loaders, matched by file name (a URDF names them by package:// or relative paths
// the browser cannot follow). Meshes in a URDF are stated in their link's frame, z up.
import * as THREE from 'three';
import { STLLoader } from 'three/addons/loaders/STLLoader.js';
import { OBJLoader } from 'three/addons/loaders/OBJLoader.js';
import { ColladaLoader } from 'three/addons/loaders/ColladaLoader.js';
import { baseName, extensionOf } from './files.js';

export const MESH_EXTENSIONS = ['stl', 'obj', 'dae'];

// files: Map of lower-case file name → { name, data: ArrayBuffer }. Returns an Object3D, or null
// when no dropped file has that name. Throws when the file is there but cannot be read.
export function meshFor(filename, files, material) {
  const file = files.get(baseName(filename));
  if (!file) return null;
  const extension = extensionOf(file.name);
  const text = () => new TextDecoder().decode(file.data);
  if (extension === 'stl') {
    const geometry = new STLLoader().parse(file.data);
    if (!geometry.attributes.normal) geometry.computeVertexNormals();
    return new THREE.Mesh(geometry, material);
  }
  if (extension === 'obj') return new OBJLoader().parse(text());
  if (extension === 'dae') {
    const said = [];
    const { warn } = console;
    // The loader turns a z-up file to y up, and says so; in a URDF the link's frame is the mesh's.
    console.warn = (...words) => said.push(words.join(' '));
    try {
      const collada = new ColladaLoader().parse(text(), '');
      if (!collada) throw new Error('not a COLLADA file');
      collada.scene.rotation.set(0, 0, 0);
      return collada.scene;
    } finally {
      console.warn = warn;
    }
  }
  return null;
}
