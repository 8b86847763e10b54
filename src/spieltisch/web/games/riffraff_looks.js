// How Riff Raff's ship and cargo look (three.js geometry in the frames of data.py: x to the bow,
// y to port, z up, metres). Every piece stays inside the physics' bounding box and follows its
// primitives, so a piece is drawn where the simulation has it; the hull's deck is exactly the
// simulated deck, and the shaped hull, stem and wave stand lie where no cargo rests.

import * as THREE from "three";

/** @typedef {[number, number, number]} Vec3 a point or a size, x y z */
/** @typedef {[THREE.BufferGeometry, number]} Part a piece of geometry and its colour */

const WOOD = 0x8a5a33;
const DARK_WOOD = 0x5d3a1f;
const IRON = 0x3b3b3b;
const BRASS = 0xd4a640;
const SKIN = 0xf0c8a0;

// --- merging parts into one indexed geometry with vertex colours (one draw call a piece) ---------
function merged(parts) {
  const positions = [];
  const normals = [];
  const colours = [];
  const index = [];
  const colour = new THREE.Color();
  for (const [geometry, hex] of parts) {
    if (!geometry.attributes.normal) geometry.computeVertexNormals();
    colour.set(hex);
    const first = positions.length / 3;
    const p = geometry.attributes.position;
    const n = geometry.attributes.normal;
    for (let i = 0; i < p.count; i += 1) {
      positions.push(p.getX(i), p.getY(i), p.getZ(i));
      normals.push(n.getX(i), n.getY(i), n.getZ(i));
      colours.push(colour.r, colour.g, colour.b);
    }
    const own = geometry.index ? geometry.index.array : [...Array(p.count).keys()];
    for (const k of own) index.push(first + k);
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.Float32BufferAttribute(positions, 3));
  geometry.setAttribute("normal", new THREE.Float32BufferAttribute(normals, 3));
  geometry.setAttribute("color", new THREE.Float32BufferAttribute(colours, 3));
  geometry.setIndex(index);
  return geometry;
}

/** @param {number} x @param {number} y @param {number} z @param {Vec3} [at] */
function box(x, y, z, at = [0, 0, 0]) {
  return new THREE.BoxGeometry(x, y, z).translate(...at);
}

// A cylinder along z (three's cylinders stand along y); `open`: a band without its end discs.
/** @param {number} radius @param {number} height @param {Vec3} [at] */
function cylinder(radius, height, at = [0, 0, 0], segments = 12, open = false) {
  return new THREE.CylinderGeometry(radius, radius, height, segments, 1, open).rotateX(Math.PI / 2).translate(...at);
}

// A solid of revolution about z from [radius, z] points.
function lathe(profile, segments = 14) {
  return new THREE.LatheGeometry(profile.map(([r, z]) => new THREE.Vector2(r, z)), segments).rotateX(Math.PI / 2);
}

/** @param {number} a @param {number} b @param {number} c @param {Vec3} [at] */
function ellipsoid(a, b, c, at = [0, 0, 0], segments = 12) {
  return new THREE.SphereGeometry(1, segments, Math.ceil(segments * 0.6)).scale(a, b, c).translate(...at);
}

// A half cylinder along x, `length` long, `half` wide either side and `height` high, flat side down.
/** @param {number} length @param {number} half @param {number} height @param {Vec3} at */
function halfRound(length, half, height, at) {
  return new THREE.CylinderGeometry(1, 1, length, 10, 1, false, -Math.PI / 2, Math.PI)
    .rotateZ(Math.PI / 2).scale(1, half, height).translate(...at);
}

function shade(hex, by) {
  return new THREE.Color(hex).multiplyScalar(by).getHex();
}

// --- the cargo ---------------------------------------------------------------------------------
// Each maker gets the piece's bounding box (x, y, z) and its main colour. A piece is a few dozen
// pixels across in the picture: its small details (eyes, ears, bands) get few faces, since a CPU
// renderer pays for every triangle, in the picture and in the shadow map.
const CARGO = {
  barrel([x, , z], colour) {
    const r = x / 2;
    const h = z / 2;
    const bulge = (k) => r * (0.86 + 0.14 * Math.cos((k * Math.PI) / 2)); // k: -1 bottom .. 1 top
    const staves = lathe([[0, -h], ...[...Array(9).keys()].map((i) => [bulge(i / 4 - 1), (i / 4 - 1) * h]), [0, h]]);
    const hoops = [-0.72, -0.28, 0.28, 0.72].map((k) => cylinder(bulge(k) + 0.0002, z * 0.06, [0, 0, k * h], 14, true));
    return merged([[staves, colour], ...hoops.map((g) => [g, IRON]), [cylinder(r * 0.7, 0.0004, [0, 0, h - 0.0002]), shade(colour, 0.7)]]);
  },

  flacon([x, , z], colour) {
    const r = x / 2;
    const bottom = -z / 2;
    const neckR = x * 0.21;
    const glass = lathe([
      [0, bottom], [r * 0.94, bottom], [r, bottom + 0.0015], [r, bottom + z * 0.47],
      [r * 0.8, bottom + z * 0.55], [neckR * 1.1, bottom + z * 0.62], [neckR, bottom + z * 0.66],
      [neckR, z / 2 - 0.004], [neckR * 1.2, z / 2 - 0.0035], [neckR * 1.2, z / 2 - 0.0025], [0, z / 2 - 0.0025],
    ]);
    const cork = cylinder(neckR * 0.9, 0.0025, [0, 0, z / 2 - 0.00125], 12);
    const label = cylinder(r + 0.0002, z * 0.2, [0, 0, bottom + z * 0.24], 14, true);
    return merged([[glass, colour], [cork, 0xa47148], [label, 0xf3ead2]]);
  },

  boat([x, y, z], colour) {
    const [a, b, c] = [x / 2, y / 2, z / 2];
    const pointed = (geometry) => {
      const p = geometry.attributes.position;
      for (let i = 0; i < p.count; i += 1) p.setY(i, p.getY(i) * (1 - 0.6 * (p.getX(i) / a) ** 2));
      geometry.computeVertexNormals();
      return geometry;
    };
    const half = (top) => new THREE.SphereGeometry(1, 18, 5, 0, Math.PI * 2, top ? 0 : Math.PI / 2, Math.PI / 2).rotateX(Math.PI / 2).scale(a, b, c);
    const hull = pointed(half(false));
    const cover = pointed(half(true));
    const rim = pointed(new THREE.TorusGeometry(0.95, 0.05, 4, 18).scale(a * 0.99, b * 0.99, c * 0.9));
    const cockpit = pointed(ellipsoid(a * 0.5, b * 0.6, 0.0008, [0, 0, c - 0.0006], 10));
    return merged([[hull, shade(colour, 0.8)], [cover, colour], [rim, 0xf1e6cc], [cockpit, DARK_WOOD]]);
  },

  box([x, y, z], colour) {
    const t = 0.0035;
    /** @type {Part[]} */
    const parts = [[box(x - 0.001, y - 0.001, z - 0.001), colour]];
    const edge = shade(colour, 0.62);
    for (const sy of [-1, 1]) {
      for (const sz of [-1, 1]) parts.push([box(x, t, t, [0, sy * (y - t) / 2, sz * (z - t) / 2]), edge]);
    }
    for (const sx of [-1, 1]) {
      for (const sz of [-1, 1]) parts.push([box(t, y, t, [sx * (x - t) / 2, 0, sz * (z - t) / 2]), edge]);
      for (const sy of [-1, 1]) parts.push([box(t, t, z, [sx * (x - t) / 2, sy * (y - t) / 2, 0]), edge]);
    }
    parts.push([box(x * 0.9, y + 0.0004, t * 0.8, [0, 0, 0]), edge]); // a board across each side
    return merged(parts);
  },

  chest([x, y, z], colour) {
    const lidHeight = 0.007; // the physics' lid: a half cylinder 7 mm high on the box
    const base = z - lidHeight;
    const body = box(x, y, base, [0, 0, -z / 2 + base / 2]);
    const lid = halfRound(x, y / 2, lidHeight, [0, 0, z / 2 - lidHeight]);
    const straps = [-0.3, 0.3].map((k) => box(0.0025, y + 0.0003, base + 0.0004, [k * x, 0, -z / 2 + base / 2]));
    const lidStraps = [-0.3, 0.3].map((k) => halfRound(0.0025, y / 2 + 0.0003, lidHeight + 0.0003, [k * x, 0, z / 2 - lidHeight]));
    const lock = box(0.005, 0.0006, 0.006, [0, -y / 2 - 0.0001, z / 2 - lidHeight - 0.001]);
    const seam = box(x + 0.0002, y + 0.0002, 0.0006, [0, 0, z / 2 - lidHeight]);
    return merged([[body, colour], [lid, shade(colour, 0.85)], [seam, DARK_WOOD],
      ...straps.map((g) => [g, BRASS]), ...lidStraps.map((g) => [g, BRASS]), [lock, BRASS]]);
  },

  plank([x, y, z], colour) {
    /** @type {Part[]} */
    const parts = [[box(x, y, z), colour]];
    const grain = shade(colour, 0.78);
    for (const k of [-0.22, 0.18]) parts.push([box(x * 0.8, 0.0006, 0.0002, [0.004 * k, k * y, z / 2]), grain]);
    for (const sx of [-1, 1]) {
      for (const sy of [-1, 1]) parts.push([cylinder(0.0009, 0.0003, [sx * x * 0.42, sy * y * 0.25, z / 2], 8), IRON]);
    }
    return merged(parts);
  },

  rat([x, y, z], colour) {
    // the physics: a flat-bellied ellipsoid body at the -x end, a tail slanting down at +x
    const [a, b, c] = [x * 0.3125, y / 2, z * 0.4];
    const body = ellipsoid(a, b, c, [-x * 0.1875, 0, -z * 0.1], 14);
    const p = body.attributes.position;
    for (let i = 0; i < p.count; i += 1) {
      const front = Math.max(0, (-x * 0.1875 - p.getX(i)) / a); // 0 mid-body, 1 at the snout
      const narrow = 1 - 0.55 * front * front;
      p.setY(i, p.getY(i) * narrow);
      p.setZ(i, -z * 0.1 + (p.getZ(i) + z * 0.1) * narrow);
    }
    body.computeVertexNormals();
    const head = -x / 2 + a * 0.55;
    const ears = [-1, 1].map((s) => ellipsoid(0.0022, 0.0008, 0.0022, [head + 0.002, s * 0.0035, z * 0.3], 7));
    const eyes = [-1, 1].map((s) => ellipsoid(0.0008, 0.0008, 0.0008, [head - 0.0025, s * 0.0026, z * 0.08], 6));
    const nose = ellipsoid(0.0009, 0.0009, 0.0009, [-x / 2 + 0.0008, 0, -z * 0.12], 6);
    const curve = new THREE.CatmullRomCurve3([
      new THREE.Vector3(x * 0.1, 0, -z * 0.05), new THREE.Vector3(x * 0.25, y * 0.15, -z * 0.2),
      new THREE.Vector3(x * 0.36, -y * 0.1, -z * 0.33), new THREE.Vector3(x * 0.46, 0, -z * 0.38),
    ]);
    const tail = new THREE.TubeGeometry(curve, 10, 0.0012, 5, false);
    return merged([[body, colour], [tail, 0xd99a9a], [nose, 0xd97f8a], ...ears.map((g) => [g, 0xd99a9a]), ...eyes.map((g) => [g, 0x111111])]);
  },

  sailor([x, y, z], colour) {
    const bottom = -z / 2;
    const waist = bottom + z * 0.34;
    const shoulders = bottom + z * 0.8;
    const legs = [-1, 1].map((s) => box(x * 0.9, y * 0.25, waist - bottom, [0, s * y * 0.14, (bottom + waist) / 2]));
    const stripes = [];
    const bands = 5;
    const step = (shoulders - waist) / bands;
    for (let i = 0; i < bands; i += 1) stripes.push([box(x, y * 0.55, step, [0, 0, waist + step * (i + 0.5)]), i % 2 ? 0xf5f5f5 : colour]);
    const arms = box(x * 0.66, y, z * 0.08, [0, 0, z * 0.18]);
    const hands = [-1, 1].map((s) => box(x * 0.6, y * 0.2, z * 0.16, [0, s * y * 0.39, z * 0.26]));
    const head = ellipsoid(x / 2, x / 2, x / 2, [0, 0, z / 2 - x / 2], 14);
    const cap = cylinder(x * 0.47, z * 0.04, [0, 0, z / 2 - z * 0.04], 14);
    const band = cylinder(x * 0.49, z * 0.02, [0, 0, z / 2 - z * 0.08], 14);
    return merged([...legs.map((g) => [g, 0x1d2a44]), ...stripes, [arms, colour], ...hands.map((g) => [g, SKIN]),
      [head, SKIN], [cap, 0xffffff], [band, 0x1d2a44]]);
  },
};

// The primitives the server describes (for a cargo type without a look of its own).
/** @param {{ shape: string, size: number[], at: Vec3 }} part */
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

const cargoCache = new Map();

// One geometry (with vertex colours) for a cargo type, made once.
export function cargoGeometry(spec) {
  if (!cargoCache.has(spec.name)) {
    const make = CARGO[spec.name];
    const geometry = make ? make(spec.size, spec.colour) : merged(spec.parts.map((part) => [partGeometry(part), spec.colour]));
    cargoCache.set(spec.name, geometry);
  }
  return cargoCache.get(spec.name);
}

// --- the ship ------------------------------------------------------------------------------------
const BOW = 0.045; // how far the bow reaches past the deck's end
const STERN = 0.02;
const STEP = 0.012; // the fore and after decks lie this far below the deck (no cargo rests there)

// The hull's half-breadth, top and depth below its top at x (the deck is the simulated box's top).
function station(x, ship) {
  const [length, width] = ship.hull_size;
  const half = length / 2;
  const beam = width / 2;
  const deck = ship.deck_height;
  const t = Math.max(-1, Math.min(1, x / half));
  let depth = 0.022 + 0.036 * (1 - Math.abs(t) ** 2.6);
  if (Math.abs(x) <= half) return { beam, top: deck, depth, fullness: 1.6 + 1.6 * (1 - t * t) };
  const s = x > 0 ? (x - half) / BOW : (-x - half) / STERN; // 0 at the deck's end, 1 at the tip
  const top = deck - STEP * Math.min(1, s * 8);
  if (x > 0) depth *= 1 - s * s;
  return { beam: beam * (x > 0 ? 1 - s * s : 1 - 0.3 * s), top, depth, fullness: 1.6 };
}

// The hull's shell: sections from the port deck edge round the keel to the starboard edge.
export function hullGeometry(ship) {
  const half = ship.hull_size[0] / 2;
  const xs = [];
  for (let i = 0; i <= 48; i += 1) xs.push(-half - STERN + ((half * 2 + STERN + BOW) * i) / 48);
  xs.push(half, -half, half + 0.0015, -half - 0.0015);
  xs.sort((a, b) => a - b);
  const around = 24;
  const positions = [];
  const uvs = [];
  for (const x of xs) {
    const { beam, top, depth, fullness } = station(x, ship);
    for (let j = 0; j <= around; j += 1) {
      const phi = (Math.PI * j) / around;
      const c = Math.cos(phi);
      const s = Math.sin(phi);
      positions.push(x, beam * Math.sign(c) * Math.abs(c) ** (2 / fullness), top - depth * s ** (2 / fullness));
      uvs.push((x + half + STERN) / (2 * half + STERN + BOW), j / around);
    }
  }
  const index = [];
  for (let i = 0; i < xs.length - 1; i += 1) {
    for (let j = 0; j < around; j += 1) {
      const a = i * (around + 1) + j;
      const b = a + around + 1;
      index.push(a, b, a + 1, b, b + 1, a + 1);
    }
  }
  for (let j = 1; j < around; j += 1) index.push(0, j, j + 1); // the transom
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.Float32BufferAttribute(positions, 3));
  geometry.setAttribute("uv", new THREE.Float32BufferAttribute(uvs, 2));
  geometry.setIndex(index);
  geometry.computeVertexNormals();
  return geometry;
}

// Strakes along the hull, a dark wale that sweeps up to bow and stern (the sheer) and a
// painted bottom.
export function hullTexture() {
  const canvas = document.createElement("canvas");
  canvas.width = 512;
  canvas.height = 256;
  const g = canvas.getContext("2d");
  g.fillStyle = "#7a4a28";
  g.fillRect(0, 0, 512, 256);
  for (let y = 0; y < 256; y += 16) {
    g.fillStyle = y % 32 ? "#84532e" : "#7d4d2a";
    g.fillRect(0, y, 512, 15);
    g.fillStyle = "#4e2f17";
    g.fillRect(0, y + 15, 512, 1);
    for (let x = (y * 7) % 96; x < 512; x += 96) g.fillRect(x, y, 1, 15);
  }
  const sheer = (x) => 16 - 10 * ((x - 256) / 256) ** 2; // the wale: closer to the deck at the ends
  for (const edge of [0, 1]) {
    g.beginPath();
    const y = (x) => (edge ? 256 - sheer(x) : sheer(x));
    for (let x = 0; x <= 512; x += 8) g.lineTo(x, y(x) - 5);
    for (let x = 512; x >= 0; x -= 8) g.lineTo(x, y(x) + 5);
    g.fillStyle = "#2b1b10";
    g.fill();
  }
  g.fillStyle = "#6b1f1a"; // the painted bottom between the waterlines
  g.fillRect(0, 96, 512, 64);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

// The deck: planks running fore and aft, their butts staggered, on exactly the simulated deck.
export function deckGeometry(ship) {
  const [length, width] = ship.hull_size;
  const deck = ship.deck_height;
  const planks = 8;
  const wide = width / planks;
  /** @type {Part[]} */
  const parts = [[box(length, width, 0.002, [0, 0, deck - STEP + 0.001]), 0x2f1c0e]]; // the seams
  for (let i = 0; i < planks; i += 1) {
    const y = -width / 2 + wide * (i + 0.5);
    const butt = ((i * 3) % 5) / 5 * 0.06 - 0.03;
    for (const [from, to] of [[-length / 2, butt], [butt, length / 2]]) {
      const tone = (i + (from < 0 ? 0 : 1)) % 3;
      const colour = [0xb98a5a, 0xae7f50, 0xc29463][tone];
      parts.push([box(to - from - 0.0008, wide - 0.0008, STEP, [(from + to) / 2, y, deck - STEP / 2]), colour]);
    }
  }
  const fore = new THREE.Shape();
  const half = length / 2;
  fore.moveTo(0, -width / 2);
  for (let k = 0; k <= 12; k += 1) {
    const s = k / 12;
    fore.lineTo(BOW * s, -(width / 2) * (1 - s * s));
  }
  for (let k = 12; k >= 0; k -= 1) {
    const s = k / 12;
    fore.lineTo(BOW * s, (width / 2) * (1 - s * s));
  }
  const foredeck = new THREE.ShapeGeometry(fore).translate(half, 0, deck - STEP + 0.0005);
  const afterdeck = box(STERN, width * 0.99, 0.001, [-half - STERN / 2 + 0.0005, 0, deck - STEP]);
  return merged([...parts, [foredeck, 0xa87a4c], [afterdeck, 0xa87a4c]]);
}

// Mast, the pegs the yards rest on, the stem with its bowsprit, the rudder and the ball's rod.
export function riggingGeometry(ship, ballDrop) {
  const deck = ship.deck_height;
  const [length, , height] = ship.hull_size;
  const half = length / 2;
  const mast = ship.mast_width;
  /** @type {Part[]} */
  const parts = [[box(mast, mast, ship.mast_height, [0, 0, deck + ship.mast_height / 2]), WOOD]];
  const top = deck + ship.mast_height;
  parts.push([ellipsoid(mast * 0.8, mast * 0.8, mast * 0.5, [0, 0, top], 10), DARK_WOOD]);
  for (const yard of ship.yards) {
    const under = deck + yard.height - ship.yard_thickness - 0.0025;
    parts.push([box(0.046, 0.005, 0.005, [0, 0, under]), DARK_WOOD]); // the peg through the mast
  }
  // the stem: a strip along the bow's keel line, rising at the tip to a post above the foredeck
  const stem = new THREE.Shape();
  const keel = [];
  for (let k = 0; k <= 10; k += 1) {
    const x = half - 0.03 + ((0.03 + BOW) * k) / 10;
    const { top: rim, depth } = station(Math.min(x, half + BOW - 0.001), ship);
    keel.push([x, rim - depth]);
  }
  keel.forEach(([x, z], k) => (k ? stem.lineTo(x + 0.002, z - 0.003) : stem.moveTo(x, z - 0.003)));
  stem.lineTo(half + BOW + 0.003, deck + 0.018);
  stem.lineTo(half + BOW - 0.004, deck + 0.018);
  for (const [x, z] of keel.slice().reverse()) stem.lineTo(Math.min(x, half + BOW - 0.004), z + 0.004);
  const stemGeometry = new THREE.ExtrudeGeometry(stem, { depth: 0.006, bevelEnabled: false })
    .rotateX(Math.PI / 2).translate(0, 0.003, 0);
  parts.push([stemGeometry, DARK_WOOD]);
  const sprit = new THREE.CylinderGeometry(0.0022, 0.003, 0.09, 8)
    .rotateZ(-Math.PI / 2).rotateY(-0.35).translate(half + BOW + 0.035, 0, deck + 0.025);
  parts.push([sprit, WOOD]);
  const rudder = box(0.012, 0.004, 0.026, [-half - STERN - 0.004, 0, deck - STEP - 0.011]);
  parts.push([rudder, DARK_WOOD]);
  const rodTop = deck - height;
  parts.push([cylinder(0.003, rodTop + ballDrop, [0, 0, (rodTop - ballDrop) / 2], 8), IRON]);
  return merged(parts);
}

// A small pennant at the masthead.
export function pennantGeometry(ship) {
  const top = ship.deck_height + ship.mast_height;
  const shape = new THREE.Shape();
  shape.moveTo(0, 0);
  shape.lineTo(-0.05, -0.008);
  shape.lineTo(0, -0.018);
  return new THREE.ShapeGeometry(shape).rotateX(Math.PI / 2).translate(-ship.mast_width / 2, 0, top - 0.004);
}

// A yard: its top face is the simulated yard's, with iron bands and rounded tips below it.
export function yardGeometry(ship, yard) {
  const w = ship.yard_width;
  const t = ship.yard_thickness;
  /** @type {Part[]} */
  const parts = [[box(w, yard.length, t), 0x9a6a3d]];
  for (const k of [-0.46, -0.2, 0.2, 0.46]) parts.push([box(w + 0.0006, 0.002, t * 0.6, [0, k * yard.length, -t * 0.25]), IRON]);
  for (const s of [-1, 1]) parts.push([cylinder(t * 0.45, w * 0.98, [0, 0, 0]).rotateY(Math.PI / 2).translate(0, s * yard.length / 2, -t * 0.05), DARK_WOOD]);
  return merged(parts);
}

// The wave stand: tiers of waves, each curling out at its foot into a line of foam, inside the
// simulated cone (so a falling piece lands on what is drawn).
const TIERS = 4;

export function waveGeometry(ship) {
  const [topRadius, topHeight] = ship.cone_top;
  const base = ship.cone_base_radius;
  const rings = TIERS * 12;
  const around = 60;
  const positions = [];
  const colours = [];
  const deep = new THREE.Color(0x1d5a96);
  const light = new THREE.Color(0x5b9bd8);
  const foam = new THREE.Color(0xf2f8ff);
  for (let i = 0; i <= rings; i += 1) {
    const h = i / rings;
    for (let j = 0; j <= around; j += 1) {
      const a = (2 * Math.PI * j) / around;
      const level = Math.max(0, h * TIERS + 0.2 * Math.sin(a * 5) * Math.min(1, h * TIERS)); // wavy tiers
      const tier = Math.min(TIERS - 1, Math.floor(level));
      const f = Math.min(1, level - tier); // 0 at a tier's foot, 1 at its top
      const scallop = 0.5 + 0.5 * Math.sin(a * 9 + tier * 1.9);
      const inset = 0.12 * f * f + 0.04 * (1 - scallop) * (1 - f); // inside the cone, never out
      const radius = (base + (topRadius - base) * h) * (1 - inset * (1 - h * 0.6));
      positions.push(radius * Math.cos(a), radius * Math.sin(a), topHeight * h);
      const colour = deep.clone().lerp(light, f * 0.8 + h * 0.2);
      colour.lerp(foam, Math.max(0, 1 - f / 0.16) * (0.55 + 0.45 * scallop));
      colours.push(colour.r, colour.g, colour.b);
    }
  }
  const index = [];
  for (let i = 0; i < rings; i += 1) {
    for (let j = 0; j < around; j += 1) {
      const a = i * (around + 1) + j;
      const b = a + around + 1;
      index.push(a, a + 1, b, b, a + 1, b + 1);
    }
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.Float32BufferAttribute(positions, 3));
  geometry.setAttribute("color", new THREE.Float32BufferAttribute(colours, 3));
  geometry.setIndex(index);
  geometry.computeVertexNormals();
  return geometry;
}

// A soft round shadow (black, fading out) for the table, where shadow maps would cost too much.
export function softShadow(width, depth, strength) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 64;
  const g = canvas.getContext("2d");
  const fade = g.createRadialGradient(32, 32, 0, 32, 32, 32);
  fade.addColorStop(0, `rgba(0,0,0,${strength})`);
  fade.addColorStop(1, "rgba(0,0,0,0)");
  g.fillStyle = fade;
  g.fillRect(0, 0, 64, 64);
  const material = new THREE.MeshBasicMaterial({ map: new THREE.CanvasTexture(canvas), transparent: true, depthWrite: false });
  return new THREE.Mesh(new THREE.PlaneGeometry(width, depth), material);
}

// The points the camera keeps in view: the wave stand, hull, mast top and yard tips, and
// the masthead heeled a little either way.
export function framePoints(ship) {
  const [length, width] = ship.hull_size;
  const pivot = ship.pivot_height;
  const deck = pivot + ship.deck_height;
  const mastTop = ship.deck_height + ship.mast_height;
  const points = [];
  const [topRadius, topHeight] = ship.cone_top;
  const low = 0.2; // the stand from a fifth of its height up: its foot may leave the picture
  const radius = ship.cone_base_radius + (topRadius - ship.cone_base_radius) * low;
  for (let k = 0; k < 8; k += 1) {
    const a = (k * Math.PI) / 4;
    points.push([radius * Math.cos(a), radius * Math.sin(a), topHeight * low]);
  }
  const [stern, bow] = [-length / 2 - STERN - 0.01, length / 2 + BOW];
  for (const y of [-width / 2, width / 2]) points.push([stern, y, deck], [stern, y, deck - 0.07], [0, y, deck - 0.06]);
  points.push([bow + 0.08, 0, deck + 0.045], [bow, 0, deck - 0.07]); // bowsprit and forefoot
  for (const yard of ship.yards) for (const s of [-1, 1]) points.push([0, (s * (yard.length + 0.01)) / 2, deck + yard.height]);
  for (const lean of [-0.2, 0, 0.2]) {
    for (const [x, up] of [[0, mastTop + 0.008], [-0.055, mastTop - 0.012]]) { // masthead and pennant
      points.push([x, -Math.sin(lean) * up, pivot + Math.cos(lean) * up]);
    }
  }
  return points.map((p) => new THREE.Vector3(...p));
}
