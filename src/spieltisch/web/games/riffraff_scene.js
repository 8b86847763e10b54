// Riff Raff's ship in 3D (three.js): the waves, the ship hanging in its cardan joint, the cargo,
// a ghost piece for placing, and the playback of the motion the server computed.
//
// The world has z up, in metres, exactly as the server's physics (data.py): the table at z = 0,
// the pivot at ship.pivot_height; roll turns about x, then pitch about y; each yard turns about
// the mast (z), then see-saws (x). Poses of cargo are world positions and quaternions (w, x, y, z).

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { moving as motionAllowed } from "../motion.js";
import {
  cargoGeometry, deckGeometry, framePoints, hullGeometry, hullTexture, pennantGeometry, riggingGeometry,
  softShadow, waveGeometry, yardGeometry,
} from "./riffraff_looks.js";

const FACE_ROTATION = {
  up: new THREE.Quaternion(),
  side: new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), Math.PI / 2),
  end: new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), Math.PI / 2),
};
const HALF_HEIGHT_AXIS = { up: 2, side: 1, end: 0 };
const SHADOW_EVERY = 3; // on a CPU renderer the moving ship's shadows follow every third frame
const PACE_FRAMES = 10;
const GLIDE_MS = 450;
const FOCUS_DISTANCE = 0.5; // metres from the camera to the area being loaded, at most
const FOLLOW_TURN = Math.PI / 6; // how far the whole-ship view turns towards the area being loaded
const FRAME_MARGIN = 0.9; // the whole ship fills at most this share of the picture's half-sizes
const VIEW_DIRECTION = new THREE.Vector3(0.62, -0.78, 0.68).normalize(); // from the ship to the camera
const SLOW_FRAME_MS = 36; // a moving ship's frames slower than this on average: fewer pixels
const QUICK_FRAME_MS = 26; // quicker than this: more pixels again, up to the device's own
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

// The stand and the lights never move: the light on it (a Lambert surface's under the sky and the
// sun, as three.js works it out) goes once into its vertex colours, and it is drawn unlit: no
// lighting or shadow lookups on the pixels of the largest thing in the picture.
function litOnce(geometry, hemisphere, sun) {
  const colours = geometry.attributes.color;
  const normals = geometry.attributes.normal;
  const up = hemisphere.position.clone().normalize();
  const toSun = sun.position.clone().sub(sun.target.position).normalize();
  const sky = hemisphere.color.clone().multiplyScalar(hemisphere.intensity);
  const ground = hemisphere.groundColor.clone().multiplyScalar(hemisphere.intensity);
  const direct = sun.color.clone().multiplyScalar(sun.intensity);
  const normal = new THREE.Vector3();
  const light = new THREE.Color();
  const sunlit = new THREE.Color();
  const colour = new THREE.Color();
  for (let i = 0; i < colours.count; i += 1) {
    normal.fromBufferAttribute(normals, i);
    sunlit.copy(direct).multiplyScalar(Math.max(0, normal.dot(toSun)));
    light.lerpColors(ground, sky, 0.5 * normal.dot(up) + 0.5).add(sunlit);
    colour.fromBufferAttribute(colours, i).multiply(light).multiplyScalar(1 / Math.PI);
    colours.setXYZ(i, colour.r, colour.g, colour.b);
  }
  return geometry;
}

// --- building the pieces -----------------------------------------------------------------------
function shaded(mesh) {
  mesh.castShadow = true;
  mesh.receiveShadow = true;
  return mesh;
}

function pieceMesh(spec, material) {
  return shaded(new THREE.Mesh(cargoGeometry(spec), material));
}

// The picture drawn into a multisampled target, then copied onto the canvas (antialiasing for a
// canvas without multisampling).
class StillPicture {
  constructor(renderer) {
    this.renderer = renderer;
    this.target = new THREE.WebGLRenderTarget(1, 1, { samples: 4 });
    this.target.texture.colorSpace = THREE.SRGBColorSpace;
    this.camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);
    // copied as it is, transparency too (the stage's background shows through)
    const material = new THREE.MeshBasicMaterial({ map: this.target.texture, transparent: true, blending: THREE.NoBlending, depthTest: false, depthWrite: false });
    this.quad = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), material);
    this.size = new THREE.Vector2();
  }

  render(scene, camera) {
    this.renderer.getDrawingBufferSize(this.size);
    if (this.target.width !== this.size.x || this.target.height !== this.size.y) this.target.setSize(this.size.x, this.size.y);
    this.renderer.setRenderTarget(this.target);
    this.renderer.render(scene, camera);
    this.renderer.setRenderTarget(null);
    this.renderer.render(this.quad, this.camera);
  }
}

// --- the scene ------------------------------------------------------------------------------
export class ShipScene {
  constructor(container, data) {
    this.data = data;
    this.container = container;
    // On a CPU renderer (SwiftShader, llvmpipe) 4-sample multisampling took about twice as long
    // a frame: the moving ship is drawn without it and the ship at rest through a multisampled
    // target; the moving ship's shadows are also redrawn less often.
    this.software = softwareRenderer();
    this.renderer = new THREE.WebGLRenderer({ antialias: !this.software, alpha: true });
    this.stills = this.software ? new StillPicture(this.renderer) : null;
    this.fullRatio = Math.min(window.devicePixelRatio || 1, 2);
    this.pixelRatio = this.fullRatio; // lowered on a device too slow for 30 fps, raised again with headroom
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
    this.renderer.setClearColor(0x000000, 0); // the table and sky behind are the stage's (CSS)
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 10);
    this.camera.up.set(0, 0, 1);
    this.framePoints = framePoints(data.ship);
    this.shipCentre = new THREE.Box3().setFromPoints(this.framePoints).getCenter(new THREE.Vector3());
    this.camera.position.copy(this.shipCentre).add(VIEW_DIRECTION);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.target.copy(this.shipCentre);
    this.view = { area: null, close: false };
    this.dirty = true; // the picture needs drawing
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
    /** @type {(() => void) | null} called when a motion has been shown to its end */
    this.onShowEnd = null;
    /** @type {(() => void)[]} run by dispose() */
    this.cleanups = [];
    this._build();
    this._resize = () => this.resize();
    window.addEventListener("resize", this._resize);
    this.resize();
    this.renderer.setAnimationLoop(() => this._tick());
  }

  _build() {
    const { ship } = this.data;
    const scene = this.scene;
    const hemisphere = new THREE.HemisphereLight(0xf4f8ff, 0x8d7b5a, 1.3);
    scene.add(hemisphere);
    const sun = new THREE.DirectionalLight(0xfff4e0, 2.4);
    sun.position.set(0.5, -0.7, 1.6);
    this.sun = sun.position;
    sun.castShadow = true;
    sun.shadow.mapSize.set(768, 768);
    Object.assign(sun.shadow.camera, { left: -0.45, right: 0.45, top: 0.55, bottom: -0.45, near: 0.5, far: 3.5 });
    sun.shadow.radius = 3; // soft edges: the PCF samples spread over three texels
    sun.shadow.bias = -0.0004;
    sun.shadow.normalBias = 0.001;
    scene.add(sun);
    // the table is the stage's background (no pixels to draw); the stand, which covers much of
    // the picture, takes no shadows; soft shadows of their own lie under the stand and the ship
    const standShadow = softShadow(ship.cone_base_radius * 2.5, ship.cone_base_radius * 2.5, 0.45);
    standShadow.position.z = 0.0005;
    this.shipShadow = softShadow(0.5, 0.22, 0.35);
    this.shipShadow.position.z = 0.001;
    scene.add(standShadow, this.shipShadow);
    const waves = new THREE.Mesh(litOnce(waveGeometry(ship), hemisphere, sun), new THREE.MeshBasicMaterial({ vertexColors: true }));
    scene.add(waves); // the stand never moves: it is left out of the shadow passes
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
    const painted = new THREE.MeshLambertMaterial({ vertexColors: true });
    const add = (geometry, material, parent = this.pitch) => {
      const mesh = shaded(new THREE.Mesh(geometry, material));
      parent.add(mesh);
      return mesh;
    };
    add(hullGeometry(ship), new THREE.MeshLambertMaterial({ map: hullTexture(), side: THREE.DoubleSide }));
    add(deckGeometry(ship), painted);
    add(riggingGeometry(ship, this.data.ball_drop), painted);
    add(pennantGeometry(ship), new THREE.MeshLambertMaterial({ color: 0xc62828, side: THREE.DoubleSide })).castShadow = false;
    // the ball hangs inside the wave stand, out of sight and out of the sun: few faces, no shadow
    const steel = new THREE.MeshPhongMaterial({ color: 0x8f989f, specular: 0xffffff, shininess: 60 });
    add(new THREE.SphereGeometry(ship.ball_radius, 12, 8).translate(0, 0, -this.data.ball_drop), steel).castShadow = false;
    this.yards = ship.yards.map((yard) => {
      const group = new THREE.Group();
      group.position.z = ship.deck_height + yard.height - ship.yard_thickness / 2;
      group.rotation.order = "ZXY";
      add(yardGeometry(ship, yard), painted, group);
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
    return this.screenOfPoint(world);
  }

  // Where on the screen (client pixels) a world point is.
  screenOfPoint(world) {
    const rect = this.canvas.getBoundingClientRect();
    const p = world.clone().project(this.camera);
    return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height, behind: p.z > 1 };
  }

  highlight(area) {
    this.areaMarks.forEach((mark, i) => (mark.visible = i + 1 === area));
    this.dirty = true;
  }

  _areaCentre(area) {
    const shape = this.data.areas[area - 1];
    const part = this.partOf(shape);
    part.updateWorldMatrix(true, false);
    const [x, y] = this.areaPoint(shape, 0.5, 0);
    return new THREE.Vector3(x, y, shape.surface).applyMatrix4(part.matrixWorld);
  }

  // The frame points' extent in the picture from a probe camera: [left, right, bottom, top].
  _extent(probe) {
    const extent = [Infinity, -Infinity, Infinity, -Infinity];
    for (const point of this.framePoints) {
      const p = point.clone().project(probe);
      extent[0] = Math.min(extent[0], p.x);
      extent[1] = Math.max(extent[1], p.x);
      extent[2] = Math.min(extent[2], p.y);
      extent[3] = Math.max(extent[3], p.y);
      if (p.z >= 1) return null; // behind the camera
    }
    return extent;
  }

  // The nearest distance along `direction` from `target` that shows every frame point, and the
  // target moved (`centre`) so that they sit in the middle of the picture.
  _fit(target, direction, centre = true) {
    const probe = this.camera.clone();
    const place = (at, distance) => {
      probe.position.copy(at).addScaledVector(direction, distance);
      probe.lookAt(at);
      probe.updateMatrixWorld();
      return this._extent(probe);
    };
    const centred = target.clone();
    let distance = 8;
    for (let round = 0; round < (centre ? 3 : 1); round += 1) {
      let [near, far] = [0.2, 8];
      for (let i = 0; i < 22; i += 1) {
        const mid = (near + far) / 2;
        const e = place(centred, mid);
        if (e && Math.max(-e[0], e[1], -e[2], e[3]) <= FRAME_MARGIN) far = mid;
        else near = mid;
      }
      distance = far;
      if (!centre) break;
      const e = place(centred, distance);
      const halfHeight = distance * Math.tan((probe.fov * Math.PI) / 360);
      const up = new THREE.Vector3(0, 1, 0).transformDirection(probe.matrixWorld);
      const right = new THREE.Vector3(1, 0, 0).transformDirection(probe.matrixWorld);
      centred.addScaledVector(right, ((e[0] + e[1]) / 2) * halfHeight * probe.aspect);
      centred.addScaledVector(up, ((e[2] + e[3]) / 2) * halfHeight);
    }
    return { target: centred, distance };
  }

  // Where the camera looks from for a view: { area, close }. The whole ship, seen from the side
  // of the area being loaded (turned at most FOLLOW_TURN from the starting side); `close`: a
  // close look at that area (once per turn).
  _viewFrom(view) {
    let direction = this.camera.position.clone().sub(this.controls.target).normalize();
    if (view.area && view.close) {
      const target = this._areaCentre(view.area);
      const distance = Math.min(this.camera.position.distanceTo(this.controls.target), FOCUS_DISTANCE);
      return { target, camera: target.clone().addScaledVector(this._closeDirection(view.area, direction), distance) };
    }
    if (view.area) direction = this._sideOf(view.area, direction);
    const whole = this._fit(this.shipCentre, direction);
    return { target: whole.target, camera: whole.target.clone().addScaledVector(direction, whole.distance) };
  }

  // Where a close look at an area comes from: from above and across the area's length, so all
  // of it shows. A yard runs from port to starboard, so it is seen from fore or aft (the side the
  // camera is on), leaning a little towards the area's half; a deck quarter from high above its
  // own end (bow or stern) and side, so the yards over the mast stay behind it.
  _closeDirection(area, direction) {
    const centre = this._areaCentre(area);
    const towards = (value) => (value >= 0 ? 1 : -1);
    const shape = this.data.areas[area - 1];
    const look = shape.yard === null
      ? new THREE.Vector3(0.45 * towards(centre.x), 0.6 * towards(centre.y), 1.1)
      : new THREE.Vector3(0.8 * towards(direction.x), 0.3 * towards(centre.y), 0.75);
    return look.normalize();
  }

  // `direction` turned about the vertical towards the area's side, keeping its elevation.
  _sideOf(area, direction) {
    const centre = this._areaCentre(area);
    const home = Math.atan2(VIEW_DIRECTION.y, VIEW_DIRECTION.x);
    let turn = Math.atan2(centre.y, centre.x) - home;
    turn = Math.atan2(Math.sin(turn), Math.cos(turn));
    const azimuth = home + Math.max(-FOLLOW_TURN, Math.min(FOLLOW_TURN, turn));
    const flat = Math.hypot(direction.x, direction.y);
    return new THREE.Vector3(flat * Math.cos(azimuth), flat * Math.sin(azimuth), direction.z);
  }

  // Glide the camera to a view (see _viewFrom); area null: the whole ship. With reduced motion
  // (the site's switch or the system's setting) the picture cuts to the view instead.
  focus(area, close = true) {
    this.view = { area, close: Boolean(area && close) };
    const to = this._viewFrom(this.view);
    if (!motionAllowed()) {
      this.glide = null;
      this.controls.target.copy(to.target);
      this.camera.position.copy(to.camera);
      this.camera.lookAt(to.target); // at once, so that screen points are right before a frame
      this.camera.updateMatrixWorld();
      this.dirty = true;
      return;
    }
    this.glide = {
      started: performance.now(),
      fromTarget: this.controls.target.clone(),
      toTarget: to.target,
      fromCamera: this.camera.position.clone(),
      toCamera: to.camera,
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
      const material = new THREE.MeshLambertMaterial({ vertexColors: true }); // cheap on a CPU renderer
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
    this._placeShipShadow();
  }

  // The ship's soft shadow on the table: under its deck, away from the sun.
  _placeShipShadow() {
    this.pitch.updateWorldMatrix(true, false);
    const deck = new THREE.Vector3(0, 0, this.data.ship.deck_height).applyMatrix4(this.pitch.matrixWorld);
    this.shipShadow.position.x = deck.x - (deck.z * this.sun.x) / this.sun.z;
    this.shipShadow.position.y = deck.y - (deck.z * this.sun.y) / this.sun.z;
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
    this.dirty = true;
  }

  // --- the centre of mass of the cargo (easy mode) ----------------------------------------
  setCentreOfMass(on) {
    this.comOn = on;
    this.comMarker.visible = on && Boolean(this.comAt);
    this.dirty = true;
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
    this.dirty = true;
    if (!ghost) return;
    const shape = this.data.areas[ghost.area - 1];
    if (!this.ghostMesh) {
      this.ghostMaterial = new THREE.MeshLambertMaterial({ color: GOOD, transparent: true, opacity: 0.6, depthWrite: false });
      this.ghostMesh = pieceMesh(this.data.pieces[ghost.piece], this.ghostMaterial);
      this.ghostMesh.castShadow = false;
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
      const p = this.screenOfPoint(mesh.position);
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
    this._draw(false);
    const copy = document.createElement("canvas");
    copy.width = this.canvas.width;
    copy.height = this.canvas.height;
    copy.getContext("2d").drawImage(this.canvas, 0, 0);
    return copy;
  }

  // Screen point of a piece now (for tests and hints).
  screenOfPiece(body) {
    const mesh = this.cargo.get(body);
    return mesh ? this.screenOfPoint(mesh.position) : null;
  }

  // --- running ----------------------------------------------------------------------------
  resize() {
    const width = this.container.clientWidth || 320;
    const narrow = width < 600; // a phone held upright: the tall ship gets a taller picture
    // a phone upright, or a tablet held flat (768 px high): room under the ship for the panels
    const share = narrow || window.innerHeight <= 800 ? 0.5 : 0.62;
    const height = Math.max(260, Math.min(width * (narrow ? 0.95 : 0.85), window.innerHeight * share));
    this.renderer.setSize(width, height, false);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    if (!this.glide && !this.view.close) {
      const to = this._viewFrom(this.view);
      this.controls.target.copy(to.target);
      this.camera.position.copy(to.camera);
    }
    this.dirty = true;
  }

  _tick() {
    if (this.container.clientWidth && Math.abs(this.container.clientWidth - parseFloat(this.canvas.style.width)) > 1) this.resize();
    const now = performance.now();
    if (this.show) {
      this._playFrame(now);
      if (this.frames % (this.software ? SHADOW_EVERY : 1) === 0) this.shadowsDue = true;
      this._keepPace(now);
    } else this.pace.last = null;
    const moving = Boolean(this.show || this.glide);
    if (this.glide) this._glide(now);
    if (this.shadowsDue) {
      this.renderer.shadowMap.needsUpdate = true;
      this.shadowsDue = false;
    }
    this.controls.enableDamping = motionAllowed(); // with reduced motion no drifting on after a drag
    const turned = this.controls.update();
    if (moving || turned) this._draw(true);
    else if (this.dirty || this.lastDrawnMoving) this._draw(false); // a still picture is drawn once
    this.frames += 1;
    if (this.onFrame) this.onFrame(this.shownJoints || [0, 0], Boolean(this.show));
  }

  _draw(moving) {
    if (this.stills && !moving) this.stills.render(this.scene, this.camera);
    else this.renderer.render(this.scene, this.camera);
    this.dirty = false;
    this.lastDrawnMoving = moving;
  }

  // How many samples a pixel of the picture at rest has (antialiasing).
  samples() {
    const gl = this.renderer.getContext();
    return this.stills ? this.stills.target.samples : gl.getParameter(gl.SAMPLES);
  }

  // While the ship moves, a device too slow for 30 frames a second draws fewer pixels from then
  // on, and more again (up to its own ratio) when its frames come quickly (changing the canvas's
  // size at each motion's start and end would cost more).
  _keepPace(now) {
    const pace = this.pace;
    if (pace.last !== null) {
      pace.frames += 1;
      pace.ms += now - pace.last;
    }
    pace.last = now;
    if (pace.frames < PACE_FRAMES) return;
    const frameMs = pace.ms / pace.frames;
    if (frameMs > SLOW_FRAME_MS) this._setPixelRatio(this.pixelRatio * 0.8);
    else if (frameMs < QUICK_FRAME_MS) this._setPixelRatio(this.pixelRatio * 1.25);
    pace.frames = 0;
    pace.ms = 0;
  }

  _setPixelRatio(wanted) {
    const ratio = Math.max(MIN_PIXEL_RATIO, Math.min(this.fullRatio, wanted));
    if (ratio === this.pixelRatio) return;
    this.pixelRatio = ratio;
    this.renderer.setPixelRatio(ratio);
  }

  dispose() {
    this.renderer.setAnimationLoop(null);
    window.removeEventListener("resize", this._resize);
    this.controls.dispose();
    this.renderer.dispose();
    for (const cleanup of this.cleanups) cleanup();
    this.canvas.remove();
  }
}
