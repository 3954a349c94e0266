import { useCallback, useEffect, useId, useRef, useState } from "react";
import { listBoards, restoreBoard, updateBoard, whoAmI } from "./api.js";
import { ago, failureText, useNow } from "./History.jsx";
import { Modal } from "./Modal.jsx";

// The most a title and a description hold (the server's limits too).
export const TITLE_MAX = 120;
export const DESCRIPTION_MAX = 300;

// boardTitle is what a person calls a board: its title, else its name.
export const boardTitle = (name, board) => board?.title?.trim() || name;

// slugFor makes a board's name from its title: lower-case ASCII letters
// and digits, words joined by "-" (the rule store.ValidName checks), with
// a number added when a board already has that name. "My Board!" is
// my-board; a title with no letter or digit to keep is "board".
export function slugFor(title, taken = new Set()) {
  const base =
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+/, "")
      .slice(0, 56)
      .replace(/-+$/, "") || "board";
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  return name;
}

// The strokes of the page's small icons (24×24, drawn with the text's
// colour).
const ICONS = {
  boards: "M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z",
  collapse: "M11 6l-6 6 6 6M19 6l-6 6 6 6",
  close: "M6 6l12 12M18 6L6 18",
  share: "M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM3 20c0-3.3 2.7-6 6-6s6 2.7 6 6M18 8v6M15 11h6",
  rename: "M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4",
  delete: "M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3",
};

// Icon is one of ICONS, for a button that names itself (aria-label).
export function Icon({ name }) {
  return (
    <svg className="dsh-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d={ICONS[name]} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

// useBoards follows what the list stream does not carry: each board's
// title, description and the caller's role (GET /boards), and the caller's
// trash (GET /boards?trash=1). It reads them again when the set of scene
// names changes (a board created, trashed or restored anywhere), when the
// tab comes back into view, and when refresh is called (after this page
// renamed, trashed or restored one).
//
// boards is a Map name → board, or null while unknown (not loaded yet, or
// a host without the route); trash the trashed boards, or null likewise.
export function useBoards(namesKey) {
  const [boards, setBoards] = useState(null);
  const [trash, setTrash] = useState(null);
  const [problem, setProblem] = useState("");
  const seq = useRef(0);
  const refresh = useCallback(async () => {
    const mine = ++seq.current;
    const [b, t] = await Promise.allSettled([listBoards(), listBoards({ trash: true })]);
    if (mine !== seq.current) return;
    if (b.status === "fulfilled") {
      setBoards(new Map(b.value.map((row) => [row.name, row])));
      setProblem("");
    } else {
      setProblem(failureText(b.reason));
    }
    if (t.status === "fulfilled") setTrash(t.value);
  }, []);
  useEffect(() => {
    refresh();
  }, [namesKey, refresh]);
  useEffect(() => {
    const onVisible = () => document.visibilityState === "visible" && refresh();
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [refresh]);
  return { boards, trash, problem, refresh };
}

// useMe is who is signed in (GET /me), or null until known.
export function useMe() {
  const [me, setMe] = useState(null);
  useEffect(() => {
    let gone = false;
    whoAmI()
      .then((m) => !gone && setMe(m))
      .catch(() => {}); // unobtrusive: nothing shown
    return () => {
      gone = true;
    };
  }, []);
  return me;
}

// SignedIn says who the page acts for, at the foot of the sidebar.
export function SignedIn({ me }) {
  if (!me?.name) return null;
  const what = { person: "", bot: " (a connect token)", host: " (host token)", local: " (this machine)" }[me.kind] ?? "";
  const roles = [me.hostOwner && "host owner", me.admin && !me.hostOwner && "admin"].filter(Boolean).join(", ");
  return (
    <p className="dsh-signed-in" data-testid="signed-in" title={roles ? `${me.name}: ${roles}` : me.name}>
      Signed in as <strong>{me.name}</strong>
      {what}
    </p>
  );
}

// BoardActions are an owner's Share, Rename and Delete on a list row:
// small buttons beside its title, always shown (a touch screen has no
// hover), never over its picture.
export function BoardActions({ name, title, onShare, onRename, onDelete }) {
  return (
    <span className="dsh-board-actions">
      <button type="button" className="dsh-icon-btn" data-action="share" aria-label={`Share ${title}`} title="Share with people on this host" onClick={onShare}>
        <Icon name="share" />
      </button>
      <button type="button" className="dsh-icon-btn" data-action="rename" aria-label={`Rename ${title}`} title="Rename, describe" onClick={onRename}>
        <Icon name="rename" />
      </button>
      <button
        type="button"
        className="dsh-icon-btn"
        data-action="delete"
        aria-label={`Delete ${title}`}
        title="Move to the trash"
        onClick={onDelete}
        data-board={name}
      >
        <Icon name="delete" />
      </button>
    </span>
  );
}

// RenameDialog edits a board's title and description.
export function RenameDialog({ name, board, onDone, onClose }) {
  const id = useId();
  const [title, setTitle] = useState(board?.title || name);
  const [description, setDescription] = useState(board?.description || "");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const save = async (e) => {
    e.preventDefault();
    setBusy(true);
    setProblem("");
    try {
      await updateBoard(name, { title: title.trim(), description: description.trim() });
      await onDone();
      onClose();
    } catch (err) {
      setProblem(failureText(err));
      setBusy(false);
    }
  };
  return (
    <Modal labelledBy={`${id}-h`} className="dsh-rename" onClose={onClose} testId="rename-dialog">
      <form onSubmit={save}>
        <header className="dsh-dialog-head">
          <h2 id={`${id}-h`}>Rename “{boardTitle(name, board)}”</h2>
          <button type="button" className="dsh-close" aria-label="Close" title="Close (Esc)" onClick={onClose}>
            ×
          </button>
        </header>
        <p className="dsh-dialog-about">
          The title and description are what people see; agents and links still use its name, <code>{name}</code>.
        </p>
        <label className="dsh-field">
          <span>Title</span>
          <input data-autofocus name="title" value={title} maxLength={TITLE_MAX} placeholder={name} onChange={(e) => setTitle(e.target.value)} />
          <small className="dsh-count">
            {title.length}/{TITLE_MAX}
          </small>
        </label>
        <label className="dsh-field">
          <span>Description</span>
          <textarea name="description" rows={3} value={description} maxLength={DESCRIPTION_MAX} onChange={(e) => setDescription(e.target.value)} />
          <small className="dsh-count">
            {description.length}/{DESCRIPTION_MAX}
          </small>
        </label>
        {problem && (
          <p className="dsh-problem" role="alert">
            Could not save: {problem}
          </p>
        )}
        <div className="dsh-dialog-actions">
          <button type="submit" className="dsh-primary" data-action="save-title" disabled={busy}>
            {busy ? "Saving…" : "Save"}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

// DeleteDialog asks before a board goes to the trash.
export function DeleteDialog({ name, board, onDelete, onClose }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const title = boardTitle(name, board);
  const go = async () => {
    setBusy(true);
    setProblem("");
    try {
      await onDelete();
      onClose();
    } catch (err) {
      setProblem(failureText(err));
      setBusy(false);
    }
  };
  return (
    <Modal labelledBy={`${id}-h`} describedBy={`${id}-d`} className="dsh-delete" onClose={onClose} testId="delete-dialog">
      <h2 id={`${id}-h`}>Move “{title}” to the trash?</h2>
      <p id={`${id}-d`}>
        It leaves the board list for everyone it is shared with. You can restore it from <strong>Trash</strong>, with its drawing and history.
      </p>
      {problem && (
        <p className="dsh-problem" role="alert">
          Could not delete it: {problem}
        </p>
      )}
      <div className="dsh-dialog-actions">
        <button type="button" className="dsh-danger" data-action="confirm-delete" disabled={busy} onClick={go}>
          {busy ? "Moving…" : "Move to trash"}
        </button>
        <button type="button" data-autofocus onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

// TrashView lists the caller's trashed boards, each with Restore.
export function TrashView({ trash, onRestored }) {
  const now = useNow();
  const [busy, setBusy] = useState("");
  const [problem, setProblem] = useState("");
  const [restored, setRestored] = useState("");
  const restore = async (b) => {
    setBusy(b.name);
    setProblem("");
    setRestored("");
    try {
      await restoreBoard(b.name);
      await onRestored(b.name);
      setRestored(boardTitle(b.name, b));
    } catch (e) {
      setProblem(`Could not restore “${boardTitle(b.name, b)}”: ${failureText(e)}`);
    } finally {
      setBusy("");
    }
  };
  const when = (b) => b.trashedAt || b.deletedAt || "";
  return (
    <div className="dsh-trash" data-testid="trash">
      {problem && (
        <p className="dsh-problem" role="alert">
          {problem}
        </p>
      )}
      <p role="status" className="dsh-restored">
        {restored && `“${restored}” is back in your boards.`}
      </p>
      {trash === null && <p className="dsh-muted">Loading…</p>}
      {trash?.length === 0 && <p className="dsh-muted">The trash is empty.</p>}
      <ul className="dsh-trash-list">
        {(trash || []).map((b) => (
          <li key={b.name} data-trashed={b.name}>
            <span className="dsh-scene-name">{boardTitle(b.name, b)}</span>
            {boardTitle(b.name, b) !== b.name && <span className="dsh-scene-slug">{b.name}</span>}
            {b.description && <span className="dsh-scene-desc">{b.description}</span>}
            {when(b) && <span className="dsh-scene-meta">deleted {ago(when(b), now)}</span>}
            <button type="button" data-action="restore" aria-label={`Restore ${boardTitle(b.name, b)}`} disabled={busy !== ""} onClick={() => restore(b)}>
              {busy === b.name ? "Restoring…" : "Restore"}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
