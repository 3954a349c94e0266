// The plugin's HTTP API (contract section 5), same-origin with the
// session cookie. Failures throw ApiError carrying the contract's code.

const API = "/dsh-excalidraw/api";

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

async function call(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(API + path, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    // not JSON: handled below by status
  }
  if (!res.ok) {
    const e = data?.error || {};
    throw new ApiError(res.status, e.code || "http_" + res.status, e.message, e.details);
  }
  return data;
}

export const listScenes = () => call("GET", "/scenes").then((d) => d.scenes || []);
export const readScene = (name) => call("GET", `/scenes/${encodeURIComponent(name)}`);
export const createScene = (name) => call("POST", "/scenes", { name, request_id: requestId() });

// saveScene sends the full document. expectedRevision fences it unless
// force is set (the conflict dialog's "Overwrite anyway").
export const saveScene = (name, scene, expectedRevision, force = false) =>
  call("PUT", `/scenes/${encodeURIComponent(name)}`, {
    scene,
    expected_revision: expectedRevision,
    request_id: requestId(),
    ...(force ? { force: true } : {}),
  });

export const sceneEventsURL = (name) => `${API}/scenes/${encodeURIComponent(name)}/events`;

export function requestId() {
  return "ui-" + (crypto.randomUUID ? crypto.randomUUID() : Date.now() + "-" + Math.random());
}

// Lifecycle evidence (contract section 8). keepalive lets `unmounted` out
// while the page is being torn down; failures are ignored, since evidence
// must never break editing.
export function report(event, fields = {}) {
  return fetch(API + "/editor-status", {
    method: "POST",
    credentials: "same-origin",
    keepalive: true,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ event, ...fields }),
  }).catch(() => {});
}

let lastError = "";
export function reportError(message) {
  message = String(message || "unknown error").slice(0, 1900);
  if (message === lastError) return; // one report per distinct error, not a flood
  lastError = message;
  report("error", { message });
}
