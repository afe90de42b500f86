// The 3-D view of the models page: a three.js renderer, a lit floor, a camera that orbits and
// zooms (OrbitControls), and a frame loop that runs only while something moves.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

export class View3d {
  constructor(canvas) {
    // preserveDrawingBuffer: the picture stays readable after it is shown (the browser test
    // compares pixels; a screenshot tool may read it too).
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.renderer.shadowMap.enabled = true;
    this.canvas = canvas;
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xf4f6fa);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    this.camera.position.set(2.2, 1.6, 2.6);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => this.requestRender());

    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8d97a5, 1.6));
    this.sun = new THREE.DirectionalLight(0xffffff, 2.2);
    this.sun.position.set(3, 6, 4);
    this.sun.castShadow = true;
    this.sun.shadow.mapSize.set(1024, 1024);
    this.scene.add(this.sun, this.sun.target);
    this.floor = new THREE.Mesh(new THREE.CircleGeometry(1, 64).rotateX(-Math.PI / 2),
      new THREE.MeshStandardMaterial({ color: 0xe6e9ef, roughness: 0.95 }));
    this.floor.receiveShadow = true;
    this.grid = new THREE.GridHelper(2, 20, 0xb8c0cc, 0xd3d8e0);
    this.scene.add(this.floor, this.grid);

    this.frameCallbacks = new Set();
    this.pending = false;
    this.renders = 0;
    this.lastTime = null;
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  resize() {
    const { clientWidth: width, clientHeight: height } = this.canvas;
    if (!width || !height) return;
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  // Frames a model whose world bounds are `box`: the floor and the light under it, the camera
  // at a distance that shows it whole, orbiting its middle.
  frame(box) {
    const size = box.getSize(new THREE.Vector3());
    const centre = box.getCenter(new THREE.Vector3());
    const radius = Math.max(size.length() / 2, 1e-3);
    const ground = box.min.y;
    this.floor.scale.setScalar(radius * 2.5);
    this.floor.position.set(centre.x, ground, centre.z);
    this.grid.scale.setScalar(radius * 2.5);
    this.grid.position.set(centre.x, ground + radius * 1e-3, centre.z);
    // Far enough for the narrower of the two fields of view (a phone's canvas is tall).
    const vertical = (this.camera.fov * Math.PI) / 180;
    const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * this.camera.aspect);
    const distance = (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.1;
    const direction = new THREE.Vector3(0.55, 0.35, 0.75).normalize();
    this.camera.position.copy(centre).addScaledVector(direction, distance);
    this.camera.near = distance / 100;
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
    this.controls.minDistance = radius * 0.2;
    this.controls.maxDistance = radius * 20;
    this.controls.update();
    const shadow = this.sun.shadow.camera;
    Object.assign(shadow, { left: -radius * 2, right: radius * 2, top: radius * 2, bottom: -radius * 2 });
    shadow.near = 0.01 * radius;
    shadow.far = radius * 20;
    shadow.updateProjectionMatrix();
    this.sun.target.position.copy(centre);
    this.sun.position.copy(centre).add(new THREE.Vector3(1.5, 3, 2).multiplyScalar(radius));
    this.requestRender();
  }

  // Runs callback(seconds) before each frame until it returns false.
  animate(callback) {
    this.frameCallbacks.add(callback);
    this.requestRender();
  }

  requestRender() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame((now) => this.render(now));
  }

  render(now) {
    this.pending = false;
    const seconds = this.lastTime === null ? 1 / 60 : Math.min(Math.max((now - this.lastTime) / 1000, 1e-3), 0.05);
    for (const callback of this.frameCallbacks) {
      if (callback(seconds) === false) this.frameCallbacks.delete(callback);
    }
    this.lastTime = this.frameCallbacks.size ? now : null;
    this.renderer.render(this.scene, this.camera);
    this.renders++;
    if (this.frameCallbacks.size) this.requestRender();
  }

  // Where a world point is drawn, in client pixels.
  toScreen(point) {
    const rect = this.canvas.getBoundingClientRect();
    const p = point.clone().project(this.camera);
    return [rect.left + ((p.x + 1) / 2) * rect.width, rect.top + ((1 - p.y) / 2) * rect.height];
  }

  // The pointer's ray, from client pixels.
  ray(clientX, clientY) {
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    const caster = new THREE.Raycaster();
    caster.setFromCamera(ndc, this.camera);
    return caster;
  }
}
