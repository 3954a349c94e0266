// A board's live room: Excalidraw's collaboration protocol (socket.io
// events carrying AES-GCM sealed {type, payload} messages) against dsh's
// room server on this origin, which the session cookie admits.
//
// Why the page uses the room (issue 28): it is the one live path that
// people, stock Excalidraw clients and agents share — a stroke reaches the
// others while it is drawn, pointers and selections show who is where —
// and what people draw together is stored by conflict-free element merges
// (dsh commits each person's elements where they are newer), not by
// whole-scene saves fenced on a revision, which two people drawing at once
// would keep turning into conflicts.
//
//   const room = openRoom(info, handlers)   // info: GET …/scenes/:name/room
//   room.sendScene(elements)                // SCENE_UPDATE, kept by dsh
//   room.sendPresence(type, payload, {follow}) // volatile
//   room.follow(payload)                    // user-follow
//   room.close()
//
// handlers (all optional): onState(state) with state one of connecting,
// joined, down, refused; onJoined({board, revision, name, role, id});
// onScene(elements, type); onPresence(type, payload); onUsers(ids);
// onFollowers(ids); onSaved({revision, elements}); onError({code, message}).
// Everything the server sends is handed over in the order it was sent
// (opening a message is asynchronous, so the others wait for it).
import { io } from "socket.io-client";

const keyOf = (k) =>
  crypto.subtle.importKey(
    "jwk",
    { alg: "A128GCM", ext: true, k, key_ops: ["encrypt", "decrypt"], kty: "oct" },
    { name: "AES-GCM", length: 128 },
    false,
    ["encrypt", "decrypt"],
  );

export function openRoom(info, handlers = {}) {
  const key = keyOf(info.roomKey);
  let state = "connecting";
  let closed = false;
  let joinedAs = null;
  const setState = (s) => {
    if (s === state || closed) return;
    state = s;
    handlers.onState?.(s);
  };

  const seal = async (msg) => {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await key, new TextEncoder().encode(JSON.stringify(msg)));
    return [data, iv];
  };
  const open = async (data, iv) => {
    const bytes = data instanceof ArrayBuffer ? data : new Uint8Array(data);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(iv) }, await key, bytes);
    return JSON.parse(new TextDecoder().decode(plain));
  };

  // The inbox keeps the server's order across the asynchronous opening.
  let inbox = Promise.resolve();
  const deliver = (fn) => {
    inbox = inbox.then(fn).catch((e) => console.warn("room:", e));
  };

  const socket = io(location.origin, {
    path: info.path || "/socket.io",
    transports: ["websocket", "polling"],
    withCredentials: true,
  });

  socket.on("connect", () => setState("connecting"));
  socket.on("init-room", () => socket.emit("join-room", info.roomId));
  socket.on("client-broadcast", (data, iv) =>
    deliver(async () => {
      let msg;
      try {
        msg = await open(data, iv);
      } catch {
        return; // not sealed with this board's key
      }
      if (closed || !msg?.type) return;
      if (msg.type === "SCENE_INIT" || msg.type === "SCENE_UPDATE") {
        handlers.onScene?.(msg.payload?.elements || [], msg.type);
      } else {
        handlers.onPresence?.(msg.type, msg.payload || {});
      }
    }),
  );
  socket.on("dsh-room", (body) =>
    deliver(() => {
      joinedAs = { ...body, id: socket.id };
      // Joined first: onJoined sends what the room lacks.
      setState("joined");
      handlers.onJoined?.(joinedAs);
    }),
  );
  socket.on("room-user-change", (ids) => deliver(() => handlers.onUsers?.(ids || [])));
  socket.on("user-follow-room-change", (ids) => deliver(() => handlers.onFollowers?.(ids || [])));
  socket.on("dsh-saved", (body) => deliver(() => handlers.onSaved?.(body || {})));
  socket.on("dsh-error", (body) =>
    deliver(() => {
      handlers.onError?.(body || {});
      // A refusal to join ends the socket: the board is not the
      // person's to see (any more).
      if (state !== "joined" && body?.code !== "permission_denied") setState("refused");
    }),
  );
  socket.on("disconnect", () =>
    deliver(() => {
      joinedAs = null;
      setState("down");
    }),
  );
  socket.on("connect_error", () => deliver(() => setState("down")));
  // The server ended the socket (a refusal): socket.io does not come back
  // by itself then, so the page tries again later.
  let retry = 0;
  socket.on("disconnect", (why) => {
    if (why === "io server disconnect" && !closed) {
      clearTimeout(retry);
      retry = setTimeout(() => !closed && socket.connect(), 5000);
    }
  });

  const joined = () => !closed && state === "joined" && socket.connected;

  return {
    get state() {
      return state;
    },
    get id() {
      return joinedAs?.id || "";
    },
    joined,
    // sendScene sends elements for the others and for dsh to keep; false
    // when the room is not joined (nothing sent: the caller keeps them
    // for the next join, which re-sends what is not acknowledged).
    async sendScene(elements, type = "SCENE_UPDATE") {
      if (!joined()) return false;
      const [data, iv] = await seal({ type, payload: { elements } });
      if (!joined()) return false;
      socket.emit("server-broadcast", info.roomId, data, iv);
      return true;
    },
    // sendPresence sends a pointer, idle state or viewport, volatile:
    // dropped rather than queued when the connection is busy. With follow,
    // to this socket's followers only.
    async sendPresence(type, payload, { follow = false } = {}) {
      if (!joined()) return;
      const id = socket.id;
      const [data, iv] = await seal({ type, payload: { ...payload, socketId: id } });
      if (!joined()) return;
      socket.volatile.emit("server-volatile-broadcast", follow ? `follow@${id}` : info.roomId, data, iv);
    },
    // drop ends the connection as a network failure would; socket.io
    // connects again by itself (a new handshake, with the cookie of now).
    drop() {
      socket.io.engine?.close();
    },
    follow(payload) {
      if (joined()) socket.emit("user-follow", payload);
    },
    close() {
      closed = true;
      clearTimeout(retry);
      socket.close();
    },
  };
}
