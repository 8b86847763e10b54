// The server's REST API and the seat tokens this browser keeps.

export class ApiError extends Error {
  /**
   * @param {string} code the server's error code (or "network", "request")
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * GET `path`, or POST `body` to it as JSON; the answer's JSON, or an ApiError.
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(path, body) {
  let response;
  try {
    response = await fetch(path, body === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError("network", "The server cannot be reached.");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = data.message || (Array.isArray(data.detail) ? data.detail.map((/** @type {{ msg: string }} */ d) => d.msg).join("; ") : "");
    throw new ApiError(data.error || "request", message || `The server answered ${response.status}.`);
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
