// Riff Raff's ship in 3D (three.js): the waves, the ship hanging in its cardan joint, the cargo,
// a ghost piece for placing, and the playback of the motion the server computed.
//
// The world has z up, in metres, exactly as the server's physics (data.py): the table at z = 0,
// the pivot at ship.pivot_height; roll turns about x, then pitch about y; each yard turns about
// the mast (z), then see-saws (x). Poses of cargo are world positions and quaternions (w, x, y, z).

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

const FACE_ROTATION = {
  up: new THREE.Quaternion(),
  side: new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), Math.PI / 2),
  end: new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), Math.PI / 2),
};
const HALF_HEIGHT_AXIS = { up: 2, side: 1, end: 0 };
const WOOD = 0x8a5a33;
const SHADOW_EVERY = 3; // on a CPU renderer the moving ship's shadows follow every third frame
const PACE_FRAMES = 20;
const GLIDE_MS = 450;
const FOCUS_DISTANCE = 0.75; // metres from the camera to the area being loaded
const SLOW_FRAME_MS = 36;
const MIN_PIXEL_RATIO = 0.6;

// Whether WebGL runs on a software rasteriser (SwiftShader, llvmpipe).
function softwareRenderer() {
  try {
    const gl = document.createElement("canvas").getContext("webgl2");
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    const lose = gl.getExtension("WEBGL_lose_context");
    if (lose) lose.loseContext();
    return /swiftshader|llvmpipe|software/i.test(name);
  } catch {
    return false;
  }
}
const GOOD = 0x4caf50;
const BAD = 0xe53935;

// --- the footprint rule, as board.footprint_problem says it ----------------------------------
export function halfExtents(size, face, yaw) {
  const [x, y, z] = size;
  const [length, width] = { up: [x, y], side: [x, z], end: [z, y] }[face];
  const c = Math.abs(Math.cos((yaw * Math.PI) / 180));
  const s = Math.abs(Math.sin((yaw * Math.PI) / 180));
  return [(c * length + s * width) / 2, (s * length + c * width) / 2];
}

// Why a placement would intrude into another area ({ where, need }), or null when allowed.
export function footprintProblem(data, placement) {
  const shape = data.areas[placement.area - 1];
  const [halfU, halfV] = halfExtents(data.pieces[placement.piece].size, placement.face, placement.yaw);
  const mast = shape.yard !== null ? data.ship.mast_width / 2 : 0;
  const gapU = placement.u * shape.length - halfU - mast;
  const gapV = shape.deck ? (placement.v + 1) * shape.half_width - halfV : 1;
  if (gapU < 0) return { where: shape.deck ? "midships" : "mast", need: placement.u - gapU / shape.length };
  if (gapV < 0) return { where: "centre_line", need: placement.v - gapV / shape.half_width };
  return null;
}

// --- building the pieces -----------------------------------------------------------------------
function partGeometry(part) {
  const [a, b, c] = part.size;
  let geometry;
  if (part.shape === "box") geometry = new THREE.BoxGeometry(a, b, c);
  else if (part.shape === "sphere") geometry = new THREE.SphereGeometry(a, 16, 12);
  else if (part.shape === "ellipsoid") geometry = new THREE.SphereGeometry(1, 20, 14).scale(a, b, c);
  else if (part.shape === "cylinder") geometry = new THREE.CylinderGeometry(a, a, b, 20).rotateX(Math.PI / 2);
  else geometry = new THREE.CylinderGeometry(a, a, b, 16, 1, false, 0, Math.PI).rotateZ(Math.PI / 2).rotateY(Math.PI / 2);
  return geometry.translate(...part.at);
}

function pieceMesh(spec, material) {
  const group = new THREE.Group();
  for (const part of spec.parts) {
    const mesh = new THREE.Mesh(partGeometry(part), material);
    mesh.castShadow = true;
    mesh.receiveShadow = true;
    group.add(mesh);
  }
  return group;
}

function waveTexture() {
  const canvas = document.createElement("canvas");
  canvas.width = 256;
  canvas.height = 64;
  const g = canvas.getContext("2d");
  g.fillStyle = "#2f6fb3";
  g.fillRect(0, 0, 256, 64);
  g.strokeStyle = "#d8ecff";
  g.lineWidth = 5;
  for (const y of [18, 44]) {
    g.beginPath();
    for (let x = 0; x <= 256; x += 4) g.lineTo(x, y + 7 * Math.sin((x / 256) * Math.PI * 8));
    g.stroke();
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.wrapS = THREE.RepeatWrapping;
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

// --- the scene ------------------------------------------------------------------------------
export class ShipScene {
  constructor(container, data) {
    this.data = data;
    this.container = container;
    this.software = softwareRenderer(); // a CPU renderer: no multisampling, fewer shadow passes
    this.renderer = new THREE.WebGLRenderer({ antialias: !this.software });
    this.pixelRatio = Math.min(window.devicePixelRatio || 1, 2);
    this.renderer.setPixelRatio(this.pixelRatio);
    this.pace = { frames: 0, ms: 0, last: null };
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.autoUpdate = false; // shadows are redrawn only when things move
    this.shadowsDue = true;
    this.renderer.shadowMap.type = THREE.PCFShadowMap;
    this.canvas = this.renderer.domElement;
    this.canvas.classList.add("rr-canvas");
    container.append(this.canvas);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xcfe3ef);
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 10);
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(0.62, -0.78, 0.72);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.target.set(0, 0, data.ship.pivot_height + 0.15);
    this.overviewDistance = this.camera.position.distanceTo(this.controls.target); // whole ship
    this.controls.enableDamping = true;
    this.controls.minDistance = 0.25;
    this.controls.maxDistance = 2.5;
    this.controls.maxPolarAngle = Math.PI * 0.55;
    this.controls.update();
    this.cargo = new Map(); // piece number -> mesh group
    this.board = { joints: new Array(8).fill(0), pieces: [] };
    this.show = null;
    this.ghost = null;
    this.frames = 0;
    this.onFrame = null; // called with the joints shown, every frame
    this._build();
    this._resize = () => this.resize();
    window.addEventListener("resize", this._resize);
    this.resize();
    this.renderer.setAnimationLoop(() => this._tick());
  }

  _build() {
    const { ship } = this.data;
    const scene = this.scene;
    scene.add(new THREE.HemisphereLight(0xffffff, 0x8d7b5a, 1.2));
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(0.6, -0.8, 1.6);
    sun.castShadow = true;
    sun.shadow.mapSize.set(768, 768);
    Object.assign(sun.shadow.camera, { left: -0.5, right: 0.5, top: 0.5, bottom: -0.5, near: 0.5, far: 3.5 });
    sun.shadow.radius = 4;
    scene.add(sun);
    const table = new THREE.Mesh(new THREE.CircleGeometry(0.9, 48), new THREE.MeshLambertMaterial({ color: 0xc9a877 }));
    table.receiveShadow = true;
    scene.add(table);
    const [topRadius, topHeight] = ship.cone_top;
    const waves = new THREE.Mesh(
      new THREE.CylinderGeometry(topRadius, ship.cone_base_radius, topHeight, 48, 1, true).rotateX(Math.PI / 2),
      new THREE.MeshLambertMaterial({ map: waveTexture(), side: THREE.DoubleSide }));
    waves.position.z = topHeight / 2;
    waves.castShadow = true;
    waves.receiveShadow = true;
    scene.add(waves);
    this.roll = new THREE.Group();
    this.roll.position.z = ship.pivot_height;
    this.pitch = new THREE.Group();
    this.roll.add(this.pitch);
    scene.add(this.roll);
    this._buildShip();
    this.comMarker = this._comMarker();
    scene.add(this.comMarker);
  }

  _buildShip() {
    const { ship } = this.data;
    const wood = new THREE.MeshStandardMaterial({ color: WOOD, roughness: 0.75 });
    const dark = new THREE.MeshStandardMaterial({ color: 0x5d3a1f, roughness: 0.8 });
    const [length, width, height] = ship.hull_size;
    const add = (geometry, material, z, parent = this.pitch) => {
      const mesh = new THREE.Mesh(geometry, material);
      mesh.position.z = z;
      mesh.castShadow = true;
      mesh.receiveShadow = true;
      parent.add(mesh);
      return mesh;
    };
    add(new THREE.BoxGeometry(length, width, height), wood, ship.deck_height - height / 2);
    add(new THREE.BoxGeometry(length * 0.96, width * 1.02, height * 0.35), dark, ship.deck_height - height * 0.8);
    add(new THREE.BoxGeometry(ship.mast_width, ship.mast_width, ship.mast_height), wood, ship.deck_height + ship.mast_height / 2);
    const ballZ = -this.data.ball_drop;
    add(new THREE.SphereGeometry(ship.ball_radius, 24, 16), new THREE.MeshStandardMaterial({ color: 0x9aa3ab, metalness: 0.9, roughness: 0.25 }), ballZ);
    const rodLength = ship.deck_height - height - ballZ;
    add(new THREE.CylinderGeometry(0.003, 0.003, rodLength, 8).rotateX(Math.PI / 2), dark, ballZ + rodLength / 2);
    this.yards = ship.yards.map((yard) => {
      const group = new THREE.Group();
      group.position.z = ship.deck_height + yard.height - ship.yard_thickness / 2;
      group.rotation.order = "ZXY";
      add(new THREE.BoxGeometry(ship.yard_width, yard.length, ship.yard_thickness), wood, 0, group);
      this.pitch.add(group);
      return group;
    });
    this.areaMarks = this.data.areas.map((shape) => this._areaMark(shape));
  }

  _areaMark(shape) {
    const [ux, uy] = shape.u_axis;
    const [vx, vy] = shape.v_axis;
    const sizeU = shape.length;
    const sizeV = 2 * shape.half_width;
    const geometry = new THREE.PlaneGeometry(Math.abs(ux) * sizeU + Math.abs(vx) * sizeV, Math.abs(uy) * sizeU + Math.abs(vy) * sizeV);
    const mark = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({ color: 0xffd54f, transparent: true, opacity: 0.45, depthWrite: false }));
    const [x, y] = this.areaPoint(shape, 0.5, 0);
    mark.position.set(x, y, shape.surface + 0.0008);
    mark.visible = false;
    this.partOf(shape).add(mark);
    return mark;
  }

  _comMarker() {
    const group = new THREE.Group();
    const material = new THREE.MeshBasicMaterial({ color: 0xe53935, depthTest: false, transparent: true });
    const ring = new THREE.Mesh(new THREE.TorusGeometry(0.014, 0.003, 8, 32), material);
    const dot = new THREE.Mesh(new THREE.SphereGeometry(0.006, 12, 8), material);
    group.add(ring, dot);
    group.renderOrder = 10;
    ring.renderOrder = 10;
    dot.renderOrder = 10;
    group.visible = false;
    return group;
  }

  // --- geometry of the areas ---------------------------------------------------------------
  partOf(shape) {
    return shape.yard === null ? this.pitch : this.yards[shape.yard];
  }

  areaPoint(shape, u, v) {
    return [
      shape.origin[0] + shape.u_axis[0] * u * shape.length + shape.v_axis[0] * v * shape.half_width,
      shape.origin[1] + shape.u_axis[1] * u * shape.length + shape.v_axis[1] * v * shape.half_width,
    ];
  }

  // The area point (u, v) under a screen point (client pixels), unclamped; null off the plane.
  areaAt(area, clientX, clientY) {
    const shape = this.data.areas[area - 1];
    const part = this.partOf(shape);
    part.updateWorldMatrix(true, false);
    const rect = this.canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    const normal = new THREE.Vector3(0, 0, 1).transformDirection(part.matrixWorld);
    const point = new THREE.Vector3(0, 0, shape.surface).applyMatrix4(part.matrixWorld);
    const hit = ray.ray.intersectPlane(new THREE.Plane().setFromNormalAndCoplanarPoint(normal, point), new THREE.Vector3());
    if (!hit) return null;
    const local = part.worldToLocal(hit);
    const dx = local.x - shape.origin[0];
    const dy = local.y - shape.origin[1];
    return {
      u: (dx * shape.u_axis[0] + dy * shape.u_axis[1]) / shape.length,
      v: (dx * shape.v_axis[0] + dy * shape.v_axis[1]) / shape.half_width,
    };
  }

  // Where on the screen (client pixels) the area point (u, v) is.
  screenOf(area, u, v) {
    const shape = this.data.areas[area - 1];
    const part = this.partOf(shape);
    part.updateWorldMatrix(true, false);
    const [x, y] = this.areaPoint(shape, u, v);
    const world = new THREE.Vector3(x, y, shape.surface).applyMatrix4(part.matrixWorld);
    return this._screen(world);
  }

  _screen(world) {
    const rect = this.canvas.getBoundingClientRect();
    const p = world.clone().project(this.camera);
    return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height, behind: p.z > 1 };
  }

  highlight(area) {
    this.areaMarks.forEach((mark, i) => (mark.visible = i + 1 === area));
  }

  // Glide the camera to look at an area from closer (once per turn); null: the whole ship.
  focus(area) {
    const shape = area ? this.data.areas[area - 1] : null;
    let target = new THREE.Vector3(0, 0, this.data.ship.pivot_height + 0.15);
    const now = this.camera.position.distanceTo(this.controls.target);
    let distance = Math.max(now, this.overviewDistance); // the whole ship in view
    if (shape) {
      const part = this.partOf(shape);
      part.updateWorldMatrix(true, false);
      const [x, y] = this.areaPoint(shape, 0.5, 0);
      target = new THREE.Vector3(x, y, shape.surface).applyMatrix4(part.matrixWorld);
      distance = Math.min(now, FOCUS_DISTANCE);
    }
    const offset = this.camera.position.clone().sub(this.controls.target).setLength(distance);
    this.glide = {
      started: performance.now(),
      fromTarget: this.controls.target.clone(),
      toTarget: target,
      fromCamera: this.camera.position.clone(),
      toCamera: target.clone().add(offset),
    };
  }

  _glide(now) {
    const glide = this.glide;
    const w = Math.min(1, (now - glide.started) / GLIDE_MS);
    const ease = w * w * (3 - 2 * w);
    this.controls.target.lerpVectors(glide.fromTarget, glide.toTarget, ease);
    this.camera.position.lerpVectors(glide.fromCamera, glide.toCamera, ease);
    if (w >= 1) this.glide = null;
  }

  // --- cargo and the ship's position ------------------------------------------------------
  _cargoMesh(body) {
    let mesh = this.cargo.get(body);
    if (!mesh) {
      const spec = this.data.pieces[body % this.data.pieces.length];
      const material = new THREE.MeshStandardMaterial({ color: spec.colour, roughness: 0.6 });
      mesh = pieceMesh(spec, material);
      mesh.userData.body = body;
      this.cargo.set(body, mesh);
      this.scene.add(mesh);
    }
    return mesh;
  }

  _setJoints(joints) {
    this.roll.rotation.x = joints[0];
    this.pitch.rotation.y = joints[1];
    this.yards.forEach((yard, i) => {
      yard.rotation.z = joints[2 + 2 * i] || 0;
      yard.rotation.x = joints[3 + 2 * i] || 0;
    });
  }

  _setPose(body, pose) {
    const mesh = this._cargoMesh(body);
    mesh.visible = true;
    mesh.position.set(pose[0], pose[1], pose[2]);
    mesh.quaternion.set(pose[4], pose[5], pose[6], pose[3]);
  }

  // The ship at rest as the state says: { joints, pieces: [[body, area, x, y, z, qw, qx, qy, qz]] }.
  setBoard(board) {
    this.board = board;
    if (this.show) return; // the motion playing ends on this board
    this._showBoard();
  }

  _showBoard() {
    const { joints, pieces } = this.board;
    this._setJoints(joints);
    const present = new Set();
    for (const piece of pieces) {
      present.add(piece[0]);
      this._setPose(piece[0], piece.slice(2));
    }
    for (const [body, mesh] of this.cargo) if (!present.has(body)) mesh.visible = false;
    this.shownJoints = joints;
    this._placeCom(pieces.map((p) => [p[0], p.slice(2)]));
    this.shadowsDue = true;
  }

  // --- the centre of mass of the cargo (easy mode) ----------------------------------------
  setCentreOfMass(on) {
    this.comOn = on;
    this.comMarker.visible = on && Boolean(this.comAt);
  }

  _placeCom(poses) {
    let mass = 0;
    const sum = new THREE.Vector3();
    for (const [body, pose] of poses) {
      const m = this.data.pieces[body % this.data.pieces.length].mass;
      mass += m;
      sum.add(new THREE.Vector3(pose[0], pose[1], pose[2]).multiplyScalar(m));
    }
    this.comAt = mass > 0 ? sum.divideScalar(mass) : null;
    this.comMarker.visible = Boolean(this.comOn && this.comAt);
    if (this.comAt) this.comMarker.position.copy(this.comAt);
  }

  // --- the ghost piece ----------------------------------------------------------------------
  setGhost(ghost) {
    if (this.ghostMesh && (!ghost || ghost.piece !== this.ghostPiece)) {
      this.ghostMesh.parent.remove(this.ghostMesh);
      this.ghostMesh = null;
    }
    this.ghost = ghost;
    if (!ghost) return;
    const shape = this.data.areas[ghost.area - 1];
    if (!this.ghostMesh) {
      this.ghostMaterial = new THREE.MeshStandardMaterial({ color: GOOD, transparent: true, opacity: 0.6, depthWrite: false });
      this.ghostMesh = pieceMesh(this.data.pieces[ghost.piece], this.ghostMaterial);
      this.ghostMesh.traverse((m) => (m.castShadow = false));
      this.ghostPiece = ghost.piece;
    }
    this.partOf(shape).add(this.ghostMesh);
    const [x, y] = this.areaPoint(shape, ghost.u, ghost.v);
    const size = this.data.pieces[ghost.piece].size;
    const along = Math.atan2(shape.u_axis[1], shape.u_axis[0]);
    const turn = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 0, 1), along + (ghost.yaw * Math.PI) / 180);
    this.ghostMesh.quaternion.copy(turn.multiply(FACE_ROTATION[ghost.face]));
    const lift = this._cargoBelow(shape, x, y);
    this.ghostMesh.position.set(x, y, shape.surface + lift + size[HALF_HEIGHT_AXIS[ghost.face]] / 2 + 0.002);
    this.ghostMaterial.color.setHex(ghost.bad ? BAD : GOOD);
    this.ghostMesh.visible = ghost.visible !== false;
  }

  // How far above the area's surface the cargo under (x, y) of the area's part reaches.
  _cargoBelow(shape, x, y) {
    const part = this.partOf(shape);
    part.updateWorldMatrix(true, false);
    const top = new THREE.Vector3(x, y, shape.surface + 0.09).applyMatrix4(part.matrixWorld);
    const down = new THREE.Vector3(0, 0, -1).transformDirection(part.matrixWorld);
    const meshes = [...this.cargo.values()].filter((m) => m.visible);
    const hit = new THREE.Raycaster(top, down, 0, 0.09).intersectObjects(meshes, true)[0];
    return hit ? Math.max(0, 0.09 - hit.distance) : 0;
  }

  // --- playing the server's motion ------------------------------------------------------------
  // show: the server's 'settle' message; started: performance.now() of its playback start.
  play(show, started) {
    this.show = { ...show, started, caught: new Set() };
    for (const body of show.bodies) this._cargoMesh(body);
  }

  // Simulated time of the show at real seconds `r` since its start (slow while pieces fall).
  simTime(real) {
    const k = this.show.slow_motion;
    const r = real * (this.show.speed || 1);
    let extra = 0;
    for (const [a, b] of this.show.spans) {
      const ra = a + extra;
      if (r < ra) return r - extra;
      const rb = ra + (b - a) * k;
      if (r < rb) return a + (r - ra) / k;
      extra += (b - a) * (k - 1);
    }
    return r - extra;
  }

  _playFrame(now) {
    const show = this.show;
    const frames = show.frames;
    const real = (now - show.started) / 1000;
    const t = this.simTime(real);
    const last = frames.length ? frames[frames.length - 1].t : 0;
    const end = Math.max(last, ...show.falls.map((f) => f[1]));
    if (!frames.length || t >= end) {
      this.show = null;
      this._showBoard();
      if (this.onShowEnd) this.onShowEnd();
      return;
    }
    let i = 0;
    while (i < frames.length - 1 && frames[i + 1].t <= t) i += 1;
    const a = frames[i];
    const b = frames[Math.min(i + 1, frames.length - 1)];
    const w = b.t > a.t ? Math.min(1, Math.max(0, (t - a.t) / (b.t - a.t))) : 0;
    const joints = a.j.map((x, k) => x + (b.j[k] - x) * w);
    this._setJoints(joints);
    this.shownJoints = joints;
    const qa = new THREE.Quaternion();
    const qb = new THREE.Quaternion();
    const poses = [];
    show.bodies.forEach((body, slot) => {
      const pa = a.p[slot];
      const pb = b.p[slot];
      const mesh = this._cargoMesh(body);
      mesh.visible = !show.caught.has(body) || t < this._landing(body);
      mesh.position.set(pa[0] + (pb[0] - pa[0]) * w, pa[1] + (pb[1] - pa[1]) * w, pa[2] + (pb[2] - pa[2]) * w);
      qa.set(pa[4], pa[5], pa[6], pa[3]);
      qb.set(pb[4], pb[5], pb[6], pb[3]);
      mesh.quaternion.copy(qa.slerp(qb, w));
      if (!show.falls.some((f) => f[0] === body)) poses.push([body, [mesh.position.x, mesh.position.y, mesh.position.z]]);
    });
    this._placeCom(poses);
    this.simNow = t;
  }

  _landing(body) {
    const fall = this.show && this.show.falls.find((f) => f[0] === body);
    return fall ? fall[1] : Infinity;
  }

  // The falling piece nearest the screen point (within `reach` pixels) that has not landed yet.
  fallingAt(clientX, clientY, reach = 48) {
    if (!this.show) return null;
    const t = this.simNow || 0;
    let best = null;
    for (const [body, landing] of this.show.falls) {
      if (t >= landing || this.show.caught.has(body)) continue;
      const mesh = this.cargo.get(body);
      if (!mesh) continue;
      const p = this._screen(mesh.position);
      const d = Math.hypot(p.x - clientX, p.y - clientY);
      if (d <= reach && (!best || d < best.d)) best = { body, d };
    }
    return best && best.body;
  }

  markCaught(body) {
    if (!this.show) return;
    this.show.caught.add(body);
    const mesh = this.cargo.get(body);
    if (mesh) mesh.traverse((m) => m.material && m.material.emissive && m.material.emissive.setHex(0x665500));
  }

  // The picture as drawn now, copied onto a 2D canvas (for tests: drawn and read in one task).
  snapshot() {
    this.renderer.render(this.scene, this.camera);
    const copy = document.createElement("canvas");
    copy.width = this.canvas.width;
    copy.height = this.canvas.height;
    copy.getContext("2d").drawImage(this.canvas, 0, 0);
    return copy;
  }

  // Screen point of a piece now (for tests and hints).
  screenOfPiece(body) {
    const mesh = this.cargo.get(body);
    return mesh ? this._screen(mesh.position) : null;
  }

  // --- running ----------------------------------------------------------------------------
  resize() {
    const width = this.container.clientWidth || 320;
    const height = Math.max(260, Math.min(width * 0.75, window.innerHeight * 0.62));
    this.renderer.setSize(width, height, false);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
  }

  _tick() {
    if (this.container.clientWidth && Math.abs(this.container.clientWidth - parseFloat(this.canvas.style.width)) > 1) this.resize();
    const now = performance.now();
    if (this.show) {
      this._playFrame(now);
      if (this.frames % (this.software ? SHADOW_EVERY : 1) === 0) this.shadowsDue = true;
      this._keepPace(now);
    } else this.pace.last = null;
    if (this.glide) this._glide(now);
    if (this.shadowsDue) {
      this.renderer.shadowMap.needsUpdate = true;
      this.shadowsDue = false;
    }
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
    this.frames += 1;
    if (this.onFrame) this.onFrame(this.shownJoints || [0, 0], Boolean(this.show));
  }

  // While the ship moves, a device too slow for 30 frames a second draws fewer pixels.
  _keepPace(now) {
    const pace = this.pace;
    if (pace.last !== null) {
      pace.frames += 1;
      pace.ms += now - pace.last;
    }
    pace.last = now;
    if (pace.frames < PACE_FRAMES) return;
    if (pace.ms / pace.frames > SLOW_FRAME_MS && this.pixelRatio > MIN_PIXEL_RATIO) {
      this.pixelRatio = Math.max(MIN_PIXEL_RATIO, this.pixelRatio * 0.8);
      this.renderer.setPixelRatio(this.pixelRatio);
      this.resize();
    }
    pace.frames = 0;
    pace.ms = 0;
  }

  dispose() {
    this.renderer.setAnimationLoop(null);
    window.removeEventListener("resize", this._resize);
    this.controls.dispose();
    this.renderer.dispose();
    for (const cleanup of this.cleanups || []) cleanup();
    this.canvas.remove();
  }
}
