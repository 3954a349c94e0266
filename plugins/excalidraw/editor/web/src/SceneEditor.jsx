import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef, useState } from "react";
import {
  CaptureUpdateAction,
  Excalidraw,
  FONT_FAMILY,
  convertToExcalidrawElements,
  hashElementsVersion,
  reconcileElements,
  restoreElements,
} from "@excalidraw/excalidraw";
import {
  ApiError,
  closedBoard,
  describe,
  isOwnRequest,
  loginCommand,
  openedBoard,
  pluginAvailable,
  readScene,
  report,
  reportError,
  revertCommit,
  saveScene,
  sceneEventsURL,
  sceneLog,
  requestId,
} from "./api.js";
import { HistoryPanel, ago, entryWho, failureText, touchedIds } from "./History.jsx";
import { ConnectDialog } from "./Connect.jsx";
import { backoff, openStream } from "./stream.js";

// How long the page waits after the last change before saving by itself.
const AUTOSAVE_MS = 800;

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
  unavailable: "plugin unavailable, retrying",
  off: "not following",
};

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
export const SceneEditor = forwardRef(function SceneEditor({ name, title, role, onHead, theme = null, onTheme }, ref) {
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

  const isDirty = useCallback(() => !!apiRef.current && !!savedSig.current && signature() !== savedSig.current, [signature]);

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

  // Bring a newer stored revision into the canvas and move the base to it.
  // Unsaved local edits are merged with Excalidraw's own reconciliation
  // (higher version wins; on a tie the lower versionNonce; the element
  // being edited stays local). A read that fails because the host is
  // away is dropped: the stream's next head brings the merge back.
  // With same, the stored revision is brought in even when it is the base:
  // this tab's own save, which the plugin stored other than it was sent.
  const mergeNow = useCallback(
    async ({ same = false } = {}) => {
      const api = apiRef.current;
      if (!api) return;
      const res = await readScene(name);
      if (res.revision < base.current.revision || (res.revision === base.current.revision && !same)) return;
      const wasClean = signature() === savedSig.current;
      const remote = restoreElements(res.scene.elements || [], null, { repairBindings: true });
      const files = Object.values(res.scene.files || {});
      if (files.length) api.addFiles(files);
      // With nothing unsaved, the disk is the whole truth (an element
      // another writer dropped must go here too). With unsaved edits,
      // reconcile so they survive.
      const elements = wasClean ? remote : reconcileElements(api.getSceneElementsIncludingDeleted(), remote, api.getAppState());
      api.updateScene({ elements, captureUpdate: CaptureUpdateAction.NEVER });
      setBase(res.revision, res.sha256);
      if (wasClean) {
        savedSig.current = signature();
        if (!inConflict.current && !inFlight.current) setStatus("saved");
      } else if (!inConflict.current) {
        scheduleSave();
      }
    },
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
        if (files.length) api.addFiles(files);
        const wasClean = signature() === savedSig.current;
        const local = api.getSceneElementsIncludingDeleted();
        // By the delta's own ids: restoreElements drops an invisibly
        // small one, which a full read would not show either.
        const ids = new Set((d.elements || []).map((el) => el.id));
        const elements = reconcileElements(wasClean ? local.filter((el) => !ids.has(el.id)) : local, remote, api.getAppState());
        // The stored appState (background, grid) only where the person
        // changed nothing: their save would write theirs anyway.
        const appState = d.appState && wasClean ? storedAppState({ ...api.getAppState(), ...d.appState }) : undefined;
        api.updateScene({ elements, ...(appState ? { appState } : {}), captureUpdate: CaptureUpdateAction.NEVER });
        setBase(d.revision, d.sha256);
        if (wasClean) {
          savedSig.current = signature();
          if (!inConflict.current && !inFlight.current) setStatus("saved");
        } else if (!inConflict.current) {
          scheduleSave();
        }
      }),
    [merged, mergeNow, signature, setBase, scheduleSave],
  );

  mergeRef.current = mergeFromDisk;

  const reloadFromDisk = useCallback(async () => {
    const api = apiRef.current;
    if (!api) return;
    const res = await readScene(name);
    const files = Object.values(res.scene.files || {});
    if (files.length) api.addFiles(files);
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
        if (type === "delta") {
          applyDelta(change);
          // The delta names the forced saves it covers: no journal read.
          if (change.revision > checked.current) {
            checked.current = change.revision;
            const forced = change.forced?.find((e) => !ownRevisions.current.has(e.revision) && !isOwnRequest(e.requestId));
            if (forced) setOverwrite(forced);
          }
          return;
        }
        if (change.revision > base.current.revision) mergeFromDisk();
        lookForOverwrite(change.revision);
      },
      onState: (state, info) => {
        setLink({ state, ...info });
        if (state === "live" && failing.current?.retry) save();
      },
    });
    return () => stream.close();
  }, [name, initial, follow, mergeFromDisk, applyDelta, save, lookForOverwrite]);

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
        setNotice({ kind: "error", text: `Could not undo r${entry.revision}: ${failureText(e)}` });
        return false;
      }
      if (!res.unchanged) ownRevisions.current.add(res.revision);
      await mergeFromDisk();
      const c = res.changed || {};
      const n = ["created", "updated", "deleted", "revived"].reduce((sum, k) => sum + (c[k]?.length || 0), 0);
      const left = res.collateral?.length || 0;
      const leftText = left === 1 ? "1 element was changed again later and was left as it is." : `${left} elements were changed again later and were left as they are.`;
      if (n === 0) {
        setNotice({ kind: "warn", text: left ? `Nothing was undone: ${leftText}` : `Nothing to undo: r${entry.revision}'s changes are already gone.` });
      } else {
        setNotice({ kind: left ? "warn" : "info", text: left ? `${done} ${leftText}` : done });
      }
      return true;
    },
    [name, flush, mergeFromDisk],
  );

  const undoEntry = useCallback(
    async (entry) => {
      if (await revert(entry, `Undid r${entry.revision} (${entry.summary}).`)) {
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
      setNotice({ kind: "info", text: `Nothing r${entry.revision} touched is on the canvas now.` });
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
    const onVisibility = () => {
      if (document.visibilityState === "hidden" && isDirty()) save();
    };
    const onPageHide = () => {
      if (isDirty()) save();
    };
    const onBeforeUnload = (e) => {
      if (!isDirty() && !inFlight.current) return;
      if (isDirty()) save();
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
  }, [isDirty, save]);

  useImperativeHandle(ref, () => ({ flush, dirty: isDirty, failure: () => failing.current }), [flush, isDirty]);

  // Evidence and the test/automation handle.
  const statusRef = useRef(status);
  statusRef.current = status;
  const followRef = useRef(follow);
  followRef.current = follow;
  const linkRef = useRef(link);
  linkRef.current = link;
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
        }),
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
      settleText(api).catch((e) => reportError(`re-measure ${name}: ${e.message}`));
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

  const onChange = useCallback((_elements, appState) => {
    if (appState?.theme && appState.theme !== themeSeen.current) {
      themeSeen.current = appState.theme;
      onThemeRef.current?.(appState.theme);
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
        <p>Could not open {name}: {loadError.text}</p>
        {loadError.kind === "unauthorized" && <LoginHint />}
      </div>
    );
  }
  if (!initial) return <div className="dsh-empty">Loading {name}…</div>;

  const unauthorized = failure?.kind === "unauthorized" || link.state === "unauthorized";
  return (
    <div className="dsh-editor">
      <div className="dsh-body">
        <div className="dsh-canvas">
          <Excalidraw
            excalidrawAPI={onApi}
            initialData={initial}
            onChange={onChange}
            onPointerDown={onPointerDown}
            name={name}
            UIOptions={{ canvasActions: { loadScene: false, saveToActiveFile: false } }}
          />
        </div>
        {historyOpen && <HistoryPanel name={name} revision={head.revision} onSelect={highlight} onUndo={undoEntry} onClose={() => setHistoryOpen(false)} />}
      </div>
      {overwrite && (
        <div className="dsh-banner dsh-banner-overwrite" role="alert" data-testid="overwrite">
          <p>
            <strong>Your view was replaced by {entryWho(overwrite)}&rsquo;s overwrite</strong> (r{overwrite.revision}, {ago(overwrite.at)}).
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
              <strong>Not saved.</strong> {failure.text}
            </p>
          )}
        </div>
      )}
      <footer className="dsh-status" data-status={status}>
        <span className="dsh-name" title={title && title !== name ? name : undefined}>
          {title || name}
        </span>
        <span data-testid="revision">rev {head.revision}</span>
        <span data-testid="sha" title={head.sha256}>
          sha {head.sha256.slice(0, 12)}
        </span>
        <span data-testid="state" className={`dsh-state dsh-${status}`} title={failure?.text || ""}>
          {status === "failed" ? "not saved" : status}
        </span>
        <span data-testid="link" className={`dsh-link dsh-link-${link.state}`} title={link.status ? `HTTP ${link.status}` : ""}>
          {LINK_TEXT[link.state] || link.state}
        </span>
        <label className="dsh-follow">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> follow live changes
        </label>
        <button data-action="connect" aria-haspopup="dialog" onClick={() => setConnectOpen(true)} title="Let an MCP client (Claude, an IDE, a script) work on this board">
          Connect an agent…
        </button>
        <button data-action="history" aria-pressed={historyOpen} onClick={() => setHistoryOpen((o) => !o)}>
          History
        </button>
        <button onClick={() => save()} disabled={status === "conflict"}>
          Save (Ctrl+S)
        </button>
      </footer>
      {connectOpen && <ConnectDialog board={name} title={title} role={role} onClose={() => setConnectOpen(false)} />}
      {conflict && (
        <div className="dsh-conflict" role="dialog" aria-label="Revision conflict">
          <p>
            This scene changed on disk (now revision {conflict.current}) after your copy (revision {conflict.expected}).
          </p>
          <button data-action="reload" onClick={() => reloadFromDisk().catch((e) => reportError(e.message))}>
            Reload from disk
          </button>
          <button data-action="overwrite" onClick={() => save({ force: true })}>
            Overwrite anyway
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
