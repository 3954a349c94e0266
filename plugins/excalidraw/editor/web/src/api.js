// The plugin's HTTP API (contract section 5), same-origin with the
// session cookie. Failures throw ApiError carrying the contract's code;
// describe() turns any failure into words for a person.

const API = "/dsh-excalidraw/api";

// Keepalive requests outlive the page (a save sent as the tab closes), but
// the browser allows at most 64 KiB of them in flight; bigger saves go as
// ordinary requests, and the page asks before it is closed instead.
const KEEPALIVE_MAX = 60 * 1024;

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

async function call(method, path, body, { keepalive = false } = {}) {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
    init.keepalive = keepalive && init.body.length <= KEEPALIVE_MAX;
  }
  let res;
  try {
    res = await fetch(API + path, init);
  } catch (e) {
    if (!init.keepalive) throw e;
    // The keepalive quota was taken (another request in flight): the
    // page is still here, so send it the ordinary way.
    res = await fetch(API + path, { ...init, keepalive: false });
  }
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
// force is set (the conflict dialog's "Overwrite anyway"). keepalive lets a
// save sent while the tab closes reach the server.
export const saveScene = (name, scene, expectedRevision, { force = false, keepalive = false, id = requestId() } = {}) =>
  call(
    "PUT",
    `/scenes/${encodeURIComponent(name)}`,
    { scene, expected_revision: expectedRevision, request_id: id, ...(force ? { force: true } : {}) },
    { keepalive },
  );

// roomInfo is the board's live room: {board, roomId, roomKey, link, path}.
export const roomInfo = (name) => call("GET", `/scenes/${encodeURIComponent(name)}/room`);

// mergeScene stores elements where they are newer than the board's (no
// revision fence, never a conflict), and the stored appState subset and
// files: what the live room does not carry, and the way out when the
// room cannot be reached (keepalive as the tab goes away).
export const mergeScene = (name, { elements, appState, files } = {}, { keepalive = false } = {}) =>
  call(
    "POST",
    `/scenes/${encodeURIComponent(name)}/merge`,
    { ...(elements ? { elements } : {}), ...(appState ? { appState } : {}), ...(files ? { files } : {}) },
    { keepalive },
  );

// roomError is a room's dsh-error ({code, message}) as the ApiError the
// same failure of an HTTP call would be, for describe().
const ROOM_STATUS = {
  permission_denied: 403,
  not_found: 404,
  too_large: 413,
  too_many_elements: 422,
  invalid_scene: 422,
  invalid_operation: 422,
  busy: 423,
  store_unavailable: 503,
};
export const roomError = (body = {}) =>
  new ApiError(ROOM_STATUS[body.code] || (String(body.code || "").startsWith("invalid") ? 422 : 500), body.code || "io_error", body.message || "the room could not save", body.details);

// Who is signed in: {kind: person | bot | host | local, name, person,
// admin, hostOwner}.
export const whoAmI = () => call("GET", "/me");

// Boards as the caller sees them: [{name, title, description, role,
// folder, revision, updatedAt}]; trash: the caller's trashed boards.
export const listBoards = ({ trash = false } = {}) => call("GET", `/boards${trash ? "?trash=1" : ""}`).then((d) => d?.boards || []);
// updateBoard renames a board or changes its description (its owner only).
export const updateBoard = (name, { title, description }) => call("PATCH", `/boards/${encodeURIComponent(name)}`, { title, description });
// trashBoard moves a board to the trash (its owner only); restoreBoard
// brings it back.
export const trashBoard = (name) => call("DELETE", `/boards/${encodeURIComponent(name)}`);
export const restoreBoard = (name) => call("POST", `/boards/${encodeURIComponent(name)}/restore`);

// Sharing (GET/PUT /boards/:name/members): {owner, members: [{name,
// role}]}, by person name. setMember gives a person a role, editor or
// viewer, or "" to stop sharing with them (the owner only); it answers
// with the updated list.
export const listMembers = (board) => call("GET", `/boards/${encodeURIComponent(board)}/members`);
export const setMember = (board, person, role) =>
  call("PUT", `/boards/${encodeURIComponent(board)}/members/${encodeURIComponent(person)}`, { role });

// Connect tokens: an agent's credential for some boards, acting for the
// person who mints it, with at most their role. The secret comes back once,
// in the mint's answer.
export const mintToken = ({ name, boards, role, canCreateBoards = false }) =>
  call("POST", "/mcp/tokens", { name, boards, role, canCreateBoards });
export const listTokens = (board) => call("GET", `/mcp/tokens?board=${encodeURIComponent(board)}`).then((d) => d?.tokens || []);
export const revokeToken = (id) => call("DELETE", `/mcp/tokens/${encodeURIComponent(id)}`);

// thumbnailURL is the board list's picture of a scene (GET
// /scenes/:name/thumbnail.png), one per theme and pixel budget, served
// from the server's cache: it may show an older revision than the scene's
// (the X-Scene-Revision header says which) while a newer one is drawn.
export function thumbnailURL(name, { maxPixels, dark = false } = {}) {
  const q = new URLSearchParams();
  if (maxPixels) q.set("max_pixels", String(Math.round(maxPixels)));
  q.set("dark", dark ? "true" : "false");
  return `${API}/scenes/${encodeURIComponent(name)}/thumbnail.png?${q}`;
}

// since is the revision the page shows: the stream then sends deltas
// (the elements each commit changed) instead of revision records.
export const sceneEventsURL = (name, since = 0) => `${API}/scenes/${encodeURIComponent(name)}/events${since > 0 ? `?since=${since}` : ""}`;
export const listEventsURL = () => `${API}/events`;

// TAB names this page load in its request ids ("ui-<tab>-<uuid>", or
// "ui-<kind>-<tab>-<uuid>"), which the journal keeps: the history says
// "this tab" for its own commits, and an overwrite is told from this
// tab's own.
export const TAB = [...crypto.getRandomValues(new Uint8Array(4))].map((b) => b.toString(16).padStart(2, "0")).join("");

export function requestId(kind = "") {
  const uuid = crypto.randomUUID ? crypto.randomUUID() : Date.now() + "-" + Math.random();
  return `ui-${kind ? kind + "-" : ""}${TAB}-${uuid}`;
}

// isOwnRequest reports whether a journal entry's request id is this tab's.
export const isOwnRequest = (id) => typeof id === "string" && id.startsWith("ui-") && id.includes(`-${TAB}-`);

// sceneLog reads a page of the scene's history, newest first:
// {name, revision, entries: [...], next?}. opts: limit, cursor, ids
// (all | some | none), minRevision, maxRevision.
export function sceneLog(name, { limit, cursor, ids, minRevision, maxRevision } = {}) {
  const q = new URLSearchParams();
  if (limit) q.set("limit", String(limit));
  if (cursor) q.set("cursor", cursor);
  if (ids) q.set("ids", ids);
  if (minRevision) q.set("min_revision", String(minRevision));
  if (maxRevision) q.set("max_revision", String(maxRevision));
  const qs = q.toString();
  return call("GET", `/scenes/${encodeURIComponent(name)}/log${qs ? "?" + qs : ""}`);
}

// revertCommit undoes one commit ("Undo this change", "Bring my version
// back"): the write envelope, whose collateral lists the elements left
// alone because later commits changed them again.
export const revertCommit = (name, commit) =>
  call("POST", `/scenes/${encodeURIComponent(name)}/restore`, { from: commit, mode: "revert", request_id: requestId() });

// pluginAvailable tells "this scene is gone" from "the whole plugin is
// gone" after a 404: the health route answers while the plugin is loaded.
export async function pluginAvailable() {
  try {
    const res = await fetch(API + "/health", { credentials: "same-origin", cache: "no-store" });
    return res.status !== 404;
  } catch {
    return false;
  }
}

// The command that prints a new login link, as the host told the page.
export const loginCommand = () =>
  document.querySelector('meta[name="dsh-login-command"]')?.content || "dsh login";

const number = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : String(n));

function bytes(n) {
  if (typeof n !== "number") return String(n);
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KiB`;
  return `${n} bytes`;
}

// describe turns a failure into what a person is told: text (never a bare
// "error", never JSON), kind (for the status bar and banners) and retry
// (whether trying again later can help; the page then retries by itself).
// unavailable is the result of pluginAvailable() for a 404.
export function describe(e, { unavailable = false } = {}) {
  if (!(e instanceof ApiError)) {
    if (navigator.onLine === false) return { kind: "offline", retry: true, text: "You are offline. Your changes stay here and are saved when the connection is back." };
    return { kind: "network", retry: true, text: "dsh cannot be reached (stopped or restarting?). Your changes stay here; trying again." };
  }
  const d = e.details || {};
  switch (e.status) {
    case 401:
      return { kind: "unauthorized", retry: true, text: "Your session ended. Your changes stay on this page and are saved once you log in again." };
    case 404:
      if (unavailable) return { kind: "unavailable", retry: true, text: "dsh is restarting its drawing service. Your changes stay on this page and are saved when it is back." };
      return { kind: "gone", retry: false, text: "This board is no longer in dsh (deleted, or moved to the trash). Your drawing stays on this page until you close it." };
    case 413:
      if (d.limit) {
        return { kind: "limit", retry: false, text: `${e.message}. Make the board smaller, or raise ${d.limit} in the dsh config.` };
      }
      return { kind: "limit", retry: false, text: `The board is bigger than dsh accepts (${e.message}). Raise host.http.maxBodyBytes in the dsh config, or make the board smaller.` };
    case 422:
      if (e.code === "too_many_elements") {
        // (Without details — a room's error — the message says it all but
        // the limit's name, which follows.)
        const what = d.max !== undefined && d.actual !== undefined ? `The board would have ${number(d.actual)} elements; the limit is ${number(d.max)}` : e.message.replace(/ \([A-Za-z]+\)$/, "");
        return { kind: "limit", retry: false, text: `${what} (${d.limit || "maxElements"}). Delete some elements, or raise ${d.limit || "maxElements"} in the dsh config.` };
      }
      return { kind: "invalid", retry: false, text: `dsh could not store this drawing: ${e.message}${d.pointer ? ` (at ${d.pointer})` : ""}.` };
    case 423:
      return { kind: "busy", retry: true, text: "Someone else is saving this board right now. Trying again in a moment." };
    case 503:
      if (e.code === "store_unavailable") {
        return { kind: "unavailable", retry: true, text: "dsh cannot reach its database. Your changes stay on this page and are saved when it is back." };
      }
      return { kind: "unavailable", retry: true, text: "dsh is restarting. Your changes stay on this page and are saved when it is back." };
  }
  if (e.status >= 500) {
    return { kind: "server", retry: true, text: `dsh could not save just now (${e.message}). Trying again.` };
  }
  if (e.code === "too_large" && d.max !== undefined) {
    return { kind: "limit", retry: false, text: `The board is ${bytes(d.actual)}; the limit is ${bytes(d.max)} (${d.limit}).` };
  }
  return { kind: "refused", retry: false, text: `dsh did not accept this change: ${e.message}.` };
}

// Lifecycle evidence (contract section 8), kept per board: every report
// names the board the editor shows (board; by default the open one), and
// with none open there is nothing to report. keepalive lets `unmounted`
// out while the page is being torn down; failures are ignored, since
// evidence must never break editing.
let evidenceBoard = null;

// openedBoard marks name as the board the editor shows (null: none), for
// the reports that do not name one (an uncaught error in the page).
export function openedBoard(name) {
  evidenceBoard = name;
}

// closedBoard forgets name as the open board, unless another has opened since.
export function closedBoard(name) {
  if (evidenceBoard === name) evidenceBoard = null;
}

export function report(event, fields = {}, board = evidenceBoard) {
  if (!board) return Promise.resolve();
  return fetch(API + "/editor-status", {
    method: "POST",
    credentials: "same-origin",
    keepalive: true,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ event, name: board, ...fields }),
  }).catch(() => {});
}

let lastError = "";
export function reportError(message, board = evidenceBoard) {
  message = String(message || "unknown error").slice(0, 1900);
  if (message === lastError) return; // one report per distinct error, not a flood
  lastError = message;
  report("error", { message }, board);
}
