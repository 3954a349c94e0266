// Copies Excalidraw's font files next to the built page. Excalidraw loads
// fonts from window.EXCALIDRAW_ASSET_PATH + "fonts/…", and the page must
// work with no internet access, so they are served by dsh, never a CDN.
import { cpSync, existsSync } from "node:fs";

const from = new URL("./node_modules/@excalidraw/excalidraw/dist/prod/fonts", import.meta.url);
const to = new URL("../dist/app/fonts", import.meta.url);
if (!existsSync(from)) {
  throw new Error(`Excalidraw fonts not found at ${from.pathname}; run npm ci`);
}
cpSync(from, to, { recursive: true });
