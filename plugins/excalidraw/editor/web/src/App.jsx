import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError, createScene, describe, listEventsURL, trashBoard, updateBoard } from "./api.js";
import { BoardActions, DeleteDialog, Icon, RenameDialog, SignedIn, TrashView, boardTitle, slugFor, useBoards, useMe } from "./Boards.jsx";
import { LINK_TEXT, LoginHint, SceneEditor } from "./SceneEditor.jsx";

// What the board list says when its live updates are not flowing.
const LIST_TEXT = {
  reconnecting: "Reconnecting… the list may be out of date",
  offline: "Offline: the list may be out of date",
  off: "The list is not following changes",
};
import { ago, failureText, useNow, who } from "./History.jsx";
import { ShareDialog } from "./Share.jsx";
import { openStream } from "./stream.js";
import { Thumbnail } from "./Thumbnail.jsx";

// The scene named in the URL (#name), so a link opens a scene.
const sceneFromHash = () => decodeURIComponent(location.hash.replace(/^#\/?/, ""));

// useSceneList follows the plugin's list stream: the whole listing on
// every (re)connect, then each commit to any scene as it happens, so a
// scene an agent creates appears, and revision badges move, without a
// refresh.
function useSceneList() {
  const [scenes, setScenes] = useState([]);
  const [link, setLink] = useState({ state: "connecting" });
  useEffect(() => {
    const stream = openStream(listEventsURL(), {
      onEvent: (type, data) => {
        let msg;
        try {
          msg = JSON.parse(data);
        } catch {
          return;
        }
        if (type === "scenes") {
          setScenes(msg.scenes || []);
        } else if (type === "revision") {
          setScenes((rows) => {
            const row = {
              name: msg.name,
              revision: msg.revision,
              sha256: msg.sha256,
              elementCount: msg.elementCount,
              updatedBy: msg.updatedBy,
              updatedByName: msg.updatedByName,
              updatedAt: msg.at,
              valid: true,
            };
            const i = rows.findIndex((r) => r.name === msg.name);
            if (i < 0) return [...rows, row].sort((a, b) => (a.name < b.name ? -1 : 1));
            if (rows[i].revision >= msg.revision) return rows;
            const next = rows.slice();
            next[i] = { ...rows[i], ...row };
            return next;
          });
        }
      },
      onState: (state, info) => setLink({ state, ...info }),
    });
    return () => stream.close();
  }, []);
  return { scenes, link };
}

// Below this width the board list is a drawer over the board.
const NARROW = "(max-width: 700px)";

// useMedia is whether a media query matches, following it.
function useMedia(query) {
  const [on, setOn] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const hear = () => setOn(mq.matches);
    mq.addEventListener("change", hear);
    hear();
    return () => mq.removeEventListener("change", hear);
  }, [query]);
  return on;
}

// remembered reads and keep writes a setting of this browser's; where
// storage is refused the page just forgets.
const remembered = (key) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};
const keep = (key, value) => {
  try {
    localStorage.setItem(key, value);
  } catch {
    // private mode or full: nothing to do
  }
};

export function App() {
  const { scenes, link } = useSceneList();
  const namesKey = scenes.map((s) => s.name).join("\n");
  const { boards, trash, refresh: refreshBoards } = useBoards(namesKey);
  const me = useMe();
  const [view, setView] = useState("boards"); // boards | trash
  const [renaming, setRenaming] = useState("");
  const [deleting, setDeleting] = useState("");
  const [sharing, setSharing] = useState("");
  const [current, setCurrent] = useState(sceneFromHash());
  const [newTitle, setNewTitle] = useState("");
  const [creating, setCreating] = useState(false);
  const [problem, setProblem] = useState(null);
  const [switching, setSwitching] = useState("");
  const editor = useRef(null);
  // Excalidraw's theme, as the open editor last reported it (and this
  // browser remembers): the page's chrome and the list's thumbnails are
  // drawn in it, and the next board opens in it. Before any, the system's.
  const [theme, setTheme] = useState(() => remembered("dsh.theme"));
  const onTheme = useCallback((t) => {
    setTheme(t);
    keep("dsh.theme", t);
  }, []);
  const prefersDark = useMedia("(prefers-color-scheme: dark)");
  const dark = theme ? theme === "dark" : prefersDark;
  useEffect(() => {
    document.documentElement.classList.toggle("dsh-dark", dark);
  }, [dark]);

  // The board list: a sidebar a person may collapse (remembered), or,
  // on a narrow screen, a drawer over the board, closed once one is open.
  const narrow = useMedia(NARROW);
  const [collapsed, setCollapsed] = useState(() => remembered("dsh.sidebar") === "collapsed");
  const [drawer, setDrawer] = useState(() => !sceneFromHash());
  const listOpen = narrow ? drawer || !current : !collapsed;
  const sidebar = useRef(null);
  const opener = useRef(null);
  const showList = () => {
    if (narrow) setDrawer(true);
    else (setCollapsed(false), keep("dsh.sidebar", "open"));
    // Into the list, once it is shown.
    requestAnimationFrame(() => sidebar.current?.querySelector("[data-action='hide-boards']")?.focus());
  };
  const hideList = () => {
    if (narrow) setDrawer(false);
    else (setCollapsed(true), keep("dsh.sidebar", "collapsed"));
    requestAnimationFrame(() => opener.current?.focus());
  };
  const now = useNow();
  const currentRef = useRef(current);
  currentRef.current = current;

  // switchTo opens another scene, but only once the open one's pending
  // edits are on disk. When they cannot be saved (a conflict to resolve, a
  // limit, the host away), the person decides: stay and resolve it, or
  // leave knowing those edits are dropped.
  const target = useRef("");
  const switchTo = useCallback(async (name) => {
    const from = currentRef.current;
    if (name === from || name === target.current) return;
    target.current = name;
    try {
      await switchNow(from, name);
    } finally {
      target.current = "";
    }
  }, []);
  const switchNow = async (from, name) => {
    const ed = editor.current;
    if (ed && from) {
      setSwitching(name);
      const saved = await ed.flush();
      setSwitching("");
      if (!saved) {
        const why = ed.failure()?.text || "it has a conflict to resolve first";
        const leave = window.confirm(`Your latest changes to "${from}" are not saved: ${why}\n\nOpen "${name}" anyway and drop them?`);
        if (!leave) {
          history.replaceState(null, "", "#" + encodeURIComponent(from));
          return;
        }
      }
    }
    if (sceneFromHash() !== name) history.pushState(null, "", "#" + encodeURIComponent(name));
    setCurrent(name);
  };

  useEffect(() => {
    // Back/forward or an edited URL: the hash has already changed, so
    // switchTo puts it back if the person stays.
    const onHash = () => switchTo(sceneFromHash());
    window.addEventListener("hashchange", onHash);
    window.addEventListener("popstate", onHash);
    return () => {
      window.removeEventListener("hashchange", onHash);
      window.removeEventListener("popstate", onHash);
    };
  }, [switchTo]);

  // A board opened (from the list, a link, created): the drawer gets out
  // of the way, and the keyboard goes to the canvas, so a shortcut (r, a
  // rectangle) works at once. Excalidraw hears keys on its container.
  useEffect(() => {
    if (!current) return undefined;
    setDrawer(false);
    let frame = 0;
    const settle = () => {
      const box = document.querySelector(".dsh-main .excalidraw");
      if (!box || window.dshEditor?.name !== current) {
        frame = requestAnimationFrame(settle);
        return;
      }
      // Unless the person has since put the focus somewhere of their own
      // (a dialog, a field in the editor).
      const at = document.activeElement;
      if (!at || at === document.body || sidebar.current?.contains(at) || at.closest?.(".dsh-rail")) box.focus({ preventScroll: true });
    };
    settle();
    return () => cancelAnimationFrame(frame);
  }, [current]);

  // The list: the stream's scenes with their boards' titles, less what is
  // in the trash (the stream may not know yet), plus boards the stream has
  // not brought yet (one just restored).
  const trashed = new Set((trash || []).map((b) => b.name));
  const rows = scenes.filter((s) => !trashed.has(s.name)).map((s) => ({ ...s, board: boards?.get(s.name) }));
  if (boards) {
    const listed = new Set(scenes.map((s) => s.name));
    for (const b of boards.values()) {
      if (listed.has(b.name) || trashed.has(b.name)) continue;
      rows.push({ name: b.name, revision: b.revision, updatedAt: b.updatedAt, elementCount: b.elementCount ?? 1, valid: true, board: b });
    }
    rows.sort((a, b) => (a.name < b.name ? -1 : 1));
  }
  const currentBoard = boards?.get(current);
  const currentTitle = current ? boardTitle(current, currentBoard) : "";
  useEffect(() => {
    document.title = current ? `${currentTitle} · dsh` : "Boards · dsh";
  }, [current, currentTitle]);

  // deleteBoard saves what the open board has pending, moves it to the
  // trash, and closes it.
  const deleteBoard = async (name) => {
    if (currentRef.current === name && editor.current) await editor.current.flush();
    await trashBoard(name);
    if (currentRef.current === name) {
      history.pushState(null, "", location.pathname + location.search);
      setCurrent("");
    }
    await refreshBoards();
  };

  // A new board is asked for by its title; its name (what links and
  // agents use) is made from it, and shown as it is typed.
  const taken = new Set([...rows.map((r) => r.name), ...(trash || []).map((b) => b.name)]);
  const newSlug = newTitle.trim() ? slugFor(newTitle, taken) : "";
  const create = async (e) => {
    e.preventDefault();
    const title = newTitle.trim();
    if (!title || creating) return;
    const name = slugFor(title, taken);
    setCreating(true);
    try {
      await createScene(name);
      setNewTitle("");
      setProblem(null);
      if (title !== name) {
        try {
          await updateBoard(name, { title });
        } catch (err) {
          setProblem({ text: `“${name}” is made, but its title was not saved: ${failureText(err)}` });
        }
      }
      switchTo(name);
      refreshBoards();
    } catch (err) {
      setProblem(err instanceof ApiError && err.code === "invalid_name" ? { text: err.message } : describe(err));
    } finally {
      setCreating(false);
    }
  };

  return (
    <div
      className={["dsh-layout", dark && "dsh-dark", listOpen ? "dsh-list-open" : "dsh-list-closed", !current && "dsh-no-board"].filter(Boolean).join(" ")}
      onKeyDown={(e) => e.key === "Escape" && narrow && current && drawer && sidebar.current?.contains(e.target) && hideList()}
    >
      {!listOpen && (
        <div className="dsh-rail">
          <button
            type="button"
            ref={opener}
            className="dsh-icon-btn"
            data-action="show-boards"
            aria-controls="dsh-boards"
            aria-expanded="false"
            aria-label="Show boards"
            title="Show boards"
            onClick={showList}
          >
            <Icon name="boards" />
          </button>
          {current && (
            <span className="dsh-rail-title" title={currentTitle}>
              {currentTitle}
            </span>
          )}
        </div>
      )}
      {narrow && listOpen && current && <div className="dsh-scrim" onClick={hideList} aria-hidden="true" />}
      <aside className="dsh-sidebar" id="dsh-boards" ref={sidebar} aria-label="Boards" hidden={!listOpen}>
        <div className="dsh-sidebar-head">
          <h1>{view === "trash" ? "Trash" : "Boards"}</h1>
          <span className="dsh-spacer" />
          {view === "trash" ? (
            <button type="button" className="dsh-view" data-action="boards" onClick={() => setView("boards")}>
              ← Boards
            </button>
          ) : (
            (trash || boards) && (
              <button type="button" className="dsh-view" data-action="trash" onClick={() => (refreshBoards(), setView("trash"))}>
                Trash{trash?.length ? ` (${trash.length})` : ""}
              </button>
            )
          )}
          {(current || !narrow) && (
            <button
              type="button"
              className="dsh-icon-btn"
              data-action="hide-boards"
              aria-controls="dsh-boards"
              aria-expanded="true"
              aria-label="Hide boards"
              title="Hide boards"
              onClick={hideList}
            >
              <Icon name={narrow ? "close" : "collapse"} />
            </button>
          )}
        </div>
        {view === "trash" && <TrashView trash={trash} onRestored={refreshBoards} />}
        <form onSubmit={create} className="dsh-create" hidden={view === "trash"}>
          <span className="dsh-create-row">
            <input
              aria-label="New board title"
              placeholder="New board title"
              value={newTitle}
              maxLength={120}
              aria-describedby="dsh-create-slug"
              onChange={(e) => (setNewTitle(e.target.value), setProblem(null))}
            />
            <button type="submit" className="dsh-primary" disabled={creating}>
              Create
            </button>
          </span>
          <small id="dsh-create-slug" className="dsh-create-slug" data-testid="slug">
            {newSlug && (
              <>
                saved as <code>{newSlug}</code>
              </>
            )}
          </small>
        </form>
        {problem && (
          <p className="dsh-problem" role="alert">
            {problem.text}
          </p>
        )}
        {link.state === "unauthorized" && (
          <div className="dsh-problem" role="alert">
            <p>Your session ended.</p>
            {/* With a scene open, its banner says how to get back in. */}
            {!current && <LoginHint />}
          </div>
        )}
        <ul className="dsh-scenes" hidden={view === "trash"}>
          {rows.map((s) => (
            <li key={s.name} className="dsh-board" data-board={s.name}>
              <button
                className={s.name === current ? "dsh-scene dsh-active" : "dsh-scene"}
                onClick={() => (s.name === current ? narrow && hideList() : switchTo(s.name))}
                aria-current={s.name === current ? "page" : undefined}
                title={s.valid === false ? s.problem || "this file cannot be read" : `${s.elementCount} ${s.elementCount === 1 ? "element" : "elements"}`}
                data-scene={s.name}
              >
                <Thumbnail scene={s} dark={dark} />
                <span className={s.board?.role === "owner" ? "dsh-scene-line dsh-has-actions" : "dsh-scene-line"}>
                  <span className="dsh-scene-name">{boardTitle(s.name, s.board)}</span>
                  <span className="dsh-rev" data-testid="rev">
                    {s.valid === false ? "invalid" : `r${s.revision}`}
                  </span>
                </span>
                {boardTitle(s.name, s.board) !== s.name && <span className="dsh-scene-slug">{s.name}</span>}
                {s.board?.description && (
                  <span className="dsh-scene-desc" data-testid="description" title={s.board.description}>
                    {s.board.description}
                  </span>
                )}
                {s.updatedAt && (
                  <span className="dsh-scene-meta" data-testid="meta">
                    changed {ago(s.updatedAt, now)}
                    {s.updatedBy ? ` by ${who(s.updatedBy, s.updatedByName)}` : ""}
                  </span>
                )}
                {switching === s.name && <span className="dsh-scene-meta">saving, then opening…</span>}
              </button>
              {s.board?.role === "owner" && (
                <BoardActions
                  name={s.name}
                  title={boardTitle(s.name, s.board)}
                  onShare={() => setSharing(s.name)}
                  onRename={() => setRenaming(s.name)}
                  onDelete={() => setDeleting(s.name)}
                />
              )}
            </li>
          ))}
        </ul>
        {link.state !== "live" && link.state !== "connecting" && link.state !== "unauthorized" && (
          <p className="dsh-list-link" data-testid="list-link">
            {LIST_TEXT[link.state] || LINK_TEXT[link.state] || link.state}
          </p>
        )}
        <SignedIn me={me} />
      </aside>
      {renaming && <RenameDialog name={renaming} board={boards?.get(renaming)} onDone={refreshBoards} onClose={() => setRenaming("")} />}
      {sharing && <ShareDialog name={sharing} board={boards?.get(sharing)} me={me} onClose={() => setSharing("")} />}
      {deleting && <DeleteDialog name={deleting} board={boards?.get(deleting)} onDelete={() => deleteBoard(deleting)} onClose={() => setDeleting("")} />}
      <main className="dsh-main">
        {current ? (
          <SceneEditor
            key={current}
            ref={editor}
            name={current}
            title={boardTitle(current, currentBoard)}
            role={currentBoard?.role}
            theme={theme}
            onTheme={onTheme}
            onBoards={showList}
            onShare={() => setSharing(current)}
          />
        ) : (
          <div className="dsh-empty dsh-pick">Pick a board or create one.</div>
        )}
      </main>
    </div>
  );
}
