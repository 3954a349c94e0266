import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, isOwnRequest, sceneLog } from "./api.js";

// How many entries a page of the history panel shows.
const PAGE = 20;

// "just now", "5 min ago", "3 h ago", or the date.
export function ago(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

// useNow re-renders every 30 s so "5 min ago" stays true.
export function useNow() {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

// who names a writer from its kind (agent, ui, recovery, system) and its
// name where known: "agent claude-desktop", "the editor".
export function who(actor, name) {
  switch (actor) {
    case "agent":
      return name ? `agent ${name}` : "an agent";
    case "ui":
      return name || "the editor";
    case undefined:
    case "":
      return name || "someone";
    default:
      return name ? `${actor} ${name}` : actor;
  }
}

// botWho names a connect token's commit: the token (bot) and the person
// it acts for, "claude for erin".
export const botWho = (e) => (e.person ? `${e.bot} for ${e.person}` : `${e.bot} (an agent)`);

// entryWho names the writer of a journal entry as this tab sees it: its
// own commits are "this tab"; the editor's others "another editor"; a
// connect token's, its name and its person's.
export const entryWho = (e) =>
  isOwnRequest(e.requestId) ? "this tab" : e.bot ? botWho(e) : e.actor === "ui" && !e.name ? "another editor" : who(e.actor, e.name);

// touchedIds are the elements an entry created, changed, deleted or
// brought back.
export const touchedIds = (e) => new Set([...(e.created || []), ...(e.updated || []), ...(e.revived || []), ...(e.deleted || [])]);

// HistoryPanel lists the scene's commits, newest first, and reloads its
// first page whenever the scene's revision moves past what it shows (the
// editor's revision follows the live stream), so new entries arrive by
// themselves. Clicking an entry calls onSelect (the editor highlights its
// elements); "Undo this change" calls onUndo, which resolves once done.
export function HistoryPanel({ name, revision, onSelect, onUndo, onClose }) {
  const now = useNow();
  const [entries, setEntries] = useState([]);
  const [next, setNext] = useState("");
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState("");
  const [selected, setSelected] = useState("");
  const [undoing, setUndoing] = useState("");
  const entriesRef = useRef(entries);
  entriesRef.current = entries;
  const fetched = useRef(-1);
  const refreshSeq = useRef(0);
  const moreSeq = useRef(0);

  useEffect(() => {
    if (revision <= fetched.current) return;
    fetched.current = revision;
    const mine = ++refreshSeq.current;
    sceneLog(name, { limit: PAGE })
      .then((page) => {
        if (mine !== refreshSeq.current) return;
        const old = entriesRef.current;
        const known = new Set(old.map((e) => e.commit));
        const fresh = page.entries.filter((e) => !known.has(e.commit));
        if (old.length > 0 && fresh.length < page.entries.length) {
          // The page reaches what is shown: only the new ones go on top.
          if (fresh.length) setEntries([...fresh, ...old]);
        } else {
          moreSeq.current++;
          setEntries(page.entries);
          setNext(page.next || "");
        }
        setProblem("");
        setLoading(false);
      })
      .catch((e) => {
        if (mine !== refreshSeq.current) return;
        fetched.current = -1; // the next revision, or reopening, tries again
        setProblem(failureText(e));
        setLoading(false);
      });
  }, [name, revision]);

  const loadMore = useCallback(() => {
    if (!next) return;
    const mine = ++moreSeq.current;
    sceneLog(name, { limit: PAGE, cursor: next })
      .then((page) => {
        if (mine !== moreSeq.current) return;
        const known = new Set(entriesRef.current.map((e) => e.commit));
        setEntries([...entriesRef.current, ...page.entries.filter((e) => !known.has(e.commit))]);
        setNext(page.next || "");
      })
      .catch((e) => mine === moreSeq.current && setProblem(failureText(e)));
  }, [name, next]);

  const undo = async (e) => {
    setUndoing(e.commit);
    try {
      await onUndo(e);
    } finally {
      setUndoing("");
    }
  };

  // What the shown entries say about each other: which commit undid
  // which, and each commit's revision.
  const revisionOf = new Map(entries.map((e) => [e.commit, e.revision]));
  const undoneBy = new Map();
  for (const e of entries) if (e.undoes && !undoneBy.has(e.undoes)) undoneBy.set(e.undoes, e);

  return (
    <aside className="dsh-history" aria-label="History" data-testid="history">
      <header className="dsh-history-head">
        <h2>History</h2>
        <button className="dsh-close" aria-label="Close history" title="Close" onClick={onClose}>
          ×
        </button>
      </header>
      {problem && (
        <p className="dsh-problem" role="alert">
          {problem}
        </p>
      )}
      {loading && !problem && <p className="dsh-history-empty">Loading…</p>}
      {!loading && !problem && entries.length === 0 && <p className="dsh-history-empty">No history yet.</p>}
      <ol className="dsh-entries">
        {entries.map((e) => {
          const tags = [];
          if (e.forced) tags.push("overwrite");
          if (e.undoes) {
            const r = revisionOf.get(e.undoes);
            tags.push(`${e.mode === "restore" ? "restore" : "undo"}${r ? ` of r${r}` : ""}`);
          }
          const later = undoneBy.get(e.commit);
          if (later) tags.push(`undone in r${later.revision}`);
          return (
            <li key={e.commit} className={e.commit === selected ? "dsh-entry dsh-entry-selected" : "dsh-entry"} data-commit={e.commit} data-revision={e.revision}>
              <button
                className="dsh-entry-main"
                title={`${new Date(e.at).toLocaleString()}${e.via ? ` · via ${e.via}` : ""} · click to show its elements`}
                onClick={() => {
                  setSelected(e.commit);
                  onSelect(e);
                }}
              >
                <span className="dsh-entry-line">
                  {e.bot && !isOwnRequest(e.requestId) ? (
                    <span className="dsh-entry-who" data-testid="bot">
                      <strong className="dsh-entry-bot">{e.bot}</strong>
                      {e.person && <span className="dsh-entry-person"> for {e.person}</span>}
                    </span>
                  ) : (
                    <strong className="dsh-entry-who">{entryWho(e)}</strong>
                  )}
                  {" · "}
                  <span className="dsh-entry-summary">{e.summary}</span>
                  {e.note && (
                    <>
                      {" · "}
                      <span className="dsh-entry-note">“{e.note}”</span>
                    </>
                  )}
                </span>
                <span className="dsh-entry-meta">
                  r{e.revision} · {ago(e.at, now)}
                  {e.actor === "agent" && e.via ? ` · ${e.via}` : ""}
                  {e.bot && e.name && e.name !== e.bot ? ` · client ${e.name}` : ""}
                  {tags.map((t) => (
                    <span key={t} className="dsh-tag">
                      {t}
                    </span>
                  ))}
                </span>
              </button>
              {e.restorable && (
                <button className="dsh-entry-undo" data-action="undo" disabled={undoing !== ""} onClick={() => undo(e)}>
                  {undoing === e.commit ? "Undoing…" : "Undo this change"}
                </button>
              )}
            </li>
          );
        })}
      </ol>
      {next && (
        <button className="dsh-more" data-action="more" onClick={loadMore}>
          Load more
        </button>
      )}
    </aside>
  );
}

// failureText says why a history request failed, in words.
export function failureText(e) {
  if (!(e instanceof ApiError)) return "dsh is not reachable (stopped or restarting?).";
  if (e.status === 401) return "Your session ended; log in again.";
  return e.message.endsWith(".") ? e.message : e.message + ".";
}
