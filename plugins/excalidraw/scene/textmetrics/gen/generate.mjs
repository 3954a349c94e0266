#!/usr/bin/env node
// Generates ../metrics_table.go (font metrics + character classes) and
// ../testdata/conformance.json (tokenizer / wrapping oracle vectors) from the
// npm package @excalidraw/excalidraw pinned in package.json.
//
// Usage (see the //go:generate line in ../doc.go):
//
//	npm ci && node generate.mjs --out ../metrics_table.go --vectors ../testdata/conformance.json
//
// Without --out the Go source goes to stdout. Diagnostics go to stderr.
//
// What it reads from the package:
//   - dist/prod/fonts/**.woff2: advance widths (hmtx via cmap), unitsPerEm,
//     hhea ascender/descender/lineGap, and pair adjustments (GPOS kern and
//     2-character ligatures) obtained by shaping character pairs with fontkit;
//   - the readable dev bundle (dist/dev/chunk-*.js): FONT_FAMILY, the fallback
//     chain per family, FONT_METADATA (line heights), the font face
//     descriptors (file, unicode-range, weight) and the registration calls
//     that tie faces to families, a few layout constants, and the regular
//     expressions of element/textWrapping.ts. Those snippets are evaluated in
//     an isolated vm context: as data (objects, regexes), and, for the
//     conformance vectors only, as an oracle whose output the Go tests compare
//     against. Nothing from the bundle is copied into the Go package.

import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import vm from "node:vm";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as fontkit from "fontkit";

const here = path.dirname(fileURLToPath(import.meta.url));
const PKG = "@excalidraw/excalidraw";
const EXPECTED_VERSION = "0.18.1";

// ---------------------------------------------------------------- arguments
const args = process.argv.slice(2);
let outPath = null;
let vectorsPath = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--out") outPath = args[++i];
  else if (args[i] === "--vectors") vectorsPath = args[++i];
  else die(`unknown argument ${args[i]}`);
}

function die(msg) {
  process.stderr.write(`generate.mjs: ${msg}\n`);
  process.exit(1);
}
function note(msg) {
  process.stderr.write(`generate.mjs: ${msg}\n`);
}
function assert(cond, msg) {
  if (!cond) die(`assertion failed: ${msg}`);
}

// ---------------------------------------------------------------- package
const pkgDir = path.join(here, "node_modules", ...PKG.split("/"));
const pkgJson = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
assert(pkgJson.version === EXPECTED_VERSION, `${PKG} is ${pkgJson.version}, want ${EXPECTED_VERSION}`);
const fontkitVersion = JSON.parse(
  fs.readFileSync(path.join(here, "node_modules", "fontkit", "package.json"), "utf8"),
).version;

const devDir = path.join(pkgDir, "dist", "dev");
const prodFonts = path.join(pkgDir, "dist", "prod", "fonts");
const bundleFile = fs
  .readdirSync(devDir)
  .filter((f) => f.endsWith(".js"))
  .find((f) => fs.readFileSync(path.join(devDir, f), "utf8").includes("var FONT_METADATA = {"));
assert(bundleFile, "no dev chunk defines FONT_METADATA");
const bundle = fs.readFileSync(path.join(devDir, bundleFile), "utf8");

function slice(startMarker, endMarker, { includeEnd = false } = {}) {
  const a = bundle.indexOf(startMarker);
  assert(a >= 0, `marker not found: ${startMarker}`);
  const b = bundle.indexOf(endMarker, a + startMarker.length);
  assert(b >= 0, `end marker not found: ${endMarker}`);
  return bundle.slice(a, includeEnd ? b + endMarker.length : b);
}

function evaluate(code, context, resultExpr) {
  const ctx = vm.createContext({ ...context });
  return vm.runInContext(`${code}\n;(${resultExpr})`, ctx, { timeout: 10000 });
}

// constants.ts: FONT_FAMILY, fallbacks
const constantsSrc = slice("var CJK_HAND_DRAWN_FALLBACK_FONT", "var THEME =");
const C = evaluate(
  constantsSrc,
  {},
  "{FONT_FAMILY, FONT_FAMILY_FALLBACKS, getFontFamilyFallbacks, CJK_HAND_DRAWN_FALLBACK_FONT, WINDOWS_EMOJI_FALLBACK_FONT}",
);
const FONT_FAMILY = { ...C.FONT_FAMILY };
const FONT_FAMILY_FALLBACKS = { ...C.FONT_FAMILY_FALLBACKS };

function numConst(name) {
  const m = bundle.match(new RegExp(`var ${name} = ([0-9.]+);`));
  assert(m, `constant ${name} not found`);
  return Number(m[1]);
}
const BOUND_TEXT_PADDING = numConst("BOUND_TEXT_PADDING");
const ARROW_LABEL_WIDTH_FRACTION = numConst("ARROW_LABEL_WIDTH_FRACTION");
const ARROW_LABEL_FONT_SIZE_TO_MIN_WIDTH_RATIO = numConst("ARROW_LABEL_FONT_SIZE_TO_MIN_WIDTH_RATIO");
const DEFAULT_FONT_SIZE = numConst("DEFAULT_FONT_SIZE");
const defaultFamilyMatch = bundle.match(/var DEFAULT_FONT_FAMILY = FONT_FAMILY\.(\w+);/);
assert(defaultFamilyMatch, "DEFAULT_FONT_FAMILY not found");
const DEFAULT_FONT_FAMILY = FONT_FAMILY[defaultFamilyMatch[1]];

// FontMetadata.ts
const metadataSrc = slice("var FONT_METADATA = {", "var LOCAL_FONT_PROTOCOL", { includeEnd: false }) +
  slice("var LOCAL_FONT_PROTOCOL", ";", { includeEnd: true });
const iconStubs = Object.fromEntries([...metadataSrc.matchAll(/icon: (\w+)/g)].map((m) => [m[1], null]));
const M = evaluate(
  metadataSrc,
  { FONT_FAMILY, FONT_FAMILY_FALLBACKS, ...iconStubs },
  "{FONT_METADATA, GOOGLE_FONTS_RANGES, LOCAL_FONT_PROTOCOL}",
);

// fonts/*/index.ts: face descriptors
const uriVars = Object.fromEntries(
  [...bundle.matchAll(/var (\w+_default) = "(\.\/fonts\/[^"]+\.woff2)";/g)].map((m) => [m[1], m[2]]),
);
const faceLists = {};
for (const m of bundle.matchAll(/var (\w+FontFaces) = (\[[\s\S]*?\n\]);/g)) {
  faceLists[m[1]] = evaluate(
    `var __faces = ${m[2]};`,
    { ...uriVars, GOOGLE_FONTS_RANGES: M.GOOGLE_FONTS_RANGES, LOCAL_FONT_PROTOCOL: M.LOCAL_FONT_PROTOCOL },
    "__faces",
  );
}
const initSrc = slice("static init() {", "_Fonts._initialized = true;");
const registrations = [...initSrc.matchAll(/init\((.+?), \.\.\.(\w+FontFaces)\);/g)].map((m) => {
  const family = evaluate("", C, m[1]);
  assert(faceLists[m[2]], `face list ${m[2]} not found`);
  const id = FONT_FAMILY[family] ?? FONT_FAMILY_FALLBACKS[family];
  assert(id !== undefined, `unknown family ${family}`);
  return { family, id, faces: faceLists[m[2]] };
});
assert(registrations.length >= 8, "too few font registrations");

// textWrapping.ts (regexes + oracle) and the charWidth cache it uses.
const wrappingSrc = slice("// element/textWrapping.ts", "// element/bounds.ts");
const charWidthSrc = slice("var charWidth = ", "var getMaxCharWidth");

// ---------------------------------------------------------------- helpers
function parseUnicodeRange(spec) {
  if (!spec) return null;
  return spec.split(/,\s*/).map((part) => {
    const m = part.trim().match(/^U\+([0-9a-fA-F]+)(?:-([0-9a-fA-F]+))?$/);
    assert(m, `unsupported unicode-range part ${part}`);
    const lo = parseInt(m[1], 16);
    const hi = m[2] ? parseInt(m[2], 16) : lo;
    return [lo, hi];
  });
}
function inRanges(ranges, cp) {
  if (!ranges) return true;
  for (const [lo, hi] of ranges) if (cp >= lo && cp <= hi) return true;
  return false;
}
const hex = (n) => "0x" + n.toString(16);
const sha256 = (buf) => crypto.createHash("sha256").update(buf).digest("hex");
const reDI = /^\p{Default_Ignorable_Code_Point}$/u;

// ---------------------------------------------------------------- fonts
const sourceFiles = []; // {file, size, sha}
const fontCache = new Map();
function loadFace(uri) {
  assert(uri.startsWith("./fonts/"), `unexpected uri ${uri}`);
  const rel = uri.slice("./fonts/".length);
  if (fontCache.has(rel)) return fontCache.get(rel);
  const buf = fs.readFileSync(path.join(prodFonts, rel));
  const dev = fs.readFileSync(path.join(devDir, "fonts", rel));
  assert(buf.equals(dev), `dist/prod and dist/dev differ for ${rel}`);
  const font = fontkit.create(buf);
  const entry = { rel, font, sha: sha256(buf), size: buf.length };
  sourceFiles.push({ file: rel, size: buf.length, sha: entry.sha });
  fontCache.set(rel, entry);
  return entry;
}

// A table = one Excalidraw family's shipped faces merged through their
// unicode-range descriptors (what the browser's segmented font does).
function buildTable(name, faceDescs) {
  const faces = faceDescs.map((d) => {
    const e = loadFace(d.uri);
    return {
      ...e,
      unicodeRange: d.descriptors?.unicodeRange ?? "",
      ranges: parseUnicodeRange(d.descriptors?.unicodeRange),
      weight: d.descriptors?.weight ?? "400",
      cmap: new Set(e.font.characterSet),
    };
  });
  const upem = faces[0].font.unitsPerEm;
  for (const f of faces) {
    assert(f.font.unitsPerEm === upem, `${name}: unitsPerEm differs between subsets`);
  }
  // Resolve each code point to the face the browser picks: the last declared
  // face whose unicode-range includes it and whose cmap maps it.
  const resolved = new Map(); // cp -> {face, adv}
  const all = new Set();
  for (const f of faces) for (const cp of f.cmap) all.add(cp);
  for (const cp of [...all].sort((a, b) => a - b)) {
    for (let i = faces.length - 1; i >= 0; i--) {
      const f = faces[i];
      if (!inRanges(f.ranges, cp) || !f.cmap.has(cp)) continue;
      resolved.set(cp, { face: i, adv: f.font.glyphForCodePoint(cp).advanceWidth });
      break;
    }
  }
  // Single-character shaping sanity check: advance after GSUB must equal hmtx.
  let singleMismatch = 0;
  for (const [cp, r] of resolved) {
    if (cp > 0xffff || reDI.test(String.fromCodePoint(cp))) continue;
    if (cp >= 0x3000) continue; // CJK: nothing to substitute, keep it fast
    const run = faces[r.face].font.layout(String.fromCodePoint(cp));
    if (run.advanceWidth !== r.adv) singleMismatch++;
  }
  // Pair adjustments for Basic Latin + Latin-1, Greek and Cyrillic (no
  // controls, no spaces, no default-ignorables): shaped width of "ab" minus
  // the two advances. Latin-1 pairs with either script (punctuation after
  // a Cyrillic word), but Greek with Cyrillic never meet in a word.
  const block = (lo, hi) => {
    const out = [];
    for (let c = lo; c <= hi; c++) {
      if (c >= 0x7f && c <= 0xa0) continue;
      if (reDI.test(String.fromCodePoint(c))) continue;
      if (resolved.has(c)) out.push(c);
    }
    return out;
  };
  const latin = block(0x21, 0xff);
  const greek = block(0x370, 0x3ff);
  const cyrillic = block(0x400, 0x4ff);
  const pairs = function* () {
    for (const set of [latin.concat(greek), latin.concat(cyrillic)]) {
      for (const a of set) for (const b of set) yield [a, b];
    }
  };
  const seen = new Set();
  const kern = [];
  const ligatures = [];
  for (const [a, b] of pairs()) {
    {
      const key = a * 0x10000 + b;
      if (seen.has(key)) continue; // Latin-1 × Latin-1 comes twice
      seen.add(key);
      const ra = resolved.get(a);
      const rb = resolved.get(b);
      if (ra.face !== rb.face) continue; // different files are shaped separately
      const run = faces[ra.face].font.layout(String.fromCodePoint(a, b));
      const width = run.positions.reduce((s, p) => s + p.xAdvance, 0);
      const adj = width - ra.adv - rb.adv;
      if (run.glyphs.length !== 2) ligatures.push(String.fromCodePoint(a, b));
      if (adj !== 0) kern.push([a, b, adj]);
    }
  }
  const hhea = faces[0].font.hhea;
  const info = {
    name,
    upem,
    ascender: hhea.ascent,
    descender: hhea.descent,
    lineGap: hhea.lineGap,
    faces: faces.map((f) => ({ file: f.rel, unicodeRange: f.unicodeRange, weight: f.weight })),
    resolved,
    kern,
    ligatures,
    singleMismatch,
  };
  note(
    `${name}: ${faces.length} file(s), ${resolved.size} code points, ${kern.length} pair adjustments` +
      (ligatures.length ? `, 2-char ligatures: ${ligatures.join(" ")}` : "") +
      (singleMismatch ? `, ${singleMismatch} single-char shaping mismatches` : ""),
  );
  return info;
}

const byFamily = new Map(registrations.map((r) => [r.family, r]));
const shipped = (r) => r.faces.every((f) => !f.uri.startsWith(M.LOCAL_FONT_PROTOCOL));

// Tables: every registered family whose faces ship as files.
const tables = new Map();
for (const r of registrations) {
  if (!shipped(r)) continue;
  tables.set(r.family, buildTable(r.family, r.faces));
}

// Families (FONT_FAMILY order by id) and their measuring chain.
const HELVETICA_STAND_IN = "Liberation Sans";
const familyRows = Object.entries(FONT_FAMILY)
  .sort((a, b) => a[1] - b[1])
  .map(([name, id]) => {
    const reg = byFamily.get(name);
    assert(reg, `family ${name} is not registered`);
    const meta = M.FONT_METADATA[id] ?? M.FONT_METADATA[FONT_FAMILY.Excalifont];
    const fallbacks = C.getFontFamilyFallbacks(id);
    const chain = [];
    let standIn = "";
    if (shipped(reg)) {
      chain.push(name);
    } else {
      // Local-only family (Helvetica): no file ships. Measure with the
      // metric-compatible Liberation Sans that the package does ship.
      assert(name === "Helvetica", `unexpected local-only family ${name}`);
      standIn = HELVETICA_STAND_IN;
      chain.push(HELVETICA_STAND_IN);
    }
    for (const fb of fallbacks) if (tables.has(fb)) chain.push(fb);
    return {
      id,
      name,
      cssFamily: [name, ...fallbacks].join(", "),
      lineHeight: meta.metrics.lineHeight,
      meta: meta.metrics,
      deprecated: !!(M.FONT_METADATA[id] ?? {}).deprecated,
      standIn,
      chain,
    };
  });

// ---------------------------------------------------------------- classes
// Character classes of textWrapping.ts, evaluated with the bundle's own
// regular expressions (and Node's Unicode data) for every code point.
const W = evaluate(wrappingSrc, {}, "{COMMON, CJK, EMOJI}");
const expectSource = {
  "EMOJI.FLAG": [W.EMOJI.FLAG.source, String.raw`\p{RI}\p{RI}`],
  "EMOJI.JOINER": [W.EMOJI.JOINER.source, String.raw`(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?`],
  "EMOJI.ZWJ": [W.EMOJI.ZWJ.source, String.raw`\u200D`],
  "EMOJI.ANY": [W.EMOJI.ANY.source, String.raw`[\p{Emoji}]`],
  "EMOJI.MOST": [W.EMOJI.MOST.source, String.raw`[\p{Extended_Pictographic}\p{Emoji_Presentation}]`],
};
for (const [k, [got, want]] of Object.entries(expectSource)) {
  assert(got === want, `${k} changed: ${got}`);
}
const cls = (re) => new RegExp(`^[${re.source}]$`, "u");
const classes = [
  // [Go constant name, tester]; bit i of classRanges.bits is classes[i]
  ["clsSpace", cls(W.COMMON.WHITESPACE)],
  ["clsHyphen", cls(W.COMMON.HYPHEN)],
  ["clsOpening", cls(W.COMMON.OPENING)],
  ["clsClosing", cls(W.COMMON.CLOSING)],
  ["clsCJK", cls(W.CJK.CHAR)],
  ["clsCJKOpening", cls(W.CJK.OPENING)],
  ["clsCJKClosing", cls(W.CJK.CLOSING)],
  ["clsCurrency", cls(W.CJK.CURRENCY)],
  ["clsRegionalIndicator", /^\p{RI}$/u],
  ["clsEmojiModifier", /^\p{Emoji_Modifier}$/u],
  ["clsEmojiMost", new RegExp(`^${W.EMOJI.MOST.source}$`, "u")],
  ["clsEmojiAny", new RegExp(`^${W.EMOJI.ANY.source}$`, "u")],
  ["clsIgnorable", reDI],
];
const classRanges = [];
{
  let cur = null;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    let bits = 0;
    if (cp < 0xd800 || cp > 0xdfff) {
      const s = String.fromCodePoint(cp);
      for (let i = 0; i < classes.length; i++) if (classes[i][1].test(s)) bits |= 1 << i;
    }
    if (cur && cur.bits === bits && cur.hi === cp - 1) {
      cur.hi = cp;
      continue;
    }
    if (cur && cur.bits) classRanges.push(cur);
    cur = { lo: cp, hi: cp, bits };
  }
  if (cur && cur.bits) classRanges.push(cur);
}

// ---------------------------------------------------------------- Go output
const out = [];
const w = (s = "") => out.push(s);

function goString(s) {
  return JSON.stringify(s); // ASCII-safe enough: JSON escapes are valid Go for our inputs
}
const goFloat = (x) => String(x);
function goIdent(name) {
  return name.replace(/[^A-Za-z0-9]/g, "");
}

// Compress resolved advances into runs: constant stretches of >= 4 code
// points become {lo, hi, adv, -1}; everything else points into a pool.
function encodeRuns(resolved) {
  const cps = [...resolved.keys()].sort((a, b) => a - b);
  const runs = [];
  const pool = [];
  let i = 0;
  while (i < cps.length) {
    // contiguous segment [i, j)
    let j = i + 1;
    while (j < cps.length && cps[j] === cps[j - 1] + 1) j++;
    let k = i;
    let varStart = -1;
    const flushVar = (end) => {
      if (varStart < 0) return;
      runs.push([cps[varStart], cps[end - 1], 0, pool.length]);
      for (let t = varStart; t < end; t++) pool.push(resolved.get(cps[t]).adv);
      varStart = -1;
    };
    while (k < j) {
      let m = k + 1;
      const a = resolved.get(cps[k]).adv;
      while (m < j && resolved.get(cps[m]).adv === a) m++;
      if (m - k >= 4) {
        flushVar(k);
        runs.push([cps[k], cps[m - 1], a, -1]);
      } else if (varStart < 0) {
        varStart = k;
      }
      k = m;
    }
    flushVar(j);
    i = j;
  }
  for (const a of pool) assert(a >= 0 && a <= 0xffff, "advance out of uint16 range");
  return { runs, pool };
}

function wrapList(items, perLine) {
  const lines = [];
  for (let i = 0; i < items.length; i += perLine) lines.push("\t\t" + items.slice(i, i + perLine).join(", ") + ",");
  return lines;
}

w(`// Code generated by gen/generate.mjs from ${PKG}@${pkgJson.version}; DO NOT EDIT.`);
w();
w(`// Source: npm package ${PKG}@${pkgJson.version} (font files under`);
w(`// dist/prod/fonts, descriptors from dist/dev/${bundleFile}), parsed with`);
w(`// fontkit@${fontkitVersion} on Node ${process.version}. Character classes were evaluated`);
w(`// with the package's textWrapping.ts regular expressions on Node's Unicode data.`);
w(`// Regenerate with "go generate" in this directory (needs npm and the npm registry).`);
w(`//`);
w(`// Font files (path, bytes, sha256):`);
w(`//`);
const sortedFiles = [...sourceFiles].sort((a, b) => a.file.localeCompare(b.file));
for (const f of sortedFiles) w(`//	${f.file} ${f.size} sha256:${f.sha}`);
w();
w("package textmetrics");
w();
w("const (");
w(`\tsourcePackage = ${goString(PKG)}`);
w(`\tsourceVersion = ${goString(pkgJson.version)}`);
w(`\tfontParser = ${goString("fontkit@" + fontkitVersion)}`);
w(`\tboundTextPadding = ${BOUND_TEXT_PADDING}`);
w(`\tarrowLabelWidthFraction = ${goFloat(ARROW_LABEL_WIDTH_FRACTION)}`);
w(`\tarrowLabelFontSizeToMinWidthRatio = ${goFloat(ARROW_LABEL_FONT_SIZE_TO_MIN_WIDTH_RATIO)}`);
w(`\tdefaultFontSize = ${DEFAULT_FONT_SIZE}`);
w(`\tdefaultFamilyID = ${DEFAULT_FONT_FAMILY}`);
w(")");
w();
w("// sourceFiles lists every font file the tables below were read from.");
w("var sourceFiles = []sourceFile{");
for (const f of sortedFiles) w(`\t{${goString(f.file)}, ${f.size}, ${goString(f.sha)}},`);
w("}");
w();

const tableIdent = new Map();
let totalRuns = 0;
let totalPool = 0;
let totalKern = 0;
for (const [name, t] of tables) {
  const ident = "face" + goIdent(name);
  tableIdent.set(name, ident);
  const { runs, pool } = encodeRuns(t.resolved);
  totalRuns += runs.length;
  totalPool += pool.length;
  totalKern += t.kern.length;
  w(`// ${ident}: ${t.resolved.size} code points from ${t.faces.length} file(s), ${t.kern.length} pair adjustments.`);
  w(`var ${ident} = &faceTable{`);
  w(`\tname: ${goString(name)},`);
  w(`\tunitsPerEm: ${t.upem},`);
  w(`\tascender: ${t.ascender},`);
  w(`\tdescender: ${t.descender},`);
  w(`\tlineGap: ${t.lineGap},`);
  w(`\tsources: []FaceSource{`);
  for (const f of t.faces) {
    const sf = sourceFiles.find((s) => s.file === f.file);
    w(`\t\t{File: ${goString(f.file)}, SHA256: ${goString(sf.sha)}, UnicodeRange: ${goString(f.unicodeRange)}, Weight: ${goString(f.weight)}},`);
  }
  w(`\t},`);
  w(`\truns: []advRun{`);
  for (const r of runs) w(`\t\t{${hex(r[0])}, ${hex(r[1])}, ${r[2]}, ${r[3]}},`);
  w(`\t},`);
  w(`\tadvs: []uint16{`);
  for (const l of wrapList(pool, 16)) w(l);
  w(`\t},`);
  w(`\tkern: []kernPair{`);
  const kernItems = t.kern.map(([a, b, v]) => `{${hex(a)}, ${hex(b)}, ${v}}`);
  for (const l of wrapList(kernItems, 6)) w(l);
  w(`\t},`);
  w(`}`);
  w();
}

w("// familyTables describes every FONT_FAMILY entry of the package, by id.");
w("var familyTables = []familyTable{");
for (const f of familyRows) {
  w("\t{");
  w(`\t\tid: ${f.id},`);
  w(`\t\tname: ${goString(f.name)},`);
  w(`\t\tcssFamily: ${goString(f.cssFamily)},`);
  w(`\t\tlineHeight: ${goFloat(f.lineHeight)},`);
  w(`\t\tmetaUnitsPerEm: ${f.meta.unitsPerEm},`);
  w(`\t\tmetaAscender: ${f.meta.ascender},`);
  w(`\t\tmetaDescender: ${f.meta.descender},`);
  w(`\t\tdeprecated: ${f.deprecated},`);
  w(`\t\tstandIn: ${goString(f.standIn)},`);
  w(`\t\tfaces: []*faceTable{${f.chain.map((n) => tableIdent.get(n)).join(", ")}},`);
  w("\t},");
}
w("}");
w();
w("// classRanges holds the character classes of textWrapping.ts (and");
w("// Default_Ignorable_Code_Point) as sorted, non-overlapping ranges.");
w("var classRanges = []classRange{");
const bitExpr = (bits) =>
  classes
    .filter((_, i) => bits & (1 << i))
    .map((c) => c[0])
    .join("|");
for (const r of classRanges) w(`\t{${hex(r.lo)}, ${hex(r.hi)}, ${bitExpr(r.bits)}},`);
w("}");
w();

let goSrc = out.join("\n");
const fmt = spawnSync("gofmt", [], { input: goSrc, encoding: "utf8", maxBuffer: 64 << 20 });
if (fmt.status === 0) goSrc = fmt.stdout;
else note(`gofmt unavailable or failed (${fmt.error ?? fmt.stderr}); writing unformatted source`);

function writeAtomic(p, data) {
  const tmp = `${p}.tmp-${process.pid}`;
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, p);
}
if (outPath) writeAtomic(path.resolve(outPath), goSrc);
else process.stdout.write(goSrc);
note(
  `tables: ${tables.size}, runs: ${totalRuns}, pooled advances: ${totalPool}, pairs: ${totalKern}, ` +
    `class ranges: ${classRanges.length}, Go source: ${Buffer.byteLength(goSrc)} bytes`,
);

// ---------------------------------------------------------------- vectors
if (vectorsPath) {
  writeAtomic(path.resolve(vectorsPath), JSON.stringify(buildVectors(), null, 1) + "\n");
  note(`wrote ${vectorsPath}`);
}

// The oracle: the bundle's wrapText/parseTokens running on a synthetic,
// deterministic width function that the Go test re-implements
// (syntheticWidth in conformance_test.go).
function buildVectors() {
  const syntheticWidth = (text) => {
    let width = 0;
    let prev = -1;
    for (const ch of text) {
      const c = ch.codePointAt(0);
      width += c >= 0x1f000 ? 20 : c >= 0x2e80 ? 16 : 6 + (c % 5);
      if ((prev === 0x41 && c === 0x56) || (prev === 0x56 && c === 0x41) || (prev === 0x54 && c === 0x6f)) width -= 3;
      prev = c;
    }
    return width;
  };
  const oracle = evaluate(
    `${charWidthSrc}\n${wrappingSrc}`,
    {
      getLineWidth: (text) => syntheticWidth(text),
      define_import_meta_env_default: { MODE: "production", DEV: false },
      ENV: { TEST: "test" },
    },
    "{wrapText, parseTokens, charWidth}",
  );
  const texts = [
    "Hello world, this is a fairly long sentence that needs wrapping.",
    "Supercalifragilisticexpialidocious",
    "short",
    "",
    "x",
    "a b",
    "two  spaces   between    words",
    "trailing spaces     ",
    "   leading spaces",
    "    ",
    "line one\nline two is longer than the first\n\nafter blank",
    "well-known hyphen-separated compound-words -start end- a--b",
    "AVAVAVAV ToToTo WAVE",
    "这是一个中文句子，用于测试换行。",
    "日本語の文章「かぎ括弧」も、句読点も。テスト",
    "한국어 문장은 띄어쓰기를 사용합니다(괄호).",
    "Price￥100 and ＄5 or (￥200)",
    "emoji 😀 test 👍🏽 family 👨‍👩‍👧 flag 🇩🇪 keycap 1️⃣ end",
    "word😀word",
    "Decomposed: e\u0301te\u0301 cafe\u0301 re\u0301sume\u0301",
    "(parens)[brackets]{braces} a.b,c:d;e!f?g…h/i",
    "mixed English中文mixed text（全角）and「引用」",
    "©opyright™ symbols ® ok",
    "URL https://example.com/a/very/long/path?with=query&and=more",
    "nbsp\u00a0joined\u00a0words and\u3000ideographic space",
    "zero\u200bwidth\u200bspace separated",
  ];
  const tokens = [];
  for (const t of texts) for (const line of t.split("\n")) tokens.push({ line, tokens: oracle.parseTokens(line) });
  const widths = [-1, 0, 1, 10, 25, 40, 60, 100, 150, 300, 1000];
  const wraps = [];
  for (const text of texts) {
    const extra = new Set();
    const words = text.split(" ");
    extra.add(syntheticWidth(words[0]));
    if (words.length > 1) extra.add(syntheticWidth(words.slice(0, 2).join(" ")));
    if (words.length > 2) extra.add(syntheticWidth(words.slice(0, 3).join(" ")) - 1);
    for (const maxWidth of [...widths, ...extra]) {
      oracle.charWidth.clearCache("synthetic");
      wraps.push({ text, maxWidth, want: oracle.wrapText(text, "synthetic", maxWidth) });
    }
  }
  return {
    comment:
      `Generated by gen/generate.mjs from ${PKG}@${pkgJson.version}: parseTokens and wrapText ` +
      "of element/textWrapping.ts evaluated with the synthetic width of conformance_test.go.",
    tokens,
    wraps,
  };
}
