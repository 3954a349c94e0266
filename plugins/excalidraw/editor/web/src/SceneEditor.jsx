import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from "react";
import {
  CaptureUpdateAction,
  Excalidraw,
  FONT_FAMILY,
  MainMenu,
  convertToExcalidrawElements,
  getVisibleSceneBounds,
  hashElementsVersion,
  reconcileElements,
  restoreElements,
  zoomToFitBounds,
} from "@excalidraw/excalidraw";
import {
  ApiError,
  closedBoard,
  describe,
  isOwnRequest,
  loginCommand,
  mergeScene,
  openedBoard,
  pluginAvailable,
  readScene,
  report,
  reportError,
  revertCommit,
  roomError,
  roomInfo,
  saveScene,
  sceneEventsURL,
  sceneLog,
  requestId,
  whoAmI,
} from "./api.js";
import { HistoryPanel, ago, entryWho, failureText, touchedIds, useNow } from "./History.jsx";
import { ConnectDialog } from "./Connect.jsx";
import { ShareDialog } from "./Share.jsx";
import "./chrome.css";
import { backoff, openStream } from "./stream.js";
import { openRoom } from "./room.js";

// How long the page waits after the last change before saving by itself.
const AUTOSAVE_MS = 800;

// How often, at most, the page tells the room where the pointer is.
const POINTER_MS = 33;

// What the room does not carry: the stored appState subset (and the
// files, which the page tracks by id).
const appStateSignature = (api) => JSON.stringify(storedAppState(api.getAppState()));

// syncable is what Excalidraw's collaboration sends of an element: a
// deletion, or one large enough to see (a shape just started is not).
const syncable = (el) => {
  if (el.isDeleted) return true;
  if (el.type === "line" || el.type === "arrow" || el.type === "freedraw") return (el.points?.length || 0) >= 2;
  return el.width !== 0 || el.height !== 0;
};

// mayEdit: the room keeps what this role draws.
const mayEdit = (role) => role === "owner" || role === "editor";

// The scene-level appState the store keeps (the rest is per-viewer).
const storedAppState = (a) => ({
  viewBackgroundColor: a.viewBackgroundColor,
  gridSize: a.gridSize ?? null,
  gridModeEnabled: !!a.gridModeEnabled,
});

// What the status bar says about the live stream.
export const LINK_TEXT = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  offline: "offline",
  unauthorized: "log in again",
  unavailable: "dsh is restarting; reconnecting…",
  off: "not following live changes",
};

// What the status bar says about the live room.
export const ROOM_TEXT = {
  off: "",
  connecting: "joining…",
  joined: "",
  down: "live drawing unavailable",
  refused: "live drawing not allowed",
};

// The main menu's icons for dsh's items, drawn like Excalidraw's own
// (a 20-unit box, round strokes in the text colour).
const menuIcon = (d) => (
  <svg viewBox="0 0 20 20" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="1.25" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    {d}
  </svg>
);
const MENU_ICONS = {
  boards: menuIcon(
    <>
      <rect x="3" y="3" width="6" height="6" rx="1.5" />
      <rect x="11" y="3" width="6" height="6" rx="1.5" />
      <rect x="3" y="11" width="6" height="6" rx="1.5" />
      <rect x="11" y="11" width="6" height="6" rx="1.5" />
    </>,
  ),
  history: menuIcon(
    <>
      <circle cx="10" cy="10" r="7" />
      <path d="M10 6v4l2.5 2" />
    </>,
  ),
  connect: menuIcon(
    <>
      <path d="M7 3v4M13 3v4" />
      <path d="M5 7h10v2a5 5 0 0 1-10 0z" />
      <path d="M10 14v3" />
    </>,
  ),
  share: menuIcon(
    <>
      <circle cx="8" cy="7" r="3" />
      <path d="M2.5 17a5.5 5.5 0 0 1 11 0" />
      <path d="M15.5 6v5M13 8.5h5" />
    </>,
  ),
};

// What the status bar says about the person's work: the words for a
// save's status, and for a failure of the kind describe() gives.
const KEPT = "your changes are kept here";
export function stateWords(status, failure, link) {
  switch (status) {
    case "saving":
      return "Saving…";
    case "unsaved":
      return link === "offline" ? `Offline — ${KEPT}` : "Unsaved changes";
    case "conflict":
      return "Someone else changed this board";
    case "failed":
      switch (failure?.kind) {
        case "offline":
        case "network":
          return `Offline — ${KEPT}`;
        case "unavailable":
          return `dsh is restarting — ${KEPT}`;
        case "unauthorized":
          return "Not saved — log in again";
        case "busy":
          return "Waiting to save…";
        default:
          return "Not saved";
      }
    default:
      return "Saved";
  }
}

// SceneEditor is one open scene: the real Excalidraw, saved with the
// revision it was based on, and kept up to date with other writers.
//
// Its sync state lives in refs because Excalidraw's onChange fires on
// every pointer move; only what the status bar shows is React state.
//
//   base       the revision (and sha256) the canvas is known to contain
//   savedSig   the canvas signature at the last save or merge: the canvas
//              is dirty while its signature differs
//   inFlight   the running save, if any
//   status     saved | unsaved | saving | conflict | failed
//
// No edit is dropped without the person being told: a pending save is
// flushed before the scene is switched (flush, called by the scene list),
// when the tab is hidden, and as the page goes away (a keepalive request);
// while anything is unsaved or in flight, closing the tab asks first. A
// save that fails for a reason that can pass (offline, the plugin
// unloaded, the session ended) is retried with backoff, and the canvas
// keeps the edits meanwhile.
//
// theme is the Excalidraw theme to open in (the one the person used on the
// previous scene; null: the scene's own, or Excalidraw's default), and
// onTheme hears the theme whenever it changes.
//
// title is the board's title (its name when it has none) and role the
// person's role on it (owner, editor, viewer; undefined while unknown),
// for the "Connect an agent" dialog.
//
// onBoards and onShare, where given, are what the main menu's "Boards" and
// "Share" do (without them: Boards loads the board list, and Share opens
// the share dialog here).
export const SceneEditor = forwardRef(function SceneEditor({ name, title, role, onHead, theme = null, onTheme, onBoards, onShare }, ref) {
  const [initial, setInitial] = useState(null);
  const [loadError, setLoadError] = useState(null);
  const [status, setStatus] = useState("saved");
  const [failure, setFailure] = useState(null); // describe() of the last failed save
  const [link, setLink] = useState({ state: "connecting" });
  const [head, setHead] = useState({ revision: 0, sha256: "" });
  const [conflict, setConflict] = useState(null);
  const [follow, setFollow] = useState(true);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [connectOpen, setConnectOpen] = useState(false);
  const [notice, setNotice] = useState(null); // {kind: info | warn | error, text}
  const [overwrite, setOverwrite] = useState(null); // the journal entry of another writer's forced save
  const [restoring, setRestoring] = useState(false);
  // The status bar's chrome: who the page is signed in as (GET /me, to
  // name "you"), the last change someone else made ({revision, at, who}),
  // whether its folded details are open (a narrow screen), Excalidraw's
  // theme, and the share dialog opened from the main menu.
  const [whoami, setWhoami] = useState(null);
  const [lastChange, setLastChange] = useState(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [themeName, setThemeName] = useState(theme || "light");
  const [shareOpen, setShareOpen] = useState(false);
  const now = useNow();

  const apiRef = useRef(null);
  const base = useRef({ revision: 0, sha256: "" });
  const savedSig = useRef("");
  const inFlight = useRef(null);
  const saveAgain = useRef(false);
  const mergeRef = useRef(null); // mergeFromDisk, for save (defined before it)
  const inConflict = useRef(false);
  const timer = useRef(0);
  const retryTimer = useRef(0);
  const retries = useRef(0);
  const failing = useRef(null);
  const merging = useRef(Promise.resolve());
  const source = useRef("");
  // The revision up to which the journal was looked at for overwrites,
  // and the revisions this tab wrote (no need to look at those).
  const checked = useRef(0);
  const ownRevisions = useRef(new Set());
  const openTheme = useRef(theme);
  const themeSeen = useRef("");
  const onThemeRef = useRef(onTheme);
  onThemeRef.current = onTheme;

  // The live room (room.js). While the page is in it and may edit
  // (roomSaving), what the person draws is sent there and dsh keeps it:
  // the fenced PUT is not used. Out of it (it cannot be reached, the
  // socket is down, "follow live changes" is off) the PUT path saves.
  //
  //   sent      element id → the version sent to the room or received
  //             from it: an element whose version rose is sent
  //   unacked   element id → the version sent that dsh has not yet
  //             acknowledged (dsh-saved); re-sent on the next join
  //   metaSaved the appState and files' signature last stored (merge)
  const [ready, setReady] = useState(false);
  const [roomState, setRoomState] = useState("off"); // off | connecting | joined | down | refused
  const [here, setHere] = useState(0); // how many are in the room (agents at work too)
  const roomRef = useRef(null);
  const inRoom = useRef(false);
  const roomSaving = useRef(false);
  const me = useRef({ id: "", name: "", role: "" });
  const sent = useRef(new Map());
  const unacked = useRef(new Map());
  const metaSaved = useRef("");
  const metaTimer = useRef(0);
  const metaInFlight = useRef(null);
  const filesSent = useRef(new Set());
  const ackWaiters = useRef([]);
  const roomFns = useRef({}); // roomSave, updateRoomStatus: used before they are defined
  const collaborators = useRef(new Map());
  const pointer = useRef(null); // {pointer, button}: the last one
  const pointerSentAt = useRef(0);
  const pointerTimer = useRef(0);
  const selectionSeen = useRef("");
  const boundsTimer = useRef(0);
  const reportRevision = useRef(0); // a room commit whose sha256 the stream brings
  const headCount = useRef(undefined); // the element count of the head the stream last brought

  const signature = useCallback(() => {
    const api = apiRef.current;
    if (!api) return "";
    const a = api.getAppState();
    return [
      hashElementsVersion(api.getSceneElementsIncludingDeleted()),
      a.viewBackgroundColor,
      a.gridSize,
      a.gridModeEnabled,
      Object.keys(api.getFiles()).length,
    ].join("|");
  }, []);

  // unsentElements are the elements whose version rose since they were
  // sent to the room or received from it.
  const unsentElements = useCallback(() => {
    const api = apiRef.current;
    if (!api) return [];
    const out = [];
    for (const el of api.getSceneElementsIncludingDeleted()) {
      const v = sent.current.get(el.id);
      if ((v === undefined || el.version > v) && syncable(el)) out.push(el);
    }
    return out;
  }, []);

  // metaDirty: the stored appState subset changed since it was stored, or
  // a file is on the canvas that the board may lack.
  const metaDirty = (api) =>
    appStateSignature(api) !== metaSaved.current || Object.keys(api.getFiles()).some((id) => !filesSent.current.has(id));

  // addReceivedFiles adds files the board has to the canvas.
  const addReceivedFiles = (api, files) => {
    if (!files.length) return;
    api.addFiles(files);
    for (const f of files) if (f?.id) filesSent.current.add(f.id);
  };

  // canvasClean: nothing on the canvas that the board lacks from this
  // page (in the room: nothing sent and unacknowledged, nothing unsent).
  const canvasClean = () =>
    roomSaving.current ? unacked.current.size === 0 && unsentElements().length === 0 : signature() === savedSig.current;

  const isDirty = useCallback(() => {
    const api = apiRef.current;
    if (!api || !savedSig.current) return false;
    if (roomSaving.current) return unacked.current.size > 0 || unsentElements().length > 0 || metaDirty(api);
    return signature() !== savedSig.current;
  }, [signature, unsentElements]);

  const setBase = useCallback(
    (revision, sha256) => {
      base.current = { revision, sha256 };
      setHead({ revision, sha256 });
      onHead?.({ name, revision, sha256 });
    },
    [name, onHead],
  );

  const fail = (why) => {
    failing.current = why;
    setFailure(why);
    setStatus("failed");
  };
  const clearFailure = () => {
    failing.current = null;
    retries.current = 0;
    clearTimeout(retryTimer.current);
    setFailure(null);
  };

  // Load the scene once.
  useEffect(() => {
    let cancelled = false;
    readScene(name)
      .then((res) => {
        if (cancelled) return;
        source.current = res.scene.source || "";
        base.current = { revision: res.revision, sha256: res.sha256 };
        checked.current = res.revision;
        setHead(base.current);
        setInitial({
          elements: res.scene.elements || [],
          appState: { ...(res.scene.appState || {}), ...(openTheme.current ? { theme: openTheme.current } : {}) },
          files: res.scene.files || {},
          scrollToContent: true,
        });
      })
      .catch(async (e) => {
        if (cancelled) return;
        const unavailable = e instanceof ApiError && e.status === 404 ? !(await pluginAvailable()) : false;
        if (!cancelled) setLoadError(describe(e, { unavailable }));
      });
    return () => {
      cancelled = true;
    };
  }, [name]);

  // Who the page is signed in as, to call their own changes "you".
  useEffect(() => {
    let gone = false;
    whoAmI()
      .then((m) => !gone && setWhoami(m))
      .catch(() => {}); // unknown: names stay names
    return () => {
      gone = true;
    };
  }, []);

  // noteChange keeps who made a revision the stream brought, when it was
  // not this page, for the status bar's "changed by": the event names
  // the writer as the history does (updatedByName, "claude (for erin)").
  // No journal is read for it.
  const whoamiRef = useRef(null);
  whoamiRef.current = whoami;
  const changeTimer = useRef(0);
  const noteChange = useCallback((change) => {
    clearTimeout(changeTimer.current);
    // Shortly after, so this page's own commit (acknowledged by the room
    // or the save's answer, which may come after the event) is known.
    changeTimer.current = setTimeout(() => {
      if (ownRevisions.current.has(change.revision)) return;
      const who = writerOf(change, whoamiRef.current);
      if (who) setLastChange({ revision: change.revision, at: change.at || change.updatedAt, who });
    }, 250);
  }, []);
  useEffect(() => () => clearTimeout(changeTimer.current), []);

  const documentOf = (api) => ({
    type: "excalidraw",
    version: 2,
    source: source.current || location.origin,
    // Tombstones are kept so a deletion reaches other editors through
    // reconciliation instead of being resurrected by them.
    elements: api.getSceneElementsIncludingDeleted(),
    appState: storedAppState(api.getAppState()),
    files: api.getFiles(),
  });

  // save writes the canvas now and resolves to true once it is on disk
  // (or was already), false if it was not (a conflict, or a failure the
  // status bar explains). The request is sent before save returns, so a
  // save started while the page is going away still leaves.
  const save = useCallback(
    ({ force = false, id } = {}) => {
      const api = apiRef.current;
      if (!api) return Promise.resolve(true);
      if (roomSaving.current && !force) return roomFns.current.roomSave();
      if (inConflict.current && !force) return Promise.resolve(false);
      if (inFlight.current) {
        saveAgain.current = true;
        return inFlight.current;
      }
      if (!force && !isDirty()) return Promise.resolve(true);
      clearTimeout(timer.current);
      clearTimeout(retryTimer.current);
      saveAgain.current = false;
      const sig = signature();
      const expected = base.current.revision;
      setStatus("saving");
      const sent = saveScene(name, documentOf(api), expected, { force, keepalive: true, ...(id ? { id } : {}) });
      const running = (async () => {
        try {
          const res = await sent;
          if (!res.unchanged) ownRevisions.current.add(res.revision);
          if (res.revision >= base.current.revision) setBase(res.revision, res.sha256);
          savedSig.current = sig;
          metaSaved.current = appStateSignature(api);
          for (const id of Object.keys(api.getFiles())) filesSent.current.add(id);
          inConflict.current = false;
          setConflict(null);
          clearFailure();
          setStatus(signature() === sig ? "saved" : "unsaved");
          if (!res.unchanged) report("saved", { name, revision: res.revision, sha256: res.sha256, elementCount: res.elementCount }, name);
          // The plugin kept a structure the edit changed (a stack's items
          // moved after one grew): what it stored is not what was sent,
          // so bring it into the canvas.
          if (res.relaidOut?.length) mergeRef.current?.({ same: true });
          return true;
        } catch (e) {
          if (e instanceof ApiError && e.code === "revision_conflict") {
            // Not a real conflict when the canvas has already merged the
            // revision that beat this save: save again on top of it.
            const d = e.details || {};
            if (base.current.revision === d.currentRevision && base.current.sha256 === d.currentSha256 && expected !== d.currentRevision) {
              saveAgain.current = true;
            } else {
              inConflict.current = true;
              setConflict({ current: d.currentRevision, expected });
              setStatus("conflict");
            }
            return false;
          }
          const unavailable = e instanceof ApiError && e.status === 404 ? !(await pluginAvailable()) : false;
          const why = describe(e, { unavailable });
          fail(why);
          if (why.retry) {
            retries.current++;
            const delay = backoff(retries.current);
            clearTimeout(retryTimer.current);
            retryTimer.current = setTimeout(() => save(), delay);
          } else {
            reportError(`save ${name}: ${e.code || e.name} ${e.message}`);
          }
          return false;
        } finally {
          inFlight.current = null;
        }
      })();
      inFlight.current = running;
      return running.then((ok) => {
        if (saveAgain.current && !inConflict.current) {
          saveAgain.current = false;
          return save();
        }
        return ok;
      });
    },
    // documentOf, fail and clearFailure only touch refs and setters
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [name, signature, isDirty, setBase],
  );

  // flush resolves once nothing is unsaved: true when the canvas is on
  // disk, false when it is not (a conflict or a failed save, which the
  // status bar shows). The scene list calls it before switching scenes.
  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    for (let i = 0; i < 5; i++) {
      if (inFlight.current) {
        await inFlight.current;
        continue;
      }
      if (inConflict.current) return false;
      if (!isDirty()) return true;
      if (!(await save())) return false;
    }
    return !isDirty();
  }, [isDirty, save]);

  const scheduleSave = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => save(), AUTOSAVE_MS);
  }, [save]);

  // noteReceived records elements the server has (from the room, a delta
  // or a read), so they are not sent back to it.
  // updateReceived puts elements the server sent into the canvas. Bringing
  // them in may re-index the page's own (Excalidraw keeps fractional
  // indices valid, bumping the versions of the elements it moves): such
  // a bump of an element the server has is not this person's edit, and
  // is not sent (it could bring back what an overwrite removed).
  // (Reconciling re-indexes in place: before is taken ahead of it.)
  const versionsOf = (api) => new Map(api.getSceneElementsIncludingDeleted().map((el) => [el.id, el.version]));
  const updateReceived = (api, before, elements, extra = {}) => {
    api.updateScene({ elements, ...extra, captureUpdate: CaptureUpdateAction.NEVER });
    for (const el of api.getSceneElementsIncludingDeleted()) {
      const was = before.get(el.id);
      if (was !== undefined && el.version !== was && sent.current.get(el.id) === was) sent.current.set(el.id, el.version);
    }
  };

  // With exact, the elements replaced the page's (an overwrite may take
  // an element back to a lower version).
  const noteReceived = (elements, exact = false) => {
    for (const el of elements) {
      const v = sent.current.get(el.id);
      if (exact || v === undefined || el.version > v) sent.current.set(el.id, el.version);
    }
  };

  // Bring a newer stored revision into the canvas and move the base to it.
  // Unsaved local edits are merged with Excalidraw's own reconciliation
  // (higher version wins; on a tie the lower versionNonce; the element
  // being edited stays local). A read that fails because the host is
  // away is dropped: the stream's next head brings the merge back.
  // With same, the stored revision is brought in even when it is the base:
  // this tab's own save, which the plugin stored other than it was sent.
  const mergeNow = useCallback(
    async ({ same = false, truth = false } = {}) => {
      const api = apiRef.current;
      if (!api) return;
      const res = await readScene(name);
      if (res.revision < base.current.revision || (res.revision === base.current.revision && !same)) return;
      // In the room, others' strokes not yet stored are on the canvas:
      // reconcile there — unless the stream could not say what changed
      // (truth: a resync, after an overwrite that dropped elements).
      const wasClean = (!inRoom.current || truth) && canvasClean();
      const before = versionsOf(api);
      const remote = restoreElements(res.scene.elements || [], null, { repairBindings: true });
      const files = Object.values(res.scene.files || {});
      addReceivedFiles(api, files);
      // With nothing unsaved, the disk is the whole truth (an element
      // another writer dropped must go here too). With unsaved edits,
      // reconcile so they survive.
      const elements = wasClean ? remote : reconcileElements(api.getSceneElementsIncludingDeleted(), remote, api.getAppState());
      noteReceived(remote, wasClean);
      updateReceived(api, before, elements);
      setBase(res.revision, res.sha256);
      if (inRoom.current) return;
      if (wasClean) {
        savedSig.current = signature();
        if (!inConflict.current && !inFlight.current) setStatus("saved");
      } else if (!inConflict.current) {
        scheduleSave();
      }
    },
    // noteReceived only touches refs
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [name, signature, setBase, scheduleSave],
  );

  // merged runs one merge after those before it; a read that fails
  // because the host is away is dropped (the stream brings it back).
  const merged = useCallback(
    (run) => {
      merging.current = merging.current.then(run).catch((e) => {
        if (!(e instanceof ApiError) || e.status === 401 || e.status === 404 || e.status >= 500) return;
        reportError(`merge ${name}: ${e.message}`);
      });
      return merging.current;
    },
    [name],
  );

  const mergeFromDisk = useCallback((opts) => merged(() => mergeNow(opts)), [merged, mergeNow]);

  // applyDelta brings a stream's delta (the elements the commits after
  // d.from changed, whole; deletions as isDeleted tombstones) into the
  // canvas without reading the scene, by the rule mergeFromDisk uses: on
  // a clean canvas the delta's elements replace the page's (the store is
  // the truth, even an element at a lower version after an overwrite);
  // with unsaved edits Excalidraw's reconciliation keeps them (higher
  // version wins, on a tie the lower versionNonce, the element being
  // edited stays). A delta that starts after the page's base (it missed
  // a revision), or shows an image whose file the page lacks, reads the
  // scene instead. One the page has already (its own save) does nothing.
  const applyDelta = useCallback(
    (d) =>
      merged(async () => {
        const api = apiRef.current;
        if (!api || d.revision <= base.current.revision) return;
        if (d.from > base.current.revision) return mergeNow();
        const remote = restoreElements(d.elements || [], null);
        const have = api.getFiles();
        if (remote.some((el) => el.type === "image" && !el.isDeleted && el.fileId && !have[el.fileId] && !d.files?.[el.fileId])) return mergeNow();
        const files = Object.values(d.files || {});
        addReceivedFiles(api, files);
        const wasClean = canvasClean();
        const before = versionsOf(api);
        const local = api.getSceneElementsIncludingDeleted();
        // By the delta's own ids: restoreElements drops an invisibly
        // small one, which a full read would not show either.
        const ids = new Set((d.elements || []).map((el) => el.id));
        const elements = reconcileElements(wasClean ? local.filter((el) => !ids.has(el.id)) : local, remote, api.getAppState());
        noteReceived(remote, wasClean);
        // The stored appState (background, grid) only where the person
        // changed nothing: their save would write theirs anyway.
        const appState = d.appState && wasClean ? storedAppState({ ...api.getAppState(), ...d.appState }) : undefined;
        updateReceived(api, before, elements, appState ? { appState } : {});
        setBase(d.revision, d.sha256);
        if (wasClean) {
          savedSig.current = signature();
          if (!inConflict.current && !inFlight.current) setStatus("saved");
        } else if (!inConflict.current) {
          scheduleSave();
        }
      }),
    // noteReceived only touches refs
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [merged, mergeNow, signature, setBase, scheduleSave],
  );

  mergeRef.current = mergeFromDisk;

  const reloadFromDisk = useCallback(async () => {
    const api = apiRef.current;
    if (!api) return;
    const res = await readScene(name);
    const files = Object.values(res.scene.files || {});
    addReceivedFiles(api, files);
    api.updateScene({
      elements: restoreElements(res.scene.elements || [], null, { repairBindings: true }),
      appState: storedAppState({ ...api.getAppState(), ...(res.scene.appState || {}) }),
      captureUpdate: CaptureUpdateAction.NEVER,
    });
    setBase(res.revision, res.sha256);
    savedSig.current = signature();
    inConflict.current = false;
    setConflict(null);
    clearFailure();
    setStatus("saved");
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, signature, setBase]);

  // lookForOverwrite reads the journal of the revisions the stream brought
  // since the last look (the stream may skip some: it keeps the newest)
  // for a forced save ("Overwrite anyway") by another writer: that
  // replaced what this tab showed, and the banner offers to bring it back.
  const lookForOverwrite = useCallback(
    (revision) => {
      const from = checked.current;
      if (revision <= from) return;
      checked.current = revision;
      let others = false;
      for (let r = from + 1; r <= revision && !others; r++) others = !ownRevisions.current.has(r);
      if (!others) return;
      sceneLog(name, { minRevision: from + 1, maxRevision: revision, ids: "none", limit: Math.min(200, revision - from) })
        .then((page) => {
          const forced = page.entries.find((e) => e.forced && !isOwnRequest(e.requestId));
          if (forced) setOverwrite(forced);
        })
        .catch(() => {}); // the banner is a courtesy; the history panel still shows the entry
    },
    [name],
  );

  // roomHead moves the base to a revision the stream announces while the
  // page is in the room, and tells /health of this tab's room commits.
  const roomHead = (change) => {
    const api = apiRef.current;
    if (api && change.revision > base.current.revision) {
      // What the room does not carry comes with the delta: files (an
      // image someone added) and the stored appState, taken where this
      // person changed nothing of it.
      addReceivedFiles(api, Object.values(change.files || {}));
      if (change.appState && appStateSignature(api) === metaSaved.current) {
        const next = storedAppState({ ...api.getAppState(), ...change.appState });
        // (getAppState may show the update only after the next render.)
        metaSaved.current = JSON.stringify(next);
        api.updateScene({ appState: next, captureUpdate: CaptureUpdateAction.NEVER });
      }
    }
    if (change.revision > base.current.revision) setBase(change.revision, change.sha256);
    if (change.elementCount !== undefined) headCount.current = change.elementCount;
    if (reportRevision.current && base.current.revision >= reportRevision.current) {
      const elementCount = headCount.current ?? apiRef.current?.getSceneElements().length ?? 0;
      report("saved", { name, revision: base.current.revision, sha256: base.current.sha256, elementCount }, name);
      reportRevision.current = 0;
    }
  };

  // updateRoomStatus shows saving while anything sent is not acknowledged
  // (or the appState and files are being stored), saved once it all is;
  // then the canvas's signature is the saved one, for the PUT path.
  const updateRoomStatus = () => {
    const api = apiRef.current;
    if (!api || !roomSaving.current) return;
    if (unacked.current.size > 0 || unsentElements().length > 0 || metaInFlight.current || metaDirty(api)) {
      setStatus((s) => (s === "failed" ? s : "saving"));
      return;
    }
    savedSig.current = signature();
    if (failing.current) clearFailure();
    setStatus("saved");
    for (const done of ackWaiters.current.splice(0)) done(true);
  };

  // syncRoom sends the room what changed since it was last sent.
  const syncRoom = () => {
    const room = roomRef.current;
    if (!roomSaving.current || !room?.joined()) return;
    const changed = unsentElements();
    if (changed.length === 0) return;
    for (const el of changed) {
      sent.current.set(el.id, el.version);
      unacked.current.set(el.id, el.version);
    }
    room.sendScene(changed);
  };

  // syncMeta stores the appState subset and new files (POST …/merge):
  // the room does not carry them. Files go at once (others' pages need
  // them for the image the room brought), the rest after a pause.
  const syncMeta = (now = false) => {
    const api = apiRef.current;
    if (!api || !roomSaving.current || metaInFlight.current) return;
    if (!metaDirty(api)) return;
    const sig = appStateSignature(api);
    const files = Object.fromEntries(Object.entries(api.getFiles()).filter(([id]) => !filesSent.current.has(id)));
    clearTimeout(metaTimer.current);
    if (!now && Object.keys(files).length === 0) {
      metaTimer.current = setTimeout(() => syncMeta(true), AUTOSAVE_MS);
      return;
    }
    metaInFlight.current = mergeScene(name, { appState: storedAppState(api.getAppState()), files })
      .then((res) => {
        metaSaved.current = sig;
        for (const id of Object.keys(files)) filesSent.current.add(id);
        if (res?.write?.revision) ownRevisions.current.add(res.write.revision);
      })
      .catch(async (e) => {
        const unavailable = e instanceof ApiError && e.status === 404 ? !(await pluginAvailable()) : false;
        fail(describe(e, { unavailable }));
        clearTimeout(metaTimer.current);
        metaTimer.current = setTimeout(() => syncMeta(true), backoff(++retries.current));
      })
      .finally(() => {
        metaInFlight.current = null;
        if (metaDirty(api) && !failing.current) syncMeta();
        updateRoomStatus();
      });
  };

  // roomSave is save while in the room: it sends what is pending and
  // resolves once dsh acknowledged all of it (true), or false when the
  // room went away first (the PUT path then takes over).
  const roomSave = () => {
    syncRoom();
    syncMeta(true);
    if (!isDirty()) return Promise.resolve(true);
    setStatus((s) => (s === "failed" ? s : "saving"));
    return new Promise((done) => ackWaiters.current.push(done));
  };
  roomFns.current = { roomSave, updateRoomStatus, syncRoom };
  // (syncMeta, sendPointer and relayBounds join them below.)

  // keepaliveMerge stores what the room has not acknowledged through a
  // request that outlives the page (the tab is going away or hidden).
  const keepaliveMerge = ({ leaving = false } = {}) => {
    const api = apiRef.current;
    if (!api || !(roomSaving.current || leaving)) return;
    const byId = new Map(api.getSceneElementsIncludingDeleted().map((el) => [el.id, el]));
    const els = new Map(unsentElements().map((el) => [el.id, el]));
    for (const id of unacked.current.keys()) if (byId.has(id)) els.set(id, byId.get(id));
    const meta = appStateSignature(api) !== metaSaved.current;
    if (els.size === 0 && !meta) return;
    mergeScene(name, { elements: [...els.values()], ...(meta ? { appState: storedAppState(api.getAppState()) } : {}) }, { keepalive: true }).catch(() => {});
  };

  const showCollaborators = () => {
    apiRef.current?.updateScene({ collaborators: new Map(collaborators.current), captureUpdate: CaptureUpdateAction.NEVER });
  };

  // sendPointer tells the room where the pointer is and what is selected,
  // at most every POINTER_MS (the last one always goes).
  const sendPointer = () => {
    const room = roomRef.current;
    const api = apiRef.current;
    if (!room?.joined() || !api || !pointer.current) return;
    const wait = pointerSentAt.current + POINTER_MS - Date.now();
    if (wait > 0) {
      if (!pointerTimer.current) {
        pointerTimer.current = setTimeout(() => {
          pointerTimer.current = 0;
          sendPointer();
        }, wait);
      }
      return;
    }
    pointerSentAt.current = Date.now();
    const { pointer: p, button } = pointer.current;
    room.sendPresence("MOUSE_LOCATION", {
      pointer: p,
      button: button || "up",
      selectedElementIds: api.getAppState().selectedElementIds || {},
      username: me.current.name,
    });
  };

  // relayBounds sends this person's viewport to those who follow them.
  const relayBounds = () => {
    const room = roomRef.current;
    const api = apiRef.current;
    if (!room?.joined() || !api) return;
    const a = api.getAppState();
    if (!a.followedBy?.size) return;
    room.sendPresence("USER_VISIBLE_SCENE_BOUNDS", { username: me.current.name, sceneBounds: getVisibleSceneBounds(a) }, { follow: true });
  };

  Object.assign(roomFns.current, { syncMeta, sendPointer, relayBounds });

  // The room, once the canvas is ready and while live changes are
  // followed: presence, others' strokes as they are drawn, and (for an
  // owner or editor) saving.
  useEffect(() => {
    if (!ready || !follow) return;
    let room = null;
    let gone = false;
    let infoTimer = 0;
    setRoomState("connecting");
    const leaveRoom = ({ closing = false } = {}) => {
      const wasSaving = roomSaving.current;
      inRoom.current = false;
      roomSaving.current = false;
      me.current = { ...me.current, id: "" };
      collaborators.current = new Map();
      showCollaborators();
      for (const done of ackWaiters.current.splice(0)) done(false);
      if (!wasSaving) return;
      if (closing) {
        // The editor goes (the scene list flushed it first) or stops
        // following: what the room did not acknowledge is merged.
        keepaliveMerge({ leaving: true });
        return;
      }
      // Out of the room with strokes it did not acknowledge: store them
      // by a merge (no conflict), bring in what the room had not yet
      // shown, then the PUT path saves what is left.
      const api = apiRef.current;
      if (!api) return;
      const byId = new Map(api.getSceneElementsIncludingDeleted().map((el) => [el.id, el]));
      const els = new Map(unsentElements().map((el) => [el.id, el]));
      for (const id of unacked.current.keys()) if (byId.has(id)) els.set(id, byId.get(id));
      const stored = els.size ? mergeScene(name, { elements: [...els.values()] }).then(() => unacked.current.clear()) : Promise.resolve();
      stored
        .catch(() => {}) // the PUT path saves them, and says so if it cannot
        .then(() => mergeFromDisk({ same: true }))
        .then(() => {
          if (!roomSaving.current && isDirty()) scheduleSave();
        });
    };
    const handlers = {
      onState: (state) => {
        if (gone) return;
        setRoomState(state);
        if (state !== "joined" && inRoom.current) leaveRoom();
      },
      onJoined: (body) => {
        me.current = { id: body.id, name: body.name || "", role: body.role || "" };
        inRoom.current = true;
        roomSaving.current = mayEdit(body.role);
        if (!roomSaving.current) return;
        // The PUT path stops; what the room lacks goes now: what it did
        // not acknowledge and what changed since it was sent.
        clearTimeout(timer.current);
        clearTimeout(retryTimer.current);
        const api = apiRef.current;
        if (!api) return;
        const byId = new Map(api.getSceneElementsIncludingDeleted().map((el) => [el.id, el]));
        const resend = new Map();
        for (const id of unacked.current.keys()) {
          const el = byId.get(id);
          if (el) resend.set(id, el);
          else unacked.current.delete(id);
        }
        for (const el of unsentElements()) resend.set(el.id, el);
        for (const el of resend.values()) {
          sent.current.set(el.id, el.version);
          unacked.current.set(el.id, el.version);
        }
        if (resend.size) room.sendScene([...resend.values()]);
        syncMeta();
        updateRoomStatus();
      },
      onScene: (elements) => {
        const api = apiRef.current;
        if (!api) return;
        const remote = restoreElements(elements, null);
        const before = versionsOf(api);
        const local = api.getSceneElementsIncludingDeleted();
        const merged = reconcileElements(local, remote, api.getAppState());
        noteReceived(remote);
        updateReceived(api, before, merged);
        // An image whose file this page lacks: its file is stored by the
        // merge its author sends; read it from the board.
        const have = api.getFiles();
        if (remote.some((el) => el.type === "image" && !el.isDeleted && el.fileId && !have[el.fileId])) {
          clearTimeout(infoTimer);
          infoTimer = setTimeout(() => {
            readScene(name)
              .then((res) => {
                const files = Object.values(res.scene.files || {});
                if (apiRef.current) addReceivedFiles(apiRef.current, files);
              })
              .catch(() => {});
          }, 500);
        }
      },
      onPresence: (type, p) => {
        const api = apiRef.current;
        if (!api || !p.socketId || p.socketId === me.current.id) return;
        if (type === "USER_VISIBLE_SCENE_BOUNDS") {
          const a = api.getAppState();
          if (a.userToFollow?.socketId !== p.socketId || a.followedBy?.has(p.socketId) || !p.sceneBounds) return;
          api.updateScene({
            appState: zoomToFitBounds({ appState: a, bounds: p.sceneBounds, fitToViewport: true, viewportZoomFactor: 1 }).appState,
            captureUpdate: CaptureUpdateAction.NEVER,
          });
          return;
        }
        const c = { ...(collaborators.current.get(p.socketId) || {}), socketId: p.socketId, id: p.socketId };
        if (p.username) c.username = p.username;
        if (type === "MOUSE_LOCATION") {
          c.pointer = p.pointer;
          c.button = p.button;
          c.selectedElementIds = p.selectedElementIds || {};
        } else if (type === "IDLE_STATUS") {
          c.userState = p.userState;
        } else {
          return;
        }
        collaborators.current.set(p.socketId, c);
        showCollaborators();
      },
      onUsers: (ids) => {
        const api = apiRef.current;
        const here = new Set(ids);
        const next = new Map();
        for (const id of ids) {
          const c = collaborators.current.get(id) || { socketId: id, id };
          next.set(id, id === me.current.id ? { ...c, username: me.current.name, isCurrentUser: true } : c);
        }
        collaborators.current = next;
        setHere(ids.length);
        showCollaborators();
        const following = api?.getAppState().userToFollow;
        if (following && !here.has(following.socketId)) {
          api.updateScene({ appState: { userToFollow: null }, captureUpdate: CaptureUpdateAction.NEVER });
        }
      },
      onFollowers: (ids) => {
        apiRef.current?.updateScene({ appState: { followedBy: new Set(ids) }, captureUpdate: CaptureUpdateAction.NEVER });
        relayBounds();
      },
      onSaved: ({ revision, elements }) => {
        for (const [id, v] of Object.entries(elements || {})) {
          const mine = unacked.current.get(id);
          if (mine !== undefined && mine <= v) unacked.current.delete(id);
        }
        if (revision > 0) {
          ownRevisions.current.add(revision);
          reportRevision.current = revision;
          if (base.current.revision >= revision) roomHead({ revision: base.current.revision, sha256: base.current.sha256 });
        }
        updateRoomStatus();
      },
      onError: (body) => {
        if (!inRoom.current || !roomSaving.current) return;
        const why = describe(roomError(body));
        for (const done of ackWaiters.current.splice(0)) done(false);
        if (body.code === "permission_denied") {
          // No longer an editor: the canvas keeps the strokes, the
          // banner says they were not saved.
          roomSaving.current = false;
          fail(why);
          return;
        }
        // A commit failed: what the room did not acknowledge is sent
        // again — after a pause when that can help, else with the next
        // change (a limit: the person deletes something).
        for (const id of unacked.current.keys()) sent.current.delete(id);
        fail(why);
        if (why.retry) {
          clearTimeout(retryTimer.current);
          retryTimer.current = setTimeout(() => roomFns.current.syncRoom(), backoff(++retries.current));
        }
      },
    };
    roomInfo(name)
      .then((info) => {
        if (gone) return;
        room = openRoom(info, handlers);
        roomRef.current = room;
        if (window.dshEditor?.name === name) window.dshEditor.room = room;
      })
      .catch(() => {
        if (!gone) setRoomState("down");
      });
    return () => {
      gone = true;
      clearTimeout(infoTimer);
      clearTimeout(pointerTimer.current);
      clearTimeout(boundsTimer.current);
      clearTimeout(metaTimer.current);
      if (inRoom.current) leaveRoom({ closing: true });
      room?.close();
      if (roomRef.current === room) roomRef.current = null;
      setRoomState("off");
    };
    // the handlers only touch refs and stable callbacks of this scene
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, follow, name]);

  // Idle state: away while the tab is hidden.
  useEffect(() => {
    const onVisibility = () => {
      roomRef.current?.sendPresence("IDLE_STATUS", {
        userState: document.visibilityState === "hidden" ? "away" : "active",
        username: me.current.name,
      });
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, []);

  const onPointerUpdate = useCallback((payload) => {
    pointer.current = { pointer: payload.pointer, button: payload.button };
    roomFns.current.sendPointer();
    // sendPointer only touches refs
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Following someone from Excalidraw's list of collaborators: Excalidraw
  // 0.18 tells it through the API's emitter only (the prop is not called).
  const onUserFollow = useCallback((payload) => {
    roomRef.current?.follow(payload);
  }, []);
  useEffect(() => {
    if (!ready || !apiRef.current) return;
    return apiRef.current.onUserFollow(onUserFollow);
  }, [ready, onUserFollow]);

  const onScrollChange = useCallback(() => {
    if (boundsTimer.current) return;
    boundsTimer.current = setTimeout(() => {
      boundsTimer.current = 0;
      roomFns.current.relayBounds();
    }, POINTER_MS);
    // relayBounds only touches refs
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Live updates: every commit to this scene, by anyone, arrives as a
  // `revision` event; the first one on every (re)connect is the current
  // head, so a stream that was away catches up by itself. When the stream
  // comes back after the host was away, a save that failed meanwhile is
  // retried at once.
  useEffect(() => {
    if (!initial) return;
    if (!follow) {
      setLink({ state: "off" });
      return;
    }
    // The stream is asked for deltas from the revision the canvas shows
    // (at every reconnect too), so a commit arrives as its changed
    // elements; a `resync` (or a plain revision) reads the scene.
    const stream = openStream(() => sceneEventsURL(name, base.current.revision), {
      onEvent: (type, data) => {
        if (type !== "revision" && type !== "delta" && type !== "resync") return;
        let change;
        try {
          change = JSON.parse(data);
        } catch {
          return;
        }
        if (change.revision > base.current.revision && !ownRevisions.current.has(change.revision)) noteChange(change);
        if (type === "delta") {
          // In the room its elements arrive from the room (already on
          // the canvas, or about to be): only the base moves.
          // An overwrite (a forced save) is the exception: it may take
          // elements back to lower versions, which only the stream's rule
          // (on a clean canvas the store is the truth) brings in.
          if (inRoom.current && !change.forced?.length) roomHead(change);
          else applyDelta(change);
          // The delta names the forced saves it covers: no journal read.
          if (change.revision > checked.current) {
            checked.current = change.revision;
            const forced = change.forced?.find((e) => !ownRevisions.current.has(e.revision) && !isOwnRequest(e.requestId));
            if (forced) setOverwrite(forced);
          }
          return;
        }
        if (change.revision > base.current.revision) {
          if (inRoom.current && type === "revision" && change.sha256) roomHead(change);
          else mergeFromDisk(type === "resync" ? { truth: true } : undefined);
        }
        lookForOverwrite(change.revision);
      },
      onState: (state, info) => {
        setLink({ state, ...info });
        if (state === "live" && failing.current?.retry) save();
      },
    });
    return () => stream.close();
    // roomHead only touches refs and setBase
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, initial, follow, mergeFromDisk, applyDelta, save, lookForOverwrite, noteChange]);

  // revert undoes one commit as this person ("Undo this change", "Bring my
  // version back"). Pending edits are saved first, so the revert acts on
  // what the person sees; the result comes back like any other writer's
  // revision, but at once, without waiting for the stream (or when not
  // following it). Resolves to whether it was done.
  const revert = useCallback(
    async (entry, done) => {
      setNotice(null);
      await flush();
      let res;
      try {
        res = await revertCommit(name, entry.commit);
      } catch (e) {
        setNotice({ kind: "error", text: `Could not undo ${changeBy(entry, whoamiRef.current)}: ${failureText(e)}` });
        return false;
      }
      if (!res.unchanged) ownRevisions.current.add(res.revision);
      await mergeFromDisk();
      const c = res.changed || {};
      const n = ["created", "updated", "deleted", "revived"].reduce((sum, k) => sum + (c[k]?.length || 0), 0);
      const left = res.collateral?.length || 0;
      const leftText = left === 1 ? "1 element was changed again later and was left as it is." : `${left} elements were changed again later and were left as they are.`;
      if (n === 0) {
        setNotice({ kind: "warn", text: left ? `Nothing was undone: ${leftText}` : "Nothing to undo: that change is already gone." });
      } else {
        setNotice({ kind: left ? "warn" : "info", text: left ? `${done} ${leftText}` : done });
      }
      return true;
    },
    [name, flush, mergeFromDisk],
  );

  const undoEntry = useCallback(
    async (entry) => {
      if (await revert(entry, `Undid ${changeBy(entry, whoamiRef.current)} (${entry.summary}).`)) {
        setOverwrite((o) => (o?.commit === entry.commit ? null : o));
      }
    },
    [revert],
  );

  const bringBack = useCallback(async () => {
    const entry = overwrite;
    if (!entry) return;
    setRestoring(true);
    try {
      if (await revert(entry, "Your version is back.")) setOverwrite(null);
    } finally {
      setRestoring(false);
    }
  }, [overwrite, revert]);

  // highlight selects what an entry touched that is still on the canvas
  // (a label's container rather than the label) and brings it into view.
  const highlight = useCallback((entry) => {
    const api = apiRef.current;
    if (!api) return;
    const ids = touchedIds(entry);
    const live = api.getSceneElements();
    const byId = new Map(live.map((el) => [el.id, el]));
    const pick = new Map();
    for (const el of live) {
      if (!ids.has(el.id)) continue;
      const target = (el.containerId && byId.get(el.containerId)) || el;
      pick.set(target.id, target);
    }
    if (pick.size === 0) {
      setNotice({ kind: "info", text: "Nothing this change touched is on the board now." });
      return;
    }
    setNotice(null);
    api.updateScene({
      appState: { selectedElementIds: Object.fromEntries([...pick.keys()].map((id) => [id, true])), selectedGroupIds: {} },
      captureUpdate: CaptureUpdateAction.NEVER,
    });
    // Once the selection's properties island is drawn, fit the elements
    // into what Excalidraw's own UI leaves free.
    requestAnimationFrame(() => {
      const canvas = document.querySelector(".dsh-canvas");
      if (apiRef.current !== api || !canvas) return;
      const box = canvas.getBoundingClientRect();
      const edge = (sel, side, none) => canvas.querySelector(sel)?.getBoundingClientRect()[side] ?? none;
      const canvasOffsets = {
        top: edge(".App-toolbar", "bottom", box.top) - box.top + 16,
        left: edge(".App-menu__left", "right", box.left) - box.left + 16,
        right: 16,
        bottom: 72, // the zoom and undo buttons
      };
      api.scrollToContent([...pick.values()], { fitToContent: true, animate: true, duration: 300, canvasOffsets });
    });
  }, []);

  // An information notice goes away by itself.
  useEffect(() => {
    if (notice?.kind !== "info") return;
    const t = setTimeout(() => setNotice(null), 10_000);
    return () => clearTimeout(t);
  }, [notice]);

  // Ctrl+S / Cmd+S saves now. Captured before Excalidraw sees it, whose
  // own binding would open a file dialog.
  useEffect(() => {
    const onKey = (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        e.stopPropagation();
        save();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [save]);

  // Leaving: save what is pending the moment the tab is hidden or goes
  // away, and ask before closing while anything is unsaved or in flight.
  useEffect(() => {
    // In the room, what it has not acknowledged goes by a keepalive merge.
    const onVisibility = () => {
      if (document.visibilityState !== "hidden" || !isDirty()) return;
      if (roomSaving.current) keepaliveMerge();
      else save();
    };
    const onPageHide = () => {
      if (!isDirty()) return;
      if (roomSaving.current) keepaliveMerge();
      else save();
    };
    const onBeforeUnload = (e) => {
      if (!isDirty() && !inFlight.current) return;
      if (isDirty() && !roomSaving.current) save();
      e.preventDefault();
      e.returnValue = "";
    };
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("beforeunload", onBeforeUnload);
    };
    // keepaliveMerge only touches refs
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isDirty, save]);

  useImperativeHandle(ref, () => ({ flush, dirty: isDirty, failure: () => failing.current }), [flush, isDirty]);

  // Evidence and the test/automation handle.
  const statusRef = useRef(status);
  statusRef.current = status;
  const followRef = useRef(follow);
  followRef.current = follow;
  const linkRef = useRef(link);
  linkRef.current = link;
  const roomStateRef = useRef(roomState);
  roomStateRef.current = roomState;
  const onApi = useCallback(
    (api) => {
      apiRef.current = api;
      if (!api) return;
      window.dshEditor = {
        api,
        name,
        lib: { convertToExcalidrawElements, CaptureUpdateAction, restoreElements, FONT_FAMILY },
        state: () => ({
          name,
          ...base.current,
          status: statusRef.current,
          follow: followRef.current,
          link: linkRef.current.state,
          dirty: isDirty(),
          failure: failing.current?.kind || "",
          room: roomStateRef.current,
          unacked: unacked.current.size,
          unsent: unsentElements().map((el) => el.id),
          metaUnsaved: metaDirty(api),
        }),
        collaborators: () =>
          [...(api.getAppState().collaborators || new Map()).values()].map((c) => ({
            socketId: c.socketId || "",
            username: c.username || "",
            isCurrentUser: !!c.isCurrentUser,
            pointer: c.pointer || null,
            selected: Object.keys(c.selectedElementIds || {}).sort(),
          })),
        room: roomRef.current,
        save: () => save(),
        flush,
        reloadFromDisk,
        setFollow,
      };
    },
    [name, save, flush, reloadFromDisk, isDirty],
  );

  // Text that dsh sized with its declared fallback fonts
  // (customData.dshMeasure: "fallback": glyphs none of Excalidraw's fonts
  // has, whose width depends on the fonts of the machine that draws them)
  // is measured again by this browser once its fonts are in, the way
  // Excalidraw measures (canvas measureText with the element's font
  // string, the widest line). Where the width differs, the text is
  // corrected once — its lines kept, a label re-centred in its container —
  // in one revision attributed by its request id ("ui-remeasure-…"), and
  // loses the mark, so no later open rewrites it. Text without the mark is
  // never rewritten on open. A person who starts editing before the fonts
  // are in keeps their edit, and the correction waits for another open.
  const touched = useRef(false);
  const settleText = useCallback(
    async (api) => {
      const marked = api.getSceneElements().filter((el) => el.type === "text" && headlessMeasured(el));
      if (marked.length === 0) return;
      await Promise.all(marked.map((el) => document.fonts.load(fontString(el), el.text).catch(() => [])));
      await document.fonts.ready;
      if (apiRef.current !== api || touched.current || inConflict.current || inFlight.current || isDirty()) return;
      const ctx = document.createElement("canvas").getContext("2d");
      const all = api.getSceneElementsIncludingDeleted();
      const byId = new Map(all.map((e) => [e.id, e]));
      const fixed = new Map();
      for (const el of marked) {
        ctx.font = fontString(el);
        const width = Math.max(0, ...el.text.split("\n").map((line) => ctx.measureText(line).width));
        if (Math.abs(width - el.width) < 0.001) continue;
        let x = el.x;
        const c = el.containerId ? byId.get(el.containerId) : null;
        if (c && c.type !== "arrow" && c.type !== "line") {
          x = el.textAlign === "left" ? el.x : el.textAlign === "right" ? el.x + el.width - width : el.x + (el.width - width) / 2;
        } else if (c) {
          x = el.x + (el.width - width) / 2;
        } else if (el.textAlign === "center") {
          x = el.x + (el.width - width) / 2;
        } else if (el.textAlign === "right") {
          x = el.x + el.width - width;
        }
        fixed.set(el.id, withoutMark({ ...el, width, x }));
      }
      if (fixed.size === 0) return;
      api.updateScene({ elements: all.map((el) => fixed.get(el.id) || el), captureUpdate: CaptureUpdateAction.NEVER });
      await save({ id: requestId("remeasure") });
    },
    // save, isDirty and signature are stable for this scene
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [initial],
  );

  const mountedReported = useRef(false);
  useEffect(() => {
    if (!initial) return;
    // Wait for Excalidraw to hand over its API and to apply the scene
    // (elements and appState arrive a few frames after the API): the
    // baseline must be the scene as loaded, or the first onChange would
    // look like an edit and opening would save.
    let frame = 0;
    let waited = 0;
    const want = initial.appState || {};
    const applied = (api) => {
      const a = api.getAppState();
      return (
        api.getSceneElementsIncludingDeleted().length === initial.elements.length &&
        (want.viewBackgroundColor === undefined || a.viewBackgroundColor === want.viewBackgroundColor) &&
        (want.gridModeEnabled === undefined || !!a.gridModeEnabled === !!want.gridModeEnabled)
      );
    };
    const tick = () => {
      const api = apiRef.current;
      if (!api || (!applied(api) && waited++ < 240)) {
        frame = requestAnimationFrame(tick);
        return;
      }
      const a = api.getAppState();
      savedSig.current = signature();
      if (!mountedReported.current) {
        mountedReported.current = true;
        report("mounted", { build: __DSH_BUILD__, width: Math.round(a.width), height: Math.round(a.height), theme: a.theme }, name);
      }
      report("canvas-ready", { elementCount: api.getSceneElements().length }, name);
      // The room is joined once the text is settled (its correction is a
      // save of its own, attributed by request id).
      settleText(api)
        .catch((e) => reportError(`re-measure ${name}: ${e.message}`))
        .finally(() => {
          if (apiRef.current !== api) return;
          sent.current = new Map(api.getSceneElementsIncludingDeleted().map((el) => [el.id, el.version]));
          metaSaved.current = appStateSignature(api);
          filesSent.current = new Set(Object.keys(api.getFiles()));
          setReady(true);
        });
    };
    frame = requestAnimationFrame(tick);
    openedBoard(name);
    const onHide = () => report("unmounted", {}, name);
    window.addEventListener("pagehide", onHide);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("pagehide", onHide);
      clearTimeout(timer.current);
      clearTimeout(retryTimer.current);
      if (mountedReported.current) report("unmounted", {}, name);
      closedBoard(name);
      if (window.dshEditor?.name === name) delete window.dshEditor;
    };
  }, [initial, name, signature]);

  const onPointerDown = useCallback(() => {
    touched.current = true;
  }, []);

  // Share beside Excalidraw's own top-right buttons, as Excalidraw+ has
  // it (the owner's only). A stable callback: what it draws is set on
  // every render (topRight), so Excalidraw's props do not change.
  const topRight = useRef(null);
  const renderTopRightUI = useCallback((isMobile) => topRight.current?.(isMobile) ?? null, []);

  const onChange = useCallback((_elements, appState) => {
    if (appState?.theme && appState.theme !== themeSeen.current) {
      themeSeen.current = appState.theme;
      setThemeName(appState.theme);
      onThemeRef.current?.(appState.theme);
    }
    // A new selection reaches the others with the pointer.
    const selection = Object.keys(appState?.selectedElementIds || {}).sort().join(",");
    if (selection !== selectionSeen.current) {
      selectionSeen.current = selection;
      if (pointer.current) roomFns.current.sendPointer();
    }
    if (roomSaving.current && apiRef.current && savedSig.current) {
      // In the room: the changed elements go now (as Excalidraw's
      // collaboration sends them), the appState and files by a merge.
      roomFns.current.syncRoom();
      roomFns.current.syncMeta();
      roomFns.current.updateRoomStatus();
      return;
    }
    if (!apiRef.current || !savedSig.current || inConflict.current) return;
    if (signature() === savedSig.current) {
      // Back to what is on disk (an undo, say): nothing to save.
      clearTimeout(timer.current);
      setStatus((s) => (s === "unsaved" ? "saved" : s));
      return;
    }
    setStatus((s) => (s === "saving" || s === "failed" ? s : "unsaved"));
    // A failure that can pass is retried on its own schedule; after one
    // that cannot (a limit), the next change tries again.
    if (!failing.current?.retry) scheduleSave();
  }, [signature, scheduleSave]);

  if (loadError) {
    return (
      <div className="dsh-empty dsh-problem" role="alert">
        <p>
          Could not open {title || name}: {boardWords(loadError.text)}
        </p>
        {loadError.kind === "unauthorized" && <LoginHint />}
      </div>
    );
  }
  if (!initial) return <div className="dsh-empty">Opening {title || name}…</div>;

  const unauthorized = failure?.kind === "unauthorized" || link.state === "unauthorized";
  const dark = themeName === "dark";
  const canEdit = role !== "viewer";
  const isOwner = role === "owner";
  const changedBy = status === "saved" && lastChange && lastChange.revision === head.revision ? lastChange : null;
  // Without onBoards: to the board list by loading it, once what is
  // pending is saved (the page asks first if it cannot be).
  const openBoards = () => {
    if (onBoards) return onBoards();
    flush().finally(() => location.assign(location.pathname + location.search));
  };
  const openShare = () => {
    if (onShare) onShare();
    else setShareOpen(true);
  };
  // (Not on a phone: Excalidraw puts it in its one toolbar row there,
  // which it would push off the screen; the main menu has Share.)
  topRight.current = isOwner
    ? (isMobile) =>
        !isMobile && (
        <button type="button" className="dsh-share-top" data-action="share-top" onClick={openShare} title="Share this board with people or an agent">
          Share
        </button>
      )
    : null;
  const details = `Board ${name}${head.revision ? ` · revision ${head.revision}` : ""}${head.sha256 ? ` · sha256 ${head.sha256}` : ""}${
    failure?.text ? `\n${boardWords(failure.text)}` : ""
  }`;
  return (
    <div className={`dsh-editor dsh-chrome dsh-theme-${dark ? "dark" : "light"}`}>
      <div className="dsh-body">
        <div className="dsh-canvas">
          <Excalidraw
            excalidrawAPI={onApi}
            initialData={initial}
            onChange={onChange}
            onPointerDown={onPointerDown}
            isCollaborating={roomState === "joined"}
            onPointerUpdate={onPointerUpdate}
            onScrollChange={onScrollChange}
            renderTopRightUI={renderTopRightUI}
            name={name}
            UIOptions={{ canvasActions: { loadScene: false, saveToActiveFile: false } }}
          >
            <MainMenu>
              <MainMenu.Item data-menu="boards" icon={MENU_ICONS.boards} onSelect={openBoards}>
                Boards
              </MainMenu.Item>
              <MainMenu.Item data-menu="history" icon={MENU_ICONS.history} onSelect={() => setHistoryOpen(true)}>
                History
              </MainMenu.Item>
              <MainMenu.Item data-menu="connect" icon={MENU_ICONS.connect} onSelect={() => setConnectOpen(true)}>
                Connect an agent…
              </MainMenu.Item>
              {isOwner && (
                <MainMenu.Item data-menu="share" icon={MENU_ICONS.share} onSelect={openShare}>
                  Share…
                </MainMenu.Item>
              )}
              <MainMenu.Separator />
              <MainMenu.DefaultItems.Export />
              <MainMenu.DefaultItems.SaveAsImage />
              <MainMenu.DefaultItems.SearchMenu />
              <MainMenu.DefaultItems.Help />
              {canEdit && <MainMenu.DefaultItems.ClearCanvas />}
              <MainMenu.Separator />
              <MainMenu.DefaultItems.ToggleTheme />
              <MainMenu.DefaultItems.ChangeCanvasBackground />
            </MainMenu>
          </Excalidraw>
        </div>
        {historyOpen && (
          <HistoryPanel
            name={name}
            revision={head.revision}
            me={whoami}
            canUndo={canEdit}
            theme={themeName}
            onSelect={highlight}
            onUndo={undoEntry}
            onClose={() => setHistoryOpen(false)}
          />
        )}
      </div>
      {overwrite && (
        <div className="dsh-banner dsh-banner-overwrite" role="alert" data-testid="overwrite" title={`Revision ${overwrite.revision}`}>
          <p>
            <strong>
              {entryWho(overwrite, whoami) === "you"
                ? "You replaced this board from another tab"
                : `${entryWho(overwrite, whoami)} replaced this board with their version`}
            </strong>{" "}
            ({ago(overwrite.at, now)}); what you had is gone from it.
            <button data-action="bring-back" onClick={bringBack} disabled={restoring}>
              {restoring ? "Bringing it back…" : "Bring my version back"}
            </button>
            <button data-action="dismiss" onClick={() => setOverwrite(null)} disabled={restoring}>
              Keep theirs
            </button>
          </p>
        </div>
      )}
      {notice && (
        <div className={`dsh-notice dsh-notice-${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"} data-testid="notice">
          <p>{notice.text}</p>
          <button className="dsh-close" aria-label="Dismiss" title="Dismiss" onClick={() => setNotice(null)}>
            ×
          </button>
        </div>
      )}
      {(failure || unauthorized) && (
        <div className={`dsh-banner dsh-banner-${unauthorized ? "unauthorized" : failure.kind}`} role="alert" data-testid="banner">
          {unauthorized ? (
            <>
              <p>
                <strong>Your session ended.</strong> Your drawing stays on this page and is saved as soon as you are back.
              </p>
              <LoginHint />
            </>
          ) : (
            <p>
              <strong>Not saved yet.</strong> {boardWords(failure.text)}
            </p>
          )}
        </div>
      )}
      <footer className="dsh-status" data-status={status} data-open={detailsOpen ? "true" : undefined}>
        <span className="dsh-name" title={title && title !== name ? name : undefined}>
          {title || name}
        </span>
        <span className="dsh-status-now">
          <span data-testid="state" className={`dsh-state dsh-${status}`} title={details}>
            {stateWords(status, failure, link.state)}
          </span>
          {changedBy && (
            <span data-testid="changed" className="dsh-changed" title={`Revision ${changedBy.revision}`}>
              {" · "}changed by {changedBy.who} {ago(changedBy.at, now)}
            </span>
          )}
        </span>
        <button
          type="button"
          className="dsh-status-toggle"
          data-action="details"
          aria-expanded={detailsOpen}
          aria-controls={`dsh-status-details-${name}`}
          aria-label="More: live status, history, connect, save"
          title="More"
          onClick={() => setDetailsOpen((o) => !o)}
        >
          <span className={`dsh-dot dsh-link-${link.state}`} aria-hidden="true" />⋯
        </button>
        <div className="dsh-status-details" id={`dsh-status-details-${name}`}>
          <span data-testid="link" className={`dsh-link dsh-link-${link.state}`} title={link.status ? `The live updates: HTTP ${link.status}` : "The live updates from others"}>
            {LINK_TEXT[link.state] || link.state}
          </span>
          <span
            data-testid="room"
            className={`dsh-room dsh-room-${roomState}`}
            title={`Who is drawing on this board now, live${roomState === "joined" ? ` (${here} here, agents at work too)` : ""}`}
          >
            {roomState === "joined" && here > 1 ? `${here} here` : roomState in ROOM_TEXT ? ROOM_TEXT[roomState] : roomState}
          </span>
          <label className="dsh-follow">
            <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow live changes
          </label>
          <button data-action="connect" aria-haspopup="dialog" onClick={() => setConnectOpen(true)} title="Let an MCP client (Claude, an IDE, a script) work on this board">
            Connect an agent…
          </button>
          <button data-action="history" aria-pressed={historyOpen} onClick={() => setHistoryOpen((o) => !o)}>
            History
          </button>
          <button data-action="save" onClick={() => save()} disabled={status === "conflict"} title="Save now (Ctrl+S); changes are saved by themselves too">
            Save
          </button>
        </div>
      </footer>
      {connectOpen && <ConnectDialog board={name} title={title} role={role} onClose={() => setConnectOpen(false)} />}
      {shareOpen && <ShareDialog name={name} board={{ name, title, role }} me={whoami} onClose={() => setShareOpen(false)} />}
      {conflict && (
        <div className="dsh-conflict" role="dialog" aria-label="Someone else changed this board" title={`Now revision ${conflict.current}; yours was based on revision ${conflict.expected}`}>
          <p>
            <strong>Someone else changed this board</strong> while you were editing it, and your changes were not saved.
          </p>
          <p>Take their version (your unsaved changes are dropped), or replace it with yours.</p>
          <button data-action="reload" onClick={() => reloadFromDisk().catch((e) => reportError(e.message))}>
            Take their version
          </button>
          <button data-action="overwrite" onClick={() => save({ force: true })}>
            Keep mine (overwrite theirs)
          </button>
        </div>
      )}
    </div>
  );
});

// LoginHint tells a person how to get back in: dsh prints login links in
// the terminal, so the page shows the command to run there.
export function LoginHint() {
  return (
    <p className="dsh-login-hint">
      On the machine where dsh runs, run <code>{loginCommand()}</code> and open the link it prints in this browser.
    </p>
  );
}

// writerOf names the writer of a stream's change as the status bar says
// it ("claude for erin", "claude for you", "erin"), or "" when it was the
// person themselves (in another tab) or nobody is named. me is GET /me.
export function writerOf(change, me) {
  const name = change.updatedByName || "";
  if (!name) return change.updatedBy === "agent" ? "an agent" : "";
  if (me && change.updatedBy === "ui" && (name === me.author || name === me.person)) return "";
  const m = /^(.*) \(for (.*)\)$/.exec(name);
  if (m) return `${m[1]} for ${me && m[2] === me.person ? "you" : m[2]}`;
  return name;
}

// boardWords says "board" where a message from dsh says "scene".
export const boardWords = (text) => String(text || "").replace(/\bscenes\b/g, "boards").replace(/\bscene\b/g, "board").replace(/\bScene\b/g, "Board");

// changeBy names a change by its writer, as the undo notices say it:
// "your change", "the change by claude for erin".
function changeBy(entry, me) {
  const w = entryWho(entry, me);
  return w === "you" ? "your change" : `the change by ${w}`;
}

// headlessMeasured: dsh sized this text with its declared fallback fonts,
// not with fonts Excalidraw ships, so this browser's measure is better.
const headlessMeasured = (el) => el.customData?.dshMeasure === "fallback";

function withoutMark(el) {
  const { dshMeasure: _, ...rest } = el.customData || {};
  return {
    ...el,
    customData: Object.keys(rest).length ? rest : undefined,
    version: el.version + 1,
    versionNonce: Math.floor(Math.random() * 2 ** 31),
    updated: Date.now(),
  };
}

// fontString is the canvas font Excalidraw measures and draws a text
// element with: its size and its family's CSS list (Excalifont falls back
// to Xiaolai, every family to Segoe UI Emoji; Helvetica is the system's).
function fontString(el) {
  const name = Object.entries(FONT_FAMILY).find(([, v]) => v === el.fontFamily)?.[0] || "Excalifont";
  const list = name === "Excalifont" ? "Excalifont, Xiaolai" : name;
  return `${el.fontSize}px ${list}, Segoe UI Emoji`;
}
