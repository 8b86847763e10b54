// The server's REST API and the seat tokens this browser keeps.

export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

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
    const message = data.message || (Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : "");
    throw new ApiError(data.error || "request", message || `The server answered ${response.status}.`);
  }
  return data;
}

const KEY = "spieltisch.tokens";

function tokens() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

export function tokenFor(tableId) {
  return tokens()[tableId] || null;
}

export function keepToken(tableId, token) {
  const all = tokens();
  if (token) all[tableId] = token;
  else delete all[tableId];
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function savedName() {
  return localStorage.getItem("spieltisch.name") || "";
}

export function keepName(name) {
  localStorage.setItem("spieltisch.name", name);
}
