import assert from "node:assert/strict";
import { test } from "node:test";

import { reconnectDelay } from "../../src/spieltisch/web/api.js";

test("a socket that was open is reconnected after about a second", () => {
  assert.equal(reconnectDelay(0, 0.5), 1000);
  assert.equal(reconnectDelay(0, 0), 800);
  assert.ok(reconnectDelay(0, 0.999999) <= 1200);
});

test("each attempt in a row that never opened waits twice as long, up to 30 s", () => {
  const waits = [0, 1, 2, 3, 4, 5, 6, 40].map((failures) => reconnectDelay(failures, 0.5));
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test("browsers refused together spread their next attempts", () => {
  const waits = [0, 0.25, 0.5, 0.75, 0.999].map((random) => reconnectDelay(3, random));
  assert.equal(new Set(waits).size, waits.length);
  assert.ok(Math.min(...waits) >= 6400 && Math.max(...waits) <= 9600, String(waits));
});
