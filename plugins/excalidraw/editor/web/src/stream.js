// A server-sent event stream that does not give up. EventSource stops for
// good on any HTTP error (a 404 while the plugin is unloaded, a 401 when
// the session ended) and says nothing about why, so the page reads the
// stream with fetch instead: it knows every status, reconnects with
// backoff after any drop, and reports its state so the status bar can say
// it.
//
//   connecting ─► live ─(drop, 5xx, network)─► reconnecting ─► live …
//                  │      (401) ─► unauthorized (log in again; still retrying)
//                  │      (404, 503) ─► unavailable (plugin unloaded or host restarting; retrying)
//                  │      (browser offline) ─► offline (retries when back online)
//                  └─ close() ─► closed
//
// The server sends the current head (or listing) first on every connect,
// so a reconnected stream catches up by itself; the caller compares it
// with what it has.

// The server sends a heartbeat every 15 s; three missed means the
// connection is dead even if the socket does not say so.
const IDLE_MS = 45_000;
const MAX_DELAY_MS = 15_000;

export function backoff(attempt) {
  const base = Math.min(MAX_DELAY_MS, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

function stateOf(reason) {
  switch (reason) {
    case "unauthorized":
    case "unavailable":
    case "offline":
      return reason;
    default:
      return "reconnecting";
  }
}

// openStream(url, {onEvent(type, data, id), onState(state, info)}) starts
// following url and returns {close, retryNow}. onEvent gets each event's
// type ("message" if none), its data (a string) and id. url may be a
// function, called at every (re)connect (to say what the page has).
export function openStream(url, { onEvent, onState }) {
  let closed = false;
  let ctrl = null;
  let timer = 0;
  let watchdog = 0;
  let attempt = 0;

  const report = (state, info = {}) => {
    if (!closed) onState?.(state, info);
  };

  const arm = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => ctrl?.abort(new Error("stream idle")), IDLE_MS);
  };

  const retry = (reason, status) => {
    if (closed) return;
    attempt++;
    // A stream the server ended on purpose (shutdown, unload) is worth
    // one quick retry; anything else backs off.
    const delay = reason === "ended" && attempt === 1 ? 150 : backoff(attempt);
    report(stateOf(reason), { reason, status, retryInMs: delay });
    clearTimeout(timer);
    timer = setTimeout(connect, delay);
  };

  async function connect() {
    if (closed) return;
    clearTimeout(timer);
    ctrl?.abort();
    const mine = (ctrl = new AbortController());
    report(attempt === 0 ? "connecting" : "reconnecting", { reason: "connecting" });
    let res;
    try {
      res = await fetch(typeof url === "function" ? url() : url, {
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "text/event-stream" },
        signal: mine.signal,
      });
    } catch {
      if (closed || mine !== ctrl) return;
      return retry(navigator.onLine === false ? "offline" : "network");
    }
    if (mine !== ctrl) return;
    if (!res.ok) {
      res.body?.cancel().catch(() => {});
      const reason = res.status === 401 ? "unauthorized" : res.status === 404 || res.status === 503 ? "unavailable" : "server";
      return retry(reason, res.status);
    }
    arm();
    try {
      await read(res.body, mine, (type, data, id) => {
        if (attempt !== 0 || !live) {
          attempt = 0;
          live = true;
          report("live");
        }
        onEvent?.(type, data, id);
      });
    } catch {
      // aborted or the connection broke: retried below
    }
    clearTimeout(watchdog);
    live = false;
    if (!closed && mine === ctrl) retry(navigator.onLine === false ? "offline" : "ended");
  }
  let live = false;

  async function read(body, mine, dispatch) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buf = "";
    let type = "";
    let data = [];
    let id = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done || mine.signal.aborted) return;
      arm();
      buf += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + (buf.startsWith("\r\n", nl) ? 2 : 1));
        if (line === "") {
          if (data.length) dispatch(type || "message", data.join("\n"), id);
          type = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue; // heartbeat
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") type = value;
        else if (field === "data") data.push(value);
        else if (field === "id") id = value;
      }
    }
  }

  const retryNow = () => {
    if (closed || live) return;
    attempt = Math.max(0, attempt - 1);
    connect();
  };
  const onOnline = () => retryNow();
  const onVisible = () => {
    if (document.visibilityState === "visible") retryNow();
  };
  window.addEventListener("online", onOnline);
  document.addEventListener("visibilitychange", onVisible);

  connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(watchdog);
      ctrl?.abort();
      window.removeEventListener("online", onOnline);
      document.removeEventListener("visibilitychange", onVisible);
    },
    retryNow,
  };
}
