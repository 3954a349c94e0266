// Runs the real rough.js generator for the differential test in
// ../diff_test.go. Usage: node rough.mjs <node_modules dir>, with a JSON
// array of cases on stdin, each {"shape", "args", "options"}: it calls
// generator[shape](...args, options) and prints one JSON array, per case
// {"sets": [{"type", "ops", "data"}, ...]} or {"error": message}: ops has a
// letter per operation (m move, l lineTo, c bcurveTo) and data all their
// numbers in a row. A result with a NaN or infinite number says
// {"nonFinite": true} instead, as JSON has no such numbers.
//
// roughjs's bin/ modules (what Excalidraw 0.18.1 imports) use
// extension-less relative imports, which Node cannot load as they are, so
// they are bundled in memory with esbuild first.
//
// Math.random is replaced, before each case, by the stand-in the Go package
// uses where rough.js takes Math.random: the same 48271 generator seeded
// with 1.
import { createRequire } from "node:module";
import path from "node:path";

const nodeModules = path.resolve(process.argv[2] || "");
const require = createRequire(path.join(nodeModules, "noop.js"));
const esbuild = require("esbuild");

const bundled = esbuild.buildSync({
  entryPoints: [path.join(nodeModules, "roughjs", "bin", "generator.js")],
  bundle: true,
  format: "esm",
  platform: "node",
  write: false,
  logLevel: "error",
});
const source = bundled.outputFiles[0].text;
const { RoughGenerator } = await import(
  "data:text/javascript;base64," + Buffer.from(source).toString("base64")
);

let standIn = 1;
Math.random = () => {
  standIn = Math.imul(48271, standIn);
  return ((2 ** 31 - 1) & standIn) / 2 ** 31;
};

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const generator = new RoughGenerator();
const out = cases.map(({ shape, args, options }) => {
  standIn = 1;
  try {
    const d = generator[shape](...args, options);
    const letter = { move: "m", lineTo: "l", bcurveTo: "c" };
    const sets = d.sets.map((s) => ({
      type: s.type,
      ops: s.ops.map((op) => letter[op.op]).join(""),
      data: s.ops.flatMap((op) => op.data),
    }));
    if (sets.some((s) => s.data.some((v) => !Number.isFinite(v)))) return { nonFinite: true };
    return { sets };
  } catch (e) {
    return { error: String(e && e.message ? e.message : e) };
  }
});
process.stdout.write(JSON.stringify(out));
