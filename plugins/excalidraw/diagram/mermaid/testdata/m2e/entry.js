// The page side of the comparison in ../../compare_test.go: runs
// @excalidraw/mermaid-to-excalidraw's parseMermaidToExcalidraw on each
// source and hands back, per source, the skeleton elements it returned,
// slimmed to what the structure needs (ids, label texts, ends, groups,
// bounds), or the error it threw. What it logged with console.error while
// converting (e.g. why it fell back to an image) comes along too.
import { parseMermaidToExcalidraw } from "@excalidraw/mermaid-to-excalidraw";

const logged = [];
const consoleError = console.error;
console.error = (...args) => {
  logged.push(args.map((a) => (a instanceof Error ? a.message : String(a))).join(" "));
  consoleError.apply(console, args);
};

const bounds = (el) => ({ x: el.x ?? 0, y: el.y ?? 0, width: el.width ?? 0, height: el.height ?? 0 });

const slim = (el) => ({
  type: el.type,
  id: el.id ?? "",
  label: el.label ? String(el.label.text ?? "") : null,
  start: el.start?.id ?? "",
  end: el.end?.id ?? "",
  groupIds: el.groupIds ?? [],
  ...bounds(el),
});

window.m2eVersion = __M2E_VERSION__;

window.m2e = async (sources) => {
  const results = [];
  for (const src of sources) {
    logged.length = 0;
    try {
      const { elements, files } = await parseMermaidToExcalidraw(src);
      results.push({ elements: elements.map(slim), files: Object.keys(files ?? {}).length, logged: [...logged] });
    } catch (e) {
      results.push({ error: String(e?.message ?? e), logged: [...logged] });
    }
  }
  return results;
};
