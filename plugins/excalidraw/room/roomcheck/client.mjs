// An Excalidraw collaboration-room client, written from the protocol (the
// socket.io events and encrypted messages a stock Excalidraw client
// sends and expects), on the socket.io client excalidraw.com uses and
// WebCrypto's AES-GCM. It knows nothing of dsh beyond the room link and
// a bearer token, so a test of dsh's rooms through it checks what a
// stock client would meet.
//
//   node client.mjs <server URL> <room link "#room=<id>,<key>"> [token]
//
// It reports what it receives as JSON lines on stdout ({"ev": ...}) and
// takes commands as JSON lines on stdin ({"do": ...}); see below.
import { io } from "socket.io-client";
import { createInterface } from "node:readline";

const [url, link, token] = process.argv.slice(2);
const m = /^#room=([a-zA-Z0-9_-]+),([a-zA-Z0-9_-]+)$/.exec(link || "");
if (!m) {
  console.error("usage: client.mjs <url> '#room=<id>,<key>' [token]");
  process.exit(2);
}
const [, roomId, roomKey] = m;

const say = (o) => process.stdout.write(JSON.stringify(o) + "\n");

// The room key is the `k` of a 128-bit AES-GCM JSON Web Key.
const keyOf = (k) =>
  crypto.subtle.importKey(
    "jwk",
    { alg: "A128GCM", ext: true, k, key_ops: ["encrypt", "decrypt"], kty: "oct" },
    { name: "AES-GCM", length: 128 },
    false,
    ["encrypt", "decrypt"],
  );
let key = await keyOf(roomKey);

const seal = async (msg) => {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    key,
    new TextEncoder().encode(JSON.stringify(msg)),
  );
  return [data, iv];
};

const open = async (data, iv) => {
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv }, key, data);
  return JSON.parse(new TextDecoder().decode(plain));
};

const socket = io(url, {
  transports: ["websocket", "polling"],
  reconnection: false,
  extraHeaders: token ? { Authorization: `Bearer ${token}` } : {},
});

socket.on("connect", () => say({ ev: "connect", id: socket.id }));
socket.on("connect_error", (e) => say({ ev: "connect_error", message: String(e && e.message) }));
socket.on("disconnect", (why) => say({ ev: "disconnect", why }));
socket.on("init-room", () => {
  say({ ev: "init-room" });
  socket.emit("join-room", roomId);
});
socket.on("first-in-room", () => say({ ev: "first-in-room" }));
socket.on("new-user", (id) => say({ ev: "new-user", id }));
socket.on("room-user-change", (ids) => say({ ev: "room-user-change", ids }));
socket.on("user-follow-room-change", (ids) => say({ ev: "user-follow-room-change", ids }));
socket.on("client-broadcast", async (data, iv) => {
  try {
    const msg = await open(data, iv);
    say({ ev: "message", type: msg.type, payload: msg.payload });
  } catch (e) {
    say({ ev: "undecryptable" });
  }
});
for (const ev of ["dsh-room", "dsh-saved", "dsh-error"]) {
  socket.on(ev, (body) => say({ ev, body }));
}

// Commands:
//   {"do":"update","elements":[...]}        SCENE_UPDATE on server-broadcast
//   {"do":"init","elements":[...]}          SCENE_INIT on server-broadcast
//   {"do":"pointer","x":1,"y":2,"selected":{"id":true},"username":"..."}
//                                           MOUSE_LOCATION, volatile
//   {"do":"bounds","bounds":[x1,y1,x2,y2]}  USER_VISIBLE_SCENE_BOUNDS to follow@<own id>, volatile
//   {"do":"follow","socketId":"...","action":"FOLLOW"|"UNFOLLOW"}
//   {"do":"rekey","key":"..."}              seal with another key from now on
//   {"do":"close"}
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const c = JSON.parse(line);
  switch (c.do) {
    case "update":
    case "init": {
      const type = c.do === "init" ? "SCENE_INIT" : "SCENE_UPDATE";
      socket.emit("server-broadcast", roomId, ...(await seal({ type, payload: { elements: c.elements } })));
      break;
    }
    case "pointer":
      socket.emit(
        "server-volatile-broadcast",
        roomId,
        ...(await seal({
          type: "MOUSE_LOCATION",
          payload: {
            socketId: socket.id,
            pointer: { x: c.x, y: c.y, tool: "pointer" },
            button: "up",
            selectedElementIds: c.selected || {},
            username: c.username || "someone",
          },
        })),
      );
      break;
    case "bounds":
      socket.emit(
        "server-volatile-broadcast",
        `follow@${socket.id}`,
        ...(await seal({
          type: "USER_VISIBLE_SCENE_BOUNDS",
          payload: { socketId: socket.id, username: "someone", sceneBounds: c.bounds },
        })),
      );
      break;
    case "follow":
      socket.emit("user-follow", {
        userToFollow: { socketId: c.socketId, username: "" },
        action: c.action || "FOLLOW",
      });
      break;
    case "rekey":
      key = await keyOf(c.key);
      break;
    case "close":
      // As a tab that closes after its last stroke went out: the process
      // ends once the connection has (engine.io drains its buffer first).
      await new Promise((done) => {
        socket.io.engine.once("close", done);
        socket.close();
        setTimeout(done, 5000);
      });
      process.exit(0);
  }
  say({ ev: "done", do: c.do });
}
socket.close();
