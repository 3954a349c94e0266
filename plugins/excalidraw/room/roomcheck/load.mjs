// People drawing together in one room, for a measure of how fast what one
// draws reaches the others: N clients (the protocol as client.mjs speaks
// it) join a room; each moves its pointer at 30 Hz and draws strokes (a
// freehand line growing 30 times a second for a second, then a pause);
// every update carries its send time, and every other client notes when
// it arrived. Prints one JSON line: percentiles, and a digest of what each
// client holds at the end (to compare with the stored board).
//
//   node load.mjs <url> '#room=<id>,<key>' <token> <people> <seconds>
import { io } from "socket.io-client";

const [url, link, token, peopleArg, secondsArg] = process.argv.slice(2);
const [, roomId, roomKey] = /^#room=([a-zA-Z0-9_-]+),([a-zA-Z0-9_-]+)$/.exec(link);
const people = Number(peopleArg);
const seconds = Number(secondsArg);

const key = await crypto.subtle.importKey(
  "jwk",
  { alg: "A128GCM", ext: true, k: roomKey, key_ops: ["encrypt", "decrypt"], kty: "oct" },
  { name: "AES-GCM", length: 128 },
  false,
  ["encrypt", "decrypt"],
);
const seal = async (msg) => {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(JSON.stringify(msg)));
  return [data, iv];
};
const open = async (data, iv) =>
  JSON.parse(new TextDecoder().decode(await crypto.subtle.decrypt({ name: "AES-GCM", iv }, key, data)));
const now = () => performance.timeOrigin + performance.now();

// What each client holds: element id → [version, versionNonce], by the
// rule every peer reconciles with (higher version; on a tie the lower
// nonce), from the board it joined with, what it received and what it sent.
const held = [];
const hold = (i, el) => {
  const cur = held[i].get(el.id);
  if (!cur || el.version > cur[0] || (el.version === cur[0] && el.versionNonce < cur[1])) held[i].set(el.id, [el.version, el.versionNonce]);
};
const digest = async (m) => {
  const lines = [...m.entries()].map(([id, [v, n]]) => `${id}:${v}:${n}\n`).sort().join("");
  const h = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(lines));
  return Buffer.from(h).toString("hex");
};
const strokeLat = [];
const pointerLat = [];
let saved = 0;
let errors = 0;

const join = (i) =>
  new Promise((joined) => {
    held[i] = new Map();
    const socket = io(url, { transports: ["websocket"], reconnection: false, extraHeaders: { Authorization: `Bearer ${token}` } });
    socket.on("init-room", () => socket.emit("join-room", roomId));
    socket.on("dsh-room", () => joined(socket));
    socket.on("dsh-saved", () => saved++);
    socket.on("dsh-error", () => errors++);
    socket.on("client-broadcast", async (data, iv) => {
      const msg = await open(data, iv);
      const at = now();
      if (msg.type === "SCENE_INIT" || msg.type === "SCENE_UPDATE") {
        for (const el of msg.payload.elements) hold(i, el);
      }
      if (msg.type === "SCENE_UPDATE") {
        for (const el of msg.payload.elements) {
          if (el.customData?.by !== undefined && el.customData.by !== i) strokeLat.push(at - el.customData.sentAt);
        }
      } else if (msg.type === "MOUSE_LOCATION" && msg.payload.pointer?.sentAt) {
        pointerLat.push(at - msg.payload.pointer.sentAt);
      }
    });
  });

const sockets = [];
for (let i = 0; i < people; i++) sockets.push(await join(i));

const end = now() + seconds * 1000;
const draw = async (socket, i) => {
  let stroke = 0;
  while (now() < end) {
    const id = `p${i}-s${stroke++}`;
    const points = [[0, 0]];
    for (let k = 0; k < 30 && now() < end; k++) {
      points.push([k * 4, Math.sin(k / 3) * 20]);
      const el = {
        id, type: "freedraw", x: 40 * i, y: 60 * stroke, width: k * 4, height: 40, angle: 0,
        strokeColor: "#1e1e1e", backgroundColor: "transparent", fillStyle: "solid", strokeWidth: 2,
        strokeStyle: "solid", roughness: 1, opacity: 100, groupIds: [], frameId: null,
        index: `aV${String(i).padStart(2, "0")}${String(stroke).padStart(4, "0")}x`,
        roundness: null, seed: 1 + i, version: k + 2, versionNonce: 1000 + k, isDeleted: false,
        boundElements: null, updated: Date.now(), link: null, locked: false,
        points: points.slice(), pressures: [], simulatePressure: true, lastCommittedPoint: null,
        customData: { by: i, sentAt: now() },
      };
      hold(i, el);
      socket.emit("server-broadcast", roomId, ...(await seal({ type: "SCENE_UPDATE", payload: { elements: [el] } })));
      await new Promise((r) => setTimeout(r, 33));
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
};
const point = async (socket, i) => {
  while (now() < end) {
    socket.emit(
      "server-volatile-broadcast",
      roomId,
      ...(await seal({
        type: "MOUSE_LOCATION",
        payload: { socketId: socket.id, pointer: { x: i, y: i, tool: "pointer", sentAt: now() }, button: "up", selectedElementIds: {}, username: "" },
      })),
    );
    await new Promise((r) => setTimeout(r, 33));
  }
};
await Promise.all(sockets.flatMap((s, i) => [draw(s, i), point(s, i)]));
await new Promise((r) => setTimeout(r, Number(process.env.LOAD_SETTLE_MS || 4000))); // the last updates arrive, the last commits are told
const pct = (a, q) => {
  if (!a.length) return null;
  const s = [...a].sort((x, y) => x - y);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 10) / 10;
};
console.log(
  JSON.stringify({
    people,
    seconds,
    strokes: strokeLat.length,
    strokeP50: pct(strokeLat, 0.5),
    strokeP99: pct(strokeLat, 0.99),
    pointers: pointerLat.length,
    pointerP50: pct(pointerLat, 0.5),
    pointerP99: pct(pointerLat, 0.99),
    saved,
    errors,
    digests: await Promise.all(held.map(digest)),
    held: held.map((m) => m.size),
  }),
);
for (const s of sockets) s.close();
setTimeout(() => process.exit(0), 500);
