// The server's REST API and the seat tokens this browser keeps.

export class ApiError extends Error {
  /**
   * @param {string} code the server's error code (or "network", "request")
   * @param {string} message
   * @param {{ [field: string]: unknown }} [body] the whole refusal, e.g. its "retry_after"
   */
  constructor(code, message, body = {}) {
    super(message);
    this.code = code;
    this.body = body;
  }
}

/**
 * GET `path`, or send `body` to it as JSON (POST unless `method` says otherwise); the answer's
 * JSON (an empty object for an answer without a body), or an ApiError.
 * @param {string} path
 * @param {unknown} [body]
 * @param {string} [method]
 * @returns {Promise<any>}
 */
export async function api(path, body, method = "POST") {
  let response;
  try {
    response = await fetch(path, body === undefined ? {} : {
      method,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError("network", "The server cannot be reached.");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = data.message || (Array.isArray(data.detail) ? data.detail.map((/** @type {{ msg: string }} */ d) => d.msg).join("; ") : "");
    throw new ApiError(data.error || data.code || "request", message || `The server answered ${response.status}.`, data);
  }
  return data;
}

const KEY = "spieltisch.tokens";

/** @returns {{ [tableId: string]: string }} */
function tokens() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

/**
 * Every seat this browser holds, as the server takes them at sign-up and sign-in.
 * @returns {{ table: string, token: string }[]}
 */
export function heldSeats() {
  return Object.entries(tokens()).filter(([, token]) => typeof token === "string" && token)
    .map(([table, token]) => ({ table, token }));
}

/**
 * @param {string} tableId
 * @returns {string | null}
 */
export function tokenFor(tableId) {
  return tokens()[tableId] || null;
}

/**
 * @param {string} tableId
 * @param {string | null} token null forgets the seat
 */
export function keepToken(tableId, token) {
  const all = tokens();
  if (token) all[tableId] = token;
  else delete all[tableId];
  localStorage.setItem(KEY, JSON.stringify(all));
}

/**
 * The subprotocols a table's WebSocket offers: "spieltisch", and the seat token as
 * "token.<TOKEN>" (the server accepts "spieltisch" alone). The token travels in a header,
 * never in the URL, so it stays out of proxies' access logs.
 * @param {string | null} token
 * @returns {string[]}
 */
export function socketProtocols(token) {
  return token ? ["spieltisch", `token.${token}`] : ["spieltisch"];
}

const RETRY_FIRST = 1000; // ms before the first attempt to reconnect
const RETRY_MOST = 30000; // ms between attempts at most

/**
 * How long to wait before reconnecting a table's socket: a second after it was open, then
 * twice as long after each attempt in a row that never opened (a server refusing new sockets
 * from this address answers 429, which a browser cannot read), up to 30 s; each wait spread
 * by a fifth either way, so that browsers refused together do not all come back together.
 * @param {number} failures attempts in a row that never opened
 * @param {number} random a number in [0, 1)
 * @returns {number} milliseconds
 */
export function reconnectDelay(failures, random) {
  const wait = Math.min(RETRY_MOST, RETRY_FIRST * 2 ** Math.min(failures, 16));
  return Math.round(wait * (0.8 + 0.4 * random));
}

export function savedName() {
  return localStorage.getItem("spieltisch.name") || "";
}

/** @param {string} name */
export function keepName(name) {
  localStorage.setItem("spieltisch.name", name);
}
