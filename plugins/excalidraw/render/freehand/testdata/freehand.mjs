// The reference side of the differential test (../differential_test.go).
//
//   node freehand.mjs <node_modules dir> <scratch dir>   < cases.json
//
// Reads {trig, strokes, elements} on stdin and writes on stdout:
//   trig:     [Math.sin(x), Math.cos(x), Math.hypot(x, x/3)] per number
//   strokes:  perfect-freehand's getStroke(points, options) per case
//   elements: per freedraw element, the outline Excalidraw strokes (its
//             getFreeDrawSvgPath recipe, restated below) and the path data
//             of Excalidraw's own getFreeDrawSvgPath
// An outline is written flat, [x0, y0, x1, y1, ...]; one with a number
// JSON cannot carry (NaN, ±Infinity) as the strings of its numbers.
//
// perfect-freehand is imported from its installed ESM build. Excalidraw's
// ESM build is meant for bundlers, so its one export needed here is
// bundled with esbuild into the scratch dir and run on a jsdom window.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [modules, scratch] = process.argv.slice(2);
if (!modules || !scratch) {
  console.error("usage: node freehand.mjs <node_modules dir> <scratch dir>");
  process.exit(2);
}
const require = createRequire(path.join(modules, "noop.js"));
const fromModules = (pkg, file) => pathToFileURL(path.join(modules, pkg, file)).href;

const { getStroke } = await import(fromModules("perfect-freehand", "dist/esm/index.js"));

async function excalidraw() {
  const { build } = require("esbuild");
  const out = path.join(scratch, "excalidraw-freedraw.mjs");
  await build({
    stdin: {
      contents: 'export { getFreeDrawSvgPath } from "@excalidraw/excalidraw";',
      resolveDir: path.dirname(modules),
      loader: "js",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "error",
    loader: { ".css": "empty", ".woff2": "empty", ".ttf": "empty" },
  });
  const { JSDOM } = require("jsdom");
  const dom = new JSDOM("<!doctype html><html><body></body></html>", {
    url: "http://localhost/",
    pretendToBeVisual: true,
  });
  // Module code asks for a 2D context at load time; jsdom has none.
  // Anything that takes every call will do: paths need no canvas.
  dom.window.HTMLCanvasElement.prototype.getContext = () =>
    new Proxy({}, { get: (t, k) => (k in t ? t[k] : () => ({ width: 0 })), set: (t, k, v) => ((t[k] = v), true) });
  for (const key of Object.getOwnPropertyNames(dom.window)) {
    if (!(key in globalThis)) {
      Object.defineProperty(globalThis, key, { configurable: true, get: () => dom.window[key] });
    }
  }
  for (const key of ["window", "document", "navigator", "location", "localStorage"]) {
    Object.defineProperty(globalThis, key, { configurable: true, get: () => dom.window[key] });
  }
  return (await import(pathToFileURL(out).href)).getFreeDrawSvgPath;
}

const easings = {
  linear: undefined,
  sine: (t) => Math.sin((t * Math.PI) / 2),
  quad: (t) => t * t,
};

// A case's options as JSON, back into perfect-freehand's: named easings;
// a taper of "all" is taper: true.
function options(o) {
  const tip = (t) => {
    if (!t) return undefined;
    const r = {};
    if ("taper" in t) r.taper = t.taper === "all" ? true : t.taper;
    if ("cap" in t) r.cap = t.cap;
    return r;
  };
  const r = { ...o, start: tip(o.start), end: tip(o.end) };
  if (o.easing !== undefined) r.easing = easings[o.easing];
  for (const k of Object.keys(r)) if (r[k] === undefined) delete r[k];
  return r;
}

// What getFreeDrawSvgPath hands getStroke, as Excalidraw 0.18.1 writes it.
function freedrawStroke(element) {
  const input = element.simulatePressure
    ? element.points
    : element.points.length
      ? element.points.map(([x, y], i) => [x, y, element.pressures[i]])
      : [[0, 0, 0.5]];
  return getStroke(input, {
    simulatePressure: element.simulatePressure,
    size: element.strokeWidth * 4.25,
    thinning: 0.6,
    smoothing: 0.5,
    streamline: 0.5,
    easing: (t) => Math.sin((t * Math.PI) / 2),
    last: !!element.lastCommittedPoint,
  });
}

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));

function flat(outline) {
  const xs = outline.flat();
  return xs.every(Number.isFinite) ? xs : xs.map(String);
}

const svgPath = input.elements?.length ? await excalidraw() : null;
const result = {
  trig: (input.trig ?? []).map((x) => [Math.sin(x), Math.cos(x), Math.hypot(x, x / 3)]),
  strokes: (input.strokes ?? []).map((c) => flat(getStroke(c.points, options(c.options)))),
  elements: (input.elements ?? []).map((e) => ({ outline: flat(freedrawStroke(e)), path: svgPath(e) })),
};
process.stdout.write(JSON.stringify(result));
