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

export function savedName() {
  return localStorage.getItem("spieltisch.name") || "";
}

/** @param {string} name */
export function keepName(name) {
  localStorage.setItem("spieltisch.name", name);
}
