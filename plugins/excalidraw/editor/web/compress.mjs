// Writes a brotli (.br) and a gzip (.gz) copy beside each compressible
// file of the built page (dist/app), so dsh can send the smaller one to a
// browser that accepts it instead of compressing on every request. A copy
// is written only when it is smaller than the file; files that are
// already compressed (woff2, png) are left alone. Runs after vite build
// and copy-fonts.mjs; `node compress.mjs DIR` does the same to DIR.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompress, constants, gzip } from "node:zlib";
import { promisify } from "node:util";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

// compressible is the file types worth compressing; the Go side serves
// the copies of any file that has them.
const compressible = new Set([".js", ".mjs", ".css", ".html", ".svg", ".json", ".map", ".wasm", ".ttf", ".otf"]);

// root is the built page, or the folder given as the argument.
const root = process.argv[2] ?? fileURLToPath(new URL("../dist/app", import.meta.url));

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(p);
    else if (entry.isFile()) yield p;
  }
}

function extension(p) {
  const dot = p.lastIndexOf(".");
  return dot < 0 ? "" : p.slice(dot).toLowerCase();
}

// variant writes data's compressed copy at p+suffix when it is smaller,
// and removes a stale one otherwise.
async function variant(p, data, suffix, compress) {
  const out = await compress(data);
  if (out.length < data.length) {
    writeFileSync(p + suffix, out);
    return out.length;
  }
  rmSync(p + suffix, { force: true });
  return data.length;
}

let before = 0;
let afterBr = 0;
let afterGz = 0;
const jobs = [];
for (const p of files(root)) {
  if (!compressible.has(extension(p))) continue;
  const data = readFileSync(p);
  before += data.length;
  jobs.push(
    variant(p, data, ".br", (d) =>
      brotli(d, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: d.length,
        },
      }),
    ).then((n) => (afterBr += n)),
    variant(p, data, ".gz", (d) => gz(d, { level: constants.Z_BEST_COMPRESSION })).then((n) => (afterGz += n)),
  );
}
await Promise.all(jobs);
const kb = (n) => `${Math.round(n / 1024)} KB`;
console.log(`compress.mjs: ${kb(before)} of text → ${kb(afterBr)} brotli, ${kb(afterGz)} gzip`);
