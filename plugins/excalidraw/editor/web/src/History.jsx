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
// name where known: "agent claude-desktop", "the editor" (the board
// list's words).
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

// isMe: the person the page is signed in as (GET /me) is this entry's
// person, by id where both say it, else by name.
const isMe = (e, me) => {
  if (!me) return false;
  if (e.personId && me.personId) return e.personId === me.personId;
  return !!e.person && e.person === (me.person || me.name);
};

// personWord names an entry's person as the page's reader knows them.
const personWord = (e, me) => (isMe(e, me) ? "you" : e.person);

// ownEntry: the reader made this change themselves, in this tab or in
// another page signed in as them (not an agent acting for them).
export const ownEntry = (e, me) => isOwnRequest(e.requestId) || (e.actor === "ui" && !e.bot && isMe(e, me));

// botWho names a connect token's commit: the token (bot) and the person
// it acts for, "claude for erin" ("claude for you" on erin's page).
export const botWho = (e, me) => (e.person ? `${e.bot} for ${personWord(e, me)}` : `${e.bot} (an agent)`);

// entryWho names the writer of a journal entry as the reader knows them:
// "you" for their own changes; a connect token's, its name and its
// person's; an agent by the name it is known by (and its person's); a
// person in the editor by name. me is GET /me (null while unknown).
export function entryWho(e, me = null) {
  if (ownEntry(e, me)) return "you";
  if (e.bot) return botWho(e, me);
  if (e.actor === "agent") {
    const name = e.name || "an agent";
    return e.person && !name.includes(e.person) ? `${name} for ${personWord(e, me)}` : name;
  }
  if (e.actor === "ui") return e.person || e.name || "someone in the editor";
  if (e.actor === "recovery" || e.actor === "system") return "dsh";
  return who(e.actor, e.name);
}

// clientOf is the name the agent's MCP client gave itself, where it is
// not already the writer's name: a detail.
export function clientOf(e) {
  if (e.client) return e.client;
  if (e.bot && e.name && e.name !== e.bot && !e.name.startsWith(`${e.bot} (`)) return e.name;
  return "";
}

// changedNothing: the entry says it changed nothing (undoing it would
// change nothing either).
export const changedNothing = (e) =>
  e.summary === "nothing changed" ||
  e.summary === "no element changed" ||
  (e.restorable && touchedIds(e).size === 0 && !e.moved?.length && !e.members?.length && !e.more);

// touchedIds are the elements an entry created, changed, deleted or
// brought back.
export const touchedIds = (e) => new Set([...(e.created || []), ...(e.updated || []), ...(e.revived || []), ...(e.deleted || [])]);

// HistoryPanel lists the board's changes, newest first, and reloads its
// first page whenever the board's revision moves past what it shows (the
// editor's revision follows the live stream), so new entries arrive by
// themselves. Clicking an entry calls onSelect (the editor highlights its
// elements); "Undo this change" calls onUndo, which resolves once done.
// It is offered only where it would change something, and only with
// canUndo (not to a viewer). me is who the page is signed in as (GET
// /me), to say "you"; theme is Excalidraw's ("dark" darkens the panel).
export function HistoryPanel({ name, revision, me = null, canUndo = true, theme = "light", onSelect, onUndo, onClose }) {
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
    <aside className={`dsh-history dsh-chrome dsh-theme-${theme === "dark" ? "dark" : "light"}`} aria-label="History" data-testid="history">
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
          const mine = ownEntry(e, me);
          const client = clientOf(e);
          const undoable = e.restorable && canUndo && !later && !changedNothing(e);
          return (
            <li key={e.commit} className={e.commit === selected ? "dsh-entry dsh-entry-selected" : "dsh-entry"} data-commit={e.commit} data-revision={e.revision}>
              <button
                className="dsh-entry-main"
                title={`Revision ${e.revision} · ${new Date(e.at).toLocaleString()}${e.via ? ` · via ${e.via}` : ""}${client ? ` · client ${client}` : ""} · click to show what it changed`}
                onClick={() => {
                  setSelected(e.commit);
                  onSelect(e);
                }}
              >
                <span className="dsh-entry-line">
                  {e.bot && !mine ? (
                    <span className="dsh-entry-who" data-testid="bot">
                      <strong className="dsh-entry-bot">{e.bot}</strong>
                      {e.person && <span className="dsh-entry-person"> for {isMe(e, me) ? "you" : e.person}</span>}
                    </span>
                  ) : (
                    <strong className={mine ? "dsh-entry-who dsh-entry-you" : "dsh-entry-who"} data-testid="who">
                      {entryWho(e, me)}
                    </strong>
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
                  {client ? ` · client ${client}` : ""}
                  {tags.map((t) => (
                    <span key={t} className="dsh-tag">
                      {t}
                    </span>
                  ))}
                </span>
              </button>
              {undoable && (
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
