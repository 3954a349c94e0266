// Builds the editor page into ../dist/app, which the Go package embeds and
// the plugin serves: index.html at /dsh-excalidraw/, everything else under
// /dsh-excalidraw/assets/ (the plugin's whitelisted asset route).
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url)));
const excalidraw = JSON.parse(
  readFileSync(new URL("./node_modules/@excalidraw/excalidraw/package.json", import.meta.url)),
);

// Excalidraw gives every font two sources: EXCALIDRAW_ASSET_PATH (dsh
// serves the fonts there) and a CDN fallback (esm.sh). The page's CSP
// blocks the CDN, and each blocked attempt is a console error — hundreds
// per load. So the fallback source is taken out of the bundle at build
// time: Excalidraw builds each font's URL list and then appends
// `new URL(path, X.ASSETS_FALLBACK_URL)`; that append becomes a no-op. The
// build fails if the code is not found exactly once, so an Excalidraw
// upgrade that changes it is noticed rather than silently undone.
function offlineFonts() {
  const fallbackPush = /\.push\(new URL\([A-Za-z_$][\w$]*,[A-Za-z_$][\w$]*\.ASSETS_FALLBACK_URL\)\)/g;
  let rewrites = 0;
  return {
    name: "dsh-offline-fonts",
    transform(code, id) {
      if (!id.includes("@excalidraw/excalidraw") || !code.includes("ASSETS_FALLBACK_URL")) return null;
      const out = code.replace(fallbackPush, () => {
        rewrites++;
        return ".push()";
      });
      return out === code ? null : { code: out, map: null };
    },
    buildEnd() {
      if (rewrites !== 1) {
        this.error(`dsh-offline-fonts: expected to remove Excalidraw's font CDN fallback once, removed it ${rewrites} times`);
      }
    },
  };
}

export default defineConfig({
  base: "/dsh-excalidraw/assets/",
  plugins: [react(), offlineFonts()],
  define: {
    // The build id the page reports in its `mounted` evidence.
    __DSH_BUILD__: JSON.stringify(`dsh-editor@${pkg.version} excalidraw@${excalidraw.version}`),
    "process.env.IS_PREACT": JSON.stringify("false"),
  },
  build: {
    outDir: "../dist/app",
    emptyOutDir: true,
    assetsDir: "app",
    // Excalidraw is one large module; splitting it buys nothing here.
    chunkSizeWarningLimit: 8000,
    sourcemap: false,
  },
});
