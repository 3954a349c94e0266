import { useCallback, useEffect, useRef, useState } from "react";
import {
  CaptureUpdateAction,
  Excalidraw,
  FONT_FAMILY,
  convertToExcalidrawElements,
  hashElementsVersion,
  reconcileElements,
  restoreElements,
} from "@excalidraw/excalidraw";
import { ApiError, readScene, report, reportError, saveScene, sceneEventsURL } from "./api.js";

// How long the page waits after the last change before saving by itself.
const AUTOSAVE_MS = 800;

// The scene-level appState the store keeps (the rest is per-viewer).
const storedAppState = (a) => ({
  viewBackgroundColor: a.viewBackgroundColor,
  gridSize: a.gridSize ?? null,
  gridModeEnabled: !!a.gridModeEnabled,
});

// SceneEditor is one open scene: the real Excalidraw, saved with the
// revision it was based on, and kept up to date with other writers.
//
// Its sync state lives in refs because Excalidraw's onChange fires on
// every pointer move; only what the status bar shows is React state.
//
//   base       the revision (and sha256) the canvas is known to contain
//   savedSig   the canvas signature at the last save or merge: the canvas
//              is "unsaved" while its signature differs
//   status     saved | unsaved | saving | conflict | error
export function SceneEditor({ name, onSaved }) {
  const [initial, setInitial] = useState(null);
  const [loadError, setLoadError] = useState("");
  const [status, setStatus] = useState("saved");
  const [head, setHead] = useState({ revision: 0, sha256: "" });
  const [conflict, setConflict] = useState(null);
  const [follow, setFollow] = useState(true);

  const apiRef = useRef(null);
  const base = useRef({ revision: 0, sha256: "" });
  const savedSig = useRef("");
  const saving = useRef(false);
  const saveAgain = useRef(false);
  const inConflict = useRef(false);
  const timer = useRef(null);
  const merging = useRef(Promise.resolve());

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

  const setBase = (revision, sha256) => {
    base.current = { revision, sha256 };
    setHead({ revision, sha256 });
  };

  // Load the scene once.
  useEffect(() => {
    let cancelled = false;
    readScene(name)
      .then((res) => {
        if (cancelled) return;
        base.current = { revision: res.revision, sha256: res.sha256 };
        setHead(base.current);
        setInitial({
          elements: res.scene.elements || [],
          appState: { ...(res.scene.appState || {}) },
          files: res.scene.files || {},
          scrollToContent: true,
        });
      })
      .catch((e) => {
        if (!cancelled) setLoadError(`${e.code || "error"}: ${e.message}`);
      });
    return () => {
      cancelled = true;
    };
  }, [name]);

  const documentOf = (api) => ({
    type: "excalidraw",
    version: 2,
    source: location.origin,
    // Tombstones are kept so a deletion reaches other editors through
    // reconciliation instead of being resurrected by them.
    elements: api.getSceneElementsIncludingDeleted(),
    appState: storedAppState(api.getAppState()),
    files: api.getFiles(),
  });

  const save = useCallback(
    async ({ force = false } = {}) => {
      const api = apiRef.current;
      if (!api || (inConflict.current && !force)) return;
      if (saving.current) {
        saveAgain.current = true;
        return;
      }
      clearTimeout(timer.current);
      saving.current = true;
      saveAgain.current = false;
      const sig = signature();
      const expected = base.current.revision;
      setStatus("saving");
      try {
        const res = await saveScene(name, documentOf(api), expected, force);
        if (res.revision >= base.current.revision) setBase(res.revision, res.sha256);
        savedSig.current = sig;
        inConflict.current = false;
        setConflict(null);
        setStatus(signature() === sig ? "saved" : "unsaved");
        report("saved", { name, revision: res.revision, sha256: res.sha256, elementCount: res.elementCount });
        onSaved?.();
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
        } else {
          setStatus("error");
          reportError(`save ${name}: ${e.code || ""} ${e.message}`);
        }
      } finally {
        saving.current = false;
      }
      if (saveAgain.current && !inConflict.current) save();
    },
    [name, onSaved, signature],
  );

  // Bring a newer stored revision into the canvas and move the base to it.
  // Unsaved local edits are merged with Excalidraw's own reconciliation
  // (higher version wins; on a tie the lower versionNonce; the element
  // being edited stays local).
  const mergeFromDisk = useCallback(() => {
    merging.current = merging.current.then(async () => {
      const api = apiRef.current;
      if (!api) return;
      const res = await readScene(name);
      if (res.revision <= base.current.revision) return;
      const wasClean = signature() === savedSig.current;
      const remote = restoreElements(res.scene.elements || [], null, { repairBindings: true });
      const files = Object.values(res.scene.files || {});
      if (files.length) api.addFiles(files);
      // With nothing unsaved, the disk is the whole truth (an element
      // another writer dropped must go here too). With unsaved edits,
      // reconcile so they survive.
      const elements = wasClean
        ? remote
        : reconcileElements(api.getSceneElementsIncludingDeleted(), remote, api.getAppState());
      api.updateScene({ elements, captureUpdate: CaptureUpdateAction.NEVER });
      setBase(res.revision, res.sha256);
      if (wasClean) {
        savedSig.current = signature();
        if (!inConflict.current) setStatus("saved");
      } else if (!inConflict.current) {
        scheduleSave();
      }
    }).catch((e) => reportError(`merge ${name}: ${e.message}`));
    return merging.current;
    // scheduleSave is stable (defined below with the same deps)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, signature]);

  const scheduleSave = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => save(), AUTOSAVE_MS);
  }, [save]);

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
    setStatus("saved");
  }, [name, signature]);

  // Live updates: every commit to this scene, by anyone, arrives as a
  // `revision` event; the first one is the current head.
  useEffect(() => {
    if (!initial || !follow) return;
    const es = new EventSource(sceneEventsURL(name));
    es.addEventListener("revision", (ev) => {
      let change;
      try {
        change = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (change.revision > base.current.revision) mergeFromDisk();
    });
    return () => es.close();
  }, [name, initial, follow, mergeFromDisk]);

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

  // Evidence and the test/automation handle.
  const onApi = useCallback(
    (api) => {
      apiRef.current = api;
      if (!api) return;
      window.dshEditor = {
        api,
        name,
        lib: { convertToExcalidrawElements, CaptureUpdateAction, restoreElements, FONT_FAMILY },
        state: () => ({ name, ...base.current, status: statusRef.current, follow: followRef.current }),
        save: () => save(),
        reloadFromDisk,
        setFollow,
      };
    },
    [name, save, reloadFromDisk],
  );
  const statusRef = useRef(status);
  statusRef.current = status;
  const followRef = useRef(follow);
  followRef.current = follow;

  const mountedReported = useRef(false);
  useEffect(() => {
    if (!initial) return;
    // Wait for Excalidraw to hand over its API and lay out the canvas.
    let frame = 0;
    const tick = () => {
      const api = apiRef.current;
      if (!api) {
        frame = requestAnimationFrame(tick);
        return;
      }
      const a = api.getAppState();
      savedSig.current = signature();
      if (!mountedReported.current) {
        mountedReported.current = true;
        report("mounted", { build: __DSH_BUILD__, width: Math.round(a.width), height: Math.round(a.height), theme: a.theme });
      }
      report("canvas-ready", { elementCount: api.getSceneElements().length });
    };
    frame = requestAnimationFrame(tick);
    const onHide = () => report("unmounted");
    window.addEventListener("pagehide", onHide);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("pagehide", onHide);
      clearTimeout(timer.current);
      if (mountedReported.current) report("unmounted");
      if (window.dshEditor?.name === name) delete window.dshEditor;
    };
  }, [initial, name, signature]);

  const onChange = useCallback(() => {
    if (!apiRef.current || !savedSig.current || inConflict.current) return;
    if (signature() === savedSig.current) return;
    setStatus((s) => (s === "saving" ? s : "unsaved"));
    scheduleSave();
  }, [signature, scheduleSave]);

  if (loadError) return <div className="dsh-empty dsh-problem" role="alert">{loadError}</div>;
  if (!initial) return <div className="dsh-empty">Loading {name}…</div>;

  return (
    <div className="dsh-editor">
      <div className="dsh-canvas">
        <Excalidraw
          excalidrawAPI={onApi}
          initialData={initial}
          onChange={onChange}
          name={name}
          UIOptions={{ canvasActions: { loadScene: false, saveToActiveFile: false } }}
        />
      </div>
      <footer className="dsh-status" data-status={status}>
        <span className="dsh-name">{name}</span>
        <span data-testid="revision">rev {head.revision}</span>
        <span data-testid="sha" title={head.sha256}>sha {head.sha256.slice(0, 12)}</span>
        <span data-testid="state" className={`dsh-state dsh-${status}`}>{status}</span>
        <label className="dsh-follow">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> follow live changes
        </label>
        <button onClick={() => save()} disabled={status === "conflict"}>Save (Ctrl+S)</button>
      </footer>
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
}
