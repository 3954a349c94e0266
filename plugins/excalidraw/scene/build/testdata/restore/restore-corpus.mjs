// Batch variant of restore.mjs, for tests that restore many scenes at once
// (../../../normalize_corpus_test.go restores every corpus file): loading
// the bundled editor costs about a second, so it is loaded once.
//
// Reads a JSON array of scenes on stdin, each scene an array of elements,
// and prints a JSON array with, for each scene, a pair
// [restoreElements(scene, null), restoreElements(scene, null, { repairBindings: true })],
// or {"error": "..."} when restore throws on the scene (it does on some
// broken input). Each call gets its own copy of the scene: restore with
// repairBindings mutates what it is given.
//
// The bundle is the one restore.mjs builds into node_modules/.cache; when
// it is missing, restore.mjs is run once on an empty scene to build it.
import { JSDOM } from "jsdom";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

function bundlePath() {
  const pkgFile = path.join(here, "node_modules", "@excalidraw", "excalidraw", "package.json");
  const { version } = JSON.parse(fs.readFileSync(pkgFile, "utf8"));
  return path.join(here, "node_modules", ".cache", `excalidraw-restore-${version}.mjs`);
}

function ensureBundle() {
  const out = bundlePath();
  if (fs.existsSync(out)) return out;
  const run = spawnSync(process.execPath, [path.join(here, "restore.mjs")], { input: "[]", cwd: here });
  if (run.status !== 0 || !fs.existsSync(out)) {
    throw new Error(`restore.mjs could not build the bundle: ${run.stderr}`);
  }
  return out;
}

// The bundle's module code touches browser globals when it loads; give it
// a jsdom window, with a 2D context that accepts every call (restore
// measures no text unless asked to refresh dimensions).
function installDom() {
  const dom = new JSDOM("<!doctype html><html><body></body></html>", {
    url: "http://localhost/",
    pretendToBeVisual: true,
  });
  dom.window.HTMLCanvasElement.prototype.getContext = () =>
    new Proxy(
      {},
      {
        get: (t, k) => (k === "measureText" ? () => ({ width: 0 }) : t[k] ?? (() => {})),
        set: (t, k, v) => ((t[k] = v), true),
        has: () => true,
      },
    );
  const globals = new Set([...Object.getOwnPropertyNames(dom.window)].filter((k) => !(k in globalThis)));
  for (const k of ["navigator", "window", "document", "location", "localStorage"]) globals.add(k);
  for (const key of globals) {
    Object.defineProperty(globalThis, key, { configurable: true, get: () => dom.window[key] });
  }
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

// Whatever the editor logs must not end up in the JSON on stdout.
for (const k of ["log", "info", "warn", "debug"]) console[k] = console.error;

const file = ensureBundle();
installDom();
const { restoreElements } = await import(pathToFileURL(file).href);
const scenes = JSON.parse(await readStdin());
const out = scenes.map((scene) => {
  const text = JSON.stringify(scene);
  try {
    return [
      restoreElements(JSON.parse(text), null),
      restoreElements(JSON.parse(text), null, { repairBindings: true }),
    ];
  } catch (e) {
    return { error: String(e?.stack ?? e) };
  }
});
process.stdout.write(JSON.stringify(out));
