// Reads a JSON array of Excalidraw elements on stdin, runs
// @excalidraw/excalidraw's own restoreElements(elements, null) on them and
// prints the result as JSON on stdout. With --repair-bindings it passes
// { repairBindings: true }, as Excalidraw does when it loads a file.
//
// The package's ESM build is made for bundlers (extension-less imports,
// JSON imports, CommonJS dependencies), so Node cannot import it as is:
// the first run bundles the one export needed with esbuild into
// node_modules/.cache, one file per installed package version.
// Its browser-only module code runs on a jsdom window.
import { build } from "esbuild";
import { JSDOM } from "jsdom";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

async function bundle() {
  const pkgFile = path.join(here, "node_modules", "@excalidraw", "excalidraw", "package.json");
  const pkg = JSON.parse(fs.readFileSync(pkgFile, "utf8"));
  const cacheDir = path.join(here, "node_modules", ".cache");
  const out = path.join(cacheDir, `excalidraw-restore-${pkg.version}.mjs`);
  if (fs.existsSync(out)) return out;
  fs.mkdirSync(cacheDir, { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  await build({
    stdin: {
      contents: 'export { restoreElements } from "@excalidraw/excalidraw";',
      resolveDir: here,
      loader: "js",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: tmp,
    logLevel: "error",
    loader: { ".css": "empty", ".woff2": "empty", ".ttf": "empty" },
  });
  fs.renameSync(tmp, out); // atomic: concurrent runs never see half a file
  return out;
}

function installDom() {
  const dom = new JSDOM("<!doctype html><html><body></body></html>", {
    url: "http://localhost/",
    pretendToBeVisual: true,
  });
  // Module code probes a 2D context at load time (e.g. for "filter"
  // support); jsdom has none without the native canvas package. restore
  // measures no text unless asked to refresh dimensions, so a context that
  // accepts every call is enough.
  dom.window.HTMLCanvasElement.prototype.getContext = function () {
    return new Proxy(
      {},
      {
        get: (t, k) => (k === "measureText" ? () => ({ width: 0 }) : t[k] ?? (() => {})),
        set: (t, k, v) => ((t[k] = v), true),
        has: () => true,
      },
    );
  };
  for (const key of Object.getOwnPropertyNames(dom.window)) {
    if (key in globalThis) continue;
    Object.defineProperty(globalThis, key, {
      configurable: true,
      get: () => dom.window[key],
    });
  }
  for (const key of ["navigator", "window", "document", "location", "localStorage"]) {
    Object.defineProperty(globalThis, key, { configurable: true, get: () => dom.window[key] });
  }
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

const file = await bundle();
installDom();
const { restoreElements } = await import(pathToFileURL(file).href);
const elements = JSON.parse(await readStdin());
const opts = process.argv.includes("--repair-bindings") ? { repairBindings: true } : undefined;
process.stdout.write(JSON.stringify(restoreElements(elements, null, opts)));
