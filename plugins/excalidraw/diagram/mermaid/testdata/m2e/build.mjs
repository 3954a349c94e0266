// Bundles entry.js with the installed @excalidraw/mermaid-to-excalidraw
// into dist/m2e.js, one script for a page (the test serves it to headless
// Chromium). npm run build; make node-deps runs it.
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(
  fs.readFileSync(path.join(here, "node_modules", "@excalidraw", "mermaid-to-excalidraw", "package.json"), "utf8"),
);
const out = path.join(here, "dist", "m2e.js");
fs.mkdirSync(path.dirname(out), { recursive: true });
const tmp = `${out}.${process.pid}.tmp`;
await build({
  entryPoints: [path.join(here, "entry.js")],
  bundle: true,
  format: "iife",
  platform: "browser",
  target: "es2022",
  outfile: tmp,
  logLevel: "error",
  define: { __M2E_VERSION__: JSON.stringify(pkg.version) },
});
fs.renameSync(tmp, out); // atomic: a test never reads half a file
