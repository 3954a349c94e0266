// The page's one module. The Go harness (../harness.go) bundles it with
// esbuild against the installed @excalidraw/excalidraw 0.18.1 and calls
// window.rendercheck.render(id, options) for each scene: it fetches the
// scene from the harness's server, exports it with Excalidraw's own
// exportToSvg and exportToBlob, times both with performance.now() and
// posts the SVG text and the PNG bytes back to the server.
import { exportToBlob, exportToSvg, FONT_FAMILY } from "@excalidraw/excalidraw";

// Excalidraw's module has run without Worker (see index.html).
window.Worker = window.rendercheckWorker;

// CanvasTooBig is what render reports instead of drawing a canvas larger
// than the harness allows (Chromium cannot allocate very large canvases,
// and encoding one takes minutes).
class CanvasTooBig extends Error {}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function post(url, body) {
  const res = await fetch(url, { method: "POST", body });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status}`);
}

// fonts maps each font family the scene's text uses, by Excalidraw's
// name for it, to whether the page has a loaded face of it.
function fonts(elements) {
  const names = new Map(Object.entries(FONT_FAMILY).map(([name, id]) => [id, name]));
  const out = {};
  for (const e of elements) {
    if (e.type !== "text") continue;
    out[names.get(e.fontFamily) ?? `fontFamily ${e.fontFamily}`] = false;
  }
  for (const f of document.fonts) {
    const family = f.family.replace(/^"|"$/g, "");
    if (f.status === "loaded" && family in out) out[family] = true;
  }
  return out;
}

async function render(id, o) {
  const res = await fetch(`/scene/${id}`);
  if (!res.ok) throw new Error(`GET /scene/${id}: ${res.status}`);
  const doc = await res.json();
  // As the editor exports: the scene's elements that are not deleted,
  // its files, its appState with the export settings on top.
  const elements = (Array.isArray(doc.elements) ? doc.elements : []).filter((e) => e && !e.isDeleted);
  const files = doc.files && typeof doc.files === "object" ? doc.files : {};
  const appState = {
    ...(doc.appState && typeof doc.appState === "object" ? doc.appState : {}),
    exportBackground: o.background,
    exportWithDarkMode: o.dark,
    exportScale: o.scale,
    exportEmbedScene: false,
  };

  // A frame exported alone, as the editor exports a selected frame.
  let exportingFrame;
  if (o.frame) {
    exportingFrame = elements.find((e) => e.id === o.frame && (e.type === "frame" || e.type === "magicframe"));
    if (!exportingFrame) throw new Error(`no frame ${o.frame} in the scene`);
  }

  let unscaled = null; // the export's size before scaling, as Excalidraw computes it
  const getDimensions = (w, h) => {
    unscaled = [w, h];
    const width = w * o.scale;
    const height = h * o.scale;
    const W = Math.trunc(width);
    const H = Math.trunc(height);
    if (W === 0 || H === 0) {
      // Chromium's canvas gives no PNG for it, and Excalidraw only says
      // "couldn't export to blob".
      throw new Error(`the export is ${W}x${H} px: nothing to draw (an empty scene without padding?)`);
    }
    if (W > o.maxSide || H > o.maxSide || W * H > o.maxPixels) {
      throw new CanvasTooBig(`${W}x${H}`);
    }
    return { width, height, scale: o.scale };
  };

  const svgMs = [];
  const pngMs = [];
  let svgText = "";
  let blob = null;
  let tooBig = false;
  for (let i = 0; i <= o.runs; i++) {
    const t0 = performance.now();
    const svg = await exportToSvg({ elements, appState, files, exportPadding: o.padding, exportingFrame });
    const t1 = performance.now();
    svgText = svg.outerHTML;
    if (i > 0) svgMs.push(t1 - t0);
    if (tooBig) continue;
    try {
      const t2 = performance.now();
      blob = await exportToBlob({ elements, appState, files, exportPadding: o.padding, exportingFrame, mimeType: "image/png", getDimensions });
      const t3 = performance.now();
      if (i > 0) pngMs.push(t3 - t2);
    } catch (err) {
      if (!(err instanceof CanvasTooBig)) throw err;
      tooBig = true;
      blob = null;
    }
  }
  await post(`/result/${id}/svg`, svgText);
  if (blob) await post(`/result/${id}/png`, blob);
  return {
    svgMs: median(svgMs),
    pngMs: pngMs.length ? median(pngMs) : 0,
    unscaled,
    tooBig,
    fonts: fonts(elements),
  };
}

window.rendercheck = { render, ready: true };
