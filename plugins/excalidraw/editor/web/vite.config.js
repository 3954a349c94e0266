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

export default defineConfig({
  base: "/dsh-excalidraw/assets/",
  plugins: [react()],
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
